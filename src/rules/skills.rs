//! The skill catalogue: each declarable N4 Common Skill with its kind, whether it is usable in ARO
//! and whether it needs LoF — as data (digest §5 "Common skills", seed 000 "Structure of an
//! Order"). Rows the digest marks ⚠️/❓ say so in [`Confidence`].
//!
//! Alert is an automatic skill (not declared, costs no Order) and so is not in the catalogue.

use serde::Serialize;

/// How a skill fits into an Order (seed 000, "Structure of an Order").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkillKind {
    /// Short Movement Skill: may be declared twice, or with another Short Movement Skill, or with
    /// one Short Skill.
    ShortMovement,
    /// Short Skill: only with one Short Movement Skill; never twice, never with another Short Skill.
    Short,
    /// Entire Order: the whole Order, combined with nothing.
    EntireOrder,
}

/// How sure the digest is of a catalogue row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// Seen in an N4 source (✅).
    Confirmed,
    /// Inferred, or seen in N3/N5 text only (⚠️).
    Inferred,
    /// Not confirmed (❓): a named assumption.
    Unconfirmed,
}

/// How far a movement skill may take the trooper: its route's length is checked against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    /// Not checked: not a movement skill.
    Unchecked,
    /// Move (✅ N4 Move): up to the first MOV value; declared again in the same Order, up to the
    /// second.
    MovValues,
    /// Up to the first MOV value (Cautious Movement, ✅ N4 Cautious Movement).
    FirstMov,
    /// Up to [`super::assumptions::DODGE_MOVE_IN`] (Dodge, ⚠️ N3).
    Dodge,
    /// Up to the first MOV value, over the table and up or down together, measured as N4 FAQ 1.3
    /// has it ([`crate::geometry::leap_length`]; Climb and Jump, ✅ N4 Climb and Jump).
    Leap,
    /// Up to both MOV values added together (Berserk, ✅ N4 Berserk: "The Move can be as far as
    /// both values of his MOV Attribute added together").
    BothMov,
}

/// One skill of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Skill {
    /// The name used in game files (`"bs_attack"`).
    pub id: &'static str,
    /// The rulebook name.
    pub name: &'static str,
    /// Short Movement, Short or Entire Order.
    pub kind: SkillKind,
    /// Usable in ARO (seed 000: "only Skills that specifically state they are usable in ARO").
    pub aro: bool,
    /// Needs LoF to its target (checked when declared: seed 000 FAQ "LoF Requirements are checked
    /// when declaring the Skill").
    pub needs_lof: bool,
    /// It is an Attack (what Sixth Sense and Alert answer to).
    pub attack: bool,
    /// It is a Comms Attack (its target may ARO without LoF: seed 001).
    pub comms_attack: bool,
    /// It moves the trooper (its route is declared and the trooper placed at its end).
    pub moves: bool,
    /// How far it may move the trooper.
    pub reach: Reach,
    /// It may take the trooper over terrain taller than its Silhouette (Climb, Jump); any other
    /// movement skill only vaults what is no taller (N4 General Movement Rules).
    pub over_obstacles: bool,
    /// Allowed while in Retreat! (digest §4: Short Movement Skills, Cautious Movement, Dodge, Reset).
    pub in_retreat: bool,
    /// Allowed while Engaged (N4 Engaged State, PDF 2.1: "can only declare Berserk, CC Attack,
    /// Dodge, Idle, Reset, and Skills that specify that they can be used in Close Combat or in
    /// Engaged State"; of the catalogue, Berserk, CC Attack, Dodge, Idle and Reset).
    pub when_engaged: bool,
    /// How sure the row is.
    pub confidence: Confidence,
}

const fn skill(id: &'static str, name: &'static str, kind: SkillKind, aro: bool, needs_lof: bool) -> Skill {
    Skill {
        id,
        name,
        kind,
        aro,
        needs_lof,
        attack: false,
        comms_attack: false,
        moves: false,
        reach: Reach::Unchecked,
        over_obstacles: false,
        in_retreat: matches!(kind, SkillKind::ShortMovement),
        when_engaged: false,
        confidence: Confidence::Confirmed,
    }
}

const fn unsure(mut s: Skill, c: Confidence) -> Skill {
    s.confidence = c;
    s
}

const fn moving(mut s: Skill, reach: Reach) -> Skill {
    s.moves = true;
    s.reach = reach;
    s
}

const fn over_obstacles(mut s: Skill) -> Skill {
    s.over_obstacles = true;
    s
}

const fn attack(mut s: Skill) -> Skill {
    s.attack = true;
    s
}

const fn in_close_combat(mut s: Skill) -> Skill {
    s.when_engaged = true;
    s
}

/// The names of the skills allowed while Engaged, for messages ("CC Attack, Dodge, Reset, Idle").
pub fn when_engaged_names() -> String {
    CATALOGUE.iter().filter(|s| s.when_engaged).map(|s| s.name).collect::<Vec<_>>().join(", ")
}

const fn retreat_ok(mut s: Skill) -> Skill {
    s.in_retreat = true;
    s
}

use SkillKind::{EntireOrder, Short, ShortMovement};

/// The catalogue (digest §5 table).
pub const CATALOGUE: &[Skill] = &[
    moving(skill("move", "Move", ShortMovement, false, false), Reach::MovValues),
    skill("discover", "Discover", ShortMovement, true, true),
    attack(skill("bs_attack", "BS Attack", Short, true, true)),
    unsure(in_close_combat(attack(skill("cc_attack", "CC Attack", Short, true, false))), Confidence::Inferred),
    unsure(
        in_close_combat(retreat_ok(moving(skill("dodge", "Dodge", Short, true, false), Reach::Dodge))),
        Confidence::Inferred,
    ),
    unsure(in_close_combat(retreat_ok(skill("reset", "Reset", Short, true, false))), Confidence::Inferred),
    unsure(in_close_combat(skill("idle", "Idle", ShortMovement, true, false)), Confidence::Inferred),
    unsure(
        retreat_ok(moving(skill("cautious_movement", "Cautious Movement", EntireOrder, false, false), Reach::FirstMov)),
        Confidence::Inferred,
    ),
    unsure(
        over_obstacles(moving(skill("climb", "Climb", EntireOrder, false, false), Reach::Leap)),
        Confidence::Inferred,
    ),
    // An Entire Order: N4 Super-Jump "alters the user's Jump Skill from an Entire Order Skill to a
    // Short Movement Skill" (for its users, `Game::as_declared`).
    unsure(over_obstacles(moving(skill("jump", "Jump", EntireOrder, false, false), Reach::Leap)), Confidence::Inferred),
    // N4 Berserk (a CC Special Skill, <https://infinitythewiki.com/index.php?title=Berserk&diff=2122&oldid=2053>,
    // the N4 text; PDF 2.1 adds the CC Attack label): an Entire Order of Move + CC Attack; its
    // target in LoF when declared; allowed while Engaged (N4 Engaged State, PDF 2.1, and its
    // Errata). For troopers with the ability (`Game::declarable`).
    in_close_combat(attack(moving(skill("berserk", "Berserk", EntireOrder, false, true), Reach::BothMov))),
    attack(skill("intuitive_attack", "Intuitive Attack", EntireOrder, false, false)),
    attack(skill("speculative_attack", "Speculative Attack", EntireOrder, false, false)),
    unsure(skill("suppressive_fire", "Suppressive Fire", EntireOrder, false, false), Confidence::Unconfirmed),
    unsure(skill("look_out", "Look Out!", Short, true, false), Confidence::Unconfirmed),
    unsure(skill("place_deployable", "Place Deployable", Short, true, false), Confidence::Unconfirmed),
    {
        let mut s = attack(skill("hacking", "Hacking Program (Comms Attack)", Short, true, false));
        s.comms_attack = true;
        s.confidence = Confidence::Inferred;
        s
    },
];

/// The skill named `id` in game files.
pub fn find(id: &str) -> Option<&'static Skill> {
    CATALOGUE.iter().find(|s| s.id == id)
}

/// The ids of every catalogued skill, for messages.
pub fn ids() -> String {
    CATALOGUE.iter().map(|s| s.id).collect::<Vec<_>>().join(", ")
}

/// Why two skills cannot share one Order (seed 000 "Structure of an Order"), or `None` if they can.
pub fn combination_error(first: &Skill, second: &Skill) -> Option<&'static str> {
    match (first.kind, second.kind) {
        (EntireOrder, _) | (_, EntireOrder) => Some("an Entire Order skill cannot be combined with any other skill"),
        (Short, Short) => Some("two Short Skills cannot be declared in one Order (a Short Skill never twice)"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structure_of_an_order_combinations() {
        let mv = find("move").expect("move");
        let bs = find("bs_attack").expect("bs");
        let disc = find("discover").expect("discover");
        let cautious = find("cautious_movement").expect("cautious");
        let dodge = find("dodge").expect("dodge");
        assert_eq!(combination_error(mv, mv), None, "Move + Move");
        assert_eq!(combination_error(mv, disc), None, "Move + Discover");
        assert_eq!(combination_error(mv, bs), None, "Move + BS Attack");
        assert_eq!(combination_error(bs, mv), None, "BS Attack + Move");
        assert!(combination_error(bs, bs).is_some(), "BS Attack twice");
        assert!(combination_error(bs, dodge).is_some(), "two Short Skills");
        assert!(combination_error(cautious, mv).is_some(), "Entire Order + Move");
        assert!(combination_error(mv, cautious).is_some(), "Move + Entire Order");
    }

    #[test]
    fn catalogue_ids_are_unique_and_aro_skills_are_not_entire_orders() {
        for (i, s) in CATALOGUE.iter().enumerate() {
            assert!(CATALOGUE[i + 1..].iter().all(|o| o.id != s.id), "{} twice", s.id);
            assert!(!(s.aro && s.kind == EntireOrder), "{} is an Entire Order usable in ARO", s.id);
        }
        assert!(!find("move").expect("move").aro, "Move is not usable in ARO");
        assert!(find("bs_attack").expect("bs").needs_lof);
    }
}
