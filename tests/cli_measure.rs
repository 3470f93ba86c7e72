//! `sightline measure` from outside: the binary, its JSON, its exit codes and messages.

use serde_json::Value;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sightline"))
}

fn scene_path(name: &str) -> String {
    format!("{}/assets/scenes/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn measure(args: &[&str]) -> (i32, Value, String) {
    let out = bin().arg("measure").args(args).output().expect("run sightline");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json, String::from_utf8_lossy(&out.stderr).to_string())
}

fn find<'v>(pairs: &'v Value, from: &str, to: &str) -> &'v Value {
    pairs
        .as_array()
        .and_then(|a| a.iter().find(|p| p["from"] == from && p["to"] == to))
        .unwrap_or_else(|| panic!("no pair {from} -> {to}"))
}

#[test]
fn measure_reports_every_ordered_pair() {
    let (code, v, err) = measure(&[&scene_path("zoc-constants.json")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["pairs"].as_array().map(Vec::len), Some(4 * 3));
    let p = find(&v["pairs"], "a1", "b1");
    assert_eq!(p["distance"], 7.916);
    assert_eq!(p["in_zoc"], true);
    assert_eq!(p["lof"], "clear");
    assert_eq!(p["witness"].as_array().map(Vec::len), Some(2));
    let p = find(&v["pairs"], "a2", "b2");
    assert_eq!(p["distance"], 8.116);
    assert_eq!(p["in_zoc"], false);
    assert!(v["routes"].as_array().is_some_and(Vec::is_empty));
}

#[test]
fn measure_names_blockers_and_reports_routes() {
    let (code, v, err) = measure(&[&scene_path("wall.json"), "--visibility", "a1"]);
    assert_eq!(code, 0, "{err}");
    let p = find(&v["pairs"], "a1", "b1");
    assert_eq!(p["lof"], "blocked");
    assert_eq!(p["blocked_by"], serde_json::json!(["wall1"]));
    assert_eq!(p["witness"], Value::Null);
    let routes = v["routes"].as_array().expect("routes");
    assert_eq!(routes.len(), 1);
    assert_eq!(routes[0]["trooper"], "a1");
    assert_eq!(routes[0]["length"], 6.0);
    let b1 = routes[0]["events"].as_array().and_then(|e| e.iter().find(|e| e["observer"] == "b1")).expect("b1");
    assert_eq!(b1["first_lof"], Value::Null);
    // 2" + (5.911 - 5): see tests/geometry_scenes.rs wall_scene_route_events for the working.
    assert_eq!(b1["first_zoc"]["along"], 2.911);
    let poly = v["visibility"]["a1"].as_array().expect("polygon");
    assert!(poly.len() >= 4);
}

#[test]
fn routes_name_the_terrain_they_pass_into_and_whether_it_may_be_vaulted() {
    let (code, v, err) = measure(&[&scene_path("movement.json")]);
    assert_eq!(code, 0, "{err}");
    let routes = v["routes"].as_array().expect("routes");
    let route = |id: &str| routes.iter().find(|r| r["trooper"] == id).unwrap_or_else(|| panic!("no route of {id}"));
    // a1 (S2, at x = 6) walks east along y = 10 over a 1" crate (x 12–14) and into a 3" wall
    // (x 20–21). Its base counts as in a footprint once it reaches 0.1" (MOVE_CONTACT_SLACK_IN)
    // into it: when its centre is 12.5 mm − 0.1" short of the piece.
    let reach = 12.5 / 25.4 - sightline::geometry::MOVE_CONTACT_SLACK_IN;
    let r3 = |x: f64| (x * 1000.0).round() / 1000.0;
    // It walks up onto the crate where its centre reaches it (x = 12) and down where it leaves
    // (x = 14): from the table, its base is in the crate's footprint before and after; on the
    // crate, the crate is not above it. The wall's 3" it does not step up: it stays on the table.
    let crosses = route("a1")["crosses"].as_array().expect("crosses");
    assert_eq!(crosses.len(), 3, "{crosses:?}");
    for (k, (from, to)) in [(12.0 - 6.0 - reach, 12.0 - 6.0), (14.0 - 6.0, 14.0 - 6.0 + reach)].into_iter().enumerate()
    {
        assert_eq!(
            (&crosses[k]["terrain"], &crosses[k]["level"], &crosses[k]["vault"], &crosses[k]["rise"]),
            (&"crate".into(), &0.0.into(), &true.into(), &1.0.into())
        );
        assert_eq!(crosses[k]["stretches"][0]["from"], r3(from));
        assert_eq!(crosses[k]["stretches"][0]["to"], r3(to));
    }
    assert_eq!(
        (&crosses[2]["terrain"], &crosses[2]["vault"], &crosses[2]["rise"]),
        (&"wall".into(), &false.into(), &3.0.into())
    );
    assert_eq!(crosses[2]["stretches"][0]["from"], r3(20.0 - 6.0 - reach));
    assert_eq!(crosses[2]["stretches"][0]["to"], r3(21.0 - 6.0 + reach));
    assert_eq!(crosses[2]["stretches"][0]["start"], serde_json::json!([r3(20.0 - reach), 10.0]));
    let steps = route("a1")["steps"].as_array().expect("steps");
    let step = |k: usize| (steps[k]["along"].clone(), steps[k]["to"].clone(), steps[k]["taken"].clone());
    assert_eq!(steps.len(), 3, "{steps:?}");
    assert_eq!(step(0), (6.0.into(), 1.0.into(), true.into()));
    assert_eq!(step(1), (8.0.into(), 0.0.into(), true.into()));
    assert_eq!(step(2), (14.0.into(), 3.0.into(), false.into()));
    assert_eq!(route("a1")["end_level"], 0.0);
    let on_crate = route("a1")["levels"].as_array().expect("levels").iter().filter(|p| p[2] == 1.0).count();
    assert_eq!(on_crate, 2, "the two ends of the stretch on the crate's top");
    // a2 goes round the wall's end: no terrain in its way. On the way it passes through its ally
    // a3 (an S2, as tall as it: it may) and by the enemy b2 (it may not), whose centre is 0.5"
    // off its path: they overlap along a chord of half-length sqrt(reach² − 0.5²), reach being
    // both radii less the slack.
    assert_eq!(route("a2")["crosses"], serde_json::json!([]));
    let bases = route("a2")["crosses_bases"].as_array().expect("crosses_bases");
    assert_eq!(bases.len(), 2, "{bases:?}");
    assert_eq!((&bases[0]["trooper"], &bases[0]["pass"]), (&"a3".into(), &true.into()));
    assert_eq!(
        (&bases[1]["trooper"], &bases[1]["pass"], &bases[1]["ends_inside"]),
        (&"b2".into(), &false.into(), &false.into())
    );
    let reach2 = 25.0 / 25.4 - sightline::geometry::MOVE_CONTACT_SLACK_IN;
    let half = (reach2 * reach2 - 0.25f64).sqrt();
    // b2 at x = 26 on the last leg, which starts 18" along the route at x = 16.
    assert_eq!(bases[1]["stretches"][0]["from"], r3(18.0 + 10.0 - half));
    assert_eq!(bases[1]["stretches"][0]["to"], r3(18.0 + 10.0 + half));
    assert_eq!(route("a1")["crosses_bases"], serde_json::json!([]));
}

#[test]
fn a_bad_scene_exits_2_naming_the_file_and_field() {
    let dir = std::env::temp_dir().join(format!("sightline-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"troopers": [{"id": "a", "side": "A", "silhouette": 11, "x": 1, "y": 1}]}"#)
        .expect("write");
    let (code, _, err) = measure(&[bad.to_str().expect("utf8")]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.json") && err.contains("troopers[0] (\"a\").silhouette"), "{err}");

    std::fs::write(&bad, "{\"troopers\": [ {\"id\": \"a\"").expect("write");
    let (code, _, err) = measure(&[bad.to_str().expect("utf8")]);
    assert_eq!(code, 2);
    assert!(err.contains("line 1"), "{err}");

    let (code, _, err) = measure(&[dir.join("missing.json").to_str().expect("utf8")]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.json") && err.contains("cannot read"), "{err}");

    let (code, _, err) = measure(&[&scene_path("wall.json"), "--visibility", "nobody"]);
    assert_eq!(code, 2);
    assert!(err.contains("--visibility nobody"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A table so large that distances on it overflowed (a 10³⁰⁰" table gave `null` distances) is
/// refused, naming the field; so is a terrain corner out where no table reaches. On the largest
/// table accepted, troopers at opposite corners are measured, in finite numbers.
#[test]
fn tables_too_large_to_measure_are_refused_and_the_largest_is_measured() {
    let dir = std::env::temp_dir().join(format!("sightline-cli-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let file = dir.join("big.json");
    let scene = |side: f64, corner: f64| {
        format!(
            r#"{{"table": {{"width": {side:e}, "depth": {side:e}}},
                "troopers": [{{"id": "a", "side": "A", "silhouette": 2, "x": 1, "y": 1, "facing": 45, "route": [[{r:e}, 1], [{r:e}, {h:e}]]}},
                             {{"id": "b", "side": "B", "silhouette": 2, "x": {r:e}, "y": {r:e}, "facing": 225}}],
                "terrain": [{{"id": "w", "polygon": [[10, 10], [{corner:e}, 10], [{corner:e}, 11]], "height": 3}}]}}"#,
            r = side - 1.0,
            h = side / 2.0
        )
    };
    std::fs::write(&file, scene(1e300, 20.0)).expect("write");
    let (code, _, err) = measure(&[file.to_str().expect("utf8")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("table.width") && err.contains("1e300"), "{err}");
    std::fs::write(&file, scene(48.0, 1e300)).expect("write");
    let (code, _, err) = measure(&[file.to_str().expect("utf8")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("terrain[0]") && err.contains("polygon point 1"), "{err}");

    std::fs::write(&file, scene(sightline::geometry::MAX_TABLE_SIDE_IN, 20.0)).expect("write");
    let (code, v, err) = measure(&[file.to_str().expect("utf8")]);
    assert_eq!(code, 0, "{err}");
    let d = find(&v["pairs"], "a", "b")["distance"].as_f64().expect("a finite distance");
    assert!((d - (2f64.sqrt() * (1e6 - 2.0) - 2.0 * 12.5 / 25.4)).abs() < 1e-3, "{d}");
    let events = &v["routes"][0]["events"][0];
    assert_eq!(events["lof_stretches"][0]["to"].as_f64(), v["routes"][0]["length"].as_f64(), "{events}");
    // (Every number is one: `null` only where the format says "or null".)
    fn nulls(v: &Value, at: &str, out: &mut Vec<String>) {
        match v {
            Value::Null if !["witness", "first_lof", "first_zoc"].iter().any(|k| at.ends_with(k)) => {
                out.push(at.into())
            }
            Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| nulls(x, &format!("{at}[{i}]"), out)),
            Value::Object(o) => o.iter().for_each(|(k, x)| nulls(x, &format!("{at}.{k}"), out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    nulls(&v, "", &mut found);
    assert!(found.is_empty(), "null at {found:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    use std::io::Read as _;
    use std::process::Stdio;
    // The 30 v 30 scene's answer is far larger than a pipe's buffer, so the write surely meets
    // the closed pipe (`sightline measure … | head -c 100`).
    let mut child = bin()
        .args(["measure", &scene_path("bench-30v30.json")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sightline");
    let mut head = [0u8; 100];
    child.stdout.take().expect("stdout").read_exact(&mut head).expect("the answer's first bytes");
    // (The read end is dropped here: the rest of the write fails with a broken pipe.)
    let out = child.wait_with_output().expect("wait for sightline");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(head.starts_with(b"{"), "{}", String::from_utf8_lossy(&head));
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}

/// `ladder.json`: a1 walks up the building's ladder onto its roof (the step taken, marked
/// `ladder`), where b1 sees it over the wall; a2, 7.5" along the same side, is stopped by the wall.
/// A ladder off the building's outline is refused, naming the piece and the ladder.
#[test]
fn a_route_goes_up_a_ladder_and_one_beside_it_does_not() {
    let (code, v, err) = measure(&[&scene_path("ladder.json")]);
    assert_eq!(code, 0, "{err}");
    let route = |id: &str| v["routes"].as_array().and_then(|r| r.iter().find(|r| r["trooper"] == id)).cloned();
    let a1 = route("a1").expect("a1's route");
    assert_eq!(a1["steps"][0]["ladder"], true);
    assert_eq!(a1["steps"][0]["taken"], true);
    assert_eq!(a1["end_level"], 3.0);
    let b1 = a1["events"].as_array().and_then(|e| e.iter().find(|e| e["observer"] == "b1")).cloned();
    assert_eq!(b1.expect("b1")["first_lof"]["along"], 2.0, "b1 sees a1 once it is up on the roof");
    let a2 = route("a2").expect("a2's route");
    assert_eq!(a2["steps"][0]["taken"], false);
    assert!(a2["steps"][0].get("ladder").is_none());
    assert_eq!(a2["end_level"], 0.0);

    let dir = std::env::temp_dir().join(format!("sightline-cli-ladder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let bad = dir.join("bad-ladder.json");
    let text = std::fs::read_to_string(scene_path("ladder.json")).expect("scene");
    std::fs::write(&bad, text.replace("[[10, 22], [10, 23]]", "[[10, 22], [12, 23]]")).expect("write");
    let (code, _, err) = measure(&[bad.to_str().expect("utf8")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("terrain[0] (\"building\")") && err.contains("ladder 0"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
