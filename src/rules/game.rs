//! The game: its state, the events that change it, and [`Game::apply`].
//!
//! Turn structure (digest §8): Tactical Phase (Executive Use of Command Tokens, then the
//! [`Event::OrderCount`] step, which also runs the Retreat! and Loss of Lieutenant checks and the
//! Fireteam rejoin), Impetuous Phase, Orders Phase, then [`Event::EndTurn`] (States Phase and end
//! of Turn: a new Lieutenant after Loss of Lieutenant).
//!
//! An Order follows the Order Expenditure Sequence (seed 000, 1.1.1 wording):
//! [`Event::Activate`] (1, 1.1) → [`Event::Declare`] the first skill (1.2) → ARO window 1 (2:
//! [`Event::DeclareAro`] …, [`Event::CloseAroWindow`]) → [`Event::Declare`] the second skill (3)
//! → ARO window 2 (4) → [`Event::Resolve`] (5, 5.1, 5.2).

use super::assumptions as assume;
use super::fireteam::{self, Fireteam, FireteamKind};
use super::roster::{Ability, CalibrationSetup, LieutenantOption, Placement, Setup, SetupError, State, Training};
use super::skills::{self, Reach, SkillKind};
use super::{BySide, opponent};
use crate::geometry::{
    Arc, Body, ClimbProblem, LandingProblem, Obstacles, RoutePoint, Side, StandingProblem, Table, TablePoint, Terrain,
    WalkProblem, base_crossings, climb_problem, distance, landing_problem, leap, leap_length, line_of_fire,
    may_pass_through, path_length, route_events_with_levels, standing_problem, surface_height, walk_problems_stepping,
    zoc,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc as Shared;

/// The N4 rule an event broke: what a [`Rejection`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Rule {
    /// Game Sequence (digest §8): what may happen in this phase.
    #[serde(rename = "Game Sequence")]
    GameSequence,
    /// Orders and the Order Pool (seed 002).
    #[serde(rename = "Orders and the Order Pool")]
    OrderPool,
    /// Irregular Orders (seed 002).
    #[serde(rename = "Irregular Order")]
    IrregularOrder,
    /// Special Lieutenant Order (seed 002 and its FAQs).
    #[serde(rename = "Special Lieutenant Order")]
    LieutenantOrder,
    /// Tactical Awareness (digest §4).
    #[serde(rename = "Tactical Awareness")]
    TacticalAwareness,
    /// Impetuous (digest §4).
    #[serde(rename = "Impetuous")]
    Impetuous,
    /// Coordinated Orders (digest §4).
    #[serde(rename = "Coordinated Orders")]
    CoordinatedOrder,
    /// Command Tokens (digest §4).
    #[serde(rename = "Command Tokens")]
    CommandTokens,
    /// Order Expenditure Sequence (seed 000).
    #[serde(rename = "Order Expenditure Sequence")]
    OrderExpenditure,
    /// Structure of an Order: skill combinations (seed 000).
    #[serde(rename = "Structure of an Order")]
    StructureOfAnOrder,
    /// ARO: Automatic Reaction Order (seeds 000, 001).
    #[serde(rename = "ARO")]
    Aro,
    /// Fireteams (digest §7, seed 003).
    #[serde(rename = "Fireteams")]
    Fireteams,
    /// Null states (digest §4).
    #[serde(rename = "Null State")]
    NullState,
    /// Isolated State (digest §4).
    #[serde(rename = "Isolated State")]
    Isolated,
    /// Retreat! (digest §4).
    #[serde(rename = "Retreat!")]
    Retreat,
    /// Loss of Lieutenant (digest §4).
    #[serde(rename = "Loss of Lieutenant")]
    LossOfLieutenant,
    /// Peripherals (seed 002, digest §4).
    #[serde(rename = "Peripheral")]
    Peripheral,
    /// Line of Fire requirements (seed 000 FAQ: checked when the skill is declared).
    #[serde(rename = "Line of Fire")]
    LineOfFire,
    /// Camouflaged State: a marker cannot be attacked until Discovered (digest §6).
    #[serde(rename = "Camouflaged State")]
    Camouflage,
    /// Move: how far (N4 Move, MOV values; digest §3).
    #[serde(rename = "Move")]
    Move,
    /// Cautious Movement: how far (N4 Cautious Movement: the first MOV value).
    #[serde(rename = "Cautious Movement")]
    CautiousMovement,
    /// Dodge: how far (assumption `DODGE_MOVE_IN`).
    #[serde(rename = "Dodge")]
    Dodge,
    /// Climb: how far (N4 Climb: up to the first MOV value; measured as N4 FAQ 1.3 has it).
    #[serde(rename = "Climb")]
    Climb,
    /// Jump: how far (N4 Jump: up to the first MOV value; measured as N4 FAQ 1.3 has it).
    #[serde(rename = "Jump")]
    Jump,
    /// General Movement Rules: what a route may pass over (obstacles no taller than the
    /// Silhouette; taller ones need Climb or Jump).
    #[serde(rename = "General Movement Rules")]
    GeneralMovement,
    /// Stealth (N4): an enemy whose ZoC a Stealth trooper moved in, outside its LoF, gets no ARO.
    #[serde(rename = "Stealth")]
    Stealth,
    /// Berserk (N4): a Move of both MOV values together into Silhouette contact with a target in
    /// LoF, then a CC Attack, as an Entire Order; for troopers with it.
    #[serde(rename = "Berserk")]
    Berserk,
    /// Engaged State (N4): in Silhouette contact with an enemy, a trooper may only declare CC
    /// Attack, Dodge, Idle and Reset, and traces no LoF outside its Close Combat.
    #[serde(rename = "Engaged State")]
    EngagedState,
    /// Deployment Phase (N4 Initiative and Deployment): placing troopers before the game begins.
    #[serde(rename = "Deployment Phase")]
    Deployment,
    /// The event names something that does not exist, or is not on the table.
    #[serde(rename = "Bad input")]
    BadInput,
}

impl Rule {
    /// The rule's N4 name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::GameSequence => "Game Sequence",
            Rule::OrderPool => "Orders and the Order Pool",
            Rule::IrregularOrder => "Irregular Order",
            Rule::LieutenantOrder => "Special Lieutenant Order",
            Rule::TacticalAwareness => "Tactical Awareness",
            Rule::Impetuous => "Impetuous",
            Rule::CoordinatedOrder => "Coordinated Orders",
            Rule::CommandTokens => "Command Tokens",
            Rule::OrderExpenditure => "Order Expenditure Sequence",
            Rule::StructureOfAnOrder => "Structure of an Order",
            Rule::Aro => "ARO",
            Rule::Fireteams => "Fireteams",
            Rule::NullState => "Null State",
            Rule::Isolated => "Isolated State",
            Rule::Retreat => "Retreat!",
            Rule::LossOfLieutenant => "Loss of Lieutenant",
            Rule::Peripheral => "Peripheral",
            Rule::LineOfFire => "Line of Fire",
            Rule::Camouflage => "Camouflaged State",
            Rule::Move => "Move",
            Rule::CautiousMovement => "Cautious Movement",
            Rule::Dodge => "Dodge",
            Rule::Climb => "Climb",
            Rule::Jump => "Jump",
            Rule::GeneralMovement => "General Movement Rules",
            Rule::Stealth => "Stealth",
            Rule::Berserk => "Berserk",
            Rule::EngagedState => "Engaged State",
            Rule::Deployment => "Deployment Phase",
            Rule::BadInput => "Bad input",
        }
    }
}

/// Why an event was refused: the rule and what about it. The game is left unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{} — {reason}", rule.name())]
pub struct Rejection {
    /// The rule broken.
    pub rule: Rule,
    /// What was wrong.
    pub reason: String,
}

/// An Order's path, as stored (`(x, y, level)` in table inches), as route points.
fn route_points(path: &[(f64, f64, f64)]) -> Vec<RoutePoint> {
    path.iter().map(|&(x, y, level_in)| RoutePoint { at: TablePoint::new(x, y), level_in }).collect()
}

/// A trooper moved by the declaration being checked: its index, where it started, the route's
/// points after that (inches).
type Moved = (usize, Placement, Vec<TablePoint>);

/// How far a base may reach past its Deployment Zone's edge and still count as totally inside,
/// inches: only rounding (a base set exactly against the edge is inside).
pub const DEPLOYMENT_ZONE_SLACK_IN: f64 = 1e-9;

/// The Cautious Movement skill's id.
const CAUTIOUS_MOVEMENT: &str = "cautious_movement";
/// The Jump skill's id.
const JUMP: &str = "jump";
const BERSERK: &str = "berserk";

/// How much longer than the skill allows a route may measure and still be accepted, inches:
/// only the rounding of adding up its legs — "up to" the MOV value means up to it.
pub const MOVE_LENGTH_SLACK_IN: f64 = 1e-6;

/// A MOV Attribute as the profile prints it ("4-4", "6-2", "2.5-2.5").
fn mov_text(m: [f64; 2]) -> String {
    format!("{}-{}", inches(m[0]), inches(m[1]))
}

/// Inches for people: whole numbers without decimals, others to 3 decimals at most.
fn inches(v: f64) -> String {
    let r = (v * 1000.0).round() / 1000.0;
    if r == r.trunc() { format!("{r:.0}") } else { format!("{r}") }
}

fn reject<T>(rule: Rule, reason: impl Into<String>) -> Result<T, Rejection> {
    Err(Rejection { rule, reason: reason.into() })
}

/// Where the game is in a Player Turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Tactical Phase, step 1: Executive Use of Command Tokens (then [`Event::OrderCount`]).
    Tactical,
    /// Impetuous Phase: free activations of Impetuous troopers.
    Impetuous,
    /// Orders Phase.
    Orders,
    /// After the last Turn of the last Round, or when a player has no trooper left.
    GameOver,
}

/// Which Order activates the trooper(s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderSource {
    /// A Regular Order from the trooper's own Combat Group's pool.
    Regular,
    /// The trooper's own Irregular Order.
    Irregular,
    /// The Special Lieutenant Order (the Lieutenant, or an NCO).
    Lieutenant,
    /// The Tactical Awareness Order.
    TacticalAwareness,
    /// The free Impetuous activation (Impetuous Phase).
    Impetuous,
    /// A Coordinated Order: 1 Command Token + 1 Regular Order, 2–4 troopers.
    Coordinated,
}

/// A move declared for one activated trooper.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    /// Who moves.
    pub trooper: String,
    /// The points it moves through after where it stands, inches. For a trooper not yet on the
    /// table, the first point is where it enters.
    pub route: Vec<(f64, f64)>,
    /// Its facing at the end, degrees (default: along the last leg).
    #[serde(default)]
    pub facing: Option<f64>,
}

/// A skill declared by the Active Player (seed 000: "all details … must be specified when it is
/// declared").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Declaration {
    /// The skill's id in the catalogue ([`skills::CATALOGUE`]).
    pub skill: String,
    /// Routes, for a movement skill: one per activated trooper that moves.
    #[serde(default)]
    pub moves: Vec<Move>,
    /// Targets (troopers), for a skill that has them.
    #[serde(default)]
    pub targets: Vec<String>,
    /// Troopers under a Template placed by this skill.
    #[serde(default)]
    pub template_hits: Vec<String>,
    /// A Jump by troopers with Super-Jump declared as an Entire Order, to jump both MOV values
    /// together (N4 Super-Jump); otherwise their Jump is a Short Movement Skill.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub entire_order: bool,
}

/// An ARO declared by a reactive trooper.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AroDeclaration {
    /// The reacting trooper.
    pub trooper: String,
    /// The skill's id; it must be usable in ARO.
    pub skill: String,
    /// One of the troopers activated by this Order.
    pub target: String,
}

/// What players report happened at Resolution (sightline does not roll dice).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Outcome {
    /// The trooper enters a state (Unconscious, Dead, Isolated …).
    Enter {
        /// Who.
        trooper: String,
        /// The state.
        state: State,
    },
    /// The trooper leaves a state (a Doctor's or Engineer's success, a Reset …).
    Leave {
        /// Who.
        trooper: String,
        /// The state.
        state: State,
    },
    /// The trooper now stands here (a Dodge movement, a Jump's landing …), inches.
    Place {
        /// Who.
        trooper: String,
        /// x, inches.
        x: f64,
        /// y, inches.
        y: f64,
        /// New facing, degrees.
        #[serde(default)]
        facing: Option<f64>,
    },
    /// The trooper turns to a new facing (an Alert) , degrees.
    Face {
        /// Who.
        trooper: String,
        /// Facing, degrees.
        facing: f64,
    },
    /// The trooper's skill failed its Requirements and became an Idle (recorded only).
    Idle {
        /// Who.
        trooper: String,
    },
}

/// A Strategic Use of a Command Token (digest §4 "Command Tokens"): by the player with the first
/// Turn during its deployment ([`StrategicUse::HoldBackTrooper`]), or by the player with the second
/// Turn at the end of the first Order Count (the others).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "use", rename_all = "snake_case", deny_unknown_fields)]
pub enum StrategicUse {
    /// The player with the first Turn, during its deployment: hold back one extra trooper, to be
    /// placed after the opponent's deployment with the one every player keeps back.
    HoldBackTrooper,
    /// Remove 2 Regular Orders from the opponent's pools for this Turn: `(group index, orders)`.
    RemoveOrders {
        /// From which Combat Groups, and how many each (2 in all).
        from: Vec<(usize, u32)>,
    },
    /// Limit the opponent to 1 Command Token this Turn.
    LimitCommandTokens,
    /// Put one of the player's own troopers into Suppressive Fire.
    SuppressiveFire {
        /// Which trooper.
        trooper: String,
    },
}

/// A player's action: the only way a game changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// Deployment Phase: the trooper stands here (tagged on the table), before the first Order
    /// Count of the game. Tagging it again moves it (players adjust positions while deploying).
    Deploy {
        /// Who.
        trooper: String,
        /// x, inches.
        x: f64,
        /// y, inches.
        y: f64,
        /// Facing, degrees.
        #[serde(default)]
        facing: f64,
        /// Height of its base above the table (on a roof), inches.
        #[serde(default)]
        elevation: f64,
    },
    /// Deployment Phase, when the setup says who deploys first: the player of the current step is
    /// done, though it could place more (it keeps troopers off the table: Airborne Deployment …).
    /// A step also ends by itself once its player has placed what it may.
    EndDeploymentStep,
    /// Tactical Phase: end the Executive Use step; run the Retreat! check, the Loss of Lieutenant
    /// check and the Order Count; rejoin Fireteam members in Coherency.
    OrderCount,
    /// Executive Use of a Command Token: create a Fireteam.
    CreateFireteam {
        /// New Fireteam's id (unique in the game).
        id: String,
        /// Its type.
        kind: FireteamKind,
        /// Team Leader.
        leader: String,
        /// Members, the leader included.
        members: Vec<String>,
    },
    /// Executive Use of a Command Token: move a trooper (with its Peripherals) to another Combat
    /// Group of its army, within the 10-trooper limit (digest §4 "Combat Groups", ⚠️ N3 wording).
    MoveToGroup {
        /// Who.
        trooper: String,
        /// The Combat Group (index: 0 is Combat Group 1).
        group: usize,
    },
    /// Cancel a Fireteam voluntarily, at no cost (Fireteam Cancellation case 6).
    CancelFireteam {
        /// Which.
        id: String,
    },
    /// Name another member Team Leader (between Orders).
    ChangeLeader {
        /// Which Fireteam.
        fireteam: String,
        /// The new leader.
        leader: String,
    },
    /// A Strategic Use of a Command Token: the first player's during its deployment, or the
    /// second player's after the first Order Count.
    StrategicCommandToken(StrategicUse),
    /// Spend an Order to activate troopers (Order Expenditure Sequence 1, 1.1).
    Activate {
        /// Which Order.
        source: OrderSource,
        /// Who: one trooper (a Fireteam's leader activates the whole Fireteam; a Controller may
        /// bring its Peripherals), or 2–4 for a Coordinated Order, the Spearhead first.
        troopers: Vec<String>,
    },
    /// Declare the first skill (1.2) or the second (3).
    Declare(Declaration),
    /// A reactive trooper declares its ARO (2.2, 4.2).
    DeclareAro(AroDeclaration),
    /// The Reactive Player has declared every ARO of this window; eligible troopers that did not
    /// declare lose their ARO against this Order.
    CloseAroWindow {
        /// Fireteam id → the skill the player chooses as the Fireteam's ARO when there is no
        /// majority (seed 003).
        #[serde(default)]
        fireteam_aro: BTreeMap<String, String>,
    },
    /// Resolution (5), Effects (5.1) and Conclusion (5.2): apply what happened; end the Order.
    Resolve {
        /// What happened.
        #[serde(default)]
        outcomes: Vec<Outcome>,
    },
    /// End the Impetuous Phase (unused Impetuous tokens are removed).
    EndImpetuousPhase,
    /// States Phase and end of Turn. After Loss of Lieutenant, name the new Lieutenant.
    EndTurn {
        /// The new Lieutenant, when the army is in Loss of Lieutenant.
        #[serde(default)]
        new_lieutenant: Option<String>,
    },
    /// The camera was (re)calibrated — the camera was bumped. Not a rules event: accepted at any
    /// time, it only replaces the calibration the game keeps.
    Calibrate(CalibrationSetup),
}

impl Event {
    /// The event's type name, as in game files.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Deploy { .. } => "deploy",
            Event::EndDeploymentStep => "end_deployment_step",
            Event::OrderCount => "order_count",
            Event::CreateFireteam { .. } => "create_fireteam",
            Event::MoveToGroup { .. } => "move_to_group",
            Event::CancelFireteam { .. } => "cancel_fireteam",
            Event::ChangeLeader { .. } => "change_leader",
            Event::StrategicCommandToken(_) => "strategic_command_token",
            Event::Activate { .. } => "activate",
            Event::Declare(_) => "declare",
            Event::DeclareAro(_) => "declare_aro",
            Event::CloseAroWindow { .. } => "close_aro_window",
            Event::Resolve { .. } => "resolve",
            Event::EndImpetuousPhase => "end_impetuous_phase",
            Event::EndTurn { .. } => "end_turn",
            Event::Calibrate(_) => "calibrate",
        }
    }
}

/// Why a reactive trooper may declare an ARO (seed 001's list).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum AroReason {
    /// An activated enemy is in its LoF at some point of its route.
    Lof {
        /// The activated trooper.
        of: String,
        /// The first point of that trooper's route in LoF, inches.
        at: (f64, f64),
    },
    /// An activated enemy is inside its ZoC at some point of its route (measured from the Active
    /// Trooper, seed 000 1.1.1 step 2.1).
    Zoc {
        /// The activated trooper.
        of: String,
        /// The first point inside, inches.
        at: (f64, f64),
    },
    /// An activated enemy is in its Hacking Area (its ZoC, or a Repeater's ZoC, digest §1).
    HackingArea {
        /// The activated trooper.
        of: String,
        /// The Repeater that carries the Hacking Area.
        via: String,
    },
    /// Sixth Sense: it is the target of an Attack by an activated enemy outside its LoF.
    SixthSense {
        /// The attacker.
        of: String,
    },
    /// It is under a Template placed by this Order.
    Template {
        /// Who placed it.
        of: String,
    },
    /// It is the target of a Comms Attack.
    CommsAttack {
        /// The attacker.
        of: String,
    },
}

impl AroReason {
    fn of(&self) -> &str {
        match self {
            AroReason::Lof { of, .. }
            | AroReason::Zoc { of, .. }
            | AroReason::HackingArea { of, .. }
            | AroReason::SixthSense { of }
            | AroReason::Template { of }
            | AroReason::CommsAttack { of } => of,
        }
    }
}

/// Where an Order is in the Order Expenditure Sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderStep {
    /// 1.2: waiting for the first skill (or the Entire Order).
    FirstSkill,
    /// 2: the Reactive Player's first ARO window.
    AroWindow1,
    /// 3: waiting for the second skill (or Resolution when there is none).
    SecondSkill,
    /// 4: the second ARO window.
    AroWindow2,
    /// 5: waiting for the outcome.
    Resolution,
}

/// An ARO that was declared, with the window it was declared in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeclaredAro {
    /// The declaration.
    #[serde(flatten)]
    pub aro: AroDeclaration,
    /// Window 1 or 2.
    pub window: u8,
    /// Its Burst (seed 000: B1 in ARO unless a rule says otherwise; a reactive Fireteam of 3+ adds 1).
    pub burst: u32,
}

/// A move as the rules measure it ([`Game::move_measure`]).
struct MoveMeasure {
    /// The route with the trooper's level at each point, from where it stands.
    levels: Vec<RoutePoint>,
    /// Where a plain move may not go (none for Climb and Jump).
    problems: Vec<WalkProblem>,
    /// Of the length, how much is up and down walls and ladders, inches.
    climbed: f64,
    /// Whether it went as a Climbing Plus Move (walls climbed as over level ground).
    climbing_plus: bool,
    /// The length its MOV is held to, inches.
    length: f64,
    /// The level it ends at, inches.
    end_level: f64,
}

/// What an ARO Check finds: the eligible reactive troopers with why, and those an activated
/// Stealth trooper gave no ARO, with the Stealth troopers (N4 Stealth).
#[derive(Debug, Default)]
struct AroCheck {
    eligible: BTreeMap<String, Vec<AroReason>>,
    hidden: BTreeMap<String, Vec<String>>,
}

/// The Order being carried out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Activation {
    /// Which Order was spent.
    pub source: OrderSource,
    /// Every trooper activated by it.
    pub troopers: Vec<String>,
    /// The Spearhead of a Coordinated Order.
    pub spearhead: Option<String>,
    /// The Fireteam activated, if any.
    pub fireteam: Option<String>,
    /// The skills declared so far.
    pub skills: Vec<Declaration>,
    /// The step.
    pub step: OrderStep,
    /// Each activated trooper's path this Order: where it stood, then every point it moved through,
    /// each as `(x, y, level)` in table inches (the level of its base's underside: a change of
    /// level is two points at one place, or a Climb's or Jump's slope).
    pub paths: BTreeMap<String, Vec<(f64, f64, f64)>>,
    /// Troopers eligible in window 1, with why.
    pub eligible_1: BTreeMap<String, Vec<AroReason>>,
    /// Troopers eligible in window 2 (not eligible in window 1), with why.
    pub eligible_2: BTreeMap<String, Vec<AroReason>>,
    /// Window 1's reactive troopers that an activated Stealth trooper gave no ARO (N4 Stealth: it
    /// moved inside their ZoC outside their LoF): reactive id → the Stealth troopers.
    pub hidden_1: BTreeMap<String, Vec<String>>,
    /// The same for window 2 (troopers not eligible in window 1).
    pub hidden_2: BTreeMap<String, Vec<String>>,
    /// AROs declared.
    pub declared: Vec<DeclaredAro>,
    /// Eligible troopers that did not declare in their window and lost their ARO.
    pub lost: Vec<String>,
    /// The Fireteam ARO of each reactive Fireteam (seed 003 majority rule).
    pub fireteam_aro: BTreeMap<String, String>,
}

impl Activation {
    /// Troopers that may declare an ARO now, with why (those of the open window that have not
    /// declared yet).
    pub fn eligible_now(&self) -> Vec<(&String, &Vec<AroReason>)> {
        let window = match self.step {
            OrderStep::AroWindow1 => &self.eligible_1,
            OrderStep::AroWindow2 => &self.eligible_2,
            _ => return Vec::new(),
        };
        window.iter().filter(|(id, _)| !self.declared.iter().any(|d| &d.aro.trooper == *id)).collect()
    }

    /// The open window's reactive troopers that a Stealth trooper gave no ARO, with those Stealth
    /// troopers (N4 Stealth); empty outside the ARO windows.
    pub fn hidden_now(&self) -> &BTreeMap<String, Vec<String>> {
        static NONE: BTreeMap<String, Vec<String>> = BTreeMap::new();
        match self.step {
            OrderStep::AroWindow1 => &self.hidden_1,
            OrderStep::AroWindow2 => &self.hidden_2,
            _ => &NONE,
        }
    }
}

/// A trooper in play: its list entry plus where it stands and its states.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrooperState {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Whose.
    pub side: Side,
    /// Its Combat Group (index).
    pub group: usize,
    /// Silhouette.
    pub silhouette: crate::geometry::Silhouette,
    /// Training on the army list.
    pub training: Training,
    /// Army points.
    pub points: u32,
    /// The MOV Attribute (first, second value), inches, if the list gives it.
    pub mov: Option<[f64; 2]>,
    /// Abilities.
    pub abilities: Vec<Ability>,
    /// The Lieutenant option it was listed with.
    pub lieutenant_option: Option<LieutenantOption>,
    /// Its Controller, for a Peripheral.
    pub peripheral_of: Option<String>,
    /// Where it stands (`None`: not on the table yet).
    pub position: Option<Placement>,
    /// Its states.
    pub states: BTreeSet<State>,
}

impl TrooperState {
    /// The id its deployment unit goes by (N4 Peripheral: "Peripherals are deployed on the game
    /// table at the same time as their Controller"): its Controller's, for a Peripheral; its own
    /// otherwise.
    pub fn unit_root(&self) -> &str {
        self.peripheral_of.as_deref().unwrap_or(&self.id)
    }

    /// Why it cannot be part of a Fireteam now, if it cannot: digest §7 "Fireteam Integrity" —
    /// a trooper that is in Isolated or a Null state (case 1), a marker state (case 5) or
    /// Suppressive Fire (case 6) is not a member.
    pub fn kept_out_of_fireteams(&self) -> Option<&'static str> {
        if self.is_null() {
            Some("in a Null state")
        } else if self.is(State::Isolated) {
            Some("Isolated")
        } else if self.is_marker() {
            Some("in a marker state")
        } else if self.is(State::SuppressiveFire) {
            Some("in Suppressive Fire")
        } else {
            None
        }
    }

    /// Whether it has `a`.
    pub fn has(&self, a: Ability) -> bool {
        self.abilities.contains(&a)
    }

    /// In a Null state.
    pub fn is_null(&self) -> bool {
        self.states.iter().any(|s| s.is_null())
    }

    /// In a marker state (Camouflaged, Impersonation, Holoecho …).
    pub fn is_marker(&self) -> bool {
        self.states.iter().any(|s| s.is_marker())
    }

    /// Whether it is in `s`.
    pub fn is(&self, s: State) -> bool {
        self.states.contains(&s)
    }

    /// On the table as a model or marker, and not removed (Dead).
    pub fn on_table(&self) -> bool {
        self.position.is_some() && !self.is(State::Dead)
    }

    /// The body geometry sees.
    pub fn body(&self) -> Option<Body> {
        let p = self.position?;
        if self.is(State::Dead) {
            return None;
        }
        let arc = if self.has(Ability::Arc360) || self.is(State::Camouflaged) { Arc::All360 } else { Arc::Front180 };
        let body = Body::new(p.point(), self.silhouette).facing(p.facing).elevated(p.elevation).with_arc(arc);
        // A marker blocks no LoF (digest §2; `Body::marker`).
        Some(body.lying(self.is(State::Prone)).marked(self.is_marker()))
    }
}

/// A game of Infinity N4: validated setup plus everything the events did.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    setup: Shared<Setup>,
    table: Table,
    terrain: Shared<Vec<Terrain>>,
    troopers: Vec<TrooperState>,
    round: u32,
    turn: u8,
    phase: Phase,
    order: Option<Activation>,
    lieutenant: BySide<Option<String>>,
    loss_of_lieutenant: BySide<bool>,
    /// Whether this Turn's Loss of Lieutenant check found no Lieutenant fit to lead (missing,
    /// Null or Isolated), whatever Retreat! adds: troopers that ignore Retreat! are still
    /// Irregular then.
    lieutenant_lost: BySide<bool>,
    retreat: BySide<bool>,
    command_tokens: BySide<u32>,
    ct_limit: Option<u32>,
    ct_spent_this_turn: u32,
    pools: BySide<Vec<u32>>,
    irregular: BTreeMap<String, u32>,
    tactical: BTreeSet<String>,
    impetuous: BTreeSet<String>,
    lieutenant_orders: BySide<u32>,
    fireteams: BySide<Vec<Fireteam>>,
    orders_this_turn: u32,
    strategic_used: bool,
    deployment: DeploymentSteps,
    /// When each trooper was first placed on the table: 0 for those the setup places, then 1, 2 …
    /// in the order `deploy` placed them; `None` while off the table (N4 Strategic Deployment
    /// asks who of a Fireteam was deployed first).
    placed_at: Vec<Option<u32>>,
    events: usize,
    calibration: Option<CalibrationSetup>,
}

/// The four steps of the Deployment Phase (N4 Initiative and Deployment,
/// <https://infinitythewiki.com/index.php?title=Initiative_and_Deployment&oldid=1224>): the player
/// who deploys first places all but one of its troopers; then the other player all but one; then
/// the first player the trooper it kept back; then the second player its own. A Controller and its
/// Peripherals are deployed at the same time (N4 Peripheral), so they count as one trooper here,
/// and a step does not end with some of them on the table and some not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DeploymentStep {
    /// The step, 1 to 4.
    pub number: u8,
    /// The player who places troopers in it.
    pub side: Side,
    /// How many troopers each player keeps back for its last step (1, or 2 for the player with
    /// the first Turn after its Strategic Use of a Command Token).
    pub held_back: BySide<u32>,
    /// Troopers of `side` still off the table (and not Dead), a Controller with its Peripherals
    /// counting as one.
    pub to_place: u32,
    /// Troopers of `side` still off the table (and not Dead), each counted.
    pub off_table: u32,
}

/// Where the Deployment Phase is, when the setup says who deploys first
/// ([`Setup::deploys_first`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct DeploymentSteps {
    /// The step, 0 to 3 (step 1 to 4).
    step: u8,
    /// Troopers each player keeps back (deployment units: a Controller with its Peripherals is one).
    held_back: BySide<u32>,
    /// Troopers (deployment units, completed) each player has placed in its last step.
    last_placed: BySide<u32>,
    /// Whether the first-Turn player has made its Strategic Use (hold back one more).
    hold_back_used: bool,
}

/// One way a trooper may deploy beyond its Deployment Zone, from a Deployment Skill (N4).
#[derive(Debug, Clone, Copy, PartialEq)]
enum DeploymentReach {
    /// A skill whose limits are not checked ([`Ability::DeploysOutsideZone`]).
    Unchecked,
    /// Up to `inches` beyond the zone's limit (N4 Forward Deployment: "The number of inches that
    /// those Troopers may deploy beyond their Deployment Zone appears between round brackets"):
    /// every point of the base within that distance of the zone.
    Beyond { inches: f64, skill: &'static str },
    /// N4 Impersonation: "anywhere on the game table except for the enemy Deployment Zone", and
    /// inside it "by making a WIP Roll".
    Impersonation,
    /// Infiltration (`INFILTRATION_ENEMY_HALF_ROLL`, ⚠️): the own half of the table; the enemy
    /// half with a Roll; not the enemy zone.
    Infiltration,
}

/// A player's half of the table for Infiltration (inches): the table cut in two across the line
/// between the two Deployment Zones' centres — at the middle of its width when they lie further
/// apart across it, of its depth otherwise — and the half with `own`'s centre. `None` when the
/// zones share a centre.
fn own_half(table: Table, own: &[TablePoint], enemy: &[TablePoint]) -> Option<Vec<TablePoint>> {
    let centre = |z: &[TablePoint]| {
        let n = z.len().max(1) as f64;
        TablePoint::new(z.iter().map(|p| p.x).sum::<f64>() / n, z.iter().map(|p| p.y).sum::<f64>() / n)
    };
    let (a, b) = (centre(own), centre(enemy));
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    if dx == 0.0 && dy == 0.0 {
        return None;
    }
    let (w, d) = (table.width, table.depth);
    let rect = |x0: f64, y0: f64, x1: f64, y1: f64| {
        vec![TablePoint::new(x0, y0), TablePoint::new(x1, y0), TablePoint::new(x1, y1), TablePoint::new(x0, y1)]
    };
    Some(if dx.abs() > dy.abs() {
        if dx > 0.0 { rect(0.0, 0.0, w / 2.0, d) } else { rect(w / 2.0, 0.0, w, d) }
    } else if dy > 0.0 {
        rect(0.0, 0.0, w, d / 2.0)
    } else {
        rect(0.0, d / 2.0, w, d)
    })
}

/// A point rounded to thousandths of an inch, for reasons people read.
fn pt(p: TablePoint) -> (f64, f64) {
    ((p.x * 1000.0).round() / 1000.0, (p.y * 1000.0).round() / 1000.0)
}

/// The setup field `what` of the `i`-th trooper in setup order (a game's trooper index):
/// `armies.A.groups[0].troopers[2].position`.
fn setup_field(setup: &Setup, i: usize, what: &str) -> String {
    setup.troopers().nth(i).map_or_else(
        || "armies".into(),
        |(side, g, t)| {
            let k = setup.armies.get(side).groups[g].troopers.iter().position(|o| o.id == t.id).unwrap_or(0);
            format!("armies.{side:?}.groups[{g}].troopers[{k}].{what}")
        },
    )
}

impl Game {
    /// Start a game from a setup: validate it, deploy, and open player `first`'s first Tactical
    /// Phase (round 1, turn 1).
    pub fn new(setup: Setup) -> Result<Game, SetupError> {
        setup.validate()?;
        let terrain = setup.terrain_pieces()?;
        let troopers: Vec<TrooperState> = setup
            .troopers()
            .map(|(side, group, t)| TrooperState {
                id: t.id.clone(),
                name: if t.name.is_empty() { t.id.clone() } else { t.name.clone() },
                side,
                group,
                silhouette: t.silhouette,
                training: t.training,
                points: t.points,
                mov: t.mov,
                abilities: t.abilities.clone(),
                lieutenant_option: t.lieutenant_option,
                peripheral_of: t.peripheral_of.clone(),
                position: t.position,
                states: t.states.iter().copied().collect(),
            })
            .collect();
        let lt =
            |side: Side| troopers.iter().find(|t| t.side == side && t.has(Ability::Lieutenant)).map(|t| t.id.clone());
        let tokens = |side: Side| {
            let extra = troopers
                .iter()
                .any(|t| t.side == side && t.lieutenant_option == Some(LieutenantOption::ExtraCommandToken));
            assume::COMMAND_TOKENS_PER_GAME + u32::from(extra)
        };
        let fireteams = |side: Side| {
            setup
                .armies
                .get(side)
                .fireteams
                .iter()
                .map(|f| Fireteam {
                    id: f.id.clone(),
                    kind: f.kind,
                    leader: f.leader.clone(),
                    members: f.members.clone(),
                    left: Vec::new(),
                    cancel_at_end_of_order: None,
                })
                .collect()
        };
        let pools = |side: Side| vec![0; setup.armies.get(side).groups.len()];
        let placed_at = troopers.iter().map(|t| t.position.map(|_| 0)).collect();
        let mut game = Game {
            table: setup.table,
            terrain: Shared::new(terrain),
            lieutenant: BySide { a: lt(Side::A), b: lt(Side::B) },
            command_tokens: BySide { a: tokens(Side::A), b: tokens(Side::B) },
            fireteams: BySide { a: fireteams(Side::A), b: fireteams(Side::B) },
            pools: BySide { a: pools(Side::A), b: pools(Side::B) },
            troopers,
            round: 1,
            turn: 1,
            phase: Phase::Tactical,
            order: None,
            loss_of_lieutenant: BySide::default(),
            lieutenant_lost: BySide::default(),
            retreat: BySide::default(),
            ct_limit: None,
            ct_spent_this_turn: 0,
            irregular: BTreeMap::new(),
            tactical: BTreeSet::new(),
            impetuous: BTreeSet::new(),
            lieutenant_orders: BySide::default(),
            orders_this_turn: 0,
            strategic_used: false,
            deployment: DeploymentSteps {
                held_back: BySide { a: assume::TROOPERS_HELD_BACK, b: assume::TROOPERS_HELD_BACK },
                ..DeploymentSteps::default()
            },
            events: 0,
            placed_at,
            calibration: setup.calibration.clone(),
            setup: Shared::new(setup),
        };
        // Engaged is worked out from the table (N4 Engaged State): a setup may say so only of a
        // trooper in Silhouette contact with an enemy.
        for (i, (_, _, t)) in game.setup.troopers().enumerate() {
            if t.states.contains(&State::Engaged) && game.close_combat(i).is_empty() {
                let field = setup_field(&game.setup, i, "states");
                let reason = format!(
                    "\"{}\" is not in Silhouette contact with an enemy: the Engaged State is worked out from contact (N4 \
                     Engaged State), so place it base to base with one",
                    t.id
                );
                return Err(SetupError { field, reason });
            }
        }
        game.derive_engaged();
        // Troopers the setup places stand where a trooper can (General Movement Rules): not inside
        // a piece below its top, not in another's space.
        if let Some((i, reason)) = game.standing_problems(|_| true, "stands") {
            return Err(SetupError { field: setup_field(&game.setup, i, "position"), reason });
        }
        // Troopers the setup places are deployed: totally inside their Deployment Zones.
        for i in 0..game.troopers.len() {
            if let Some(reason) = game.outside_deployment_zone(i) {
                return Err(SetupError { field: setup_field(&game.setup, i, "position"), reason });
            }
        }
        let ids: BTreeSet<&str> = game.fireteams.a.iter().chain(&game.fireteams.b).map(|f| f.id.as_str()).collect();
        if ids.len() != game.fireteams.a.len() + game.fireteams.b.len() {
            return Err(SetupError { field: "armies.*.fireteams".into(), reason: "two Fireteams share an id".into() });
        }
        // Fireteams are deployed whole: no member kept out by Fireteam Integrity, every member in
        // Coherency (digest §7 "Coherency", Deployment: players check it and adjust positions).
        for side in [Side::A, Side::B] {
            for (i, f) in game.fireteams.get(side).iter().enumerate() {
                let field = format!("armies.{side:?}.fireteams[{i}] (\"{}\")", f.id);
                for m in &f.members {
                    if let Some(why) = game.trooper(m).and_then(|t| t.kept_out_of_fireteams()) {
                        let reason =
                            format!("\"{m}\" is {why}: such a trooper is not part of a Fireteam (Fireteam Integrity)");
                        return Err(SetupError { field, reason });
                    }
                }
                // A Fireteam the setup places whole is checked now; one whose members are still
                // to be tagged on the table, when deployment ends (the first Order Count).
                let placed = f.members.iter().all(|m| game.trooper(m).is_some_and(|t| t.on_table()));
                if placed && let Some(reason) = game.out_of_coherency(f) {
                    return Err(SetupError { field, reason });
                }
            }
        }
        // Steps whose player the setup leaves nothing to place are over already.
        game.advance_deployment();
        Ok(game)
    }

    /// Replay `events` on a new game from `setup`: the game after them, and each event's
    /// outcome (a rejected event leaves the game unchanged and replay goes on). Undo to event N
    /// is `replay(setup, &events[..N])`.
    pub fn replay(setup: Setup, events: &[Event]) -> Result<(Game, Vec<Result<(), Rejection>>), SetupError> {
        let mut game = Game::new(setup)?;
        let mut results = Vec::with_capacity(events.len());
        for e in events {
            match game.apply(e) {
                Ok(g) => {
                    game = g;
                    results.push(Ok(()));
                }
                Err(r) => results.push(Err(r)),
            }
        }
        Ok((game, results))
    }

    /// Apply one event: the new game, or the rule it breaks (and `self` is unchanged).
    pub fn apply(&self, event: &Event) -> Result<Game, Rejection> {
        let mut g = self.clone();
        match event {
            Event::Deploy { trooper, x, y, facing, elevation } => g.deploy(trooper, *x, *y, *facing, *elevation)?,
            Event::OrderCount => g.order_count()?,
            Event::CreateFireteam { id, kind, leader, members } => g.create_fireteam(id, *kind, leader, members)?,
            Event::MoveToGroup { trooper, group } => g.move_to_group(trooper, *group)?,
            Event::CancelFireteam { id } => g.cancel_fireteam(id)?,
            Event::ChangeLeader { fireteam, leader } => g.change_leader(fireteam, leader)?,
            Event::StrategicCommandToken(u) => g.strategic(u)?,
            Event::EndDeploymentStep => g.end_deployment_step()?,
            Event::Activate { source, troopers } => g.activate(*source, troopers)?,
            Event::Declare(d) => g.declare(d)?,
            Event::DeclareAro(a) => g.declare_aro(a)?,
            Event::CloseAroWindow { fireteam_aro } => g.close_aro_window(fireteam_aro)?,
            Event::Resolve { outcomes } => g.resolve(outcomes)?,
            Event::EndImpetuousPhase => g.end_impetuous()?,
            Event::EndTurn { new_lieutenant } => g.end_turn(new_lieutenant.as_deref())?,
            Event::Calibrate(c) => g.calibrate(c)?,
        }
        if matches!(event, Event::Declare(_) | Event::Resolve { .. } | Event::Deploy { .. }) {
            g.check_standing(self)?;
        }
        if let Event::Deploy { trooper, .. } = event {
            g.check_deployment_contact(g.index(trooper)?)?;
        }
        g.derive_engaged();
        if g.deployment_open() {
            g.advance_deployment();
        }
        g.events += 1;
        Ok(g)
    }

    // ----- queries -------------------------------------------------------------------------

    /// The setup the game started from.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Game Round, 1 to 3.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Player Turn within the Round, 1 or 2.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The Active Player.
    pub fn active(&self) -> Side {
        if self.turn == 1 { self.setup.first } else { opponent(self.setup.first) }
    }

    /// The Reactive Player.
    pub fn reactive(&self) -> Side {
        opponent(self.active())
    }

    /// The Order being carried out, if any.
    pub fn order(&self) -> Option<&Activation> {
        self.order.as_ref()
    }

    /// Every trooper.
    pub fn troopers(&self) -> &[TrooperState] {
        &self.troopers
    }

    /// The trooper with id `id`.
    pub fn trooper(&self, id: &str) -> Option<&TrooperState> {
        self.troopers.iter().find(|t| t.id == id)
    }

    /// Regular Orders left in `side`'s Combat Group `group` this Turn.
    pub fn pool(&self, side: Side, group: usize) -> u32 {
        self.pools.get(side).get(group).copied().unwrap_or(0)
    }

    /// Every Combat Group's pool of `side`.
    pub fn pools(&self, side: Side) -> &[u32] {
        self.pools.get(side)
    }

    /// Irregular Orders held, by trooper.
    pub fn irregular_orders(&self) -> &BTreeMap<String, u32> {
        &self.irregular
    }

    /// Troopers holding a Tactical Awareness Order.
    pub fn tactical_awareness_orders(&self) -> &BTreeSet<String> {
        &self.tactical
    }

    /// Troopers holding an Impetuous token.
    pub fn impetuous_tokens(&self) -> &BTreeSet<String> {
        &self.impetuous
    }

    /// Special Lieutenant Orders left to `side` this Turn.
    pub fn lieutenant_orders(&self, side: Side) -> u32 {
        *self.lieutenant_orders.get(side)
    }

    /// `side`'s Lieutenant (private information in play; the engine knows it).
    pub fn lieutenant(&self, side: Side) -> Option<&str> {
        self.lieutenant.get(side).as_deref()
    }

    /// Whether `side` is in Loss of Lieutenant this Turn.
    pub fn loss_of_lieutenant(&self, side: Side) -> bool {
        *self.loss_of_lieutenant.get(side)
    }

    /// Whether `side` is in Retreat!.
    pub fn in_retreat(&self, side: Side) -> bool {
        *self.retreat.get(side)
    }

    /// Whether troopers may still be deployed ([`Event::Deploy`]): before the game's first Order
    /// Count (Round 1, the first Turn's Tactical Phase).
    pub fn deployment_open(&self) -> bool {
        self.round == 1 && self.turn == 1 && self.phase == Phase::Tactical
    }

    /// The Deployment Phase's step, when the setup says who deploys first and deployment is still
    /// open (before the first Order Count); `None` otherwise.
    pub fn deployment_step(&self) -> Option<DeploymentStep> {
        let side = self.deployment_placer().filter(|_| self.deployment_open())??;
        Some(DeploymentStep {
            number: self.deployment.step + 1,
            side,
            held_back: self.deployment.held_back,
            to_place: self.to_place(side),
            off_table: self.off_table(side),
        })
    }

    /// Whether the Deployment Phase's steps let trooper `id`, off the table, be placed now
    /// ([`Game::deployment_step`]; always, when the setup does not say who deploys first). Where
    /// it may stand is another matter: that is checked when it is placed.
    pub fn deployment_allows(&self, id: &str) -> bool {
        let Ok(i) = self.index(id) else { return false };
        self.deployment_open() && self.check_deployment_step(i).is_ok()
    }

    /// Whether the player with the first Turn may spend a Command Token now to hold back one extra
    /// trooper ([`StrategicUse::HoldBackTrooper`]): during deployment, once, with a token left,
    /// and — when the setup says who deploys first — before its own first step is over, while it
    /// has more troopers to place than it keeps back.
    pub fn hold_back_open(&self) -> bool {
        let side = self.setup.first;
        self.deployment_open()
            && !self.deployment.hold_back_used
            && self.command_tokens(side) > 0
            && self.own_deployment_open(side)
            && self.more_to_hold_back(side)
    }

    /// Whether `side`'s first Deployment step is not over yet (always, when the setup does not say
    /// who deploys first).
    fn own_deployment_open(&self, side: Side) -> bool {
        match self.setup.deploys_first {
            None => true,
            Some(d) => self.deployment.step <= if d == side { 0 } else { 1 },
        }
    }

    /// Whether `side` has more troopers still to place than it keeps back (always, when the setup
    /// does not say who deploys first: then the steps are not followed).
    fn more_to_hold_back(&self, side: Side) -> bool {
        self.setup.deploys_first.is_none() || self.wholly_off(side) > *self.deployment.held_back.get(side)
    }

    /// Whether the second player may make its Strategic Use of a Command Token now: after the
    /// first Turn's Order Count, before any Order is spent, once a game, with a token left
    /// (digest §4; [`Event::StrategicCommandToken`]).
    pub fn strategic_use_open(&self) -> bool {
        self.round == 1
            && self.turn == 1
            && !matches!(self.phase, Phase::Tactical | Phase::GameOver)
            && self.orders_this_turn == 0
            && self.order.is_none()
            && !self.strategic_used
            && self.command_tokens(self.reactive()) > 0
    }

    /// Command Tokens `side` has left.
    pub fn command_tokens(&self, side: Side) -> u32 {
        *self.command_tokens.get(side)
    }

    /// `side`'s Fireteams.
    pub fn fireteams(&self, side: Side) -> &[Fireteam] {
        self.fireteams.get(side)
    }

    /// The ids of `side`'s Fireteams that creating one more of `kind` would cancel, oldest first
    /// (Fireteam Cancellation case 5: those over the army's limit for the type,
    /// [`super::FireteamLimits`]), or why the army may form none of that type.
    pub fn fireteams_cancelled_by_one_more(&self, side: Side, kind: FireteamKind) -> Result<Vec<&str>, String> {
        let limits = self.setup.armies.get(side).fireteam_limits;
        if let Some(why) = limits.exceeded(kind, 1) {
            return Err(why);
        }
        let same: Vec<&str> =
            self.fireteams.get(side).iter().filter(|f| f.kind == kind).map(|f| f.id.as_str()).collect();
        let over = limits.max(kind).map_or(0, |max| (same.len() + 1).saturating_sub(max));
        Ok(same[..over].to_vec())
    }

    /// The camera calibration in force: the setup's, or the latest `calibrate` event's.
    pub fn calibration(&self) -> Option<&CalibrationSetup> {
        self.calibration.as_ref()
    }

    /// Events applied so far.
    pub fn events_applied(&self) -> usize {
        self.events
    }

    /// Who may use `side`'s Special Lieutenant Order now: the Lieutenant and NCOs not Isolated
    /// and not Null (seed 002 FAQs).
    pub fn lieutenant_order_users(&self, side: Side) -> Vec<&str> {
        if self.lieutenant_orders(side) == 0 {
            return Vec::new();
        }
        self.troopers
            .iter()
            .filter(|t| t.side == side && t.on_table() && !t.is_null() && !t.is(State::Isolated))
            .filter(|t| self.lieutenant(side) == Some(t.id.as_str()) || t.has(Ability::Nco))
            .map(|t| t.id.as_str())
            .collect()
    }

    /// The training a trooper counts as now: Irregular when listed so, when its army is in Loss
    /// of Lieutenant (or Retreat!, unless it ignores Retreat!), or when it is Isolated (digest §4).
    pub fn training_now(&self, t: &TrooperState) -> Training {
        // Loss of Lieutenant (digest §4) makes everyone Irregular. Retreat! puts the army in it too,
        // except troopers with exempting skills (Courage…: `IgnoresRetreat`); those stay Regular
        // only when the Lieutenant itself is fit — a dead Lieutenant's Loss of Lieutenant has
        // no exemption.
        let lol = if self.in_retreat(t.side) && t.has(Ability::IgnoresRetreat) {
            *self.lieutenant_lost.get(t.side)
        } else {
            self.loss_of_lieutenant(t.side)
        };
        if t.training == Training::Irregular || lol || t.is(State::Isolated) {
            Training::Irregular
        } else {
            Training::Regular
        }
    }

    /// Why Fireteam `f` is not deployed in Coherency (digest §7 "Coherency", Deployment: players
    /// check it and adjust positions): the first member not on the table inside its Team
    /// Leader's ZoC.
    fn out_of_coherency(&self, f: &Fireteam) -> Option<String> {
        if !self.trooper(&f.leader).is_some_and(|t| t.on_table()) {
            return Some(format!(
                "its Team Leader \"{}\" is not on the table (Fireteams are deployed in Coherency)",
                f.leader
            ));
        }
        let (m, _) = self.coherency(f).into_iter().find(|(_, ok)| !ok)?;
        let why = if self.trooper(&m).is_some_and(|t| t.on_table()) { "not inside" } else { "not on the table inside" };
        Some(format!(
            "\"{m}\" is not in Coherency: {why} the Team Leader \"{}\"'s ZoC (Fireteams are deployed in Coherency)",
            f.leader
        ))
    }

    /// Whether each member of a Fireteam is in Coherency (inside the Team Leader's ZoC).
    pub fn coherency(&self, f: &Fireteam) -> BTreeMap<String, bool> {
        let leader = self.trooper(&f.leader).and_then(|t| t.body());
        f.members
            .iter()
            .map(|m| {
                let ok = match (leader, self.trooper(m).and_then(|t| t.body())) {
                    (Some(l), Some(b)) => m == &f.leader || zoc(&l, &b).is_inside(),
                    _ => false,
                };
                (m.clone(), ok)
            })
            .collect()
    }

    /// Whether Peripheral `id` is in Coherency with its Controller: inside the Controller's ZoC
    /// (digest §1 "Coherency", ✅: "Linked troopers must be inside the ZoC of the Reference
    /// Trooper (… Peripheral Controller …)"). `None` for a trooper that is not a Peripheral, or
    /// when it or its Controller is not on the table. Shown, not enforced: what a Peripheral out
    /// of Coherency may not do is not in the sources at hand.
    pub fn peripheral_coherency(&self, id: &str) -> Option<bool> {
        let t = self.trooper(id)?;
        let controller = self.trooper(t.peripheral_of.as_deref()?)?;
        Some(zoc(&controller.body()?, &t.body()?).is_inside())
    }

    // ----- helpers ----------------------------------------------------------------------------

    fn index(&self, id: &str) -> Result<usize, Rejection> {
        match self.troopers.iter().position(|t| t.id == id) {
            Some(i) => Ok(i),
            None => reject(Rule::BadInput, format!("no trooper \"{id}\" in this game")),
        }
    }

    fn fireteam_of(&self, id: &str) -> Option<(Side, usize)> {
        for side in [Side::A, Side::B] {
            if let Some(k) = self.fireteams.get(side).iter().position(|f| f.members.iter().any(|m| m == id)) {
                return Some((side, k));
            }
        }
        None
    }

    fn need_no_order(&self, what: &str) -> Result<(), Rejection> {
        if self.order.is_some() {
            return reject(Rule::OrderExpenditure, format!("{what} cannot happen while an Order is being carried out"));
        }
        Ok(())
    }

    fn spend_command_token(&mut self, side: Side, what: &str) -> Result<(), Rejection> {
        if side != self.active() {
            return reject(
                Rule::CommandTokens,
                format!("{what}: no Command Tokens may be spent in your Reactive Turn"),
            );
        }
        if self.command_tokens(side) == 0 {
            return reject(Rule::CommandTokens, format!("{what}: no Command Tokens left"));
        }
        if let Some(limit) = self.ct_limit
            && self.ct_spent_this_turn >= limit
        {
            return reject(
                Rule::CommandTokens,
                format!("{what}: limited to {limit} Command Token this Turn (Strategic Use)"),
            );
        }
        *self.command_tokens.get_mut(side) -= 1;
        self.ct_spent_this_turn += 1;
        Ok(())
    }

    /// Every trooper's body (None when off the table or Dead).
    fn bodies(&self) -> (Vec<Body>, Vec<Option<usize>>) {
        let mut bodies = Vec::new();
        let map = self
            .troopers
            .iter()
            .map(|t| {
                t.body().map(|b| {
                    bodies.push(b);
                    bodies.len() - 1
                })
            })
            .collect();
        (bodies, map)
    }

    /// N4 Engaged State (activation and cancellation, PDF 2.1): a trooper is Engaged while it is
    /// in Silhouette contact ([`assume::SILHOUETTE_CONTACT_IN`]) with an enemy trooper, neither in
    /// a Null state (Sepsitorized excepted) nor — `MARKERS_ARE_NOT_ENGAGED` — a marker; it stops
    /// being Engaged once no such enemy is in contact (a Dodge out of contact, the enemy falling
    /// Unconscious at Resolution). Worked out after every event, so it always follows the table.
    fn derive_engaged(&mut self) {
        let engaged: Vec<bool> = (0..self.troopers.len()).map(|i| !self.close_combat(i).is_empty()).collect();
        for (t, e) in self.troopers.iter_mut().zip(engaged) {
            if e {
                t.states.insert(State::Engaged);
            } else {
                t.states.remove(&State::Engaged);
            }
        }
    }

    /// The enemies trooper `i` is in Close Combat with (N4 Engaged State): those in Silhouette
    /// contact with it, when neither is in a Null state (Sepsitorized excepted) nor a marker
    /// (`MARKERS_ARE_NOT_ENGAGED`). Indices into the troopers.
    fn close_combat(&self, i: usize) -> Vec<usize> {
        let able = |t: &TrooperState| {
            t.on_table()
                && !t.states.iter().any(|s| {
                    (s.is_null() && *s != State::Sepsitorized) || (assume::MARKERS_ARE_NOT_ENGAGED && s.is_marker())
                })
        };
        let Some(me) = self.troopers.get(i).filter(|t| able(t)) else { return Vec::new() };
        let Some(body) = me.body() else { return Vec::new() };
        self.troopers
            .iter()
            .enumerate()
            .filter(|&(k, o)| k != i && o.side != me.side && able(o))
            .filter(|(_, o)| o.body().is_some_and(|b| distance(&body, &b) <= assume::SILHOUETTE_CONTACT_IN))
            .map(|(k, _)| k)
            .collect()
    }

    /// Everyone taking part in trooper `i`'s Close Combat: the troopers Engaged with it, those
    /// Engaged with them, and so on (a chain of bases in contact is one Close Combat); empty when
    /// it is not Engaged. Indices, in order.
    fn close_combat_group(&self, i: usize) -> Vec<usize> {
        let mut group = vec![i];
        let mut k = 0;
        while k < group.len() {
            for j in self.close_combat(group[k]) {
                if !group.contains(&j) {
                    group.push(j);
                }
            }
            k += 1;
        }
        if group.len() == 1 {
            group.clear();
        }
        group.sort_unstable();
        group
    }

    /// The ids of the enemies trooper `id` is in Close Combat with, in Silhouette contact (N4
    /// Engaged State); empty when it is not Engaged.
    pub fn close_combat_of(&self, id: &str) -> Vec<String> {
        let Some(i) = self.troopers.iter().position(|t| t.id == id) else { return Vec::new() };
        self.close_combat(i).into_iter().map(|k| self.troopers[k].id.clone()).collect()
    }

    /// A member leaves its Fireteam (seed 003); a leader leaving cancels it at the end of the Order.
    fn leave_fireteam(&mut self, id: &str, why: &str) {
        self.leave_fireteam_in_order(id, why);
        if self.order.is_none() {
            self.cancel_fireteams_due();
        }
    }

    /// Cancel Fireteams marked for cancellation or reduced below two members (Fireteam
    /// Cancellation cases 1–3).
    fn cancel_fireteams_due(&mut self) {
        for side in [Side::A, Side::B] {
            self.fireteams.get_mut(side).retain(|f| f.cancel_at_end_of_order.is_none() && f.members.len() >= 2);
        }
    }

    fn cancel_small_fireteams(&mut self) {
        for side in [Side::A, Side::B] {
            self.fireteams.get_mut(side).retain(|f| f.members.len() >= 2);
        }
    }

    /// Remove `side`'s Irregular, Tactical Awareness and Impetuous tokens (a Turn's Orders do not
    /// carry over); returns the ids of `side`'s troopers.
    fn drop_held_orders(&mut self, side: Side) -> BTreeSet<String> {
        let mine: BTreeSet<String> = self.troopers.iter().filter(|t| t.side == side).map(|t| t.id.clone()).collect();
        self.irregular.retain(|id, _| !mine.contains(id));
        self.tactical.retain(|id| !mine.contains(id));
        self.impetuous.retain(|id| !mine.contains(id));
        mine
    }

    // ----- Tactical Phase ----------------------------------------------------------------------

    /// Deployment Phase (N4 Initiative and Deployment, <https://infinitythewiki.com/index.php?title=Initiative_and_Deployment&oldid=1224>):
    /// before the game begins — here, before the first Order Count — a trooper is placed on the
    /// table: totally inside its player's Deployment Zone when the setup sets the zones (the
    /// mission does; [`Game::outside_deployment_zone`]), and where it can stand
    /// ([`Game::check_standing`]); and, when the setup says who deploys first, in its step
    /// ([`Game::check_deployment_step`]).
    fn deploy(&mut self, id: &str, x: f64, y: f64, facing: f64, elevation: f64) -> Result<(), Rejection> {
        if !self.deployment_open() {
            return reject(
                Rule::Deployment,
                "troopers are deployed before the game begins (before the first Order Count)",
            );
        }
        let i = self.index(id)?;
        if ![x, y, facing, elevation].iter().all(|v| v.is_finite()) || elevation < 0.0 {
            return reject(Rule::BadInput, format!("{id}: a position needs finite x, y, facing and an elevation ≥ 0"));
        }
        if !(0.0..=self.table.width).contains(&x) || !(0.0..=self.table.depth).contains(&y) {
            return reject(
                Rule::Deployment,
                format!(
                    "{id}: ({}, {}) is off the {}\"×{}\" table",
                    inches(x),
                    inches(y),
                    self.table.width,
                    self.table.depth
                ),
            );
        }
        if self.troopers[i].is(State::Dead) {
            return reject(Rule::Deployment, format!("{id} is dead"));
        }
        let newly_placed = self.troopers[i].position.is_none();
        self.check_deployment_step(i)?;
        self.troopers[i].position = Some(Placement { x, y, facing, elevation });
        if newly_placed {
            let next = self.placed_at.iter().flatten().max().map_or(1, |n| n + 1);
            self.placed_at[i] = Some(next);
        }
        if let Some(why) = self.outside_deployment_zone(i) {
            return reject(Rule::Deployment, why);
        }
        // In a player's last step, what it places is counted by deployment units: a Controller
        // with its Peripherals is one, placed when the last of them is.
        let side = self.troopers[i].side;
        if newly_placed
            && self.deployment.step >= 2
            && self.deployment_placer() == Some(Some(side))
            && self.unit_off_table(i).is_empty()
        {
            *self.deployment.last_placed.get_mut(side) += 1;
        }
        Ok(())
    }

    /// The Deployment Phase's steps (N4 Initiative and Deployment; [`DeploymentStep`]), when the
    /// setup says who deploys first: placing trooper `i` (off the table until now) is refused
    /// unless it is its player's step. A step ends by itself once its player has placed what it
    /// may (all but the troopers it keeps back; then those), or when the player says it is done
    /// ([`Event::EndDeploymentStep`]: a player may keep troopers off the table, Airborne
    /// Deployment …). Tagging a trooper that is already on the table again only moves it
    /// (`RETAG_AT_ANY_DEPLOYMENT_STEP`).
    fn check_deployment_step(&self, i: usize) -> Result<(), Rejection> {
        let Some(placer) = self.deployment_placer() else { return Ok(()) };
        let side = self.troopers[i].side;
        let id = &self.troopers[i].id;
        if self.troopers[i].position.is_some() {
            if assume::RETAG_AT_ANY_DEPLOYMENT_STEP || placer == Some(side) {
                return Ok(());
            }
            return reject(Rule::Deployment, format!("{id} is on the table: it moves only in {side:?}'s own step"));
        }
        let Some(placer) = placer else {
            return reject(Rule::Deployment, "every step of the Deployment Phase is over; the Order Count is next");
        };
        if placer != side && self.deployment.step == 3 {
            return reject(
                Rule::Deployment,
                format!(
                    "{side:?}'s deployment is over: step 4 of 4 is {placer:?}'s last (N4 Initiative and Deployment)"
                ),
            );
        }
        if placer != side {
            let step = self.deployment.step + 1;
            return reject(
                Rule::Deployment,
                format!(
                    "step {step} of 4: {placer:?} places {}; {side:?} deploys when {placer:?} is done \
                     (N4 Initiative and Deployment)",
                    self.step_task(placer)
                ),
            );
        }
        // A trooper that starts a deployment unit (none of its Controller and Peripherals is on
        // the table yet) needs room in the step: in the first two, a unit wholly off the table is
        // left to keep back; in the last ones, the units already placed or begun leave one to place.
        let starts = self.deployment_unit(i).all(|t| t.position.is_none());
        let split = self.split_units(side);
        let held = *self.deployment.held_back.get(side);
        if starts && !split.is_empty() {
            let full = if self.deployment.step < 2 {
                self.wholly_off(side) <= held
            } else {
                *self.deployment.last_placed.get(side) + split.len() as u32 >= held
            };
            if full {
                return reject(
                    Rule::Deployment,
                    format!(
                        "step {} of 4: {side:?} places {}, and has begun {}: a Controller and its Peripherals are \
                         deployed at the same time (N4 Peripheral), so place the rest of them first",
                        self.deployment.step + 1,
                        self.step_task(side),
                        split
                            .iter()
                            .map(|(p, off)| format!("{p} (with {} still off the table)", off.join(", ")))
                            .collect::<Vec<_>>()
                            .join(" and ")
                    ),
                );
            }
        }
        Ok(())
    }

    /// The deployment unit trooper `i` belongs to (N4 Peripheral: "Peripherals are deployed on the
    /// game table at the same time as their Controller", the N4 text of
    /// <https://infinitythewiki.com/index.php?title=Peripheral&diff=cur&oldid=2444>): a Controller
    /// and its Peripherals, or a trooper alone; Dead troopers left out.
    fn deployment_unit(&self, i: usize) -> impl Iterator<Item = &TrooperState> {
        let root = self.troopers[i].unit_root();
        self.troopers.iter().filter(move |t| t.unit_root() == root && !t.is(State::Dead))
    }

    /// The ids of the troopers of trooper `i`'s deployment unit that are still off the table.
    fn unit_off_table(&self, i: usize) -> Vec<String> {
        self.deployment_unit(i).filter(|t| t.position.is_none()).map(|t| t.id.clone()).collect()
    }

    /// `side`'s deployment units that are partly on the table: a Controller placed and one of its
    /// Peripherals not, or the other way round — each as (one placed, those still off the table).
    /// A step may not end on one ([`Game::advance_deployment`], [`Game::end_deployment_step`]).
    fn split_units(&self, side: Side) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for (i, t) in self.troopers.iter().enumerate() {
            if t.side != side || t.position.is_none() || t.is(State::Dead) {
                continue;
            }
            let off = self.unit_off_table(i);
            if !off.is_empty() && !out.iter().any(|(_, o)| o == &off) {
                out.push((t.id.clone(), off));
            }
        }
        out
    }

    /// Who places troopers in the Deployment Phase's current step: `None` when the setup does not
    /// say who deploys first; `Some(None)` when every step is over.
    fn deployment_placer(&self) -> Option<Option<Side>> {
        let first = self.setup.deploys_first?;
        Some(match self.deployment.step {
            0 | 2 => Some(first),
            1 | 3 => Some(opponent(first)),
            _ => None,
        })
    }

    /// `side`'s deployment units with a trooper off the table (and not Dead): still to be placed,
    /// a Controller with its Peripherals counting as one ([`Game::deployment_unit`]).
    fn to_place(&self, side: Side) -> u32 {
        let mut units: Vec<&str> = self.still_off(side).map(TrooperState::unit_root).collect();
        units.sort_unstable();
        units.dedup();
        units.len() as u32
    }

    /// `side`'s troopers off the table (and not Dead), each counted.
    fn off_table(&self, side: Side) -> u32 {
        self.still_off(side).count() as u32
    }

    /// `side`'s troopers off the table and not Dead: still to be placed.
    fn still_off(&self, side: Side) -> impl Iterator<Item = &TrooperState> {
        self.troopers.iter().filter(move |t| t.side == side && t.position.is_none() && !t.is(State::Dead))
    }

    /// `side`'s deployment units wholly off the table: those it may keep back (one partly placed
    /// may not be: [`Game::split_units`]).
    fn wholly_off(&self, side: Side) -> u32 {
        self.to_place(side) - self.split_units(side).len() as u32
    }

    /// What `side` does in the current step, in words ("all but 1 of its troopers").
    fn step_task(&self, side: Side) -> String {
        let held = *self.deployment.held_back.get(side);
        let s = if held == 1 { "" } else { "s" };
        if self.deployment.step < 2 {
            format!("all but {held} of its troopers")
        } else {
            format!("the {held} trooper{s} it kept back")
        }
    }

    /// Pass every step whose player has placed what it may: in its first step, all but the
    /// troopers it keeps back; in its last, those (or it has none left off the table).
    fn advance_deployment(&mut self) {
        while let Some(Some(side)) = self.deployment_placer() {
            let (left, held) = (self.to_place(side), *self.deployment.held_back.get(side));
            let whole = self.split_units(side).is_empty();
            let over = if self.deployment.step < 2 {
                left <= held && whole
            } else {
                left == 0 || (*self.deployment.last_placed.get(side) >= held && whole)
            };
            if !over {
                break;
            }
            self.deployment.step += 1;
        }
    }

    /// The player of the current Deployment step is done: it places no more troopers in it.
    fn end_deployment_step(&mut self) -> Result<(), Rejection> {
        if !self.deployment_open() {
            return reject(Rule::Deployment, "deployment is over: the game has begun");
        }
        match self.deployment_placer() {
            None => reject(Rule::Deployment, "the setup does not say who deploys first, so there are no steps to end"),
            Some(None) => reject(Rule::Deployment, "every step of the Deployment Phase is over already"),
            Some(Some(side)) => {
                if let Some((placed, off)) = self.split_units(side).into_iter().next() {
                    return reject(
                        Rule::Deployment,
                        format!(
                            "{placed} is on the table and {} not: a Controller and its Peripherals are deployed at \
                             the same time (N4 Peripheral): place {} in this step (or undo {placed}'s tag)",
                            off.join(", "),
                            if off.len() == 1 { "it" } else { "them" }
                        ),
                    );
                }
                self.deployment.step += 1;
                Ok(())
            }
        }
    }

    /// The first-Turn player's Strategic Use of a Command Token (digest §4 "Command Tokens":
    /// "during their deployment … hold back one extra trooper and deploy it after the opponent"):
    /// accepted before the first Order Count, once, while that player's first step is not over.
    fn hold_back_trooper(&mut self) -> Result<(), Rejection> {
        let side = self.setup.first;
        if !self.hold_back_open() {
            let why = if !self.deployment_open() {
                "it is made during deployment, before the first Order Count".to_string()
            } else if self.deployment.hold_back_used {
                format!("{side:?} has already held back an extra trooper")
            } else if self.command_tokens(side) == 0 {
                format!("{side:?} has no Command Tokens left")
            } else if !self.own_deployment_open(side) {
                format!("it is made during {side:?}'s own deployment, which is over")
            } else {
                // A Controller placed without all its Peripherals is not one that can be held back.
                let n = self.wholly_off(side);
                format!(
                    "{side:?} has {n} trooper{} still to place and keeps {} back already: nothing more to hold back",
                    if n == 1 { "" } else { "s" },
                    self.deployment.held_back.get(side)
                )
            };
            return reject(Rule::CommandTokens, format!("Strategic Use (hold back one extra trooper): {why}"));
        }
        let held = self.deployment.held_back.get_mut(side);
        *held += 1;
        *self.command_tokens.get_mut(side) -= 1;
        self.deployment.hold_back_used = true;
        Ok(())
    }

    /// N4 deployment ("Troopers cannot be deployed in contact with enemy and neutral Models,
    /// Markers, or Tokens, or in contact with any mission objective, no matter the Special Skills
    /// they have", the N4 Forward Deployment page, <https://infinitythewiki.com/index.php?title=Forward_Deployment&diff=prev&oldid=947>):
    /// a `deploy` that leaves trooper `i` (standing where it may: [`Game::check_standing`]
    /// first) in Silhouette contact (`SILHOUETTE_CONTACT_IN`) with an
    /// enemy on the table, Model or marker, in any state, is refused. (Neutral Models and mission
    /// objectives are not on sightline's table. A setup's own positions are not held to it: a
    /// setup may start from a table in play.)
    fn check_deployment_contact(&self, i: usize) -> Result<(), Rejection> {
        let me = &self.troopers[i];
        let Some(body) = me.body() else { return Ok(()) };
        let touching = self.troopers.iter().enumerate().find(|&(k, o)| {
            k != i
                && o.side != me.side
                && !o.is(State::Dead)
                && o.body().is_some_and(|b| distance(&body, &b) <= assume::SILHOUETTE_CONTACT_IN)
        });
        match touching {
            Some((_, o)) => reject(
                Rule::Deployment,
                format!(
                    "{} would be deployed in contact with {} ({:?}'s): no trooper is deployed in contact with an \
                     enemy Model or Marker, whatever its Special Skills (N4 Deployment)",
                    me.id, o.id, o.side
                ),
            ),
            None => Ok(()),
        }
    }

    /// Why trooper `i` may not deploy where it stands, if it may not: outside what its Deployment
    /// Zone and its Deployment Skills allow ([`Game::deployment_verdict`]), or `None`.
    fn outside_deployment_zone(&self, i: usize) -> Option<String> {
        self.deployment_verdict(i)?.err()
    }

    /// Where trooper `i` stands against where it may deploy, when the setup sets Deployment Zones
    /// (N4 Initiative and Deployment: troopers are placed totally inside their player's zone;
    /// "Totally Inside": the whole Silhouette, so the whole base; "some Special Skills … allow
    /// players to place certain troops outside their Deployment Zones"). Each way it may deploy
    /// ([`Game::deployment_reaches`]) is tried: `Ok(None)` when one lets it stand there, `Ok(Some
    /// (roll))` when one does only by passing a Roll (the players'; what it is and why), `Err(why)`
    /// when none does. `None` without zones, off the table, or for a skill not checked.
    fn deployment_verdict(&self, i: usize) -> Option<Result<Option<String>, String>> {
        let t = &self.troopers[i];
        let body = t.body()?;
        let own = self.setup.deployment_zone(t.side).ok().flatten()?;
        let enemy = self.setup.deployment_zone(opponent(t.side)).ok().flatten();
        let (c, r) = (body.centre, body.radius());
        let out = crate::geometry::base_outside_area(&own, c, r);
        let (me, side, them) = (&t.id, t.side, opponent(t.side));
        // Whether any part of the base is inside the enemy zone.
        let in_enemy_zone =
            enemy.as_ref().is_some_and(|z| crate::geometry::base_overlaps_area(z, c, r, DEPLOYMENT_ZONE_SLACK_IN));
        let mut refusal = format!(
            "{me}'s base reaches {out:.3}\" outside {side:?}'s Deployment Zone; troopers deploy totally inside their own"
        );
        let mut roll = None;
        for reach in self.deployment_reaches(i) {
            match reach {
                DeploymentReach::Unchecked => return None,
                DeploymentReach::Beyond { inches, skill } => {
                    if out <= inches + DEPLOYMENT_ZONE_SLACK_IN {
                        return Some(Ok(None));
                    }
                    refusal = format!(
                        "{me}'s base reaches {out:.3}\" outside {side:?}'s Deployment Zone: {skill} lets it deploy up \
                         to {inches}\" beyond it, no farther"
                    );
                }
                DeploymentReach::Impersonation => {
                    if !in_enemy_zone {
                        return Some(Ok(None));
                    }
                    roll.get_or_insert(format!(
                        "{me} stands inside {them:?}'s Deployment Zone: Impersonation deploys there only by passing a \
                         Normal WIP Roll made once it is placed (N4 Impersonation); if it fails, a Dispersion Roll \
                         moves it"
                    ));
                }
                DeploymentReach::Infiltration => {
                    let half = enemy.as_ref().and_then(|z| own_half(self.table, &own, z));
                    let in_own_half =
                        half.is_none_or(|h| crate::geometry::base_outside_area(&h, c, r) <= DEPLOYMENT_ZONE_SLACK_IN);
                    if out <= DEPLOYMENT_ZONE_SLACK_IN || in_own_half {
                        return Some(Ok(None));
                    }
                    if in_enemy_zone && !assume::INFILTRATION_ENEMY_ZONE {
                        refusal = format!(
                            "{me} stands inside {them:?}'s Deployment Zone: Infiltration deploys in the enemy half of \
                             the table but not inside the enemy Deployment Zone (assumption INFILTRATION_ENEMY_ZONE)"
                        );
                        continue;
                    }
                    roll.get_or_insert(format!(
                        "{me} stands in {them:?}'s half of the table: Infiltration deploys there only by passing a {} \
                         Roll (assumption INFILTRATION_ENEMY_HALF_ROLL); if it fails, it deploys in {side:?}'s \
                         Deployment Zone",
                        assume::INFILTRATION_ENEMY_HALF_ROLL
                    ));
                }
            }
        }
        if out <= DEPLOYMENT_ZONE_SLACK_IN {
            return Some(Ok(None));
        }
        if let Some(Err(why)) = self.strategic_deployment(i) {
            refusal = format!("{refusal} ({why})");
        }
        Some(roll.map(Some).ok_or(refusal))
    }

    /// The Roll trooper `id`'s place at deployment needs, if it needs one: a Deployment Skill lets
    /// it stand there only by passing it (N4 Impersonation inside the enemy Deployment Zone;
    /// Infiltration in the enemy half, `INFILTRATION_ENEMY_HALF_ROLL`). What the Roll is and what
    /// a failure does; the dice are the players'.
    pub fn deployment_roll(&self, id: &str) -> Option<String> {
        let i = self.index(id).ok()?;
        self.deployment_verdict(i)?.ok().flatten()
    }

    /// How far beyond its Deployment Zone trooper `id` may deploy now, inches, when a Deployment
    /// Skill sets a distance (Forward Deployment; Strategic Deployment while it applies): the
    /// farthest, for the plan to draw. `None` for none.
    pub fn deployment_reach_in(&self, id: &str) -> Option<f64> {
        let i = self.index(id).ok()?;
        self.deployment_reaches(i)
            .into_iter()
            .filter_map(|r| match r {
                DeploymentReach::Beyond { inches, .. } => Some(inches),
                _ => None,
            })
            .reduce(f64::max)
    }

    /// The ways trooper `i` may deploy beyond its Deployment Zone, from its Deployment Skills
    /// (N4): Forward Deployment (+4" or +8"); Strategic Deployment, when it applies
    /// ([`Game::strategic_deployment`]); Impersonation; Infiltration; and skills sightline
    /// does not check ([`Ability::DeploysOutsideZone`]).
    fn deployment_reaches(&self, i: usize) -> Vec<DeploymentReach> {
        let t = &self.troopers[i];
        let mut out = Vec::new();
        if t.has(Ability::DeploysOutsideZone) {
            out.push(DeploymentReach::Unchecked);
        }
        if t.has(Ability::Impersonation) {
            out.push(DeploymentReach::Impersonation);
        }
        if t.has(Ability::Infiltration) {
            out.push(DeploymentReach::Infiltration);
        }
        if t.has(Ability::ForwardDeployment8) {
            out.push(DeploymentReach::Beyond { inches: 8.0, skill: "Forward Deployment (+8\")" });
        }
        if t.has(Ability::ForwardDeployment4) {
            out.push(DeploymentReach::Beyond { inches: 4.0, skill: "Forward Deployment (+4\")" });
        }
        if let Some(Ok(leader)) = self.strategic_deployment(i) {
            let skill = if leader == i {
                "Strategic Deployment (as Forward Deployment (+4\"))"
            } else {
                "its Team Leader's Strategic Deployment (as Forward Deployment (+4\"))"
            };
            out.push(DeploymentReach::Beyond { inches: 4.0, skill });
        }
        out
    }

    /// N4 Strategic Deployment (<https://infinitythewiki.com/Strategic_Deployment>), for trooper
    /// `i`: `None` when neither it nor its Fireteam's Team Leader has the skill; `Ok(leader)` (an
    /// index) when the skill's requirements hold — "the owner … must be the first member of the
    /// Fireteam to be deployed on the game table", "deployed as the Team Leader" — and its effect
    /// reaches `i`: "first the owner of this Special Skill, and then the rest of their Fireteam,
    /// can be deployed as if they have the Forward Deployment (+4") Special Skill" (the leader
    /// itself, or a member placed after it); `Err(why not)` otherwise. Troopers the setup places
    /// count as placed together, before any `deploy`.
    fn strategic_deployment(&self, i: usize) -> Option<Result<usize, String>> {
        let t = &self.troopers[i];
        let team = self.fireteams.get(t.side).iter().find(|f| f.members.contains(&t.id));
        let Some((team, leader)) = team.and_then(|f| Some((f, self.index(&f.leader).ok()?))) else {
            return t.has(Ability::StrategicDeployment).then(|| {
                Err(format!("{} has Strategic Deployment but is in no Fireteam: it works for a Team Leader", t.id))
            });
        };
        let owner = &self.troopers[leader];
        if !owner.has(Ability::StrategicDeployment) {
            return t.has(Ability::StrategicDeployment).then(|| {
                Err(format!("{} has Strategic Deployment but {}'s Team Leader is {}", t.id, team.id, owner.id))
            });
        }
        let at = |k: usize| self.placed_at.get(k).copied().flatten();
        let Some(lead_at) = at(leader) else {
            return Some(Err(format!(
                "Strategic Deployment: {} deploys first of {}, then the rest",
                owner.id, team.id
            )));
        };
        let before = |k: usize| k != leader && at(k).is_some_and(|a| a < lead_at);
        if let Some(k) = team.members.iter().filter_map(|m| self.index(m).ok()).find(|&k| before(k)) {
            return Some(Err(format!(
                "Strategic Deployment needs {} deployed first of {}, and {} was deployed before it",
                owner.id, team.id, self.troopers[k].id
            )));
        }
        Some(Ok(leader))
    }

    fn order_count(&mut self) -> Result<(), Rejection> {
        if self.phase != Phase::Tactical {
            return reject(
                Rule::GameSequence,
                "the Order Count is step 4 of the Tactical Phase, which is over this Turn",
            );
        }
        // The first Order Count ends deployment: every Fireteam formed at deployment stands in
        // Coherency (digest §7 "Coherency", Deployment), whoever placed it last.
        if self.deployment_open() {
            if let Some(Some(placer)) = self.deployment_placer() {
                return reject(
                    Rule::Deployment,
                    format!(
                        "the Deployment Phase is not over: step {} of 4, {placer:?} places {} ({} off the table); \
                         tag its Models, or end the step if {placer:?} keeps troopers off the table",
                        self.deployment.step + 1,
                        self.step_task(placer),
                        self.off_table(placer)
                    ),
                );
            }
            for side in [Side::A, Side::B] {
                if let Some((f, why)) =
                    self.fireteams.get(side).iter().find_map(|f| self.out_of_coherency(f).map(|w| (f, w)))
                {
                    return reject(
                        Rule::Fireteams,
                        format!(
                            "Fireteam \"{}\": {why}; tag the Models where they stand in Coherency before the game begins",
                            f.id
                        ),
                    );
                }
            }
        }
        let side = self.active();
        // Retreat! check (digest §4): surviving points ≤ a quarter of the army's.
        let army_points = self.setup.armies.get(side).total_points();
        let surviving: u32 = self.troopers.iter().filter(|t| t.side == side && !t.is_null()).map(|t| t.points).sum();
        let retreat = army_points > 0 && surviving <= assume::retreat_threshold(army_points);
        *self.retreat.get_mut(side) = retreat;
        if retreat {
            // Fireteam Cancellation case 4.
            self.fireteams.get_mut(side).clear();
        }
        // Loss of Lieutenant check (digest §4).
        let lt_ok = self
            .lieutenant(side)
            .and_then(|id| self.trooper(id))
            .is_some_and(|t| t.on_table() && !t.is_null() && !t.is(State::Isolated));
        *self.lieutenant_lost.get_mut(side) = !lt_ok;
        *self.loss_of_lieutenant.get_mut(side) = retreat || !lt_ok;
        // Order Count.
        let groups = self.setup.armies.get(side).groups.len();
        *self.pools.get_mut(side) = vec![0; groups];
        let mine = self.drop_held_orders(side);
        for i in 0..self.troopers.len() {
            let t = &self.troopers[i];
            if t.side != side || !t.on_table() || t.is_null() || t.peripheral_of.is_some() {
                continue;
            }
            let id = t.id.clone();
            let (group, ta, imp) = (t.group, t.has(Ability::TacticalAwareness), t.has(Ability::Impetuous));
            match self.training_now(t) {
                Training::Regular => self.pools.get_mut(side)[group] += 1,
                Training::Irregular => *self.irregular.entry(id.clone()).or_default() += 1,
            }
            if ta {
                self.tactical.insert(id.clone());
            }
            if imp {
                self.impetuous.insert(id);
            }
        }
        *self.lieutenant_orders.get_mut(side) = if self.loss_of_lieutenant(side) {
            0
        } else {
            let extra = self
                .lieutenant(side)
                .and_then(|id| self.trooper(id))
                .is_some_and(|t| t.lieutenant_option == Some(LieutenantOption::ExtraOrder));
            1 + u32::from(extra)
        };
        // Fireteam rejoin (seed 003): members who left rejoin if in Coherency with the leader.
        for k in 0..self.fireteams.get(side).len() {
            let f = self.fireteams.get(side)[k].clone();
            let leader = self.trooper(&f.leader).and_then(|t| t.body());
            let max = f.kind.size().1;
            let mut members = f.members.clone();
            let mut left = Vec::new();
            for id in &f.left {
                let Some(t) = self.trooper(id) else { continue };
                let fit = t.kept_out_of_fireteams().is_none()
                    && t.group == self.trooper(&f.leader).map_or(usize::MAX, |l| l.group)
                    && self.fireteam_of(id).is_none()
                    && members.len() < max
                    && matches!((leader, t.body()), (Some(l), Some(b)) if zoc(&l, &b).is_inside());
                if fit { members.push(id.clone()) } else { left.push(id.clone()) }
            }
            let f = &mut self.fireteams.get_mut(side)[k];
            f.members = members;
            f.left = left;
        }
        self.phase = if self.impetuous.iter().any(|id| mine.contains(id)) { Phase::Impetuous } else { Phase::Orders };
        Ok(())
    }

    fn create_fireteam(
        &mut self,
        id: &str,
        kind: FireteamKind,
        leader: &str,
        members: &[String],
    ) -> Result<(), Rejection> {
        if self.phase != Phase::Tactical {
            return reject(
                Rule::CommandTokens,
                "a Fireteam is created by Executive Use of a Command Token, at the start of the Tactical Phase",
            );
        }
        let side = self.active();
        if self.fireteams.a.iter().chain(&self.fireteams.b).any(|f| f.id == id) {
            return reject(Rule::BadInput, format!("a Fireteam \"{id}\" already exists"));
        }
        let (lo, hi) = kind.size();
        let unique: BTreeSet<&String> = members.iter().collect();
        if unique.len() != members.len() {
            return reject(Rule::Fireteams, "a trooper is listed twice");
        }
        if members.len() < lo || members.len() > hi {
            return reject(
                Rule::Fireteams,
                format!("{} members; a {} Fireteam has {lo} to {hi}", members.len(), kind.name()),
            );
        }
        if !members.iter().any(|m| m == leader) {
            return reject(Rule::Fireteams, format!("the Team Leader \"{leader}\" must be a member"));
        }
        let li = self.index(leader)?;
        let lbody = self.troopers[li].body();
        for m in members {
            let t = &self.troopers[self.index(m)?];
            if t.side != side {
                return reject(Rule::Fireteams, format!("{m} belongs to the Reactive Player"));
            }
            if t.group != self.troopers[li].group {
                return reject(Rule::Fireteams, format!("{m} is in another Combat Group; members share one"));
            }
            if t.peripheral_of.is_some() {
                return reject(Rule::Fireteams, format!("{m} is a Peripheral"));
            }
            if self.fireteam_of(m).is_some() {
                return reject(
                    Rule::Fireteams,
                    format!("{m} is already in a Fireteam; a trooper belongs to at most one"),
                );
            }
            if let Some(why) = t.kept_out_of_fireteams() {
                return reject(Rule::Fireteams, format!("{m} is {why} and cannot join (Fireteam Integrity)"));
            }
            match (lbody, t.body()) {
                (Some(l), Some(b)) if zoc(&l, &b).is_inside() => {}
                _ => return reject(Rule::Fireteams, format!("{m} is not in Coherency (inside the Team Leader's ZoC)")),
            }
        }
        if let Some(why) = self.setup.armies.get(side).fireteam_chart_problem(kind, members) {
            return reject(Rule::Fireteams, why);
        }
        let cancelled: Vec<String> = match self.fireteams_cancelled_by_one_more(side, kind) {
            Ok(ids) => ids.into_iter().map(String::from).collect(),
            Err(why) => return reject(Rule::Fireteams, why),
        };
        self.spend_command_token(side, "creating a Fireteam")?;
        // Fireteam Cancellation case 5: a Command Token creating another Fireteam of a limited type
        // (limited by the army's Fireteams Chart, or by default).
        self.fireteams.get_mut(side).retain(|f| !cancelled.contains(&f.id));
        self.fireteams.get_mut(side).push(Fireteam {
            id: id.to_string(),
            kind,
            leader: leader.to_string(),
            members: members.to_vec(),
            left: Vec::new(),
            cancel_at_end_of_order: None,
        });
        Ok(())
    }

    fn move_to_group(&mut self, id: &str, group: usize) -> Result<(), Rejection> {
        if self.phase != Phase::Tactical {
            return reject(
                Rule::CommandTokens,
                "moving a trooper to another Combat Group is Executive Use of a Command Token, at the start of the Tactical Phase",
            );
        }
        let side = self.active();
        let i = self.index(id)?;
        let t = &self.troopers[i];
        if t.side != side {
            return reject(Rule::CommandTokens, format!("{id} belongs to the Reactive Player"));
        }
        if t.peripheral_of.is_some() {
            return reject(Rule::Peripheral, format!("{id} is a Peripheral: it goes where its Controller goes"));
        }
        let groups = self.setup.armies.get(side).groups.len();
        if group >= groups {
            return reject(
                Rule::BadInput,
                format!("the army has {groups} Combat Groups; there is no group {}", group + 1),
            );
        }
        if t.group == group {
            return reject(Rule::BadInput, format!("{id} is already in Combat Group {}", group + 1));
        }
        let size =
            self.troopers.iter().filter(|o| o.side == side && o.group == group && o.peripheral_of.is_none()).count();
        if size >= super::roster::MAX_GROUP_SIZE {
            return reject(
                Rule::OrderPool,
                format!(
                    "Combat Group {} already has {size} troopers; at most {}",
                    group + 1,
                    super::roster::MAX_GROUP_SIZE
                ),
            );
        }
        self.spend_command_token(side, "moving a trooper to another Combat Group")?;
        let id = id.to_string();
        for t in self.troopers.iter_mut().filter(|t| t.id == id || t.peripheral_of.as_deref() == Some(id.as_str())) {
            t.group = group;
        }
        // Fireteam Integrity case 7: a trooper moved to another Combat Group leaves its Fireteam.
        self.leave_fireteam(&id, "moved to another Combat Group");
        Ok(())
    }

    fn cancel_fireteam(&mut self, id: &str) -> Result<(), Rejection> {
        self.need_no_order("cancelling a Fireteam")?;
        let side = self.active();
        let teams = self.fireteams.get_mut(side);
        match teams.iter().position(|f| f.id == id) {
            Some(k) => {
                teams.remove(k);
                Ok(())
            }
            None => reject(Rule::Fireteams, format!("the Active Player has no Fireteam \"{id}\"")),
        }
    }

    fn change_leader(&mut self, fireteam: &str, leader: &str) -> Result<(), Rejection> {
        self.need_no_order("changing the Team Leader")?;
        let side = self.active();
        let Some(f) = self.fireteams.get_mut(side).iter_mut().find(|f| f.id == fireteam) else {
            return reject(Rule::Fireteams, format!("the Active Player has no Fireteam \"{fireteam}\""));
        };
        if !f.members.iter().any(|m| m == leader) {
            return reject(Rule::Fireteams, format!("{leader} is not a member of {fireteam}"));
        }
        f.leader = leader.to_string();
        Ok(())
    }

    fn strategic(&mut self, u: &StrategicUse) -> Result<(), Rejection> {
        if *u == StrategicUse::HoldBackTrooper {
            return self.hold_back_trooper();
        }
        let second = self.reactive();
        if !(self.round == 1 && self.turn == 1 && self.phase != Phase::Tactical && self.orders_this_turn == 0)
            || self.order.is_some()
        {
            return reject(
                Rule::CommandTokens,
                "Strategic Use is made at the end of the first Turn's Order Count, before any Order is spent",
            );
        }
        if self.strategic_used {
            return reject(Rule::CommandTokens, "only one Strategic Use of a Command Token");
        }
        if self.command_tokens(second) == 0 {
            return reject(Rule::CommandTokens, "no Command Tokens left");
        }
        match u {
            StrategicUse::RemoveOrders { from } => {
                let total: u32 = from.iter().map(|&(_, n)| n).sum();
                let available: u32 = self.pools(self.active()).iter().sum();
                if total != assume::STRATEGIC_ORDERS_REMOVED.min(available) {
                    return reject(
                        Rule::CommandTokens,
                        format!(
                            "remove exactly {} Regular Orders (or all there are)",
                            assume::STRATEGIC_ORDERS_REMOVED
                        ),
                    );
                }
                let active = self.active();
                for &(g, n) in from {
                    let Some(p) = self.pools.get_mut(active).get_mut(g) else {
                        return reject(Rule::BadInput, format!("no Combat Group {g}"));
                    };
                    if *p < n {
                        return reject(Rule::CommandTokens, format!("Combat Group {g} has only {p} Regular Orders"));
                    }
                    *p -= n;
                }
            }
            // Dispatched before the second player's window check above.
            StrategicUse::HoldBackTrooper => return self.hold_back_trooper(),
            StrategicUse::LimitCommandTokens => self.ct_limit = Some(1),
            StrategicUse::SuppressiveFire { trooper } => {
                let i = self.index(trooper)?;
                if self.troopers[i].side != second {
                    return reject(Rule::CommandTokens, format!("{trooper} is not one of your troopers"));
                }
                self.troopers[i].states.insert(State::SuppressiveFire);
                self.leave_fireteam(trooper, "Suppressive Fire");
            }
        }
        *self.command_tokens.get_mut(second) -= 1;
        self.strategic_used = true;
        Ok(())
    }

    // ----- Orders ---------------------------------------------------------------------------------

    fn activate(&mut self, source: OrderSource, ids: &[String]) -> Result<(), Rejection> {
        self.need_no_order("a new activation")?;
        match self.phase {
            Phase::Impetuous if source != OrderSource::Impetuous => {
                return reject(
                    Rule::GameSequence,
                    "in the Impetuous Phase only Impetuous activations (end the phase first to spend Orders)",
                );
            }
            Phase::Orders if source == OrderSource::Impetuous => {
                return reject(Rule::Impetuous, "the free Impetuous activation is only in the Impetuous Phase");
            }
            Phase::Impetuous | Phase::Orders => {}
            Phase::Tactical => {
                return reject(Rule::GameSequence, "Orders are spent in the Orders Phase: count the Orders first");
            }
            Phase::GameOver => return reject(Rule::GameSequence, "the game is over"),
        }
        if ids.is_empty() {
            return reject(Rule::OrderExpenditure, "name the trooper to activate");
        }
        let side = self.active();
        let mut idx = Vec::new();
        for id in ids {
            let i = self.index(id)?;
            let t = &self.troopers[i];
            if t.side != side {
                return reject(
                    Rule::OrderExpenditure,
                    format!("{id} belongs to the Reactive Player; AROs are not Orders"),
                );
            }
            if t.is_null() {
                return reject(Rule::NullState, format!("{id} is in a Null state and cannot be activated"));
            }
            if idx.contains(&i) {
                return reject(Rule::OrderExpenditure, format!("{id} is named twice"));
            }
            idx.push(i);
        }
        let first = &self.troopers[idx[0]];
        let first_id = first.id.clone();
        // A Peripheral is activated by its Controller's Order (seed 002 example).
        let controller = match &first.peripheral_of {
            Some(c) => self.index(c)?,
            None => idx[0],
        };
        let mut activated: Vec<String> = ids.to_vec();
        let mut fireteam = None;
        let mut spearhead = None;
        let team = self.fireteam_of(&first_id).filter(|&(s, _)| s == side);
        let is_leader = team.is_some_and(|(s, k)| self.fireteams.get(s)[k].leader == first_id);
        if source == OrderSource::Coordinated {
            self.check_coordinated(&idx)?;
            spearhead = Some(first_id.clone());
        } else {
            for &i in &idx[1..] {
                let t = &self.troopers[i];
                if t.peripheral_of.as_deref() != Some(self.troopers[controller].id.as_str()) {
                    return reject(
                        Rule::OrderExpenditure,
                        format!(
                            "one Order activates one trooper (with its Peripherals, or its whole Fireteam through the \
                             Team Leader); {} is neither — use a Coordinated Order",
                            t.id
                        ),
                    );
                }
            }
        }
        let c = &self.troopers[controller];
        let c_id = c.id.clone();
        match source {
            OrderSource::Regular | OrderSource::Coordinated => {
                if let Some(i) = idx.iter().find(|&&i| self.troopers[i].is(State::Isolated)) {
                    return reject(
                        Rule::Isolated,
                        format!("{} is Isolated and cannot receive Orders from its Order Pool", self.troopers[*i].id),
                    );
                }
                let g = c.group;
                if self.pool(side, g) == 0 {
                    return reject(
                        Rule::OrderPool,
                        format!(
                            "Combat Group {} has no Regular Orders left; pools cannot be moved between groups",
                            g + 1
                        ),
                    );
                }
                if source == OrderSource::Coordinated {
                    self.spend_command_token(side, "a Coordinated Order")?;
                }
                self.pools.get_mut(side)[g] -= 1;
            }
            OrderSource::Irregular => {
                let held = self.irregular.get(&c_id).copied().unwrap_or(0);
                if held == 0 {
                    return reject(Rule::IrregularOrder, format!("{c_id} holds no Irregular Order of its own"));
                }
                self.irregular.insert(c_id.clone(), held - 1);
            }
            OrderSource::Lieutenant => {
                let is_lt = self.lieutenant(side) == Some(c_id.as_str());
                if !is_lt && !c.has(Ability::Nco) {
                    return reject(Rule::LieutenantOrder, format!("{c_id} is neither the Lieutenant nor an NCO"));
                }
                if c.is(State::Isolated) {
                    return reject(
                        Rule::LieutenantOrder,
                        format!("{c_id} is Isolated and cannot use the Lieutenant Order (FAQ 1.3)"),
                    );
                }
                if self.lieutenant_orders(side) == 0 {
                    return reject(Rule::LieutenantOrder, "no Special Lieutenant Order left this Turn");
                }
                *self.lieutenant_orders.get_mut(side) -= 1;
            }
            OrderSource::TacticalAwareness => {
                if !self.tactical.remove(&c_id) {
                    return reject(Rule::TacticalAwareness, format!("{c_id} holds no Tactical Awareness Order"));
                }
            }
            OrderSource::Impetuous => {
                if !self.impetuous.remove(&c_id) {
                    return reject(Rule::Impetuous, format!("{c_id} has no Impetuous token"));
                }
            }
        }
        // Fireteams: the leader's Regular, NCO-Lieutenant or Tactical Awareness Order activates the
        // whole team; any other activation of a member takes it out (seed 003).
        if let Some((s, k)) = team {
            let lt_itself = source == OrderSource::Lieutenant && self.lieutenant(side) == Some(first_id.as_str());
            let team_order = is_leader
                && matches!(source, OrderSource::Regular | OrderSource::TacticalAwareness | OrderSource::Lieutenant)
                && !lt_itself;
            if team_order {
                let f = self.fireteams.get(s)[k].clone();
                // Coherency at the start of the Order.
                let coherent = self.coherency(&f);
                for m in &f.members {
                    if !coherent.get(m).copied().unwrap_or(false) {
                        self.leave_fireteam_in_order(m, "out of Coherency at the start of the Order");
                    }
                }
                let f = &self.fireteams.get(s)[k];
                activated = f.members.clone();
                fireteam = Some(f.id.clone());
            } else {
                let why = match source {
                    OrderSource::Irregular => "spent its own Irregular Order",
                    OrderSource::Lieutenant => "the Lieutenant spent the Lieutenant Order",
                    _ => "activated on its own",
                };
                if source == OrderSource::Regular && !assume::SOLO_ACTIVATION_LEAVES_FIRETEAM {
                    return reject(
                        Rule::Fireteams,
                        format!("{first_id} is a Fireteam member; activate its Team Leader"),
                    );
                }
                self.leave_fireteam_in_order(&first_id, why);
            }
        }
        let paths = activated
            .iter()
            .filter_map(|id| {
                self.trooper(id).and_then(|t| t.position).map(|p| (id.clone(), vec![(p.x, p.y, p.elevation)]))
            })
            .collect();
        self.orders_this_turn += 1;
        self.order = Some(Activation {
            source,
            troopers: activated,
            spearhead,
            fireteam,
            skills: Vec::new(),
            step: OrderStep::FirstSkill,
            paths,
            eligible_1: BTreeMap::new(),
            eligible_2: BTreeMap::new(),
            hidden_1: BTreeMap::new(),
            hidden_2: BTreeMap::new(),
            declared: Vec::new(),
            lost: Vec::new(),
            fireteam_aro: BTreeMap::new(),
        });
        Ok(())
    }

    /// Leave a Fireteam during an Order: out of it at once; cancellation waits for the Order's end.
    fn leave_fireteam_in_order(&mut self, id: &str, why: &str) {
        let Some((side, k)) = self.fireteam_of(id) else { return };
        let f = &mut self.fireteams.get_mut(side)[k];
        f.members.retain(|m| m != id);
        f.left.push(id.to_string());
        if f.leader == id && f.cancel_at_end_of_order.is_none() {
            f.cancel_at_end_of_order = Some(format!("the Team Leader {id} left ({why})"));
        }
    }

    fn check_coordinated(&self, idx: &[usize]) -> Result<(), Rejection> {
        if self.phase != Phase::Orders {
            return reject(Rule::CoordinatedOrder, "only in the Orders Phase of your Active Turn");
        }
        let n = idx.len();
        if !(assume::COORDINATED_MIN..=assume::COORDINATED_MAX).contains(&n) {
            return reject(
                Rule::CoordinatedOrder,
                format!(
                    "{n} trooper{}; a Coordinated Order has {} to {}",
                    if n == 1 { "" } else { "s" },
                    assume::COORDINATED_MIN,
                    assume::COORDINATED_MAX
                ),
            );
        }
        let first = &self.troopers[idx[0]];
        for &i in idx {
            let t = &self.troopers[i];
            if t.group != first.group {
                return reject(Rule::CoordinatedOrder, format!("{} is in another Combat Group", t.id));
            }
            if self.training_now(t) != self.training_now(first) {
                return reject(Rule::CoordinatedOrder, format!("{} has another Training; all must share one", t.id));
            }
            if self.fireteam_of(&t.id).is_some() {
                return reject(
                    Rule::CoordinatedOrder,
                    format!("{} is a Fireteam member; members cannot be part of Coordinated Orders", t.id),
                );
            }
            let controls = self.troopers.iter().any(|p| p.peripheral_of.as_deref() == Some(t.id.as_str()));
            if assume::COORDINATED_EXCLUDES_PERIPHERALS && (t.peripheral_of.is_some() || controls) {
                return reject(Rule::CoordinatedOrder, format!("{} is a Peripheral or a Controller", t.id));
            }
        }
        Ok(())
    }

    /// Whether the Order being carried out may declare `skill_id` now, before any route or target
    /// is named: the step of the Order (seed 000 Order Expenditure Sequence), the Structure of an
    /// Order (two Short Skills, Entire Orders), Retreat!, Engaged, Hacker, and Cautious
    /// Movement's Requirement (declared outside every enemy's LoF and ZoC). `declare` checks the
    /// same, then the routes and targets; the app greys out the skills refused here.
    pub fn can_declare(&self, skill_id: &str) -> Result<(), Rejection> {
        self.declarable(skill_id, false).map(|_| ())
    }

    /// The catalogue's `skill` as the Order's `troopers` declare it: when one of them has
    /// Super-Jump, Jump is a Short Movement Skill, unless declared as an Entire Order
    /// (`entire_order`) to jump both MOV values together (N4 Super-Jump). In an Order that
    /// activates troopers without it too (a Fireteam, Coordinated Order, Peripherals), the N4
    /// Super-Jump FAQ: "If the Troopers declare Jump as a Short Skill, then any of the Troopers
    /// that don't have Super-Jump will perform an Idle instead. If the Troopers declare Super-Jump
    /// as an Entire Order, they can all Jump but the Troopers with Super-Jump will be able to add
    /// both their MOV values together" (<https://infinitythewiki.com/index.php?diff=2423&oldid=2274&title=Super-Jump>):
    /// as a Short Skill only those with it jump ([`Game::declare`] refuses a route for the others).
    fn as_declared(&self, skill: &skills::Skill, entire_order: bool, troopers: &[String]) -> skills::Skill {
        let mut s = *skill;
        let any_super = troopers.iter().any(|id| self.trooper(id).is_some_and(|t| t.has(Ability::SuperJump)));
        if s.id == JUMP && any_super && !entire_order {
            s.kind = SkillKind::ShortMovement;
            // Retreat! allows Short Movement Skills (digest §4).
            s.in_retreat = true;
        }
        s
    }

    /// Declaration `d`'s skill as the Order's `troopers` declared it ([`Game::as_declared`]).
    fn skill_of(&self, d: &Declaration, troopers: &[String]) -> Option<skills::Skill> {
        skills::find(&d.skill).map(|s| self.as_declared(s, d.entire_order, troopers))
    }

    /// [`Game::can_declare`], giving the Order, the skill and whether it is the Order's second.
    fn declarable(&self, skill_id: &str, entire_order: bool) -> Result<(Activation, skills::Skill, bool), Rejection> {
        let Some(order) = self.order.clone() else {
            return reject(Rule::OrderExpenditure, "no Order has been spent: activate a trooper first");
        };
        let Some(skill) = skills::find(skill_id) else {
            return reject(Rule::BadInput, format!("no skill \"{}\" (known: {})", skill_id, skills::ids()));
        };
        let super_jump = order.troopers.iter().any(|id| self.trooper(id).is_some_and(|t| t.has(Ability::SuperJump)));
        if entire_order && !(skill.id == JUMP && super_jump) {
            return reject(
                Rule::StructureOfAnOrder,
                format!(
                    "\"entire_order\" is for a Jump by troopers with Super-Jump (N4 Super-Jump); {} is declared as it is",
                    skill.name
                ),
            );
        }
        let skill = self.as_declared(skill, entire_order, &order.troopers);
        let second = match order.step {
            OrderStep::FirstSkill => false,
            OrderStep::SecondSkill => true,
            OrderStep::AroWindow1 | OrderStep::AroWindow2 => {
                return reject(
                    Rule::OrderExpenditure,
                    "the Reactive Player is declaring AROs; close the ARO window first",
                );
            }
            OrderStep::Resolution => {
                return reject(Rule::StructureOfAnOrder, "this Order has all its skills; resolve it");
            }
        };
        if second
            && let Some(first) = order.skills.first().and_then(|f| self.skill_of(f, &order.troopers))
            && let Some(why) = skills::combination_error(&first, &skill)
        {
            return reject(Rule::StructureOfAnOrder, format!("{} then {}: {why}", first.name, skill.name));
        }
        let side = self.active();
        for id in &order.troopers {
            let t = &self.troopers[self.index(id)?];
            if self.in_retreat(side) && !t.has(Ability::IgnoresRetreat) && !skill.in_retreat {
                return reject(
                    Rule::Retreat,
                    format!(
                        "{id} is in Retreat! and may only use Short Movement Skills, Cautious Movement, Dodge and Reset"
                    ),
                );
            }
            if !skill.when_engaged && t.is(State::Engaged) {
                let with = self.close_combat_of(id).join(", ");
                return reject(
                    Rule::EngagedState,
                    format!(
                        "{id} is Engaged (in Silhouette contact with {with}) and cannot use {}: only {}",
                        skill.name,
                        skills::when_engaged_names()
                    ),
                );
            }
            if skill.comms_attack && !t.has(Ability::Hacker) {
                return reject(Rule::StructureOfAnOrder, format!("{id} is not a Hacker"));
            }
        }
        // N4 Berserk is a Special Skill; in a Fireteam "only the Troops with Berserk will perform
        // the Skill, the rest will perform an Idle" (N4 FAQ 1.0).
        if skill.id == BERSERK
            && !order.troopers.iter().any(|id| self.trooper(id).is_some_and(|t| t.has(Ability::Berserk)))
        {
            return reject(
                Rule::Berserk,
                format!("{} has no Berserk: it is a Special Skill of troopers that have it", order.troopers.join(", ")),
            );
        }
        // Cautious Movement's Requirement (N4): declared outside every enemy's LoF and ZoC; a
        // Stealth trooper may declare it inside enemies' ZoC (N4 Stealth).
        if skill.id == CAUTIOUS_MOVEMENT {
            for id in &order.troopers {
                let i = self.index(id)?;
                let stealth = self.troopers[i].has(Ability::Stealth);
                if let Some(why) = self.watched_by_enemy(i, |_| !stealth) {
                    return reject(
                        Rule::CautiousMovement,
                        format!("{id} is {why}: Cautious Movement is declared outside the LoF and ZoC of every enemy"),
                    );
                }
            }
        }
        Ok((order, skill, second))
    }

    fn declare(&mut self, d: &Declaration) -> Result<(), Rejection> {
        let (order, skill, second) = self.declarable(&d.skill, d.entire_order)?;
        let skill = &skill;
        if order.source == OrderSource::Coordinated && d.targets.len() > 1 {
            return reject(
                Rule::CoordinatedOrder,
                "every trooper of a Coordinated Order chooses the same single target",
            );
        }
        let side = self.active();
        // Moves: place each mover at the end of its route.
        if !skill.moves && !d.moves.is_empty() {
            return reject(
                Rule::StructureOfAnOrder,
                format!("{} is not a movement skill; it takes no route", skill.name),
            );
        }
        // N4 Berserk: "The target must be within the user's LoF when this CC Special Skill is
        // declared" — one target, seen from where the troopers stand before they move.
        let berserk = skill.id == BERSERK;
        let berserk_target = if berserk {
            let [target] = d.targets.as_slice() else {
                return reject(
                    Rule::Berserk,
                    format!("Berserk names one target, the enemy it charges ({} named)", d.targets.len()),
                );
            };
            let ti = self.index(target)?;
            if !self.troopers[ti].on_table() {
                return reject(Rule::BadInput, format!("{target} is not on the table"));
            }
            if !self.order_has_lof_to(ti)? {
                return reject(
                    Rule::Berserk,
                    format!(
                        "no activated trooper has LoF to {target}: Berserk's target is in the user's LoF when it is \
                         declared"
                    ),
                );
            }
            Some(ti)
        } else {
            None
        };
        let mut paths = order.paths.clone();
        let mut moved: Vec<Moved> = Vec::new();
        for m in &d.moves {
            if !order.troopers.contains(&m.trooper) {
                return reject(Rule::OrderExpenditure, format!("{} was not activated by this Order", m.trooper));
            }
            if d.moves.iter().filter(|o| o.trooper == m.trooper).count() > 1 {
                return reject(Rule::BadInput, format!("two routes for {}", m.trooper));
            }
            if m.route.is_empty() {
                return reject(Rule::BadInput, format!("an empty route for {}", m.trooper));
            }
            if let Some((rule, why)) = self.idles_in(skill, &m.trooper) {
                return reject(rule, format!("{} {why}", m.trooper));
            }
            for (k, &(x, y)) in m.route.iter().enumerate() {
                if !(x.is_finite() && y.is_finite())
                    || x < 0.0
                    || y < 0.0
                    || x > self.table.width
                    || y > self.table.depth
                {
                    return reject(
                        Rule::BadInput,
                        format!("{}: route point {k} ({}, {}) is off the table", m.trooper, inches(x), inches(y)),
                    );
                }
            }
            let i = self.index(&m.trooper)?;
            let path = paths.entry(m.trooper.clone()).or_default();
            let mut route: Vec<(f64, f64)> = m.route.clone();
            let cur = match self.troopers[i].position {
                Some(p) => p,
                None => {
                    // Entering the table (Airborne Deployment …): the first point is where it
                    // enters, on the surface there.
                    let (x, y) = route.remove(0);
                    let elevation = surface_height(&self.terrain, TablePoint::new(x, y));
                    path.push((x, y, elevation));
                    Placement { x, y, facing: 0.0, elevation }
                }
            };
            let route_pts: Vec<TablePoint> = route.iter().map(|&(x, y)| TablePoint::new(x, y)).collect();
            let levels = self.check_move_route(skill, &order, i, cur, &route_pts)?;
            let mut last = (cur.x, cur.y);
            let mut facing = cur.facing;
            for &p in &route {
                if (p.0 - last.0).hypot(p.1 - last.1) > 0.0 {
                    facing = TablePoint::new(last.0, last.1).angle_deg_to(TablePoint::new(p.0, p.1));
                }
                last = p;
            }
            path.extend(levels.iter().skip(1).map(|q| (q.at.x, q.at.y, q.level_in)));
            let elevation = levels.last().map_or(cur.elevation, |q| q.level_in);
            let facing = m.facing.unwrap_or(facing);
            if !facing.is_finite() {
                return reject(Rule::BadInput, format!("{}: facing is not a number", m.trooper));
            }
            self.troopers[i].position = Some(Placement { x: last.0, y: last.1, facing, elevation });
            moved.push((i, cur, route_pts));
        }
        self.check_route_bases(skill, &moved)?;
        self.check_landings(skill, &moved)?;
        if let Some(ti) = berserk_target {
            self.check_berserk_contact(&order, &moved, ti)?;
        }
        for id in &order.troopers {
            if self.trooper(id).is_some_and(|t| t.position.is_none()) {
                return reject(
                    Rule::BadInput,
                    format!(
                        "{id} is not on the table yet: its first skill must be a move whose route starts where it enters"
                    ),
                );
            }
        }
        if let Some(o) = self.order.as_mut() {
            o.paths = paths;
        }
        // Targets: LoF is checked when the skill is declared (seed 000 FAQ).
        let mut all_skills = order.skills.clone();
        for target in d.targets.iter().chain(&d.template_hits) {
            let ti = self.index(target)?;
            if !self.troopers[ti].on_table() {
                return reject(Rule::BadInput, format!("{target} is not on the table"));
            }
        }
        // N4 Engaged State: "Template Weapons placed on a group of Troopers in Engaged state will
        // always affect all participating Troopers, even if the placement of the Template would
        // only affect one of them" — every trooper of a Close Combat a Template touches is hit.
        let mut recorded = d.clone();
        for h in &d.template_hits {
            for k in self.close_combat_group(self.index(h)?) {
                let id = &self.troopers[k].id;
                if !recorded.template_hits.contains(id) {
                    recorded.template_hits.push(id.clone());
                }
            }
        }
        all_skills.push(recorded);
        for target in &d.targets {
            let ti = self.index(target)?;
            let t = &self.troopers[ti];
            if skill.attack && t.side == side {
                return reject(Rule::StructureOfAnOrder, format!("{target} is a friend; an Attack targets enemies"));
            }
            if skill.attack && skill.needs_lof && t.is(State::Camouflaged) {
                let discovered = order.skills.iter().any(|s| s.skill == "discover" && s.targets.contains(target));
                if !discovered {
                    return reject(
                        Rule::Camouflage,
                        format!("{target} is a Camouflage marker: it cannot be attacked until Discovered"),
                    );
                }
            }
            // (Berserk's target was checked before anyone moved.)
            if skill.needs_lof && !berserk && !self.order_has_lof_to(ti)? {
                return reject(
                    Rule::LineOfFire,
                    format!("no activated trooper has LoF to {target} (LoF Requirements are checked when declaring)"),
                );
            }
        }
        // A Camouflage marker that declares an Attack reveals itself (digest §6 "Camouflage markers").
        if skill.attack {
            for id in &order.troopers {
                let i = self.index(id)?;
                self.troopers[i].states.remove(&State::Camouflaged);
            }
        }
        let AroCheck { eligible, hidden } = self.aro_check(&all_skills)?;
        let Some(o) = self.order.as_mut() else { return reject(Rule::OrderExpenditure, "no Order") };
        o.skills = all_skills;
        if second {
            o.eligible_2 = eligible.into_iter().filter(|(id, _)| !o.eligible_1.contains_key(id)).collect();
            o.hidden_2 = hidden.into_iter().filter(|(id, _)| !o.eligible_1.contains_key(id)).collect();
            o.step = OrderStep::AroWindow2;
        } else {
            o.eligible_1 = eligible;
            o.hidden_1 = hidden;
            o.step = OrderStep::AroWindow1;
        }
        Ok(())
    }

    /// Whether trooper `id`, activated by an Order declaring `skill` (as declared), performs an
    /// Idle instead while the others perform it, and so takes no route — the rule and why: a Jump
    /// declared as a Short Skill by troopers without Super-Jump (N4 Super-Jump FAQ), Berserk by
    /// troopers without it (N4 FAQ 1.0, Fireteams).
    fn idles_in(&self, skill: &skills::Skill, id: &str) -> Option<(Rule, &'static str)> {
        let lacks = |a: Ability| self.trooper(id).is_some_and(|t| !t.has(a));
        if skill.id == BERSERK && lacks(Ability::Berserk) {
            Some((
                Rule::Berserk,
                "has no Berserk: the troopers without it perform an Idle (N4 FAQ 1.0), so it takes no route",
            ))
        } else if skill.id == JUMP && skill.kind != SkillKind::EntireOrder && lacks(Ability::SuperJump) {
            Some((
                Rule::Jump,
                "has no Super-Jump: in a Jump declared as a Short Skill the troopers without it perform an Idle \
                 instead (N4 Super-Jump FAQ), so it takes no route; declare the Jump as an Entire Order for all of \
                 them to jump",
            ))
        } else {
            None
        }
    }

    /// N4 Berserk: the Move goes "to reach Silhouette contact with the target" — every Berserk
    /// trooper that moves ends in contact with target `ti`, and one trooper with Berserk stands in
    /// contact with it at the end (one already Engaged with it may charge without moving: Berserk
    /// may be declared while Engaged, N4 Errata).
    fn check_berserk_contact(&self, order: &Activation, moved: &[Moved], ti: usize) -> Result<(), Rejection> {
        let target = &self.troopers[ti].id;
        let gap = |i: usize| -> f64 {
            match (self.troopers[i].body(), self.troopers[ti].body()) {
                (Some(a), Some(b)) => distance(&a, &b),
                _ => f64::INFINITY,
            }
        };
        for (i, _, _) in moved {
            if !self.close_combat(*i).contains(&ti) {
                return reject(
                    Rule::Berserk,
                    format!(
                        "{}'s Berserk Move ends {:.2}\" from {target}: it moves into Silhouette contact with its target",
                        self.troopers[*i].id,
                        gap(*i)
                    ),
                );
            }
        }
        let reaches = order.troopers.iter().any(|id| {
            self.index(id).is_ok_and(|i| self.troopers[i].has(Ability::Berserk) && self.close_combat(i).contains(&ti))
        });
        if !reaches {
            return reject(
                Rule::Berserk,
                format!(
                    "no trooper with Berserk reaches Silhouette contact with {target}: give its Move a route to it"
                ),
            );
        }
        Ok(())
    }

    /// Whether trooper `id`'s move by skill `skill_id` goes up and down vertical surfaces as over
    /// level ground (N4 Climbing Plus, assumption `CLIMBING_PLUS_SKILLS`).
    pub fn climbs_walls(&self, id: &str, skill_id: &str) -> bool {
        self.trooper(id).is_some_and(|t| t.has(Ability::ClimbingPlus))
            && assume::CLIMBING_PLUS_SKILLS.contains(&skill_id)
    }

    /// Trooper `i`'s move by `skill` from `from` through `route`, as the rules measure it: its
    /// levels, where a plain move may not go, and its length (inches). Up and down ladders and
    /// stairs, measured along the surface (N4 General Movement Rules); N4 Climbing Plus: a Move
    /// goes up and down vertical surfaces as over level ground, measured the same way (the
    /// README's "Climbing Plus measure"); Climb and Jump measure as N4 FAQ 1.3 has it.
    fn move_measure(&self, skill: &skills::Skill, i: usize, from: Placement, route: &[TablePoint]) -> MoveMeasure {
        let t = &self.troopers[i];
        let body = Body::new(from.point(), t.silhouette).elevated(from.elevation);
        let climbing_plus = self.climbs_walls(&t.id, skill.id);
        let vault = body.silhouette.height_in();
        let (levels, problems, climbed) = if skill.over_obstacles {
            (leap(&body, route, &self.terrain), Vec::new(), 0.0)
        } else {
            let step = if climbing_plus { f64::INFINITY } else { vault };
            let (w, problems) = walk_problems_stepping(&body, route, &self.terrain, step);
            let climbed = w.climbed_in(vault);
            (w.path, problems, climbed)
        };
        let end_level = levels.last().map_or(from.elevation, |q| q.level_in);
        let mut pts = vec![from.point()];
        pts.extend_from_slice(route);
        let length = match skill.reach {
            Reach::Leap => leap_length(&body, route, end_level),
            _ => path_length(&pts) + climbed,
        };
        MoveMeasure { levels, problems, climbed, climbing_plus, length, end_level }
    }

    /// How the rules measure a route of trooper `id` for skill `skill_id` — the length its MOV is
    /// held to, and the length across the table, inches — from where it stands (or, not on the
    /// table yet, from the route's first point). `None` for an unknown trooper or skill, a skill
    /// that does not move, or an empty route. The app shows it beside the MOV.
    pub fn route_length(&self, skill_id: &str, id: &str, route: &[TablePoint]) -> Option<(f64, f64)> {
        let skill = skills::find(skill_id).filter(|s| s.moves)?;
        let i = self.troopers.iter().position(|t| t.id == id)?;
        let (from, rest) = match self.troopers[i].position {
            Some(p) => (p, route),
            None => {
                let (first, rest) = route.split_first()?;
                (
                    Placement { x: first.x, y: first.y, facing: 0.0, elevation: surface_height(&self.terrain, *first) },
                    rest,
                )
            }
        };
        if rest.is_empty() {
            return None;
        }
        let mut pts = vec![from.point()];
        pts.extend_from_slice(rest);
        Some((self.move_measure(skill, i, from, rest).length, path_length(&pts)))
    }

    /// Refuse a declared route that goes further than the skill allows (N4 Move: the first MOV
    /// value, the second for a second Move in the Order; Cautious Movement: the first;
    /// `DODGE_MOVE_IN` for a Dodge; Climb and Jump: the first, measured up and down as N4 FAQ 1.3
    /// has it, [`leap_length`]), or that goes where the skill cannot (N4 General Movement Rules,
    /// [`walk_problems`]: a plain move follows the surfaces, over obstacles no taller than the
    /// trooper's Silhouette, and steps down no further; taller ones need Climb or Jump). The
    /// length over the table is the base's path from `from` (where it stands, or where it enters
    /// the table) through `route`, inches: every point of a base travels it when the base moves
    /// without turning (N4 "Moving and Measuring": always measured from the same point of the
    /// base); going up and over an obstacle adds nothing to it. Returns the route with the
    /// trooper's level at each point ([`walk`] or [`leap`]), ending on the surface it lands on.
    fn check_move_route(
        &self,
        skill: &skills::Skill,
        order: &Activation,
        i: usize,
        from: Placement,
        route: &[TablePoint],
    ) -> Result<Vec<RoutePoint>, Rejection> {
        let t = &self.troopers[i];
        let body = Body::new(from.point(), t.silhouette).elevated(from.elevation);
        let MoveMeasure { levels, problems, climbed, climbing_plus, length, end_level } =
            self.move_measure(skill, i, from, route);
        let mut pts = vec![from.point()];
        pts.extend_from_slice(route);
        let climbed_text = if climbed > 0.0 {
            let what = if climbing_plus { "walls, with Climbing Plus" } else { "ladders" };
            format!(" ({}\" of it up and down {what})", inches(climbed))
        } else {
            String::new()
        };
        let earlier_moves = order.skills.iter().filter(|s| s.skill == skill.id).count();
        let limit = match (skill.reach, t.mov) {
            (Reach::MovValues, Some(m)) => {
                let (k, which) = if earlier_moves == 0 { (0, "first") } else { (1, "second") };
                Some((
                    Rule::Move,
                    m[k],
                    format!(
                        "in its {which} Move{climbed_text}; its MOV is {}, so at most {}\"",
                        mov_text(m),
                        inches(m[k])
                    ),
                ))
            }
            (Reach::BothMov, Some(m)) => Some((
                Rule::Berserk,
                m[0] + m[1],
                format!(
                    "in its Berserk Move; its MOV is {}, so at most both values together, {}\"",
                    mov_text(m),
                    inches(m[0] + m[1])
                ),
            )),
            (Reach::FirstMov, Some(m)) => Some((
                Rule::CautiousMovement,
                m[0],
                format!(
                    "in Cautious Movement; its MOV is {}, so at most the first value, {}\"",
                    mov_text(m),
                    inches(m[0])
                ),
            )),
            (Reach::Dodge, _) => Some((
                Rule::Dodge,
                assume::DODGE_MOVE_IN,
                format!("in a Dodge; a Dodge moves at most {}\"", inches(assume::DODGE_MOVE_IN)),
            )),
            (Reach::Leap, Some(m)) => {
                // N4 Super-Jump: a Jump as a Short Movement Skill goes up to the first MOV value,
                // a second Jump in the Order up to the second; as an Entire Order, both together.
                let super_jump = skill.id == JUMP && t.has(Ability::SuperJump);
                let (most, which) = if super_jump && skill.kind == SkillKind::EntireOrder {
                    (m[0] + m[1], "both values together (a Super-Jump as an Entire Order)")
                } else if super_jump && earlier_moves > 0 {
                    (m[1], "the second value (its second Jump, with Super-Jump)")
                } else {
                    (m[0], "the first value")
                };
                Some((
                    if skill.id == "climb" { Rule::Climb } else { Rule::Jump },
                    most,
                    format!(
                        "in its {} ({}\" over the table, from {}\" up to {}\" up, measured from the top of its \
                         Silhouette going up and from its base going down); its MOV is {}, so at most {which}, {}\"",
                        skill.name,
                        inches(path_length(&pts)),
                        inches(from.elevation),
                        inches(end_level),
                        mov_text(m),
                        inches(most)
                    ),
                ))
            }
            _ => None,
        };
        if let Some((rule, most, why)) = limit
            && length > most + MOVE_LENGTH_SLACK_IN
        {
            return reject(rule, format!("{} would move {length:.3}\" {why}", t.id));
        }
        if skill.id == "climb"
            && let Some(p) = climb_problem(&body, route, &self.terrain)
        {
            let reason = match p {
                ClimbProblem::Level => {
                    format!("{}'s Climb neither goes up nor down: Climb moves on vertical surfaces", t.id)
                }
                ClimbProblem::NoWall => format!(
                    "{}'s base is not in contact with a vertical surface where its Climb starts (the side of a piece \
                     rising above it, or the edge of the top it stands on)",
                    t.id
                ),
                ClimbProblem::Across { across_in, most_in } => format!(
                    "{}'s Climb goes {across_in:.3}\" across the table, more than the {most_in:.2}\" from against the wall \
                     to standing on the top: a Climb ends once the trooper reaches a level surface",
                    t.id
                ),
            };
            return reject(Rule::Climb, reason);
        }
        let tall = (t.silhouette.value(), t.silhouette.height_in());
        match problems.first() {
            None => Ok(levels),
            Some(WalkProblem::Into { piece, rise_in, stretch: s }) => reject(
                Rule::GeneralMovement,
                format!(
                    "{}'s base would pass into {} from {:.3}\" to {:.3}\" along its route: it rises {}\" above the base, \
                     more than its S{} Silhouette's {:.2}\"; {} cannot cross it (go around, or declare Climb or Jump)",
                    t.id,
                    self.terrain[*piece].id,
                    s.from_in,
                    s.to_in,
                    inches(*rise_in),
                    tall.0,
                    tall.1,
                    skill.name,
                ),
            ),
            Some(WalkProblem::Narrow { piece, width_in, along_in, .. }) => reject(
                Rule::GeneralMovement,
                format!(
                    "{}'s route runs along the top of {} at {along_in:.3}\" where it is {width_in:.2}\" wide, less than \
                     half its base ({:.2}\"): a surface moved on is at least half as wide as the base (N4 Move)",
                    t.id,
                    piece.map_or("a piece", |k| self.terrain[k].id.as_str()),
                    t.silhouette.radius_in(),
                ),
            ),
            Some(WalkProblem::Down { piece, drop_in, along_in, .. }) => reject(
                Rule::GeneralMovement,
                format!(
                    "{} would step down {}\" off {} at {along_in:.3}\" along its route, more than its S{} Silhouette's \
                     {:.2}\"; {} cannot go down that far (declare Climb or Jump)",
                    t.id,
                    inches(*drop_in),
                    piece.map_or("where it stands", |k| self.terrain[k].id.as_str()),
                    tall.0,
                    tall.1,
                    skill.name,
                ),
            ),
        }
    }

    /// Refuse moves (each trooper, where it started, its route; the troopers already placed at
    /// their ends) whose base passes through another trooper's where it may not, or ends in
    /// another's space (N4 General Movement Rules, PDF 2.1: through allied Models and Markers no
    /// taller than the mover, never ending inside one; enemies block, `ENEMIES_BLOCK_MOVEMENT`).
    /// Troopers moving in the same declaration move together and do not block each other's way;
    /// where they end counts. Climb and Jump are not checked for passing (they go over).
    /// General Movement Rules, where troopers end up: every trooper this game put somewhere that
    /// `before` did not have it — the end of a move, a trooper entering the table, a placement
    /// reported at Resolution — must be able to stand there: not inside a terrain piece below its
    /// top (a move and a placement put it on the surface there, so this catches a deployment's
    /// elevation given by hand), not in another trooper's space ([`standing_problem`], the checks
    /// a scene makes).
    fn check_standing(&self, before: &Game) -> Result<(), Rejection> {
        let moved = |i: usize| before.troopers.get(i).is_none_or(|b| b.position != self.troopers[i].position);
        match self.standing_problems(moved, "would stand") {
            Some((_, reason)) => reject(Rule::GeneralMovement, reason),
            None => Ok(()),
        }
    }

    /// The first trooper `which` picks that cannot stand where it is ([`standing_problem`]:
    /// inside a piece below its top, or in another trooper's space), and why, the sentence
    /// saying it `verb` there ("would stand", "stands").
    fn standing_problems(&self, which: impl Fn(usize) -> bool, verb: &str) -> Option<(usize, String)> {
        let (bodies, map) = self.bodies();
        let owner: Vec<usize> = (0..self.troopers.len()).filter(|&k| map[k].is_some()).collect();
        for (i, t) in self.troopers.iter().enumerate() {
            let Some(me) = map[i] else { continue };
            if !which(i) {
                continue;
            }
            let others = bodies.iter().enumerate().filter(|&(k, _)| k != me);
            let other_ids: Vec<usize> = others.clone().map(|(k, _)| owner[k]).collect();
            let Some(problem) = standing_problem(&bodies[me], &self.terrain, others.map(|(_, b)| b)) else { continue };
            let reason = match problem {
                StandingProblem::InsideTerrain { piece } => {
                    let p = &self.terrain[piece];
                    format!(
                        "{} {verb} inside {} ({:.1}\" high) with its base centre on it: a trooper stands beside a piece \
                         or on its top (at an elevation of its height)",
                        t.id, p.id, p.height_in
                    )
                }
                StandingProblem::Overlaps { other, by_in } => format!(
                    "{} {verb} in {}'s space (their bases overlap by {by_in:.3}\"): two troopers cannot share a place",
                    t.id, self.troopers[other_ids[other]].id
                ),
            };
            return Some((i, reason));
        }
        None
    }

    /// Refuse a move that does not end on a surface as large as the base (N4 Move, Climb and
    /// Jump Requirements; [`landing_problem`]): every mover, where its route put it, at the
    /// level of the surface there.
    fn check_landings(&self, skill: &skills::Skill, moved: &[Moved]) -> Result<(), Rejection> {
        for (i, ..) in moved {
            let t = &self.troopers[*i];
            let Some(p) = t.position else { continue };
            let body = Body::new(p.point(), t.silhouette).elevated(p.elevation);
            let why = "a move ends on a surface as large as the base";
            let reason = match landing_problem(&body, &self.terrain) {
                None => continue,
                Some(LandingProblem::OverHigher { piece, by_in }) => {
                    let piece = &self.terrain[piece];
                    format!(
                        "{} would end its {} with its base {by_in:.2}\" over {} ({}\" high, above the {}\" it would \
                         stand at): {why}",
                        t.id,
                        skill.name,
                        piece.id,
                        inches(piece.height_in),
                        inches(p.elevation)
                    )
                }
                Some(LandingProblem::OffTheTop { piece, by_in }) => format!(
                    "{} would end its {} on top of {} with its base {by_in:.2}\" past the top's edge: {why}",
                    t.id, skill.name, self.terrain[piece].id
                ),
            };
            return reject(Rule::GeneralMovement, reason);
        }
        Ok(())
    }

    fn check_route_bases(&self, skill: &skills::Skill, moved: &[Moved]) -> Result<(), Rejection> {
        let (bodies, map) = self.bodies();
        let movers: Vec<usize> = moved.iter().filter_map(|(i, ..)| map[*i]).collect();
        let owner: Vec<usize> = (0..self.troopers.len()).filter(|&k| map[k].is_some()).collect();
        let name = |b: usize| &self.troopers[owner[b]];
        for (i, from, route) in moved {
            let Some(me) = map[*i] else { continue };
            let t = &self.troopers[*i];
            let start = bodies[me].at(from.point()).elevated(from.elevation);
            if !skill.over_obstacles {
                for c in base_crossings(&start, route, &bodies, &movers) {
                    let o = name(c.trooper);
                    if !may_pass_through(&start, t.side, &bodies[c.trooper], o.side) {
                        let s = c.stretches[0];
                        let what = if o.side != t.side {
                            "an enemy: only allied troopers may be moved through".to_string()
                        } else {
                            format!(
                                "an ally taller than it (S{} against its S{}): only allies no taller may be moved through",
                                o.silhouette.value(),
                                t.silhouette.value()
                            )
                        };
                        return reject(
                            Rule::GeneralMovement,
                            format!(
                                "{}'s base would pass through {}'s from {:.3}\" to {:.3}\" along its route; {} is {what}",
                                t.id, o.id, s.from_in, s.to_in, o.id
                            ),
                        );
                    }
                }
            }
            // Where it ends: against every other trooper where it stands now.
            if let Some(c) = base_crossings(&bodies[me], &[], &bodies, &[me]).first() {
                return reject(
                    Rule::GeneralMovement,
                    format!(
                        "{} would end its move inside {}'s base: a move cannot end in another trooper's space",
                        t.id,
                        name(c.trooper).id
                    ),
                );
            }
        }
        Ok(())
    }

    /// Why trooper `i`, where it stands now, is inside an enemy's LoF or ZoC ("in b1's LoF",
    /// "inside b1's ZoC"), or `None` when it is outside them all — as Cautious Movement asks
    /// (N4: "outside the LoF and ZoC of all enemy Models and Markers"). Enemy `k`'s ZoC counts
    /// only where `zoc_counts(k)` (a Stealth trooper's, N4 Stealth). Enemies in a Null state
    /// count only under assumption `NULL_ENEMIES_WATCH`; off-table troopers and the Dead never do.
    fn watched_by_enemy(&self, i: usize, zoc_counts: impl Fn(usize) -> bool) -> Option<String> {
        let t = &self.troopers[i];
        let (bodies, map) = self.bodies();
        let me = map[i]?;
        let obstacles = Obstacles::new(&self.terrain, &bodies);
        for (k, e) in self.troopers.iter().enumerate() {
            let Some(eb) = map[k] else { continue };
            if e.side == t.side || (e.is_null() && !assume::NULL_ENEMIES_WATCH) {
                continue;
            }
            if line_of_fire(&obstacles, &bodies[eb], &bodies[me], &[eb, me]).lof.has_lof() {
                return Some(format!("in {}'s LoF", e.id));
            }
            if zoc_counts(k) && zoc(&bodies[eb], &bodies[me]).is_inside() {
                return Some(format!("inside {}'s ZoC", e.id));
            }
        }
        None
    }

    /// Whether some activated trooper has LoF to trooper `ti`: from where it stands, or — when
    /// it moves in this Order — from any point of its path in any direction
    /// (`FACE_FREELY_WHILE_MOVING`).
    fn order_has_lof_to(&self, ti: usize) -> Result<bool, Rejection> {
        let Some(order) = &self.order else { return Ok(false) };
        let (bodies, map) = self.bodies();
        let obstacles = Obstacles::new(&self.terrain, &bodies);
        let Some(tb) = map[ti] else { return Ok(false) };
        for id in &order.troopers {
            let i = self.index(id)?;
            let Some(vb) = map[i] else { continue };
            // An Engaged trooper traces no LoF outside its Close Combat (N4 Engaged State).
            if self.troopers[i].is(State::Engaged) && !self.close_combat(i).contains(&ti) {
                continue;
            }
            let path = order.paths.get(id).cloned().unwrap_or_default();
            if path.len() > 1 && assume::FACE_FREELY_WHILE_MOVING {
                // Along the path, turning freely: the target's view back is the same set of lines.
                let mut start = bodies.clone();
                start[vb] = start[vb].with_arc(Arc::All360);
                start[tb] = start[tb].with_arc(Arc::All360);
                let ev = route_events_with_levels(&self.terrain, &start, vb, &route_points(&path));
                if ev.iter().any(|e| e.observer == tb && !e.lof.is_empty()) {
                    return Ok(true);
                }
            } else if line_of_fire(&obstacles, &bodies[vb], &bodies[tb], &[vb, tb]).lof.has_lof() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether trooper `i` has Sixth Sense, its own or its Fireteam's (digest §6, §7).
    fn has_sixth_sense(&self, i: usize) -> bool {
        let t = &self.troopers[i];
        t.has(Ability::SixthSense)
            || self
                .fireteam_of(&t.id)
                .is_some_and(|(s, k)| fireteam::gives_sixth_sense(self.fireteams.get(s)[k].members.len()))
    }

    /// Whether activated trooper `i`'s Stealth hides it, for the skill just declared
    /// (`declared`'s last), from enemies whose ZoC it is in outside their LoF (N4 Stealth: a
    /// Short Movement Skill or Cautious Movement, `STEALTH_SKILLS`, and a Jump that Super-Jump
    /// makes a Short Movement Skill; "if the second Short Skill of the Order is any non-Movement
    /// Skill, then those enemies can react normally in ARO").
    fn stealthy(&self, i: usize, declared: &[Declaration]) -> bool {
        let troopers = self.order.as_ref().map_or(&[][..], |o| &o.troopers[..]);
        let short_jump = |d: &Declaration| {
            d.skill == JUMP && self.skill_of(d, troopers).is_some_and(|s| s.kind == SkillKind::ShortMovement)
        };
        self.troopers[i].has(Ability::Stealth)
            && declared.last().is_some_and(|d| assume::STEALTH_SKILLS.contains(&d.skill.as_str()) || short_jump(d))
    }

    /// ARO Check (seed 000 1.1.1 steps 2.1 / 4.1; seed 001's list): every reactive trooper that
    /// may declare an ARO against this Order so far, with why; and those an activated Stealth
    /// trooper gave none (N4 Stealth).
    fn aro_check(&self, declared: &[Declaration]) -> Result<AroCheck, Rejection> {
        let Some(order) = &self.order else { return Ok(AroCheck::default()) };
        // Cautious Movement (N4) that began (its Requirement) and ends outside every enemy's LoF
        // and ZoC generates no enemy AROs; ending inside one, it generates them as usual. A
        // Stealth trooper's, outside their LoF, is not seen by the enemies whose ZoC it is in
        // (N4 Stealth), unless they have Sixth Sense, which Stealth does not work against.
        let mut cautious_unseen = false;
        if declared.iter().any(|d| d.skill == CAUTIOUS_MOVEMENT) {
            let mut seen = false;
            for id in &order.troopers {
                let i = self.index(id)?;
                let stealth = self.stealthy(i, declared);
                seen |= self.watched_by_enemy(i, |k| !stealth || self.has_sixth_sense(k)).is_some();
            }
            cautious_unseen = !seen;
        }
        let reactive = self.reactive();
        let (bodies, map) = self.bodies();
        let mut out: BTreeMap<String, Vec<AroReason>> = BTreeMap::new();
        let mut hidden: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let can_react = |t: &TrooperState| t.side == reactive && t.on_table() && !t.is_null();
        let repeaters: Vec<usize> = (0..self.troopers.len())
            .filter(|&i| {
                let t = &self.troopers[i];
                t.has(Ability::Repeater) && t.on_table() && !t.is_null() && !t.is(State::Isolated)
            })
            .collect();
        for a_id in &order.troopers {
            let ai = self.index(a_id)?;
            let Some(ab) = map[ai] else { continue };
            let path = order.paths.get(a_id).cloned().unwrap_or_default();
            // Walk the mover along its path, at each point's level (from where it stood).
            let mut path = route_points(&path);
            if path.is_empty() {
                path.push(RoutePoint { at: bodies[ab].centre, level_in: bodies[ab].elevation_in });
            }
            let start = bodies.clone();
            let events = route_events_with_levels(&self.terrain, &start, ab, &path);
            let seen_by = |bi: usize| events.iter().find(|e| e.observer == bi);
            let push = |out: &mut BTreeMap<String, Vec<AroReason>>, id: &str, r: AroReason| {
                let v = out.entry(id.to_string()).or_default();
                if !v.contains(&r) {
                    v.push(r);
                }
            };
            let stealthy = self.stealthy(ai, declared);
            for (ri, r) in self.troopers.iter().enumerate() {
                if !can_react(r) {
                    continue;
                }
                let Some(rb) = map[ri] else { continue };
                // An Engaged trooper traces no LoF outside its Close Combat (N4 Engaged State).
                let may_look = !r.is(State::Engaged) || self.close_combat(ri).contains(&ai);
                let lof = seen_by(rb).and_then(|e| e.first_lof().filter(|_| may_look));
                // N4 Stealth: inside r's ZoC and outside its LoF, no ARO for r (Sixth Sense excepted).
                let hides = stealthy && lof.is_none() && !self.has_sixth_sense(ri);
                let mut hid = false;
                if let Some(e) = seen_by(rb) {
                    if let Some((_, p)) = lof {
                        push(&mut out, &r.id, AroReason::Lof { of: a_id.clone(), at: pt(p) });
                    }
                    if let Some((_, p)) = e.first_zoc() {
                        if hides {
                            hid = true;
                        } else {
                            push(&mut out, &r.id, AroReason::Zoc { of: a_id.clone(), at: pt(p) });
                        }
                    }
                }
                if r.has(Ability::Hacker) && !r.is(State::Isolated) {
                    for &q in &repeaters {
                        let rep = &self.troopers[q];
                        let Some(qb) = map[q] else { continue };
                        // A friendly Repeater's ZoC along the path, or the hacker inside an enemy
                        // Repeater's ZoC (digest §1, update 1.3 and PDF 2.1).
                        let friendly =
                            rep.side == reactive && q != ri && seen_by(qb).is_some_and(|e| !e.zoc.is_empty());
                        let enemy = rep.side != reactive && zoc(&bodies[qb], &bodies[rb]).is_inside();
                        if (friendly || enemy) && hides && assume::STEALTH_HIDES_FROM_HACKING_AREA {
                            hid = true;
                        } else if friendly || enemy {
                            push(&mut out, &r.id, AroReason::HackingArea { of: a_id.clone(), via: rep.id.clone() });
                        }
                    }
                }
                if hid {
                    hidden.entry(r.id.clone()).or_default().push(a_id.clone());
                }
            }
        }
        if cautious_unseen {
            return Ok(AroCheck { eligible: BTreeMap::new(), hidden });
        }
        for d in declared {
            let Some(skill) = skills::find(&d.skill) else { continue };
            let by = order.troopers.first().cloned().unwrap_or_default();
            for h in &d.template_hits {
                if self.trooper(h).is_some_and(can_react) {
                    out.entry(h.clone()).or_default().push(AroReason::Template { of: by.clone() });
                }
            }
            for tid in &d.targets {
                let Some(t) = self.trooper(tid) else { continue };
                if !can_react(t) {
                    continue;
                }
                if skill.comms_attack {
                    out.entry(tid.clone()).or_default().push(AroReason::CommsAttack { of: by.clone() });
                }
                let sees = out.get(tid).is_some_and(|v| v.iter().any(|r| matches!(r, AroReason::Lof { .. })));
                if skill.attack && self.has_sixth_sense(self.index(tid)?) && !sees {
                    out.entry(tid.clone()).or_default().push(AroReason::SixthSense { of: by.clone() });
                }
            }
        }
        Ok(AroCheck { eligible: out, hidden })
    }

    fn declare_aro(&mut self, a: &AroDeclaration) -> Result<(), Rejection> {
        let Some(order) = &self.order else {
            return reject(Rule::Aro, "only the Active Player's Orders give AROs, and no Order is being carried out");
        };
        let i = self.index(&a.trooper)?;
        let t = &self.troopers[i];
        if t.side == self.active() {
            return reject(
                Rule::Aro,
                format!("{} belongs to the Active Player; Troopers cannot react to AROs", a.trooper),
            );
        }
        let (window, eligible) = match order.step {
            OrderStep::AroWindow1 => (1, &order.eligible_1),
            OrderStep::AroWindow2 => (2, &order.eligible_2),
            _ => {
                return reject(
                    Rule::OrderExpenditure,
                    "AROs are declared right after the Active Player declares a skill (steps 2 and 4), not now",
                );
            }
        };
        if order.declared.iter().any(|d| d.aro.trooper == a.trooper) {
            return reject(Rule::Aro, format!("{} already declared its ARO: one single ARO per Order", a.trooper));
        }
        if order.lost.contains(&a.trooper) {
            return reject(
                Rule::Aro,
                format!("{} was eligible in the first window and did not declare: its ARO is lost", a.trooper),
            );
        }
        let hidden_from = order.hidden_now().get(&a.trooper);
        let Some(reasons) = eligible.get(&a.trooper) else {
            if let Some(by) = hidden_from {
                return reject(
                    Rule::Stealth,
                    format!(
                        "{} may not declare an ARO against this Order: {} has Stealth and moved inside its ZoC \
                         outside its LoF",
                        a.trooper,
                        by.join(", ")
                    ),
                );
            }
            let why = if window == 2 && order.eligible_1.contains_key(&a.trooper) {
                "it was eligible in the first window and its ARO there is the only one".to_string()
            } else {
                "no LoF, ZoC, Hacking Area, Sixth Sense, Template or Comms Attack gives it one".to_string()
            };
            return reject(Rule::Aro, format!("{} may not declare an ARO against this Order: {why}", a.trooper));
        };
        let Some(skill) = skills::find(&a.skill) else {
            return reject(Rule::BadInput, format!("no skill \"{}\" (known: {})", a.skill, skills::ids()));
        };
        if !skill.aro {
            return reject(Rule::Aro, format!("{} is not usable in ARO", skill.name));
        }
        if !order.troopers.contains(&a.target) {
            return reject(
                Rule::Aro,
                format!("{} was not activated by this Order; an ARO targets one of the activated troopers", a.target),
            );
        }
        // N4 FAQ 1.0 (digest §6): a Stealth trooper activated with others may be the ARO's target
        // only when it declares a skill that allows AROs.
        if hidden_from.is_some_and(|by| by.contains(&a.target)) {
            return reject(
                Rule::Stealth,
                format!(
                    "{} has Stealth and moved inside {}'s ZoC outside its LoF: an ARO may target it only once it \
                     declares a skill that allows AROs",
                    a.target, a.trooper
                ),
            );
        }
        if self.in_retreat(t.side) && !t.has(Ability::IgnoresRetreat) && !skill.in_retreat {
            return reject(
                Rule::Retreat,
                format!("{} is in Retreat!: only Short Movement Skills, Dodge and Reset", a.trooper),
            );
        }
        if !skill.when_engaged && t.is(State::Engaged) {
            let with = self.close_combat_of(&a.trooper).join(", ");
            return reject(
                Rule::EngagedState,
                format!(
                    "{} is Engaged (in Silhouette contact with {with}) and cannot use {}: only {}",
                    a.trooper,
                    skill.name,
                    skills::when_engaged_names()
                ),
            );
        }
        if skill.attack && self.trooper(&a.target).is_some_and(|t| t.is(State::Camouflaged)) {
            return reject(
                Rule::Camouflage,
                format!(
                    "{} is a Camouflage marker: it cannot be attacked until Discovered, and AROs are simultaneous \
                     (declare Discover; not Discover with one trooper and an Attack with the rest)",
                    a.target
                ),
            );
        }
        let about_target: Vec<&AroReason> = reasons.iter().filter(|r| r.of() == a.target).collect();
        if skill.needs_lof {
            let lof = about_target.iter().any(|r| matches!(r, AroReason::Lof { .. }));
            let sense = skill.attack && about_target.iter().any(|r| matches!(r, AroReason::SixthSense { .. }));
            if !lof && !sense {
                return reject(
                    Rule::LineOfFire,
                    format!(
                        "{} needs LoF and {} has no LoF to {} at any point of its route",
                        skill.name, a.trooper, a.target
                    ),
                );
            }
        }
        if skill.comms_attack {
            if !t.has(Ability::Hacker) {
                return reject(Rule::Aro, format!("{} is not a Hacker", a.trooper));
            }
            let in_area =
                about_target.iter().any(|r| matches!(r, AroReason::HackingArea { .. } | AroReason::Zoc { .. }));
            if !in_area {
                return reject(Rule::Aro, format!("{} is not in {}'s Hacking Area", a.target, a.trooper));
            }
        }
        // Peripheral and Controller declare the same ARO (digest §4).
        let partner = |d: &DeclaredAro| {
            let o = self.trooper(&d.aro.trooper);
            o.and_then(|o| o.peripheral_of.as_deref()) == Some(a.trooper.as_str())
                || t.peripheral_of.as_deref() == Some(d.aro.trooper.as_str())
        };
        if let Some(p) = order.declared.iter().find(|d| partner(d))
            && p.aro.skill != a.skill
        {
            return reject(
                Rule::Peripheral,
                format!(
                    "{} and {} are Controller and Peripheral: both must declare the same ARO ({})",
                    a.trooper, p.aro.trooper, p.aro.skill
                ),
            );
        }
        // Coherency is checked when a Fireteam's ARO is declared (digest §7 "Coherency": at the
        // start, after the first skill, Entire Order or ARO is declared): members outside the
        // Team Leader's ZoC leave at once, so the bonus is counted without them. (Checked at
        // each member's declaration; nothing reactive moves in between, so it is the same check.)
        if let Some((s, k)) = self.fireteam_of(&a.trooper) {
            let f = self.fireteams.get(s)[k].clone();
            for (m, ok) in self.coherency(&f) {
                if !ok {
                    self.leave_fireteam_in_order(&m, "out of Coherency when the Fireteam's ARO was declared");
                }
            }
        }
        let team_size = self.fireteam_of(&a.trooper).map(|(s, k)| self.fireteams.get(s)[k].members.len()).unwrap_or(0);
        let burst = if skill.id == "bs_attack" && team_size >= 3 { 2 } else { 1 };
        let d = DeclaredAro { aro: a.clone(), window, burst };
        // A Camouflage marker that declares an Attack in ARO reveals itself (digest §6 "Camouflage
        // markers": no Discover Roll is needed then), so the Order's next skill may Attack it.
        if skill.attack {
            self.troopers[i].states.remove(&State::Camouflaged);
        }
        if let Some(o) = self.order.as_mut() {
            o.declared.push(d);
        }
        Ok(())
    }

    fn close_aro_window(&mut self, choice: &BTreeMap<String, String>) -> Result<(), Rejection> {
        let Some(order) = self.order.clone() else {
            return reject(Rule::OrderExpenditure, "no Order is being carried out");
        };
        let (window, eligible) = match order.step {
            OrderStep::AroWindow1 => (1u8, &order.eligible_1),
            OrderStep::AroWindow2 => (2u8, &order.eligible_2),
            _ => return reject(Rule::OrderExpenditure, "no ARO window is open"),
        };
        // Seed 003: the Fireteam's ARO is the one declared by more than half of the members that
        // declare one; with no majority the player chooses.
        let reactive = self.reactive();
        let mut team_aro = order.fireteam_aro.clone();
        let mut leaving: Vec<(String, String)> = Vec::new();
        let mut cancel: Vec<(String, String)> = Vec::new();
        for f in self.fireteams.get(reactive) {
            let decl: Vec<&DeclaredAro> =
                order.declared.iter().filter(|d| f.members.contains(&d.aro.trooper)).collect();
            if decl.is_empty() {
                continue;
            }
            let chosen = match team_aro.get(&f.id) {
                Some(s) => s.clone(),
                None => {
                    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
                    for d in &decl {
                        *counts.entry(d.aro.skill.as_str()).or_default() += 1;
                    }
                    match counts.iter().find(|&(_, &n)| 2 * n > decl.len()) {
                        Some((s, _)) => (*s).to_string(),
                        None => match choice.get(&f.id) {
                            Some(s) if counts.contains_key(s.as_str()) => s.clone(),
                            Some(s) => {
                                return reject(Rule::Fireteams, format!("no member of {} declared {s}", f.id));
                            }
                            None => {
                                return reject(
                                    Rule::Fireteams,
                                    format!(
                                        "no majority among the AROs of Fireteam {} ({}): choose which is the Fireteam's \
                                         ARO (fireteam_aro)",
                                        f.id,
                                        counts.keys().copied().collect::<Vec<_>>().join(", ")
                                    ),
                                );
                            }
                        },
                    }
                }
            };
            for d in decl {
                if d.aro.skill != chosen {
                    leaving.push((
                        d.aro.trooper.clone(),
                        format!("declared {} instead of the Fireteam's ARO", d.aro.skill),
                    ));
                    if d.aro.trooper == f.leader {
                        cancel.push((
                            f.id.clone(),
                            format!("the Team Leader's ARO ({}) differs from the Fireteam's", d.aro.skill),
                        ));
                    }
                }
            }
            team_aro.insert(f.id.clone(), chosen);
        }
        for (id, why) in leaving {
            self.leave_fireteam_in_order(&id, &why);
        }
        for (fid, why) in cancel {
            if let Some(f) = self.fireteams.get_mut(reactive).iter_mut().find(|f| f.id == fid) {
                f.cancel_at_end_of_order.get_or_insert(why);
            }
        }
        self.cancel_small_fireteams();
        // Seed 003: a trooper that left gets no Fireteam bonus; the rest get the recounted one.
        let bursts: Vec<u32> = order
            .declared
            .iter()
            .map(|d| {
                let size =
                    self.fireteam_of(&d.aro.trooper).map(|(s, k)| self.fireteams.get(s)[k].members.len()).unwrap_or(0);
                if d.aro.skill == "bs_attack" && size >= 3 { 2 } else { 1 }
            })
            .collect();
        let entire = self.order.as_ref().is_some_and(|o| {
            o.skills
                .first()
                .and_then(|s| self.skill_of(s, &o.troopers))
                .is_some_and(|s| s.kind == SkillKind::EntireOrder)
        });
        let Some(o) = self.order.as_mut() else { return reject(Rule::OrderExpenditure, "no Order") };
        for (d, b) in o.declared.iter_mut().zip(bursts) {
            d.burst = b;
        }
        o.fireteam_aro = team_aro;
        for id in eligible.keys() {
            if !o.declared.iter().any(|d| &d.aro.trooper == id) && !o.lost.contains(id) {
                o.lost.push(id.clone());
            }
        }
        o.step = if window == 1 && !entire { OrderStep::SecondSkill } else { OrderStep::Resolution };
        Ok(())
    }

    fn resolve(&mut self, outcomes: &[Outcome]) -> Result<(), Rejection> {
        let Some(order) = self.order.clone() else {
            return reject(Rule::OrderExpenditure, "no Order is being carried out");
        };
        match order.step {
            OrderStep::SecondSkill | OrderStep::Resolution => {}
            OrderStep::FirstSkill => {
                return reject(Rule::OrderExpenditure, "declare the first skill before Resolution");
            }
            _ => return reject(Rule::OrderExpenditure, "close the ARO window before Resolution"),
        }
        let mut went_null: Vec<String> = Vec::new();
        for o in outcomes {
            match o {
                Outcome::Enter { trooper, state } | Outcome::Leave { trooper, state } if *state == State::Engaged => {
                    return reject(
                        Rule::EngagedState,
                        format!(
                            "{trooper}: the Engaged State is worked out from Silhouette contact with an enemy; place \
                             the troopers in contact, or out of it"
                        ),
                    );
                }
                Outcome::Enter { trooper, state } => {
                    let i = self.index(trooper)?;
                    let was_null = self.troopers[i].is_null();
                    self.troopers[i].states.insert(*state);
                    let t = &self.troopers[i];
                    let side = t.side;
                    if *state == State::Isolated && self.lieutenant(side) == Some(trooper.as_str()) {
                        // FAQ 1.3 (seed 002): an unspent Lieutenant Order is lost.
                        *self.lieutenant_orders.get_mut(side) = 0;
                    }
                    if state.is_null() && !was_null {
                        went_null.push(trooper.clone());
                    }
                    if state.is_null()
                        || *state == State::Isolated
                        || state.is_marker()
                        || *state == State::SuppressiveFire
                    {
                        let why = format!("entered {state:?}");
                        if let Some((s, k)) = self.fireteam_of(trooper) {
                            let f = &mut self.fireteams.get_mut(s)[k];
                            if f.leader == *trooper && (state.is_null() || *state == State::Isolated) {
                                f.cancel_at_end_of_order
                                    .get_or_insert(format!("the Team Leader {trooper} {why} (Fireteam Cancellation)"));
                            }
                        }
                        self.leave_fireteam_in_order(trooper, &why);
                    }
                }
                Outcome::Leave { trooper, state } => {
                    let i = self.index(trooper)?;
                    if *state == State::Dead {
                        return reject(Rule::NullState, format!("{trooper}: the Dead state cannot be reversed"));
                    }
                    self.troopers[i].states.remove(state);
                }
                Outcome::Place { trooper, x, y, facing } => {
                    let i = self.index(trooper)?;
                    if !(x.is_finite() && y.is_finite())
                        || *x < 0.0
                        || *y < 0.0
                        || *x > self.table.width
                        || *y > self.table.depth
                    {
                        return reject(
                            Rule::BadInput,
                            format!("{trooper}: ({}, {}) is off the table", inches(*x), inches(*y)),
                        );
                    }
                    let old =
                        self.troopers[i].position.unwrap_or(Placement { x: *x, y: *y, facing: 0.0, elevation: 0.0 });
                    // On the surface there: the table, or the top of the piece it is put on.
                    self.troopers[i].position = Some(Placement {
                        x: *x,
                        y: *y,
                        facing: facing.unwrap_or(old.facing),
                        elevation: surface_height(&self.terrain, TablePoint::new(*x, *y)),
                    });
                }
                Outcome::Face { trooper, facing } => {
                    let i = self.index(trooper)?;
                    if !facing.is_finite() {
                        return reject(Rule::BadInput, format!("{trooper}: facing is not a number"));
                    }
                    match self.troopers[i].position.as_mut() {
                        Some(p) => p.facing = *facing,
                        None => return reject(Rule::BadInput, format!("{trooper} is not on the table")),
                    }
                }
                Outcome::Idle { trooper } => {
                    self.index(trooper)?;
                }
            }
        }
        // A Controller gone Null: its Peripherals are Disconnected at the end of the Order (digest §4).
        for c in &went_null {
            for p in self.troopers.iter_mut().filter(|p| p.peripheral_of.as_deref() == Some(c.as_str())) {
                p.states.insert(State::Disconnected);
            }
        }
        for p in self.troopers.iter().filter(|p| p.is(State::Disconnected)).map(|p| p.id.clone()).collect::<Vec<_>>() {
            self.leave_fireteam_in_order(&p, "Disconnected");
        }
        // Conclusion: Coherency check at the end of the Order; cancellations fall due.
        for side in [Side::A, Side::B] {
            for k in 0..self.fireteams.get(side).len() {
                let f = self.fireteams.get(side)[k].clone();
                for (m, ok) in self.coherency(&f) {
                    if !ok && m != f.leader {
                        self.leave_fireteam_in_order(&m, "out of Coherency at the end of the Order");
                    }
                }
            }
        }
        self.order = None;
        self.cancel_fireteams_due();
        if self.phase == Phase::Impetuous
            && !self.impetuous.iter().any(|id| self.trooper(id).is_some_and(|t| t.side == self.active()))
        {
            self.phase = Phase::Orders;
        }
        Ok(())
    }

    fn calibrate(&mut self, c: &CalibrationSetup) -> Result<(), Rejection> {
        let finite = c
            .pairs
            .iter()
            .all(|p| p.pixel.0.is_finite() && p.pixel.1.is_finite() && p.table.0.is_finite() && p.table.1.is_finite());
        if c.pairs.len() < 4 || !finite || c.image.0 == 0 || c.image.1 == 0 {
            return reject(Rule::BadInput, "a calibration needs a picture size and at least 4 finite point pairs");
        }
        self.calibration = Some(c.clone());
        Ok(())
    }

    fn end_impetuous(&mut self) -> Result<(), Rejection> {
        self.need_no_order("ending the Impetuous Phase")?;
        if self.phase != Phase::Impetuous {
            return reject(Rule::GameSequence, "this is not the Impetuous Phase");
        }
        let side = self.active();
        let mine: Vec<String> =
            self.impetuous.iter().filter(|id| self.trooper(id).is_some_and(|t| t.side == side)).cloned().collect();
        for id in mine {
            self.impetuous.remove(&id);
        }
        self.phase = Phase::Orders;
        Ok(())
    }

    fn end_turn(&mut self, new_lieutenant: Option<&str>) -> Result<(), Rejection> {
        self.need_no_order("ending the Turn")?;
        if !matches!(self.phase, Phase::Orders | Phase::Impetuous) {
            return reject(Rule::GameSequence, "the Turn ends after the Orders Phase (count the Orders first)");
        }
        let side = self.active();
        let lol = self.loss_of_lieutenant(side);
        let candidates: Vec<String> = self
            .troopers
            .iter()
            .filter(|t| {
                t.side == side
                    && t.on_table()
                    && !t.is_null()
                    && !t.is(State::Isolated)
                    && t.training == Training::Regular
                    && !t.has(Ability::Rem)
                    && t.peripheral_of.is_none()
            })
            .map(|t| t.id.clone())
            .collect();
        let may_name = lol && (assume::NEW_LIEUTENANT_IN_RETREAT || !self.in_retreat(side));
        match new_lieutenant {
            Some(id) if !may_name => {
                return reject(
                    Rule::LossOfLieutenant,
                    format!(
                        "{id}: a new Lieutenant is named only at the end of a Turn in Loss of Lieutenant (not in Retreat!)"
                    ),
                );
            }
            Some(id) if !candidates.iter().any(|c| c == id) => {
                return reject(
                    Rule::LossOfLieutenant,
                    format!(
                        "{id} cannot be the new Lieutenant (it must be a Regular trooper on the table, not Null, Isolated, a REM or a Peripheral)"
                    ),
                );
            }
            Some(id) => {
                // The new Lieutenant ends Loss of Lieutenant (digest §4).
                *self.lieutenant.get_mut(side) = Some(id.to_string());
                *self.loss_of_lieutenant.get_mut(side) = false;
                *self.lieutenant_lost.get_mut(side) = false;
            }
            None if may_name && !candidates.is_empty() => {
                return reject(
                    Rule::LossOfLieutenant,
                    format!(
                        "the army is in Loss of Lieutenant: name a new Lieutenant at the end of the Turn (one of {})",
                        candidates.join(", ")
                    ),
                );
            }
            None => {}
        }
        // The Turn's Orders are gone.
        for p in self.pools.get_mut(side) {
            *p = 0;
        }
        self.drop_held_orders(side);
        *self.lieutenant_orders.get_mut(side) = 0;
        self.ct_limit = None;
        self.ct_spent_this_turn = 0;
        self.orders_this_turn = 0;
        let wiped = |s: Side| self.troopers.iter().filter(|t| t.side == s).all(|t| t.is_null());
        if self.turn == 1 {
            self.turn = 2;
        } else {
            self.turn = 1;
            self.round += 1;
        }
        self.phase = if self.round > assume::ROUNDS || wiped(Side::A) || wiped(Side::B) {
            Phase::GameOver
        } else {
            Phase::Tactical
        };
        Ok(())
    }
}
