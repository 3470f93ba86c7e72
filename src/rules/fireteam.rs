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

/// One team of an army's Fireteams Chart (digest §7 "Common requirements": only troopers listed
/// as able to form Fireteams may join, "usually from the same unit unless the Sectorial chart says
/// otherwise"; the March 2022 chart ✅ gives each team's "minimum and maximum members and required
/// units"): which units may form it, how many of each, and which types it may be.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChartTeam {
    /// Its name in the chart ("Senku Fireteams").
    pub name: String,
    /// The types it may form. None for the chart's Wildcards, whose units may join any team
    /// (assumption `CHART_TYPELESS_TEAMS_ARE_WILDCARDS`).
    #[serde(default)]
    pub types: Vec<FireteamKind>,
    /// Its units, each with how many of them a Fireteam may hold.
    pub units: Vec<ChartUnit>,
    /// What the chart notes under the team (the army builder's `obs`): shown to the players, not
    /// checked.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// One unit of a [`ChartTeam`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChartUnit {
    /// The unit, as a trooper's `unit` names it (the army builder's unit slug, "senku-troops").
    pub unit: String,
    /// Its name in the chart ("SENKU").
    #[serde(default)]
    pub name: String,
    /// Fewest of it in the Fireteam.
    #[serde(default)]
    pub min: usize,
    /// Most of it in the Fireteam.
    pub max: usize,
    /// Whether a Fireteam of this team must hold a trooper of this unit, or of another unit marked
    /// so (the chart's "*").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub required: bool,
    /// What the chart says beside the row (a profile it is limited to, a Fireteam option, the
    /// unit it counts as, "(Senku)"): shown to the players, not checked.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
}

impl ChartUnit {
    /// "LINE* 1–5": its name in the chart (its unit when it has none), a star when required, its
    /// fewest and most.
    pub fn describe(&self) -> String {
        let name = if self.name.is_empty() { &self.unit } else { &self.name };
        format!("{name}{} {}–{}", if self.required { "*" } else { "" }, self.min, self.max)
    }

    /// [`ChartUnit::describe`] with the chart's comment on the row after it, if it has one:
    /// "SCOUTS 0–2 (Line)".
    pub fn describe_with_comment(&self) -> String {
        match self.comment.as_str() {
            "" => self.describe(),
            comment => format!("{} {comment}", self.describe()),
        }
    }
}

/// Why troopers of units `units` (one per member, in order, with the member's id) may not form a
/// `kind` Fireteam under the army's Fireteams Chart `chart`, if they may not: no team of the chart
/// that may be a `kind` takes them, each unit within its minimum and maximum and with a required
/// unit when the team has one (digest §7, the 2022 chart ✅). A chart with no teams allows any
/// troopers. Units are matched by name; the chart's comments (profiles a row is limited to, the
/// "FTO" options, tags that count as another unit for the bonus) are not read, so a team the chart
/// forbids by a comment alone is allowed (README, assumption "Fireteams Chart teams").
pub fn chart_problem(chart: &[ChartTeam], kind: FireteamKind, members: &[(&str, &str)]) -> Option<String> {
    if chart.is_empty() {
        return None;
    }
    let wildcards: Vec<&ChartUnit> = chart
        .iter()
        .filter(|t| t.types.is_empty() && super::assumptions::CHART_TYPELESS_TEAMS_ARE_WILDCARDS)
        .flat_map(|t| &t.units)
        .collect();
    let teams: Vec<&ChartTeam> = chart.iter().filter(|t| t.types.contains(&kind)).collect();
    let listing = |m: &[(&str, &str)]| m.iter().map(|(id, u)| format!("{id} ({u})")).collect::<Vec<_>>().join(", ");
    if teams.is_empty() {
        return Some(format!("this army's Fireteams Chart has no team that may be a {}", kind.name()));
    }
    // Each team's rows: its own units, then the Wildcards it does not name itself (only its own
    // have a minimum).
    let rows: Vec<Vec<(&ChartUnit, bool)>> = teams
        .iter()
        .map(|team| {
            let own = team.units.iter().map(|u| (u, true));
            let extra = wildcards.iter().filter(|w| !team.units.iter().any(|u| u.unit == w.unit)).map(|w| (*w, false));
            own.chain(extra).collect()
        })
        .collect();
    let strays: Vec<(&str, &str)> =
        members.iter().copied().filter(|(_, unit)| !rows.iter().flatten().any(|(r, _)| r.unit == *unit)).collect();
    if !strays.is_empty() {
        return Some(format!(
            "{}: no {} of this army's Fireteams Chart takes that unit",
            listing(&strays),
            kind.name()
        ));
    }
    if rows.iter().any(|r| fits(r, members)) {
        return None;
    }
    let described: Vec<String> = teams
        .iter()
        .map(|t| {
            let units: Vec<String> = t.units.iter().map(ChartUnit::describe).collect();
            format!("{} ({})", t.name, units.join(", "))
        })
        .collect();
    Some(format!(
        "no {} of this army's Fireteams Chart takes {} in those numbers: {}{}",
        kind.name(),
        listing(members),
        described.join("; "),
        if wildcards.is_empty() { "" } else { ", each with the chart's Wildcards" }
    ))
}

/// Whether `members` can each be given a row of `rows` (unit, whether the team names it itself)
/// of their own unit, with no row over its maximum, every own row at its minimum, and a required
/// row filled when the team has one. (At most five members: a plain search.)
fn fits(rows: &[(&ChartUnit, bool)], members: &[(&str, &str)]) -> bool {
    fn place(rows: &[(&ChartUnit, bool)], members: &[(&str, &str)], counts: &mut [usize]) -> bool {
        let Some(((_, unit), rest)) = members.split_first() else {
            let mins = rows.iter().zip(counts.iter()).all(|((r, own), &n)| !own || n >= r.min);
            let needs = rows.iter().any(|(r, own)| *own && r.required);
            let has = rows.iter().zip(counts.iter()).any(|((r, own), &n)| *own && r.required && n > 0);
            return mins && (!needs || has);
        };
        for (k, (row, _)) in rows.iter().enumerate() {
            if row.unit == *unit && counts[k] < row.max {
                counts[k] += 1;
                let ok = place(rows, rest, counts);
                counts[k] -= 1;
                if ok {
                    return true;
                }
            }
        }
        false
    }
    place(rows, members, &mut vec![0; rows.len()])
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
    use super::{ChartTeam, ChartUnit, FireteamKind, FireteamLimits, chart_problem};

    fn team(name: &str, types: &[FireteamKind], units: &[(&str, usize, usize, bool)]) -> ChartTeam {
        ChartTeam {
            name: name.into(),
            types: types.to_vec(),
            units: units
                .iter()
                .map(|&(unit, min, max, required)| ChartUnit {
                    unit: unit.into(),
                    name: unit.to_uppercase(),
                    min,
                    max,
                    required,
                    comment: String::new(),
                })
                .collect(),
            note: String::new(),
        }
    }

    #[test]
    fn a_fireteam_must_be_one_the_army_s_chart_lists_each_unit_within_its_numbers() {
        use FireteamKind::{Core, Duo, Haris};
        let chart = [
            team("Line", &[Haris, Core], &[("line", 1, 5, false), ("heavy", 0, 2, false), ("medic", 0, 1, false)]),
            team("Pair", &[Duo], &[("bot", 1, 2, false), ("line", 0, 1, false)]),
            team("Action", &[Duo, Haris], &[("scout", 0, 3, true), ("line", 0, 2, false)]),
            team("Wildcards", &[], &[("hero", 0, 1, false)]),
        ];
        let check = |kind, units: &[&str]| {
            let ids: Vec<String> = (1..=units.len()).map(|k| format!("a{k}")).collect();
            let members: Vec<(&str, &str)> = ids.iter().map(String::as_str).zip(units.iter().copied()).collect();
            chart_problem(&chart, kind, &members)
        };
        // No chart: any troopers.
        assert_eq!(chart_problem(&[], Core, &[("a1", "bot"), ("a2", "scout")]), None);
        // The team's own units, each within its numbers.
        assert_eq!(check(Core, &["line", "line", "line"]), None);
        assert_eq!(check(Core, &["line", "line", "heavy", "heavy", "medic"]), None);
        // A unit below its minimum (no LINE), or over its maximum (three HEAVY).
        let few = check(Core, &["heavy", "heavy", "medic"]).expect("Line needs a line trooper");
        assert!(few.contains("in those numbers") && few.contains("Line (LINE 1–5, HEAVY 0–2, MEDIC 0–1)"), "{few}");
        assert!(check(Core, &["line", "heavy", "heavy", "heavy"]).is_some());
        // A unit no team of that type names.
        let stray = check(Core, &["line", "bot"]).expect("no Core takes bots");
        assert!(stray.starts_with("a2 (bot): no Core"), "{stray}");
        // A Wildcard joins any team, up to its own maximum, and needs the team's own minimum met.
        assert_eq!(check(Core, &["line", "line", "hero"]), None);
        assert!(check(Core, &["line", "hero", "hero"]).is_some());
        assert!(check(Haris, &["hero", "heavy"]).is_some());
        // A team with a required unit ("*") needs one of it.
        assert_eq!(check(Duo, &["scout", "line"]), None);
        let required = check(Duo, &["line", "line"]).expect("Pair needs a bot, Action a scout");
        assert!(required.contains("SCOUT* 0–3"), "{required}");
        assert_eq!(check(Duo, &["bot", "line"]), None);
        // A type no team may be.
        let only_duos = [team("Pair", &[Duo], &[("bot", 1, 2, false)])];
        let none = chart_problem(&only_duos, Haris, &[("a1", "bot"), ("a2", "bot")]).expect("no Haris at all");
        assert!(none.contains("no team that may be a Haris"), "{none}");
    }

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
