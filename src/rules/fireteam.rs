//! Fireteams (digest §7; seed 003 "Fireteam Integrity"): types and their sizes, the bonus table as
//! data, and why a member leaves or a Fireteam is cancelled.

use serde::{Deserialize, Serialize};

/// The N4 Fireteam types (digest §7 "Types").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FireteamKind {
    /// Fireteam: Core, 2–5 members, one per army.
    Core,
    /// Fireteam: Haris, 2–3 members (count per army: assumption `HARIS_PER_ARMY`).
    Haris,
    /// Fireteam: Duo, exactly 2 members, any number.
    Duo,
}

impl FireteamKind {
    /// Fewest and most members (digest §7: Core 2–5 ✅, Haris 2–3 ⚠️, Duo 2 ⚠️).
    pub fn size(self) -> (usize, usize) {
        match self {
            FireteamKind::Core => (2, 5),
            FireteamKind::Haris => (2, 3),
            FireteamKind::Duo => (2, 2),
        }
    }

    /// How many of this type may be on the table at once, if limited.
    pub fn max_per_army(self) -> Option<usize> {
        match self {
            FireteamKind::Core => Some(super::assumptions::CORE_PER_ARMY),
            FireteamKind::Haris => Some(super::assumptions::HARIS_PER_ARMY),
            FireteamKind::Duo => None,
        }
    }

    /// The rulebook name.
    pub fn name(self) -> &'static str {
        match self {
            FireteamKind::Core => "Core",
            FireteamKind::Haris => "Haris",
            FireteamKind::Duo => "Duo",
        }
    }
}

/// A Fireteam on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fireteam {
    /// Its id.
    pub id: String,
    /// Its type.
    pub kind: FireteamKind,
    /// Team Leader (the Coherency reference).
    pub leader: String,
    /// Current members, the leader included.
    pub members: Vec<String>,
    /// Troopers that left and may rejoin at the next Order Count if in Coherency (seed 003).
    pub left: Vec<String>,
    /// Set when the Fireteam is to be cancelled at the end of the current Order (digest §7
    /// "Fireteam Cancellation" cases 1 and 2), with why.
    pub cancel_at_end_of_order: Option<String>,
}

/// One row of the bonus table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BonusRow {
    /// Members needed.
    pub members: usize,
    /// What the row gives.
    pub bonus: &'static str,
    /// Whether the digest confirms the row (✅) or not.
    pub confirmed: bool,
}

/// `FIRETEAM_BONUSES` (digest §7 "Fireteam bonuses", N4 original text of Oct 2020; the 5-member
/// row and the 2022 split into size and composition tracks are unconfirmed ❓). Cumulative: a
/// Fireteam has every row up to its member count.
pub const FIRETEAM_BONUSES: &[BonusRow] = &[
    BonusRow { members: 2, bonus: "the whole Fireteam activates with one Order", confirmed: true },
    BonusRow {
        members: 3,
        bonus: "+1 Burst to BS weapons (Active Turn: the Team Leader; Reactive Turn: every member)",
        confirmed: true,
    },
    BonusRow {
        members: 4,
        bonus: "Sixth Sense (Active Turn: the Team Leader; Reactive Turn: every member)",
        confirmed: true,
    },
    BonusRow { members: 5, bonus: "+1 BS Attack Rolls (unconfirmed reading of the 2022 chart)", confirmed: false },
];

/// The bonuses of a Fireteam of `members` members.
pub fn bonuses(members: usize) -> Vec<&'static str> {
    FIRETEAM_BONUSES.iter().filter(|r| r.members <= members).map(|r| r.bonus).collect()
}

/// Whether a Fireteam of `members` members gives its members Sixth Sense (the 4-member row).
pub fn gives_sixth_sense(members: usize) -> bool {
    members >= 4
}
