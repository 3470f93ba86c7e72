//! The Deployment Phase's four steps (N4 Initiative and Deployment): the player who deploys first
//! places all but one of its troopers; then the other player all but one; then the first player
//! the trooper it kept back; then the second player its own. And the first-Turn player's
//! Strategic Use of a Command Token: hold back one extra trooper (digest §4 "Command Tokens").
//! Checked when the setup says who deploys first (`deploys_first`); a setup without it deploys in
//! any order, as before.

mod common;
use common::*;
use serde_json::{Value, json};
use sightline::geometry::Side;
use sightline::rules::{Game, Rule, full_state, summary};

/// Every trooper off the table, to be tagged: A (first Turn) has four, B five, of which B leaves
/// `b_ad` off the table (as an Airborne Deployment trooper would be). B deploys first.
fn untagged(deploys_first: Option<&str>) -> Game {
    let off = |id: &str| with(t(id, 0.0, 0.0, 0.0), json!({"position": null}));
    let mut s = setup(
        vec![vec![lt(off("a_lt")), off("a1"), off("a2"), off("a3")]],
        vec![vec![lt(off("b_lt")), off("b1"), off("b2"), off("b3"), off("b_ad")]],
        json!([]),
    );
    if let Some(side) = deploys_first {
        s["deploys_first"] = json!(side);
    }
    game(s)
}

fn deploy(id: &str) -> Value {
    // Everyone in a row across the middle of the table, 2" apart: nothing is in anyone's way.
    let k = ["a_lt", "a1", "a2", "a3", "b_lt", "b1", "b2", "b3", "b_ad"].iter().position(|i| *i == id).unwrap_or(9);
    json!({"type": "deploy", "trooper": id, "x": 4.0 + 2.0 * k as f64, "y": 24.0, "facing": 90})
}

const HOLD_BACK: fn() -> Value = || json!({"type": "strategic_command_token", "use": "hold_back_trooper"});

/// The step the game says it is in: (step, who places, how many of its troopers are off the table).
fn step(g: &Game) -> Option<(u8, Side, u32)> {
    g.deployment_step().map(|d| (d.number, d.side, d.to_place))
}

const END_STEP: fn() -> Value = || json!({"type": "end_deployment_step"});

#[test]
fn each_player_places_all_but_one_then_the_first_its_last_then_the_second_its_last() {
    let g = untagged(Some("B"));
    assert_eq!(step(&g), Some((1, Side::B, 5)));
    let r = no(&g, deploy("a_lt"), Rule::Deployment);
    assert!(
        r.reason.contains("step 1 of 4: B places all but 1 of its troopers; A deploys when B is done"),
        "{}",
        r.reason
    );
    // Step 1: B places all but one, and its step ends by itself.
    let g = run(&g, vec![deploy("b_lt"), deploy("b1"), deploy("b2"), deploy("b3")]);
    assert_eq!(step(&g), Some((2, Side::A, 4)));
    let r = no(&g, deploy("b_ad"), Rule::Deployment);
    assert!(r.reason.contains("step 2 of 4: A places all but 1"), "{}", r.reason);
    // Step 2: A, all but one.
    let g = run(&g, vec![deploy("a_lt"), deploy("a1"), deploy("a2")]);
    assert_eq!(step(&g), Some((3, Side::B, 1)));
    let r = no(&g, deploy("a3"), Rule::Deployment);
    assert!(r.reason.contains("B places the 1 trooper it kept back"), "{}", r.reason);
    // The game cannot begin before deployment is over.
    let r = no(&g, json!({"type": "order_count"}), Rule::Deployment);
    assert!(
        r.reason.contains("not over: step 3 of 4, B places the 1 trooper it kept back (1 off the table)"),
        "{}",
        r.reason
    );
    // Re-tagging a trooper already on the table moves it, in any step (RETAG_AT_ANY_DEPLOYMENT_STEP).
    let moved = ok(&g, json!({"type": "deploy", "trooper": "a1", "x": 30.0, "y": 30.0}));
    assert_eq!(step(&moved), Some((3, Side::B, 1)));
    assert_eq!(moved.trooper("a1").and_then(|t| t.position).map(|p| (p.x, p.y)), Some((30.0, 30.0)));
    // Step 3: B's last; step 4: A's last.
    let g = ok(&g, deploy("b_ad"));
    assert_eq!(step(&g), Some((4, Side::A, 1)));
    let state = summary(&g);
    assert_eq!(state["deployment"], json!({"step": 4, "places": "A", "to_place": 1, "held_back": {"A": 1, "B": 1}}));
    let g = ok(&g, deploy("a3"));
    assert_eq!(step(&g), None);
    assert_eq!(full_state(&g)["deployment"], Value::Null);
    let g = ok(&g, json!({"type": "order_count"}));
    assert_eq!(step(&g), None);
}

#[test]
fn a_player_who_keeps_troopers_off_the_table_ends_its_step_and_places_only_what_it_kept_back() {
    let g = untagged(Some("B"));
    // B keeps b3 and b_ad off the table and says it is done.
    let g = run(&g, vec![deploy("b_lt"), deploy("b1"), deploy("b2")]);
    assert_eq!(step(&g), Some((1, Side::B, 2)));
    let g = ok(&g, END_STEP());
    assert_eq!(step(&g), Some((2, Side::A, 4)));
    // Step 3: B places one of them, the one it may; its step ends there.
    let g = run(&g, vec![deploy("a_lt"), deploy("a1"), deploy("a2"), deploy("b3")]);
    assert_eq!(step(&g), Some((4, Side::A, 1)));
    let r = no(&g, deploy("b_ad"), Rule::Deployment);
    assert!(r.reason.contains("B's deployment is over: step 4 of 4 is A's last"), "{}", r.reason);
    // A's last; then nothing more is placed, and there is no step left to end.
    let g = ok(&g, deploy("a3"));
    let r = no(&g, deploy("b_ad"), Rule::Deployment);
    assert!(r.reason.contains("every step of the Deployment Phase is over"), "{}", r.reason);
    let r = no(&g, END_STEP(), Rule::Deployment);
    assert!(r.reason.contains("over already"), "{}", r.reason);
    // A tag still moves a trooper already on the table; b_ad starts the game off the table.
    let g = ok(&g, json!({"type": "deploy", "trooper": "b3", "x": 40.0, "y": 40.0}));
    let g = ok(&g, json!({"type": "order_count"}));
    assert!(g.trooper("b_ad").is_some_and(|t| !t.on_table()));
    let r = no(&g, END_STEP(), Rule::Deployment);
    assert!(r.reason.contains("the game has begun"), "{}", r.reason);
}

/// B (deploying first) has a Controller `b_eng` with two Peripherals, `b_bot1` and `b_bot2`, and
/// two troopers more; A has two troopers. Placed 2" apart along y = 24 (B) and y = 30 (A).
fn with_peripherals() -> Game {
    let off = |id: &str| with(t(id, 0.0, 0.0, 0.0), json!({"position": null}));
    let bot = |id: &str| with(off(id), json!({"peripheral_of": "b_eng"}));
    let mut s = setup(
        vec![vec![lt(off("a_lt")), off("a1")]],
        vec![vec![lt(off("b_lt")), off("b_eng"), bot("b_bot1"), bot("b_bot2"), off("b1")]],
        json!([]),
    );
    s["deploys_first"] = json!("B");
    game(s)
}

fn place(id: &str) -> Value {
    let ids = ["b_lt", "b_eng", "b_bot1", "b_bot2", "b1", "a_lt", "a1"];
    let k = ids.iter().position(|i| *i == id).unwrap_or(9);
    let y = if id.starts_with('a') { 30.0 } else { 24.0 };
    json!({"type": "deploy", "trooper": id, "x": 4.0 + 2.0 * k as f64, "y": y, "facing": 90})
}

/// N4 Peripheral: "Peripherals are deployed on the game table at the same time as their
/// Controller". In the four steps a Controller and its Peripherals are one trooper: kept back
/// together, placed together, and no step ends with some of them on the table and some not.
#[test]
fn a_controller_and_its_peripherals_deploy_at_the_same_time_and_count_as_one_trooper_in_the_steps() {
    let g = with_peripherals();
    // Five troopers, three to place: b_lt, b1, and b_eng with its two Peripherals.
    assert_eq!(step(&g), Some((1, Side::B, 3)));
    // B keeps the Controller and its Peripherals back: two placements end its step.
    let kept = run(&g, vec![place("b_lt"), place("b1")]);
    assert_eq!(step(&kept), Some((2, Side::A, 2)));
    // A Peripheral is not kept back alone: with its Controller placed, the step waits for it.
    let g = run(&g, vec![place("b_lt"), place("b_eng"), place("b_bot1")]);
    assert_eq!(step(&g), Some((1, Side::B, 2)));
    let r = no(&g, END_STEP(), Rule::Deployment);
    assert!(
        r.reason.contains("b_eng is on the table and b_bot2 not: a Controller and its Peripherals are deployed at the same time (N4 Peripheral)"),
        "{}",
        r.reason
    );
    // Nor may B start b1 now: then the only trooper left to keep back would be half placed.
    let r = no(&g, place("b1"), Rule::Deployment);
    assert!(r.reason.contains("has begun b_eng (with b_bot2 still off the table)"), "{}", r.reason);
    // The last Peripheral completes the unit, and the step ends with b1 kept back.
    let g = ok(&g, place("b_bot2"));
    assert_eq!(step(&g), Some((2, Side::A, 2)));
    // A's step, then B's last: b1.
    let g = ok(&g, place("a_lt"));
    assert_eq!(step(&g), Some((3, Side::B, 1)));
    let g = ok(&g, place("b1"));
    assert_eq!(step(&g), Some((4, Side::A, 1)));

    // Kept back together, they are placed together in B's last step, and count as its one trooper.
    let g = run(&kept, vec![place("a_lt")]);
    assert_eq!(step(&g), Some((3, Side::B, 1)));
    let g = ok(&g, place("b_bot1"));
    assert_eq!(step(&g), Some((3, Side::B, 1)), "one Peripheral placed: the unit is not complete yet");
    let r = no(&g, END_STEP(), Rule::Deployment);
    assert!(r.reason.contains("b_bot1 is on the table and b_eng, b_bot2 not"), "{}", r.reason);
    let g = run(&g, vec![place("b_eng"), place("b_bot2")]);
    assert_eq!(step(&g), Some((4, Side::A, 1)));

    // A setup that places the Controller and not its Peripheral: B's first step waits for it,
    // rather than ending at once and leaving it to be "the trooper kept back".
    let off = |id: &str| with(t(id, 0.0, 0.0, 0.0), json!({"position": null}));
    let mut s = setup(
        vec![vec![lt(off("a_lt")), off("a1")]],
        vec![vec![
            lt(t("b_lt", 40.0, 40.0, 0.0)),
            t("b_eng", 36.0, 40.0, 0.0),
            with(off("b_bot1"), json!({"peripheral_of": "b_eng"})),
        ]],
        json!([]),
    );
    s["deploys_first"] = json!("B");
    let g = game(s);
    assert_eq!(step(&g), Some((1, Side::B, 1)));
    let g = ok(&g, place("b_bot1"));
    assert_eq!(step(&g), Some((2, Side::A, 2)));
}

#[test]
fn steps_with_nothing_to_place_pass_by_themselves() {
    let off = |id: &str| with(t(id, 0.0, 0.0, 0.0), json!({"position": null}));
    // B's troopers are all placed by the setup: A places all but one, then its last at once.
    let mut s = setup(vec![vec![lt(off("a_lt")), off("a1")]], vec![vec![lt(t("b_lt", 40.0, 40.0, 0.0))]], json!([]));
    s["deploys_first"] = json!("A");
    let g = game(s.clone());
    assert_eq!(step(&g), Some((1, Side::A, 2)));
    let g = ok(&g, deploy("a_lt"));
    assert_eq!(step(&g), Some((3, Side::A, 1)));
    let g = ok(&g, deploy("a1"));
    assert_eq!(step(&g), None);
    ok(&g, json!({"type": "order_count"}));
    // A setup that places everyone has no steps left: the game may begin at once.
    s["armies"]["A"]["groups"][0]["troopers"] = json!([lt(t("a_lt", 4.0, 4.0, 0.0)), t("a1", 8.0, 4.0, 0.0)]);
    let g = game(s);
    assert_eq!(step(&g), None);
    ok(&g, json!({"type": "order_count"}));
}

#[test]
fn the_first_turn_player_may_spend_a_command_token_to_hold_back_one_more_during_its_own_deployment() {
    let g = untagged(Some("B"));
    assert!(g.hold_back_open());
    // A has the first Turn; it deploys second, so its deployment runs until its step 2 ends.
    let g = run(&g, vec![deploy("b_lt"), deploy("b1"), deploy("b2"), deploy("b3"), deploy("a_lt")]);
    assert!(g.hold_back_open());
    let g = ok(&g, HOLD_BACK());
    assert_eq!(g.command_tokens(Side::A), 3);
    assert_eq!(g.deployment_step().map(|d| d.held_back.a), Some(2));
    let r = no(&g, HOLD_BACK(), Rule::CommandTokens);
    assert!(r.reason.contains("already held back"), "{}", r.reason);
    // A now keeps two back: after a1 its step is over.
    let g = ok(&g, deploy("a1"));
    assert_eq!(step(&g), Some((3, Side::B, 1)));
    // B's last, then A's two.
    let g = ok(&g, deploy("b_ad"));
    assert_eq!(step(&g), Some((4, Side::A, 2)));
    let g = run(&g, vec![deploy("a2"), deploy("a3")]);
    assert_eq!(step(&g), None);
    // Once A's own step is over, it is too late.
    let late = run(
        &untagged(Some("B")),
        vec![deploy("b_lt"), deploy("b1"), deploy("b2"), deploy("b3"), deploy("a_lt"), deploy("a1"), deploy("a2")],
    );
    assert_eq!(step(&late), Some((3, Side::B, 1)));
    let r = no(&late, HOLD_BACK(), Rule::CommandTokens);
    assert!(r.reason.contains("own deployment, which is over"), "{}", r.reason);
    // A player with no more to place than it keeps back has nothing to hold back: here A, whose
    // setup places all but a1, while B deploys first.
    let mut s = setup(
        vec![vec![lt(t("a_lt", 4.0, 4.0, 0.0)), with(t("a1", 0.0, 0.0, 0.0), json!({"position": null}))]],
        vec![vec![
            lt(with(t("b_lt", 0.0, 0.0, 0.0), json!({"position": null}))),
            with(t("b1", 0.0, 0.0, 0.0), json!({"position": null})),
        ]],
        json!([]),
    );
    s["deploys_first"] = json!("B");
    let few = game(s);
    assert!(!few.hold_back_open());
    let r = no(&few, HOLD_BACK(), Rule::CommandTokens);
    assert!(r.reason.contains("A has 1 trooper still to place and keeps 1 back already"), "{}", r.reason);
}

#[test]
fn without_deploys_first_the_order_is_not_checked_and_the_hold_back_is_made_before_the_first_order_count() {
    let g = untagged(None);
    assert_eq!(step(&g), None);
    let r = no(&g, END_STEP(), Rule::Deployment);
    assert!(r.reason.contains("does not say who deploys first"), "{}", r.reason);
    // Any order, every trooper.
    let g = run(
        &g,
        vec![deploy("a_lt"), deploy("a1"), deploy("a2"), deploy("a3"), deploy("b_lt"), deploy("b1"), deploy("b_ad")],
    );
    let g = ok(&g, HOLD_BACK());
    assert_eq!(g.command_tokens(Side::A), 3);
    let g = ok(&g, json!({"type": "order_count"}));
    let r = no(&g, HOLD_BACK(), Rule::CommandTokens);
    assert!(r.reason.contains("during deployment, before the first Order Count"), "{}", r.reason);
}

#[test]
fn deploys_first_must_name_a_player() {
    let mut s = setup(vec![vec![lt(t("a_lt", 2.0, 2.0, 0.0))]], vec![vec![lt(t("b_lt", 40.0, 40.0, 0.0))]], json!([]));
    s["deploys_first"] = json!("C");
    let e = sightline::rules::Setup::from_json(&s.to_string()).expect_err("no player C");
    assert!(e.field.contains("deploys_first"), "{e}");
}

/// Random deployments, checked against the four steps written out independently: the first
/// placements, as a run of sides, are at most four blocks — the player who deploys first, the
/// other, the first again, the other again; in the first two blocks a player always keeps back
/// as many troopers as it holds back then; in the last two it places no more than it held back;
/// and the game begins only once no step is left. Tags again, step ends, hold backs and early
/// Order Counts are mixed in; and replaying what was accepted gives the same game. Run on the
/// plain armies and on armies with Controllers and Peripherals, where a "trooper" of the steps is
/// a deployment unit (a Controller with its Peripherals: N4 Peripheral, deployed at the same time)
/// and no block ends with a unit partly placed.
mod random {
    use super::*;
    use proptest::prelude::*;
    use sightline::rules::{Event, TrooperState};

    const IDS: [&str; 9] = ["a_lt", "a1", "a2", "a3", "b_lt", "b1", "b2", "b3", "b_ad"];
    const UNIT_IDS: [&str; 9] = ["a_lt", "a_c", "a_p", "a1", "b_lt", "b_c", "b_p1", "b_p2", "b1"];

    /// A: a_lt, a1 and a Controller a_c with one Peripheral; B: b_lt, b1 and b_c with two.
    fn with_units(deploys_first: &str) -> Game {
        let off = |id: &str| with(t(id, 0.0, 0.0, 0.0), json!({"position": null}));
        let of = |id: &str, c: &str| with(off(id), json!({"peripheral_of": c}));
        let mut s = setup(
            vec![vec![lt(off("a_lt")), off("a_c"), of("a_p", "a_c"), off("a1")]],
            vec![vec![lt(off("b_lt")), off("b_c"), of("b_p1", "b_c"), of("b_p2", "b_c"), off("b1")]],
            json!([]),
        );
        s["deploys_first"] = json!(deploys_first);
        game(s)
    }

    fn event(seed: u64, ids: &[&str]) -> Value {
        match seed % 10 {
            0 => END_STEP(),
            1 => HOLD_BACK(),
            2 => json!({"type": "order_count"}),
            _ => {
                let id = ids[(seed / 10) as usize % ids.len()];
                let k = ids.iter().position(|i| *i == id).unwrap_or(0);
                json!({"type": "deploy", "trooper": id, "x": 4.0 + 2.0 * k as f64, "y": 24.0, "facing": 90})
            }
        }
    }

    /// The deployment unit's root of a trooper: its Controller, or itself.
    fn root(t: &TrooperState) -> &str {
        t.peripheral_of.as_deref().unwrap_or(&t.id)
    }

    /// `side`'s units: (wholly off the table, partly placed, wholly on it).
    fn units(g: &Game, side: Side) -> (u32, u32, u32) {
        let mut roots: Vec<&str> = g.troopers().iter().filter(|t| t.side == side).map(root).collect();
        roots.sort();
        roots.dedup();
        let (mut off, mut split, mut on) = (0, 0, 0);
        for r in roots {
            let members: Vec<bool> = g.troopers().iter().filter(|t| root(t) == r).map(|t| t.on_table()).collect();
            if members.iter().all(|on| !on) {
                off += 1;
            } else if members.iter().any(|on| !on) {
                split += 1;
            } else {
                on += 1;
            }
        }
        (off, split, on)
    }

    fn check(first: bool, seeds: Vec<u64>, peripherals: bool) -> Result<(), TestCaseError> {
        let (p1, name) = if first { (Side::A, "A") } else { (Side::B, "B") };
        let (start, ids): (Game, &[&str]) =
            if peripherals { (with_units(name), &UNIT_IDS) } else { (untagged(Some(name)), &IDS) };
        let mut g = start.clone();
        let mut accepted = Vec::new();
        // The model: the block the players are in (0 to 3: the first player, the other, the
        // first, the other) and how many units were placed whole in each. A placement by the
        // other player, or a step ended, moves it on; the game may end a step sooner by itself.
        let side_of = |k: usize| if k.is_multiple_of(2) { p1 } else { sightline::rules::opponent(p1) };
        let (mut cur, mut placed) = (0usize, [0u32; 4]);
        for seed in seeds {
            let e = ev(event(seed, ids));
            let before = g.clone();
            let Ok(next) = g.apply(&e) else { continue };
            if matches!(e, Event::EndDeploymentStep) {
                prop_assert_eq!(units(&before, side_of(cur)).1, 0, "step {} ended with a unit partly placed", cur + 1);
                cur += 1;
                prop_assert!(cur <= 4, "more than four steps ended");
            }
            if let Event::Deploy { trooper, .. } = &e {
                let t = before.trooper(trooper).expect("a trooper of the game");
                if !t.on_table() {
                    let s = t.side;
                    while side_of(cur) != s {
                        let ended = side_of(cur);
                        prop_assert_eq!(
                            units(&before, ended).1,
                            0,
                            "{:?}'s step {} ended with a unit partly placed",
                            ended,
                            cur + 1
                        );
                        cur += 1;
                    }
                    prop_assert!(cur <= 3, "{s:?} placed {trooper} after the fourth step");
                    let (off, split, on) = units(&next, s);
                    placed[cur] += on - units(&before, s).2;
                    let held = before.deployment_step().map(|d| *d.held_back.get(s)).unwrap_or(1);
                    if cur < 2 {
                        prop_assert!(
                            off >= held,
                            "{s:?} kept {off} units wholly back in step {}, holding back {held}",
                            cur + 1
                        );
                    } else {
                        prop_assert!(
                            placed[cur] + split <= held,
                            "{s:?} placed {} units in step {}, holding back {held}",
                            placed[cur] + split,
                            cur + 1
                        );
                    }
                }
            }
            if matches!(e, Event::OrderCount) && before.deployment_open() {
                prop_assert!(before.deployment_step().is_none(), "the game began mid-deployment");
            }
            accepted.push(e);
            g = next;
        }
        let (again, results) = Game::replay(g.setup().clone(), &accepted).expect("replay");
        prop_assert!(results.iter().all(|r| r.is_ok()));
        prop_assert_eq!(again, g);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

        #[test]
        fn random_deployments_keep_the_four_steps(first in prop::bool::ANY, seeds in prop::collection::vec(any::<u64>(), 1..60)) {
            check(first, seeds, false)?;
        }

        #[test]
        fn random_deployments_with_peripherals_keep_the_four_steps_by_units(first in prop::bool::ANY, seeds in prop::collection::vec(any::<u64>(), 1..60)) {
            check(first, seeds, true)?;
        }
    }
}

/// Standard 12"-deep Deployment Zones along the two table edges: A's at y 0–12, B's at y 36–48.
fn zones(mut s: Value) -> Value {
    s["deployment_zones"] =
        json!({"A": [[0, 0], [48, 0], [48, 12], [0, 12]], "B": [[0, 36], [48, 36], [48, 48], [0, 48]]});
    s
}

fn at(id: &str, x: f64, y: f64) -> Value {
    json!({"type": "deploy", "trooper": id, "x": x, "y": y, "facing": 90})
}

/// An S2 base's radius (25 mm), inches.
fn r() -> f64 {
    sightline::geometry::Silhouette::S2.radius_in()
}

/// N4 Deployment Skills: Forward Deployment (+4", +8") reaches that far beyond the Deployment
/// Zone and no farther; Impersonation anywhere but the enemy zone, and inside it only by a WIP
/// Roll the app names; Infiltration (assumption) its own half freely, the enemy half by a PH-3
/// Roll, never the enemy zone; `deploys_outside_zone` is not checked. And whatever the skill, no
/// trooper is deployed in contact with an enemy.
#[test]
fn deployment_skills_reach_as_far_as_n4_says_and_no_trooper_deploys_in_contact_with_an_enemy() {
    let off =
        |id: &str, abilities: Value| with(t(id, 0.0, 0.0, 0.0), json!({"position": null, "abilities": abilities}));
    let s = zones(setup(
        vec![vec![
            lt(t("a_lt", 2.0, 2.0, 90.0)),
            off("a1", json!([])),
            off("a_fd4", json!(["forward_deployment_4"])),
            off("a_fd8", json!(["forward_deployment_8"])),
            off("a_imp", json!(["impersonation"])),
            off("a_inf", json!(["infiltration"])),
            off("a_x", json!(["deploys_outside_zone"])),
        ]],
        vec![vec![lt(t("b_lt", 40.0, 40.0, 270.0))]],
        json!([]),
    ));
    let g = game(s);
    let r = r();
    // Off the table (a click just past its edge in the picture), said in inches a player reads.
    let e = no(&g, at("a1", -0.05024188226733069, 23.50612503881184), Rule::Deployment);
    assert_eq!(e.reason, "a1: (-0.05, 23.506) is off the 48\"×48\" table");
    // Without a skill: totally inside the own zone.
    let e = no(&g, at("a1", 10.0, 14.0), Rule::Deployment);
    assert!(e.reason.contains("troopers deploy totally inside their own"), "{}", e.reason);
    // Forward Deployment: the whole base within 4" (8") of the zone.
    for (id, inches) in [("a_fd4", 4.0), ("a_fd8", 8.0)] {
        let edge = 12.0 + inches - r;
        let placed = ok(&g, at(id, 10.0, edge));
        assert_eq!(placed.deployment_roll(id), None);
        let e = no(&g, at(id, 10.0, edge + 0.01), Rule::Deployment);
        let says = format!(
            "{id}'s base reaches {:.3}\" outside A's Deployment Zone: Forward Deployment (+{inches}\")",
            inches + 0.01
        );
        assert!(e.reason.contains(&says), "{}", e.reason);
        ok(&g, at(id, 30.0, 6.0));
    }
    // Impersonation: anywhere but B's zone; in it (even the base's edge) only by a WIP Roll.
    let g1 = ok(&g, at("a_imp", 24.0, 30.0));
    assert_eq!(g1.deployment_roll("a_imp"), None);
    let g1 = ok(&g, at("a_imp", 24.0, 36.0 - r + 0.01));
    let roll = g1.deployment_roll("a_imp").expect("a WIP Roll inside B's zone");
    assert!(roll.contains("inside B's Deployment Zone") && roll.contains("WIP Roll"), "{roll}");
    assert_eq!(ok(&g, at("a_imp", 24.0, 36.0 - r)).deployment_roll("a_imp"), None, "touching its edge from outside");
    // Infiltration: A's half freely, B's half by a Roll, B's zone not at all.
    let g1 = ok(&g, at("a_inf", 24.0, 24.0 - r));
    assert_eq!(g1.deployment_roll("a_inf"), None);
    let g1 = ok(&g, at("a_inf", 24.0, 24.5));
    let roll = g1.deployment_roll("a_inf").expect("a Roll in B's half");
    assert!(roll.contains("B's half of the table") && roll.contains("PH-3"), "{roll}");
    let e = no(&g, at("a_inf", 24.0, 37.0), Rule::Deployment);
    assert!(e.reason.contains("not inside the enemy Deployment Zone"), "{}", e.reason);
    // A skill sightline does not check: anywhere.
    assert_eq!(ok(&g, at("a_x", 24.0, 44.0)).deployment_roll("a_x"), None);
    // Never in contact with an enemy, whatever the skill: b_lt's base and a_x's one 0.05" apart.
    let beside = 40.0 - 2.0 * r - 0.05;
    let e = no(&g, at("a_x", beside, 40.0), Rule::Deployment);
    assert!(e.reason.contains("a_x would be deployed in contact with b_lt"), "{}", e.reason);
    ok(&g, at("a_x", beside - 0.1, 40.0));
    // Nor moved into contact by a second tag.
    let g1 = ok(&g, at("a_x", 30.0, 40.0));
    no(&g1, at("a_x", beside, 40.0), Rule::Deployment);
}

/// N4 Strategic Deployment: its owner, deployed first of its Fireteam and as its Team Leader,
/// deploys as if it had Forward Deployment (+4"), and then so does the rest of the Fireteam. A
/// member placed before the leader breaks it, for the leader and every member after; a member
/// with the skill whose leader lacks it gains nothing.
#[test]
fn strategic_deployment_takes_the_team_leader_first_and_then_its_fireteam_4_inches_forward() {
    let off =
        |id: &str, abilities: Value| with(t(id, 0.0, 0.0, 0.0), json!({"position": null, "abilities": abilities}));
    let build = |leader: &str| {
        let s = zones(setup(
            vec![vec![
                lt(t("a_lt", 2.0, 2.0, 90.0)),
                off("a_sd", json!(["strategic_deployment"])),
                off("a_m1", json!([])),
                off("a_m2", json!([])),
            ]],
            vec![vec![lt(t("b_lt", 40.0, 40.0, 270.0))]],
            json!([]),
        ));
        let members = json!(["a_sd", "a_m1", "a_m2"]);
        game(fireteams(s, "A", json!([{"id": "ft", "kind": "haris", "leader": leader, "members": members}])))
    };
    let r = r();
    let fwd = 16.0 - r; // 4" beyond A's zone, the base's far edge on the limit
    // The leader first, 4" forward; then the members.
    let g = build("a_sd");
    let e = no(&g, at("a_m1", 12.0, fwd), Rule::Deployment);
    assert!(e.reason.contains("a_sd deploys first of ft"), "{}", e.reason);
    let g1 = ok(&g, at("a_sd", 10.0, fwd));
    let g2 = ok(&g1, at("a_m1", 12.0, fwd));
    no(&g2, at("a_m2", 14.0, fwd + 0.01), Rule::Deployment);
    let g3 = ok(&g2, at("a_m2", 14.0, fwd));
    ok(&g3, json!({"type": "order_count"}));
    // A member placed first, inside the zone: then neither the leader nor the others go forward.
    let g1 = ok(&g, at("a_m1", 12.0, 6.0));
    let e = no(&g1, at("a_sd", 10.0, fwd), Rule::Deployment);
    assert!(e.reason.contains("a_m1 was deployed before it"), "{}", e.reason);
    let g2 = ok(&g1, at("a_sd", 10.0, 6.0));
    no(&g2, at("a_m2", 14.0, fwd), Rule::Deployment);
    // Re-tagging the leader later keeps its place in the order.
    let g1 = ok(&ok(&g, at("a_sd", 10.0, 6.0)), at("a_m1", 12.0, fwd));
    ok(&g1, at("a_sd", 10.0, fwd));
    // The skill on a member that does not lead: nothing.
    let g = build("a_m1");
    let e = no(&g, at("a_sd", 10.0, fwd), Rule::Deployment);
    assert!(e.reason.contains("a_sd has Strategic Deployment but ft's Team Leader is a_m1"), "{}", e.reason);
}
