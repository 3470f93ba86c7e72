//! The **New game** window: both armies, who goes first and the mission's Deployment Zones put
//! together in the app, on the table in view (its size, terrain and calibration), so a game starts
//! without a setup file written by hand. What it builds is a [`Setup`], checked by the same code
//! as `sightline new` ([`Game::new`]: the army rules, naming the field at fault) before **Create
//! and play** is offered; the game file is then written (never over an existing file) and opened.
//! A setup can also be loaded from, and saved to, a setup file (the format `sightline new` takes),
//! so an army list is typed once and played again.

use super::order_panel::{act, fireteam_kind, side_name, tick_members, words};
use crate::geometry::{Scene, Side, Silhouette};
use crate::rules::{
    Ability, Army, BySide, CalibrationSetup, ChartTeam, ChartUnit, CombatGroup, FireteamKind, FireteamLimits,
    FireteamSetup, Game, LieutenantOption, Setup, State, TerrainSetup, Training, TrooperSetup,
};
use std::path::{Path, PathBuf};

/// Both players' Deployment Zones as a setup holds them: each an area's corners, inches.
type ZonePolygons = BySide<Vec<(f64, f64)>>;

/// How the mission's Deployment Zones are set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Zones {
    /// None: deployment is not checked against zones.
    None,
    /// A strip along each of two opposite table edges, `depth` inches deep (the mission gives it).
    Strips {
        /// Along the table's width edges (y = 0 and y = depth), or along its depth edges (x = 0
        /// and x = width).
        across: Edges,
        /// How deep each strip is, inches.
        depth: f64,
        /// Whether player A takes the strip at 0 (y = 0 or x = 0), B the opposite one.
        a_at_zero: bool,
    },
    /// As the loaded setup file gives them (any polygons).
    AsLoaded,
    /// Each player's zone by its corners, typed as the mission's map gives them (any polygon:
    /// corners, diagonals, an L).
    Typed,
}

/// Corners typed for a zone — `x,y` pairs in inches, separated by spaces (`0,0 48,0 48,12 0,12`;
/// `0, 0` too)
/// — read, or why they cannot be, naming the corner: at least three, each two finite numbers.
pub fn parse_corners(text: &str) -> Result<Vec<(f64, f64)>, String> {
    // ("1.5, 2" is one corner: spaces beside a comma do not part x from y.)
    let text = text.split(',').map(str::trim).collect::<Vec<_>>().join(",");
    let corners = text
        .split_whitespace()
        .enumerate()
        .map(|(k, c)| {
            let bad = || format!("corner {} (\"{c}\") is not x,y in inches", k + 1);
            let (x, y) = c.split_once(',').ok_or_else(bad)?;
            let (x, y) = (x.trim().parse::<f64>().map_err(|_| bad())?, y.trim().parse::<f64>().map_err(|_| bad())?);
            if x.is_finite() && y.is_finite() { Ok((x, y)) } else { Err(bad()) }
        })
        .collect::<Result<Vec<_>, _>>()?;
    if corners.len() < 3 {
        return Err(format!("{} corner(s): a zone needs at least 3", corners.len()));
    }
    Ok(corners)
}

/// Corners as [`parse_corners`] reads them.
fn corners_text(corners: &[(f64, f64)]) -> String {
    corners.iter().map(|(x, y)| format!("{x},{y}")).collect::<Vec<_>>().join(" ")
}

/// Which pair of opposite edges the zones lie along.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edges {
    /// The edges y = 0 and y = depth (the bottom and top of the plan).
    BottomTop,
    /// The edges x = 0 and x = width (the left and right of the plan).
    LeftRight,
}

impl Zones {
    /// The two zones as polygons (inches) on a `width` × `depth` table, or why they cannot be.
    fn polygons(
        self,
        (width, depth): (f64, f64),
        loaded: &Option<ZonePolygons>,
        typed: &BySide<String>,
    ) -> Result<Option<ZonePolygons>, String> {
        match self {
            Zones::None => Ok(None),
            Zones::AsLoaded => Ok(loaded.clone()),
            Zones::Typed => {
                let read = |side: Side| {
                    parse_corners(typed.get(side)).map_err(|e| format!("deployment zones: {}'s {e}", side_name(side)))
                };
                Ok(Some(BySide { a: read(Side::A)?, b: read(Side::B)? }))
            }
            Zones::Strips { across, depth: d, a_at_zero } => {
                let span = match across {
                    Edges::BottomTop => depth,
                    Edges::LeftRight => width,
                };
                if !(d.is_finite() && d > 0.0 && 2.0 * d <= span) {
                    return Err(format!(
                        "deployment zones: {d}\" deep strips do not fit a table {span}\" across (more than 0, at most half)"
                    ));
                }
                let strip = |lo: f64, hi: f64| match across {
                    Edges::BottomTop => vec![(0.0, lo), (width, lo), (width, hi), (0.0, hi)],
                    Edges::LeftRight => vec![(lo, 0.0), (hi, 0.0), (hi, depth), (lo, depth)],
                };
                let (near, far) = (strip(0.0, d), strip(span - d, span));
                let (a, b) = if a_at_zero { (near, far) } else { (far, near) };
                Ok(Some(BySide { a, b }))
            }
        }
    }
}

/// The New game window's state.
#[derive(Debug, Clone)]
pub struct SetupEditor {
    /// The armies and who goes first (table, terrain and calibration are the table's in view,
    /// put in when the setup is built).
    pub setup: Setup,
    /// The Deployment Zones.
    pub zones: Zones,
    /// Each player's zone corners as typed ([`Zones::Typed`]).
    pub zone_corners: BySide<String>,
    /// The setup file to load or save.
    pub setup_path: String,
    /// The game file to create.
    pub game_path: String,
    /// The setup file this editor loaded or saved: it may write over that one, never another.
    own_file: Option<PathBuf>,
    /// What the last Load or Save did.
    pub message: Option<String>,
    /// Each player's army file, to load into its side or save its army to.
    pub army_paths: BySide<String>,
    /// The army file each side's army was loaded from or saved to: it may write over that one.
    own_army_files: BySide<Option<PathBuf>>,
    /// What each side's last army Load, Save or Import did.
    pub army_messages: BySide<Option<String>>,
    /// Each side's army code, pasted from the official army builder.
    pub army_codes: BySide<String>,
    /// The army builder's data for each side's army, that turns its code into troopers.
    pub army_data_paths: BySide<String>,
}

/// One change to an army list, made after its grid is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RowEdit {
    /// A new trooper at the end of Combat Group `.0`.
    Add(usize),
    /// Another trooper like trooper `.1` of group `.0`, after it.
    Copy(usize, usize),
    /// Trooper `.1` of group `.0` out of the army (and its Fireteam).
    Remove(usize, usize),
    /// Trooper `.1` of group `.0` to the end of group `.2`.
    Move(usize, usize, usize),
    /// A new, empty Combat Group.
    AddGroup,
    /// Empty Combat Group `.0` out.
    RemoveGroup(usize),
}

/// What the window asks the app to do.
#[derive(Debug)]
pub enum EditorAction {
    /// Write this setup to a new game file at this path, and play it.
    Create(Box<Setup>, PathBuf),
    /// Close the window.
    Close,
}

/// The table in view, as a setup takes it: its size, terrain and calibration.
#[derive(Debug, Clone)]
pub struct TableInView<'a> {
    /// The scene shown (size and terrain).
    pub scene: &'a Scene,
    /// The calibration in force, as a setup keeps it.
    pub calibration: Option<CalibrationSetup>,
}

impl TableInView<'_> {
    fn terrain(&self) -> Vec<TerrainSetup> {
        self.scene
            .terrain
            .iter()
            .map(|t| TerrainSetup {
                id: t.id.clone(),
                polygon: t.polygon.iter().map(|p| (p.x, p.y)).collect(),
                height: t.height_in,
                ladders: t.ladders.iter().map(|[a, b]| [(a.x, a.y), (b.x, b.y)]).collect(),
            })
            .collect()
    }
}

fn trooper(id: String, silhouette: Silhouette) -> TrooperSetup {
    TrooperSetup {
        name: String::new(),
        unit: None,
        id,
        silhouette,
        training: Training::Regular,
        points: 0,
        mov: Some([4.0, 4.0]),
        abilities: Vec::new(),
        lieutenant_option: None,
        peripheral_of: None,
        position: None,
        states: Vec::new(),
    }
}

/// What new ids of `side` start with: "a" or "b".
fn id_prefix(side: Side) -> &'static str {
    match side {
        Side::A => "a",
        Side::B => "b",
    }
}

/// A first id for a new trooper of `side` that no trooper has yet ("a1", "a2", … / "b1", …).
fn fresh_id(setup: &Setup, side: Side) -> String {
    let prefix = id_prefix(side);
    (1..).map(|n| format!("{prefix}{n}")).find(|id| !setup.troopers().any(|(_, _, t)| t.id == *id)).unwrap_or_default()
}

/// The first `sightline-game-N.jsonl` in `dir` that does not exist yet.
pub fn fresh_game_path(dir: &Path) -> PathBuf {
    (1..)
        .map(|n| dir.join(format!("sightline-game-{n}.jsonl")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join("sightline-game.jsonl"))
}

/// An ability's name on screen.
pub(super) fn ability_label(a: Ability) -> String {
    match a {
        Ability::Nco => "NCO".into(),
        Ability::Arc360 => "360° arc".into(),
        Ability::Rem => "REM".into(),
        Ability::IgnoresRetreat => "ignores Retreat!".into(),
        Ability::SuperJump => "super-jump".into(),
        Ability::ForwardDeployment4 => "forward deployment (+4\")".into(),
        Ability::ForwardDeployment8 => "forward deployment (+8\")".into(),
        other => words(&other),
    }
}

/// What each ability means, for the hover (docs/game-format.md has the same).
pub(super) fn ability_hover(a: Ability) -> &'static str {
    match a {
        Ability::Lieutenant => "The army's Lieutenant: the Special Lieutenant Order (exactly one per army)",
        Ability::Nco => "NCO: may spend the Special Lieutenant Order",
        Ability::TacticalAwareness => "Tactical Awareness: one extra Irregular Order",
        Ability::Impetuous => "Impetuous: a free activation in the Impetuous Phase",
        Ability::SixthSense => "Sixth Sense: may answer Attacks from outside its LoF",
        Ability::Hacker => "A Hacker: reacts to enemies in its Hacking Area",
        Ability::Repeater => "Carries a Repeater: its ZoC is part of its side's Hacking Area",
        Ability::Arc360 => "A 360° arc (360° Visor, or a trooper that always has one)",
        Ability::IgnoresRetreat => "Courage, Religious Troop or the like: ignores Retreat!",
        Ability::Rem => "A REM: cannot be appointed Lieutenant",
        Ability::DeploysOutsideZone => {
            "Mechanized Deployment, Hidden Deployment or another Deployment Skill not listed here: not held \
             to its Deployment Zone (where its skill lets it deploy is not checked)"
        }
        Ability::ForwardDeployment4 => "Forward Deployment (+4\"): may deploy up to 4\" beyond its Deployment Zone",
        Ability::ForwardDeployment8 => "Forward Deployment (+8\"): may deploy up to 8\" beyond its Deployment Zone",
        Ability::StrategicDeployment => {
            "Strategic Deployment: deployed first of its Fireteam and as its Team Leader, it and then the rest \
             of the Fireteam deploy as with Forward Deployment (+4\")"
        }
        Ability::Impersonation => {
            "Impersonation: may deploy anywhere but the enemy Deployment Zone, and inside it by passing a WIP \
             Roll"
        }
        Ability::Infiltration => {
            "Infiltration: may deploy anywhere in its own half of the table, in the enemy half by passing a \
             PH-3 Roll, not in the enemy Deployment Zone (assumption INFILTRATION_ENEMY_HALF_ROLL)"
        }
        Ability::Stealth => {
            "Stealth: moving (Short Movement Skill or Cautious Movement) inside an enemy's ZoC outside its \
             LoF gives that enemy no ARO; may declare Cautious Movement inside enemies' ZoC"
        }
        Ability::SuperJump => {
            "Super-Jump: Jump is a Short Movement Skill (first MOV value; a second Jump, the second), or an \
             Entire Order of both MOV values together"
        }
        Ability::ClimbingPlus => "Climbing Plus: Move goes up and down vertical surfaces as over level ground",
        Ability::Berserk => {
            "Berserk: may declare the Entire Order Berserk, a Move of both MOV values together into Silhouette \
             contact with an enemy in its LoF, and a CC Attack on it"
        }
    }
}

/// The file named `name` (a `what` file), when it may be written: it has a name, and it does not
/// exist yet or is `own`, the one loaded or saved here — never another file.
fn writable(name: &str, what: &str, own: Option<&Path>) -> Result<PathBuf, String> {
    let path = PathBuf::from(name.trim());
    if path.as_os_str().is_empty() {
        return Err(format!("the {what} file needs a name"));
    }
    if path.exists() && own != Some(path.as_path()) {
        return Err(format!("{} exists already: choose another name (it is not written over)", path.display()));
    }
    Ok(path)
}

/// States a trooper may start the game in (the rest come from events).
const STARTING_STATES: [State; 3] = [State::Camouflaged, State::OtherMarker, State::Prone];

impl SetupEditor {
    /// A new editor: the open game's armies and choices when there is one (positions cleared, to
    /// be tagged again: a rematch), otherwise one Lieutenant a side; the game file named
    /// `game_path`.
    pub fn new(from: Option<&Setup>, game_path: PathBuf) -> Self {
        let (setup, zones) = match from {
            Some(s) => {
                let mut setup = s.clone();
                for side in [Side::A, Side::B] {
                    setup.armies.get_mut(side).unplace();
                }
                let zones = if setup.deployment_zones.is_some() { Zones::AsLoaded } else { Zones::None };
                (setup, zones)
            }
            None => {
                let army = |id: &str| Army {
                    points: None,
                    groups: vec![CombatGroup {
                        troopers: vec![TrooperSetup {
                            abilities: vec![Ability::Lieutenant],
                            ..trooper(id.into(), Silhouette::S2)
                        }],
                    }],
                    fireteams: Vec::new(),
                    fireteam_limits: Default::default(),
                    fireteam_chart: Vec::new(),
                };
                let setup = Setup {
                    table: Default::default(),
                    terrain: Vec::new(),
                    first: Side::A,
                    deploys_first: Some(Side::A),
                    armies: BySide { a: army("a1"), b: army("b1") },
                    calibration: None,
                    deployment_zones: None,
                };
                (setup, Zones::None)
            }
        };
        // Typed corners start from the zones given, or the usual 12" strips on a 48" table.
        let zone_corners = match &setup.deployment_zones {
            Some(z) => BySide { a: corners_text(&z.a), b: corners_text(&z.b) },
            None => BySide { a: "0,0 48,0 48,12 0,12".into(), b: "0,36 48,36 48,48 0,48".into() },
        };
        Self {
            setup,
            zones,
            zone_corners,
            setup_path: "setup.json".into(),
            game_path: game_path.display().to_string(),
            own_file: None,
            message: None,
            army_paths: BySide { a: "army-a.json".into(), b: "army-b.json".into() },
            own_army_files: BySide::default(),
            army_messages: BySide::default(),
            army_codes: BySide::default(),
            army_data_paths: BySide::default(),
        }
    }

    /// The setup as it would be played on `table`: the armies and choices here, the table's
    /// size, terrain and calibration; or why it cannot be (the zones do not fit).
    pub fn build(&self, table: &TableInView) -> Result<Setup, String> {
        let mut s = self.setup.clone();
        s.table = table.scene.table;
        s.terrain = table.terrain();
        s.calibration = table.calibration.clone();
        s.deployment_zones =
            self.zones.polygons((s.table.width, s.table.depth), &self.setup.deployment_zones, &self.zone_corners)?;
        Ok(s)
    }

    /// The setup, checked as `sightline new` checks it: the army rules, each error naming its
    /// field.
    pub fn check(&self, table: &TableInView) -> Result<Setup, String> {
        let s = self.build(table)?;
        Game::new(s.clone()).map_err(|e| format!("setup.{e}"))?;
        Ok(s)
    }

    /// Load the setup file at `setup_path` into the editor (its armies, who goes first, its
    /// zones; table and terrain stay the table's in view). A file that cannot be read or is not a
    /// setup is refused, naming it, and the editor keeps what it had.
    pub fn load(&mut self, table: &TableInView) -> Result<String, String> {
        let path = PathBuf::from(self.setup_path.trim());
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let setup = Setup::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut said = format!("loaded {}", path.display());
        if setup.table != table.scene.table || setup.terrain != table.terrain() {
            said.push_str(" (its table and terrain are not used: the game is played on the table in view)");
        }
        self.zones = if setup.deployment_zones.is_some() { Zones::AsLoaded } else { Zones::None };
        if let Some(z) = &setup.deployment_zones {
            self.zone_corners = BySide { a: corners_text(&z.a), b: corners_text(&z.b) };
        }
        self.setup = setup;
        self.own_file = Some(path);
        Ok(said)
    }

    /// Save the setup (as built on `table`) to `setup_path`, as pretty JSON through a temporary
    /// file renamed into place. It writes over no file but the one this editor loaded or saved.
    pub fn save(&mut self, table: &TableInView) -> Result<PathBuf, String> {
        let path = writable(&self.setup_path, "setup", self.own_file.as_deref())?;
        let setup = self.build(table)?;
        crate::store::save_setup(&path, &setup).map_err(|e| format!("{}: {e}", path.display()))?;
        self.own_file = Some(path.clone());
        Ok(path)
    }

    /// Load the army file named for `side` as that side's army, in place of the one here: its
    /// positions cleared (the Models are tagged on this table), and its ids that the other
    /// army uses too renamed ([`Army::renamed_apart_from`]), the message saying which. A file
    /// that cannot be read or is not an army file is refused, naming it and the field at fault,
    /// and the army here stays as it was.
    pub fn load_army(&mut self, side: Side) -> Result<String, String> {
        let path = PathBuf::from(self.army_paths.get(side).trim());
        let army = crate::store::load_army(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let said = self.put_army(side, army, &format!("loaded {}", path.display()));
        *self.own_army_files.get_mut(side) = Some(path);
        Ok(said)
    }

    /// Import the army code typed for `side` with the army data file named for it
    /// ([`crate::store::army_data::import`]) as that side's army, in place of the one here, as
    /// [`Self::load_army`] puts a loaded one; the message adds the import's notes (what the code
    /// and the data cannot say). A code or data file that cannot be read, or a member the data
    /// does not have, is refused, named, and the army here stays as it was.
    pub fn import_army_code(&mut self, side: Side) -> Result<String, String> {
        let code = self.army_codes.get(side).trim().to_string();
        if code.is_empty() {
            return Err("paste the army code from the army builder first".into());
        }
        let data = self.army_data_paths.get(side).trim();
        if data.is_empty() {
            let decoded = crate::store::army_code::decode(&code).map_err(|e| format!("army code: {e}"))?;
            return Err(format!(
                "name the army builder's data for {} in {}'s army data: save {} as a file once (it is Corvus Belli's, not shipped with sightline)",
                decoded.sectorial_slug,
                side_name(side),
                crate::store::army_data::data_url(decoded.sectorial_id)
            ));
        }
        let prefix = side_name(side).to_lowercase();
        let imported = crate::store::army_data::import(&code, std::path::Path::new(data), &prefix)?;
        let mut said = self.put_army(side, imported.army, &format!("imported the army code ({})", imported.title));
        for note in &imported.notes {
            said.push_str(&format!("\n• {note}"));
        }
        // Not from an army file: Save writes it to a new one.
        *self.own_army_files.get_mut(side) = None;
        Ok(said)
    }

    /// Put `army` in as `side`'s army: its positions cleared (the Models are tagged on this
    /// table), its ids that the other army uses too renamed ([`Army::renamed_apart_from`]). The
    /// message: what was done (`done`), how many troopers and points, and the renames.
    fn put_army(&mut self, side: Side, mut army: Army, done: &str) -> String {
        army.unplace();
        let other = self.setup.armies.get(crate::rules::opponent(side));
        let (army, renames) = army.renamed_apart_from(other);
        let n = army.troopers().count();
        let mut said = format!(
            "{done} as {}'s army: {n} trooper{}, {} points",
            side_name(side),
            if n == 1 { "" } else { "s" },
            army.total_points()
        );
        if !renames.is_empty() {
            let list: Vec<String> = renames.iter().map(|(old, new)| format!("{old} to {new}")).collect();
            said.push_str(&format!(
                " (renamed, as the other army uses the same ids and ids are unique in a game: {})",
                list.join(", ")
            ));
        }
        *self.setup.armies.get_mut(side) = army;
        said
    }

    /// Save `side`'s army to the army file named for it ([`crate::store::save_army`]: without
    /// positions), writing over no file but the one this side's army was loaded from or saved to.
    pub fn save_army(&mut self, side: Side) -> Result<PathBuf, String> {
        let path = writable(self.army_paths.get(side), "army", self.own_army_files.get(side).as_deref())?;
        crate::store::save_army(&path, self.setup.armies.get(side)).map_err(|e| format!("{}: {e}", path.display()))?;
        *self.own_army_files.get_mut(side) = Some(path.clone());
        Ok(path)
    }

    /// The window's contents; returns what the app should do.
    pub fn ui(&mut self, ui: &mut egui::Ui, table: &TableInView) -> Option<EditorAction> {
        // The game file and Create and play stay in view beneath the lists, which scroll: a
        // list long enough to scroll would otherwise hide why Create and play is greyed out.
        let mut action = None;
        egui::Panel::bottom("new_game_actions")
            .frame(egui::Frame::NONE.inner_margin(egui::Margin::symmetric(0, 6)))
            .show(ui, |ui| action = self.actions_ui(ui, table));
        egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| self.lists_ui(ui, table));
        action
    }

    /// The setup's choices and both armies, and the setup file.
    fn lists_ui(&mut self, ui: &mut egui::Ui, table: &TableInView) {
        let s = &table.scene;
        ui.label(format!(
            "Table {}\" × {}\", {} terrain piece{}, {} — the table in view",
            s.table.width,
            s.table.depth,
            s.terrain.len(),
            if s.terrain.len() == 1 { "" } else { "s" },
            if table.calibration.is_some() { "calibrated" } else { "not calibrated yet" },
        ));
        ui.horizontal(|ui| {
            ui.label("First Turn of every Round (the initiative roll):");
            ui.radio_value(&mut self.setup.first, Side::A, "A");
            ui.radio_value(&mut self.setup.first, Side::B, "B");
        });
        ui.horizontal(|ui| {
            ui.label("Deploys first (the player who kept Deployment chooses):");
            ui.radio_value(&mut self.setup.deploys_first, Some(Side::A), "A");
            ui.radio_value(&mut self.setup.deploys_first, Some(Side::B), "B");
            ui.radio_value(&mut self.setup.deploys_first, None, "order not kept")
                .on_hover_text("Deploy in any order: the four steps of the Deployment Phase are not checked");
        });
        self.zones_ui(ui, table);
        ui.separator();
        for side in [Side::A, Side::B] {
            self.army_ui(ui, side);
            ui.separator();
        }
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Setup file");
            ui.add(egui::TextEdit::singleline(&mut self.setup_path).desired_width(220.0)).labelled_by(label.id);
            if ui.button("Load").on_hover_text("Read the armies and choices from this setup file").clicked() {
                self.message = Some(self.load(table).unwrap_or_else(|e| format!("not loaded — {e}")));
            }
            if ui
                .button("Save")
                .on_hover_text("Write this setup to the file (for `sightline new`, or to load again)")
                .clicked()
            {
                self.message = Some(match self.save(table) {
                    Ok(p) => format!("saved to {}", p.display()),
                    Err(e) => format!("not saved — {e}"),
                });
            }
        });
        if let Some(m) = &self.message {
            ui.label(m);
        }
    }

    /// The game file, Create and play (greyed out with the reason while the rules refuse the
    /// setup), and Close.
    fn actions_ui(&mut self, ui: &mut egui::Ui, table: &TableInView) -> Option<EditorAction> {
        let mut action = None;
        let checked = self.check(table);
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Game file");
            ui.add(egui::TextEdit::singleline(&mut self.game_path).desired_width(260.0)).labelled_by(label.id);
        });
        let path = PathBuf::from(self.game_path.trim());
        let refusal = match &checked {
            Err(e) => Some(e.clone()),
            Ok(_) if path.as_os_str().is_empty() => Some("the game file needs a name".into()),
            Ok(_) if path.exists() => Some(format!("{} exists already: choose another name", path.display())),
            Ok(_) => None,
        };
        ui.horizontal(|ui| {
            let create = act(ui, "Create and play", refusal.as_ref(), false);
            if create.clicked()
                && let Ok(setup) = checked
            {
                action = Some(EditorAction::Create(Box::new(setup), path));
            }
            if ui.button("Close").clicked() {
                action = Some(EditorAction::Close);
            }
        });
        if let Some(e) = &refusal {
            ui.add(egui::Label::new(egui::RichText::new(format!("Not yet: {e}")).weak()).wrap());
        }
        action
    }

    fn zones_ui(&mut self, ui: &mut egui::Ui, table: &TableInView) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Deployment Zones");
            let text = match self.zones {
                Zones::None => "none (not checked)",
                Zones::Strips { .. } => "a strip along two opposite edges",
                Zones::AsLoaded => "as the setup file gives them",
                Zones::Typed => "each by its corners",
            };
            let strips = match self.zones {
                Zones::Strips { .. } => self.zones,
                _ => Zones::Strips { across: Edges::BottomTop, depth: 12.0, a_at_zero: true },
            };
            egui::ComboBox::from_id_salt("zones")
                .selected_text(text)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.zones, Zones::None, "none (not checked)");
                    ui.selectable_value(&mut self.zones, strips, "a strip along two opposite edges");
                    ui.selectable_value(&mut self.zones, Zones::Typed, "each by its corners");
                    if self.setup.deployment_zones.is_some() {
                        ui.selectable_value(&mut self.zones, Zones::AsLoaded, "as the setup file gives them");
                    }
                })
                .response
                .labelled_by(label.id);
            if let Zones::Strips { across, depth, a_at_zero } = &mut self.zones {
                let label = ui.label("deep");
                ui.add(egui::DragValue::new(depth).speed(0.5).range(0.5..=f64::MAX).suffix("\""))
                    .labelled_by(label.id)
                    .on_hover_text("As the mission sets it");
                let label = ui.label("along the");
                egui::ComboBox::from_id_salt("zone edges")
                    .selected_text(match across {
                        Edges::BottomTop => "bottom and top edges",
                        Edges::LeftRight => "left and right edges",
                    })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(across, Edges::BottomTop, "bottom and top edges");
                        ui.selectable_value(across, Edges::LeftRight, "left and right edges");
                    })
                    .response
                    .labelled_by(label.id);
                let near = match across {
                    Edges::BottomTop => "A at the bottom (y = 0)",
                    Edges::LeftRight => "A at the left (x = 0)",
                };
                ui.checkbox(a_at_zero, near);
            }
        });
        if self.zones == Zones::Typed {
            for side in [Side::A, Side::B] {
                ui.horizontal(|ui| {
                    let label = ui.label(format!("{}'s corners", side_name(side)));
                    ui.add(egui::TextEdit::singleline(self.zone_corners.get_mut(side)).desired_width(260.0))
                        .labelled_by(label.id)
                        .on_hover_text("x,y in inches, in order round the zone, separated by spaces (as the mission's map gives them)");
                });
            }
        }
        let table_size = (table.scene.table.width, table.scene.table.depth);
        if let Err(e) = self.zones.polygons(table_size, &None, &self.zone_corners) {
            ui.colored_label(super::plan::BLOCKED_ROUTE, e);
        }
    }

    fn army_ui(&mut self, ui: &mut egui::Ui, side: Side) {
        let name = side_name(side);
        let count = self.setup.armies.get(side).troopers().count();
        let sum: u32 = self.setup.armies.get(side).troopers().map(|t| t.points).sum();
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(format!("Side {name}")).color(super::plan::side_colour(side)).strong());
            ui.label(format!("{count} trooper{}, {sum} points", if count == 1 { "" } else { "s" }));
            let army = self.setup.armies.get_mut(side);
            let mut set = army.points.is_some();
            let label = ui
                .checkbox(&mut set, "army points")
                .on_hover_text("For the Retreat! check; unticked, the troopers' points added up");
            if label.changed() {
                army.points = set.then_some(sum);
            }
            if let Some(p) = &mut army.points {
                ui.add(egui::DragValue::new(p).range(0..=10_000)).labelled_by(label.id);
            }
        });
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(format!("{name}'s army file"));
            ui.add(egui::TextEdit::singleline(self.army_paths.get_mut(side)).desired_width(200.0))
                .labelled_by(label.id);
            if ui
                .button(format!("Load {name}'s army"))
                .on_hover_text(
                    "Put the army list in this army file in place of this side's (a list typed once, for either side)",
                )
                .clicked()
            {
                *self.army_messages.get_mut(side) =
                    Some(self.load_army(side).unwrap_or_else(|e| format!("not loaded — {e}")));
            }
            if ui
                .button(format!("Save {name}'s army"))
                .on_hover_text(
                    "Write this side's army list to the army file (without positions), to load into another game",
                )
                .clicked()
            {
                *self.army_messages.get_mut(side) = Some(match self.save_army(side) {
                    Ok(p) => format!("saved to {}", p.display()),
                    Err(e) => format!("not saved — {e}"),
                });
            }
        });
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(format!("{name}'s army code"));
            ui.add(
                egui::TextEdit::singleline(self.army_codes.get_mut(side))
                    .desired_width(200.0)
                    .hint_text("paste from the army builder"),
            )
            .labelled_by(label.id);
            let label = ui.label(format!("{name}'s army data")).on_hover_text(
                "The army builder's data file for this army (saved once from the builder; not shipped with sightline)",
            );
            ui.add(egui::TextEdit::singleline(self.army_data_paths.get_mut(side)).desired_width(160.0))
                .labelled_by(label.id);
            if ui
                .button(format!("Import {name}'s army code"))
                .on_hover_text("Put the army list this code describes in place of this side's, its troopers read from the army data")
                .clicked()
            {
                *self.army_messages.get_mut(side) =
                    Some(self.import_army_code(side).unwrap_or_else(|e| format!("not imported — {e}")));
            }
        });
        if let Some(m) = self.army_messages.get(side) {
            ui.label(m);
        }
        let mut edit: Option<RowEdit> = None;
        let ids: Vec<String> = self.setup.armies.get(side).troopers().map(|t| t.id.clone()).collect();
        let groups = self.setup.armies.get(side).groups.len();
        for g in 0..groups {
            ui.label(format!("Combat Group {}", g + 1));
            let group_ids: Vec<String> =
                self.setup.armies.get(side).groups[g].troopers.iter().map(|t| t.id.clone()).collect();
            if group_ids.is_empty() {
                ui.label(egui::RichText::new("no troopers yet").weak());
            }
            egui::Grid::new(("troopers", name, g)).striped(true).show(ui, |ui| {
                if group_ids.is_empty() {
                    return;
                }
                // (Each cell is labelled by its column's heading, for screen readers and tests.)
                let heads: Vec<egui::Id> =
                    ["id", "name", "S", "training", "points", "MOV", "abilities", "Combat Group", ""]
                        .into_iter()
                        .map(|head| ui.label(egui::RichText::new(head).small()).id)
                        .collect();
                ui.end_row();
                for (k, t) in self.setup.armies.get_mut(side).groups[g].troopers.iter_mut().enumerate() {
                    trooper_row(ui, t, (name, g, k), &group_ids, &heads);
                    let mut to = g;
                    egui::ComboBox::from_id_salt(("group", name, g, k))
                        .selected_text(format!("{}", g + 1))
                        .width(40.0)
                        .show_ui(ui, |ui| {
                            for n in 0..groups {
                                ui.selectable_value(&mut to, n, format!("{}", n + 1));
                            }
                        })
                        .response
                        .labelled_by(heads[7])
                        .on_hover_text("Move it to another Combat Group");
                    if to != g {
                        edit = Some(RowEdit::Move(g, k, to));
                    }
                    ui.horizontal(|ui| {
                        if ui.small_button("copy").on_hover_text(format!("Another trooper like {}", t.id)).clicked() {
                            edit = Some(RowEdit::Copy(g, k));
                        }
                        if ui.small_button("remove").on_hover_text(format!("Remove {}", t.id)).clicked() {
                            edit = Some(RowEdit::Remove(g, k));
                        }
                    });
                    ui.end_row();
                }
            });
            ui.horizontal(|ui| {
                if ui.small_button("Add trooper").clicked() {
                    edit = Some(RowEdit::Add(g));
                }
                if groups > 1
                    && self.setup.armies.get(side).groups[g].troopers.is_empty()
                    && ui.small_button("Remove Combat Group").clicked()
                {
                    edit = Some(RowEdit::RemoveGroup(g));
                }
            });
        }
        if ui.small_button("Add Combat Group").clicked() {
            edit = Some(RowEdit::AddGroup);
        }
        if let Some(e) = edit {
            self.edit_rows(side, e);
        }
        self.fireteams_ui(ui, side, &ids);
    }

    /// Make one change to `side`'s army list (after its grid is drawn).
    fn edit_rows(&mut self, side: Side, edit: RowEdit) {
        let id = fresh_id(&self.setup, side);
        let army = self.setup.armies.get_mut(side);
        match edit {
            RowEdit::Add(g) => army.groups[g].troopers.push(trooper(id, Silhouette::S2)),
            RowEdit::Copy(g, k) => {
                // The same profile under a new id (not the Lieutenant twice, nor its place).
                let mut copy = TrooperSetup { id, position: None, ..army.groups[g].troopers[k].clone() };
                copy.abilities.retain(|a| *a != Ability::Lieutenant);
                copy.lieutenant_option = None;
                army.groups[g].troopers.insert(k + 1, copy);
            }
            RowEdit::Remove(g, k) => {
                let gone = army.groups[g].troopers.remove(k).id;
                for f in &mut army.fireteams {
                    f.members.retain(|m| *m != gone);
                }
            }
            RowEdit::Move(g, k, to) => {
                let t = army.groups[g].troopers.remove(k);
                army.groups[to].troopers.push(t);
            }
            RowEdit::AddGroup => army.groups.push(CombatGroup { troopers: Vec::new() }),
            RowEdit::RemoveGroup(g) => {
                army.groups.remove(g);
            }
        }
    }

    fn fireteams_ui(&mut self, ui: &mut egui::Ui, side: Side, ids: &[String]) {
        let army = self.setup.armies.get_mut(side);
        let mut remove = None;
        for (i, f) in army.fireteams.iter_mut().enumerate() {
            ui.horizontal_wrapped(|ui| {
                let label = ui.label("Fireteam");
                ui.add(egui::TextEdit::singleline(&mut f.id).desired_width(70.0)).labelled_by(label.id);
                fireteam_kind(ui, ("ft kind", side_name(side), i), &mut f.kind);
                tick_members(ui, ids.iter(), &mut f.members);
                // The first ticked leads until another member is chosen.
                if !f.members.contains(&f.leader) {
                    f.leader = f.members.first().cloned().unwrap_or_default();
                }
                let label = ui.label("led by");
                egui::ComboBox::from_id_salt(("ft leader", side_name(side), i))
                    .selected_text(f.leader.as_str())
                    .width(70.0)
                    .show_ui(ui, |ui| {
                        for m in &f.members {
                            ui.selectable_value(&mut f.leader, m.clone(), m);
                        }
                    })
                    .response
                    .labelled_by(label.id);
                if ui.small_button("remove").on_hover_text(format!("Remove Fireteam {}", f.id)).clicked() {
                    remove = Some(i);
                }
            });
        }
        if let Some(i) = remove {
            army.fireteams.remove(i);
        }
        fireteam_limits_ui(ui, side, &mut army.fireteam_limits);
        fireteam_chart_ui(ui, side, &mut army.fireteam_chart);
        if ui.small_button("Add Fireteam").on_hover_text("A Fireteam formed at deployment").clicked() {
            let id = (1..)
                .map(|n| format!("{}-ft{n}", id_prefix(side)))
                .find(|id| !army.fireteams.iter().any(|f| f.id == *id))
                .unwrap_or_default();
            army.fireteams.push(FireteamSetup {
                id,
                kind: FireteamKind::Core,
                leader: String::new(),
                members: Vec::new(),
            });
        }
    }
}

/// The most Fireteams of a type the limits' menus offer (a chart's larger number, read from an
/// army's data, is shown as it is).
const FIRETEAM_LIMIT_CHOICES: usize = 4;

/// How many Fireteams of each type the army may have on the table at once: the default, or a
/// number its Fireteams Chart sets (digest §7, [`FireteamLimits`]).
fn fireteam_limits_ui(ui: &mut egui::Ui, side: Side, limits: &mut FireteamLimits) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Fireteams on the table, at most:").on_hover_text(
            "As the army's Fireteams Chart sets them (N4, the 2022 chart: per Sectorial); an army code's import reads them from the army data",
        );
        for kind in FireteamKind::ALL {
            let default = match kind.max_per_army() {
                Some(n) => format!("{n} (default)"),
                None => "any (default)".to_string(),
            };
            let limit = limits.given_mut(kind);
            let label = ui.label(kind.name());
            egui::ComboBox::from_id_salt(("ft limit", side_name(side), kind.name()))
                .selected_text(limit.map_or(default.clone(), |n| n.to_string()))
                .width(90.0)
                .show_ui(ui, |ui| {
                    ui.selectable_value(limit, None, default);
                    let larger = limit.filter(|&n| n > FIRETEAM_LIMIT_CHOICES);
                    for n in (0..=FIRETEAM_LIMIT_CHOICES).chain(larger) {
                        ui.selectable_value(limit, Some(n), n.to_string());
                    }
                })
                .response
                .labelled_by(label.id);
        }
    });
}

/// The army's Fireteams Chart teams, when its import brought them: which units may form which
/// Fireteams ([`ChartTeam`], digest §7), each team's units on hover, and a button that stops the
/// check (players who read a comment of the chart otherwise than sightline does).
fn fireteam_chart_ui(ui: &mut egui::Ui, side: Side, chart: &mut Vec<ChartTeam>) {
    if chart.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        let teams: Vec<&str> = chart.iter().filter(|t| !t.types.is_empty()).map(|t| t.name.as_str()).collect();
        ui.label(format!("Fireteams Chart: {} — only the units it lists form each Fireteam", teams.join(", ")))
            .on_hover_text(chart_detail(chart));
        if ui
            .small_button("Don't check")
            .on_hover_text(format!(
                "Forget the chart's teams for {}: any troopers may then form a Fireteam (the numbers above still count)",
                side_name(side)
            ))
            .clicked()
        {
            chart.clear();
        }
    });
}

/// The Fireteams Chart's teams, a line each with its types and rows, and what the chart says
/// beside them that sightline does not check (its comments on rows, its notes under teams).
fn chart_detail(chart: &[ChartTeam]) -> String {
    let mut lines: Vec<String> = Vec::new();
    for t in chart {
        let types: Vec<&str> = t.types.iter().map(|k| k.name()).collect();
        let units: Vec<String> = t.units.iter().map(ChartUnit::describe_with_comment).collect();
        let what = if types.is_empty() { "may join any team".to_string() } else { types.join(", ") };
        lines.push(format!("{} ({what}): {}", t.name, units.join(", ")));
        if !t.note.is_empty() {
            lines.push(format!("    {}", t.note));
        }
    }
    if chart.iter().any(|t| !t.note.is_empty() || t.units.iter().any(|u| !u.comment.is_empty())) {
        lines.push("The chart's comments and notes are not checked: the players judge them.".into());
    }
    lines.join("\n")
}

/// The least width of the abilities column of the army grid, points: as wide as "NCO, tactical
/// awareness".
const ABILITIES_MIN_WIDTH: f32 = 170.0;

/// One trooper's row of the army grid, up to its abilities menu (the caller adds its Combat
/// Group choice and its copy and remove buttons).
fn trooper_row(
    ui: &mut egui::Ui,
    t: &mut TrooperSetup,
    (side, g, k): (&str, usize, usize),
    group_ids: &[String],
    heads: &[egui::Id],
) {
    let salt = (side, g, k);
    // (Sized: a grid cell would otherwise squeeze a text box to its column's last width.)
    ui.add_sized([60.0, 20.0], egui::TextEdit::singleline(&mut t.id))
        .labelled_by(heads[0])
        .on_hover_text("Unique in the game");
    ui.add_sized([130.0, 20.0], egui::TextEdit::singleline(&mut t.name).hint_text("name")).labelled_by(heads[1]);
    egui::ComboBox::from_id_salt(("S", salt))
        .selected_text(format!("S{}", t.silhouette.value()))
        .width(44.0)
        .show_ui(ui, |ui| {
            for s in Silhouette::ALL {
                ui.selectable_value(&mut t.silhouette, s, format!("S{}", s.value()));
            }
        })
        .response
        .labelled_by(heads[2]);
    egui::ComboBox::from_id_salt(("training", salt))
        .selected_text(words(&t.training))
        .width(70.0)
        .show_ui(ui, |ui| {
            for tr in [Training::Regular, Training::Irregular] {
                ui.selectable_value(&mut t.training, tr, words(&tr));
            }
        })
        .response
        .labelled_by(heads[3]);
    ui.add(egui::DragValue::new(&mut t.points).range(0..=1000)).labelled_by(heads[4]);
    ui.horizontal(|ui| {
        let mut has = t.mov.is_some();
        if ui
            .checkbox(&mut has, "")
            .labelled_by(heads[5])
            .on_hover_text("Unticked: move distances are not checked")
            .changed()
        {
            t.mov = has.then_some([4.0, 4.0]);
        }
        if let Some(m) = &mut t.mov {
            ui.add(egui::DragValue::new(&mut m[0]).range(0.0..=99.0).speed(0.5)).labelled_by(heads[5]);
            ui.label("-");
            ui.add(egui::DragValue::new(&mut m[1]).range(0.0..=99.0).speed(0.5)).labelled_by(heads[5]);
        }
    });
    let summary = {
        let mut parts: Vec<String> = t.abilities.iter().map(|a| ability_label(*a)).collect();
        parts.extend(t.states.iter().map(|s| format!("starts {}", words(s))));
        if let Some(c) = &t.peripheral_of {
            parts.push(format!("peripheral of {c}"));
        }
        if parts.is_empty() { "—".to_string() } else { parts.join(", ") }
    };
    // (At least as wide as a usual summary, so that the columns after it line up from one
    // Combat Group's grid to the next.)
    ui.horizontal(|ui| {
        ui.set_min_width(ABILITIES_MIN_WIDTH);
        ui.menu_button(summary, |ui| {
            for a in Ability::ALL {
                let mut on = t.has(a);
                if ui.checkbox(&mut on, ability_label(a)).on_hover_text(ability_hover(a)).changed() {
                    t.abilities.retain(|x| *x != a);
                    if on {
                        t.abilities.push(a);
                    }
                }
            }
            if t.has(Ability::Lieutenant) {
                ui.separator();
                ui.label("Lieutenant option");
                ui.radio_value(&mut t.lieutenant_option, None, "none");
                ui.radio_value(&mut t.lieutenant_option, Some(LieutenantOption::ExtraOrder), "+1 Order");
                ui.radio_value(&mut t.lieutenant_option, Some(LieutenantOption::ExtraCommandToken), "+1 Command Token");
            } else {
                t.lieutenant_option = None;
            }
            ui.separator();
            ui.label("Starts the game");
            for s in STARTING_STATES {
                let mut on = t.states.contains(&s);
                if ui.checkbox(&mut on, words(&s)).changed() {
                    t.states.retain(|x| *x != s);
                    if on {
                        t.states.push(s);
                    }
                }
            }
            ui.separator();
            ui.label("A Peripheral of (its Controller, in the same Combat Group)");
            ui.radio_value(&mut t.peripheral_of, None, "—");
            for c in group_ids.iter().filter(|c| **c != t.id) {
                ui.radio_value(&mut t.peripheral_of, Some(c.clone()), c);
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_s_hover_shows_its_rows_with_their_comments_and_the_teams_notes_as_not_checked() {
        let row = |unit: &str, max, comment: &str| ChartUnit {
            unit: unit.into(),
            name: unit.to_uppercase(),
            min: 0,
            max,
            required: false,
            comment: comment.into(),
        };
        let mut chart = vec![
            ChartTeam {
                name: "Line Fireteams".into(),
                types: vec![FireteamKind::Core, FireteamKind::Haris],
                units: vec![row("line", 5, ""), row("scouts", 2, "(Line)")],
                note: "Only one Scout profile".into(),
            },
            ChartTeam { name: "Wildcards".into(), types: vec![], units: vec![row("twin", 1, "")], note: String::new() },
        ];
        assert_eq!(
            chart_detail(&chart),
            "Line Fireteams (Core, Haris): LINE 0–5, SCOUTS 0–2 (Line)\n    Only one Scout profile\n\
             Wildcards (may join any team): TWIN 0–1\n\
             The chart's comments and notes are not checked: the players judge them."
        );
        // With nothing the chart says beside its rows, no word of comments.
        chart[0].units[1].comment.clear();
        chart[0].note.clear();
        assert_eq!(
            chart_detail(&chart),
            "Line Fireteams (Core, Haris): LINE 0–5, SCOUTS 0–2\nWildcards (may join any team): TWIN 0–1"
        );
    }

    fn no_corners() -> BySide<String> {
        BySide { a: String::new(), b: String::new() }
    }

    #[test]
    fn typed_zones_are_read_corner_by_corner_and_a_bad_corner_is_named() {
        assert_eq!(parse_corners("0,0 48,0  30,20"), Ok(vec![(0.0, 0.0), (48.0, 0.0), (30.0, 20.0)]));
        assert_eq!(parse_corners(" 1.5, 2  3,4 5,-6 "), Ok(vec![(1.5, 2.0), (3.0, 4.0), (5.0, -6.0)]));
        assert_eq!(parse_corners("0,0 48;0 30,20"), Err("corner 2 (\"48;0\") is not x,y in inches".into()));
        assert_eq!(parse_corners("0,0 nan,1 2,2"), Err("corner 2 (\"nan,1\") is not x,y in inches".into()));
        assert_eq!(parse_corners("0,0 1,1"), Err("2 corner(s): a zone needs at least 3".into()));
        // A corner zone for A, an L for B, as typed: read into the setup's polygons.
        let typed = BySide { a: "0,0 16,0 0,16".into(), b: "48,48 32,48 32,40 40,40 40,32 48,32".into() };
        let z = Zones::Typed.polygons((48.0, 48.0), &None, &typed).expect("read").expect("zones");
        assert_eq!(z.a, vec![(0.0, 0.0), (16.0, 0.0), (0.0, 16.0)]);
        assert_eq!(z.b.len(), 6);
        let bad = BySide { a: "0,0 16,0 0,16".into(), b: "48,48 x".into() };
        let e = Zones::Typed.polygons((48.0, 48.0), &None, &bad).expect_err("B's corner 2");
        assert!(e.contains("B's corner 2 (\"x\")"), "{e}");
        // The strips' corners, as the editor prefills them, read back as the strips.
        let strips = Zones::Strips { across: Edges::BottomTop, depth: 12.0, a_at_zero: true };
        let strips = strips.polygons((48.0, 48.0), &None, &no_corners()).expect("fits").expect("zones");
        let typed = BySide { a: corners_text(&strips.a), b: corners_text(&strips.b) };
        assert_eq!(Zones::Typed.polygons((48.0, 48.0), &None, &typed), Ok(Some(strips)));
    }

    #[test]
    fn strip_zones_lie_along_the_chosen_edges_and_must_fit_the_table() {
        let strips = |across, depth, a_at_zero| Zones::Strips { across, depth, a_at_zero };
        let z = strips(Edges::BottomTop, 12.0, true)
            .polygons((48.0, 36.0), &None, &no_corners())
            .expect("fits")
            .expect("zones");
        assert_eq!(z.a, vec![(0.0, 0.0), (48.0, 0.0), (48.0, 12.0), (0.0, 12.0)]);
        assert_eq!(z.b, vec![(0.0, 24.0), (48.0, 24.0), (48.0, 36.0), (0.0, 36.0)]);
        let z = strips(Edges::LeftRight, 8.0, false)
            .polygons((48.0, 36.0), &None, &no_corners())
            .expect("fits")
            .expect("zones");
        assert_eq!(z.a, vec![(40.0, 0.0), (48.0, 0.0), (48.0, 36.0), (40.0, 36.0)], "A at the far (x = 48) edge");
        assert_eq!(z.b, vec![(0.0, 0.0), (8.0, 0.0), (8.0, 36.0), (0.0, 36.0)]);
        // Half the table each at most: 18" on a 36" depth fits, 18.5" does not; nor does 0.
        assert!(strips(Edges::BottomTop, 18.0, true).polygons((48.0, 36.0), &None, &no_corners()).is_ok());
        let e =
            strips(Edges::BottomTop, 18.5, true).polygons((48.0, 36.0), &None, &no_corners()).expect_err("too deep");
        assert!(e.contains("18.5\" deep strips do not fit a table 36\" across"), "{e}");
        assert!(strips(Edges::LeftRight, 0.0, true).polygons((48.0, 36.0), &None, &no_corners()).is_err());
        assert_eq!(Zones::None.polygons((48.0, 36.0), &None, &no_corners()), Ok(None));
    }

    #[test]
    fn new_troopers_get_ids_no_trooper_has() {
        let mut e = SetupEditor::new(None, PathBuf::from("g.jsonl"));
        assert_eq!(fresh_id(&e.setup, Side::A), "a2", "a1 is the starting Lieutenant");
        e.setup.armies.a.groups[0].troopers.push(trooper("a2".into(), Silhouette::S2));
        e.setup.armies.b.groups[0].troopers[0].id = "a3".into();
        assert_eq!(fresh_id(&e.setup, Side::A), "a4", "ids are unique across both armies");
        assert_eq!(fresh_id(&e.setup, Side::B), "b1");
    }

    #[test]
    fn rows_are_copied_moved_and_removed_keeping_ids_unique_and_fireteams_true() {
        let mut e = SetupEditor::new(None, PathBuf::from("g.jsonl"));
        e.setup.armies.a.groups[0].troopers[0].mov = Some([6.0, 2.0]);
        e.edit_rows(Side::A, RowEdit::Copy(0, 0));
        let copy = &e.setup.armies.a.groups[0].troopers[1];
        assert_eq!((copy.id.as_str(), copy.mov), ("a2", Some([6.0, 2.0])), "the same profile, a new id");
        assert!(!copy.has(Ability::Lieutenant), "one Lieutenant an army");
        e.edit_rows(Side::A, RowEdit::AddGroup);
        e.edit_rows(Side::A, RowEdit::Move(0, 1, 1));
        assert_eq!(e.setup.armies.a.groups[0].troopers.len(), 1);
        assert_eq!(e.setup.armies.a.groups[1].troopers[0].id, "a2");
        e.setup.armies.a.fireteams.push(FireteamSetup {
            id: "duo".into(),
            kind: FireteamKind::Duo,
            leader: "a1".into(),
            members: vec!["a1".into(), "a2".into()],
        });
        e.edit_rows(Side::A, RowEdit::Remove(1, 0));
        assert_eq!(e.setup.armies.a.fireteams[0].members, ["a1"], "a removed trooper leaves its Fireteam");
        e.edit_rows(Side::A, RowEdit::RemoveGroup(1));
        assert_eq!(e.setup.armies.a.groups.len(), 1);
    }

    #[test]
    fn a_rematch_keeps_the_armies_and_clears_where_they_stood() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/setup-small.json"))
            .expect("the example setup");
        let setup = Setup::from_json(&text).expect("a setup");
        assert!(setup.troopers().any(|(_, _, t)| t.position.is_some()));
        let e = SetupEditor::new(Some(&setup), PathBuf::from("g.jsonl"));
        assert!(e.setup.troopers().all(|(_, _, t)| t.position.is_none()), "to be tagged again");
        let ids = |s: &Setup| s.troopers().map(|(side, g, t)| (side, g, t.id.clone())).collect::<Vec<_>>();
        assert_eq!(ids(&e.setup), ids(&setup));
        assert_eq!(e.setup.armies.a.fireteams, setup.armies.a.fireteams);
    }

    /// A player's list saved from one side and loaded into the other (a mirror match): the army
    /// file has no positions, the loaded army's ids are renamed apart and the message names them;
    /// a file that is not an army file is refused and the army stays; and an army is saved over
    /// no file but its own.
    #[test]
    fn an_army_list_is_saved_from_one_side_and_loaded_into_the_other() {
        let dir = std::env::temp_dir().join(format!("sightline-army-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        let setup = Setup::from_json(crate::rules::EXAMPLE_SETUP_JSON).expect("the example setup");
        let mut e = SetupEditor::new(Some(&setup), dir.join("g.jsonl"));
        let list = dir.join("list.json");
        e.army_paths.a = list.display().to_string();
        assert_eq!(e.save_army(Side::A), Ok(list.clone()));
        let saved = crate::store::load_army(&list).expect("an army file");
        assert_eq!(saved, e.setup.armies.a);
        // Into B, in place of B's own army.
        e.army_paths.b = list.display().to_string();
        let said = e.load_army(Side::B).expect("loaded");
        assert!(said.starts_with(&format!("loaded {} as B's army: 9 troopers, ", list.display())), "{said}");
        assert!(said.contains("a_lt to a_lt_2, a1 to a1_2"), "{said}");
        assert!(e.setup.armies.b.troopers().all(|t| t.id.ends_with("_2")));
        let both = e.setup.clone();
        both.validate().expect("the two armies together are a setup the rules take");
        // Not an army file: refused, naming the file and what it is; B's army as it was.
        let setup_file = dir.join("setup.json");
        crate::store::save_setup(&setup_file, &setup).expect("written");
        e.army_paths.b = setup_file.display().to_string();
        let why = e.load_army(Side::B).expect_err("a setup file");
        assert!(why.starts_with(&format!("{}: armies: this is a setup file", setup_file.display())), "{why}");
        assert_eq!(e.setup, both, "nothing changed");
        // B may save over the list it loaded; A over no file but its own.
        e.army_paths.b = list.display().to_string();
        assert_eq!(e.save_army(Side::B), Ok(list.clone()));
        e.army_paths.a = setup_file.display().to_string();
        let why = e.save_army(Side::A).expect_err("another file");
        assert!(why.contains("exists already"), "{why}");
        assert!(Setup::from_json(&std::fs::read_to_string(&setup_file).expect("kept")).is_ok(), "not written over");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
