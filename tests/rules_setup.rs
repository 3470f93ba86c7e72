//! Setup validation (issue 3 "The model"): a setup becomes a game only if it follows the army rules,
//! and the error names the field and the rule.

mod common;
use common::*;
use serde_json::{Value, json};
use sightline::rules::{Game, Setup};

fn error(s: Value) -> String {
    let s: Setup = serde_json::from_value(s).expect("setup JSON");
    match Game::new(s) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

fn ten(prefix: &str, n: usize) -> Vec<Value> {
    (0..n).map(|i| t(&format!("{prefix}{i}"), 2.0 + i as f64 * 3.0, 2.0, 90.0)).collect()
}

fn b() -> Vec<Vec<Value>> {
    vec![vec![lt(t("blt", 40.0, 40.0, 0.0))]]
}

#[test]
fn combat_group_of_eleven_is_refused_peripherals_do_not_count() {
    let mut g = ten("a", 11);
    g[0] = lt(g[0].clone());
    let e = error(setup(vec![g], b(), json!([])));
    assert!(e.contains("armies.A.groups[0]") && e.contains("11 troopers"), "{e}");
    let mut g = ten("a", 10);
    g[0] = lt(g[0].clone());
    g.push(with(t("bot", 40.0, 10.0, 0.0), json!({"peripheral_of": "a1", "silhouette": 1})));
    game(setup(vec![g], b(), json!([])));
}

#[test]
fn two_lieutenants_or_none_are_refused() {
    let e = error(setup(vec![vec![lt(t("x", 2.0, 2.0, 0.0)), lt(t("y", 6.0, 2.0, 0.0))]], b(), json!([])));
    assert!(e.contains("two Lieutenants (x, y)"), "{e}");
    let e = error(setup(vec![vec![t("x", 2.0, 2.0, 0.0)]], b(), json!([])));
    assert!(e.contains("armies.A") && e.contains("no Lieutenant"), "{e}");
}

#[test]
fn a_peripheral_without_its_controller_is_refused() {
    let g = vec![lt(t("x", 2.0, 2.0, 0.0)), with(t("bot", 6.0, 2.0, 0.0), json!({"peripheral_of": "ghost"}))];
    let e = error(setup(vec![g], b(), json!([])));
    assert!(e.contains("\"bot\".peripheral_of") && e.contains("without a Controller"), "{e}");
    // and a Controller in another Combat Group
    let e = error(setup(
        vec![vec![lt(t("x", 2.0, 2.0, 0.0))], vec![with(t("bot", 6.0, 2.0, 0.0), json!({"peripheral_of": "x"}))]],
        b(),
        json!([]),
    ));
    assert!(e.contains("same army and Combat Group"), "{e}");
}

#[test]
fn fireteams_that_break_their_types_limits_are_refused() {
    let mut g = ten("a", 6);
    g[0] = lt(g[0].clone());
    let s = setup(vec![g], b(), json!([]));
    let e = error(fireteams(
        s.clone(),
        "A",
        json!([{"id": "d", "kind": "duo", "leader": "a1", "members": ["a1", "a2", "a3"]}]),
    ));
    assert!(e.contains("fireteams[0]") && e.contains("3 members; a Duo Fireteam has 2 to 2"), "{e}");
    let e = error(fireteams(
        s.clone(),
        "A",
        json!([{"id": "c", "kind": "core", "leader": "a1", "members": ["a1", "a2", "a3", "a4", "a5", "a0"]}]),
    ));
    assert!(e.contains("6 members"), "{e}");
    let e = error(fireteams(
        s.clone(),
        "A",
        json!([
            {"id": "c1", "kind": "core", "leader": "a1", "members": ["a1", "a2"]},
            {"id": "c2", "kind": "core", "leader": "a3", "members": ["a3", "a4"]}
        ]),
    ));
    assert!(e.contains("more than 1 Core"), "{e}");
    let e = error(fireteams(
        s.clone(),
        "A",
        json!([
            {"id": "d1", "kind": "duo", "leader": "a1", "members": ["a1", "a2"]},
            {"id": "d2", "kind": "duo", "leader": "a2", "members": ["a2", "a3"]}
        ]),
    ));
    assert!(e.contains("two Fireteams"), "{e}");
    let e =
        error(fireteams(s.clone(), "A", json!([{"id": "d", "kind": "duo", "leader": "a9", "members": ["a1", "a2"]}])));
    assert!(e.contains("Team Leader \"a9\""), "{e}");
    let e = error(fireteams(s, "A", json!([{"id": "d", "kind": "duo", "leader": "a1", "members": ["a1", "blt"]}])));
    assert!(e.contains("other army"), "{e}");
}

#[test]
fn duplicate_ids_bad_positions_and_unknown_fields_are_refused() {
    let e = error(setup(vec![vec![lt(t("x", 2.0, 2.0, 0.0)), t("x", 6.0, 2.0, 0.0)]], b(), json!([])));
    assert!(e.contains("used twice"), "{e}");
    let e = error(setup(vec![vec![lt(t("x", 60.0, 2.0, 0.0))]], b(), json!([])));
    assert!(e.contains("position") && e.contains("off the table"), "{e}");
    let bad: Result<Setup, _> = serde_json::from_value(with(
        setup(vec![vec![lt(t("x", 2.0, 2.0, 0.0))]], b(), json!([])),
        json!({"colour": 1}),
    ));
    assert!(bad.is_err_and(|e| e.to_string().contains("colour")));
    // Read from text, a value of the wrong type is named by its path.
    let mut text = setup(vec![vec![lt(t("x", 2.0, 2.0, 0.0))]], b(), json!([]));
    text["armies"]["A"]["groups"][0]["troopers"][0]["silhouette"] = json!("two");
    let e = Setup::from_json(&text.to_string()).expect_err("a string is not a Silhouette").to_string();
    assert!(e.starts_with("setup.armies.A.groups[0].troopers[0].silhouette: invalid type"), "{e}");
    let e = error(setup(
        vec![vec![lt(t("x", 2.0, 2.0, 0.0))]],
        b(),
        json!([{"id": "flat", "polygon": [[0, 0], [1, 1], [2, 2]], "height": 1.0}]),
    ));
    assert!(e.contains("terrain[0]"), "{e}");
    // A table past the longest side accepted, and a piece out where no table reaches.
    let e = error(with(
        setup(vec![vec![lt(t("x", 2.0, 2.0, 0.0))]], b(), json!([])),
        json!({"table": {"width": 2e6, "depth": 48}}),
    ));
    assert!(e.contains("table.width") && e.contains("at most 1000000"), "{e}");
    let e = error(setup(
        vec![vec![lt(t("x", 2.0, 2.0, 0.0))]],
        b(),
        json!([{"id": "far", "polygon": [[0, 0], [1e300, 0], [1e300, 1]], "height": 1.0}]),
    ));
    assert!(e.contains("terrain[0]") && e.contains("polygon point 1"), "{e}");
}

/// Troopers and terrain share one set of ids, as a scene's do: a setup whose ids clash would make
/// a game the app cannot show (`sightline new` took such a setup, and opening the game then
/// failed; found by tests/malformed_input.rs).
#[test]
fn terrain_ids_are_unique_and_no_trooper_shares_one() {
    let piece = |id: &str, x: f64| json!({"id": id, "polygon": [[x, 20], [x + 1.0, 20], [x + 1.0, 21], [x, 21]], "height": 1.0});
    let a = || vec![vec![lt(t("x", 2.0, 2.0, 0.0))]];
    let e = error(setup(a(), b(), json!([piece("wall", 10.0), piece("wall", 20.0)])));
    assert!(e.starts_with("terrain[1] (\"wall\").id: ids must be non-empty and unique"), "{e}");
    let e = error(setup(a(), b(), json!([piece(" ", 10.0)])));
    assert!(e.starts_with("terrain[0] (\" \").id"), "{e}");
    let e = error(setup(a(), b(), json!([piece("blt", 10.0)])));
    assert!(e.starts_with("armies.B.groups[0].troopers[0] (\"blt\"): a terrain piece has this id"), "{e}");
    // Distinct ids are a game.
    let s: Setup = serde_json::from_value(setup(a(), b(), json!([piece("wall", 10.0), piece("crate", 20.0)])))
        .expect("setup JSON");
    assert!(Game::new(s).is_ok());
}

/// Troopers a setup places stand where a trooper can (General Movement Rules, the checks a scene
/// and every event make): not in another's space, not inside a piece below its top; base contact
/// (S2 bases 25 mm across, centres exactly 25 mm apart) is a place to stand.
#[test]
fn a_setup_that_puts_two_troopers_in_one_place_or_one_inside_terrain_is_refused() {
    let wall = json!([{"id": "wall", "polygon": [[10, 10], [14, 10], [14, 14], [10, 14]], "height": 3.0}]);
    let e = error(setup(vec![vec![lt(t("x", 2.0, 2.0, 0.0)), t("y", 2.5, 2.0, 0.0)]], b(), json!([])));
    assert!(e.contains("armies.A.groups[0].troopers[0].position"), "{e}");
    assert!(e.contains("x stands in y's space (their bases overlap by 0.484\")"), "{e}");
    let e = error(setup(vec![vec![lt(t("x", 2.0, 2.0, 0.0)), t("y", 12.0, 12.0, 0.0)]], b(), wall.clone()));
    assert!(e.contains("troopers[1].position") && e.contains("y stands inside wall (3.0\" high)"), "{e}");
    // On the wall's top, and in base contact with x: both accepted.
    let s2 = 25.0 / 25.4;
    game(setup(
        vec![vec![
            lt(t("x", 2.0, 2.0, 0.0)),
            t("z", 2.0 + s2, 2.0, 0.0),
            with(t("y", 12.0, 12.0, 0.0), json!({"position": {"x": 12.0, "y": 12.0, "elevation": 3.0}})),
        ]],
        b(),
        wall,
    ));
}
