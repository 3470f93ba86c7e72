//! Seed 002 (Orders and the Order Pool, with its FAQs) and digest §4 (Order Count, Null states,
//! Isolated, Loss of Lieutenant, Retreat!, Command Tokens, Coordinated Orders, Impetuous, Tactical
//! Awareness) and §8 (Game Sequence): one scenario test per rule statement.

mod common;
use common::*;
use serde_json::{Value, json};
use sightline::geometry::Side;
use sightline::rules::{Game, Phase, Rule, State};

fn activate(source: &str, ids: &[&str]) -> Value {
    json!({"type": "activate", "source": source, "troopers": ids})
}

fn resolve() -> Value {
    json!({"type": "resolve"})
}

/// A whole Order with one Move and no AROs (the troopers stand far apart).
fn full_order(g: &Game, source: &str, ids: &[&str]) -> Game {
    run(
        g,
        vec![
            activate(source, ids),
            json!({"type": "declare", "skill": "move", "moves": [{"trooper": ids[0], "route": [[1.0 + g.events_applied() as f64 * 0.01, 1.0]]}]}),
            json!({"type": "close_aro_window"}),
            resolve(),
        ],
    )
}

/// Finish the Order in progress with `outcomes`.
fn order_with(g: &Game, source: &str, id: &str, outcomes: Value) -> Game {
    run(
        g,
        vec![
            activate(source, &[id]),
            json!({"type": "declare", "skill": "idle"}),
            json!({"type": "close_aro_window"}),
            json!({"type": "resolve", "outcomes": outcomes}),
        ],
    )
}

/// Two groups for A (4 Regulars + 1 Irregular; 1 Regular + its Peripheral + 1 off table), B far away.
fn armies() -> Value {
    setup(
        vec![
            vec![
                lt(t("lt", 2.0, 2.0, 90.0)),
                t("r1", 6.0, 2.0, 90.0),
                t("r2", 10.0, 2.0, 90.0),
                with(t("nco", 14.0, 2.0, 90.0), json!({"abilities": ["nco", "tactical_awareness"]})),
                with(t("irr", 18.0, 2.0, 90.0), json!({"training": "irregular"})),
            ],
            vec![
                t("eng", 30.0, 2.0, 90.0),
                with(t("bot", 32.0, 2.0, 90.0), json!({"peripheral_of": "eng", "silhouette": 1})),
                with(t("para", 0.0, 0.0, 0.0), json!({"position": null})),
            ],
        ],
        vec![vec![lt(t("b_lt", 44.0, 46.0, 270.0)), t("b1", 40.0, 46.0, 270.0)]],
        json!([]),
    )
}

#[test]
fn order_pool_regular_orders_go_to_their_own_combat_groups_pool() {
    let g = start_orders(&game(armies()));
    assert_eq!(
        g.pools(Side::A),
        &[4, 1],
        "group 1: lt, r1, r2, nco; group 2: eng (bot is a Peripheral, para off table)"
    );
    assert_eq!(g.irregular_orders().get("irr"), Some(&1), "the Irregular keeps its own");
    assert_eq!(g.lieutenant_orders(Side::A), 1);
    assert!(g.tactical_awareness_orders().contains("nco"));
}

#[test]
fn order_pool_cannot_be_transferred_between_combat_groups() {
    let mut g = start_orders(&game(armies()));
    g = full_order(&g, "regular", &["eng"]);
    assert_eq!(g.pools(Side::A), &[4, 0]);
    let r = no(&g, activate("regular", &["eng"]), Rule::OrderPool);
    assert!(r.reason.contains("Combat Group 2"), "{}", r.reason);
}

#[test]
fn order_pool_no_limit_on_activating_the_same_trooper() {
    let mut g = start_orders(&game(armies()));
    for _ in 0..4 {
        g = full_order(&g, "regular", &["r1"]);
    }
    assert_eq!(g.pool(Side::A, 0), 0);
    no(&g, activate("regular", &["r1"]), Rule::OrderPool);
}

#[test]
fn irregular_order_is_for_its_own_use_and_it_may_also_take_pool_orders() {
    let g = start_orders(&game(armies()));
    no(&g, activate("irregular", &["r1"]), Rule::IrregularOrder);
    let g = full_order(&g, "irregular", &["irr"]);
    no(&g, activate("irregular", &["irr"]), Rule::IrregularOrder);
    let g = full_order(&g, "regular", &["irr"]);
    assert_eq!(g.pool(Side::A, 0), 3);
}

#[test]
fn peripherals_give_no_order_and_use_their_controllers() {
    let g = start_orders(&game(armies()));
    // The Peripheral is activated by its Controller's Order, from the Controller's group.
    let g = ok(&g, activate("regular", &["eng", "bot"]));
    assert_eq!(g.order().map(|o| o.troopers.clone()), Some(vec!["eng".to_string(), "bot".to_string()]));
    assert_eq!(g.pool(Side::A, 1), 0);
    // One Order never activates two ordinary troopers.
    let g = start_orders(&game(armies()));
    no(&g, activate("regular", &["r1", "r2"]), Rule::OrderExpenditure);
}

#[test]
fn order_pool_off_table_troopers_add_no_order_until_on_the_table() {
    let mut g = start_orders(&game(armies()));
    assert_eq!(g.pool(Side::A, 1), 1);
    // The paratrooper enters with a move whose first point is where it lands (eng's Order).
    g = run(
        &g,
        vec![
            activate("regular", &["para"]),
            json!({"type": "declare", "skill": "move", "moves": [{"trooper": "para", "route": [[24, 24], [24, 26]]}]}),
            json!({"type": "close_aro_window"}),
            resolve(),
            json!({"type": "end_turn"}),
            json!({"type": "order_count"}),
            json!({"type": "end_turn"}),
        ],
    );
    let g = ok(&g, json!({"type": "order_count"}));
    assert_eq!(g.pool(Side::A, 1), 2, "now on the table, it adds its Order");
}

#[test]
fn null_states_add_no_order_and_a_casualty_is_lost_from_the_next_turn() {
    let g = start_orders(&game(armies()));
    let g = order_with(&g, "regular", "r1", json!([{"type": "enter", "trooper": "r2", "state": "unconscious"}]));
    assert_eq!(g.pool(Side::A, 0), 3, "the current pool is not reduced mid-turn");
    let g = run(&g, vec![json!({"type": "end_turn"}), json!({"type": "order_count"}), json!({"type": "end_turn"})]);
    let g = ok(&g, json!({"type": "order_count"}));
    assert_eq!(g.pool(Side::A, 0), 3, "lt, r1, nco");
    no(&g, activate("regular", &["r2"]), Rule::NullState);
}

#[test]
fn lieutenant_order_is_kept_apart_and_an_nco_may_spend_it() {
    let g = start_orders(&game(armies()));
    no(&g, activate("lieutenant", &["r1"]), Rule::LieutenantOrder);
    let g = full_order(&g, "lieutenant", &["nco"]);
    assert_eq!(g.lieutenant_orders(Side::A), 0);
    assert_eq!(g.pool(Side::A, 0), 4, "the pool is untouched");
    no(&g, activate("lieutenant", &["lt"]), Rule::LieutenantOrder);
}

#[test]
fn lieutenant_plus_one_order_option_gives_two() {
    let mut s = armies();
    s["armies"]["A"]["groups"][0]["troopers"][0]["lieutenant_option"] = json!("extra_order");
    let g = start_orders(&game(s));
    assert_eq!(g.lieutenant_orders(Side::A), 2);
}

#[test]
fn faq_isolated_lieutenant_loses_its_unspent_lieutenant_order() {
    let g = start_orders(&game(armies()));
    let g = order_with(&g, "regular", "r1", json!([{"type": "enter", "trooper": "lt", "state": "isolated"}]));
    assert_eq!(g.lieutenant_orders(Side::A), 0, "lost: neither the Lieutenant nor an NCO may use it");
    no(&g, activate("lieutenant", &["nco"]), Rule::LieutenantOrder);
}

#[test]
fn faq_an_isolated_nco_cannot_use_the_lieutenant_order() {
    let g = start_orders(&game(armies()));
    let g = order_with(&g, "regular", "r1", json!([{"type": "enter", "trooper": "nco", "state": "isolated"}]));
    assert_eq!(g.lieutenant_orders(Side::A), 1);
    let r = no(&g, activate("lieutenant", &["nco"]), Rule::LieutenantOrder);
    assert!(r.reason.contains("Isolated"));
    assert!(!g.lieutenant_order_users(Side::A).contains(&"nco"));
}

#[test]
fn isolated_trooper_takes_no_pool_orders_and_counts_as_irregular() {
    let g = start_orders(&game(armies()));
    let g = order_with(&g, "regular", "r1", json!([{"type": "enter", "trooper": "r2", "state": "isolated"}]));
    no(&g, activate("regular", &["r2"]), Rule::Isolated);
    let g = run(&g, vec![json!({"type": "end_turn"}), json!({"type": "order_count"}), json!({"type": "end_turn"})]);
    let g = ok(&g, json!({"type": "order_count"}));
    assert_eq!(g.pool(Side::A, 0), 3);
    assert_eq!(g.irregular_orders().get("r2"), Some(&1), "Isolated at its Order Count: Irregular");
}

#[test]
fn tactical_awareness_is_an_extra_order_of_its_own() {
    let g = start_orders(&game(armies()));
    let g = full_order(&g, "tactical_awareness", &["nco"]);
    no(&g, activate("tactical_awareness", &["nco"]), Rule::TacticalAwareness);
    no(&g, activate("tactical_awareness", &["r1"]), Rule::TacticalAwareness);
    assert_eq!(g.pool(Side::A, 0), 4);
}

#[test]
fn impetuous_phase_gives_one_free_activation() {
    let mut s = armies();
    s["armies"]["A"]["groups"][0]["troopers"][1]["abilities"] = json!(["impetuous"]);
    let g = ok(&game(s), json!({"type": "order_count"}));
    assert_eq!(g.phase(), Phase::Impetuous);
    no(&g, activate("regular", &["r2"]), Rule::GameSequence);
    let g = full_order(&g, "impetuous", &["r1"]);
    assert_eq!(g.phase(), Phase::Orders, "every Impetuous token used: on to the Orders Phase");
    assert_eq!(g.pool(Side::A, 0), 4, "no Order spent");
    no(&g, activate("impetuous", &["r1"]), Rule::Impetuous);
}

#[test]
fn loss_of_lieutenant_all_irregular_no_lieutenant_order_then_a_new_lieutenant() {
    let g = start_orders(&game(armies()));
    let g = order_with(&g, "regular", "r1", json!([{"type": "enter", "trooper": "lt", "state": "dead"}]));
    // The Lieutenant Order already generated may still be spent by the NCO.
    assert_eq!(g.lieutenant_order_users(Side::A), vec!["nco"]);
    let g = run(&g, vec![json!({"type": "end_turn"}), json!({"type": "order_count"}), json!({"type": "end_turn"})]);
    let g = ok(&g, json!({"type": "order_count"}));
    assert!(g.loss_of_lieutenant(Side::A));
    assert_eq!(g.pools(Side::A), &[0, 0], "everyone Irregular");
    assert_eq!(g.irregular_orders().get("r1"), Some(&1));
    assert_eq!(g.lieutenant_orders(Side::A), 0);
    let r = no(&g, json!({"type": "end_turn"}), Rule::LossOfLieutenant);
    assert!(r.reason.contains("name a new Lieutenant"));
    no(&g, json!({"type": "end_turn", "new_lieutenant": "irr"}), Rule::LossOfLieutenant);
    no(&g, json!({"type": "end_turn", "new_lieutenant": "bot"}), Rule::LossOfLieutenant);
    let g = run(
        &g,
        vec![
            json!({"type": "end_turn", "new_lieutenant": "r1"}),
            json!({"type": "order_count"}),
            json!({"type": "end_turn"}),
        ],
    );
    let g = ok(&g, json!({"type": "order_count"}));
    assert!(!g.loss_of_lieutenant(Side::A));
    assert_eq!(g.lieutenant(Side::A), Some("r1"));
    assert_eq!(g.lieutenant_orders(Side::A), 1);
    assert_eq!(g.pool(Side::A, 0), 3);
}

#[test]
fn loss_of_lieutenant_when_the_lieutenant_is_isolated_at_the_tactical_phase() {
    let g = start_orders(&game(armies()));
    let g = order_with(&g, "regular", "r1", json!([{"type": "enter", "trooper": "lt", "state": "isolated"}]));
    let g = run(&g, vec![json!({"type": "end_turn"}), json!({"type": "order_count"}), json!({"type": "end_turn"})]);
    let g = ok(&g, json!({"type": "order_count"}));
    assert!(g.loss_of_lieutenant(Side::A));
    // Cancelling Isolated later that Turn does not undo it.
    let g = order_with(&g, "irregular", "r1", json!([{"type": "leave", "trooper": "lt", "state": "isolated"}]));
    assert!(g.loss_of_lieutenant(Side::A));
}

#[test]
fn retreat_at_a_quarter_of_the_points_or_less() {
    // 8 A troopers of 10 points = 80: 20 or fewer surviving points is Retreat!. The Engineer's
    // death Disconnects its Peripheral (Null), so irr + para = 20 survive.
    let g = start_orders(&game(armies()));
    let outcomes: Vec<Value> = ["lt", "r1", "r2", "nco", "eng"]
        .iter()
        .map(|id| json!({"type": "enter", "trooper": id, "state": "dead"}))
        .collect();
    let g = order_with(&g, "irregular", "irr", Value::Array(outcomes));
    let g = run(&g, vec![json!({"type": "end_turn"}), json!({"type": "order_count"}), json!({"type": "end_turn"})]);
    let g = ok(&g, json!({"type": "order_count"}));
    assert!(g.trooper("bot").is_some_and(|t| t.is(State::Disconnected)));
    assert!(g.in_retreat(Side::A));
    assert!(g.loss_of_lieutenant(Side::A));
}

#[test]
fn retreat_only_short_movement_cautious_movement_dodge_and_reset() {
    let mut s = armies();
    for k in 0..5 {
        s["armies"]["A"]["groups"][0]["troopers"][k]["points"] = json!(1);
    }
    s["armies"]["A"]["points"] = json!(300);
    let g = start_orders(&game(s));
    assert!(g.in_retreat(Side::A));
    assert!(g.loss_of_lieutenant(Side::A), "Retreat! puts the army in Loss of Lieutenant");
    let g = ok(&g, activate("irregular", &["r1"]));
    no(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["b1"]}), Rule::Retreat);
    ok(&g, json!({"type": "declare", "skill": "move", "moves": [{"trooper": "r1", "route": [[6, 4]]}]}));
}

/// Retreat! puts the army in Loss of Lieutenant "except troopers with exempting skills" (digest
/// §4 "Retreat!"); a Lieutenant that is Dead puts it there on its own, with no exemption (digest
/// §4 "Loss of Lieutenant": every trooper Irregular). Session 16's rules review found a Courage
/// trooper left Regular in both cases.
#[test]
fn troopers_that_ignore_retreat_are_still_irregular_when_the_lieutenant_is_lost() {
    use sightline::rules::Training;
    let mut s = armies();
    for k in 0..5 {
        s["armies"]["A"]["groups"][0]["troopers"][k]["points"] = json!(1);
    }
    s["armies"]["A"]["points"] = json!(300);
    s["armies"]["A"]["groups"][0]["troopers"][2]["abilities"] = json!(["ignores_retreat"]);
    let g = start_orders(&game(s));
    assert!(g.in_retreat(Side::A) && g.loss_of_lieutenant(Side::A));
    let r2 = g.trooper("r2").expect("r2");
    assert_eq!(g.training_now(r2), Training::Regular, "Retreat! alone: Courage keeps r2 Regular");
    assert_eq!(g.pools(Side::A), &[1, 0], "group 1: r2 alone; the rest Irregular in Loss of Lieutenant");
    // The Lieutenant dies: at A's next Tactical Phase the army is in Loss of Lieutenant twice over.
    let g = order_with(&g, "irregular", "r1", json!([{"type": "enter", "trooper": "lt", "state": "dead"}]));
    let g = run(&g, vec![json!({"type": "end_turn"}), json!({"type": "order_count"}), json!({"type": "end_turn"})]);
    let g = ok(&g, json!({"type": "order_count"}));
    assert!(g.in_retreat(Side::A) && g.loss_of_lieutenant(Side::A));
    let r2 = g.trooper("r2").expect("r2");
    assert_eq!(g.training_now(r2), Training::Irregular, "no exemption from a dead Lieutenant's Loss of Lieutenant");
    assert_eq!(g.pools(Side::A)[0], 0);
    assert_eq!(g.irregular_orders().get("r2"), Some(&1));
}

#[test]
fn command_tokens_four_per_game_plus_one_option() {
    let g = game(armies());
    assert_eq!(g.command_tokens(Side::A), 4);
    let mut s = armies();
    s["armies"]["B"]["groups"][0]["troopers"][0]["lieutenant_option"] = json!("extra_command_token");
    assert_eq!(game(s).command_tokens(Side::B), 5);
}

#[test]
fn coordinated_order_one_command_token_and_one_regular_order() {
    let g = start_orders(&game(armies()));
    let g = ok(&g, activate("coordinated", &["r1", "r2", "lt"]));
    assert_eq!(g.command_tokens(Side::A), 3);
    assert_eq!(g.pool(Side::A, 0), 3);
    let o = g.order().expect("order");
    assert_eq!(o.spearhead.as_deref(), Some("r1"));
    assert_eq!(o.troopers.len(), 3);
}

#[test]
fn coordinated_order_same_group_same_training_up_to_four_no_peripherals() {
    let g = start_orders(&game(armies()));
    no(&g, activate("coordinated", &["r1", "eng"]), Rule::CoordinatedOrder);
    no(&g, activate("coordinated", &["r1", "irr"]), Rule::CoordinatedOrder);
    no(&g, activate("coordinated", &["r1"]), Rule::CoordinatedOrder);
    let mut s = armies();
    s["armies"]["A"]["groups"][0]["troopers"].as_array_mut().expect("list").push(t("r3", 22.0, 2.0, 90.0));
    let g5 = start_orders(&game(s));
    no(&g5, activate("coordinated", &["lt", "r1", "r2", "nco", "r3"]), Rule::CoordinatedOrder);
    ok(&g5, activate("coordinated", &["lt", "r1", "r2", "nco"]));
}

#[test]
fn strategic_use_removes_two_regular_orders_or_limits_command_tokens() {
    assert!(!game(armies()).strategic_use_open(), "not before the Order Count");
    let g = start_orders(&game(armies()));
    assert!(g.strategic_use_open());
    let g2 = ok(&g, json!({"type": "strategic_command_token", "use": "remove_orders", "from": [[0, 2]]}));
    assert!(!g2.strategic_use_open(), "once a game");
    assert_eq!(g2.pool(Side::A, 0), 2);
    assert_eq!(g2.command_tokens(Side::B), 3);
    no(&g2, json!({"type": "strategic_command_token", "use": "limit_command_tokens"}), Rule::CommandTokens);
    let g3 = ok(&g, json!({"type": "strategic_command_token", "use": "limit_command_tokens"}));
    let g3 = ok(&g3, activate("coordinated", &["r1", "r2"]));
    let g3 = run(
        &g3,
        vec![
            json!({"type": "declare", "skill": "move", "moves": [{"trooper": "r1", "route": [[6, 3]]}, {"trooper": "r2", "route": [[10, 3]]}]}),
            json!({"type": "close_aro_window"}),
            resolve(),
        ],
    );
    no(&g3, activate("coordinated", &["r1", "r2"]), Rule::CommandTokens);
    // Not after the first Order.
    let g4 = full_order(&g, "regular", &["r1"]);
    assert!(!g4.strategic_use_open());
    no(&g4, json!({"type": "strategic_command_token", "use": "limit_command_tokens"}), Rule::CommandTokens);
}

#[test]
fn game_sequence_three_rounds_of_two_turns() {
    let mut g = game(armies());
    for round in 1..=3 {
        for (turn, side) in [(1, Side::A), (2, Side::B)] {
            assert_eq!((g.round(), g.turn(), g.active(), g.phase()), (round, turn, side, Phase::Tactical));
            g = run(&g, vec![json!({"type": "order_count"}), json!({"type": "end_turn"})]);
        }
    }
    assert_eq!(g.phase(), Phase::GameOver);
    no(&g, json!({"type": "order_count"}), Rule::GameSequence);
}

#[test]
fn game_sequence_orders_only_after_the_order_count() {
    let g = game(armies());
    no(&g, activate("regular", &["r1"]), Rule::GameSequence);
    no(&g, json!({"type": "end_turn"}), Rule::GameSequence);
    let g = ok(&g, json!({"type": "order_count"}));
    no(&g, json!({"type": "order_count"}), Rule::GameSequence);
    no(&g, activate("regular", &["b1"]), Rule::OrderExpenditure);
}

#[test]
fn undo_is_replaying_the_log_up_to_an_event() {
    let s: sightline::rules::Setup = serde_json::from_value(armies()).expect("setup");
    let events: Vec<_> = [
        json!({"type": "order_count"}),
        activate("regular", &["r1"]),
        json!({"type": "declare", "skill": "move", "moves": [{"trooper": "r1", "route": [[6, 5]]}]}),
        json!({"type": "close_aro_window"}),
        resolve(),
    ]
    .into_iter()
    .map(ev)
    .collect();
    let (full, results) = Game::replay(s.clone(), &events).expect("valid");
    assert!(results.iter().all(|r| r.is_ok()));
    let (two, _) = Game::replay(s, &events[..2]).expect("valid");
    assert_eq!(two.pool(Side::A, 0), 3);
    assert!(two.order().is_some());
    assert_eq!(full.trooper("r1").and_then(|t| t.position).map(|p| p.y), Some(5.0));
    assert_eq!(two.trooper("r1").and_then(|t| t.position).map(|p| p.y), Some(2.0));
}

#[test]
fn faq_irregular_orders_belong_to_a_combat_group_and_pool_orders_come_from_its_own() {
    let mut s = armies();
    s["armies"]["A"]["groups"][1]["troopers"]
        .as_array_mut()
        .expect("list")
        .push(with(t("irr2", 26.0, 2.0, 90.0), json!({"training": "irregular"})));
    let g = start_orders(&game(s));
    assert_eq!(g.trooper("irr2").map(|t| t.group), Some(1));
    let g = full_order(&g, "regular", &["irr2"]);
    assert_eq!(g.pools(Side::A), &[4, 0], "from its own group's pool");
    no(&g, activate("regular", &["irr2"]), Rule::OrderPool);
}

#[test]
fn order_pool_a_trooper_as_a_marker_adds_its_order() {
    let mut s = armies();
    s["armies"]["A"]["groups"][0]["troopers"][1]["states"] = json!(["camouflaged"]);
    let g = start_orders(&game(s));
    assert_eq!(g.pool(Side::A, 0), 4, "a Camouflage marker still contributes");
}

#[test]
fn a_prone_trooper_is_measured_as_s0_on_its_own_base() {
    // Prone (digest §2, S0 row): geometry sees a 3 mm cylinder on the trooper's own base, for
    // every LoF the game draws (Orders and AROs).
    let mut s = armies();
    s["armies"]["A"]["groups"][1]["troopers"][0]["silhouette"] = json!(5);
    s["armies"]["A"]["groups"][1]["troopers"][0]["states"] = json!(["prone"]);
    let g = game(s);
    let prone = g.trooper("eng").and_then(|t| t.body()).expect("on the table");
    let standing = g.trooper("r1").and_then(|t| t.body()).expect("on the table");
    assert!(prone.prone && !standing.prone);
    assert!((prone.top() - prone.bottom() - 3.0 / 25.4).abs() < 1e-12);
    assert!((prone.radius() - 20.0 / 25.4).abs() < 1e-12, "an S5 keeps its 40 mm base");
    assert!((standing.top() - standing.bottom() - 40.0 / 25.4).abs() < 1e-12);
}

/// What the app greys out before a route or target is named (`Game::can_declare`) is exactly
/// what declaring refuses (seed 000 Structure of an Order, Order Expenditure Sequence; digest §4
/// Retreat!; N4 Cautious Movement's Requirement): for every catalogued skill, in each step of an
/// Order, a refusal there is the same refusal `declare` gives, and the rules named are the ones
/// that apply.
#[test]
fn the_skills_refused_before_a_route_is_named_are_the_ones_declaring_refuses() {
    use sightline::rules::skills::CATALOGUE;
    let g = start_orders(&game(armies()));
    let first = ok(&g, activate("regular", &["r1"]));
    let second =
        ok(&first, json!({"type": "declare", "skill": "move", "moves": [{"trooper": "r1", "route": [[6, 3]]}]}));
    let aro_window = second.clone();
    let second = ok(&second, json!({"type": "close_aro_window"}));
    let mut s = armies();
    for k in 0..5 {
        s["armies"]["A"]["groups"][0]["troopers"][k]["points"] = json!(1);
    }
    s["armies"]["A"]["points"] = json!(300);
    let retreat = ok(&start_orders(&game(s)), activate("irregular", &["r1"]));
    let refused = |g: &Game, skill: &str| g.can_declare(skill).err().map(|e| e.rule);
    for (name, state) in [("first", &first), ("second", &second), ("aro window", &aro_window), ("retreat", &retreat)] {
        for skill in CATALOGUE {
            let Err(e) = state.can_declare(skill.id) else { continue };
            let declared = state.apply(&ev(json!({"type": "declare", "skill": skill.id}))).expect_err("refused");
            assert_eq!(declared, e, "{name}: {} is refused for another reason when declared", skill.id);
        }
    }
    // First skill: b1 sees r1 down the open table, so no Cautious Movement; r1 is no Hacker.
    assert_eq!(refused(&first, "move"), None);
    assert_eq!(refused(&first, "bs_attack"), None);
    assert_eq!(refused(&first, "cautious_movement"), Some(Rule::CautiousMovement));
    assert_eq!(refused(&first, "hacking"), Some(Rule::StructureOfAnOrder));
    // After a Move: another Short Movement or one Short Skill, never an Entire Order.
    assert_eq!(refused(&second, "move"), None);
    assert_eq!(refused(&second, "bs_attack"), None);
    assert_eq!(refused(&second, "jump"), Some(Rule::StructureOfAnOrder));
    assert_eq!(refused(&second, "intuitive_attack"), Some(Rule::StructureOfAnOrder));
    // While the Reactive Player declares AROs, no skill of the Order.
    assert!(CATALOGUE.iter().all(|s| refused(&aro_window, s.id) == Some(Rule::OrderExpenditure)));
    // Retreat!: Short Movement Skills, Cautious Movement, Dodge and Reset only.
    assert_eq!(refused(&retreat, "bs_attack"), Some(Rule::Retreat));
    assert_eq!(refused(&retreat, "dodge"), None);
    assert_eq!(refused(&retreat, "move"), None);
    assert!(refused(&g, "move").is_some(), "no Order: nothing to declare");
}

/// Digest §1 "Coherency" (✅): a Peripheral is in Coherency with its Controller when inside the
/// Controller's ZoC. The game says so for each Peripheral on the table (`coherency` in the full
/// state); other troopers have none.
#[test]
fn a_peripheral_is_in_coherency_inside_its_controllers_zoc() {
    let g = game(armies());
    assert_eq!(g.peripheral_coherency("bot"), Some(true), "2\" from eng");
    assert_eq!(g.peripheral_coherency("eng"), None, "not a Peripheral");
    let state = sightline::rules::full_state(&g);
    let bot = state["troopers"].as_array().and_then(|t| t.iter().find(|t| t["id"] == "bot")).cloned();
    assert_eq!(bot.expect("bot")["coherency"], true);
    // 14" away (centres), well outside the 8" ZoC: out of Coherency.
    let mut far = armies();
    far["armies"]["A"]["groups"][1]["troopers"][1]["position"]["x"] = json!(44.0);
    assert_eq!(game(far).peripheral_coherency("bot"), Some(false));
}
