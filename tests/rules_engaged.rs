//! N4 Engaged State (PDF 2.1, <https://infinitythewiki.com/index.php?title=Engaged_State&diff=2545&oldid=310>):
//! a trooper in Silhouette contact with an enemy, neither in a Null state (Sepsitorized excepted),
//! is Engaged; it may only declare CC Attack, Dodge, Idle and Reset (of the catalogue), and traces
//! no LoF outside its Close Combat; the state ends once no such enemy is in contact. The engine
//! works it out from the table after every event (contact: `SILHOUETTE_CONTACT_IN`).

mod common;
use common::*;
use serde_json::{Value, json};
use sightline::rules::{Game, Rule, Setup, State, assumptions::SILHOUETTE_CONTACT_IN};

/// Two S2 bases' centres this far apart touch, inches.
const TOUCH: f64 = 25.0 / 25.4;

/// A: `a1` (MOV 4-4) at (10, 10) facing east, `a2` at (10, 30) facing east; B: `b1` at (14, 10)
/// facing west, `b2` at (30, 20) facing west (it sees them all), Lieutenants far off. `b1_at`
/// moves b1.
fn field(b1_at: (f64, f64), b1_extra: Value) -> Value {
    setup(
        vec![vec![
            lt(t("a_lt", 2.0, 46.0, 0.0)),
            with(t("a1", 10.0, 10.0, 0.0), json!({"mov": [4, 4]})),
            with(t("a2", 10.0, 30.0, 0.0), json!({"mov": [4, 4]})),
        ]],
        vec![vec![
            lt(t("b_lt", 46.0, 46.0, 90.0)),
            with(t("b1", b1_at.0, b1_at.1, 180.0), b1_extra),
            t("b2", 30.0, 20.0, 180.0),
        ]],
        json!([]),
    )
}

fn activate(g: &Game, id: &str) -> Game {
    ok(g, json!({"type": "activate", "source": "regular", "troopers": [id]}))
}

fn mv(skill: &str, id: &str, route: Value) -> Value {
    json!({"type": "declare", "skill": skill, "moves": [{"trooper": id, "route": route}]})
}

fn engaged(g: &Game, id: &str) -> bool {
    g.trooper(id).is_some_and(|t| t.is(State::Engaged))
}

#[test]
fn moving_into_base_contact_engages_both_and_then_only_close_combat_skills_may_be_declared() {
    let g = activate(&start_orders(&game(field((14.0, 10.0), json!({})))), "a1");
    assert!(!engaged(&g, "a1") && !engaged(&g, "b1"));
    // a1 charges b1: its base ends touching b1's. Both are Engaged; b1 may react to it.
    let g = ok(&g, mv("move", "a1", json!([[14.0 - TOUCH, 10.0]])));
    assert!(engaged(&g, "a1") && engaged(&g, "b1"));
    assert_eq!(g.close_combat_of("a1"), vec!["b1"]);
    assert!(eligible(&g).contains(&"b1".to_string()), "{:?}", eligible(&g));
    let g = ok(&g, json!({"type": "close_aro_window"}));
    // Engaged, a1 may not shoot or walk away; it may strike in close combat.
    let r = no(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["b2"]}), Rule::EngagedState);
    assert!(r.reason.contains("a1 is Engaged (in Silhouette contact with b1)"), "{}", r.reason);
    assert!(r.reason.contains("only CC Attack, Dodge, Reset, Idle"), "{}", r.reason);
    no(&g, mv("move", "a1", json!([[10.0, 10.0]])), Rule::EngagedState);
    assert_eq!(g.can_declare("move").map_err(|r| r.rule), Err(Rule::EngagedState));
    ok(&g, json!({"type": "declare", "skill": "cc_attack", "targets": ["b1"]}));
}

#[test]
fn an_engaged_trooper_traces_no_lof_outside_its_close_combat() {
    // b1 is set base to base with a1 from the start: Engaged. When a2 (whom b1 faces and sees)
    // moves, b1 may not react to it by LoF; b2, not Engaged, may.
    let g = start_orders(&game(field((10.0 + TOUCH, 10.0), json!({"states": ["engaged"]}))));
    assert!(engaged(&g, "b1") && engaged(&g, "a1"));
    let g = ok(&activate(&g, "a2"), mv("move", "a2", json!([[12.0, 30.0]])));
    assert_eq!(eligible(&g), vec!["b2"]);
    // Nor may a1, Engaged, shoot b2 outside its Close Combat.
    let g = ok(
        &start_orders(&game(field((10.0 + TOUCH, 10.0), json!({})))),
        json!({"type": "activate", "source": "regular", "troopers": ["a1"]}),
    );
    let r = no(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["b2"]}), Rule::EngagedState);
    assert!(r.reason.contains("b1"), "{}", r.reason);
}

#[test]
fn engaged_ends_when_the_enemy_falls_or_the_trooper_dodges_out_of_contact() {
    let start = start_orders(&game(field((10.0 + TOUCH, 10.0), json!({}))));
    // b1 falls Unconscious at Resolution: a1 is no longer Engaged (a Null enemy engages no one).
    let g = run(
        &activate(&start, "a1"),
        vec![json!({"type": "declare", "skill": "cc_attack", "targets": ["b1"]}), json!({"type": "close_aro_window"})],
    );
    assert!(engaged(&g, "a1"));
    let g =
        ok(&g, json!({"type": "resolve", "outcomes": [{"type": "enter", "trooper": "b1", "state": "unconscious"}]}));
    assert!(!engaged(&g, "a1") && !engaged(&g, "b1"));
    // a1 Dodges 1.5" away: out of contact, neither is Engaged.
    let g = ok(&activate(&start, "a1"), mv("dodge", "a1", json!([[8.5, 10.0]])));
    assert!(!engaged(&g, "a1") && !engaged(&g, "b1"));
}

#[test]
fn contact_is_bases_within_the_tagging_tolerance_and_never_set_by_hand() {
    let gap = |d: f64| start_orders(&game(field((10.0 + TOUCH + d, 10.0), json!({}))));
    assert!(engaged(&gap(SILHOUETTE_CONTACT_IN * 0.5), "a1"));
    assert!(!engaged(&gap(SILHOUETTE_CONTACT_IN * 2.0), "a1"));
    // A setup may not call a trooper out of contact Engaged: the field is named.
    let s: Setup = serde_json::from_value(field((20.0, 10.0), json!({"states": ["engaged"]}))).expect("setup JSON");
    let Err(e) = Game::new(s) else { panic!("a setup calling b1 Engaged out of contact was accepted") };
    assert_eq!(e.field, "armies.B.groups[0].troopers[1].states");
    assert!(e.reason.contains("not in Silhouette contact"), "{}", e.reason);
    // Nor may a Resolution report it.
    let g = run(
        &activate(&gap(5.0), "a1"),
        vec![json!({"type": "declare", "skill": "idle"}), json!({"type": "close_aro_window"})],
    );
    let r = no(
        &g,
        json!({"type": "resolve", "outcomes": [{"type": "enter", "trooper": "a1", "state": "engaged"}]}),
        Rule::EngagedState,
    );
    assert!(r.reason.contains("worked out from Silhouette contact"), "{}", r.reason);
}

/// N4 Engaged State: "Template Weapons placed on a group of Troopers in Engaged state will always
/// affect all participating Troopers, even if the placement of the Template would only affect one
/// of them". A Template that covers only a1, Engaged with b1, hits b1 too: b1 may react to it.
#[test]
fn a_template_on_one_trooper_of_a_close_combat_hits_everyone_in_it() {
    let g = start_orders(&game(field((10.0 + TOUCH, 10.0), json!({}))));
    assert!(engaged(&g, "a1") && engaged(&g, "b1"));
    let g = activate(&g, "a2");
    let g = ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["b2"], "template_hits": ["a1"]}));
    let hits = g.order().map(|o| o.skills[0].template_hits.clone()).unwrap_or_default();
    assert_eq!(hits, vec!["a1", "b1"]);
    assert!(reasons(&g, "b1").contains(&"template".to_string()), "{:?}", reasons(&g, "b1"));
    // A Template on b2, in no Close Combat, hits b2 alone.
    let g = activate(&start_orders(&game(field((10.0 + TOUCH, 10.0), json!({})))), "a2");
    let g = ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["b2"], "template_hits": ["b2"]}));
    assert_eq!(g.order().map(|o| o.skills[0].template_hits.clone()).unwrap_or_default(), vec!["b2"]);
}
