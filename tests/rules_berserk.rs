//! N4 Berserk (a CC Special Skill; the N4 text,
//! <https://infinitythewiki.com/index.php?title=Berserk&diff=2122&oldid=2053>): an Entire Order of
//! Move + CC Attack; its target within the user's LoF when declared and within both MOV values
//! together; the Move goes as far as both MOV values added together, to reach Silhouette contact
//! with the target. It may be declared while Engaged (N4 Errata 1.0), and in a Fireteam only the
//! troopers with Berserk perform it, the rest an Idle (N4 FAQ 1.0).

mod common;
use common::*;
use serde_json::{Value, json};
use sightline::rules::{Game, Rule, State};

/// Two S2 bases' centres this far apart touch, inches.
const TOUCH: f64 = 25.0 / 25.4;

/// A: `a1` (Berserk, MOV 4-4) at (10, 10) facing east, `a2` (MOV 4-4, no Berserk) at (10, 30);
/// B: `b1` at `b1_at` facing west, `b_back` at (6, 10) behind a1's back.
fn field(b1_at: (f64, f64)) -> Game {
    let s = setup(
        vec![vec![
            lt(t("a_lt", 2.0, 46.0, 0.0)),
            with(t("a1", 10.0, 10.0, 0.0), json!({"mov": [4, 4], "abilities": ["berserk"]})),
            with(t("a2", 10.0, 30.0, 0.0), json!({"mov": [4, 4]})),
        ]],
        vec![vec![lt(t("b_lt", 46.0, 46.0, 90.0)), t("b1", b1_at.0, b1_at.1, 180.0), t("b_back", 6.0, 10.0, 0.0)]],
        json!([]),
    );
    start_orders(&game(s))
}

fn activate(g: &Game, id: &str) -> Game {
    ok(g, json!({"type": "activate", "source": "regular", "troopers": [id]}))
}

fn berserk(id: &str, route: Option<Value>, targets: Value) -> Value {
    let moves = route.map_or(json!([]), |r| json!([{"trooper": id, "route": r}]));
    json!({"type": "declare", "skill": "berserk", "moves": moves, "targets": targets})
}

fn engaged(g: &Game, id: &str) -> bool {
    g.trooper(id).is_some_and(|t| t.is(State::Engaged))
}

#[test]
fn berserk_charges_both_mov_values_into_contact_with_a_target_in_lof_as_an_entire_order() {
    // b1 is 6" away (5.02" base to base): further than a Move's first MOV value, 4".
    let g = activate(&field((16.0, 10.0)), "a1");
    let charge = json!([[16.0 - TOUCH, 10.0]]);
    let r =
        no(&g, json!({"type": "declare", "skill": "move", "moves": [{"trooper": "a1", "route": charge}]}), Rule::Move);
    assert!(r.reason.contains("at most 4\""), "{}", r.reason);
    // Berserk goes both values together, 8", and ends base to base: both are Engaged, b1 (who
    // sees a1 come) may react, and the Order has all its skills.
    let g2 = ok(&g, berserk("a1", Some(charge), json!(["b1"])));
    assert!(engaged(&g2, "a1") && engaged(&g2, "b1"));
    assert!(eligible(&g2).contains(&"b1".to_string()), "{:?}", eligible(&g2));
    let g2 = ok(&g2, json!({"type": "close_aro_window"}));
    no(&g2, json!({"type": "declare", "skill": "cc_attack", "targets": ["b1"]}), Rule::StructureOfAnOrder);
    // A Move that stops short of contact is refused, saying how far off it ends.
    let r = no(&g, berserk("a1", Some(json!([[13.0, 10.0]])), json!(["b1"])), Rule::Berserk);
    assert!(r.reason.contains("a1's Berserk Move ends 2.02\" from b1"), "{}", r.reason);
    // No route at all: nobody reaches b1.
    let r = no(&g, berserk("a1", None, json!(["b1"])), Rule::Berserk);
    assert!(r.reason.contains("no trooper with Berserk reaches Silhouette contact with b1"), "{}", r.reason);
    // One target, no more.
    let r = no(&g, berserk("a1", Some(json!([[16.0 - TOUCH, 10.0]])), json!(["b1", "b_back"])), Rule::Berserk);
    assert!(r.reason.contains("one target"), "{}", r.reason);
}

#[test]
fn berserk_reaches_no_further_than_both_mov_values_and_only_a_target_in_lof() {
    // b1 10" away: 9.02" to contact, more than 8".
    let g = activate(&field((20.0, 10.0)), "a1");
    let r = no(&g, berserk("a1", Some(json!([[20.0 - TOUCH, 10.0]])), json!(["b1"])), Rule::Berserk);
    assert!(r.reason.contains("at most both values together, 8\""), "{}", r.reason);
    // b_back stands behind a1's back: out of its LoF when Berserk is declared, however close.
    let r = no(&g, berserk("a1", Some(json!([[6.0 + TOUCH, 10.0]])), json!(["b_back"])), Rule::Berserk);
    assert!(r.reason.contains("no activated trooper has LoF to b_back"), "{}", r.reason);
    // A trooper without Berserk cannot declare it.
    let g = activate(&field((12.0, 30.0)), "a2");
    let r = no(&g, berserk("a2", Some(json!([[12.0 - TOUCH, 30.0]])), json!(["b1"])), Rule::Berserk);
    assert!(r.reason.contains("a2 has no Berserk"), "{}", r.reason);
    assert_eq!(g.can_declare("berserk").map_err(|r| r.rule), Err(Rule::Berserk));
}

#[test]
fn an_engaged_berserk_trooper_may_declare_it_on_the_enemy_it_is_in_contact_with() {
    // N4 Errata 1.0: "Berserk can be declared while in Engaged State."
    let g = activate(&field((10.0 + TOUCH, 10.0)), "a1");
    assert!(engaged(&g, "a1"));
    assert_eq!(g.can_declare("berserk"), Ok(()));
    assert_eq!(g.can_declare("bs_attack").map_err(|r| r.rule), Err(Rule::EngagedState));
    ok(&g, berserk("a1", None, json!(["b1"])));
}

#[test]
fn in_a_fireteam_only_the_troopers_with_berserk_perform_it_and_the_rest_an_idle() {
    // N4 FAQ 1.0: "Only the Troops with Berserk will perform the Skill, the rest will perform an
    // Idle". a1 (Berserk) leads a Duo with a3 (without), beside it.
    let s = setup(
        vec![vec![
            lt(t("a_lt", 2.0, 46.0, 0.0)),
            with(t("a1", 10.0, 10.0, 0.0), json!({"mov": [4, 4], "abilities": ["berserk"]})),
            with(t("a3", 10.0, 12.0, 0.0), json!({"mov": [4, 4]})),
        ]],
        vec![vec![lt(t("b_lt", 46.0, 46.0, 90.0)), t("b1", 16.0, 10.0, 180.0)]],
        json!([]),
    );
    let s = fireteams(s, "A", json!([{"id": "duo", "kind": "duo", "leader": "a1", "members": ["a1", "a3"]}]));
    let g = activate(&start_orders(&game(s)), "a1");
    let both = json!({"type": "declare", "skill": "berserk", "targets": ["b1"], "moves": [
        {"trooper": "a1", "route": [[16.0 - TOUCH, 10.0]]}, {"trooper": "a3", "route": [[15.0, 12.0]]}]});
    let r = no(&g, both, Rule::Berserk);
    assert!(r.reason.contains("a3 has no Berserk: the troopers without it perform an Idle"), "{}", r.reason);
    let g = ok(&g, berserk("a1", Some(json!([[16.0 - TOUCH, 10.0]])), json!(["b1"])));
    assert!(engaged(&g, "a1"));
    assert!(g.trooper("a3").and_then(|t| t.position).is_some_and(|p| (p.x, p.y) == (10.0, 12.0)), "a3 stays");
}
