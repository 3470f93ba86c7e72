//! N4 Stealth (<https://infinitythewiki.com/index.php?diff=cur&oldid=1506&title=Stealth>, the N4
//! revision): in its Active Turn, a trooper with Stealth that declares a Short Movement Skill or
//! Cautious Movement inside the ZoC of enemies and stays outside their LoF grants those enemies no
//! ARO; if the Order's second Short Skill is any other skill, they react normally; it may declare
//! Cautious Movement inside enemies' ZoC. Stealth is not effective against Sixth Sense (digest §6).
//! A Stealth trooper activated with others may be an ARO's target only once it declares a skill
//! that allows AROs (N4 FAQ 1.0, digest §6).

mod common;
use common::*;
use serde_json::{Value, json};
use sightline::rules::{Game, Rule, summary};

/// A: `a1` at (10, 10) facing east (MOV 4-4), `a2` at (10, 30) facing east, Lieutenant far off.
/// B: `b1` at (16, 10) facing east, its back to a1 and 5" from it (inside each other's ZoC, and
/// a1 sees b1 but b1 does not see a1); `b2` at (10, 21) facing north, away from a1 and 9" from it;
/// the Lieutenant far off, facing away. `a1_extra`, `b1_extra` are merged into those troopers.
fn field(a1_extra: Value, b1_extra: Value) -> Value {
    setup(
        vec![vec![
            lt(t("a_lt", 2.0, 46.0, 90.0)),
            with(with(t("a1", 10.0, 10.0, 0.0), json!({"mov": [4, 4]})), a1_extra),
            with(t("a2", 10.0, 30.0, 0.0), json!({"mov": [4, 4]})),
        ]],
        vec![vec![
            lt(t("b_lt", 46.0, 46.0, 90.0)),
            with(t("b1", 16.0, 10.0, 0.0), b1_extra),
            t("b2", 10.0, 21.0, 90.0),
        ]],
        json!([]),
    )
}

fn stealth() -> Value {
    json!({"abilities": ["stealth"]})
}

fn activate(g: &Game, source: &str, ids: &[&str]) -> Game {
    ok(g, json!({"type": "activate", "source": source, "troopers": ids}))
}

fn mv(skill: &str, moves: &[(&str, Value)]) -> Value {
    let moves: Vec<Value> = moves.iter().map(|(id, r)| json!({"trooper": id, "route": r})).collect();
    json!({"type": "declare", "skill": skill, "moves": moves})
}

/// The open window's troopers a Stealth trooper gave no ARO, with those Stealth troopers.
fn hidden(g: &Game) -> Vec<(String, Vec<String>)> {
    g.order().map(|o| o.hidden_now().clone().into_iter().collect()).unwrap_or_default()
}

/// a1 steps 2" towards b1's back: inside b1's ZoC the whole way, never in its LoF.
fn creep(g: &Game) -> Game {
    ok(&activate(g, "regular", &["a1"]), mv("move", &[("a1", json!([[12.0, 10.0]]))]))
}

#[test]
fn stealth_moving_inside_an_enemys_zoc_outside_its_lof_grants_it_no_aro() {
    // Without Stealth, b1 reacts to a1 moving inside its ZoC.
    let plain = creep(&start_orders(&game(field(json!({}), json!({})))));
    assert_eq!(eligible(&plain), vec!["b1"]);
    assert_eq!(reasons(&plain, "b1"), vec!["zoc"]);
    assert!(hidden(&plain).is_empty());
    // With it, b1 gets no ARO, and the game says why.
    let g = creep(&start_orders(&game(field(stealth(), json!({})))));
    assert!(eligible(&g).is_empty(), "{:?}", eligible(&g));
    assert_eq!(hidden(&g), vec![("b1".to_string(), vec!["a1".to_string()])]);
    let r = no(&g, json!({"type": "declare_aro", "trooper": "b1", "skill": "dodge", "target": "a1"}), Rule::Stealth);
    assert!(r.reason.contains("a1 has Stealth and moved inside its ZoC outside its LoF"), "{}", r.reason);
    // `sightline replay`'s state says it too.
    let state = summary(&g);
    assert_eq!(state["order"]["hidden_by_stealth"], json!([{"trooper": "b1", "from": ["a1"]}]));
    // A second Move keeps it hidden in window 2.
    let g = ok(&ok(&g, json!({"type": "close_aro_window"})), mv("move", &[("a1", json!([[13.0, 10.0]]))]));
    assert!(eligible(&g).is_empty(), "{:?}", eligible(&g));
    assert_eq!(hidden(&g), vec![("b1".to_string(), vec!["a1".to_string()])]);
}

#[test]
fn stealth_does_not_hide_from_an_enemy_that_sees_the_trooper() {
    // b1 turned to face a1: it sees the move, so it reacts by LoF and ZoC as usual.
    let mut s = field(stealth(), json!({}));
    s["armies"]["B"]["groups"][0]["troopers"][1]["position"]["facing"] = json!(180.0);
    let g = creep(&start_orders(&game(s)));
    assert_eq!(eligible(&g), vec!["b1"]);
    assert_eq!(reasons(&g, "b1"), vec!["lof", "zoc"]);
    assert!(hidden(&g).is_empty());
}

#[test]
fn stealth_then_a_skill_that_is_not_a_movement_skill_lets_those_enemies_react_in_window_2() {
    // Move (hidden from b1), then BS Attack on b1 from behind: b1 may now react, in window 2.
    let g = creep(&start_orders(&game(field(stealth(), json!({})))));
    assert!(eligible(&g).is_empty());
    let g = ok(&g, json!({"type": "close_aro_window"}));
    let g = ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["b1"]}));
    assert_eq!(eligible(&g), vec!["b1"]);
    assert_eq!(reasons(&g, "b1"), vec!["zoc"]);
    assert!(hidden(&g).is_empty());
    ok(&g, json!({"type": "declare_aro", "trooper": "b1", "skill": "dodge", "target": "a1"}));
    // Declared first, the BS Attack grants the ARO in window 1 (any other skill: AROs as usual).
    let g = activate(&start_orders(&game(field(stealth(), json!({})))), "regular", &["a1"]);
    let g = ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["b1"]}));
    assert_eq!(eligible(&g), vec!["b1"]);
}

#[test]
fn stealth_is_not_effective_against_sixth_sense() {
    let g = creep(&start_orders(&game(field(stealth(), json!({"abilities": ["sixth_sense"]})))));
    assert_eq!(eligible(&g), vec!["b1"]);
    assert_eq!(reasons(&g, "b1"), vec!["zoc"]);
    assert!(hidden(&g).is_empty());
}

#[test]
fn stealth_may_declare_cautious_movement_inside_enemy_zoc_and_it_grants_no_aro() {
    let cautious = mv("cautious_movement", &[("a1", json!([[12.0, 10.0]]))]);
    // Without Stealth, Cautious Movement is refused inside b1's ZoC.
    let g = activate(&start_orders(&game(field(json!({}), json!({})))), "regular", &["a1"]);
    let r = no(&g, cautious.clone(), Rule::CautiousMovement);
    assert!(r.reason.contains("inside b1's ZoC"), "{}", r.reason);
    // With Stealth it may be declared there, and b1 gets no ARO.
    let g = activate(&start_orders(&game(field(stealth(), json!({})))), "regular", &["a1"]);
    let g = ok(&g, cautious.clone());
    assert!(eligible(&g).is_empty(), "{:?}", eligible(&g));
    assert_eq!(hidden(&g), vec![("b1".to_string(), vec!["a1".to_string()])]);
    // Stealth does not lift the LoF half of the Requirement: b1 facing a1 refuses it.
    let mut s = field(stealth(), json!({}));
    s["armies"]["B"]["groups"][0]["troopers"][1]["position"]["facing"] = json!(180.0);
    let g = activate(&start_orders(&game(s)), "regular", &["a1"]);
    let r = no(&g, cautious, Rule::CautiousMovement);
    assert!(r.reason.contains("in b1's LoF"), "{}", r.reason);
}

#[test]
fn a_stealth_trooper_in_a_coordinated_order_may_not_be_targeted_until_it_declares_a_skill_that_allows_aros() {
    // N4 FAQ 1.0: a1 (Stealth) and a2 move together; b2, moved to (14, 17) facing north, sees a2
    // and has a1 inside its ZoC, but not in its LoF. b2 reacts to a2, and may not choose a1 as
    // its target.
    let mut s = field(stealth(), json!({}));
    s["armies"]["B"]["groups"][0]["troopers"][2]["position"] = json!({"x": 14.0, "y": 17.0, "facing": 90.0});
    let g = start_orders(&game(s));
    let g = activate(&g, "coordinated", &["a1", "a2"]);
    let g = ok(&g, mv("move", &[("a1", json!([[12.0, 10.0]])), ("a2", json!([[14.0, 30.0]]))]));
    assert!(eligible(&g).contains(&"b2".to_string()), "{:?}", eligible(&g));
    assert!(hidden(&g).contains(&("b2".to_string(), vec!["a1".to_string()])), "{:?}", hidden(&g));
    let r = no(&g, json!({"type": "declare_aro", "trooper": "b2", "skill": "dodge", "target": "a1"}), Rule::Stealth);
    assert!(r.reason.contains("a1 has Stealth"), "{}", r.reason);
    ok(&g, json!({"type": "declare_aro", "trooper": "b2", "skill": "bs_attack", "target": "a2"}));
}

#[test]
fn stealth_does_not_hide_from_a_friendly_repeaters_hacking_area() {
    // b1 carries a Repeater; b_h, a Hacker far off, reacts to a1 in b1's ZoC through it
    // (STEALTH_HIDES_FROM_HACKING_AREA is false: N4 Stealth names the ZoC only); b1 itself gets no ARO.
    let mut s = field(stealth(), json!({"abilities": ["repeater"]}));
    s["armies"]["B"]["groups"][0]["troopers"]
        .as_array_mut()
        .expect("troopers")
        .push(with(t("b_h", 40.0, 40.0, 90.0), json!({"abilities": ["hacker"]})));
    let g = creep(&start_orders(&game(s)));
    assert_eq!(eligible(&g), vec!["b_h"]);
    assert_eq!(reasons(&g, "b_h"), vec!["hacking_area"]);
    assert_eq!(hidden(&g), vec![("b1".to_string(), vec!["a1".to_string()])]);
}

#[test]
fn a_super_jump_is_a_short_movement_skill_that_stealth_covers_and_a_plain_jump_is_not() {
    // A Jump is an Entire Order, which Stealth does not cover: b1 reacts to it.
    let jump = |g: &Game| ok(&activate(g, "regular", &["a1"]), mv("jump", &[("a1", json!([[12.0, 10.0]]))]));
    let g = jump(&start_orders(&game(field(stealth(), json!({})))));
    assert_eq!(eligible(&g), vec!["b1"]);
    // With Super-Jump it is a Short Movement Skill, and b1 gets no ARO.
    let g = jump(&start_orders(&game(field(json!({"abilities": ["stealth", "super_jump"]}), json!({})))));
    assert!(eligible(&g).is_empty(), "{:?}", eligible(&g));
    assert_eq!(hidden(&g), vec![("b1".to_string(), vec!["a1".to_string()])]);
}
