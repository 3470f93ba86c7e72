//! Levels: troopers stand on the table or on top of terrain, and moves go up and down.
//!
//! - N4 Move (Requirements): the base stays on the surface it moves on; the move ends on a
//!   surface as large as the base.
//! - N4 General Movement Rules: a trooper moves over scenery no taller than its Silhouette
//!   without Climb or Jump, counting as moving up and over it for LoF (and, assumption
//!   `STEP_DOWN_UP_TO_SILHOUETTE`, steps down no further).
//! - N4 Climb and Jump: Entire Orders between levels, up to the first MOV value, measured as N4
//!   FAQ 1.3 has it (from any point of the Silhouette at the start to the base's outer edge and
//!   underside at the end).
//! - N4 Super-Jump: Jump becomes a Short Movement Skill (the first MOV value; a second Jump, the
//!   second), or, declared as an Entire Order, both values together.
//! - N4 Climbing Plus: Move goes up and down vertical surfaces as over level ground (their height
//!   counted, assumption `CLIMBING_PLUS_MEASURE`).

mod common;
use common::*;
use serde_json::{Value, json};
use sightline::rules::{Game, Rule};

/// A: `a1` (S2, `mov`) at `at` (x, y, elevation), the Lieutenant far off; B: `b1` (S2) at
/// (30, 23) facing west, behind a 2.5" wall (x 20–21, y 15–31) that hides the table beyond it
/// from b1; a 3" building (x 10–16, y 20–26), a 6" tower (x 30–36, y 36–42), a 1" crate
/// (x 20–22, y 0–4) and a 2" catwalk 0.4" wide (x 40–40.4, y 20–40).
fn town(at: (f64, f64, f64), mov: Value) -> Game {
    town_with(at, mov, json!([]))
}

/// [`town`], a1 with `abilities`.
fn town_with(at: (f64, f64, f64), mov: Value, abilities: Value) -> Game {
    let a1 = json!({"id": "a1", "silhouette": 2, "points": 10, "mov": mov, "abilities": abilities,
                    "position": {"x": at.0, "y": at.1, "facing": 0.0, "elevation": at.2}});
    let s = setup(
        vec![vec![lt(t("a_lt", 2.0, 46.0, 0.0)), a1]],
        vec![vec![lt(t("b_lt", 46.0, 2.0, 0.0)), t("b1", 30.0, 23.0, 180.0)]],
        json!([
            {"id": "wall", "polygon": [[20, 15], [21, 15], [21, 31], [20, 31]], "height": 2.5},
            {"id": "building", "polygon": [[10, 20], [16, 20], [16, 26], [10, 26]], "height": 3.0},
            {"id": "tower", "polygon": [[30, 36], [36, 36], [36, 42], [30, 42]], "height": 6.0},
            {"id": "crate", "polygon": [[20, 0], [22, 0], [22, 4], [20, 4]], "height": 1.0},
            {"id": "catwalk", "polygon": [[40, 20], [40.4, 20], [40.4, 40], [40, 40]], "height": 2.0}
        ]),
    );
    ok(&start_orders(&game(s)), json!({"type": "activate", "source": "regular", "troopers": ["a1"]}))
}

fn declare(skill: &str, route: Value) -> Value {
    json!({"type": "declare", "skill": skill, "moves": [{"trooper": "a1", "route": route}]})
}

fn elevation(g: &Game) -> f64 {
    g.trooper("a1").and_then(|t| t.position).map(|p| p.elevation).expect("a1 on the table")
}

#[test]
fn climbing_onto_a_roof_stands_the_trooper_on_its_top_where_an_enemy_behind_a_wall_sees_it() {
    // a1 at the building's west wall (base edge 0.01" from it).
    let g = town((9.5, 23.0, 0.0), json!([4, 4]));
    // At the foot of the wall, b1 cannot see it over the 2.5" wall: a Move along it draws no ARO.
    assert!(eligible(&ok(&g, declare("move", json!([[9.5, 25]])))).is_empty());
    // A Move cannot go up the building's 3" side.
    let r = no(&g, declare("move", json!([[11, 23]])), Rule::GeneralMovement);
    assert!(r.reason.contains("into building") && r.reason.contains("Climb or Jump"), "{}", r.reason);
    // A Climb can: 1" across, 3" up from the table (1.43" above the top of its 1.57" tall
    // Silhouette), 1.74" in all. On the roof, b1 sees it over the wall, and may react.
    let g2 = ok(&g, declare("climb", json!([[10.5, 23]])));
    assert_eq!(elevation(&g2), 3.0);
    assert_eq!(eligible(&g2), vec!["b1"]);
    assert_eq!(reasons(&g2, "b1"), vec!["lof"]);
    // A Climb ends on reaching the top: it does not walk on across the roof.
    let r = no(&g, declare("climb", json!([[12, 23]])), Rule::Climb);
    assert!(r.reason.contains("2.500\" across the table"), "{}", r.reason);
    // Nor is it a Climb from out in the open, away from any wall.
    let r = no(&town((7.0, 23.0, 0.0), json!([4, 4])), declare("climb", json!([[10.5, 23]])), Rule::Climb);
    assert!(r.reason.contains("not in contact with a vertical surface"), "{}", r.reason);
}

#[test]
fn climb_and_jump_go_up_to_the_first_mov_value_measured_from_the_top_of_the_silhouette() {
    // Up the 6" tower: 4.43" above the Silhouette's top, more than MOV 4's first value.
    let g = town((30.0, 35.5, 0.0), json!([4, 4]));
    let r = no(&g, declare("climb", json!([[30.5, 36.5]])), Rule::Climb);
    assert!(
        r.reason.contains("a1 would move 4.5") && r.reason.contains("at most the first value, 4\""),
        "{}",
        r.reason
    );
    // With MOV 6-2 it climbs up.
    let g = town((30.0, 35.5, 0.0), json!([6, 2]));
    assert_eq!(elevation(&ok(&g, declare("climb", json!([[30.5, 36.5]])))), 6.0);
    // Down off the 3" roof: 2" across and the whole 3" down (3.61") is within 4"; 3.5" across
    // (4.61") is not.
    let g = town((15.0, 23.0, 3.0), json!([4, 4]));
    let down = ok(&g, declare("jump", json!([[17, 23]])));
    assert_eq!(elevation(&down), 0.0);
    // b1 saw it on the roof as the jump began (and not where it lands, behind the wall): the
    // route is judged at the levels it passes through, so b1 may react.
    assert_eq!(eligible(&down), vec!["b1"]);
    assert_eq!(
        eligible(&ok(&town((17.0, 23.0, 0.0), json!([4, 4])), declare("move", json!([[17, 24]])))),
        Vec::<String>::new()
    );
    let r = no(&g, declare("jump", json!([[18.5, 23]])), Rule::Jump);
    assert!(r.reason.contains("4.610\""), "{}", r.reason);
}

#[test]
fn a_move_keeps_to_the_roof_it_walks_on_and_does_not_step_off_its_edge() {
    let g = town((13.0, 23.0, 3.0), json!([4, 4]));
    // Along the roof: still on it.
    assert_eq!(elevation(&ok(&g, declare("move", json!([[15, 23]])))), 3.0);
    // Off the east edge: 3" down, more than its Silhouette.
    let r = no(&g, declare("move", json!([[17, 23]])), Rule::GeneralMovement);
    assert!(r.reason.contains("step down 3\" off building at 3.000\""), "{}", r.reason);
}

#[test]
fn a_move_steps_up_onto_a_crate_and_ends_on_it_or_beside_it_but_not_half_on_it() {
    let g = town((18.0, 2.0, 0.0), json!([4, 4]));
    assert_eq!(elevation(&ok(&g, declare("move", json!([[21, 2]])))), 1.0);
    assert_eq!(elevation(&ok(&g, declare("move", json!([[19.5, 2]])))), 0.0);
    // The centre on the crate, the base 0.29" past its edge.
    let r = no(&g, declare("move", json!([[20.2, 2]])), Rule::GeneralMovement);
    assert!(r.reason.contains("on top of crate with its base 0.29\" past"), "{}", r.reason);
    // The centre on the table, the base 0.19" over the crate.
    let r = no(&g, declare("move", json!([[19.7, 2]])), Rule::GeneralMovement);
    assert!(r.reason.contains("its base 0.19\" over crate"), "{}", r.reason);
}

#[test]
fn a_move_along_a_top_narrower_than_half_the_base_is_refused() {
    // N4 Move: "Any surface they move on must be at least half as wide as their base". An S2's
    // base is 0.98" across; the catwalk is 0.4" wide.
    let g = town((40.2, 25.0, 2.0), json!([4, 4]));
    let r = no(&g, declare("move", json!([[40.2, 28]])), Rule::GeneralMovement);
    assert!(r.reason.contains("along the top of catwalk at 0.000\" where it is 0.40\" wide"), "{}", r.reason);
}

fn jump(route: Value, entire_order: bool) -> Value {
    let mut d = declare("jump", route);
    if entire_order {
        d["entire_order"] = json!(true);
    }
    d
}

#[test]
fn super_jump_makes_jump_a_short_movement_skill_up_to_each_mov_value_or_both_as_an_entire_order() {
    let close = json!({"type": "close_aro_window"});
    // Without Super-Jump, a Jump onto the roof is the whole Order; it cannot be an "entire_order".
    let plain = town((9.5, 23.0, 0.0), json!([4, 2]));
    let g = ok(&ok(&plain, jump(json!([[10.5, 23]]), false)), close.clone());
    no(&g, declare("move", json!([[12, 23]])), Rule::StructureOfAnOrder);
    let r = no(&plain, jump(json!([[10.5, 23]]), true), Rule::StructureOfAnOrder);
    assert!(r.reason.contains("Super-Jump"), "{}", r.reason);
    // With it, a Jump onto the roof (1.74") is a Short Movement Skill: a Move or a BS Attack
    // may follow, or a second Jump, of up to the second MOV value (2").
    let sj = town_with((9.5, 23.0, 0.0), json!([4, 2]), json!(["super_jump"]));
    let g = ok(&ok(&sj, jump(json!([[10.5, 23]]), false)), close.clone());
    assert_eq!(elevation(&g), 3.0);
    ok(&g, declare("move", json!([[12, 23]])));
    ok(&g, json!({"type": "declare", "skill": "bs_attack", "targets": ["b1"]}));
    // (Along the roof: 3" is too far for the second value, 1.5" is not.)
    let r = no(&g, jump(json!([[13.5, 23]]), false), Rule::Jump);
    assert!(r.reason.contains("the second value (its second Jump, with Super-Jump), 2\""), "{}", r.reason);
    ok(&g, jump(json!([[12.0, 23]]), false));
    // A 5" Jump over the table is longer than the first value: as an Entire Order it may go both
    // (6"), and then the Order has all its skills.
    let r = no(&sj, jump(json!([[4.5, 23]]), false), Rule::Jump);
    assert!(r.reason.contains("at most the first value, 4\""), "{}", r.reason);
    let g = ok(&ok(&sj, jump(json!([[4.5, 23]]), true)), close);
    no(&g, declare("move", json!([[4.5, 25]])), Rule::StructureOfAnOrder);
    assert!(no(&sj, jump(json!([[2.5, 23]]), true), Rule::Jump).reason.contains("both values together"));
    // The declaration keeps its "entire_order" (what the game file saves).
    assert!(g.order().is_some_and(|o| o.skills[0].entire_order));
}

/// N4 Super-Jump FAQ, several troopers activated by one Order: "If the Troopers declare Jump as
/// a Short Skill, then any of the Troopers that don't have Super-Jump will perform an Idle
/// instead. If the Troopers declare Super-Jump as an Entire Order, they can all Jump but the
/// Troopers with Super-Jump will be able to add both their MOV values together." a1 has
/// Super-Jump; its Peripheral a_bot, beside it, has not.
#[test]
fn with_troopers_without_super_jump_a_short_jump_leaves_them_idle_and_an_entire_order_jump_takes_all() {
    let a1 = json!({"id": "a1", "silhouette": 2, "points": 10, "mov": [4, 2], "abilities": ["super_jump"],
                    "position": {"x": 9.5, "y": 23.0, "facing": 0.0}});
    let bot = json!({"id": "a_bot", "silhouette": 2, "points": 0, "mov": [4, 2], "peripheral_of": "a1",
                     "position": {"x": 9.5, "y": 21.0, "facing": 0.0}});
    let s = setup(
        vec![vec![lt(t("a_lt", 2.0, 46.0, 0.0)), a1, bot]],
        vec![vec![lt(t("b_lt", 46.0, 2.0, 0.0)), t("b1", 30.0, 23.0, 180.0)]],
        json!([{"id": "building", "polygon": [[10, 20], [16, 20], [16, 26], [10, 26]], "height": 3.0}]),
    );
    let g = ok(&start_orders(&game(s)), json!({"type": "activate", "source": "regular", "troopers": ["a1", "a_bot"]}));
    let up = json!([[10.5, 23]]);
    let both = |entire: bool| {
        let mut d = json!({"type": "declare", "skill": "jump",
                           "moves": [{"trooper": "a1", "route": up}, {"trooper": "a_bot", "route": [[10.5, 21]]}]});
        if entire {
            d["entire_order"] = json!(true);
        }
        d
    };
    // As a Short Skill, a_bot performs an Idle: it takes no route, and a1 jumps onto the roof
    // with a second skill to follow.
    let r = no(&g, both(false), Rule::Jump);
    assert!(r.reason.contains("a_bot has no Super-Jump: in a Jump declared as a Short Skill"), "{}", r.reason);
    let short = ok(&g, jump(up.clone(), false));
    assert_eq!(elevation(&short), 3.0);
    assert!(short.trooper("a_bot").and_then(|t| t.position).is_some_and(|p| p.elevation == 0.0));
    let short = ok(&short, json!({"type": "close_aro_window"}));
    ok(&short, json!({"type": "declare", "skill": "bs_attack", "targets": ["b1"]}));
    // As an Entire Order both jump, a_bot its first MOV value, a1 both together; nothing follows.
    let all = ok(&g, both(true));
    assert!(all.trooper("a_bot").and_then(|t| t.position).is_some_and(|p| p.elevation == 3.0));
    let all = ok(&all, json!({"type": "close_aro_window"}));
    no(&all, json!({"type": "declare", "skill": "bs_attack", "targets": ["b1"]}), Rule::StructureOfAnOrder);
}

#[test]
fn climbing_plus_moves_up_and_down_walls_as_over_level_ground_counting_their_height() {
    // Without Climbing Plus a Move may not go up the building's 3" side.
    let plain = town((9.5, 23.0, 0.0), json!([5, 4]));
    no(&plain, declare("move", json!([[10.5, 23]])), Rule::GeneralMovement);
    // With it, it goes up: 1" across and 3" up, 4" of its first MOV value, 5".
    let cp = town_with((9.5, 23.0, 0.0), json!([5, 4]), json!(["climbing_plus"]));
    let g = ok(&cp, declare("move", json!([[10.5, 23]])));
    assert_eq!(elevation(&g), 3.0);
    // 2.3" across and the 3" wall is 5.3": too far, and the refusal says what it counted.
    let r = no(&cp, declare("move", json!([[11.8, 23]])), Rule::Move);
    assert!(r.reason.contains("(3\" of it up and down walls, with Climbing Plus)"), "{}", r.reason);
    // The second Move comes down the wall again: 1" and 3" down, the second MOV value, 4".
    let g = ok(&ok(&g, json!({"type": "close_aro_window"})), declare("move", json!([[9.5, 23]])));
    assert_eq!(elevation(&g), 0.0);
    // A low crate is still vaulted, adding nothing to the distance: onto it and off its far side
    // is 3" across, within 4" (counting its 1" up and down would make it 5").
    let cp = town_with((19.4, 2.0, 0.0), json!([4, 4]), json!(["climbing_plus"]));
    ok(&cp, declare("move", json!([[22.4, 2.0]])));
}

/// N4 General Movement Rules, "Ladders and Stairs": a Move goes up a ladder onto a 3" roof
/// without Climb or Jump, measured along it; beside the ladder the wall is still a wall.
#[test]
fn a_move_goes_up_a_ladder_and_its_height_counts_in_the_distance() {
    let a1 = json!({"id": "a1", "silhouette": 2, "points": 10, "mov": [5, 4],
                    "position": {"x": 9.5, "y": 22.5, "facing": 0.0}});
    let s = setup(
        vec![vec![lt(t("a_lt", 2.0, 46.0, 0.0)), a1]],
        vec![vec![lt(t("b_lt", 46.0, 2.0, 0.0))]],
        json!([{"id": "building", "polygon": [[10, 20], [16, 20], [16, 26], [10, 26]], "height": 3.0,
                "ladders": [[[10, 22], [10, 23]]]}]),
    );
    let g = ok(&start_orders(&game(s.clone())), json!({"type": "activate", "source": "regular", "troopers": ["a1"]}));
    // 1.5" across and 3" up the ladder: 4.5" of its 5".
    let up = ok(&g, declare("move", json!([[11, 22.5]])));
    assert_eq!(elevation(&up), 3.0);
    // 2.5" across and 3" up is too far, and the refusal says what it counted.
    let r = no(&g, declare("move", json!([[12, 22.5]])), Rule::Move);
    assert!(r.reason.contains("(3\" of it up and down ladders)"), "{}", r.reason);
    // Along the wall to y = 25 and up there: no ladder, and the Move is refused.
    let r = no(&g, declare("move", json!([[9.5, 25], [11, 25]])), Rule::GeneralMovement);
    assert!(r.reason.contains("building"), "{}", r.reason);
    // A ladder that does not lie along the building's side is refused with the setup, naming it.
    let mut bad = s;
    bad["terrain"][0]["ladders"] = json!([[[10, 22], [12, 24]]]);
    let e = sightline::rules::Game::new(serde_json::from_value(bad).expect("setup JSON")).expect_err("refused");
    assert!(e.to_string().contains("terrain[0] (\"building\")") && e.to_string().contains("ladder 0"), "{e}");
}
