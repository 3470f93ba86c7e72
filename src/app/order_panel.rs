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
    Activation, AroDeclaration, AroReason, Declaration, Event, Game, Move, OrderSource, OrderStep, Outcome, Phase,
    State, skills,
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
    /// Whose route clicks on the table add to (one of the activated troopers).
    pub mover: Option<String>,
    /// Each activated trooper's route so far: the points after where it stands, inches.
    pub routes: BTreeMap<String, Vec<TablePoint>>,
    /// The skill's targets.
    pub targets: BTreeSet<String>,
    /// Each eligible reactive trooper's ARO: (skill id, target).
    pub aros: BTreeMap<String, (String, String)>,
    /// What happened, for Resolution.
    pub outcomes: Vec<Outcome>,
    /// The outcome being put together: who, enters (or leaves), which state.
    pub outcome: (String, bool, State),
    /// The new Lieutenant, at the end of a Turn in Loss of Lieutenant.
    pub new_lieutenant: String,
    /// What the last event came to: `Ok` what was saved, `Err` why it was refused.
    pub message: Option<Result<String, String>>,
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
            outcomes: Vec::new(),
            outcome: (String::new(), true, State::Unconscious),
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
            .map(|(id, r)| Move { trooper: id.clone(), route: r.iter().map(|p| (p.x, p.y)).collect(), facing: None })
            .collect();
        Declaration {
            skill: self.skill.clone(),
            moves,
            targets: self.targets.iter().cloned().collect(),
            template_hits: Vec::new(),
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
                self.targets.clear();
            }
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

/// Whether clicks on the table add route points now: a game is at a skill declaration and the
/// skill chosen moves.
pub fn taking_route(game: &Game, draft: &OrderDraft) -> bool {
    let at_skill = game.order().is_some_and(|o| matches!(o.step, OrderStep::FirstSkill | OrderStep::SecondSkill));
    at_skill && skills::find(&draft.skill).is_some_and(|s| s.moves)
}

/// A skill's name ("BS Attack") from its id; an unknown id as it is.
pub fn skill_name(id: &str) -> &str {
    skills::find(id).map_or(id, |s| s.name)
}

/// A game-file name ("suppressive_fire", "tactical_awareness") in words.
pub fn words(v: &impl serde::Serialize) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(|w| w.replace('_', " "))).unwrap_or_default()
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::A => "A",
        Side::B => "B",
    }
}

/// An event in a few words, for the log ("activate a1 (regular)", "declare move: a1 4.0\"").
pub fn event_text(e: &Event) -> String {
    match e {
        Event::Activate { source, troopers } => format!("activate {} ({})", troopers.join(", "), words(source)),
        Event::Declare(d) => {
            let mut t = format!("declare {}", skill_name(&d.skill));
            for m in &d.moves {
                if let Some(&(x, y)) = m.route.last() {
                    t += &format!(" · {} to ({x:.1}, {y:.1})", m.trooper);
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
    let play = |commands: &mut Vec<Command>, e: Event| commands.push(Command::Play(e));
    match (phase, game.order()) {
        (Phase::GameOver, _) => {}
        (Phase::Tactical, _) => {
            ui.label("Executive Use of Command Tokens, then the Order Count.");
            if ui.button("Order Count").on_hover_text("Retreat!, Loss of Lieutenant, then count the Orders").clicked() {
                play(commands, Event::OrderCount);
            }
        }
        (_, None) => activation_ui(ui, game, draft, selected, commands),
        (_, Some(order)) => order_ui(ui, game, order, draft, commands),
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
                    ui.selectable_value(&mut draft.source, s, words(&s));
                }
            })
            .response
            .labelled_by(label.id);
    });
    let mut troopers = vec![me.id.clone()];
    if draft.source == OrderSource::Coordinated {
        ui.label(format!("With {} (the Spearhead):", me.id));
        for t in game.troopers().iter().filter(|t| t.side == me.side && t.id != me.id && t.on_table()) {
            let mut on = draft.coordinated.contains(&t.id);
            if ui.checkbox(&mut on, &t.id).changed() {
                if on {
                    draft.coordinated.insert(t.id.clone());
                } else {
                    draft.coordinated.remove(&t.id);
                }
            }
        }
        troopers.extend(draft.coordinated.iter().filter(|id| **id != me.id).cloned());
    }
    if ui.button(format!("Activate {}", me.id)).clicked() {
        commands.push(Command::Play(Event::Activate { source: draft.source, troopers }));
    }
    end_buttons(ui, game, draft, commands);
}

/// End of the Impetuous Phase, or of the Turn.
fn end_buttons(ui: &mut egui::Ui, game: &Game, draft: &mut OrderDraft, commands: &mut Vec<Command>) {
    ui.separator();
    if game.phase() == Phase::Impetuous {
        if ui.button("End Impetuous Phase").clicked() {
            commands.push(Command::Play(Event::EndImpetuousPhase));
        }
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
    if ui.button("End Turn").on_hover_text("States Phase and end of the Turn").clicked() {
        commands.push(Command::Play(Event::EndTurn { new_lieutenant }));
    }
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
                    ui.selectable_value(&mut draft.skill, s.id.to_string(), s.name);
                }
            })
            .response
            .labelled_by(label.id);
    });
    let Some(skill) = skills::find(&draft.skill) else { return };
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
                format!(
                    "{m}: {} point{}, to ({:.1}, {:.1})",
                    route.len(),
                    if route.len() == 1 { "" } else { "s" },
                    last.x,
                    last.y
                )
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
        ui.horizontal_wrapped(|ui| {
            for t in game.troopers().iter().filter(|t| t.side != mine && t.on_table()) {
                let mut on = draft.targets.contains(&t.id);
                if ui.checkbox(&mut on, &t.id).changed() {
                    if on {
                        draft.targets.insert(t.id.clone());
                    } else {
                        draft.targets.remove(&t.id);
                    }
                }
            }
        });
    }
    if ui.button(format!("Declare {}", skill.name)).clicked() {
        commands.push(Command::Play(Event::Declare(draft.declaration())));
    }
}

fn aro_ui(ui: &mut egui::Ui, game: &Game, order: &Activation, draft: &mut OrderDraft, commands: &mut Vec<Command>) {
    let window = if order.step == OrderStep::AroWindow1 { 1 } else { 2 };
    ui.strong(format!("ARO window {window}: {} may react", side_name(game.reactive())));
    if ui
        .button(format!("Close ARO window {window}"))
        .on_hover_text("Every ARO of this window is declared: the others are lost")
        .clicked()
    {
        commands.push(Command::Play(Event::CloseAroWindow { fireteam_aro: BTreeMap::new() }));
    }
    let eligible = order.eligible_now();
    if eligible.is_empty() {
        ui.label("Nobody may declare an ARO now.");
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
                        ui.selectable_value(skill, s.id.to_string(), s.name);
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
        if ui.button(format!("Declare ARO of {id}")).clicked() {
            commands.push(Command::Play(Event::DeclareAro(AroDeclaration {
                trooper: id.clone(),
                skill: skill.clone(),
                target: target.clone(),
            })));
        }
    }
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
        let (who, enter, state) = &mut draft.outcome;
        let label = ui.label("Outcome:");
        egui::ComboBox::from_id_salt("outcome trooper")
            .selected_text(who.clone())
            .width(70.0)
            .show_ui(ui, |ui| {
                for t in game.troopers().iter().filter(|t| t.on_table()) {
                    ui.selectable_value(who, t.id.clone(), &t.id);
                }
            })
            .response
            .labelled_by(label.id);
        egui::ComboBox::from_id_salt("outcome kind")
            .selected_text(if *enter { "enters" } else { "leaves" })
            .width(60.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(enter, true, "enters");
                ui.selectable_value(enter, false, "leaves");
            })
            .response
            .labelled_by(label.id);
        egui::ComboBox::from_id_salt("outcome state")
            .selected_text(words(state))
            .width(90.0)
            .show_ui(ui, |ui| {
                for s in ALL_STATES {
                    ui.selectable_value(state, s, words(&s));
                }
            })
            .response
            .labelled_by(label.id);
    });
    let (who, enter, state) = draft.outcome.clone();
    if ui.add_enabled(!who.is_empty(), egui::Button::new("Add outcome")).clicked() {
        draft.outcomes.push(if enter {
            Outcome::Enter { trooper: who, state }
        } else {
            Outcome::Leave { trooper: who, state }
        });
    }
    if ui.button("Resolve").on_hover_text("Apply what happened and end the Order").clicked() {
        commands.push(Command::Play(Event::Resolve { outcomes: draft.outcomes.clone() }));
    }
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
