//! Seed 003 (Fireteam Integrity) and digest §7 (Fireteams: types, Coherency, Active and Reactive
//! Turn, Cancellation, bonuses): one scenario test per rule statement.

mod common;
use common::*;
use serde_json::{Value, json};
use sightline::geometry::Side;
use sightline::rules::{Game, Rule};

fn activate(source: &str, ids: &[&str]) -> Value {
    json!({"type": "activate", "source": source, "troopers": ids})
}

fn close() -> Value {
    json!({"type": "close_aro_window"})
}

fn aro(who: &str, skill: &str, target: &str) -> Value {
    json!({"type": "declare_aro", "trooper": who, "skill": skill, "target": target})
}

fn members(g: &Game, side: Side, id: &str) -> Vec<String> {
    g.fireteams(side).iter().find(|f| f.id == id).map(|f| f.members.clone()).unwrap_or_default()
}

/// A: a Core (l, m1, m2, m3) plus an Irregular member-to-be and the Lieutenant apart.
/// B: a Core of five facing A across open table (LoF, no ZoC), and its Lieutenant far away.
fn base() -> Value {
    let s = setup(
        vec![vec![
            with(t("l", 10.0, 10.0, 90.0), json!({"abilities": ["nco"]})),
            t("m1", 12.0, 10.0, 90.0),
            with(t("m2", 14.0, 10.0, 90.0), json!({"training": "irregular"})),
            lt(t("m3", 16.0, 10.0, 90.0)),
            t("x", 40.0, 2.0, 90.0),
        ]],
        vec![vec![
            // (2" apart, all within 8" of b1's base: in Coherency. Before session 16 they stood 3"
            // apart and b4 and b5 were out of it from the start, which the setup did not check.)
            t("b1", 8.0, 30.0, 270.0),
            t("b2", 10.0, 30.0, 270.0),
            t("b3", 12.0, 30.0, 270.0),
            t("b4", 14.0, 30.0, 270.0),
            t("b5", 16.0, 30.0, 270.0),
            lt(t("blt", 46.0, 46.0, 0.0)),
        ]],
        json!([]),
    );
    let s = fireteams(s, "A", json!([{"id": "fa", "kind": "core", "leader": "l", "members": ["l", "m1", "m2", "m3"]}]));
    fireteams(s, "B", json!([{"id": "fb", "kind": "core", "leader": "b1", "members": ["b1", "b2", "b3", "b4", "b5"]}]))
}

fn counted() -> Game {
    start_orders(&game(base()))
}

fn idle_order(g: &Game, source: &str, who: &str, outcomes: Value) -> Game {
    run(
        g,
        vec![
            activate(source, &[who]),
            json!({"type": "declare", "skill": "idle"}),
            close(),
            json!({"type": "resolve", "outcomes": outcomes}),
        ],
    )
}

/// The B Fireteam's AROs against an Order of `x`, which walks into their view.
fn b_reacts(arosv: Vec<Value>, choice: Option<Value>) -> Result<Game, sightline::rules::Rejection> {
    let g = run(
        &counted(),
        vec![
            activate("regular", &["x"]),
            json!({"type": "declare", "skill": "move", "moves": [{"trooper": "x", "route": [[30, 14]]}]}),
        ],
    );
    let g = run(&g, arosv);
    let mut close = json!({"type": "close_aro_window"});
    if let Some(c) = choice {
        close["fireteam_aro"] = c;
    }
    g.apply(&ev(close))
}

#[test]
fn fireteam_one_order_activates_every_member() {
    let g = ok(&counted(), activate("regular", &["l"]));
    let o = g.order().expect("order");
    assert_eq!(o.troopers, vec!["l", "m1", "m2", "m3"]);
    assert_eq!(o.fireteam.as_deref(), Some("fa"));
    assert_eq!(g.pool(Side::A, 0), 3, "one Regular Order for all four (l, m1, m3, x in the pool; m2 is Irregular)");
}

#[test]
fn fireteam_leader_may_use_an_nco_lieutenant_order_for_the_team() {
    let g = ok(&counted(), activate("lieutenant", &["l"]));
    assert_eq!(g.order().map(|o| o.troopers.len()), Some(4));
}

#[test]
fn integrity_isolated_or_null_member_leaves_and_the_bonus_is_recounted() {
    let g = idle_order(&counted(), "regular", "x", json!([{"type": "enter", "trooper": "m1", "state": "isolated"}]));
    assert_eq!(members(&g, Side::A, "fa"), vec!["l", "m2", "m3"]);
    let g = idle_order(&g, "regular", "x", json!([{"type": "enter", "trooper": "m3", "state": "unconscious"}]));
    assert_eq!(members(&g, Side::A, "fa"), vec!["l", "m2"]);
    let bonus = sightline::rules::fireteam::bonuses(2);
    assert_eq!(bonus.len(), 1, "two members: only activating together");
}

#[test]
fn integrity_irregular_member_spending_its_own_order_leaves() {
    let g = ok(&counted(), activate("irregular", &["m2"]));
    assert_eq!(members(&g, Side::A, "fa"), vec!["l", "m1", "m3"]);
    // ... and is not activated by the Fireteam's next Order: inactive for ARO purposes.
    let g = run(&g, vec![json!({"type": "declare", "skill": "idle"}), close(), json!({"type": "resolve"})]);
    let g = ok(&g, activate("regular", &["l"]));
    assert_eq!(g.order().map(|o| o.troopers.clone()), Some(vec!["l".into(), "m1".into(), "m3".into()]));
    let g = ok(&g, json!({"type": "declare", "skill": "move", "moves": [{"trooper": "l", "route": [[10, 12]]}]}));
    no(&g, aro("b1", "bs_attack", "m2"), Rule::Aro);
}

#[test]
fn integrity_lieutenant_spending_the_lieutenant_order_leaves() {
    let g = ok(&counted(), activate("lieutenant", &["m3"]));
    assert_eq!(members(&g, Side::A, "fa"), vec!["l", "m1", "m2"]);
    assert_eq!(g.order().map(|o| o.troopers.clone()), Some(vec!["m3".to_string()]));
}

#[test]
fn integrity_marker_state_and_suppressive_fire_leave() {
    let g = idle_order(&counted(), "regular", "x", json!([{"type": "enter", "trooper": "m1", "state": "camouflaged"}]));
    assert!(!members(&g, Side::A, "fa").contains(&"m1".to_string()));
    // B (second player) puts a member of its Fireteam into Suppressive Fire by Strategic Use.
    let g = ok(&counted(), json!({"type": "strategic_command_token", "use": "suppressive_fire", "trooper": "b3"}));
    assert!(!members(&g, Side::B, "fb").contains(&"b3".to_string()));
}

#[test]
fn integrity_out_of_coherency_at_the_end_of_the_order_leaves() {
    let g = run(
        &counted(),
        vec![
            activate("regular", &["l"]),
            json!({"type": "declare", "skill": "move", "moves": [
                {"trooper": "l", "route": [[10, 12]]},
                {"trooper": "m1", "route": [[30, 2]]}
            ]}),
        ],
    );
    assert!(members(&g, Side::A, "fa").contains(&"m1".to_string()), "still a member until the end-of-Order check");
    let g = run(&g, vec![close(), json!({"type": "resolve"})]);
    assert_eq!(members(&g, Side::A, "fa"), vec!["l", "m2", "m3"]);
    assert_eq!(g.fireteams(Side::A)[0].left, vec!["m1"]);
}

#[test]
fn integrity_rejoin_at_the_next_order_count_when_in_coherency() {
    let g = run(
        &counted(),
        vec![
            activate("regular", &["l"]),
            json!({"type": "declare", "skill": "move", "moves": [{"trooper": "m1", "route": [[30, 2]]}]}),
            close(),
            json!({"type": "resolve"}),
            // m1 walks back on its own (it is no longer a member).
            activate("regular", &["m1"]),
            json!({"type": "declare", "skill": "move", "moves": [{"trooper": "m1", "route": [[12, 8]]}]}),
            close(),
            json!({"type": "resolve"}),
        ],
    );
    assert!(!members(&g, Side::A, "fa").contains(&"m1".to_string()), "no rejoin mid-turn");
    let g = run(&g, vec![json!({"type": "end_turn"}), json!({"type": "order_count"}), json!({"type": "end_turn"})]);
    let g = ok(&g, json!({"type": "order_count"}));
    assert!(members(&g, Side::A, "fa").contains(&"m1".to_string()), "rejoined at the Order Count");
}

#[test]
fn fireteam_aro_majority_rule_the_different_member_leaves() {
    // Three of five declare: two BS Attack, one Dodge -> b4 leaves.
    let g = b_reacts(vec![aro("b1", "bs_attack", "x"), aro("b2", "bs_attack", "x"), aro("b4", "dodge", "x")], None)
        .expect("majority: no choice needed");
    assert_eq!(members(&g, Side::B, "fb"), vec!["b1", "b2", "b3", "b5"]);
    assert_eq!(g.order().and_then(|o| o.fireteam_aro.get("fb").cloned()).as_deref(), Some("bs_attack"));
}

#[test]
fn fireteam_aro_no_majority_the_player_chooses() {
    let arosv = vec![aro("b2", "bs_attack", "x"), aro("b3", "dodge", "x"), aro("b4", "discover", "x")];
    let r = b_reacts(arosv.clone(), None).expect_err("must choose");
    assert_eq!(r.rule, Rule::Fireteams);
    assert!(r.reason.contains("no majority"), "{}", r.reason);
    let g = b_reacts(arosv, Some(json!({"fb": "dodge"}))).expect("chosen");
    assert_eq!(members(&g, Side::B, "fb"), vec!["b1", "b3", "b5"]);
}

#[test]
fn fireteam_cancelled_when_the_leaders_aro_differs() {
    let g = b_reacts(vec![aro("b1", "dodge", "x"), aro("b2", "bs_attack", "x"), aro("b3", "bs_attack", "x")], None)
        .expect("accepted");
    assert!(g.fireteams(Side::B)[0].cancel_at_end_of_order.is_some(), "cancelled at the end of the Order");
    let g = ok(&g, json!({"type": "resolve"}));
    assert!(g.fireteams(Side::B).is_empty());
}

#[test]
fn fireteam_reactive_bonus_three_members_burst_two() {
    let g = b_reacts(vec![aro("b1", "bs_attack", "x")], None).expect("accepted");
    let d = &g.order().expect("order").declared[0];
    assert_eq!(d.burst, 2, "a reactive Fireteam of 3+ adds +1 Burst to every member");
}

#[test]
fn fireteam_cancelled_when_reduced_to_one_member_or_the_leader_goes_null() {
    let g = idle_order(
        &counted(),
        "regular",
        "x",
        json!([
            {"type": "enter", "trooper": "m1", "state": "dead"},
            {"type": "enter", "trooper": "m2", "state": "dead"},
            {"type": "enter", "trooper": "m3", "state": "dead"}
        ]),
    );
    assert!(g.fireteams(Side::A).is_empty(), "one member left: cancelled");
    let g = idle_order(&counted(), "regular", "x", json!([{"type": "enter", "trooper": "l", "state": "unconscious"}]));
    assert!(g.fireteams(Side::A).is_empty(), "the Team Leader went Null");
}

#[test]
fn fireteam_members_cannot_be_part_of_coordinated_orders() {
    let r = no(&counted(), activate("coordinated", &["x", "m1"]), Rule::CoordinatedOrder);
    assert!(r.reason.contains("Fireteam member"));
}

#[test]
fn fireteam_created_with_a_command_token_a_second_core_cancels_the_first() {
    let g = game(base());
    let g = ok(&g, json!({"type": "cancel_fireteam", "id": "fa"}));
    assert!(g.fireteams(Side::A).is_empty(), "voluntary cancellation costs nothing");
    assert_eq!(g.command_tokens(Side::A), 4);
    let g =
        ok(&g, json!({"type": "create_fireteam", "id": "duo", "kind": "duo", "leader": "l", "members": ["l", "m1"]}));
    assert_eq!(g.command_tokens(Side::A), 3);
    let g =
        ok(&g, json!({"type": "create_fireteam", "id": "c1", "kind": "core", "leader": "m2", "members": ["m2", "m3"]}));
    no(
        &g,
        json!({"type": "create_fireteam", "id": "c2", "kind": "core", "leader": "x", "members": ["x", "m1"]}),
        Rule::Fireteams,
    );
    // x is 30" away: not in Coherency.
    let r = no(
        &g,
        json!({"type": "create_fireteam", "id": "c3", "kind": "haris", "leader": "x", "members": ["x", "l", "m1"]}),
        Rule::Fireteams,
    );
    assert!(r.reason.contains("already in a Fireteam") || r.reason.contains("Coherency"), "{}", r.reason);
    // Cancelling the Duo frees l and m1 for a new Core, which cancels c1 (Fireteam Cancellation case 5).
    let g = ok(&g, json!({"type": "cancel_fireteam", "id": "duo"}));
    let g =
        ok(&g, json!({"type": "create_fireteam", "id": "c4", "kind": "core", "leader": "l", "members": ["l", "m1"]}));
    let ids: Vec<&str> = g.fireteams(Side::A).iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, vec!["c4"]);
    // Creating is Executive Use: only at the start of the Tactical Phase.
    let g = ok(&g, json!({"type": "order_count"}));
    no(
        &g,
        json!({"type": "create_fireteam", "id": "d2", "kind": "duo", "leader": "m2", "members": ["m2", "m3"]}),
        Rule::CommandTokens,
    );
}

/// Digest §7, the 2022 Fireteams Chart: it "sets the maximum of each type on the table, checked
/// every time a Fireteam is created", per army (`fireteam_limits`); without it, one Core and
/// `HARIS_PER_ARMY` Haris.
#[test]
fn the_army_s_fireteams_chart_sets_how_many_of_each_type_may_be_on_the_table() {
    let g = game(base());
    let g = ok(&g, json!({"type": "cancel_fireteam", "id": "fa"}));
    let haris = |id: &str, members: [&str; 2]| json!({"type": "create_fireteam", "id": id, "kind": "haris", "leader": members[0], "members": members});
    // By default a second Haris cancels the first (Fireteam Cancellation case 5).
    let one = ok(&ok(&g, haris("h1", ["l", "m1"])), haris("h2", ["m2", "m3"]));
    let ids: Vec<&str> = one.fireteams(Side::A).iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, vec!["h2"]);
    // An army whose chart allows two keeps both, and a third cancels the oldest.
    let mut s = base();
    s["armies"]["A"]["fireteam_limits"] = json!({"haris": 2});
    let g = ok(&game(s.clone()), json!({"type": "cancel_fireteam", "id": "fa"}));
    let two = ok(&ok(&g, haris("h1", ["l", "m1"])), haris("h2", ["m2", "m3"]));
    let ids: Vec<&str> = two.fireteams(Side::A).iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, vec!["h1", "h2"]);
    // A chart with no Core: its setup may form none (base() has one)…
    s["armies"]["A"]["fireteam_limits"] = json!({"core": 0});
    let e = Game::new(serde_json::from_value(s.clone()).expect("setup JSON")).expect_err("a Core against the chart");
    assert!(e.field.contains("fireteams[0]") && e.reason.contains("no Core"), "{e}");
    // … nor may a Command Token.
    let g = game(fireteams(s.clone(), "A", json!([])));
    let r = no(
        &g,
        json!({"type": "create_fireteam", "id": "c", "kind": "core", "leader": "l", "members": ["l", "m1"]}),
        Rule::Fireteams,
    );
    assert!(r.reason.contains("no Core") && r.reason.contains("Fireteams Chart"), "{}", r.reason);
    // With two Haris allowed, a setup may form two.
    s["armies"]["A"]["fireteam_limits"] = json!({"haris": 2});
    let s = fireteams(
        s,
        "A",
        json!([
            {"id": "h1", "kind": "haris", "leader": "l", "members": ["l", "m1"]},
            {"id": "h2", "kind": "haris", "leader": "m2", "members": ["m2", "m3"]}
        ]),
    );
    assert_eq!(game(s.clone()).fireteams(Side::A).len(), 2);
    let mut s = s;
    s["armies"]["A"]["fireteam_limits"] = json!({});
    let e = Game::new(serde_json::from_value(s).expect("setup JSON")).expect_err("two Haris by default");
    assert!(e.field.contains("fireteams[1]") && e.reason.contains("Fireteams: Types"), "{e}");
}

/// Digest §7 "Common requirements" (only troopers listed as able to form Fireteams may join,
/// "usually from the same unit unless the Sectorial chart says otherwise") and the 2022 Fireteams
/// Chart ✅ ("minimum and maximum members and required units"): an army's `fireteam_chart` decides
/// which troopers, by their `unit`, may form each type — in the setup and for every Command Token.
#[test]
fn the_army_s_fireteams_chart_decides_which_units_may_form_each_fireteam() {
    let mut s = base();
    s["armies"]["A"]["fireteam_chart"] = json!([
        {"name": "Line Fireteams", "types": ["core", "haris"],
         "units": [{"unit": "line", "name": "LINE", "min": 1, "max": 5}, {"unit": "heavy", "name": "HEAVY", "max": 1}]},
        {"name": "Wildcards", "units": [{"unit": "hero", "name": "HERO", "max": 1}]}
    ]);
    let units = |s: &mut Value, units: [Option<&str>; 4]| {
        for (k, u) in units.into_iter().enumerate() {
            s["armies"]["A"]["groups"][0]["troopers"][k]["unit"] = json!(u);
        }
    };
    // base()'s Core is l, m1, m2, m3: with two HEAVY it breaks the chart, named at its field.
    units(&mut s, [Some("line"), Some("line"), Some("heavy"), Some("heavy")]);
    let e = Game::new(serde_json::from_value(s.clone()).expect("setup JSON")).expect_err("two HEAVY in one team");
    assert!(e.field.contains("armies.A.fireteams[0]") && e.reason.contains("HEAVY 0–1"), "{e}");
    // A Wildcard may take the second place.
    units(&mut s, [Some("line"), Some("line"), Some("heavy"), Some("hero")]);
    let g = ok(&game(s.clone()), json!({"type": "cancel_fireteam", "id": "fa"}));
    let create = |kind: &str, members: &[&str]| json!({"type": "create_fireteam", "id": "n", "kind": kind, "leader": members[0], "members": members});
    // No team of the chart may be a Duo; a Haris needs a LINE; a unit the chart does not name
    // cannot join.
    let r = no(&g, create("duo", &["l", "m1"]), Rule::Fireteams);
    assert!(r.reason.contains("no team that may be a Duo"), "{}", r.reason);
    let r = no(&g, create("haris", &["m2", "m3"]), Rule::Fireteams);
    assert!(r.reason.contains("m2 (heavy), m3 (hero)") && r.reason.contains("LINE 1–5"), "{}", r.reason);
    let mut bike = fireteams(s.clone(), "A", json!([]));
    units(&mut bike, [Some("line"), Some("bike"), Some("heavy"), Some("hero")]);
    let r = no(&game(bike), create("core", &["l", "m1", "m2"]), Rule::Fireteams);
    assert!(r.reason.starts_with("m1 (bike): no Core"), "{}", r.reason);
    // What the chart lists is formed.
    let formed = ok(&g, create("haris", &["l", "m2", "m3"]));
    assert_eq!(members(&formed, Side::A, "n"), vec!["l", "m2", "m3"]);
    // A chart row that makes no sense is refused, named.
    let mut bad = s.clone();
    bad["armies"]["A"]["fireteam_chart"][0]["units"][1]["min"] = json!(3);
    let e = Game::new(serde_json::from_value(bad).expect("setup JSON")).expect_err("min over max");
    assert!(e.field.ends_with("fireteam_chart[0] (\"Line Fireteams\").units[1]") && e.reason.contains("min 3"), "{e}");
    // A trooper whose unit is not known (a trooper added by hand) leaves the team unchecked.
    units(&mut s, [Some("line"), None, Some("heavy"), Some("heavy")]);
    assert_eq!(members(&game(s), Side::A, "fa"), vec!["l", "m1", "m2", "m3"]);
}

#[test]
fn fireteam_type_sizes() {
    let g = game(base());
    let g = ok(&g, json!({"type": "cancel_fireteam", "id": "fa"}));
    no(
        &g,
        json!({"type": "create_fireteam", "id": "d", "kind": "duo", "leader": "l", "members": ["l", "m1", "m2"]}),
        Rule::Fireteams,
    );
    no(
        &g,
        json!({"type": "create_fireteam", "id": "h", "kind": "haris", "leader": "l", "members": ["l", "m1", "m2", "m3"]}),
        Rule::Fireteams,
    );
    no(
        &g,
        json!({"type": "create_fireteam", "id": "c", "kind": "core", "leader": "l", "members": ["l"]}),
        Rule::Fireteams,
    );
}

#[test]
fn fireteam_leader_can_change_between_orders() {
    let g = ok(&counted(), json!({"type": "change_leader", "fireteam": "fa", "leader": "m1"}));
    let g = ok(&g, activate("regular", &["m1"]));
    assert_eq!(g.order().map(|o| o.troopers.len()), Some(4), "the new leader activates the team");
    no(&g, json!({"type": "change_leader", "fireteam": "fa", "leader": "l"}), Rule::OrderExpenditure);
}

#[test]
fn fireteam_solo_activation_of_a_member_takes_it_out() {
    let g = ok(&counted(), activate("regular", &["m1"]));
    assert_eq!(g.order().map(|o| o.troopers.clone()), Some(vec!["m1".to_string()]));
    assert!(!members(&g, Side::A, "fa").contains(&"m1".to_string()));
}

#[test]
fn integrity_a_member_that_left_gets_no_fireteam_bonus() {
    // Majority Dodge; b1 (the leader) shoots instead: it leaves, and its Burst is back to 1.
    let g = b_reacts(vec![aro("b1", "bs_attack", "x"), aro("b2", "dodge", "x"), aro("b3", "dodge", "x")], None)
        .expect("accepted");
    let o = g.order().expect("order");
    let b1 = o.declared.iter().find(|d| d.aro.trooper == "b1").expect("b1");
    assert_eq!(b1.burst, 1);
    assert!(!members(&g, Side::B, "fb").contains(&"b1".to_string()));
}

#[test]
fn integrity_a_trooper_moved_to_another_combat_group_leaves() {
    let mut s = base();
    s["armies"]["A"]["groups"].as_array_mut().expect("groups").push(json!({"troopers": [t("y", 44.0, 2.0, 90.0)]}));
    let g = game(s);
    let g = ok(&g, json!({"type": "move_to_group", "trooper": "m1", "group": 1}));
    assert_eq!(g.command_tokens(Side::A), 3, "Executive Use of a Command Token");
    assert_eq!(members(&g, Side::A, "fa"), vec!["l", "m2", "m3"]);
    let g = ok(&g, json!({"type": "order_count"}));
    assert_eq!(g.pools(Side::A), &[3, 2], "m1 now counts in Combat Group 2 (l, m3, x | y, m1; m2 is Irregular)");
    no(&g, json!({"type": "move_to_group", "trooper": "m3", "group": 1}), Rule::CommandTokens);
}

/// Digest §7: Fireteams are deployed in Coherency, and a trooper Null, Isolated, in a marker
/// state or in Suppressive Fire is not a member (Fireteam Integrity cases 1, 5, 6). A setup that
/// says otherwise is refused, naming the Fireteam and the trooper (before session 16 such a
/// team played on whole, bonuses and all).
#[test]
fn a_setup_fireteam_must_be_whole_and_in_coherency() {
    let team = |states: Value, m2_x: f64| {
        let s = setup(
            vec![vec![
                t("l", 10.0, 10.0, 90.0),
                t("m1", 12.0, 10.0, 90.0),
                with(t("m2", m2_x, 10.0, 90.0), json!({"states": states})),
                lt(t("alt", 40.0, 2.0, 90.0)),
            ]],
            vec![vec![lt(t("blt", 46.0, 46.0, 0.0))]],
            json!([]),
        );
        let s = fireteams(s, "A", json!([{"id": "fa", "kind": "core", "leader": "l", "members": ["l", "m1", "m2"]}]));
        let s: sightline::rules::Setup = serde_json::from_value(s).expect("setup JSON");
        Game::new(s)
    };
    assert!(team(json!([]), 14.0).is_ok());
    for (state, why) in [
        ("unconscious", "in a Null state"),
        ("isolated", "Isolated"),
        ("camouflaged", "in a marker state"),
        ("suppressive_fire", "in Suppressive Fire"),
    ] {
        let e = team(json!([state]), 14.0).expect_err(state);
        assert!(e.field.starts_with("armies.A.fireteams[0]"), "{e}");
        assert!(e.reason.contains(&format!("\"m2\" is {why}")), "{state}: {e}");
    }
    // 9" from the leader's centre: its base edge is 8.016" from the leader's, outside its ZoC.
    let e = team(json!([]), 19.0).expect_err("out of Coherency");
    assert!(e.reason.contains("\"m2\" is not in Coherency"), "{e}");
    assert!(team(json!([]), 18.9).is_ok(), "7.916\" apart: inside");
}

/// Digest §7 "Coherency", Deployment: players check Coherency and adjust positions. A Fireteam
/// of the setup whose Models are still to be tagged on the table (no positions: a game put
/// together in the app) is accepted, and checked when deployment ends — the first Order Count
/// is refused while a member is off the table or outside the Team Leader's ZoC, whoever was
/// tagged last — so a tag that breaks a placed team's Coherency is caught as well.
#[test]
fn a_fireteam_tagged_at_deployment_is_in_coherency_before_the_first_order_count() {
    let off = |id: &str| with(t(id, 0.0, 0.0, 0.0), json!({"position": null}));
    let s = setup(
        vec![vec![off("l"), off("m1"), lt(t("alt", 40.0, 2.0, 90.0))]],
        vec![vec![lt(t("blt", 46.0, 46.0, 0.0))]],
        json!([]),
    );
    let s = fireteams(s, "A", json!([{"id": "fa", "kind": "duo", "leader": "l", "members": ["l", "m1"]}]));
    let g = game(s);
    let deploy = |id: &str, x: f64| json!({"type": "deploy", "trooper": id, "x": x, "y": 10.0, "facing": 90});
    let count = json!({"type": "order_count"});
    let r = no(&g, count.clone(), Rule::Fireteams);
    assert!(r.reason.contains("Fireteam \"fa\": its Team Leader \"l\" is not on the table"), "{}", r.reason);
    let g = ok(&g, deploy("l", 10.0));
    let r = no(&g, count.clone(), Rule::Fireteams);
    assert!(r.reason.contains("\"m1\" is not in Coherency: not on the table inside"), "{}", r.reason);
    // 9" from the leader's centre: base edges 8.016" apart, outside its ZoC; 8.9": inside.
    let g = ok(&g, deploy("m1", 19.0));
    let r = no(&g, count.clone(), Rule::Fireteams);
    assert!(r.reason.contains("\"m1\" is not in Coherency: not inside the Team Leader"), "{}", r.reason);
    let g = ok(&g, deploy("m1", 18.9));
    let g = ok(&g, count.clone());
    assert_eq!(g.fireteams(Side::A)[0].members, ["l", "m1"], "the Duo plays on whole");
    // A team the setup placed whole, then tagged apart, is caught too.
    let placed = fireteams(
        setup(
            vec![vec![t("l", 10.0, 10.0, 90.0), t("m1", 12.0, 10.0, 90.0), lt(t("alt", 40.0, 2.0, 90.0))]],
            vec![vec![lt(t("blt", 46.0, 46.0, 0.0))]],
            json!([]),
        ),
        "A",
        json!([{"id": "fa", "kind": "duo", "leader": "l", "members": ["l", "m1"]}]),
    );
    let g = ok(&game(placed), deploy("m1", 30.0));
    no(&g, count, Rule::Fireteams);
}

/// Creating a Fireteam with a trooper in Suppressive Fire is refused (Fireteam Integrity case 6,
/// as rejoining already was).
#[test]
fn a_trooper_in_suppressive_fire_cannot_join_a_new_fireteam() {
    let s = setup(
        vec![vec![
            t("l", 10.0, 10.0, 90.0),
            with(t("m1", 12.0, 10.0, 90.0), json!({"states": ["suppressive_fire"]})),
            lt(t("alt", 40.0, 2.0, 90.0)),
        ]],
        vec![vec![lt(t("blt", 46.0, 46.0, 0.0))]],
        json!([]),
    );
    let create = json!({"type": "create_fireteam", "id": "duo", "kind": "duo", "leader": "l", "members": ["l", "m1"]});
    let r = no(&game(s), create, Rule::Fireteams);
    assert!(r.reason.contains("m1 is in Suppressive Fire"), "{r:?}");
}

/// Digest §7 "Coherency": checked when a Fireteam's ARO is declared, and a member outside the
/// Team Leader's ZoC leaves at once, so the bonus counts without it. A's team keeps Coherency
/// with l, but A makes w the leader after its last Order: in B's Turn e is 14" from w.
#[test]
fn a_reactive_member_out_of_coherency_leaves_when_the_aro_is_declared() {
    let s = setup(
        vec![vec![
            t("l", 10.0, 10.0, 90.0),
            t("w", 3.0, 10.0, 90.0),
            t("e", 17.0, 10.0, 90.0),
            lt(t("alt", 40.0, 2.0, 90.0)),
        ]],
        vec![vec![lt(t("blt", 46.0, 46.0, 0.0)), t("bx", 10.0, 30.0, 270.0)]],
        json!([]),
    );
    let s = fireteams(s, "A", json!([{"id": "fa", "kind": "core", "leader": "l", "members": ["l", "w", "e"]}]));
    let g = run(
        &start_orders(&game(s)),
        vec![json!({"type": "change_leader", "fireteam": "fa", "leader": "w"}), json!({"type": "end_turn"})],
    );
    let g = run(
        &start_orders(&g),
        vec![
            json!({"type": "activate", "source": "regular", "troopers": ["bx"]}),
            json!({"type": "declare", "skill": "move", "moves": [{"trooper": "bx", "route": [[10, 29]]}]}),
        ],
    );
    assert_eq!(members(&g, Side::A, "fa"), vec!["l", "w", "e"], "nobody checked yet");
    let g = ok(&g, aro("l", "bs_attack", "bx"));
    assert_eq!(members(&g, Side::A, "fa"), vec!["l", "w"], "e left at the check");
    let g = ok(&g, aro("w", "bs_attack", "bx"));
    let o = g.order().expect("an Order");
    let burst = |id: &str| o.declared.iter().find(|d| d.aro.trooper == id).map(|d| d.burst);
    assert_eq!((burst("l"), burst("w")), (Some(1), Some(1)), "two members: no +1 Burst");
}
