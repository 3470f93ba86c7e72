//! Helpers shared by the tests: small setups written as JSON, apply-or-fail, army codes, a seeded
//! random source.

#![allow(dead_code)]

use proptest::prelude::Rng as _;
use proptest::test_runner::{RngAlgorithm, TestRng};
use serde_json::{Value, json};
use sightline::rules::{Event, Game, Rejection, Rule, Setup};
use sightline::store::army_code::{ArmyCode, CodeGroup, CodeMember, Layout};

/// A trooper entry.
pub fn t(id: &str, x: f64, y: f64, facing: f64) -> Value {
    json!({"id": id, "silhouette": 2, "points": 10, "position": {"x": x, "y": y, "facing": facing}})
}

/// `base` with extra fields merged in.
pub fn with(mut base: Value, extra: Value) -> Value {
    if let (Value::Object(b), Value::Object(e)) = (&mut base, extra) {
        b.extend(e);
    }
    base
}

/// A setup from the two armies' groups (each a list of groups, each a list of troopers) and terrain.
pub fn setup(a_groups: Vec<Vec<Value>>, b_groups: Vec<Vec<Value>>, terrain: Value) -> Value {
    let army = |groups: Vec<Vec<Value>>| json!({"groups": groups.into_iter().map(|g| json!({"troopers": g})).collect::<Vec<_>>()});
    json!({"table": {"width": 48, "depth": 48}, "terrain": terrain, "first": "A", "armies": {"A": army(a_groups), "B": army(b_groups)}})
}

/// Add Fireteams to a side of a setup.
pub fn fireteams(mut s: Value, side: &str, teams: Value) -> Value {
    s["armies"][side]["fireteams"] = teams;
    s
}

/// A game from a setup value; panics with the setup error.
pub fn game(setup: Value) -> Game {
    let s: Setup = serde_json::from_value(setup).expect("setup JSON");
    Game::new(s).unwrap_or_else(|e| panic!("setup rejected: {e}"))
}

/// Parse an event.
pub fn ev(e: Value) -> Event {
    serde_json::from_value(e.clone()).unwrap_or_else(|err| panic!("bad event {e}: {err}"))
}

/// Apply an event that must be accepted.
#[track_caller]
pub fn ok(g: &Game, e: Value) -> Game {
    g.apply(&ev(e.clone())).unwrap_or_else(|r| panic!("{e} rejected: {r}"))
}

/// Apply an event that must be rejected under `rule`; the game must be unchanged.
#[track_caller]
pub fn no(g: &Game, e: Value, rule: Rule) -> Rejection {
    match g.apply(&ev(e.clone())) {
        Ok(_) => panic!("{e} accepted; expected a rejection under {}", rule.name()),
        Err(r) => {
            assert_eq!(r.rule, rule, "{e}: rejected under {:?} ({}), expected {:?}", r.rule, r.reason, rule);
            r
        }
    }
}

/// Apply a list of events that must all be accepted.
#[track_caller]
pub fn run(g: &Game, events: Vec<Value>) -> Game {
    let mut g = g.clone();
    for e in events {
        g = ok(&g, e);
    }
    g
}

/// Order Count (and skip an Impetuous Phase if there is one).
pub fn start_orders(g: &Game) -> Game {
    let g = ok(g, json!({"type": "order_count"}));
    if g.phase() == sightline::rules::Phase::Impetuous { ok(&g, json!({"type": "end_impetuous_phase"})) } else { g }
}

/// Ids of the troopers that may declare an ARO now.
pub fn eligible(g: &Game) -> Vec<String> {
    g.order().map(|o| o.eligible_now().into_iter().map(|(id, _)| id.clone()).collect()).unwrap_or_default()
}

/// The reasons of one eligible trooper, as their JSON tags ("lof", "zoc", ...).
pub fn reasons(g: &Game, id: &str) -> Vec<String> {
    let Some(o) = g.order() else { return Vec::new() };
    o.eligible_now()
        .into_iter()
        .filter(|(t, _)| *t == id)
        .flat_map(|(_, rs)| {
            rs.iter().map(|r| serde_json::to_value(r).expect("json")["why"].as_str().unwrap_or("").to_string())
        })
        .collect()
}

/// Lieutenant ability.
pub fn lt(v: Value) -> Value {
    with(v, json!({"abilities": ["lieutenant"]}))
}

/// A code with these groups of (unit, profile group, option).
pub fn army_code(groups: &[&[(u16, u16, u16)]]) -> ArmyCode {
    ArmyCode {
        sectorial_id: 9999,
        sectorial_slug: "invented".into(),
        name: " ".into(),
        points_limit: 300,
        layout: Layout::V1,
        groups: groups
            .iter()
            .enumerate()
            .map(|(g, members)| CodeGroup {
                number: g as u16 + 1,
                flag: Some(0),
                reinforcement: None,
                members: members
                    .iter()
                    .enumerate()
                    .map(|(k, &(unit_id, group_id, option_id))| CodeMember {
                        slot: k as u16 + 1,
                        unit_id,
                        group_id,
                        option_id,
                        extensions: Vec::new(),
                    })
                    .collect(),
            })
            .collect(),
        skipped_block: false,
    }
}

/// A random source for tests that draw their own cases: proptest's ChaCha generator from `seed`,
/// so a failure repeats with the same seed.
pub struct Rng(TestRng);

impl Rng {
    pub fn new(seed: u64) -> Self {
        let bytes = seed.to_le_bytes();
        Rng(TestRng::from_seed(RngAlgorithm::ChaCha, &std::array::from_fn::<u8, 32, _>(|i| bytes[i % 8])))
    }
    /// A whole number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n.max(1) as u64) as usize
    }
    /// A number in [0, 1).
    pub fn unit(&mut self) -> f32 {
        (self.0.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    /// A number in [lo, hi).
    pub fn within(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

/// Environment variable `name` as a whole number, or `default`.
pub fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}
