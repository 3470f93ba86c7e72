//! Seed 000 (Trooper Activation: Structure of an Order, ARO, Order Expenditure Sequence, FAQs) and
//! seed 001 (ARO, later wording): one scenario test per rule statement.

mod common;
use common::*;
use serde_json::json;
use sightline::rules::{OrderStep, Rule, State};

/// A at (10,10) facing north. B: `sees` straight ahead 20" away; `hidden` behind a 5" wall;
/// `near` 6" behind A's back, facing away (ZoC, no LoF); `far` far away facing away.
fn table() -> sightline::rules::Game {
    let wall = json!([{"id": "wall", "polygon": [[20, 0], [21, 0], [21, 20], [20, 20]], "height": 5.0}]);
    game(setup(
        vec![vec![lt(t("a", 10.0, 10.0, 90.0)), t("a2", 4.0, 40.0, 0.0)]],
        vec![vec![
            lt(t("sees", 10.0, 30.0, 270.0)),
            t("hidden", 30.0, 10.0, 180.0),
            t("near", 10.0, 4.0, 270.0),
            t("far", 44.0, 44.0, 0.0),
        ]],
        wall,
    ))
}

fn activated() -> sightline::rules::Game {
    ok(&start_orders(&table()), json!({"type": "activate", "source": "regular", "troopers": ["a"]}))
}

fn mv(to: [f64; 2]) -> serde_json::Value {
    mv_via(&[to])
}

fn mv_via(route: &[[f64; 2]]) -> serde_json::Value {
    json!({"type": "declare", "skill": "move", "moves": [{"trooper": "a", "route": route}]})
}

/// Out past the wall's end, clear of it (a straight line from (10, 10) to (25, 25) cuts its
/// corner, which the General Movement Rules refuse).
fn round_the_wall() -> serde_json::Value {
    mv_via(&[[17.0, 23.0], [25.0, 25.0]])
}

fn close() -> serde_json::Value {
    json!({"type": "close_aro_window"})
}

#[test]
fn structure_of_an_order_short_movement_twice_same_skill() {
    let g = run(&activated(), vec![mv([10.0, 12.0]), close(), mv([10.0, 14.0])]);
    assert_eq!(g.order().map(|o| o.step), Some(OrderStep::AroWindow2));
}

#[test]
fn structure_of_an_order_short_movement_plus_short_skill_either_order() {
    let bs = json!({"type": "declare", "skill": "bs_attack", "targets": ["sees"]});
    run(&activated(), vec![mv([10.0, 12.0]), close(), bs.clone()]);
    run(&activated(), vec![bs, close(), mv([10.0, 12.0])]);
}

#[test]
fn structure_of_an_order_never_two_short_skills() {
    let g = run(&activated(), vec![json!({"type": "declare", "skill": "bs_attack", "targets": ["sees"]}), close()]);
    let r = no(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["sees"]}), Rule::StructureOfAnOrder);
    assert!(r.reason.contains("two Short Skills"), "{}", r.reason);
    no(&g, json!({"type": "declare", "skill": "dodge"}), Rule::StructureOfAnOrder);
}

#[test]
fn structure_of_an_order_entire_order_cannot_be_combined() {
    // (Jump: `a` stands in `sees`' LoF, where Cautious Movement may not be declared.)
    let entire = json!({"type": "declare", "skill": "jump", "moves": [{"trooper": "a", "route": [[10, 11]]}]});
    let g = run(&activated(), vec![entire, close()]);
    assert_eq!(g.order().map(|o| o.step), Some(OrderStep::Resolution), "no second skill after an Entire Order");
    no(&g, mv([10.0, 12.0]), Rule::StructureOfAnOrder);
    // and an Entire Order as the second skill
    let g = run(&activated(), vec![mv([10.0, 12.0]), close()]);
    no(
        &g,
        json!({"type": "declare", "skill": "jump", "moves": [{"trooper": "a", "route": [[10, 13]]}]}),
        Rule::StructureOfAnOrder,
    );
}

#[test]
fn order_expenditure_sequence_move_places_the_trooper_at_the_end_of_its_route() {
    let g = ok(
        &activated(),
        json!({"type": "declare", "skill": "move", "moves": [{"trooper": "a", "route": [[12, 10], [12, 16]]}]}),
    );
    let p = g.trooper("a").and_then(|t| t.position).expect("on the table");
    assert_eq!((p.x, p.y), (12.0, 16.0));
    assert_eq!(p.facing, 90.0, "faces along its last leg");
    // A last leg towards -y: 270°, the way a player gives a facing (not -90°).
    let g = ok(
        &activated(),
        json!({"type": "declare", "skill": "move", "moves": [{"trooper": "a", "route": [[12, 10], [12, 7]]}]}),
    );
    assert_eq!(g.trooper("a").and_then(|t| t.position).map(|p| p.facing), Some(270.0));
}

#[test]
fn order_expenditure_sequence_order_spent_at_activation() {
    let g = start_orders(&table());
    let before = g.pool(sightline::geometry::Side::A, 0);
    let g = ok(&g, json!({"type": "activate", "source": "regular", "troopers": ["a"]}));
    assert_eq!(g.pool(sightline::geometry::Side::A, 0), before - 1);
    assert_eq!(g.order().map(|o| o.step), Some(OrderStep::FirstSkill));
}

#[test]
fn aro_check_lof_and_zoc_reasons() {
    let g = ok(&activated(), mv([10.0, 12.0]));
    let mut e = eligible(&g);
    e.sort();
    assert_eq!(e, vec!["near", "sees"], "hidden (behind the wall) and far are not eligible");
    assert_eq!(reasons(&g, "sees"), vec!["lof"]);
    assert_eq!(reasons(&g, "near"), vec!["zoc"], "inside ZoC without LoF (A is behind it)");
}

#[test]
fn aro_zoc_without_lof_allows_only_skills_that_need_no_lof() {
    let g = ok(&activated(), mv([10.0, 12.0]));
    no(&g, json!({"type": "declare_aro", "trooper": "near", "skill": "bs_attack", "target": "a"}), Rule::LineOfFire);
    ok(&g, json!({"type": "declare_aro", "trooper": "near", "skill": "dodge", "target": "a"}));
}

#[test]
fn aro_second_window_only_for_troopers_not_eligible_in_the_first() {
    // First move: still hidden from `hidden`; second move: out past the wall's end, into its LoF.
    let g = run(
        &activated(),
        vec![
            mv([10.0, 12.0]),
            json!({"type": "declare_aro", "trooper": "sees", "skill": "bs_attack", "target": "a"}),
            close(),
        ],
    );
    assert_eq!(g.order().map(|o| o.lost.clone()), Some(vec!["near".to_string()]));
    let g = ok(&g, mv([25.0, 25.0]));
    assert_eq!(eligible(&g), vec!["hidden"], "sees already reacted; near lost its ARO in window 1");
    no(&g, json!({"type": "declare_aro", "trooper": "near", "skill": "dodge", "target": "a"}), Rule::Aro);
    ok(&g, json!({"type": "declare_aro", "trooper": "hidden", "skill": "bs_attack", "target": "a"}));
}

#[test]
fn aro_an_eligible_trooper_that_does_not_declare_loses_it() {
    let g = run(&activated(), vec![mv([10.0, 12.0]), close()]);
    let o = g.order().expect("order");
    let mut lost = o.lost.clone();
    lost.sort();
    assert_eq!(lost, vec!["near", "sees"]);
    let g = ok(&g, mv([10.0, 13.0]));
    let r = no(&g, json!({"type": "declare_aro", "trooper": "sees", "skill": "bs_attack", "target": "a"}), Rule::Aro);
    assert!(r.reason.contains("lost"), "{}", r.reason);
}

#[test]
fn aro_one_single_aro_per_order_regardless_of_skills() {
    let g = ok(&activated(), mv([10.0, 12.0]));
    let g = ok(&g, json!({"type": "declare_aro", "trooper": "sees", "skill": "bs_attack", "target": "a"}));
    no(&g, json!({"type": "declare_aro", "trooper": "sees", "skill": "dodge", "target": "a"}), Rule::Aro);
}

#[test]
fn aro_must_target_a_trooper_activated_by_the_order() {
    let g = ok(&activated(), mv([10.0, 12.0]));
    no(&g, json!({"type": "declare_aro", "trooper": "sees", "skill": "bs_attack", "target": "a2"}), Rule::Aro);
}

#[test]
fn aro_only_skills_usable_in_aro() {
    let g = ok(&activated(), mv([10.0, 12.0]));
    let r = no(&g, json!({"type": "declare_aro", "trooper": "sees", "skill": "move", "target": "a"}), Rule::Aro);
    assert!(r.reason.contains("not usable in ARO"));
}

#[test]
fn aro_troopers_cannot_react_to_aros() {
    let g = ok(&activated(), mv([10.0, 12.0]));
    no(&g, json!({"type": "declare_aro", "trooper": "a2", "skill": "dodge", "target": "a"}), Rule::Aro);
    // and nobody reacts outside an ARO window
    no(
        &activated(),
        json!({"type": "declare_aro", "trooper": "sees", "skill": "dodge", "target": "a"}),
        Rule::OrderExpenditure,
    );
}

#[test]
fn aro_no_limit_to_the_number_of_reacting_troopers_and_burst_one() {
    let g = ok(&activated(), mv([10.0, 12.0]));
    let g = ok(&g, json!({"type": "declare_aro", "trooper": "sees", "skill": "bs_attack", "target": "a"}));
    let g = ok(&g, json!({"type": "declare_aro", "trooper": "near", "skill": "dodge", "target": "a"}));
    let o = g.order().expect("order");
    assert_eq!(o.declared.len(), 2);
    assert!(o.declared.iter().all(|d| d.burst == 1), "AROs have Burst 1");
}

#[test]
fn faq_lof_requirements_are_checked_when_declaring_the_skill() {
    let r = no(&activated(), json!({"type": "declare", "skill": "bs_attack", "targets": ["hidden"]}), Rule::LineOfFire);
    assert!(r.reason.contains("hidden"));
    ok(&activated(), json!({"type": "declare", "skill": "bs_attack", "targets": ["sees"]}));
}

#[test]
fn all_at_once_move_then_attack_from_any_point_of_the_route() {
    // Move out past the wall's end, then shoot `hidden` — LoF from a point of the route counts.
    let g = run(&activated(), vec![round_the_wall(), close()]);
    ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["hidden"]}));
}

#[test]
fn aro_template_and_comms_attack_give_aros_without_lof() {
    let g = ok(&activated(), json!({"type": "declare", "skill": "speculative_attack", "template_hits": ["hidden"]}));
    assert!(reasons(&g, "hidden").contains(&"template".to_string()));
    // A hacker's Comms Attack on `far`, which sees nothing.
    let s = setup(
        vec![vec![with(t("h", 40.0, 40.0, 90.0), json!({"abilities": ["lieutenant", "hacker"]}))]],
        vec![vec![lt(t("far", 44.0, 44.0, 0.0))]],
        json!([]),
    );
    let g = run(&start_orders(&game(s)), vec![json!({"type": "activate", "source": "regular", "troopers": ["h"]})]);
    let g = ok(&g, json!({"type": "declare", "skill": "hacking", "targets": ["far"]}));
    assert!(reasons(&g, "far").contains(&"comms_attack".to_string()), "{:?}", reasons(&g, "far"));
}

#[test]
fn aro_hacking_area_through_a_repeater() {
    let s = setup(
        vec![vec![lt(t("a", 10.0, 10.0, 90.0))]],
        vec![vec![
            with(t("hacker", 44.0, 44.0, 0.0), json!({"abilities": ["lieutenant", "hacker"]})),
            with(t("rep", 10.0, 2.0, 270.0), json!({"abilities": ["repeater"], "silhouette": 1})),
        ]],
        json!([]),
    );
    let g = run(
        &start_orders(&game(s)),
        vec![json!({"type": "activate", "source": "regular", "troopers": ["a"]}), mv([10.0, 12.0])],
    );
    assert_eq!(reasons(&g, "hacker"), vec!["hacking_area"]);
    ok(&g, json!({"type": "declare_aro", "trooper": "hacker", "skill": "hacking", "target": "a"}));
    no(&g, json!({"type": "declare_aro", "trooper": "hacker", "skill": "bs_attack", "target": "a"}), Rule::LineOfFire);
}

#[test]
fn aro_sixth_sense_answers_an_attack_from_outside_lof() {
    let s = setup(
        vec![vec![lt(t("a", 10.0, 10.0, 90.0))]],
        vec![vec![with(t("six", 10.0, 30.0, 90.0), json!({"abilities": ["lieutenant", "sixth_sense"]}))]],
        json!([]),
    );
    // `six` faces away; A shoots it in the back.
    let g = run(&start_orders(&game(s)), vec![json!({"type": "activate", "source": "regular", "troopers": ["a"]})]);
    let g = ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["six"]}));
    assert_eq!(reasons(&g, "six"), vec!["sixth_sense"]);
    ok(&g, json!({"type": "declare_aro", "trooper": "six", "skill": "bs_attack", "target": "a"}));
}

#[test]
fn camouflaged_marker_cannot_be_attacked_until_discovered() {
    let s = setup(
        vec![vec![lt(t("a", 10.0, 10.0, 90.0))]],
        vec![vec![lt(t("b", 44.0, 44.0, 0.0)), with(t("camo", 10.0, 30.0, 270.0), json!({"states": ["camouflaged"]}))]],
        json!([]),
    );
    let g = run(&start_orders(&game(s)), vec![json!({"type": "activate", "source": "regular", "troopers": ["a"]})]);
    no(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["camo"]}), Rule::Camouflage);
    let g = run(&g, vec![json!({"type": "declare", "skill": "discover", "targets": ["camo"]}), close()]);
    ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["camo"]}));
}

/// Digest §6 "Camouflage markers": "if the camouflaged target reveals itself with its own ARO, no
/// Discover Roll is needed". A marker that Attacks in ARO is revealed at once, so the Order's
/// second skill may shoot it; one that only Dodges stays a marker (session 16's rules review found
/// the ARO Attack left it Camouflaged).
#[test]
fn a_camouflage_marker_that_attacks_in_aro_reveals_itself() {
    let s = setup(
        vec![vec![lt(t("a", 10.0, 10.0, 90.0))]],
        vec![vec![lt(t("b", 44.0, 44.0, 0.0)), with(t("camo", 10.0, 30.0, 270.0), json!({"states": ["camouflaged"]}))]],
        json!([]),
    );
    let g = run(
        &start_orders(&game(s)),
        vec![
            json!({"type": "activate", "source": "regular", "troopers": ["a"]}),
            json!({"type": "declare", "skill": "move", "moves": [{"trooper": "a", "route": [[10, 12]]}]}),
        ],
    );
    let dodged =
        run(&g, vec![json!({"type": "declare_aro", "trooper": "camo", "skill": "dodge", "target": "a"}), close()]);
    assert!(dodged.trooper("camo").is_some_and(|t| t.is(State::Camouflaged)));
    no(&dodged, json!({"type": "declare", "skill": "bs_attack", "targets": ["camo"]}), Rule::Camouflage);
    let shot = ok(&g, json!({"type": "declare_aro", "trooper": "camo", "skill": "bs_attack", "target": "a"}));
    assert!(shot.trooper("camo").is_some_and(|t| !t.is(State::Camouflaged)), "revealed by its own Attack");
    let shot = ok(&shot, close());
    ok(&shot, json!({"type": "declare", "skill": "bs_attack", "targets": ["camo"]}));
}

/// Digest §2: "Markers do not block LoF unless a rule says so". An S5 standing right in front of
/// the target hides it from the shooter as a model, not as a Camouflage marker (session 16's
/// rules review found markers blocking like models).
#[test]
fn a_camouflage_marker_does_not_block_lof() {
    let activated = |states: serde_json::Value| {
        let s = setup(
            vec![vec![lt(t("a", 24.0, 4.0, 90.0))]],
            vec![vec![
                lt(t("b", 44.0, 46.0, 270.0)),
                with(t("wall", 24.0, 28.4, 270.0), json!({"silhouette": 5, "states": states})),
                t("target", 24.0, 30.0, 270.0),
            ]],
            json!([]),
        );
        run(&start_orders(&game(s)), vec![json!({"type": "activate", "source": "regular", "troopers": ["a"]})])
    };
    let shoot = json!({"type": "declare", "skill": "bs_attack", "targets": ["target"]});
    no(&activated(json!([])), shoot.clone(), Rule::LineOfFire);
    ok(&activated(json!(["camouflaged"])), shoot);
}

#[test]
fn order_expenditure_sequence_steps_in_order() {
    let g = activated();
    no(&g, json!({"type": "resolve"}), Rule::OrderExpenditure);
    no(&g, close(), Rule::OrderExpenditure);
    let g = ok(&g, mv([10.0, 12.0]));
    no(&g, mv([10.0, 13.0]), Rule::OrderExpenditure);
    no(&g, json!({"type": "resolve"}), Rule::OrderExpenditure);
    no(&g, json!({"type": "activate", "source": "regular", "troopers": ["a2"]}), Rule::OrderExpenditure);
    let g = run(&g, vec![close(), json!({"type": "resolve"})]);
    assert!(g.order().is_none(), "the Order is over");
}

#[test]
fn resolution_reported_outcomes_are_applied() {
    let g = run(
        &activated(),
        vec![
            mv([10.0, 12.0]),
            json!({"type": "declare_aro", "trooper": "sees", "skill": "bs_attack", "target": "a"}),
            close(),
            json!({"type": "resolve", "outcomes": [
                {"type": "enter", "trooper": "a", "state": "unconscious"},
                {"type": "place", "trooper": "near", "x": 12.0, "y": 3.0},
                {"type": "idle", "trooper": "sees"}
            ]}),
        ],
    );
    assert!(g.trooper("a").is_some_and(|t| t.is_null()));
    let p = g.trooper("near").and_then(|t| t.position).expect("placed");
    assert_eq!((p.x, p.y), (12.0, 3.0));
    no(&g, json!({"type": "activate", "source": "regular", "troopers": ["a"]}), Rule::NullState);
}

#[test]
fn peripheral_and_controller_declare_the_same_aro() {
    let s = setup(
        vec![vec![lt(t("a", 10.0, 10.0, 90.0))]],
        vec![vec![
            lt(t("doc", 8.0, 30.0, 270.0)),
            with(t("bot", 12.0, 30.0, 270.0), json!({"peripheral_of": "doc", "silhouette": 1})),
        ]],
        json!([]),
    );
    let g = run(
        &start_orders(&game(s)),
        vec![json!({"type": "activate", "source": "regular", "troopers": ["a"]}), mv([10.0, 12.0])],
    );
    let g = ok(&g, json!({"type": "declare_aro", "trooper": "doc", "skill": "bs_attack", "target": "a"}));
    no(&g, json!({"type": "declare_aro", "trooper": "bot", "skill": "dodge", "target": "a"}), Rule::Peripheral);
    ok(&g, json!({"type": "declare_aro", "trooper": "bot", "skill": "bs_attack", "target": "a"}));
}

#[test]
fn coordinated_order_one_target_for_all() {
    let s = setup(
        vec![vec![lt(t("a", 10.0, 10.0, 90.0)), t("a2", 14.0, 10.0, 90.0)]],
        vec![vec![lt(t("b", 10.0, 30.0, 270.0)), t("b2", 14.0, 30.0, 270.0)]],
        json!([]),
    );
    let g = ok(&start_orders(&game(s)), json!({"type": "activate", "source": "coordinated", "troopers": ["a", "a2"]}));
    no(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["b", "b2"]}), Rule::CoordinatedOrder);
    let g = ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["b"]}));
    // Each enemy gets one ARO against the whole group and picks its target among them.
    let g = ok(&g, json!({"type": "declare_aro", "trooper": "b", "skill": "bs_attack", "target": "a2"}));
    no(&g, json!({"type": "declare_aro", "trooper": "b", "skill": "bs_attack", "target": "a"}), Rule::Aro);
}

#[test]
fn all_at_once_a_moving_camouflage_marker_can_only_be_discovered_in_aro() {
    let s = setup(
        vec![vec![lt(with(t("camo", 10.0, 10.0, 90.0), json!({"states": ["camouflaged"]})))]],
        vec![vec![lt(t("b", 10.0, 30.0, 270.0)), t("b2", 14.0, 30.0, 270.0)]],
        json!([]),
    );
    let g = run(&start_orders(&game(s)), vec![json!({"type": "activate", "source": "regular", "troopers": ["camo"]})]);
    let g1 = ok(&g, json!({"type": "declare", "skill": "move", "moves": [{"trooper": "camo", "route": [[10, 12]]}]}));
    let g1 = ok(&g1, json!({"type": "declare_aro", "trooper": "b", "skill": "discover", "target": "camo"}));
    no(&g1, json!({"type": "declare_aro", "trooper": "b2", "skill": "bs_attack", "target": "camo"}), Rule::Camouflage);
    // A marker that attacks reveals itself: then it may be shot.
    let g2 = ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["b"]}));
    assert!(!g2.trooper("camo").is_some_and(|t| t.is(sightline::rules::State::Camouflaged)));
    ok(&g2, json!({"type": "declare_aro", "trooper": "b", "skill": "bs_attack", "target": "camo"}));
}

#[test]
fn faq_direct_template_only_from_a_point_already_reached() {
    // FAQ 1.2: a template (any attack) is placed from a point of the path the trooper has reached.
    // Attack first, move second: only the starting point counts, and `hidden` is behind the wall.
    let g = activated();
    no(
        &g,
        json!({"type": "declare", "skill": "bs_attack", "targets": ["hidden"], "template_hits": ["hidden"]}),
        Rule::LineOfFire,
    );
    // Move first (out past the wall's end), attack second: from the route.
    let g = run(&g, vec![round_the_wall(), close()]);
    let g =
        ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["hidden"], "template_hits": ["hidden"]}));
    // (`hidden` saw the move in window 1 and let its ARO go: the template gives it no second one.)
    assert!(g.order().is_some_and(|o| o.lost.contains(&"hidden".to_string())));
    assert!(eligible(&g).is_empty());
}

#[test]
fn faq_impact_template_main_target_in_lof_when_declaring() {
    // FAQ 1.2: the Main Target must be in LoF when the Attack is declared; others under the
    // template need not be, and may ARO because they are hit by it.
    let g = activated();
    no(
        &g,
        json!({"type": "declare", "skill": "bs_attack", "targets": ["hidden"], "template_hits": ["sees"]}),
        Rule::LineOfFire,
    );
    let g =
        ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["sees"], "template_hits": ["sees", "far"]}));
    assert_eq!(reasons(&g, "far"), vec!["template"], "far sees nothing but is under the template");
    ok(&g, json!({"type": "declare_aro", "trooper": "far", "skill": "dodge", "target": "a"}));
}
