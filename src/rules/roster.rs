//! The setup of a game: table, terrain, the two armies (Combat Groups of troopers), where each
//! trooper stands, the Fireteams formed at deployment, and who has the first Turn.
//!
//! A setup becomes a game only through [`Setup::validate`], whose errors name the problem and the
//! field ("armies.A.groups[0]: 11 troopers ...").

use super::BySide;
use super::fireteam::{ChartTeam, FireteamKind, FireteamLimits, chart_problem};
use crate::geometry::{Side, Silhouette, Table, TablePoint, Terrain, table_side_problem};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// Most troopers in one Combat Group; Peripherals do not count (seed 002 "Order Pool", and its
/// "REMEMBER" box).
pub const MAX_GROUP_SIZE: usize = 10;

/// Regular or Irregular training (seed 002 "Types of Orders").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Training {
    /// Adds its Order to its Combat Group's Order Pool.
    #[default]
    Regular,
    /// Keeps its Order for its own use.
    Irregular,
}

/// The abilities that change Orders or AROs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// The army's Lieutenant: the Special Lieutenant Order (seed 002).
    Lieutenant,
    /// NCO: may spend the Special Lieutenant Order (digest §4).
    Nco,
    /// Tactical Awareness: one extra Irregular Order (digest §4).
    TacticalAwareness,
    /// Impetuous: one free activation in the Impetuous Phase (digest §4).
    Impetuous,
    /// Sixth Sense: may answer Attacks from outside its LoF (digest §6).
    SixthSense,
    /// A Hacker: reacts to enemies in its Hacking Area (digest §1).
    Hacker,
    /// Carries a Repeater: its ZoC is part of its side's Hacking Area (digest §1).
    Repeater,
    /// Has a 360° arc (a 360° Visor, or a trooper that always has one).
    Arc360,
    /// Courage, Religious Troop or similar: ignores Retreat! (digest §4 "Retreat!", ⚠️ N3).
    IgnoresRetreat,
    /// Cannot be appointed Lieutenant (a REM; digest §4 "Loss of Lieutenant").
    Rem,
    /// May deploy outside its Deployment Zone by a Deployment Skill sightline does not model
    /// (Mechanized Deployment, Hidden Deployment …: N4 Initiative and Deployment, "some Special
    /// Skills allow players to place certain troops outside their Deployment Zones"): where it may
    /// deploy instead is not checked. The skills below are.
    DeploysOutsideZone,
    /// Forward Deployment (+4") (N4, a Deployment Skill): it may deploy up to 4" beyond the limit
    /// of its Deployment Zone.
    #[serde(rename = "forward_deployment_4")]
    ForwardDeployment4,
    /// Forward Deployment (+8") (N4): up to 8" beyond its Deployment Zone.
    #[serde(rename = "forward_deployment_8")]
    ForwardDeployment8,
    /// Strategic Deployment (N4, a Deployment Skill): deployed first of its Fireteam and as its
    /// Team Leader, it and then the rest of the Fireteam deploy as with Forward Deployment (+4").
    StrategicDeployment,
    /// Impersonation (N4, a Deployment Skill): it may deploy anywhere on the table but the enemy
    /// Deployment Zone, and inside that by passing a WIP Roll (the players').
    Impersonation,
    /// Infiltration (a Deployment Skill; where it reaches is the assumption
    /// [`super::assumptions::INFILTRATION_ENEMY_HALF_ROLL`]): its own half of the table, the enemy
    /// half by passing a PH-3 Roll (the players'), not the enemy Deployment Zone.
    Infiltration,
    /// Stealth (N4 Stealth, an Automatic Special Skill): moving inside an enemy's ZoC outside its
    /// LoF with a Short Movement Skill or Cautious Movement grants that enemy no ARO; Cautious
    /// Movement may be declared inside enemies' ZoC. Not effective against Sixth Sense.
    Stealth,
    /// Super-Jump (N4): its Jump is a Short Movement Skill (up to the first MOV value, a second
    /// Jump up to the second), or, declared as an Entire Order, both MOV values together.
    SuperJump,
    /// Climbing Plus (N4): its Move goes up and down vertical surfaces as over level ground.
    ClimbingPlus,
    /// Berserk (N4, a CC Special Skill): it may declare the Entire Order Berserk, a Move of both
    /// MOV values together into Silhouette contact with the target, then a CC Attack.
    Berserk,
}

impl Ability {
    /// Every ability, in the order the setup format lists them.
    pub const ALL: [Ability; 20] = [
        Ability::Lieutenant,
        Ability::Nco,
        Ability::TacticalAwareness,
        Ability::Impetuous,
        Ability::SixthSense,
        Ability::Hacker,
        Ability::Repeater,
        Ability::Arc360,
        Ability::IgnoresRetreat,
        Ability::Rem,
        Ability::DeploysOutsideZone,
        Ability::ForwardDeployment4,
        Ability::ForwardDeployment8,
        Ability::StrategicDeployment,
        Ability::Impersonation,
        Ability::Infiltration,
        Ability::Stealth,
        Ability::SuperJump,
        Ability::ClimbingPlus,
        Ability::Berserk,
    ];

    /// The ability's name as the N4 rules and army lists write it ("Sixth Sense", "NCO"), for
    /// a trooper's card. Abilities that stand for a group of skills say what they do
    /// ("Ignores Retreat!" for Courage, Religious Troop and the like).
    pub fn rule_name(self) -> &'static str {
        match self {
            Ability::Lieutenant => "Lieutenant",
            Ability::Nco => "NCO",
            Ability::TacticalAwareness => "Tactical Awareness",
            Ability::Impetuous => "Impetuous",
            Ability::SixthSense => "Sixth Sense",
            Ability::Hacker => "Hacker",
            Ability::Repeater => "Repeater",
            Ability::Arc360 => "360° arc",
            Ability::IgnoresRetreat => "Ignores Retreat!",
            Ability::Rem => "REM",
            Ability::DeploysOutsideZone => "Deploys outside its zone",
            Ability::ForwardDeployment4 => "Forward Deployment (+4\")",
            Ability::ForwardDeployment8 => "Forward Deployment (+8\")",
            Ability::StrategicDeployment => "Strategic Deployment",
            Ability::Impersonation => "Impersonation",
            Ability::Infiltration => "Infiltration",
            Ability::Stealth => "Stealth",
            Ability::SuperJump => "Super-Jump",
            Ability::ClimbingPlus => "Climbing Plus",
            Ability::Berserk => "Berserk",
        }
    }
}

/// The Lieutenant's option (digest §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LieutenantOption {
    /// "+1 Order": two Special Lieutenant Orders each Turn.
    ExtraOrder,
    /// "+1 Command Token": a fifth Command Token for the game.
    ExtraCommandToken,
}

/// A state that changes Orders or AROs (digest §4 "Null states", §6, §7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Null: no Orders, no AROs, no Order at Order Count.
    Unconscious,
    /// Null, for good.
    Dead,
    /// Null.
    Sepsitorized,
    /// No Orders from the pool; counts as Irregular at its Order Count; loses the Lieutenant Order.
    Isolated,
    /// A Camouflage marker: 360° arc; leaves its Fireteam.
    Camouflaged,
    /// Another marker state (Impersonation, Holoecho …): leaves its Fireteam.
    OtherMarker,
    /// Prone: S0 height on its own base for LoF.
    Prone,
    /// In Silhouette contact with an enemy (N4 Engaged State): worked out from the table after
    /// every event, never set by hand; only CC Attack, Dodge, Idle and Reset, no LoF outside its
    /// Close Combat.
    Engaged,
    /// A Peripheral whose Controller went Null (Null per [`super::assumptions::DISCONNECTED_IS_NULL`]).
    Disconnected,
    /// In Suppressive Fire: leaves its Fireteam.
    SuppressiveFire,
}

impl State {
    /// A Null state (digest §4): no Orders or AROs, no Order at Order Count.
    pub fn is_null(self) -> bool {
        match self {
            State::Unconscious | State::Dead | State::Sepsitorized => true,
            State::Disconnected => super::assumptions::DISCONNECTED_IS_NULL,
            _ => false,
        }
    }

    /// A marker state (Fireteam Integrity case 5).
    pub fn is_marker(self) -> bool {
        matches!(self, State::Camouflaged | State::OtherMarker)
    }
}

/// Where a trooper stands.
///
/// # Units
/// Inches; facing in degrees counter-clockwise from `+x`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// x, inches.
    pub x: f64,
    /// y, inches.
    pub y: f64,
    /// Facing, degrees.
    #[serde(default)]
    pub facing: f64,
    /// Height of the base above the table, inches.
    #[serde(default)]
    pub elevation: f64,
}

impl Placement {
    /// The point on the table.
    pub fn point(&self) -> TablePoint {
        TablePoint::new(self.x, self.y)
    }
}

/// One trooper of an army list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrooperSetup {
    /// Unique id in the game ("a1").
    pub id: String,
    /// Name for people ("Fusilier").
    #[serde(default)]
    pub name: String,
    /// Its unit, as its army's Fireteams Chart names units (the army builder's unit slug,
    /// "senku-troops"; set on import from an army code). Without it, the chart does not check the
    /// Fireteams it joins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Silhouette S0–S8.
    pub silhouette: Silhouette,
    /// Regular or Irregular.
    #[serde(default)]
    pub training: Training,
    /// Army points (for the Retreat! check).
    #[serde(default)]
    pub points: u32,
    /// The MOV Attribute, inches: the first value for the first Move of an Order, the second for
    /// a second one (digest §3, N4 Move). Without it, move distances are not checked.
    #[serde(default)]
    pub mov: Option<[f64; 2]>,
    /// Abilities that change Orders or AROs.
    #[serde(default)]
    pub abilities: Vec<Ability>,
    /// The Lieutenant's option, if it has one.
    #[serde(default)]
    pub lieutenant_option: Option<LieutenantOption>,
    /// The id of its Controller, for a Peripheral.
    #[serde(default)]
    pub peripheral_of: Option<String>,
    /// Where it stands, or `null` when it is not on the table yet (Airborne Deployment …).
    pub position: Option<Placement>,
    /// States at the start of the game (a Camouflage marker starts `camouflaged`).
    #[serde(default)]
    pub states: Vec<State>,
}

impl TrooperSetup {
    /// Whether it has `a`.
    pub fn has(&self, a: Ability) -> bool {
        self.abilities.contains(&a)
    }
}

/// A Combat Group: its troopers (and their Peripherals).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatGroup {
    /// Its troopers.
    pub troopers: Vec<TrooperSetup>,
}

/// A Fireteam formed at deployment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireteamSetup {
    /// Its id ("core").
    pub id: String,
    /// Core, Haris or Duo.
    pub kind: FireteamKind,
    /// Team Leader.
    pub leader: String,
    /// Every member, the leader included.
    pub members: Vec<String>,
}

/// One player's army.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Army {
    /// Army points (default: the sum of its troopers' points).
    #[serde(default)]
    pub points: Option<u32>,
    /// Combat Groups, in order (group 0 is "Combat Group 1").
    pub groups: Vec<CombatGroup>,
    /// Fireteams formed at deployment.
    #[serde(default)]
    pub fireteams: Vec<FireteamSetup>,
    /// How many Fireteams of each type it may have on the table at once, where its army's
    /// Fireteams Chart says (`{"core": 1, "haris": 2, "duo": 4}`; a type left out keeps the
    /// default: [`FireteamLimits`]).
    #[serde(default, skip_serializing_if = "FireteamLimits::is_unset")]
    pub fireteam_limits: FireteamLimits,
    /// The teams of its army's Fireteams Chart: which units may form which Fireteams, how many of
    /// each ([`ChartTeam`]). Empty: any troopers may (only the types' sizes and limits count).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fireteam_chart: Vec<ChartTeam>,
}

/// The `format` value of an army file: one player's army list, kept to be loaded into either
/// side of a new game ([`Army::from_file_json`]).
pub const ARMY_FORMAT: &str = "sightline-army";

/// The army file format version this build reads and writes.
pub const ARMY_VERSION: u32 = 1;

/// An army file: `{"format": "sightline-army", "version": 1, "army": {...}}`, the army as a
/// setup file holds one under `armies.A` or `armies.B`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmyFile {
    format: String,
    version: u32,
    army: Army,
}

impl Army {
    /// Why its Fireteams Chart does not let troopers `members` form a `kind` Fireteam, if it does
    /// not ([`chart_problem`]; not checked when a member's unit is not known).
    pub fn fireteam_chart_problem(&self, kind: FireteamKind, members: &[String]) -> Option<String> {
        let units: Option<Vec<(&str, &str)>> = members
            .iter()
            .map(|m| self.troopers().find(|t| t.id == *m).and_then(|t| Some((m.as_str(), t.unit.as_deref()?))))
            .collect();
        chart_problem(&self.fireteam_chart, kind, &units?)
    }

    /// Army points: as given, or the sum of its troopers'.
    pub fn total_points(&self) -> u32 {
        self.points.unwrap_or_else(|| self.troopers().map(|t| t.points).sum())
    }

    /// Every trooper, Combat Group by Combat Group.
    pub fn troopers(&self) -> impl Iterator<Item = &TrooperSetup> {
        self.groups.iter().flat_map(|g| &g.troopers)
    }

    /// Take every trooper off the table: the army as a list, to be tagged anew on a table.
    pub fn unplace(&mut self) {
        for t in self.groups.iter_mut().flat_map(|g| &mut g.troopers) {
            t.position = None;
        }
    }

    /// The army as an army file's text (pretty JSON), without positions: a list is kept to be
    /// played on any table, where its Models are tagged anew.
    pub fn to_file_json(&self) -> String {
        let mut army = self.clone();
        army.unplace();
        let file = ArmyFile { format: ARMY_FORMAT.into(), version: ARMY_VERSION, army };
        // (Plain data: it always serialises.)
        serde_json::to_string_pretty(&file).unwrap_or_default()
    }

    /// Read an army file's text, or say what is wrong, naming the field (`army.groups[0].troopers[1].silhouette`).
    /// A setup file or a game file — both armies — is told apart and named as such. Not yet
    /// validated: the army rules are checked with the setup it joins ([`Setup::validate`]).
    pub fn from_file_json(text: &str) -> Result<Army, SetupError> {
        if let Ok(serde_json::Value::Object(top)) = serde_json::from_str::<serde_json::Value>(text) {
            if top.contains_key("armies") {
                return Err(err("armies", "this is a setup file (both armies), not an army file (one army)"));
            }
            if let Some(f) = top.get("format").and_then(|f| f.as_str())
                && f != ARMY_FORMAT
            {
                return Err(err("format", format!("\"{f}\": not an army file (expected \"{ARMY_FORMAT}\")")));
            }
        }
        let file: ArmyFile = crate::geometry::from_json_at(text).map_err(|(at, e)| match at {
            Some(at) => err(at, e),
            None => err("army file", e),
        })?;
        if file.version != ARMY_VERSION {
            return Err(err("version", format!("{} (this build reads version {ARMY_VERSION})", file.version)));
        }
        Ok(file.army)
    }

    /// This army with each trooper id and Fireteam id that `other` uses too renamed — `id_2`,
    /// or `id_3` … the first free — and every reference to it following (a Peripheral's
    /// Controller, a Fireteam's leader and members), so that two lists that share ids (a mirror
    /// match; two lists that both call their Lieutenant `lt`) can face each other: ids are unique
    /// in a game. Also the renames, old → new, in the army's order.
    pub fn renamed_apart_from(mut self, other: &Army) -> (Army, Vec<(String, String)>) {
        fn free(id: &str, taken: &HashSet<String>) -> String {
            (2..).map(|k| format!("{id}_{k}")).find(|c| !taken.contains(c)).unwrap_or_default()
        }
        let mut taken: HashSet<String> = other.troopers().chain(self.troopers()).map(|t| t.id.clone()).collect();
        let clashes: HashSet<&str> = other.troopers().map(|t| t.id.as_str()).collect();
        let mut renames: Vec<(String, String)> = Vec::new();
        for t in self.troopers() {
            if clashes.contains(t.id.as_str()) {
                let new = free(&t.id, &taken);
                taken.insert(new.clone());
                renames.push((t.id.clone(), new));
            }
        }
        let map: HashMap<String, String> = renames.iter().cloned().collect();
        let follow = |id: &mut String| {
            if let Some(new) = map.get(id.as_str()) {
                id.clone_from(new);
            }
        };
        for t in self.groups.iter_mut().flat_map(|g| &mut g.troopers) {
            follow(&mut t.id);
            if let Some(c) = &mut t.peripheral_of {
                follow(c);
            }
        }
        let mut taken_teams: HashSet<String> =
            other.fireteams.iter().chain(&self.fireteams).map(|f| f.id.clone()).collect();
        let team_clashes: HashSet<&str> = other.fireteams.iter().map(|f| f.id.as_str()).collect();
        for ft in &mut self.fireteams {
            follow(&mut ft.leader);
            ft.members.iter_mut().for_each(follow);
            if team_clashes.contains(ft.id.as_str()) {
                let new = free(&ft.id, &taken_teams);
                taken_teams.insert(new.clone());
                renames.push((std::mem::replace(&mut ft.id, new.clone()), new));
            }
        }
        (self, renames)
    }
}

/// The whole setup of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The table, inches.
    #[serde(default)]
    pub table: Table,
    /// Terrain pieces (as in a scene file).
    #[serde(default)]
    pub terrain: Vec<TerrainSetup>,
    /// Who has the first Turn of every Round (the initiative roll).
    pub first: Side,
    /// Who deploys first (the player who kept Deployment chooses; N4 Initiative and Deployment).
    /// With it, `deploy` events follow the Deployment Phase's four steps ([`Game::deployment_step`]:
    /// all but one trooper each, then the last one each); without, their order is not checked.
    ///
    /// [`Game::deployment_step`]: crate::rules::Game::deployment_step
    #[serde(default)]
    pub deploys_first: Option<Side>,
    /// The two armies.
    pub armies: BySide<Army>,
    /// How the camera picture maps to the table, if the table was calibrated at setup.
    #[serde(default)]
    pub calibration: Option<CalibrationSetup>,
    /// Each player's Deployment Zone, an area of the table (its corners in order, inches), as the
    /// mission sets it. With zones, every trooper deploys totally inside its own (N4 Initiative
    /// and Deployment); without, deployment is not checked against zones.
    #[serde(default)]
    pub deployment_zones: Option<BySide<Vec<(f64, f64)>>>,
}

/// A camera calibration as plain data: the picture size and the point pairs it was fitted from
/// (the fit itself is `vision`'s). Part of the setup so that a saved game reopens calibrated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalibrationSetup {
    /// Picture width and height, pixels.
    pub image: (u32, u32),
    /// Pairs of a point in the picture (pixels, origin top-left, y down) and the same point on
    /// the table (inches): the four corners first, then any further known points.
    pub pairs: Vec<CalibrationPair>,
}

/// One point seen in the picture and known on the table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalibrationPair {
    /// Where it is in the picture, pixels.
    pub pixel: (f64, f64),
    /// Where it is on the table, inches.
    pub table: (f64, f64),
}

/// A terrain piece as written in a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainSetup {
    /// Its id.
    pub id: String,
    /// Footprint, inches.
    pub polygon: Vec<(f64, f64)>,
    /// Height, inches.
    pub height: f64,
    /// Ladders or stairs up its sides: stretches of its outline, each two points on one edge,
    /// inches (N4 General Movement Rules, "Ladders and Stairs").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ladders: Vec<[(f64, f64); 2]>,
}

/// What is wrong with a setup: where, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct SetupError {
    /// Path to the field at fault (`armies.A.groups[0].troopers[3]`).
    pub field: String,
    /// What is wrong, naming the rule.
    pub reason: String,
}

fn err(field: impl Into<String>, reason: impl Into<String>) -> SetupError {
    SetupError { field: field.into(), reason: reason.into() }
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::A => "A",
        Side::B => "B",
    }
}

impl Setup {
    /// Read a setup from JSON (not yet validated: see [`Setup::validate`]).
    pub fn from_json(text: &str) -> Result<Self, SetupError> {
        crate::geometry::from_json_at(text).map_err(|(at, e)| match at {
            Some(at) => err(format!("setup.{at}"), e),
            None => err("setup", e),
        })
    }

    /// Every trooper with its side and Combat Group index.
    pub fn troopers(&self) -> impl Iterator<Item = (Side, usize, &TrooperSetup)> {
        [Side::A, Side::B].into_iter().flat_map(move |side| {
            self.armies
                .get(side)
                .groups
                .iter()
                .enumerate()
                .flat_map(move |(g, group)| group.troopers.iter().map(move |t| (side, g, t)))
        })
    }

    /// The terrain as geometry pieces.
    pub fn terrain_pieces(&self) -> Result<Vec<Terrain>, SetupError> {
        self.terrain
            .iter()
            .enumerate()
            .map(|(i, t)| {
                Terrain::from_pairs(t.id.clone(), &t.polygon, t.height, &t.ladders)
                    .map_err(|e| err(format!("terrain[{i}] (\"{}\")", t.id), e.to_string()))
            })
            .collect()
    }

    /// Player `side`'s Deployment Zone, checked as an area (at least three corners, some area, no
    /// crossing edges), or `None` when the setup sets no zones.
    pub fn deployment_zone(&self, side: Side) -> Result<Option<Vec<TablePoint>>, SetupError> {
        let Some(zones) = &self.deployment_zones else { return Ok(None) };
        let poly: Vec<TablePoint> = zones.get(side).iter().map(|&(x, y)| TablePoint::new(x, y)).collect();
        // The same checks as a terrain footprint's (the height is a stand-in: a zone has none).
        Terrain::new("zone", poly, 1.0)
            .map(|t| Some(t.polygon))
            .map_err(|e| err(format!("deployment_zones.{}", side_name(side)), e.to_string()))
    }

    /// Check the setup against the army-building and deployment rules.
    pub fn validate(&self) -> Result<(), SetupError> {
        for (name, v) in [("table.width", self.table.width), ("table.depth", self.table.depth)] {
            if let Some(why) = table_side_problem(v) {
                return Err(err(name, why));
            }
        }
        self.terrain_pieces()?;
        // (Troopers and terrain share one set of ids, as in a scene: the table the game shows.)
        let mut pieces = std::collections::HashSet::new();
        for (i, t) in self.terrain.iter().enumerate() {
            if t.id.trim().is_empty() || !pieces.insert(t.id.as_str()) {
                return Err(err(
                    format!("terrain[{i}] (\"{}\").id", t.id),
                    "ids must be non-empty and unique (troopers and terrain share one set)",
                ));
            }
        }
        for side in [Side::A, Side::B] {
            self.deployment_zone(side)?;
        }
        let mut seen: HashMap<&str, (Side, usize)> = HashMap::new();
        for side in [Side::A, Side::B] {
            let army = self.armies.get(side);
            let s = side_name(side);
            if army.groups.is_empty() {
                return Err(err(format!("armies.{s}.groups"), "an army needs at least one Combat Group"));
            }
            let mut lieutenants = Vec::new();
            for (g, group) in army.groups.iter().enumerate() {
                let counted = group.troopers.iter().filter(|t| t.peripheral_of.is_none()).count();
                if counted > MAX_GROUP_SIZE {
                    return Err(err(
                        format!("armies.{s}.groups[{g}]"),
                        format!(
                            "{counted} troopers in one Combat Group; at most {MAX_GROUP_SIZE} (Orders and the Order Pool: \
                             Peripherals do not count)"
                        ),
                    ));
                }
                for (k, t) in group.troopers.iter().enumerate() {
                    let f = format!("armies.{s}.groups[{g}].troopers[{k}] (\"{}\")", t.id);
                    if t.id.trim().is_empty() {
                        return Err(err(f, "a trooper needs an id"));
                    }
                    if seen.insert(&t.id, (side, g)).is_some() {
                        return Err(err(f, "this id is used twice; ids must be unique in the game"));
                    }
                    if pieces.contains(t.id.as_str()) {
                        return Err(err(f, "a terrain piece has this id; troopers and terrain share one set of ids"));
                    }
                    if t.has(Ability::Lieutenant) {
                        lieutenants.push(t.id.clone());
                    }
                    if t.lieutenant_option.is_some() && !t.has(Ability::Lieutenant) {
                        return Err(err(f, "a Lieutenant option on a trooper that is not the Lieutenant"));
                    }
                    if let Some(m) = t.mov
                        && !m.iter().all(|v| v.is_finite() && *v >= 0.0)
                    {
                        return Err(err(
                            format!("{f}.mov"),
                            format!("[{}, {}]: MOV values are inches, 0 or more", m[0], m[1]),
                        ));
                    }
                    if let Some(p) = &t.position {
                        if !(p.x.is_finite() && p.y.is_finite() && p.facing.is_finite() && p.elevation.is_finite()) {
                            return Err(err(format!("{f}.position"), "x, y, facing and elevation must be numbers"));
                        }
                        if p.x < 0.0 || p.y < 0.0 || p.x > self.table.width || p.y > self.table.depth {
                            return Err(err(format!("{f}.position"), "off the table"));
                        }
                        if p.elevation < 0.0 {
                            return Err(err(format!("{f}.position"), "elevation below the table"));
                        }
                    }
                }
            }
            if lieutenants.len() > 1 {
                return Err(err(
                    format!("armies.{s}"),
                    format!("two Lieutenants ({}); an army has exactly one (Lieutenant)", lieutenants.join(", ")),
                ));
            }
            if lieutenants.is_empty() {
                return Err(err(format!("armies.{s}"), "no Lieutenant; every army list names one (Lieutenant)"));
            }
        }
        // Peripherals: a Controller of the same side and Combat Group that is not itself a Peripheral.
        for (side, g, t) in self.troopers() {
            let Some(c) = &t.peripheral_of else { continue };
            let f = format!("armies.{}: \"{}\".peripheral_of", side_name(side), t.id);
            match seen.get(c.as_str()) {
                None => {
                    return Err(err(f, format!("a Peripheral without a Controller: no trooper \"{c}\" (Peripheral)")));
                }
                Some(&(cs, cg)) if cs != side || cg != g => {
                    return Err(err(f, format!("the Controller \"{c}\" must be in the same army and Combat Group")));
                }
                _ => {}
            }
            if self.troopers().any(|(_, _, o)| o.id == *c && o.peripheral_of.is_some()) {
                return Err(err(f, format!("\"{c}\" is itself a Peripheral and cannot be a Controller")));
            }
            if t.has(Ability::Lieutenant) {
                return Err(err(f, "a Peripheral cannot be the Lieutenant"));
            }
        }
        for side in [Side::A, Side::B] {
            self.validate_fireteams(side, &seen)?;
        }
        Ok(())
    }

    fn validate_fireteams(&self, side: Side, seen: &HashMap<&str, (Side, usize)>) -> Result<(), SetupError> {
        let s = side_name(side);
        let army = self.armies.get(side);
        let mut member_of: HashSet<&str> = HashSet::new();
        let mut ids: HashSet<&str> = HashSet::new();
        // (A chart's rows must make sense before any Fireteam is held to them.)
        for (i, team) in army.fireteam_chart.iter().enumerate() {
            let at = format!("armies.{s}.fireteam_chart[{i}] (\"{}\")", team.name);
            if team.units.is_empty() {
                return Err(err(at, "a team of the Fireteams Chart with no units"));
            }
            for (j, u) in team.units.iter().enumerate() {
                if u.unit.trim().is_empty() {
                    return Err(err(format!("{at}.units[{j}].unit"), "missing: the unit this row lets join"));
                }
                if u.min > u.max {
                    return Err(err(format!("{at}.units[{j}]"), format!("min {} is more than max {}", u.min, u.max)));
                }
            }
        }
        for (i, ft) in army.fireteams.iter().enumerate() {
            let f = format!("armies.{s}.fireteams[{i}] (\"{}\")", ft.id);
            if !ids.insert(&ft.id) {
                return Err(err(f, "two Fireteams with one id"));
            }
            let (lo, hi) = ft.kind.size();
            let n = ft.members.len();
            if n < lo || n > hi {
                return Err(err(
                    f,
                    format!("{n} members; a {} Fireteam has {lo} to {hi} (Fireteams: Types)", ft.kind.name()),
                ));
            }
            if !ft.members.contains(&ft.leader) {
                return Err(err(f, format!("the Team Leader \"{}\" is not one of its members", ft.leader)));
            }
            let mut group = None;
            for m in &ft.members {
                let Some(&(ms, mg)) = seen.get(m.as_str()) else {
                    return Err(err(f, format!("no trooper \"{m}\"")));
                };
                if ms != side {
                    return Err(err(f, format!("\"{m}\" belongs to the other army")));
                }
                if *group.get_or_insert(mg) != mg {
                    return Err(err(f, "all members must share one Combat Group (Fireteams: Basic Rules)"));
                }
                if !member_of.insert(m) {
                    return Err(err(f, format!("\"{m}\" is in two Fireteams; a trooper belongs to at most one")));
                }
                if self.troopers().any(|(_, _, t)| t.id == *m && t.peripheral_of.is_some()) {
                    return Err(err(f, format!("\"{m}\" is a Peripheral and cannot join a Fireteam")));
                }
            }
            let same_kind = army.fireteams[..i].iter().filter(|o| o.kind == ft.kind).count();
            if let Some(why) = army.fireteam_limits.exceeded(ft.kind, same_kind + 1) {
                return Err(err(f, why));
            }
            if let Some(why) = army.fireteam_chart_problem(ft.kind, &ft.members) {
                return Err(err(f, why));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Ability;

    #[test]
    fn each_ability_s_card_name_is_its_file_name_written_as_the_rules_write_it() {
        // The card's name and the game file's name are one word list, spelt apart: "sixth_sense"
        // is "Sixth Sense", "forward_deployment_4" is "Forward Deployment (+4\")". Two are worded
        // for the card instead, and are listed here.
        let letters = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
        let reworded = [(Ability::Arc360, "360° arc"), (Ability::DeploysOutsideZone, "Deploys outside its zone")];
        let mut seen = std::collections::HashSet::new();
        for a in Ability::ALL {
            let name = a.rule_name();
            assert!(seen.insert(name), "{name} is the card name of two abilities");
            assert!(name.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()), "{name}");
            let file = serde_json::to_value(a).ok().and_then(|v| v.as_str().map(str::to_owned)).expect("a name");
            match reworded.iter().find(|(r, _)| *r == a) {
                Some((_, card)) => assert_eq!(name, *card),
                None => assert_eq!(letters(name), letters(&file), "{a:?}"),
            }
        }
    }

    #[test]
    fn every_ability_is_listed_once_in_all() {
        // Exhaustive: a new ability does not compile here until it is given a place, and the
        // loop below fails until `ALL` lists it there.
        fn place(a: Ability) -> usize {
            match a {
                Ability::Lieutenant => 0,
                Ability::Nco => 1,
                Ability::TacticalAwareness => 2,
                Ability::Impetuous => 3,
                Ability::SixthSense => 4,
                Ability::Hacker => 5,
                Ability::Repeater => 6,
                Ability::Arc360 => 7,
                Ability::IgnoresRetreat => 8,
                Ability::Rem => 9,
                Ability::DeploysOutsideZone => 10,
                Ability::ForwardDeployment4 => 11,
                Ability::ForwardDeployment8 => 12,
                Ability::StrategicDeployment => 13,
                Ability::Impersonation => 14,
                Ability::Infiltration => 15,
                Ability::Stealth => 16,
                Ability::SuperJump => 17,
                Ability::ClimbingPlus => 18,
                Ability::Berserk => 19,
            }
        }
        for (i, a) in Ability::ALL.into_iter().enumerate() {
            assert_eq!(place(a), i, "{a:?}");
        }
    }

    fn example() -> super::Setup {
        super::Setup::from_json(crate::rules::EXAMPLE_SETUP_JSON).expect("the example setup")
    }

    /// A mirror match: A's list loaded as B's keeps its profiles, Fireteams and Peripherals, with
    /// every id the other army uses renamed and every reference following, so the setup the two
    /// make is one the army rules take (ids unique in the game).
    #[test]
    fn an_army_facing_its_own_list_is_renamed_apart_with_its_references_following() {
        let mut setup = example();
        let (b, renames) = setup.armies.a.clone().renamed_apart_from(&setup.armies.a);
        let ids: Vec<&str> = setup.armies.a.troopers().map(|t| t.id.as_str()).collect();
        assert_eq!(
            b.troopers().map(|t| t.id.clone()).collect::<Vec<_>>(),
            ids.iter().map(|i| format!("{i}_2")).collect::<Vec<_>>()
        );
        let bot = b.troopers().find(|t| t.id == "a_bot_2").expect("the Peripheral");
        assert_eq!(bot.peripheral_of.as_deref(), Some("a_eng_2"), "its Controller followed");
        assert_eq!(b.fireteams[0].id, "core-a_2");
        assert_eq!(b.fireteams[0].leader, "a1_2");
        assert_eq!(b.fireteams[0].members, ["a1_2", "a2_2", "a3_2"]);
        assert_eq!(renames.len(), ids.len() + 1, "each trooper and the Fireteam");
        assert_eq!(renames[0], ("a_lt".to_string(), "a_lt_2".to_string()));
        // Profiles unchanged but for the ids.
        for (t, u) in setup.armies.a.troopers().zip(b.troopers()) {
            assert_eq!(
                super::TrooperSetup { id: t.id.clone(), peripheral_of: t.peripheral_of.clone(), ..u.clone() },
                *t
            );
        }
        setup.armies.b = b;
        setup.validate().expect("a mirror match the army rules take");
        // An id already taken by the other army's renamed copy goes on to the next free one;
        // ids the other army does not use stay as they are.
        let mut third = setup.armies.b.clone();
        third.groups[0].troopers[0].id = "a1".into();
        third.fireteams.clear();
        let (c, renames) = third.renamed_apart_from(&setup.armies.a);
        assert_eq!(c.groups[0].troopers[0].id, "a1_3", "a1_2 is this army's own");
        assert!(renames.iter().all(|(old, _)| old == "a1"), "{renames:?}");
        let (same, none) = setup.armies.b.clone().renamed_apart_from(&setup.armies.a);
        assert_eq!((same, none), (setup.armies.b.clone(), vec![]));
    }

    /// An army file holds one army without positions, reads back as written, and a file that is
    /// not one says what it is or which field is wrong.
    #[test]
    fn an_army_file_reads_back_without_positions_and_a_wrong_file_is_named() {
        let setup = example();
        assert!(setup.armies.a.troopers().any(|t| t.position.is_some()));
        let text = setup.armies.a.to_file_json();
        let back = super::Army::from_file_json(&text).expect("an army file");
        assert!(back.troopers().all(|t| t.position.is_none()), "a list, not a table");
        let mut unplaced = setup.armies.a.clone();
        unplaced.unplace();
        assert_eq!(back, unplaced);
        let e = super::Army::from_file_json(crate::rules::EXAMPLE_SETUP_JSON).expect_err("a setup file");
        assert!(e.to_string().contains("a setup file (both armies), not an army file"), "{e}");
        let e =
            super::Army::from_file_json(&text.replacen("\"silhouette\": 2", "\"silhouette\": 9", 1)).expect_err("S9");
        assert!(e.field.starts_with("army.groups[0].troopers[0].silhouette"), "{e}");
        let e = super::Army::from_file_json(&text.replacen("\"version\": 1", "\"version\": 7", 1)).expect_err("v7");
        assert_eq!(e.to_string(), "version: 7 (this build reads version 1)");
        let e = super::Army::from_file_json(&text.replacen("sightline-army", "sightline-game", 1)).expect_err("a game");
        assert!(e.to_string().starts_with("format: \"sightline-game\": not an army file"), "{e}");
        assert!(super::Army::from_file_json("{\"format\": \"sightline-army\", ").is_err(), "cut short");
    }
}
