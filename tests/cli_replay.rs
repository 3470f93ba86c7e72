//! `sightline replay` on the shipped example games, and on malformed game files.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// Run `sightline replay` with `args`: (exit code, stdout lines as JSON, stderr).
fn replay(args: &[&str]) -> (i32, Vec<Value>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sightline")).arg("replay").args(args).output().expect("run sightline");
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect();
    (out.status.code().unwrap_or(-1), lines, String::from_utf8_lossy(&out.stderr).into_owned())
}

fn path(name: &str) -> String {
    fixture(name).to_string_lossy().into_owned()
}

fn eligible(line: &Value) -> Vec<String> {
    line["state"]["order"]["eligible_aros"]
        .as_array()
        .map(|a| a.iter().filter_map(|e| e["trooper"].as_str().map(String::from)).collect())
        .unwrap_or_default()
}

#[test]
fn full_order_with_aros_in_both_windows() {
    let (code, lines, _) = replay(&[&path("full-order-aros.jsonl")]);
    assert_eq!(code, 0);
    assert!(lines.iter().all(|l| l["result"] == "accepted"));
    // After the first Move: the haris, hacker (through its Repeater) and others may react; b3 may not.
    let w1 = eligible(&lines[3]);
    assert!(w1.contains(&"b1".into()) && w1.contains(&"b_hack".into()) && !w1.contains(&"b3".into()), "{w1:?}");
    let hack = lines[3]["state"]["order"]["eligible_aros"]
        .as_array()
        .and_then(|a| a.iter().find(|e| e["trooper"] == "b_hack"))
        .cloned()
        .expect("b_hack eligible");
    assert!(
        hack["reasons"].as_array().is_some_and(|r| r.iter().any(|r| r["why"] == "hacking_area" && r["via"] == "b_rep"))
    );
    // Window 2: only b3, which could not react in window 1.
    assert_eq!(lines[9]["state"]["order"]["step"], "aro_window2");
    assert_eq!(eligible(&lines[9]), vec!["b3"]);
    let lost = lines[8]["state"]["order"]["lost_aros"].as_array().map(|a| a.len()).unwrap_or(0);
    assert!(lost >= 2, "eligible troopers that did not declare lost their ARO");
    // Resolution: b2 Unconscious leaves the haris.
    let last = lines.last().expect("lines");
    assert_eq!(last["state"]["fireteams"]["B"][0]["members"], serde_json::json!(["b1", "b3"]));
    assert_eq!(last["state"]["order"], Value::Null);
}

#[test]
fn a_fireteam_losing_members() {
    let (code, lines, _) = replay(&[&path("fireteam-loses-member.jsonl")]);
    assert_eq!(code, 0);
    assert_eq!(
        lines[5]["state"]["fireteams"]["A"][0]["members"],
        serde_json::json!(["a1", "a2"]),
        "a3 out of Coherency"
    );
    assert_eq!(lines[5]["state"]["fireteams"]["A"][0]["left"], serde_json::json!(["a3"]));
    assert_eq!(
        lines[9]["state"]["fireteams"]["A"],
        serde_json::json!([]),
        "a2 Unconscious: one member left, cancelled"
    );
}

#[test]
fn loss_of_lieutenant_walkthrough() {
    let (code, lines, _) = replay(&[&path("loss-of-lieutenant.jsonl")]);
    assert_eq!(code, 0);
    let count_b = &lines[8]["state"];
    assert_eq!(count_b["loss_of_lieutenant"]["B"], true);
    assert_eq!(count_b["pools"]["B"], serde_json::json!([0]), "everyone Irregular");
    assert_eq!(count_b["held_orders"]["B"]["lieutenant"]["orders"], 0);
    let last = &lines.last().expect("lines")["state"];
    assert_eq!(last["loss_of_lieutenant"]["B"], false);
    assert_eq!(last["held_orders"]["B"]["lieutenant"]["usable_by"], serde_json::json!(["b3"]));
}

#[test]
fn rejected_declarations_name_the_rule_and_replay_goes_on() {
    let (code, lines, _) = replay(&[&path("rejected-declaration.jsonl")]);
    assert_eq!(code, 1, "exit 1 when any event was rejected");
    let rejected: Vec<&Value> = lines.iter().filter(|l| l["result"] == "rejected").collect();
    assert_eq!(rejected.len(), 2);
    assert_eq!(rejected[0]["rule"], "Line of Fire");
    assert_eq!(rejected[1]["rule"], "Structure of an Order");
    assert_eq!(lines.last().expect("lines")["result"], "accepted", "replay goes on past a rejection");
}

#[test]
fn moves_too_long_or_through_a_wall_are_refused_naming_the_rule() {
    // a1 (MOV 4-2) at (16, 10), a 3" wall at x 20–21: 8" is too far, 4" straight into the wall
    // passes into it, 4" round a corner is a Move; then 2.5" is too far for the second Move, 2" is
    // not.
    let (code, lines, _) = replay(&[&path("movement.jsonl")]);
    assert_eq!(code, 1);
    let rejected: Vec<(&Value, &Value)> =
        lines.iter().filter(|l| l["result"] == "rejected").map(|l| (&l["index"], &l["rule"])).collect();
    let want = [(3, "Move"), (4, "General Movement Rules"), (7, "Move")];
    assert_eq!(rejected.len(), want.len(), "{rejected:?}");
    for ((i, rule), (wi, wrule)) in rejected.iter().zip(want) {
        assert_eq!((i.as_u64(), rule.as_str()), (Some(wi), Some(wrule)));
    }
    let (_, at, _) = replay(&[&path("movement.jsonl"), "--at", "10"]);
    let a1 = at[0]["troopers"].as_array().and_then(|t| t.iter().find(|t| t["id"] == "a1")).expect("a1");
    assert_eq!((&a1["position"]["x"], &a1["position"]["y"]), (&19.0.into(), &13.0.into()));
    assert_eq!(a1["mov"], serde_json::json!([4.0, 2.0]));
}

/// Levels (`levels.jsonl`): a1 (S2, MOV 4-4) at the foot of a 3" building; b1 behind a 2.5" wall
/// sees the roof but not the foot. A Move up the side is refused, a Climb stands a1 on the roof
/// (b1 may react); on the roof a Jump too long and a Move off the edge are refused, a Move along
/// it is not; a Jump down within MOV lands a1 on the table, b1 reacting to where it began.
#[test]
fn a_trooper_climbs_onto_a_roof_walks_on_it_and_jumps_down() {
    let (code, lines, _) = replay(&[&path("levels.jsonl")]);
    assert_eq!(code, 1, "some events are rejected");
    let rejected: Vec<(u64, &str)> = lines
        .iter()
        .filter(|l| l["result"] == "rejected")
        .map(|l| (l["index"].as_u64().unwrap_or(0), l["rule"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(rejected, vec![(3, "General Movement Rules"), (8, "Jump"), (9, "General Movement Rules")]);
    let eligible = |i: usize| -> Vec<String> {
        lines[i - 1]["state"]["order"]["eligible_aros"]
            .as_array()
            .map(|a| a.iter().map(|e| e["trooper"].as_str().unwrap_or("").to_string()).collect())
            .unwrap_or_default()
    };
    assert_eq!(eligible(4), vec!["b1"], "the Climb onto the roof");
    assert_eq!(eligible(16), vec!["b1"], "the Jump off it");
    let a1_at = |n: &str| {
        let (_, at, _) = replay(&[&path("levels.jsonl"), "--at", n]);
        let a1 = at[0]["troopers"].as_array().and_then(|t| t.iter().find(|t| t["id"] == "a1")).cloned();
        let p = a1.expect("a1")["position"].clone();
        (p["x"].as_f64(), p["y"].as_f64(), p["elevation"].as_f64())
    };
    assert_eq!(a1_at("4"), (Some(10.5), Some(23.0), Some(3.0)));
    assert_eq!(a1_at("12"), (Some(11.0), Some(25.0), Some(3.0)));
    assert_eq!(a1_at("16"), (Some(11.0), Some(27.5), Some(0.0)));
}

/// N4 Stealth: a1 (a Ninja) moves inside b1's ZoC behind its back: b1 gets no ARO, the state says
/// why, and an ARO declared anyway is refused under Stealth; a1's BS Attack, not a movement skill,
/// gives b1 its ARO in window 2.
#[test]
fn a_stealth_trooper_creeps_up_unseen_and_its_attack_draws_the_aro() {
    let (code, lines, _) = replay(&[&path("stealth.jsonl")]);
    assert_eq!(code, 1, "the ARO against the creeping Ninja is rejected");
    let rejected: Vec<(u64, &str)> = lines
        .iter()
        .filter(|l| l["result"] == "rejected")
        .map(|l| (l["index"].as_u64().unwrap_or(0), l["rule"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(rejected, vec![(4, "Stealth")]);
    let order = |i: usize| lines[i - 1]["state"]["order"].clone();
    assert_eq!(order(3)["eligible_aros"], serde_json::json!([]));
    assert_eq!(order(3)["hidden_by_stealth"], serde_json::json!([{"trooper": "b1", "from": ["a1"]}]));
    assert_eq!(order(6)["eligible_aros"][0]["trooper"], "b1");
    assert_eq!(order(6)["hidden_by_stealth"], serde_json::json!([]));
    assert_eq!(lines[6]["result"], "accepted", "b1 dodges the attack");
}

/// The Deployment Phase's four steps (`deploys_first`: B): a tag out of its player's step and an
/// early Order Count are refused, naming the step; B ends its step early, keeping its Airborne
/// trooper off the table; A, with the first Turn, holds back a second trooper for a Command Token.
#[test]
fn deployment_steps_refuse_a_tag_out_of_turn_and_an_early_order_count() {
    let (code, lines, _) = replay(&[&path("deployment-steps.jsonl")]);
    assert_eq!(code, 1, "some events are rejected");
    let rejected: Vec<(u64, &str)> = lines
        .iter()
        .filter(|l| l["result"] == "rejected")
        .map(|l| (l["index"].as_u64().unwrap_or(0), l["reason"].as_str().unwrap_or("")))
        .collect();
    let at: Vec<u64> = rejected.iter().map(|r| r.0).collect();
    assert_eq!(at, [1, 8, 9, 13], "{rejected:?}");
    assert!(rejected[0].1.starts_with("step 1 of 4: B places all but 1 of its troopers"), "{}", rejected[0].1);
    assert!(rejected[1].1.starts_with("step 3 of 4: B places the 1 trooper it kept back"), "{}", rejected[1].1);
    assert!(rejected[2].1.starts_with("the Deployment Phase is not over: step 3 of 4"), "{}", rejected[2].1);
    assert!(lines.iter().filter(|l| l["result"] == "rejected").all(|l| l["rule"] == "Deployment Phase"));
    // After the hold back: A keeps two, and has spent a Command Token.
    assert_eq!(lines[4]["state"]["deployment"]["held_back"], serde_json::json!({"A": 2, "B": 1}));
    assert_eq!(lines[4]["state"]["command_tokens"]["A"], 3);
    // Steps: B 1, then A 2 after B's early end, B 3, A 4, then done.
    let steps: Vec<Value> = lines.iter().map(|l| l["state"]["deployment"]["step"].clone()).collect();
    assert_eq!(steps[2], 1);
    assert_eq!(steps[3], 2);
    assert_eq!(steps[6], 3);
    assert_eq!(steps[9], 4);
    assert_eq!(lines[11]["state"]["deployment"], Value::Null);
    // The game begins with b_ad off the table.
    let last = lines.last().expect("lines");
    assert_eq!(last["result"], "accepted");
    assert_eq!(last["state"]["phase"], "orders");
}

#[test]
fn at_n_prints_the_full_state_after_event_n() {
    let (code, lines, _) = replay(&[&path("full-order-aros.jsonl"), "--at", "4"]);
    assert_eq!(code, 0);
    assert_eq!(lines.len(), 1);
    let s = &lines[0];
    assert_eq!(s["event"]["index"], 4);
    let a1 = s["troopers"].as_array().and_then(|t| t.iter().find(|t| t["id"] == "a1")).expect("a1");
    assert_eq!(a1["position"]["y"], 18.0, "placed at the end of its declared route");
    let (_, before, _) = replay(&[&path("full-order-aros.jsonl"), "--at", "0"]);
    assert_eq!(before[0]["phase"], "tactical");
    let (code, _, err) = replay(&[&path("full-order-aros.jsonl"), "--at", "99"]);
    assert_eq!(code, 2);
    assert!(err.contains("--at 99"), "{err}");
}

#[test]
fn torn_last_line_is_reported_and_skipped() {
    let (code, lines, err) = replay(&[&path("torn-last-line.jsonl")]);
    assert_eq!(code, 0);
    assert_eq!(lines.len(), 3);
    assert!(err.contains("line 5") && err.contains("torn"), "{err}");
}

fn write_temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sightline-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

fn header() -> String {
    std::fs::read_to_string(fixture("full-order-aros.jsonl"))
        .expect("fixture")
        .lines()
        .next()
        .expect("header")
        .to_string()
}

#[test]
fn malformed_game_files_name_the_line_and_field() {
    let h = header();
    // A bad event in the middle (not the last line): an error with its line number.
    let p = write_temp(
        "bad-middle.jsonl",
        &format!(
            "{h}\n{{\"type\":\"order_count\"}}\n{{\"type\":\"activate\",\"source\":\"bribe\",\"troopers\":[\"a1\"]}}\n{{\"type\":\"end_turn\"}}\n"
        ),
    );
    let (code, _, err) = replay(&[&p.to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(err.contains("line 3") && err.contains("bribe"), "{err}");
    // A missing field.
    let p = write_temp("missing.jsonl", &format!("{h}\n{{\"type\":\"declare\"}}\n"));
    let (code, _, err) = replay(&[&p.to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(err.contains("line 2") && err.contains("skill"), "{err}");
    // A bad header.
    let p = write_temp("bad-header.jsonl", "{\"format\":\"something-else\",\"version\":1}\n");
    let (code, _, err) = replay(&[&p.to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(err.contains("line 1"), "{err}");
    // A setup that breaks the army rules: named with its field.
    let bad = h.replacen("\"id\": \"a1\"", "\"id\": \"a1\", \"abilities\": [\"lieutenant\"]", 1);
    let p = write_temp("two-lts.jsonl", &format!("{bad}\n"));
    let (code, _, err) = replay(&[&p.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 1") && err.contains("two Lieutenants"), "{err}");
    // An empty file, and a file that is not there.
    let p = write_temp("empty.jsonl", "");
    assert_eq!(replay(&[&p.to_string_lossy()]).0, 2);
    let (code, _, err) = replay(&["/nonexistent/game.jsonl"]);
    assert_eq!(code, 2);
    // Named once (before session 16 it read "/nonexistent/game.jsonl: /nonexistent/game.jsonl: ...").
    assert_eq!(err.matches("/nonexistent/game.jsonl").count(), 1, "{err}");
    let dir = std::env::temp_dir();
    let (code, _, err) = replay(&[&dir.to_string_lossy()]);
    assert_eq!(code, 2);
    assert_eq!(err.matches(&*dir.to_string_lossy()).count(), 1, "{err}");
}

#[test]
fn new_starts_a_game_file_from_a_setup_never_over_an_old_one_and_names_a_bad_field() {
    let dir = std::env::temp_dir().join(format!("sightline-cli-new-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let game = dir.join("game.jsonl");
    let _ = std::fs::remove_file(&game);
    let setup = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/setup-small.json");
    let new = |setup: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_sightline")).arg("new").arg(setup).arg(&game).output().expect("run sightline")
    };
    let out = new(std::path::Path::new(setup));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The file is the setup and no events: it replays, and as the same game the setup makes.
    let file = sightline::store::load(&game).expect("a game file");
    assert!(file.events.is_empty());
    let expected = sightline::rules::Setup::from_json(&std::fs::read_to_string(setup).expect("setup")).expect("setup");
    assert_eq!(file.setup, expected);
    let written = std::fs::read(&game).expect("read");
    // Never over an old one: refused, the old file untouched.
    let out = new(std::path::Path::new(setup));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists"));
    assert_eq!(std::fs::read(&game).expect("read"), written);
    // A bad setup names its field, and writes nothing.
    std::fs::remove_file(&game).expect("removed");
    let bad = dir.join("bad.json");
    let text = std::fs::read_to_string(setup).expect("setup").replacen("\"silhouette\": 2", "\"silhouette\": 12", 1);
    std::fs::write(&bad, text).expect("written");
    let out = new(&bad);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.contains("setup.armies.A.groups[0].troopers[0].silhouette"), "{err}");
    assert!(!game.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
