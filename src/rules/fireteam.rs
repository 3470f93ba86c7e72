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
    /// Every type, in the rulebook's order.
    pub const ALL: [FireteamKind; 3] = [FireteamKind::Core, FireteamKind::Haris, FireteamKind::Duo];

    /// Fewest and most members (digest §7: Core 2–5 ✅, Haris 2–3 ⚠️, Duo 2 ⚠️).
    pub fn size(self) -> (usize, usize) {
        match self {
            FireteamKind::Core => (2, 5),
            FireteamKind::Haris => (2, 3),
            FireteamKind::Duo => (2, 2),
        }
    }

    /// How many of this type may be on the table at once, if limited, when the army does not say
    /// ([`FireteamLimits`]).
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

    /// The rulebook name, of more than one.
    pub fn plural(self) -> &'static str {
        match self {
            FireteamKind::Core => "Cores",
            FireteamKind::Haris => "Haris",
            FireteamKind::Duo => "Duos",
        }
    }
}

/// How many Fireteams of each type an army may have on the table at once, where its army says
/// (digest §7: the March 2022 Fireteams Chart ✅ "sets the maximum of each type on the table,
/// checked every time a Fireteam is created", per Sectorial — Morat, for one, may field 2 Haris;
/// a generic army's chart may allow no Core). A type left unset keeps sightline's default,
/// [`FireteamKind::max_per_army`] (one Core, `HARIS_PER_ARMY` Haris, any number of Duos).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireteamLimits {
    /// Most Core Fireteams, if the army sets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core: Option<usize>,
    /// Most Haris Fireteams, if the army sets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub haris: Option<usize>,
    /// Most Duos, if the army sets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duo: Option<usize>,
}

impl FireteamLimits {
    /// Whether no type is set (every default stands).
    pub fn is_unset(&self) -> bool {
        *self == FireteamLimits::default()
    }

    /// The army's own limit for `kind`, if it sets one.
    pub fn given(&self, kind: FireteamKind) -> Option<usize> {
        match kind {
            FireteamKind::Core => self.core,
            FireteamKind::Haris => self.haris,
            FireteamKind::Duo => self.duo,
        }
    }

    /// The army's own limit for `kind`, to change.
    pub fn given_mut(&mut self, kind: FireteamKind) -> &mut Option<usize> {
        match kind {
            FireteamKind::Core => &mut self.core,
            FireteamKind::Haris => &mut self.haris,
            FireteamKind::Duo => &mut self.duo,
        }
    }

    /// How many of `kind` the army may have on the table at once: its own limit, else the
    /// default; `None` for no limit.
    pub fn max(&self, kind: FireteamKind) -> Option<usize> {
        self.given(kind).or(kind.max_per_army())
    }

    /// Why `count` Fireteams of `kind` on the table at once are too many for this army (Fireteams:
    /// Types, and the army's Fireteams Chart where it sets the number), if they are.
    pub fn exceeded(&self, kind: FireteamKind, count: usize) -> Option<String> {
        let max = self.max(kind)?;
        let whose = if self.given(kind).is_some() { "this army's Fireteams Chart" } else { "Fireteams: Types" };
        (count > max).then(|| match max {
            0 => format!("this army may form no {} Fireteam ({whose})", kind.name()),
            _ => format!("more than {max} {} Fireteam(s) in one army ({whose})", kind.name()),
        })
    }

    /// "at most 1 Core, 2 Haris and any number of Duos".
    pub fn describe(&self) -> String {
        let each = FireteamKind::ALL.map(|k| match self.max(k) {
            Some(1) => format!("1 {}", k.name()),
            Some(n) => format!("{n} {}", k.plural()),
            None => format!("any number of {}", k.plural()),
        });
        format!("at most {}, {} and {}", each[0], each[1], each[2])
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

#[cfg(test)]
mod tests {
    use super::{FireteamKind, FireteamLimits};

    #[test]
    fn an_army_s_own_limits_replace_the_defaults_type_by_type() {
        let default = FireteamLimits::default();
        assert!(default.is_unset());
        assert_eq!(default.describe(), "at most 1 Core, 1 Haris and any number of Duos");
        assert_eq!(default.exceeded(FireteamKind::Haris, 1), None);
        let two = default.exceeded(FireteamKind::Haris, 2).expect("a second Haris is one too many by default");
        assert!(two.contains("more than 1 Haris") && two.contains("Fireteams: Types"), "{two}");
        assert_eq!(default.exceeded(FireteamKind::Duo, 40), None, "Duos are not limited by default");

        let chart = FireteamLimits { core: Some(0), haris: Some(2), duo: Some(3) };
        assert!(!chart.is_unset());
        assert_eq!(chart.describe(), "at most 0 Cores, 2 Haris and 3 Duos");
        assert_eq!(chart.exceeded(FireteamKind::Haris, 2), None);
        assert!(chart.exceeded(FireteamKind::Haris, 3).is_some_and(|w| w.contains("Fireteams Chart")));
        let core = chart.exceeded(FireteamKind::Core, 1).expect("no Core at all");
        assert!(core.contains("no Core"), "{core}");
        assert!(chart.exceeded(FireteamKind::Duo, 4).is_some());
        // A type the army leaves unset keeps its default.
        let haris_only = FireteamLimits { haris: Some(2), ..FireteamLimits::default() };
        assert_eq!(haris_only.max(FireteamKind::Core), Some(1));
        assert_eq!(haris_only.max(FireteamKind::Duo), None);
    }
}
