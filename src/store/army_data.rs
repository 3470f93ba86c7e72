//! Corvus Belli's army data, and an army code turned into an army of troopers with it.
//!
//! An army code ([`super::army_code`]) names each trooper by ids only. What those ids mean —
//! names, Silhouette, MOV, training, skills, points — is in the army data the official army
//! builder loads for an army or sectorial army (`https://api.corvusbelli.com/army/units/en/ID`,
//! ID being the code's sectorial id). That data belongs to Corvus Belli and is not shipped with
//! sightline: a player saves their army's file once from the builder and points sightline at it.
//!
//! The parts read here (all else in the file is ignored):
//! - `units[]`: `id`, `isc`, `profileGroups[]` with `id`, `isc`, `profiles[]` (`name`, `s` the
//!   Silhouette, `move` the MOV in centimetres, `type`, `chars`, `skills`, `equip`) and
//!   `options[]` (`id`, `name`, `points`, `orders[]` of `{type, total}`, `chars`, `skills`,
//!   `equip`, `includes[]` of `{q, group, option}`: the troopers an option brings with it).
//!   A unit may also sell a team as one option of its own (`units[].options`), its troopers in
//!   `includes` (assumption `TEAM_OPTION`, at [`army_from_code`]).
//! - `filters`: the names behind the ids: `skills`, `equip`, `chars`, `type`, `extras`. They are
//!   matched in English, so data in another language is refused ([`ArmyData::from_json`]).
//! - `fireteamChart`: its `spec`, how many Fireteams of each type the army may have on the table
//!   (`CORE`, `HARIS`, `DUO`), kept as the army's `fireteam_limits`; and its `teams[]` (`name`,
//!   `type[]`, `units[]` of `{slug, name, min, max, required}`: which units may form which
//!   Fireteams), kept as the army's `fireteam_chart`, each trooper keeping its unit's `slug`.
//!
//! How a member becomes a [`TrooperSetup`] (each rule is in [`army_from_code`]'s docs), and what
//! cannot be known from the data, said in [`Imported::notes`]: Fireteams (codes carry none), a
//! reinforcement Combat Group (left out), a profile group with several profiles (the first is
//! taken), a trooper an option brings that is not a Peripheral (a TAG's operator: left out).

use super::army_code::ArmyCode;
use crate::geometry::Silhouette;
use crate::rules::{
    Ability, Army, ChartTeam, ChartUnit, CombatGroup, FireteamKind, FireteamLimits, LieutenantOption, State, Training,
    TrooperSetup,
};
use serde::Deserialize;
use std::collections::HashMap;

/// Where the army builder's data for the army or sectorial army `sectorial_id` is published
/// (English names): the file a player saves once, for [`ArmyData::from_json`].
pub fn data_url(sectorial_id: u16) -> String {
    format!("https://api.corvusbelli.com/army/units/en/{sectorial_id}")
}

/// Centimetres per inch in Infinity's metric profiles (N4: 4" is written 10 cm, so MOV 10-5 cm
/// is 4-2"). The army data gives MOV and Forward Deployment in these centimetres.
pub const CM_PER_INCH: f64 = 2.5;

/// One army's data, as the army builder loads it, read for what sightline needs.
#[derive(Debug, Clone)]
pub struct ArmyData {
    units: HashMap<u16, Unit>,
    names: Names,
    /// How many Fireteams of each type its Fireteams Chart allows, or why they could not be
    /// read (`None` when it has no chart).
    fireteam_limits: Option<Result<FireteamLimits, String>>,
    /// Its Fireteams Chart's teams, or why they could not be read (`None` when it has no chart).
    chart_teams: Option<Result<Vec<ChartTeam>, String>>,
}

#[derive(Debug, Clone, Deserialize)]
struct RawData {
    units: Vec<Unit>,
    #[serde(default)]
    filters: Filters,
    /// The Fireteams Chart, read leniently ([`chart_limits`]): a chart sightline cannot read
    /// costs its numbers, never the import.
    #[serde(default, rename = "fireteamChart")]
    fireteam_chart: Option<serde_json::Value>,
}

/// How many Fireteams of each type the army data's Fireteams Chart allows on the table at once:
/// its `spec`, `{"CORE": 1, "HARIS": 2, "DUO": 256}` (digest §7, the 2022 chart ✅; a number
/// written as text is read too). A type it does not name keeps sightline's default; its other
/// types (none in N4) are left out. The chart's teams are read by [`chart_teams`].
fn chart_limits(chart: &serde_json::Value) -> Result<FireteamLimits, String> {
    let spec = chart
        .get("spec")
        .and_then(|s| s.as_object())
        .ok_or("fireteamChart.spec: missing (the numbers of each type of Fireteam)")?;
    let mut limits = FireteamLimits::default();
    for (key, value) in spec {
        let Some(kind) = FireteamKind::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(key)) else {
            continue;
        };
        let n =
            count(value).ok_or_else(|| format!("fireteamChart.spec.{key}: {value} is not a number of Fireteams"))?;
        *limits.given_mut(kind) = Some(n);
    }
    Ok(limits)
}

/// A count in the army data: a number, or a number written as text.
fn count(value: &serde_json::Value) -> Option<usize> {
    value.as_u64().or_else(|| value.as_str().and_then(|t| t.trim().parse().ok())).and_then(|n| usize::try_from(n).ok())
}

/// The teams of the army data's Fireteams Chart (digest §7, the 2022 chart ✅): `teams[]`, each
/// with its `name`, the types it may form (`type`: `["HARIS", "CORE"]`; none for the chart's
/// Wildcards) and its `units[]` (`slug`, `name`, `min`, `max`, `required`). A team whose types
/// are all of other kinds (none in N4), or that lists no units, is left out. No `teams`: none (any troopers may form a
/// Fireteam). The error names the field.
fn chart_teams(chart: &serde_json::Value) -> Result<Vec<ChartTeam>, String> {
    let Some(teams) = chart.get("teams") else { return Ok(Vec::new()) };
    let teams = teams.as_array().ok_or("fireteamChart.teams: not a list of teams")?;
    let mut out = Vec::new();
    for (i, team) in teams.iter().enumerate() {
        let at = format!("fireteamChart.teams[{i}]");
        let name = team.get("name").and_then(|n| n.as_str()).map(tidy).unwrap_or_default();
        let named: Vec<&str> = match team.get("type") {
            None | Some(serde_json::Value::Null) => Vec::new(),
            Some(t) => t
                .as_array()
                .and_then(|l| l.iter().map(|k| k.as_str()).collect::<Option<Vec<_>>>())
                .ok_or_else(|| format!("{at}.type: {t} is not a list of Fireteam types"))?,
        };
        let types: Vec<FireteamKind> = FireteamKind::ALL
            .into_iter()
            .filter(|k| named.iter().any(|n| k.name().eq_ignore_ascii_case(n.trim())))
            .collect();
        if types.is_empty() && !named.is_empty() {
            continue;
        }
        let rows = team.get("units").and_then(|u| u.as_array()).ok_or_else(|| format!("{at}.units: missing"))?;
        let mut units = Vec::new();
        for (j, row) in rows.iter().enumerate() {
            let at = format!("{at}.units[{j}]");
            let text = |key: &str| row.get(key).and_then(|v| v.as_str()).map(str::trim).unwrap_or_default();
            let unit = text("slug");
            if unit.is_empty() {
                return Err(format!("{at}.slug: missing (the unit this row lets join)"));
            }
            let number = |key: &str, default: Option<usize>| match row.get(key) {
                None | Some(serde_json::Value::Null) => default.ok_or_else(|| format!("{at}.{key}: missing")),
                Some(v) => count(v).ok_or_else(|| format!("{at}.{key}: {v} is not a number of troopers")),
            };
            let (min, max) = (number("min", Some(0))?, number("max", None)?);
            if min > max {
                return Err(format!("{at}: min {min} is more than max {max}"));
            }
            let required = row.get("required").and_then(|r| r.as_bool()).unwrap_or(false);
            let (name, comment) = (tidy(text("name")), tidy(text("comment")));
            units.push(ChartUnit { unit: unit.into(), name, min, max, required, comment });
        }
        // (A team with no units lets nobody form it, nor lends a Wildcard: left out, as the setup
        // refuses one.)
        if !units.is_empty() {
            let note = tidy(team.get("obs").and_then(|o| o.as_str()).unwrap_or_default());
            out.push(ChartTeam { name, types, units, note });
        }
    }
    Ok(out)
}

#[derive(Debug, Clone, Deserialize)]
struct Unit {
    id: u16,
    #[serde(default)]
    isc: String,
    /// The unit's name in the Fireteams Chart's rows.
    #[serde(default)]
    slug: String,
    #[serde(default, rename = "profileGroups")]
    profile_groups: Vec<ProfileGroup>,
    /// Teams sold as one option (their troopers in `includes`).
    #[serde(default)]
    options: Vec<UnitOption>,
}

#[derive(Debug, Clone, Deserialize)]
struct ProfileGroup {
    id: u16,
    #[serde(default)]
    profiles: Vec<Profile>,
    #[serde(default)]
    options: Vec<UnitOption>,
}

#[derive(Debug, Clone, Deserialize)]
struct Profile {
    #[serde(default)]
    name: String,
    /// Silhouette value.
    s: u8,
    /// MOV, centimetres.
    #[serde(default, rename = "move")]
    mov: Vec<f64>,
    #[serde(default, rename = "type")]
    kind: Option<u16>,
    #[serde(default)]
    chars: Vec<u16>,
    #[serde(default)]
    skills: Vec<Item>,
    #[serde(default)]
    equip: Vec<Item>,
}

#[derive(Debug, Clone, Deserialize)]
struct UnitOption {
    id: u16,
    #[serde(default)]
    name: String,
    #[serde(default)]
    points: u32,
    #[serde(default)]
    orders: Vec<OrderEntry>,
    #[serde(default)]
    chars: Vec<u16>,
    #[serde(default)]
    skills: Vec<Item>,
    #[serde(default)]
    equip: Vec<Item>,
    #[serde(default)]
    includes: Vec<Include>,
}

/// A skill or piece of equipment: its id, and the ids of its extras ("+1 Order", "+10").
#[derive(Debug, Clone, Deserialize)]
struct Item {
    id: u16,
    #[serde(default)]
    extra: Vec<u16>,
}

#[derive(Debug, Clone, Deserialize)]
struct OrderEntry {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    total: u32,
}

#[derive(Debug, Clone, Deserialize)]
struct Include {
    #[serde(default = "one")]
    q: u32,
    group: u16,
    option: u16,
}

fn one() -> u32 {
    1
}

#[derive(Debug, Clone, Default, Deserialize)]
struct Filters {
    #[serde(default)]
    skills: Vec<Named>,
    #[serde(default)]
    equip: Vec<Named>,
    #[serde(default)]
    chars: Vec<Named>,
    #[serde(default, rename = "type")]
    types: Vec<Named>,
    #[serde(default)]
    extras: Vec<Named>,
}

#[derive(Debug, Clone, Deserialize)]
struct Named {
    id: u16,
    name: String,
}

/// The names behind the ids, normalised for matching (lower case, single plain spaces: the data
/// writes "Strategic\u{a0}Deployment" with a no-break space).
#[derive(Debug, Clone, Default)]
struct Names {
    skills: HashMap<u16, String>,
    equip: HashMap<u16, String>,
    chars: HashMap<u16, String>,
    types: HashMap<u16, String>,
    extras: HashMap<u16, String>,
}

fn normalise(name: &str) -> String {
    tidy(name).to_lowercase()
}

/// A name with single plain spaces ("LINER  (Old  Name)" is "LINER (Old Name)").
fn tidy(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn table(list: &[Named]) -> HashMap<u16, String> {
    list.iter().map(|n| (n.id, normalise(&n.name))).collect()
}

/// Army data that cannot be read, naming the field (`units[3].profileGroups[0].profiles[0].s`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{at}: {reason}")]
pub struct DataError {
    /// Where in the file.
    pub at: String,
    /// What is wrong.
    pub reason: String,
}

impl ArmyData {
    /// Read the army data file's text: JSON with units, and the English names behind the ids
    /// (every army's data names a Lieutenant; data in another language is refused, as its
    /// abilities would not be found).
    pub fn from_json(text: &str) -> Result<ArmyData, DataError> {
        if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
            return Err(DataError { at: "army data".into(), reason: format!("not JSON: {e}") });
        }
        let raw: RawData = crate::geometry::from_json_at(text).map_err(|(at, reason)| DataError {
            at: at.unwrap_or_else(|| "army data".into()),
            reason: format!(
                "{reason} (expected the army builder's data for one army: {{\"units\": [...], \"filters\": {{...}}}})"
            ),
        })?;
        if raw.units.is_empty() {
            return Err(DataError { at: "units".into(), reason: "no units: this is not an army's data".into() });
        }
        let f = &raw.filters;
        // Skills are matched by their English names: data in another language would lose every
        // ability without a word. Every army has a Lieutenant, so the English data names one.
        if !f.skills.iter().any(|n| normalise(&n.name) == "lieutenant") {
            return Err(DataError {
                at: "filters.skills".into(),
                reason: if f.skills.is_empty() {
                    "missing: the names behind the skills' ids are needed (save the builder's whole file)".into()
                } else {
                    "no skill is named \"Lieutenant\": sightline reads the English data (the address ends in /en/ and the army's id)"
                        .into()
                },
            });
        }
        let names = Names {
            skills: table(&f.skills),
            equip: table(&f.equip),
            chars: table(&f.chars),
            types: table(&f.types),
            extras: table(&f.extras),
        };
        // (An empty chart, `{}` or `[]`, is no chart.)
        let empty = |c: &&serde_json::Value| {
            c.as_object().is_some_and(|o| o.is_empty()) || c.as_array().is_some_and(|a| a.is_empty())
        };
        let chart = raw.fireteam_chart.as_ref().filter(|c| !empty(c));
        let (fireteam_limits, chart_teams) = (chart.map(chart_limits), chart.map(chart_teams));
        Ok(ArmyData { units: raw.units.into_iter().map(|u| (u.id, u)).collect(), names, fireteam_limits, chart_teams })
    }

    /// How many units it describes.
    pub fn unit_count(&self) -> usize {
        self.units.len()
    }
}

/// An army made from a code: the army, and what the player should know about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The army, its troopers off the table (tagged when they deploy).
    pub army: Army,
    /// What was left out or could not be known, one sentence each.
    pub notes: Vec<String>,
    /// What the code says the list is: its army's slug, its name (trimmed; often empty) and its
    /// points limit, as `shindenbutai, "Night Watch", 300 points`.
    pub title: String,
}

/// A member of a code that the army data does not describe.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{place}: {reason}")]
pub struct ImportError {
    /// "Combat Group 1, member 3 (unit 1818, profile 1, option 2)".
    pub place: String,
    /// What is missing or wrong.
    pub reason: String,
}

/// Make the army a code describes, with the army data of the code's army.
///
/// Trooper ids are `id_prefix` and a count from 1 (`a1`, `a2` …). Each member becomes a trooper:
/// - its name is the option's (`METSUKE`), else its profile's;
/// - its Silhouette is the profile's `s`, its MOV the profile's `move` divided by
///   [`CM_PER_INCH`], its points the option's;
/// - it is Irregular when its characteristics say Irregular or its only Orders are Irregular,
///   else Regular;
/// - its abilities are read from its profile's and option's skills, equipment, characteristics,
///   type and Orders: Lieutenant (a Lieutenant Order; two are the "+1 Order" option, a "Command
///   Token" extra the other), NCO, Tactical Awareness (or a Tactical Order), Impetuous (the
///   characteristic, not "Not Impetuous", or an Impetuous Order), Sixth Sense, Hacker (the skill
///   or any Hacking Device), Repeater, a 360° Visor, Courage / Religious Troop / Veteran (ignores
///   Retreat!), REM (its type), Forward Deployment (+10 cm is +4", +20 cm +8"), Strategic
///   Deployment, Impersonation, Infiltration (and Superior Infiltration), Stealth, Super-Jump,
///   Climbing Plus, Berserk; Hidden Deployment, Combat Jump, Parachutist, Mechanized Deployment
///   and the Airborne skills as deploying outside its zone;
/// - Camouflage starts it as a Camouflage marker, Impersonation as an Impersonation marker (both
///   optional in the rules, and noted);
/// - the troopers its option includes follow it: a Peripheral (by characteristic or skill) as a
///   Peripheral it controls, `q` times, at 0 points (the builder prices it in its Controller's
///   option); any other (a TAG's operator, who is not on the table at the start) is left out, and
///   noted;
/// - a team sold as one option of the unit (assumption `TEAM_OPTION`, see `assume_team_option`)
///   becomes the troopers it includes, each as above.
///
/// A member the data does not have is refused, naming the group, the member and its ids: the
/// data is not the code's army's, or older than the code.
pub fn army_from_code(code: &ArmyCode, data: &ArmyData, id_prefix: &str) -> Result<Imported, ImportError> {
    let mut build = Build { names: &data.names, prefix: id_prefix, count: 0, notes: Vec::new() };
    let mut groups = Vec::new();
    for group in &code.groups {
        if group.reinforcement == Some(true) {
            build.notes.push(format!(
                "Combat Group {} is a Reinforcement group ({} troopers): left out, sightline does not model Reinforcements",
                group.number,
                group.members.len()
            ));
            continue;
        }
        if group.members.is_empty() {
            continue;
        }
        let mut troopers = Vec::new();
        for (k, m) in group.members.iter().enumerate() {
            let place = format!(
                "Combat Group {}, member {} of {} (unit {}, profile group {}, option {})",
                group.number,
                k + 1,
                group.members.len(),
                m.unit_id,
                m.group_id,
                m.option_id
            );
            let fail = |reason: String| ImportError { place: place.clone(), reason };
            let unit = data.units.get(&m.unit_id).ok_or_else(|| {
                fail(format!(
                    "unit {} is not in this army data (is it the data of {}, {}, and as new as the code?)",
                    m.unit_id,
                    code.sectorial_slug,
                    data_url(code.sectorial_id)
                ))
            })?;
            if !m.extensions.is_empty() {
                build.notes.push(format!(
                    "Combat Group {}, member {}: the code customises this trooper's profile (a Spec-Ops' changes), which the import does not read: check its profile in the New game window",
                    group.number,
                    k + 1
                ));
            }
            match find_option(unit, m.group_id, m.option_id) {
                Ok((pg, option)) => {
                    add_trooper(&mut build, &mut troopers, unit, pg, option).map_err(fail)?;
                }
                // A team sold as one option of the unit itself (Scarface & Cordelia): its troopers.
                Err(e) => {
                    let team = unit
                        .options
                        .iter()
                        .find(|o| o.id == m.option_id)
                        .filter(|_| assume_team_option(m.group_id, unit));
                    let Some(team) = team else { return Err(fail(e)) };
                    let mut points = 0;
                    for inc in &team.includes {
                        let (pg, option) = find_option(unit, inc.group, inc.option)
                            .map_err(|e| fail(format!("a trooper of the team option {}: {e}", team.id)))?;
                        for _ in 0..inc.q.max(1) {
                            add_trooper(&mut build, &mut troopers, unit, pg, option).map_err(&fail)?;
                            points += option.points;
                        }
                    }
                    if points != team.points {
                        build.notes.push(format!(
                            "{}: its troopers' points add up to {points}, the team's to {}; set them in the New game window if the Retreat! check needs them",
                            tidy(&team.name),
                            team.points
                        ));
                    }
                }
            }
        }
        groups.push(CombatGroup { troopers });
    }
    let mut notes = build.notes;
    if code.skipped_block {
        notes.push(
            "the code holds an old Spec-Ops customisation, skipped to read it: check the Spec-Ops trooper's profile in the New game window"
                .into(),
        );
    }
    notes.push("army codes carry no Fireteams: tick them in the New game window".into());
    let fireteam_limits = match &data.fireteam_limits {
        Some(Ok(limits)) => {
            notes.push(format!(
                "Fireteams on the table, as the army data's Fireteams Chart sets them: {}",
                limits.describe()
            ));
            *limits
        }
        Some(Err(e)) => {
            notes.push(format!(
                "the army data's Fireteams Chart could not be read ({e}): the defaults stand, {}; set them in the New game window",
                FireteamLimits::default().describe()
            ));
            FireteamLimits::default()
        }
        None => FireteamLimits::default(),
    };
    let fireteam_chart = match &data.chart_teams {
        Some(Ok(teams)) if !teams.is_empty() => {
            let names: Vec<&str> = teams.iter().filter(|t| !t.types.is_empty()).map(|t| t.name.as_str()).collect();
            notes.push(format!(
                "the Fireteams Chart's teams ({}) decide which troopers may form each Fireteam; its comments (profiles, FTO options) and notes are shown in the New game window, not checked",
                names.join(", ")
            ));
            teams.clone()
        }
        Some(Err(e)) => {
            notes.push(format!(
                "the army data's Fireteams Chart teams could not be read ({e}): which troopers may form each Fireteam is not checked"
            ));
            Vec::new()
        }
        _ => Vec::new(),
    };
    let name = code.name.trim();
    let title = if name.is_empty() {
        format!("{}, {} points", code.sectorial_slug, code.points_limit)
    } else {
        format!("{}, \"{name}\", {} points", code.sectorial_slug, code.points_limit)
    };
    Ok(Imported {
        army: Army { points: None, groups, fireteams: Vec::new(), fireteam_limits, fireteam_chart },
        notes,
        title,
    })
}

/// **Assumption `TEAM_OPTION`**: a code names a team sold as one option of the unit itself
/// (`units[].options`, such as "SCARFACE Loadout Alpha & CORDELIA TURNER") by that option's id
/// and a profile group the unit does not have (0, as no public code shows otherwise). Its
/// troopers are the option's `includes`, each with its own points.
fn assume_team_option(group_id: u16, unit: &Unit) -> bool {
    !unit.profile_groups.iter().any(|g| g.id == group_id)
}

/// What an import keeps as it goes: the names, the ids given, the notes.
struct Build<'a> {
    names: &'a Names,
    prefix: &'a str,
    count: usize,
    notes: Vec<String>,
}

impl Build<'_> {
    fn next_id(&mut self) -> String {
        self.count += 1;
        format!("{}{}", self.prefix, self.count)
    }
}

/// Add the trooper `option` of `pg` makes, and the Peripherals it brings with it (their points
/// are in its option's, as the builder prices them: 0 each); anyone else it brings (a pilot, not
/// on the table at the start) is left out, and noted.
fn add_trooper(
    build: &mut Build,
    troopers: &mut Vec<TrooperSetup>,
    unit: &Unit,
    pg: &ProfileGroup,
    option: &UnitOption,
) -> Result<(), String> {
    let id = build.next_id();
    let trooper = make_trooper(&id, unit, pg, option, build.names, &mut build.notes)?;
    let controller = trooper.name.clone();
    troopers.push(trooper);
    for inc in &option.includes {
        let (ipg, iopt) = find_option(unit, inc.group, inc.option)
            .map_err(|e| format!("what option {} brings with it: {e}", option.id))?;
        let name = display_name(unit, ipg, iopt);
        if !is_peripheral(ipg, iopt, build.names) {
            build.notes.push(format!(
                "{controller} ({id}) comes with {name}, who is not a Peripheral (a pilot or operator, not on the table at the start): left out; add it in the New game window when it enters the table"
            ));
            continue;
        }
        for _ in 0..inc.q.max(1) {
            let pid = build.next_id();
            let mut p = make_trooper(&pid, unit, ipg, iopt, build.names, &mut build.notes)?;
            p.peripheral_of = Some(id.clone());
            p.points = 0;
            troopers.push(p);
        }
    }
    Ok(())
}

fn find_option(unit: &Unit, group: u16, option: u16) -> Result<(&ProfileGroup, &UnitOption), String> {
    let pg = unit
        .profile_groups
        .iter()
        .find(|g| g.id == group)
        .ok_or_else(|| format!("{} has no profile group {group} in this army data", unit.isc))?;
    let opt = pg
        .options
        .iter()
        .find(|o| o.id == option)
        .ok_or_else(|| format!("{}'s profile group {group} has no option {option} in this army data", unit.isc))?;
    if pg.profiles.is_empty() {
        return Err(format!("{}'s profile group {group} has no profile", unit.isc));
    }
    Ok((pg, opt))
}

fn display_name(unit: &Unit, pg: &ProfileGroup, option: &UnitOption) -> String {
    [option.name.as_str(), pg.profiles[0].name.as_str(), unit.isc.as_str()]
        .into_iter()
        .map(tidy)
        .find(|n| !n.is_empty())
        .unwrap_or_else(|| format!("unit {}", unit.id))
}

/// Every name the trooper's profile and option give it, of one kind.
fn names_of<'a>(items: impl Iterator<Item = &'a Item>, table: &'a HashMap<u16, String>) -> Vec<(&'a str, Vec<u16>)> {
    items.filter_map(|i| table.get(&i.id).map(|n| (n.as_str(), i.extra.clone()))).collect()
}

fn is_peripheral(pg: &ProfileGroup, option: &UnitOption, names: &Names) -> bool {
    let p = &pg.profiles[0];
    p.chars.iter().chain(&option.chars).any(|c| names.chars.get(c).is_some_and(|n| n == "peripheral"))
        || p.skills.iter().chain(&option.skills).any(|s| names.skills.get(&s.id).is_some_and(|n| n == "peripheral"))
}

fn make_trooper(
    id: &str,
    unit: &Unit,
    pg: &ProfileGroup,
    option: &UnitOption,
    names: &Names,
    notes: &mut Vec<String>,
) -> Result<TrooperSetup, String> {
    let p = &pg.profiles[0];
    let name = display_name(unit, pg, option);
    if pg.profiles.len() > 1 {
        notes.push(format!(
            "{name} ({id}) has {} profiles; the first ({}) is taken: change its Silhouette or MOV when it changes profile",
            pg.profiles.len(),
            tidy(&p.name)
        ));
    }
    let silhouette = Silhouette::try_from(p.s).map_err(|e| format!("its profile's s: {e}"))?;
    let mov = match p.mov[..] {
        [a, b] if a.is_finite() && b.is_finite() && a >= 0.0 && b >= 0.0 => Some([a / CM_PER_INCH, b / CM_PER_INCH]),
        _ => None,
    };
    let skills = names_of(p.skills.iter().chain(&option.skills), &names.skills);
    let equip = names_of(p.equip.iter().chain(&option.equip), &names.equip);
    let chars: Vec<&str> =
        p.chars.iter().chain(&option.chars).filter_map(|c| names.chars.get(c)).map(|s| s.as_str()).collect();
    let orders = |kind: &str| {
        option.orders.iter().filter(|o| o.kind.eq_ignore_ascii_case(kind)).map(|o| o.total.max(1)).sum::<u32>()
    };
    let extras = |ids: &[u16]| ids.iter().filter_map(|e| names.extras.get(e)).cloned().collect::<Vec<_>>();

    let irregular = chars.contains(&"irregular") || (orders("IRREGULAR") > 0 && orders("REGULAR") == 0);
    let training = if irregular { Training::Irregular } else { Training::Regular };

    let mut abilities = Vec::new();
    let mut states = Vec::new();
    let mut lieutenant_option = None;
    let mut add = |a: Ability| {
        if !abilities.contains(&a) {
            abilities.push(a);
        }
    };
    for (skill, extra) in &skills {
        let extra = extras(extra);
        match *skill {
            "lieutenant" => {
                add(Ability::Lieutenant);
                if extra.iter().any(|e| e.contains("command token")) {
                    lieutenant_option = Some(LieutenantOption::ExtraCommandToken);
                } else if extra.iter().any(|e| e.contains("+1 order")) {
                    lieutenant_option = Some(LieutenantOption::ExtraOrder);
                }
            }
            "nco" => add(Ability::Nco),
            "tactical awareness" => add(Ability::TacticalAwareness),
            "impetuous" => add(Ability::Impetuous),
            "sixth sense" => add(Ability::SixthSense),
            "hacker" => add(Ability::Hacker),
            "courage" | "religious troop" => add(Ability::IgnoresRetreat),
            s if s.starts_with("veteran") => add(Ability::IgnoresRetreat),
            "forward deployment" => match forward_inches(&extra) {
                Some(d) if d > 4.0 + 1e-9 => add(Ability::ForwardDeployment8),
                _ => add(Ability::ForwardDeployment4),
            },
            "strategic deployment" => add(Ability::StrategicDeployment),
            s if s.starts_with("impersonation") => {
                add(Ability::Impersonation);
                states.push(State::OtherMarker);
            }
            s if s.starts_with("airborne") => add(Ability::DeploysOutsideZone),
            // Superior Infiltration reaches the enemy half without a roll: the same places.
            "infiltration" | "superior infiltration" => add(Ability::Infiltration),
            "stealth" => add(Ability::Stealth),
            "super-jump" => add(Ability::SuperJump),
            "climbing plus" => add(Ability::ClimbingPlus),
            "berserk" => add(Ability::Berserk),
            "camouflage" => states.push(State::Camouflaged),
            "hidden deployment" | "combat jump" | "parachutist" | "mechanized deployment" => {
                add(Ability::DeploysOutsideZone)
            }
            _ => {}
        }
    }
    for (item, _) in &equip {
        match *item {
            "repeater" => add(Ability::Repeater),
            e if e.contains("360") && e.contains("visor") => add(Ability::Arc360),
            e if e.contains("hacking device") => add(Ability::Hacker),
            _ => {}
        }
    }
    if chars.contains(&"impetuous") || orders("IMPETUOUS") > 0 {
        add(Ability::Impetuous);
    }
    if orders("TACTICAL") > 0 {
        add(Ability::TacticalAwareness);
    }
    if orders("LIEUTENANT") > 0 {
        add(Ability::Lieutenant);
        if orders("LIEUTENANT") >= 2 && lieutenant_option.is_none() {
            lieutenant_option = Some(LieutenantOption::ExtraOrder);
        }
    }
    if p.kind.and_then(|k| names.types.get(&k)).is_some_and(|t| t == "rem") {
        add(Ability::Rem);
    }
    abilities.sort_by_key(|a| Ability::ALL.iter().position(|b| b == a));
    states.sort();
    states.dedup();
    for s in &states {
        let what = if *s == State::Camouflaged { "a Camouflage marker" } else { "an Impersonation marker" };
        notes
            .push(format!("{name} ({id}) starts as {what}: untick it in the New game window if it deploys as a Model"));
    }
    Ok(TrooperSetup {
        id: id.into(),
        name,
        unit: (!unit.slug.is_empty()).then(|| unit.slug.clone()),
        silhouette,
        training,
        points: option.points,
        mov,
        abilities,
        lieutenant_option,
        peripheral_of: None,
        position: None,
        states,
    })
}

/// Forward Deployment's reach from its extra, inches: "+10" and "+20" are centimetres (the
/// data's unit), "+4\"" or a bare "+4" or "+8" inches (no centimetre reach is that short).
fn forward_inches(extras: &[String]) -> Option<f64> {
    extras.iter().find_map(|e| {
        let inches = e.contains('"') || e.contains("inch");
        let digits: String = e.chars().filter(|c| c.is_ascii_digit() || *c == '.').collect();
        let n: f64 = digits.parse().ok()?;
        Some(if inches || n <= 8.0 { n } else { n / CM_PER_INCH })
    })
}

/// Read the army code `code_text` and the army data file `data_path`, and make the army: what
/// the app and `sightline army-code` both do. The error names what is wrong and where: the code
/// (and the group, member and byte), or the file (and the field), or the member the data lacks.
pub fn import(code_text: &str, data_path: &std::path::Path, id_prefix: &str) -> Result<Imported, String> {
    let code = super::army_code::decode(code_text).map_err(|e| format!("army code: {e}"))?;
    let path = data_path.display();
    let text = std::fs::read_to_string(data_path).map_err(|e| format!("army data {path}: cannot read: {e}"))?;
    let data = ArmyData::from_json(&text).map_err(|e| format!("army data {path}: {e}"))?;
    army_from_code(&code, &data, id_prefix).map_err(|e| format!("army code, {e} (army data {path})"))
}
