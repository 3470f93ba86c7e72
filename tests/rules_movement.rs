//! How far and where a declared route may go: N4 Move (the first MOV value, the second for a
//! second Move in the Order), Cautious Movement (the first MOV value), Dodge (assumption
//! `DODGE_MOVE_IN`), and the General Movement Rules (a route's base may pass over terrain no
//! taller than the trooper's Silhouette; taller pieces need Climb or Jump).

mod common;
use common::*;
use serde_json::{Value, json};
use sightline::rules::{Game, Rule, Setup, assumptions::DODGE_MOVE_IN};

/// A (lieutenant far away, `a1` at (10, 10) with `mov`), B in the far corner facing away; a 3"
/// wall x 20–21
/// and a 1" crate x 20–21 further up, both across y.
fn table(mov: Value) -> Game {
    let a1 = with(t("a1", 10.0, 10.0, 0.0), json!({"mov": mov}));
    let s = setup(
        vec![vec![
            lt(t("a_lt", 2.0, 46.0, 0.0)),
            a1,
            with(t("a_para", 0.0, 0.0, 0.0), json!({"position": null, "mov": [4, 4]})),
        ]],
        vec![vec![lt(t("b_lt", 46.0, 46.0, 0.0))]],
        json!([
            {"id": "wall", "polygon": [[20, 0], [21, 0], [21, 20], [20, 20]], "height": 3.0},
            {"id": "crate", "polygon": [[20, 24], [21, 24], [21, 30], [20, 30]], "height": 1.0}
        ]),
    );
    start_orders(&game(s))
}

fn activate(g: &Game, id: &str) -> Game {
    ok(g, json!({"type": "activate", "source": "regular", "troopers": [id]}))
}

fn declare(skill: &str, id: &str, route: Value) -> Value {
    json!({"type": "declare", "skill": skill, "moves": [{"trooper": id, "route": route}]})
}

fn close() -> Value {
    json!({"type": "close_aro_window"})
}

#[test]
fn move_goes_up_to_the_first_mov_value_measured_along_the_whole_route() {
    let g = activate(&table(json!([4, 2])), "a1");
    // 3" east then 1" north: 4" along the route (the straight line would be 3.16").
    let moved = ok(&g, declare("move", "a1", json!([[13, 10], [13, 11]])));
    let p = moved.trooper("a1").and_then(|t| t.position).expect("on the table");
    assert_eq!((p.x, p.y), (13.0, 11.0));
    let r = no(&g, declare("move", "a1", json!([[13, 10], [13, 11.1]])), Rule::Move);
    assert!(
        r.reason.contains("4.100\"") && r.reason.contains("first Move") && r.reason.contains("4-2"),
        "{}",
        r.reason
    );
    // The detour counts: 3.5" as the crow flies, 4.5" walked.
    no(&g, declare("move", "a1", json!([[12, 12], [13.5, 10]])), Rule::Move);
}

#[test]
fn a_second_move_in_the_order_goes_up_to_the_second_value() {
    let g = activate(&table(json!([4, 2])), "a1");
    let g = run(&g, vec![declare("move", "a1", json!([[14, 10]])), close()]);
    ok(&g, declare("move", "a1", json!([[16, 10]])));
    let r = no(&g, declare("move", "a1", json!([[16.5, 10]])), Rule::Move);
    assert!(r.reason.contains("second Move") && r.reason.contains("at most 2\""), "{}", r.reason);
    // Move then Discover then nothing: only Moves count towards "a second Move".
    let g2 = activate(&table(json!([4, 2])), "a1");
    let g2 = run(&g2, vec![json!({"type": "declare", "skill": "discover"}), close()]);
    ok(&g2, declare("move", "a1", json!([[14, 10]])));
}

#[test]
fn cautious_movement_goes_up_to_the_first_value_and_dodge_up_to_its_assumed_distance() {
    let g = activate(&table(json!([6, 2])), "a1");
    ok(&g, declare("cautious_movement", "a1", json!([[16, 10]])));
    let r = no(&g, declare("cautious_movement", "a1", json!([[16.5, 10]])), Rule::CautiousMovement);
    assert!(r.reason.contains("first value, 6\""), "{}", r.reason);
    ok(&g, declare("dodge", "a1", json!([[10.0 + DODGE_MOVE_IN, 10]])));
    no(&g, declare("dodge", "a1", json!([[10.1 + DODGE_MOVE_IN, 10]])), Rule::Dodge);
}

#[test]
fn without_mov_on_the_list_no_distance_is_checked_and_a_trooper_entering_starts_counting_where_it_enters() {
    let g = activate(&table(Value::Null), "a1");
    ok(&g, declare("move", "a1", json!([[19, 10], [19, 40]])));
    // a_para (MOV 4-4) enters at (30, 40): the entry point is free, then 4" more.
    let g = activate(&table(Value::Null), "a_para");
    ok(&g, declare("move", "a_para", json!([[30, 40], [34, 40]])));
    no(&g, declare("move", "a_para", json!([[30, 40], [34.5, 40]])), Rule::Move);
}

#[test]
fn a_move_cannot_pass_through_terrain_taller_than_the_silhouette_but_vaults_lower_pieces() {
    // From (10, 10) east across the 3" wall (x 20–21): refused, naming the wall and where.
    let g = activate(&table(Value::Null), "a1");
    let r = no(&g, declare("move", "a1", json!([[19, 10], [24, 10]])), Rule::GeneralMovement);
    assert!(r.reason.contains("wall") && r.reason.contains("Climb or Jump") && r.reason.contains("S2"), "{}", r.reason);
    // The base (0.49" radius, less 0.1" of slack) enters it when its centre is 0.39" short of
    // x = 20: 9.608" along the route.
    assert!(r.reason.contains("from 9.608\""), "{}", r.reason);
    // Over the 1" crate (lower than an S2's 1.57"): a plain Move vaults it.
    ok(&g, declare("move", "a1", json!([[10, 27], [24, 27]])));
    // Around the wall's end (y = 20 + base radius + a hair): accepted.
    ok(&g, declare("move", "a1", json!([[19, 20.6], [22, 20.6], [22, 10]])));
    // A Jump may go over it (without MOV on its list, no distance is checked); a Climb goes up
    // or down a wall from against it, not over it from 10" away (rules_levels.rs has Climbs).
    ok(&g, declare("jump", "a1", json!([[24, 10]])));
    no(&g, declare("climb", "a1", json!([[24, 10]])), Rule::Climb);
    // Base contact with the wall, sliding along it: not passing into it.
    let r = 0.492_126; // S2 base radius, inches (25 mm / 2)
    ok(&g, declare("move", "a1", json!([[20.0 - r, 10], [20.0 - r, 2]])));
}

#[test]
fn mov_values_must_be_inches() {
    for bad in [json!([-1, 4]), json!([4, null])] {
        let a1 = with(t("a1", 10.0, 10.0, 0.0), json!({"mov": bad}));
        let s = setup(
            vec![vec![lt(t("a_lt", 2.0, 46.0, 0.0)), a1]],
            vec![vec![lt(t("b_lt", 46.0, 46.0, 180.0))]],
            json!([]),
        );
        let e = match serde_json::from_value::<Setup>(s) {
            Err(e) => e.to_string(),
            Ok(s) => Game::new(s).err().map(|e| e.to_string()).unwrap_or_default(),
        };
        assert!(e.contains("mov") || e.contains("f64"), "{bad}: {e}");
    }
    let e = {
        let a1 = with(t("a1", 10.0, 10.0, 0.0), json!({"mov": [-1, 4]}));
        let s = setup(
            vec![vec![lt(t("a_lt", 2.0, 46.0, 0.0)), a1]],
            vec![vec![lt(t("b_lt", 46.0, 46.0, 180.0))]],
            json!([]),
        );
        Game::new(serde_json::from_value(s).expect("json")).err().map(|e| e.to_string()).unwrap_or_default()
    };
    assert!(e.contains("armies.A.groups[0].troopers[1] (\"a1\").mov") && e.contains("0 or more"), "{e}");
}

/// A: `a1` at (10, 10) facing south. B: `b1` at (30, 10) facing west, a 3" wall (x 20–21,
/// y 0–20) between them; `b2` wherever the test puts it.
fn cautious_table(b2: Value) -> Game {
    let s = setup(
        vec![vec![lt(t("a_lt", 2.0, 46.0, 0.0)), t("a1", 10.0, 10.0, 270.0)]],
        vec![vec![lt(t("b1", 30.0, 10.0, 180.0)), b2]],
        json!([{"id": "wall", "polygon": [[20, 0], [21, 0], [21, 20], [20, 20]], "height": 3.0}]),
    );
    activate(&start_orders(&game(s)), "a1")
}

#[test]
fn cautious_movement_begun_and_ended_out_of_sight_draws_no_aros() {
    let far = t("b2", 46.0, 46.0, 0.0);
    let g = cautious_table(far.clone());
    // Along the wall's far side, still hidden from b1 (and b2 faces away, far off): no AROs.
    let g2 = ok(&g, declare("cautious_movement", "a1", json!([[10, 14]])));
    assert!(eligible(&g2).is_empty(), "{:?}", eligible(&g2));
    // Out past the wall's end into b1's view and back behind it: a Move draws b1's ARO, a
    // Cautious Movement (begun and ended out of sight) does not.
    let there_and_back = json!([[14, 30], [10, 12]]);
    assert_eq!(eligible(&ok(&g, declare("move", "a1", there_and_back.clone()))), vec!["b1"]);
    assert!(eligible(&ok(&g, declare("cautious_movement", "a1", there_and_back))).is_empty());
    // Ending where b1 sees it, Cautious Movement draws AROs as usual.
    let g3 = ok(&g, declare("cautious_movement", "a1", json!([[16, 30]])));
    assert_eq!(eligible(&g3), vec!["b1"]);
    assert_eq!(reasons(&g3, "b1"), vec!["lof"]);
    // Declared in b2's LoF (b2 at (10, 30) facing south, nothing between): refused, naming it.
    let g = cautious_table(t("b2", 10.0, 30.0, 270.0));
    let r = no(&g, declare("cautious_movement", "a1", json!([[10, 14]])), Rule::CautiousMovement);
    assert!(r.reason.contains("in b2's LoF"), "{}", r.reason);
    // Inside b2's ZoC (5" behind it, b2 facing away: no LoF): refused too.
    let g = cautious_table(t("b2", 10.0, 16.0, 90.0));
    let r = no(&g, declare("cautious_movement", "a1", json!([[6, 10]])), Rule::CautiousMovement);
    assert!(r.reason.contains("inside b2's ZoC"), "{}", r.reason);
    // An Unconscious b2 watches nothing (NULL_ENEMIES_WATCH is false).
    let g = cautious_table(with(t("b2", 10.0, 30.0, 270.0), json!({"states": ["unconscious"]})));
    let g = ok(&g, declare("cautious_movement", "a1", json!([[10, 14]])));
    assert!(eligible(&g).is_empty());
}

/// A: `a1` (S2) at (10, 10), allies `a2` (S2) at (14, 10) and `a5` (S5) at (10, 14); B: `b1` at
/// (10, 6) facing away, the Lieutenant far off.
fn crowd() -> Game {
    let s = setup(
        vec![vec![
            lt(t("a_lt", 2.0, 46.0, 0.0)),
            t("a1", 10.0, 10.0, 0.0),
            t("a2", 14.0, 10.0, 0.0),
            with(t("a5", 10.0, 14.0, 0.0), json!({"silhouette": 5})),
        ]],
        vec![vec![lt(t("b_lt", 46.0, 46.0, 0.0)), t("b1", 10.0, 6.0, 270.0)]],
        json!([]),
    );
    start_orders(&game(s))
}

#[test]
fn a_move_passes_through_allies_no_taller_but_not_enemies_and_never_ends_in_anothers_space() {
    let g = activate(&crowd(), "a1");
    ok(&g, declare("move", "a1", json!([[18, 10]])));
    let r = no(&g, declare("move", "a1", json!([[10, 18]])), Rule::GeneralMovement);
    assert!(r.reason.contains("through a5's") && r.reason.contains("taller"), "{}", r.reason);
    let r = no(&g, declare("move", "a1", json!([[10, 2]])), Rule::GeneralMovement);
    assert!(r.reason.contains("through b1's") && r.reason.contains("an enemy"), "{}", r.reason);
    let r = no(&g, declare("move", "a1", json!([[14, 10.3]])), Rule::GeneralMovement);
    assert!(r.reason.contains("end its move inside a2's base"), "{}", r.reason);
    // In base contact at the end (centres a base apart): fine.
    let d = 2.0 * 12.5 / 25.4;
    ok(&g, declare("move", "a1", json!([[14.0 - d, 10]])));
    // A Jump goes over the enemy, as long as it lands clear.
    ok(&g, declare("jump", "a1", json!([[10, 2]])));
    no(&g, declare("jump", "a1", json!([[10, 6.2]])), Rule::GeneralMovement);
}

#[test]
fn troopers_moving_in_one_declaration_do_not_block_each_other() {
    // A Coordinated Order: a5 steps aside while a1 walks through where it stood.
    let g = ok(&crowd(), json!({"type": "activate", "source": "coordinated", "troopers": ["a1", "a5"]}));
    let both = json!({"type": "declare", "skill": "move", "moves": [
        {"trooper": "a1", "route": [[10, 18]]}, {"trooper": "a5", "route": [[20, 14]]}]});
    ok(&g, both);
    // …but not into the spot a5 ends on.
    let clash = json!({"type": "declare", "skill": "move", "moves": [
        {"trooper": "a1", "route": [[10, 18]]}, {"trooper": "a5", "route": [[10, 18.5]]}]});
    let r = no(&g, clash, Rule::GeneralMovement);
    assert!(r.reason.contains("a1 would end its move inside a5's base"), "{}", r.reason);
}

#[test]
fn nothing_ends_in_another_troopers_space_and_a_placement_stands_on_the_surface_there() {
    // The Paratrooper cannot land on a1's base, nor beside the Lieutenant's base in it.
    let g = activate(&table(json!([4, 4])), "a_para");
    let r = no(&g, declare("move", "a_para", json!([[10.5, 10]])), Rule::GeneralMovement);
    assert!(r.reason.contains("a1's"), "{}", r.reason);
    ok(&g, declare("move", "a_para", json!([[12, 10]])));
    // A placement reported at Resolution: the same.
    let g = run(&activate(&table(json!([4, 4])), "a1"), vec![declare("move", "a1", json!([[12, 10]])), close()]);
    let place =
        |x: f64, y: f64| json!({"type": "resolve", "outcomes": [{"type": "place", "trooper": "a1", "x": x, "y": y}]});
    let r = no(&g, place(2.5, 46.0), Rule::GeneralMovement);
    assert!(r.reason.contains("a_lt's space") && r.reason.contains("overlap by"), "{}", r.reason);
    let placed = ok(&g, place(4.0, 46.0));
    assert!(placed.trooper("a1").and_then(|t| t.position).is_some_and(|p| (p.x, p.y) == (4.0, 46.0)));
    // A trooper placed on a piece stands on its top.
    let on_wall = ok(&g, place(20.5, 10.0));
    assert_eq!(on_wall.trooper("a1").and_then(|t| t.position).map(|p| p.elevation), Some(3.0));
}

#[test]
fn deployment_tags_troopers_where_they_stand_until_the_first_order_count() {
    let s = setup(
        vec![vec![
            lt(t("a_lt", 2.0, 46.0, 0.0)),
            t("a1", 10.0, 10.0, 0.0),
            with(t("a_para", 0.0, 0.0, 0.0), json!({"position": null})),
        ]],
        vec![vec![lt(t("b_lt", 46.0, 46.0, 0.0))]],
        json!([{"id": "roof", "polygon": [[20, 20], [26, 20], [26, 26], [20, 26]], "height": 3.0}]),
    );
    let g = game(s);
    let deploy = |id: &str, x: f64, y: f64, elevation: f64| json!({"type": "deploy", "trooper": id, "x": x, "y": y, "facing": 90, "elevation": elevation});
    let g1 = ok(&g, deploy("a1", 12.0, 8.0, 0.0));
    let p = g1.trooper("a1").and_then(|t| t.position).expect("on the table");
    assert_eq!((p.x, p.y, p.facing), (12.0, 8.0, 90.0));
    // Tagged again: it moves (players adjust positions while deploying).
    let g1 = ok(&g1, deploy("a1", 13.0, 8.0, 0.0));
    assert_eq!(g1.trooper("a1").and_then(|t| t.position).map(|p| p.x), Some(13.0));
    // A trooper the list held off the table may be deployed; on the roof only at its height.
    no(&g1, deploy("a_para", 23.0, 23.0, 0.0), Rule::GeneralMovement);
    let g2 = ok(&g1, deploy("a_para", 23.0, 23.0, 3.0));
    assert!(g2.trooper("a_para").is_some_and(|t| t.on_table()));
    // Not on another's base, not off the table, not once the game has begun.
    let r = no(&g2, deploy("b_lt", 13.5, 8.0, 0.0), Rule::GeneralMovement);
    assert!(r.reason.contains("a1's space"), "{}", r.reason);
    no(&g2, deploy("b_lt", 49.0, 8.0, 0.0), Rule::Deployment);
    let started = ok(&g2, json!({"type": "order_count"}));
    no(&started, deploy("b_lt", 40.0, 40.0, 0.0), Rule::Deployment);
}

/// N4 Initiative and Deployment: each player places their troopers totally inside their own
/// Deployment Zone ("Totally Inside": the whole Silhouette, here the whole base) — when the setup
/// sets the zones (the mission does). A trooper with a skill that deploys outside it and that
/// sightline does not check (`deploys_outside_zone`: Mechanized Deployment …) is not held to it
/// (the skills it checks: rules_deployment.rs). The setup's
/// own positions are held to it too, and a zone that is no area is refused, naming the field.
#[test]
fn deployment_is_totally_inside_the_players_own_zone_when_the_setup_sets_zones() {
    use sightline::rules::Setup;
    let mut s = setup(
        vec![vec![
            lt(t("a_lt", 2.0, 2.0, 90.0)),
            t("a1", 10.0, 6.0, 90.0),
            with(t("a_inf", 0.0, 0.0, 0.0), json!({"position": null, "abilities": ["deploys_outside_zone"]})),
        ]],
        vec![vec![lt(t("b_lt", 46.0, 46.0, 270.0))]],
        json!([]),
    );
    // Standard 12"-deep zones along the two table edges.
    s["deployment_zones"] =
        json!({"A": [[0, 0], [48, 0], [48, 12], [0, 12]], "B": [[0, 36], [48, 36], [48, 48], [0, 48]]});
    let g = game(s.clone());
    let deploy = |id: &str, x: f64, y: f64| json!({"type": "deploy", "trooper": id, "x": x, "y": y, "facing": 90, "elevation": 0});
    let r = sightline::geometry::Silhouette::S2.radius_in(); // an S2 base (25 mm), inches
    ok(&g, deploy("a1", 20.0, 12.0 - r));
    let e = no(&g, deploy("a1", 20.0, 12.0 - r + 0.01), Rule::Deployment);
    assert!(e.reason.contains("a1's base reaches 0.010\" outside A's Deployment Zone"), "{}", e.reason);
    no(&g, deploy("a1", 20.0, 40.0), Rule::Deployment);
    no(&g, deploy("b_lt", 20.0, 6.0), Rule::Deployment);
    ok(&g, deploy("b_lt", 20.0, 40.0));
    ok(&g, deploy("a_inf", 24.0, 24.0));
    // The setup's own positions: a1 placed over the zone's edge.
    let mut bad = s.clone();
    bad["armies"]["A"]["groups"][0]["troopers"][1]["position"]["y"] = json!(12.0);
    let e = Game::new(serde_json::from_value::<Setup>(bad).expect("json")).expect_err("outside its zone");
    assert_eq!(e.field, "armies.A.groups[0].troopers[1].position");
    // A zone that encloses no area.
    let mut bad = s;
    bad["deployment_zones"]["B"] = json!([[0, 36], [48, 36], [24, 36]]);
    let e = Game::new(serde_json::from_value::<Setup>(bad).expect("json")).expect_err("no area");
    assert_eq!(e.field, "deployment_zones.B");
}
