//! The game panel, for a game file open in the app: where the game stands — Round, Turn, phase,
//! the Order in progress, who may declare an ARO now and why — and the controls that play it,
//! one event at a time, in the steps of the Order Expenditure Sequence (seed 000, 1.1.1).
//!
//! The panel only puts events together ([`OrderDraft`] is what the player is choosing: nothing
//! in it is in the game yet) and asks for them with [`Command::Play`]; the app plays each
//! through [`GameSession::play`](super::game_session::GameSession::play), where the rules judge
//! it and an accepted event is appended to the game file, fsynced, before anything changes. A
//! refused event changes nothing, and the panel shows the rule that refused it.

use super::Command;
use crate::geometry::{Side, TablePoint};
use crate::rules::{
    Ability, Activation, AroDeclaration, AroReason, Declaration, Event, FireteamKind, Game, Move, OrderSource,
    OrderStep, Outcome, Phase, Rejection, State, StrategicUse, skills,
};
use std::collections::{BTreeMap, BTreeSet};

/// What the player is putting together before it becomes an event. UI state only.
#[derive(Debug, Clone)]
pub struct OrderDraft {
    /// Which Order the next activation spends.
    pub source: OrderSource,
    /// For a Coordinated Order: the troopers besides the selected one (the Spearhead).
    pub coordinated: BTreeSet<String>,
    /// The skill to declare (its catalogue id).
    pub skill: String,
    /// A Jump by troopers with Super-Jump declared as an Entire Order (both MOV values together).
    pub entire_order: bool,
    /// Whose route clicks on the table add to (one of the activated troopers).
    pub mover: Option<String>,
    /// Each activated trooper's route so far: the points after where it stands, inches.
    pub routes: BTreeMap<String, Vec<TablePoint>>,
    /// The skill's targets.
    pub targets: BTreeSet<String>,
    /// Each eligible reactive trooper's ARO: (skill id, target).
    pub aros: BTreeMap<String, (String, String)>,
    /// Each mover's facing at the end of its move, degrees (none: along its last leg).
    pub facing: BTreeMap<String, f64>,
    /// A route point typed in, inches (for a point more exact than a click).
    pub typed: (f64, f64),
    /// Troopers under a Template the skill places.
    pub template_hits: BTreeSet<String>,
    /// Each reactive Fireteam's ARO, when its members' AROs have no majority (seed 003).
    pub fireteam_aro: BTreeMap<String, String>,
    /// What happened, for Resolution.
    pub outcomes: Vec<Outcome>,
    /// The outcome being put together.
    pub outcome: NewOutcome,
    /// A Fireteam being put together (Executive Use of a Command Token).
    pub fireteam: NewFireteam,
    /// The Combat Group (index) the selected trooper would move to (Executive Use).
    pub group: usize,
    /// Deployment: clicks on the table tag where the selected trooper stands.
    pub tagging: bool,
    /// The facing a trooper is tagged with, degrees; `None` (the default): towards the table's
    /// middle from where it is tagged ([`facing_the_middle`]), so each player's Models face the
    /// table, whichever edge they deploy on.
    pub deploy_facing: Option<f64>,
    /// Strategic Use: how many Regular Orders to take from each of the active player's Combat
    /// Groups, and the trooper to put in Suppressive Fire.
    pub strategic: (Vec<u32>, String),
    /// The new Lieutenant, at the end of a Turn in Loss of Lieutenant.
    pub new_lieutenant: String,
    /// What the last event came to: `Ok` what was saved, `Err` why it was refused.
    pub message: Option<Result<String, String>>,
}

/// What an outcome being put together says happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutcomeKind {
    /// The trooper enters a state.
    Enter,
    /// It leaves one.
    Leave,
    /// It now stands somewhere else (a click on the table, or typed).
    Place,
    /// It turns.
    Face,
    /// Its skill became an Idle.
    Idle,
}

impl OutcomeKind {
    const ALL: [OutcomeKind; 5] =
        [OutcomeKind::Enter, OutcomeKind::Leave, OutcomeKind::Place, OutcomeKind::Face, OutcomeKind::Idle];

    fn text(self) -> &'static str {
        match self {
            OutcomeKind::Enter => "enters",
            OutcomeKind::Leave => "leaves",
            OutcomeKind::Place => "is placed at",
            OutcomeKind::Face => "faces",
            OutcomeKind::Idle => "became an Idle",
        }
    }
}

/// An outcome being put together.
#[derive(Debug, Clone, PartialEq)]
pub struct NewOutcome {
    /// Who.
    pub trooper: String,
    /// What happened to it.
    pub kind: OutcomeKind,
    /// The state it enters or leaves.
    pub state: State,
    /// Where it is placed, inches.
    pub at: (f64, f64),
    /// The facing it turns to (or is placed with), degrees.
    pub facing: f64,
}

impl Default for NewOutcome {
    fn default() -> Self {
        Self {
            trooper: String::new(),
            kind: OutcomeKind::Enter,
            state: State::Unconscious,
            at: (0.0, 0.0),
            facing: 0.0,
        }
    }
}

impl NewOutcome {
    /// The outcome, as the game file has it.
    pub fn outcome(&self) -> Outcome {
        let trooper = self.trooper.clone();
        match self.kind {
            OutcomeKind::Enter => Outcome::Enter { trooper, state: self.state },
            OutcomeKind::Leave => Outcome::Leave { trooper, state: self.state },
            OutcomeKind::Place => Outcome::Place { trooper, x: self.at.0, y: self.at.1, facing: Some(self.facing) },
            OutcomeKind::Face => Outcome::Face { trooper, facing: self.facing },
            OutcomeKind::Idle => Outcome::Idle { trooper },
        }
    }
}

/// A Fireteam being put together.
#[derive(Debug, Clone, PartialEq)]
pub struct NewFireteam {
    /// Its id.
    pub id: String,
    /// Its type.
    pub kind: FireteamKind,
    /// Its members; the first chosen leads it.
    pub members: Vec<String>,
}

impl Default for NewFireteam {
    fn default() -> Self {
        Self { id: String::new(), kind: FireteamKind::Core, members: Vec::new() }
    }
}

impl Default for OrderDraft {
    fn default() -> Self {
        Self {
            source: OrderSource::Regular,
            coordinated: BTreeSet::new(),
            skill: "move".into(),
            mover: None,
            routes: BTreeMap::new(),
            targets: BTreeSet::new(),
            aros: BTreeMap::new(),
            facing: BTreeMap::new(),
            typed: (0.0, 0.0),
            template_hits: BTreeSet::new(),
            entire_order: false,
            fireteam_aro: BTreeMap::new(),
            outcomes: Vec::new(),
            outcome: NewOutcome::default(),
            fireteam: NewFireteam::default(),
            group: 0,
            tagging: false,
            deploy_facing: None,
            strategic: (Vec::new(), String::new()),
            new_lieutenant: String::new(),
            message: None,
        }
    }
}

impl OrderDraft {
    /// The declaration the draft makes: the chosen skill, a move for every activated trooper
    /// given a route (facing along its last leg), the targets.
    pub fn declaration(&self) -> Declaration {
        let moves = self
            .routes
            .iter()
            .filter(|(_, r)| !r.is_empty())
            .map(|(id, r)| Move {
                trooper: id.clone(),
                route: r.iter().map(|p| (p.x, p.y)).collect(),
                facing: self.facing.get(id).copied(),
            })
            .collect();
        Declaration {
            skill: self.skill.clone(),
            moves,
            targets: self.targets.iter().cloned().collect(),
            template_hits: self.template_hits.iter().cloned().collect(),
            entire_order: self.entire_order && self.skill == "jump",
        }
    }

    /// The trooper whose route a click on the table extends: the one chosen, if the Order
    /// activated it, else the first trooper the Order activated.
    pub fn mover_in(&self, order: &Activation) -> Option<String> {
        self.mover.clone().filter(|m| order.troopers.contains(m)).or_else(|| order.troopers.first().cloned())
    }

    /// Forget what `event`, just played, has used up.
    pub fn played(&mut self, event: &Event) {
        match event {
            Event::Activate { .. } => {
                self.coordinated.clear();
                self.mover = None;
            }
            Event::Declare(_) => {
                self.mover = None;
                self.routes.clear();
                self.facing.clear();
                self.targets.clear();
                self.template_hits.clear();
                self.entire_order = false;
            }
            Event::CloseAroWindow { .. } => self.fireteam_aro.clear(),
            Event::CreateFireteam { .. } => self.fireteam = NewFireteam::default(),
            Event::DeclareAro(a) => {
                self.aros.remove(&a.trooper);
            }
            Event::Resolve { .. } => {
                self.outcomes.clear();
                self.aros.clear();
            }
            _ => {}
        }
    }
}

/// What a click on the table does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableClick {
    /// Selects the trooper clicked.
    Select,
    /// Adds a point to the route being drawn (a moving skill is being declared).
    Route,
    /// Says where the outcome's trooper is placed (a "placed at" outcome is being put together).
    Place,
    /// Deploys the selected trooper there (Deployment Phase, tagging on).
    Deploy,
    /// A corner of the terrain piece being traced (outside a game).
    TerrainCorner,
    /// An end of the ladder being put on a terrain piece (outside a game).
    LadderEnd,
}

impl TableClick {
    /// Whether a press dragged on the table gives a facing now: while Models are tagged (the
    /// Model's), while a route is drawn (the mover's, at the end of its route) and while a
    /// "placed at" outcome is put together (the facing it is placed with).
    pub fn takes_facing(self) -> bool {
        matches!(self, TableClick::Deploy | TableClick::Route | TableClick::Place)
    }

    /// The command a press at table point `p` (on a surface `h` inches up) dragged towards
    /// `facing` (degrees) makes, when a drag [`Self::takes_facing`].
    pub fn command_facing(self, p: TablePoint, h: f64, facing: f64) -> Option<Command> {
        match self {
            TableClick::Deploy => Some(Command::DeployFacing(p, h, facing)),
            TableClick::Route => Some(Command::RouteClickFacing(p, facing)),
            TableClick::Place => Some(Command::PlaceFacing(p, facing)),
            _ => None,
        }
    }

    /// The command a click at table point `p` makes (inches; a trooper deployed inside a piece
    /// stands on its top), or `None` when the click selects.
    pub fn command_at(self, p: TablePoint, terrain: &[crate::geometry::Terrain]) -> Option<Command> {
        match self {
            TableClick::Select => None,
            TableClick::Route => Some(Command::RouteClick(p)),
            TableClick::Place => Some(Command::PlaceAt(p)),
            TableClick::Deploy => Some(Command::DeployAt(p, crate::geometry::surface_height(terrain, p))),
            TableClick::TerrainCorner => Some(Command::TerrainCorner(p)),
            TableClick::LadderEnd => Some(Command::LadderEnd(p)),
        }
    }
}

/// What a click on the table does now.
pub fn table_click(game: &Game, draft: &OrderDraft) -> TableClick {
    if draft.tagging && game.deployment_open() {
        return TableClick::Deploy;
    }
    let Some(order) = game.order() else { return TableClick::Select };
    let at_skill = matches!(order.step, OrderStep::FirstSkill | OrderStep::SecondSkill);
    let resolving = matches!(order.step, OrderStep::SecondSkill | OrderStep::Resolution);
    if at_skill && skills::find(&draft.skill).is_some_and(|s| s.moves) {
        TableClick::Route
    } else if resolving && draft.outcome.kind == OutcomeKind::Place && !draft.outcome.trooper.is_empty() {
        TableClick::Place
    } else {
        TableClick::Select
    }
}

/// A skill's name ("BS Attack") from its id; an unknown id as it is.
pub fn skill_name(id: &str) -> &str {
    skills::find(id).map_or(id, |s| s.name)
}

/// A game-file name ("suppressive_fire", "tactical_awareness") in words.
pub fn words(v: &impl serde::Serialize) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(|w| w.replace('_', " "))).unwrap_or_default()
}

/// The facing, degrees counter-clockwise from +x and whole, of a Model at `p` looking at the
/// middle of `table` (inches); 90° at the middle itself.
pub fn facing_the_middle(p: TablePoint, table: &crate::geometry::Table) -> f64 {
    facing_towards(p, table.middle()).unwrap_or(90.0)
}

/// The facing, degrees counter-clockwise from +x, whole and 0–360, of a Model at `from` looking
/// at `to` (table inches); `None` when the two are one point.
pub fn facing_towards(from: TablePoint, to: TablePoint) -> Option<f64> {
    // (Rounded up to 360° is 0°; + 0.0: never -0°.)
    (from.dist(to) >= 1e-9).then(|| from.angle_deg_to(to).round().rem_euclid(360.0) + 0.0)
}

/// How far (inches) a press on the table must be dragged, while Models are tagged, a route is
/// drawn or a placement put together, to give the facing it is dragged towards; a shorter drag
/// (moved too far for egui to call it a click) does nothing.
pub const FACING_DRAG_IN: f64 = 0.5;

pub(super) fn side_name(s: Side) -> &'static str {
    match s {
        Side::A => "A",
        Side::B => "B",
    }
}

/// An event in a few words, for the log ("activate a1 (regular)", "declare move: a1 4.0\"").
pub fn event_text(e: &Event) -> String {
    match e {
        Event::Activate { source, troopers } => format!("activate {} ({})", troopers.join(", "), words(source)),
        Event::Deploy { trooper, x, y, facing, elevation } => {
            let up = if *elevation > 0.0 { format!(", {elevation:.1}\" up") } else { String::new() };
            format!("deploy {trooper} at ({x:.1}, {y:.1}){up} facing {facing:.0}°")
        }
        Event::Declare(d) => {
            let mut t = format!("declare {}", skill_name(&d.skill));
            for m in &d.moves {
                if let Some(&(x, y)) = m.route.last() {
                    t += &format!(" · {} to ({x:.1}, {y:.1})", m.trooper);
                    if let Some(f) = m.facing {
                        t += &format!(" facing {f:.0}°");
                    }
                }
            }
            if !d.targets.is_empty() {
                t += &format!(" at {}", d.targets.join(", "));
            }
            t
        }
        Event::DeclareAro(a) => format!("ARO: {} {} at {}", a.trooper, skill_name(&a.skill), a.target),
        Event::Resolve { outcomes } => {
            format!("resolve ({} outcome{})", outcomes.len(), if outcomes.len() == 1 { "" } else { "s" })
        }
        other => words(&other.kind()),
    }
}

/// Why a reactive trooper gets no ARO from Stealth troopers, in words (N4 Stealth).
pub fn stealth_text(id: &str, by: &[String]) -> String {
    format!("{id}: no ARO against {} (Stealth: inside {id}'s ZoC, outside its LoF)", by.join(", "))
}

/// Why a trooper may react, in words ("LoF to a1 from (22.0, 12.5)").
pub fn reason_text(r: &AroReason) -> String {
    match r {
        AroReason::Lof { of, at } => format!("LoF to {of} from ({:.1}, {:.1})", at.0, at.1),
        AroReason::Zoc { of, at } => format!("{of} in ZoC from ({:.1}, {:.1})", at.0, at.1),
        AroReason::HackingArea { of, via } => format!("{of} in Hacking Area via {via}"),
        AroReason::SixthSense { of } => format!("Sixth Sense: attacked by {of}"),
        AroReason::Template { of } => format!("under {of}'s Template"),
        AroReason::CommsAttack { of } => format!("Comms Attack by {of}"),
    }
}

/// One side's Orders and tokens, for the armies list: Regular Orders per Combat Group, the
/// Lieutenant Order, Irregular Orders, Command Tokens, Retreat! and Loss of Lieutenant.
pub fn side_summary(game: &Game, side: Side) -> Vec<String> {
    let mut lines = Vec::new();
    let pools: Vec<String> = game.pools(side).iter().enumerate().map(|(g, n)| format!("G{} {n}", g + 1)).collect();
    lines.push(format!("Orders: {}", pools.join(" · ")));
    let mut held = vec![format!("Lt {}", game.lieutenant_orders(side))];
    let irregular: u32 = game
        .irregular_orders()
        .iter()
        .filter(|(id, _)| game.trooper(id).is_some_and(|t| t.side == side))
        .map(|(_, n)| n)
        .sum();
    if irregular > 0 {
        held.push(format!("Irregular {irregular}"));
    }
    held.push(format!("Command Tokens {}", game.command_tokens(side)));
    lines.push(held.join(" · "));
    if game.in_retreat(side) {
        lines.push("Retreat!".into());
    }
    if game.loss_of_lieutenant(side) {
        lines.push("Loss of Lieutenant".into());
    }
    for f in game.fireteams(side) {
        let coherency = game.coherency(f);
        let members: Vec<String> = f
            .members
            .iter()
            .map(|m| {
                let lead = if *m == f.leader { " (leader)" } else { "" };
                let out = if coherency.get(m) == Some(&false) { " (out of Coherency)" } else { "" };
                format!("{m}{lead}{out}")
            })
            .collect();
        lines.push(format!("{} ({}): {}", f.id, words(&f.kind), members.join(", ")));
    }
    lines
}

/// The game panel: the state, then the controls for the step the game is at. `selected` is the
/// trooper selected in the app (the one an Activate spends an Order on).
pub fn ui(ui: &mut egui::Ui, game: &Game, draft: &mut OrderDraft, selected: Option<&str>, commands: &mut Vec<Command>) {
    let phase = game.phase();
    ui.heading("Game");
    if phase == Phase::GameOver {
        ui.label(format!("Round {} · game over", game.round()));
    } else {
        ui.label(format!(
            "Round {} · Turn {} · {} active · {} Phase",
            game.round(),
            game.turn(),
            side_name(game.active()),
            match phase {
                Phase::Tactical => "Tactical",
                Phase::Impetuous => "Impetuous",
                Phase::Orders => "Orders",
                Phase::GameOver => "",
            }
        ));
    }
    match &draft.message {
        Some(Ok(m)) => {
            ui.colored_label(egui::Color32::from_rgb(140, 210, 140), m);
        }
        Some(Err(m)) => {
            ui.add(
                egui::Label::new(egui::RichText::new(format!("Refused — {m}")).color(super::plan::BLOCKED_ROUTE))
                    .wrap(),
            );
        }
        None => {}
    }
    match (phase, game.order()) {
        (Phase::GameOver, _) => {}
        (Phase::Tactical, _) => {
            if game.deployment_open() {
                deployment_ui(ui, game, draft, selected, commands);
                ui.separator();
            }
            ui.label("Executive Use of Command Tokens, then the Order Count.");
            executive_ui(ui, game, draft, selected, commands);
            ui.separator();
            play_button(
                ui,
                game,
                "Order Count",
                "Retreat!, Loss of Lieutenant, then count the Orders",
                Event::OrderCount,
                true,
                commands,
            );
        }
        (_, None) => {
            if game.strategic_use_open() {
                strategic_ui(ui, game, draft, commands);
            }
            activation_ui(ui, game, draft, selected, commands);
        }
        (_, Some(order)) => order_ui(ui, game, order, draft, commands),
    }
}

/// Deployment Phase: tag where each Model stands by clicking the table (the plan, or the picture:
/// a click on a roof puts it on the roof), the selected trooper each time, then the next. When the
/// setup says who deploys first: whose step it is, the first-Turn player's hold back, and the
/// button that ends a step early.
fn deployment_ui(
    ui: &mut egui::Ui,
    game: &Game,
    draft: &mut OrderDraft,
    selected: Option<&str>,
    commands: &mut Vec<Command>,
) {
    ui.strong("Deployment: before the game begins");
    if let Some(text) = deployment_step_text(game) {
        ui.add(egui::Label::new(text).wrap());
    }
    if game.hold_back_open() {
        let first = side_name(game.setup().first);
        let event = Event::StrategicCommandToken(StrategicUse::HoldBackTrooper);
        let hint = "Strategic Use of a Command Token by the player with the first Turn, during its deployment: \
                    deploy one more trooper after the opponent";
        play_button(ui, game, format!("{first}: hold back one more trooper (1 CT)"), hint, event, false, commands);
    }
    if let Some(d) = game.deployment_step() {
        let hint = "The step ends by itself once the player has placed what it may; end it sooner when the \
                    player keeps troopers off the table (Airborne Deployment …)";
        let text = format!("{} is done with step {}", side_name(d.side), d.number);
        play_button(ui, game, text, hint, Event::EndDeploymentStep, false, commands);
    }
    ui.checkbox(&mut draft.tagging, "Tag where Models stand")
        .on_hover_text("Each click on the table puts the selected trooper there, then selects the next");
    if draft.tagging {
        ui.horizontal(|ui| {
            let mut middle = draft.deploy_facing.is_none();
            if ui
                .checkbox(&mut middle, "facing the table's middle")
                .on_hover_text(
                    "Each Model tagged faces the middle of the table; untick to give one facing. Or press where \
                     the Model stands and drag the way it faces",
                )
                .changed()
            {
                draft.deploy_facing = if middle { None } else { Some(90.0) };
            }
            if let Some(f) = &mut draft.deploy_facing {
                let label = ui.label("facing");
                ui.add(egui::DragValue::new(f).speed(1.0).range(0.0..=359.9).suffix("°")).labelled_by(label.id);
            }
        });
        ui.label(match selected {
            Some(id) => format!("Click the table where {id} stands."),
            None => "Select a trooper, then click the table where it stands.".to_string(),
        });
    }
}

/// The Deployment Phase's step in words (N4 Initiative and Deployment), when the setup says who
/// deploys first: "Step 2 of 4: A places all but 1 of its troopers (4 off the table). Next: B
/// places the 1 trooper it kept back."
pub fn deployment_step_text(game: &Game) -> Option<String> {
    game.setup().deploys_first?;
    let Some(d) = game.deployment_step() else {
        return Some("Every step of the Deployment Phase is done: the Order Count begins the game.".into());
    };
    let other = crate::rules::opponent(d.side);
    let kept = |side: Side| {
        let n = *d.held_back.get(side);
        format!("the {n} trooper{} it kept back", if n == 1 { "" } else { "s" })
    };
    let (me, them) = (side_name(d.side), side_name(other));
    let now = match d.number {
        1 | 2 => format!("{me} places all but {} of its troopers", d.held_back.get(d.side)),
        _ => format!("{me} places {}", kept(d.side)),
    };
    let next = match d.number {
        1 => format!("Next: {them} places all but {} of its own.", d.held_back.get(other)),
        2 | 3 => format!("Next: {them} places {}.", kept(other)),
        _ => "Then the Order Count.".to_string(),
    };
    // `to_place` counts a Controller with its Peripherals as one (N4 Peripheral): say so where it
    // makes the count differ from the troopers listed as off the table.
    let count = if d.off_table == d.to_place {
        format!("{} off the table", d.off_table)
    } else {
        format!(
            "{} off the table, {} to place: a Controller and its Peripherals are placed together and count as \
             one, N4 Peripheral",
            d.off_table, d.to_place
        )
    };
    Some(format!("Step {} of 4: {now} ({count}). {next}", d.number))
}

/// What creating one more Fireteam of `kind` for `side` does to those on the table, when it is
/// not simply added: none allowed, or the oldest of the type cancelled to make room (Fireteam
/// Cancellation case 5; the army's limits: [`crate::rules::FireteamLimits`]).
pub(super) fn fireteam_room(game: &Game, side: Side, kind: FireteamKind) -> Option<String> {
    let cancelled = match game.fireteams_cancelled_by_one_more(side, kind) {
        Err(why) => return Some(why),
        Ok(ids) if ids.is_empty() => return None,
        Ok(ids) => ids,
    };
    let max = game.setup().armies.get(side).fireteam_limits.max(kind)?;
    let name = if max == 1 { kind.name() } else { kind.plural() };
    let same: Vec<&str> = game.fireteams(side).iter().filter(|f| f.kind == kind).map(|f| f.id.as_str()).collect();
    Some(format!(
        "At most {max} {name} on the table ({}): creating another cancels {}",
        same.join(", "),
        cancelled.join(", ")
    ))
}

/// Executive Use of Command Tokens (Tactical Phase): create a Fireteam, move the selected
/// trooper to another Combat Group.
fn executive_ui(
    ui: &mut egui::Ui,
    game: &Game,
    draft: &mut OrderDraft,
    selected: Option<&str>,
    commands: &mut Vec<Command>,
) {
    let side = game.active();
    ui.collapsing("Create a Fireteam (1 Command Token)", |ui| {
        let f = &mut draft.fireteam;
        ui.horizontal(|ui| {
            let label = ui.label("id");
            ui.add(egui::TextEdit::singleline(&mut f.id).desired_width(90.0)).labelled_by(label.id);
            fireteam_kind(ui, "fireteam kind", &mut f.kind);
        });
        if let Some(said) = fireteam_room(game, side, f.kind) {
            ui.label(said);
        }
        ui.label("Members (the first ticked leads):");
        ui.horizontal_wrapped(|ui| {
            let ids = game.troopers().iter().filter(|t| t.side == side && t.on_table()).map(|t| &t.id);
            tick_members(ui, ids, &mut f.members);
        });
        // (Before the Command Token is spent: which units the army's Fireteams Chart lets form it.)
        if let Some(why) = (f.members.len() >= 2)
            .then(|| game.setup().armies.get(side).fireteam_chart_problem(f.kind, &f.members))
            .flatten()
        {
            ui.colored_label(ui.visuals().warn_fg_color, format!("Fireteams Chart: {why}"));
        }
        let ready = !f.id.trim().is_empty() && !f.members.is_empty();
        if ui.add_enabled(ready, egui::Button::new("Create Fireteam")).clicked() {
            commands.push(Command::Play(Event::CreateFireteam {
                id: f.id.trim().to_string(),
                kind: f.kind,
                leader: f.members[0].clone(),
                members: f.members.clone(),
            }));
        }
    });
    if let Some(me) = selected.and_then(|id| game.trooper(id)).filter(|t| t.side == side) {
        ui.horizontal_wrapped(|ui| {
            let groups = game.pools(side).len();
            let label = ui.label(format!("Move {} to", me.id));
            egui::ComboBox::from_id_salt("to group")
                .selected_text(format!("Combat Group {}", draft.group + 1))
                .show_ui(ui, |ui| {
                    for g in 0..groups {
                        ui.selectable_value(&mut draft.group, g, format!("Combat Group {}", g + 1));
                    }
                })
                .response
                .labelled_by(label.id);
            let event = Event::MoveToGroup { trooper: me.id.clone(), group: draft.group };
            play_button(ui, game, "Move", "Executive Use: 1 Command Token", event, false, commands);
        });
    }
}

/// The second player's Strategic Use of a Command Token (after the first Turn's Order Count,
/// before its first Order): take 2 Regular Orders from the active player's pools, limit it to 1
/// Command Token this Turn, or put one of its own troopers in Suppressive Fire.
fn strategic_ui(ui: &mut egui::Ui, game: &Game, draft: &mut OrderDraft, commands: &mut Vec<Command>) {
    let (second, first) = (game.reactive(), game.active());
    ui.collapsing(format!("{}: Strategic Use of a Command Token", side_name(second)), |ui| {
        let pools = game.pools(first);
        let (remove, trooper) = &mut draft.strategic;
        remove.resize(pools.len(), 0);
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("Take from {}'s pools:", side_name(first)));
            for (g, (n, &have)) in remove.iter_mut().zip(pools).enumerate() {
                let label = ui.label(format!("G{}", g + 1));
                ui.add(egui::DragValue::new(n).range(0..=have)).labelled_by(label.id);
            }
        });
        let from = remove.iter().enumerate().filter(|(_, n)| **n > 0).map(|(g, &n)| (g, n)).collect();
        let event = Event::StrategicCommandToken(StrategicUse::RemoveOrders { from });
        play_button(ui, game, "Remove Orders", "", event, false, commands);
        let event = Event::StrategicCommandToken(StrategicUse::LimitCommandTokens);
        play_button(ui, game, format!("Limit {} to 1 Command Token", side_name(first)), "", event, false, commands);
        ui.horizontal(|ui| {
            let label = ui.label("Suppressive Fire:");
            egui::ComboBox::from_id_salt("strategic trooper")
                .selected_text(trooper.clone())
                .show_ui(ui, |ui| {
                    for t in game.troopers().iter().filter(|t| t.side == second && t.on_table()) {
                        ui.selectable_value(trooper, t.id.clone(), &t.id);
                    }
                })
                .response
                .labelled_by(label.id);
            if ui.add_enabled(!trooper.is_empty(), egui::Button::new("Put it in Suppressive Fire")).clicked() {
                commands.push(Command::Play(Event::StrategicCommandToken(StrategicUse::SuppressiveFire {
                    trooper: trooper.clone(),
                })));
            }
        });
    });
}

/// Between Orders: cancel one of the Active Player's Fireteams, or name another Team Leader.
fn fireteams_ui(ui: &mut egui::Ui, game: &Game, selected: Option<&str>, commands: &mut Vec<Command>) {
    for f in game.fireteams(game.active()) {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("{}:", f.id));
            if ui.small_button(format!("Cancel {}", f.id)).on_hover_text("Voluntary, free").clicked() {
                commands.push(Command::Play(Event::CancelFireteam { id: f.id.clone() }));
            }
            if let Some(id) = selected.filter(|id| f.members.iter().any(|m| m == id) && *id != f.leader)
                && ui.small_button(format!("{id} leads {}", f.id)).clicked()
            {
                commands.push(Command::Play(Event::ChangeLeader { fireteam: f.id.clone(), leader: id.to_string() }));
            }
        });
    }
}

fn activation_ui(
    ui: &mut egui::Ui,
    game: &Game,
    draft: &mut OrderDraft,
    selected: Option<&str>,
    commands: &mut Vec<Command>,
) {
    let impetuous = game.phase() == Phase::Impetuous;
    if impetuous {
        let side = game.active();
        let holders: Vec<&str> = game
            .impetuous_tokens()
            .iter()
            .filter(|id| game.trooper(id).is_some_and(|t| t.side == side))
            .map(String::as_str)
            .collect();
        ui.label(if holders.is_empty() {
            "No Impetuous token left.".to_string()
        } else {
            format!("Impetuous tokens: {}", holders.join(", "))
        });
        draft.source = OrderSource::Impetuous;
    } else if draft.source == OrderSource::Impetuous {
        draft.source = OrderSource::Regular;
    }
    let Some(me) = selected.and_then(|id| game.trooper(id)).filter(|t| t.side == game.active()) else {
        ui.label(format!("Select one of {}'s troopers to activate it.", side_name(game.active())));
        end_buttons(ui, game, draft, commands);
        return;
    };
    ui.horizontal(|ui| {
        let label = ui.label("Order:");
        egui::ComboBox::from_id_salt("order source")
            .selected_text(words(&draft.source))
            .show_ui(ui, |ui| {
                let sources: &[OrderSource] = if impetuous {
                    &[OrderSource::Impetuous]
                } else {
                    &[
                        OrderSource::Regular,
                        OrderSource::Irregular,
                        OrderSource::Lieutenant,
                        OrderSource::TacticalAwareness,
                        OrderSource::Coordinated,
                    ]
                };
                for &s in sources {
                    // A Coordinated Order needs its other troopers, chosen once it is picked: the
                    // Activate button says what is wrong with them.
                    let refused = (s != OrderSource::Coordinated)
                        .then(|| game.apply(&Event::Activate { source: s, troopers: vec![me.id.clone()] }).err())
                        .flatten();
                    choice(ui, &mut draft.source, s, &words(&s), refused);
                }
            })
            .response
            .labelled_by(label.id);
    });
    let mut troopers = vec![me.id.clone()];
    if draft.source == OrderSource::Coordinated {
        ui.label(format!("With {} (the Spearhead):", me.id));
        let others = game.troopers().iter().filter(|t| t.side == me.side && t.id != me.id && t.on_table());
        pick_troopers(ui, others, &mut draft.coordinated);
        troopers.extend(draft.coordinated.iter().filter(|id| **id != me.id).cloned());
    }
    play_button(
        ui,
        game,
        format!("Activate {}", me.id),
        "",
        Event::Activate { source: draft.source, troopers },
        true,
        commands,
    );
    if !impetuous {
        fireteams_ui(ui, game, selected, commands);
    }
    end_buttons(ui, game, draft, commands);
}

/// End of the Impetuous Phase, or of the Turn.
fn end_buttons(ui: &mut egui::Ui, game: &Game, draft: &mut OrderDraft, commands: &mut Vec<Command>) {
    ui.separator();
    if game.phase() == Phase::Impetuous {
        play_button(ui, game, "End Impetuous Phase", "", Event::EndImpetuousPhase, true, commands);
        return;
    }
    let side = game.active();
    let mut new_lieutenant = None;
    if game.loss_of_lieutenant(side) {
        ui.horizontal(|ui| {
            let label = ui.label("New Lieutenant:");
            egui::ComboBox::from_id_salt("new lieutenant")
                .selected_text(draft.new_lieutenant.clone())
                .show_ui(ui, |ui| {
                    for t in game.troopers().iter().filter(|t| t.side == side && t.on_table() && !t.is_null()) {
                        ui.selectable_value(&mut draft.new_lieutenant, t.id.clone(), &t.id);
                    }
                })
                .response
                .labelled_by(label.id);
        });
        new_lieutenant = Some(draft.new_lieutenant.clone()).filter(|s| !s.is_empty());
    }
    play_button(
        ui,
        game,
        "End Turn",
        "States Phase and end of the Turn",
        Event::EndTurn { new_lieutenant },
        true,
        commands,
    );
}

fn order_ui(ui: &mut egui::Ui, game: &Game, order: &Activation, draft: &mut OrderDraft, commands: &mut Vec<Command>) {
    let skills_so_far: Vec<&str> = order.skills.iter().map(|s| skill_name(&s.skill)).collect();
    ui.label(format!(
        "{} Order: {}{}",
        words(&order.source),
        order.troopers.join(", "),
        order.fireteam.as_ref().map(|f| format!(" (Fireteam {f})")).unwrap_or_default()
    ));
    if !skills_so_far.is_empty() {
        ui.label(format!("Declared: {}", skills_so_far.join(", ")));
    }
    for a in &order.declared {
        ui.label(format!(
            "ARO (window {}): {} {} at {}, Burst {}",
            a.window,
            a.aro.trooper,
            skill_name(&a.aro.skill),
            a.aro.target,
            a.burst
        ));
    }
    if !order.lost.is_empty() {
        ui.label(format!("AROs lost: {}", order.lost.join(", ")));
    }
    match order.step {
        OrderStep::FirstSkill | OrderStep::SecondSkill => {
            let first = order.step == OrderStep::FirstSkill;
            ui.strong(if first {
                "Step 1.2: the first skill (or an Entire Order)"
            } else {
                "Step 3: the second skill"
            });
            declare_ui(ui, game, order, draft, commands);
            if !first {
                ui.separator();
                resolve_ui(ui, game, draft, commands, "or, with no second skill:");
            }
        }
        OrderStep::AroWindow1 | OrderStep::AroWindow2 => aro_ui(ui, game, order, draft, commands),
        OrderStep::Resolution => {
            ui.strong("Step 5: Resolution");
            resolve_ui(ui, game, draft, commands, "What happened (sightline rolls no dice):");
        }
    }
}

fn declare_ui(ui: &mut egui::Ui, game: &Game, order: &Activation, draft: &mut OrderDraft, commands: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        let label = ui.label("Skill:");
        let name = skills::find(&draft.skill).map_or(draft.skill.as_str(), |s| s.name);
        egui::ComboBox::from_id_salt("skill")
            .selected_text(name)
            .show_ui(ui, |ui| {
                for s in skills::CATALOGUE {
                    choice(ui, &mut draft.skill, s.id.to_string(), s.name, game.can_declare(s.id).err());
                }
            })
            .response
            .labelled_by(label.id);
    });
    let Some(skill) = skills::find(&draft.skill) else { return };
    let super_jump = order.troopers.iter().any(|id| game.trooper(id).is_some_and(|t| t.has(Ability::SuperJump)));
    if skill.id == "jump" && super_jump {
        let mixed = order.troopers.iter().any(|id| game.trooper(id).is_some_and(|t| !t.has(Ability::SuperJump)));
        let hover = if mixed {
            "Super-Jump: a Jump is a Short Movement Skill up to the first MOV value, and the troopers without \
             Super-Jump perform an Idle (give them no route); as an Entire Order all of them jump, those with \
             Super-Jump both MOV values together (N4 Super-Jump FAQ)"
        } else {
            "Super-Jump: a Jump is a Short Movement Skill up to the first MOV value; as an Entire Order it goes \
             both values together"
        };
        ui.checkbox(&mut draft.entire_order, "as an Entire Order (both MOV values together)").on_hover_text(hover);
    }
    if skill.moves {
        let mover = draft.mover_in(order);
        if order.troopers.len() > 1 {
            ui.horizontal(|ui| {
                let label = ui.label("Route of:");
                let mut m = mover.clone().unwrap_or_default();
                egui::ComboBox::from_id_salt("mover")
                    .selected_text(m.clone())
                    .show_ui(ui, |ui| {
                        for t in &order.troopers {
                            ui.selectable_value(&mut m, t.clone(), t);
                        }
                    })
                    .response
                    .labelled_by(label.id);
                if Some(&m) != mover.as_ref() {
                    commands.push(Command::RouteOf(m));
                }
            });
        }
        if let Some(m) = mover {
            let route = draft.routes.get(&m).cloned().unwrap_or_default();
            ui.label(if route.is_empty() {
                format!("Click the table where {m} goes (each click a point of its route).")
            } else {
                let last = route[route.len() - 1];
                let me = game.trooper(&m);
                let mov = me.and_then(|t| t.mov).map(|v| format!(", MOV {}-{}", v[0], v[1])).unwrap_or_default();
                // As the rules measure it, from where it stands (or, entering the table, from its
                // first point): a Climb, a Jump or a Climbing Plus Move with its ups and downs.
                let length = match game.route_length(&draft.skill, &m, &route) {
                    Some((measured, across)) if measured > across + 1e-9 => {
                        format!("{measured:.2}\" ({across:.2}\" across)")
                    }
                    Some((_, across)) => format!("{across:.2}\""),
                    None => "0.00\"".to_string(),
                };
                format!(
                    "{m}: {} point{}, to ({:.1}, {:.1}): {length}{mov}",
                    route.len(),
                    if route.len() == 1 { "" } else { "s" },
                    last.x,
                    last.y,
                )
            });
            ui.horizontal(|ui| {
                ui.label("x");
                ui.add(egui::DragValue::new(&mut draft.typed.0).speed(0.1).suffix("\""));
                ui.label("y");
                ui.add(egui::DragValue::new(&mut draft.typed.1).speed(0.1).suffix("\""));
                if ui.button("Add point").on_hover_text("Add the point typed to the route").clicked() {
                    commands.push(Command::RoutePoint(TablePoint::new(draft.typed.0, draft.typed.1)));
                }
            });
            ui.horizontal(|ui| {
                let mut set = draft.facing.contains_key(&m);
                ui.checkbox(&mut set, "facing at the end").on_hover_text("Otherwise it faces along its last leg");
                if set {
                    let f = draft.facing.entry(m.clone()).or_insert(0.0);
                    ui.add(egui::DragValue::new(f).speed(1.0).range(0.0..=359.9).suffix("°"));
                } else {
                    draft.facing.remove(&m);
                }
            });
            ui.horizontal(|ui| {
                if ui.add_enabled(!route.is_empty(), egui::Button::new("Undo point")).clicked() {
                    commands.push(Command::UndoRoutePoint);
                }
                if ui.add_enabled(!route.is_empty(), egui::Button::new("Clear route")).clicked() {
                    draft.routes.remove(&m);
                    commands.push(Command::RouteChanged);
                }
            });
        }
    }
    if skill.attack || skill.needs_lof {
        ui.label("Targets:");
        let mine = game.active();
        pick_troopers(ui, game.troopers().iter().filter(|t| t.side != mine && t.on_table()), &mut draft.targets);
        for target in &draft.targets {
            if let Some(note) = into_close_combat_note(game, skill.id, target) {
                ui.label(note);
            }
        }
    }
    if skill.attack {
        ui.label("Under a Template it places:");
        pick_troopers(ui, game.troopers().iter().filter(|t| t.on_table()), &mut draft.template_hits);
    }
    // The skill, then the declaration as it stands (its routes, targets, Template), judged as the
    // rules would judge it: greyed out with the reason until the rules take it.
    let refusal = game.can_declare(skill.id).err().or_else(|| game.apply(&Event::Declare(draft.declaration())).err());
    if act(ui, format!("Declare {}", skill.name), refusal.as_ref(), true).clicked() {
        commands.push(Command::Play(Event::Declare(draft.declaration())));
    }
}

fn aro_ui(ui: &mut egui::Ui, game: &Game, order: &Activation, draft: &mut OrderDraft, commands: &mut Vec<Command>) {
    let window = if order.step == OrderStep::AroWindow1 { 1 } else { 2 };
    ui.strong(format!("ARO window {window}: {} may react", side_name(game.reactive())));
    // A reactive Fireteam whose members declared different AROs: the player's choice, used when
    // there is no majority (seed 003).
    for f in game.fireteams(game.reactive()) {
        let mut declared: Vec<&str> = order
            .declared
            .iter()
            .filter(|d| f.members.contains(&d.aro.trooper))
            .map(|d| d.aro.skill.as_str())
            .collect();
        declared.sort_unstable();
        declared.dedup();
        if declared.len() < 2 {
            continue;
        }
        ui.horizontal(|ui| {
            let chosen = draft.fireteam_aro.get(&f.id).map_or("(majority)", |s| skill_name(s)).to_string();
            let label = ui.label(format!("{}'s ARO:", f.id));
            egui::ComboBox::from_id_salt(("fireteam aro", f.id.as_str()))
                .selected_text(chosen)
                .show_ui(ui, |ui| {
                    for skill in &declared {
                        if ui
                            .selectable_label(
                                draft.fireteam_aro.get(&f.id).map(String::as_str) == Some(skill),
                                skill_name(skill),
                            )
                            .clicked()
                        {
                            draft.fireteam_aro.insert(f.id.clone(), skill.to_string());
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
    }
    // After the Fireteams' choices, which closing the window uses.
    play_button(
        ui,
        game,
        format!("Close ARO window {window}"),
        "Every ARO of this window is declared: the others are lost",
        Event::CloseAroWindow { fireteam_aro: draft.fireteam_aro.clone() },
        true,
        commands,
    );
    let eligible = order.eligible_now();
    if eligible.is_empty() {
        ui.label("Nobody may declare an ARO now.");
    }
    for (id, by) in order.hidden_now() {
        ui.label(stealth_text(id, by));
    }
    let aro_skills: Vec<&skills::Skill> = skills::CATALOGUE.iter().filter(|s| s.aro).collect();
    for (id, reasons) in eligible {
        ui.separator();
        ui.label(egui::RichText::new(id.as_str()).strong());
        for r in reasons {
            ui.label(format!("  {}", reason_text(r)));
        }
        let (skill, target) = draft
            .aros
            .entry(id.clone())
            .or_insert_with(|| ("bs_attack".into(), order.troopers.first().cloned().unwrap_or_default()));
        ui.horizontal(|ui| {
            let name = skills::find(skill).map_or(skill.as_str(), |s| s.name).to_string();
            let label = ui.label("ARO:");
            egui::ComboBox::from_id_salt(("aro skill", id.as_str()))
                .selected_text(name)
                .show_ui(ui, |ui| {
                    for s in &aro_skills {
                        let aro =
                            AroDeclaration { trooper: id.clone(), skill: s.id.to_string(), target: target.clone() };
                        choice(ui, skill, s.id.to_string(), s.name, game.apply(&Event::DeclareAro(aro)).err());
                    }
                })
                .response
                .labelled_by(label.id);
            let label = ui.label("at");
            egui::ComboBox::from_id_salt(("aro target", id.as_str()))
                .selected_text(target.clone())
                .show_ui(ui, |ui| {
                    for t in &order.troopers {
                        ui.selectable_value(target, t.clone(), t);
                    }
                })
                .response
                .labelled_by(label.id);
        });
        if let Some(note) = into_close_combat_note(game, skill, target) {
            ui.label(note);
        }
        let aro = AroDeclaration { trooper: id.clone(), skill: skill.clone(), target: target.clone() };
        play_button(ui, game, format!("Declare ARO of {id}"), "", Event::DeclareAro(aro), true, commands);
    }
}

/// A BS Attack on a trooper in Close Combat with the attacker's allies (N4 Engaged State: "the BS
/// Attack against a Close Combat rule must be applied"): what the dice will have to take into
/// account, in words ("b1 is in Close Combat with a2: BS Attack into a Close Combat, −6 to BS for
/// each ally in it (−6); a missed shot may hit a2"). `None` for any other skill or target.
pub fn into_close_combat_note(game: &Game, skill_id: &str, target: &str) -> Option<String> {
    if skill_id != "bs_attack" {
        return None;
    }
    // Those in Silhouette contact with the target are its enemies: the attacker's allies.
    let allies = game.close_combat_of(target);
    if allies.is_empty() {
        return None;
    }
    let each = crate::rules::assumptions::BS_INTO_CLOSE_COMBAT_MOD;
    let total = each * allies.len() as i32;
    let who = allies.join(", ");
    Some(format!(
        "{target} is in Close Combat with {who}: BS Attack into a Close Combat, {each:+} to BS for each ally in it \
         ({total:+}); a missed shot may hit {who}"
    ))
}

fn resolve_ui(ui: &mut egui::Ui, game: &Game, draft: &mut OrderDraft, commands: &mut Vec<Command>, heading: &str) {
    ui.label(heading);
    let mut remove = None;
    for (k, o) in draft.outcomes.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(outcome_text(o));
            if ui.small_button("remove").clicked() {
                remove = Some(k);
            }
        });
    }
    if let Some(k) = remove {
        draft.outcomes.remove(k);
    }
    ui.horizontal(|ui| {
        let o = &mut draft.outcome;
        let label = ui.label("Outcome:");
        egui::ComboBox::from_id_salt("outcome trooper")
            .selected_text(o.trooper.clone())
            .width(70.0)
            .show_ui(ui, |ui| {
                for t in game.troopers().iter().filter(|t| t.on_table()) {
                    ui.selectable_value(&mut o.trooper, t.id.clone(), &t.id);
                }
            })
            .response
            .labelled_by(label.id);
        egui::ComboBox::from_id_salt("outcome kind")
            .selected_text(o.kind.text())
            .width(90.0)
            .show_ui(ui, |ui| {
                for k in OutcomeKind::ALL {
                    ui.selectable_value(&mut o.kind, k, k.text());
                }
            })
            .response
            .labelled_by(label.id);
    });
    ui.horizontal(|ui| {
        let o = &mut draft.outcome;
        match o.kind {
            OutcomeKind::Enter | OutcomeKind::Leave => {
                let label = ui.label("state");
                egui::ComboBox::from_id_salt("outcome state")
                    .selected_text(words(&o.state))
                    .width(110.0)
                    .show_ui(ui, |ui| {
                        for s in ALL_STATES {
                            ui.selectable_value(&mut o.state, s, words(&s));
                        }
                    })
                    .response
                    .labelled_by(label.id);
            }
            OutcomeKind::Place => {
                ui.label("x");
                ui.add(egui::DragValue::new(&mut o.at.0).speed(0.1).suffix("\""));
                ui.label("y");
                ui.add(egui::DragValue::new(&mut o.at.1).speed(0.1).suffix("\""));
                ui.label("facing");
                ui.add(egui::DragValue::new(&mut o.facing).speed(1.0).range(0.0..=359.9).suffix("°"));
            }
            OutcomeKind::Face => {
                ui.label("facing");
                ui.add(egui::DragValue::new(&mut o.facing).speed(1.0).range(0.0..=359.9).suffix("°"));
            }
            OutcomeKind::Idle => {}
        }
    });
    if draft.outcome.kind == OutcomeKind::Place && !draft.outcome.trooper.is_empty() {
        ui.label(format!("Click the table where {} now stands, or type it.", draft.outcome.trooper));
    }
    if ui.add_enabled(!draft.outcome.trooper.is_empty(), egui::Button::new("Add outcome")).clicked() {
        draft.outcomes.push(draft.outcome.outcome());
    }
    let event = Event::Resolve { outcomes: draft.outcomes.clone() };
    play_button(ui, game, "Resolve", "Apply what happened and end the Order", event, true, commands);
}

/// A checkbox for each of `troopers`, ticked when `chosen` holds it.
fn pick_troopers<'t>(
    ui: &mut egui::Ui,
    troopers: impl Iterator<Item = &'t crate::rules::TrooperState>,
    chosen: &mut BTreeSet<String>,
) {
    ui.horizontal_wrapped(|ui| {
        for t in troopers {
            let mut on = chosen.contains(&t.id);
            if ui.checkbox(&mut on, &t.id).changed() {
                if on {
                    chosen.insert(t.id.clone());
                } else {
                    chosen.remove(&t.id);
                }
            }
        }
    });
}

/// Every state an outcome may name, Null states first.
const ALL_STATES: [State; 10] = [
    State::Unconscious,
    State::Dead,
    State::Sepsitorized,
    State::Isolated,
    State::Disconnected,
    State::Prone,
    State::Engaged,
    State::Camouflaged,
    State::OtherMarker,
    State::SuppressiveFire,
];

/// A Fireteam's type, chosen from a combo box labelled "type".
pub(super) fn fireteam_kind(ui: &mut egui::Ui, salt: impl egui::AsIdSalt, kind: &mut FireteamKind) {
    let label = ui.label("type");
    egui::ComboBox::from_id_salt(salt)
        .selected_text(words(kind))
        .width(70.0)
        .show_ui(ui, |ui| {
            for k in FireteamKind::ALL {
                ui.selectable_value(kind, k, words(&k));
            }
        })
        .response
        .labelled_by(label.id);
}

/// A Fireteam's members, a box to tick for each of `ids`, in the order ticked (the first leads).
pub(super) fn tick_members<'a>(ui: &mut egui::Ui, ids: impl Iterator<Item = &'a String>, members: &mut Vec<String>) {
    for id in ids {
        let mut on = members.contains(id);
        if ui.checkbox(&mut on, id).changed() {
            members.retain(|m| m != id);
            if on {
                members.push(id.clone());
            }
        }
    }
}

/// A button the rules may refuse now: greyed out, with the rule and its reason on hover, and
/// when `show_why`, beneath it too. The caller asks the rules first ([`Game::apply`] on a copy,
/// or [`Game::can_declare`]), so a player sees what is not allowed before clicking it.
pub(super) fn act(
    ui: &mut egui::Ui,
    text: impl Into<egui::WidgetText>,
    refusal: Option<&impl std::fmt::Display>,
    show_why: bool,
) -> egui::Response {
    let r = ui.add_enabled(refusal.is_none(), egui::Button::new(text));
    match refusal {
        Some(e) => {
            if show_why {
                ui.add(egui::Label::new(egui::RichText::new(format!("Not now: {e}")).weak()).wrap());
            }
            r.on_disabled_hover_text(e.to_string())
        }
        None => r,
    }
}

/// A button that plays `event`, greyed out (the reason on hover) when the rules would refuse it.
fn play_button(
    ui: &mut egui::Ui,
    game: &Game,
    text: impl Into<egui::WidgetText>,
    hover: &str,
    event: Event,
    show_why: bool,
    commands: &mut Vec<Command>,
) {
    let refusal = game.apply(&event).err();
    let mut r = act(ui, text, refusal.as_ref(), show_why);
    if !hover.is_empty() {
        r = r.on_hover_text(hover);
    }
    if r.clicked() {
        commands.push(Command::Play(event));
    }
}

/// One entry of a list of choices the rules may refuse (`refused`, worked out only while the
/// list is open): greyed out, with the reason on hover.
fn choice<T: PartialEq>(ui: &mut egui::Ui, current: &mut T, value: T, text: &str, refused: Option<Rejection>) {
    let r = ui.add_enabled(refused.is_none(), egui::Button::selectable(*current == value, text));
    let r = match refused {
        Some(e) => r.on_disabled_hover_text(e.to_string()),
        None => r,
    };
    if r.clicked() {
        *current = value;
    }
}

/// An outcome in words ("b1 enters unconscious").
pub fn outcome_text(o: &Outcome) -> String {
    match o {
        Outcome::Enter { trooper, state } => format!("{trooper} enters {}", words(state)),
        Outcome::Leave { trooper, state } => format!("{trooper} leaves {}", words(state)),
        Outcome::Place { trooper, x, y, .. } => format!("{trooper} placed at ({x:.1}, {y:.1})"),
        Outcome::Face { trooper, facing } => format!("{trooper} faces {facing:.0}°"),
        Outcome::Idle { trooper } => format!("{trooper}: Idle"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Setup;

    fn game(events: &[Event]) -> Game {
        let setup = Setup::from_json(crate::rules::EXAMPLE_SETUP_JSON).expect("setup");
        let (g, results) = Game::replay(setup, events).expect("game");
        assert!(results.iter().all(Result::is_ok), "{results:?}");
        g
    }

    /// The Fireteam panel says what one more Fireteam of a type would do to those on the table:
    /// cancel the oldest when the type is at its limit (Fireteam Cancellation case 5), nothing
    /// when there is room, and that none may be created when the army's limits allow none.
    #[test]
    fn the_fireteam_panel_says_what_one_more_fireteam_would_cancel() {
        let g = game(&[]);
        assert_eq!(
            fireteam_room(&g, Side::A, FireteamKind::Core).as_deref(),
            Some("At most 1 Core on the table (core-a): creating another cancels core-a")
        );
        assert_eq!(fireteam_room(&g, Side::A, FireteamKind::Haris), None);
        assert_eq!(fireteam_room(&g, Side::A, FireteamKind::Duo), None);
        let mut setup = Setup::from_json(crate::rules::EXAMPLE_SETUP_JSON).expect("setup");
        setup.armies.a.fireteam_limits = crate::rules::FireteamLimits { core: Some(2), haris: Some(0), duo: None };
        let g = Game::new(setup).expect("a game");
        assert_eq!(fireteam_room(&g, Side::A, FireteamKind::Core), None, "room for a second Core");
        let none = fireteam_room(&g, Side::A, FireteamKind::Haris).expect("no Haris allowed");
        assert!(none.contains("no Haris"), "{none}");
    }

    /// Models tagged at either edge, or in a corner, face the table's middle: A's edge (y = 0)
    /// 90°, B's (y = 48) 270°, the left edge 0°, the right 180°, a corner along the diagonal.
    #[test]
    fn a_model_tagged_anywhere_faces_the_middle_of_the_table() {
        use crate::geometry::TablePoint;
        let square = crate::geometry::Table { width: 48.0, depth: 48.0 };
        let f = |x, y| facing_the_middle(TablePoint::new(x, y), &square);
        assert_eq!([f(24.0, 2.0), f(24.0, 46.0), f(2.0, 24.0), f(46.0, 24.0)], [90.0, 270.0, 0.0, 180.0]);
        assert_eq!([f(0.0, 0.0), f(48.0, 48.0), f(0.0, 48.0)], [45.0, 225.0, 315.0]);
        assert_eq!(f(24.0, 24.0), 90.0, "at the middle itself");
        // Whole degrees, never -0°, on a table that is not square: (10, 5) on 72 x 48 looks at (36, 24).
        assert_eq!(
            facing_the_middle(TablePoint::new(10.0, 5.0), &crate::geometry::Table { width: 72.0, depth: 48.0 }),
            (19.0f64).atan2(26.0).to_degrees().round()
        );
        assert!(f(48.0, 24.0 + 1e-12).is_sign_positive() && f(2.0, 24.0 + 1e-12).to_bits() == 0.0f64.to_bits());
    }

    /// The log says where a Model was tagged and how it faces, and a move's facing when given.
    #[test]
    fn the_log_says_where_a_model_was_tagged_and_which_way_it_faces() {
        let deploy =
            |elevation: f64| Event::Deploy { trooper: "a1".into(), x: 12.71, y: 4.86, facing: 20.0, elevation };
        assert_eq!(event_text(&deploy(0.0)), "deploy a1 at (12.7, 4.9) facing 20°");
        assert_eq!(event_text(&deploy(3.0)), "deploy a1 at (12.7, 4.9), 3.0\" up facing 20°");
        let declare = |facing: &str| -> Event {
            serde_json::from_str(&format!(
                r#"{{"type": "declare", "skill": "move", "moves": [{{"trooper": "a1", "route": [[15.7, 7.66]], "facing": {facing}}}]}}"#
            ))
            .expect("a declaration")
        };
        assert_eq!(event_text(&declare("60")), "declare Move · a1 to (15.7, 7.7) facing 60°");
        assert_eq!(event_text(&declare("null")), "declare Move · a1 to (15.7, 7.7)");
    }

    /// A drag gives a facing where a click puts a Model, a route point or a placement, and
    /// nowhere else (a drag while selecting, tracing terrain or putting a ladder does nothing).
    #[test]
    fn a_drag_gives_a_facing_only_where_a_click_places_something_that_faces() {
        use crate::geometry::TablePoint;
        let p = TablePoint::new(3.0, 4.0);
        assert_eq!(TableClick::Deploy.command_facing(p, 2.0, 45.0), Some(Command::DeployFacing(p, 2.0, 45.0)));
        assert_eq!(TableClick::Route.command_facing(p, 2.0, 45.0), Some(Command::RouteClickFacing(p, 45.0)));
        assert_eq!(TableClick::Place.command_facing(p, 2.0, 45.0), Some(Command::PlaceFacing(p, 45.0)));
        for click in [TableClick::Select, TableClick::TerrainCorner, TableClick::LadderEnd] {
            assert!(!click.takes_facing() && click.command_facing(p, 0.0, 45.0).is_none(), "{click:?}");
        }
        assert!([TableClick::Deploy, TableClick::Route, TableClick::Place].iter().all(|c| c.takes_facing()));
    }

    #[test]
    fn a_click_on_the_table_selects_until_a_route_or_a_placement_is_being_put_together() {
        let mut draft = OrderDraft::default();
        assert_eq!(table_click(&game(&[]), &draft), TableClick::Select, "no Order: a click selects");
        let first = game(&[
            Event::OrderCount,
            Event::EndImpetuousPhase,
            Event::Activate { source: OrderSource::Regular, troopers: vec!["a1".into()] },
        ]);
        assert_eq!(table_click(&first, &draft), TableClick::Route, "Move (the default skill) takes a route");
        draft.skill = "bs_attack".into();
        assert_eq!(table_click(&first, &draft), TableClick::Select, "a BS Attack has no route");
        draft.outcome.kind = OutcomeKind::Place;
        draft.outcome.trooper = "a1".into();
        assert_eq!(table_click(&first, &draft), TableClick::Select, "no outcome before the first skill");
        let mut second = first.clone();
        for e in [
            Event::Declare(Declaration {
                skill: "move".into(),
                moves: vec![Move { trooper: "a1".into(), route: vec![(22.0, 12.0)], facing: None }],
                targets: vec![],
                template_hits: vec![],
                entire_order: false,
            }),
            Event::CloseAroWindow { fireteam_aro: BTreeMap::new() },
        ] {
            second = second.apply(&e).expect("accepted");
        }
        assert_eq!(table_click(&second, &draft), TableClick::Place, "a placement at Resolution");
        draft.skill = "move".into();
        assert_eq!(table_click(&second, &draft), TableClick::Route, "a second Move's route comes first");
    }

    #[test]
    fn the_draft_makes_the_declaration_and_outcomes_the_game_file_has() {
        let mut draft = OrderDraft::default();
        draft.routes.insert("a1".into(), vec![TablePoint::new(22.0, 12.0), TablePoint::new(20.0, 14.0)]);
        draft.routes.insert("a2".into(), vec![]);
        draft.facing.insert("a1".into(), 45.0);
        let d = draft.declaration();
        assert_eq!(
            d.moves,
            vec![Move { trooper: "a1".into(), route: vec![(22.0, 12.0), (20.0, 14.0)], facing: Some(45.0) }],
            "an empty route is no move"
        );
        draft.played(&Event::Declare(d));
        assert!(draft.routes.is_empty() && draft.facing.is_empty());
        let o = NewOutcome { trooper: "b1".into(), kind: OutcomeKind::Face, facing: 90.0, ..Default::default() };
        assert_eq!(o.outcome(), Outcome::Face { trooper: "b1".into(), facing: 90.0 });
        let o = NewOutcome { kind: OutcomeKind::Place, at: (3.0, 4.0), ..o };
        assert_eq!(o.outcome(), Outcome::Place { trooper: "b1".into(), x: 3.0, y: 4.0, facing: Some(90.0) });
    }
}
