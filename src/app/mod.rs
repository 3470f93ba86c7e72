//! The desktop app (egui/eframe): the camera picture of the table (a webcam, an image, a folder,
//! or the synthetic demo table) and the same table as a top-down plan with its measurements —
//! bases, arcs, Zones of Control, LoF lines and the selected trooper's visibility region.
//!
//! Panels read state and emit [`Command`]s; the commands run at the end of the frame.

pub mod camera_view;
pub mod game_session;
mod order_panel;
mod plan;
pub mod setup_editor;
pub mod terrain_tool;

use crate::geometry::{PairTable, Scene, Side, TablePoint, ZocVerdict, visibility_polygon};
use anyhow::Context as _;
use std::path::Path;

/// Preferences kept between runs.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Prefs {
    /// Show ZoC rings of every trooper, not only the selected one.
    pub all_zoc: bool,
    /// Shade the selected trooper's visibility region.
    pub visibility: bool,
    /// Show distances in centimetres as well as inches.
    pub show_cm: bool,
    /// Which view fills the centre.
    pub view: View,
    /// Snap calibration clicks to the real corner nearby.
    pub snap: bool,
    /// Show the side panels (the troopers on the left, the measures and the game on the right);
    /// hidden, the picture or plan has the whole window (a small screen).
    pub panels: bool,
    /// The army builder's data file each side's army code was last imported with in the New
    /// game window: a player saves their army's data once and it is named again next time.
    pub army_data: crate::rules::BySide<String>,
}

/// The centre of the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum View {
    /// The camera picture.
    Camera,
    /// The top-down plan.
    Plan,
}

impl Default for Prefs {
    fn default() -> Self {
        Self {
            all_zoc: false,
            visibility: true,
            show_cm: false,
            view: View::Camera,
            snap: true,
            panels: true,
            army_data: crate::rules::BySide::default(),
        }
    }
}

/// Something a panel asks for; run at the end of the frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Select a trooper by index (or none).
    Select(Option<usize>),
    /// Start clicking the table corners.
    StartCalibration,
    /// Stop clicking corners and keep the calibration in force (Escape, or the button).
    CancelCalibration,
    /// Forget the calibration.
    ClearCalibration,
    /// A click on the picture while calibrating, image pixels.
    CalibrationClick(crate::vision::ImagePoint),
    /// Start adding a further known point to the calibration.
    StartKnownPoint,
    /// The click on the picture for that point, image pixels.
    KnownPointClick(crate::vision::ImagePoint),
    /// Add the point, at the table position typed (inches), and refit.
    AddKnownPoint((f64, f64)),
    /// Give up adding the point.
    CancelKnownPoint,
    /// Lay trooper `.0` Prone (`true`) or stand it up, and measure again what that changes (a
    /// scene's "what if"; in a game, states come from its events).
    SetProne(usize, bool),
    /// In a game: play this event (the rules judge it; accepted, it is saved to the game file).
    Play(crate::rules::Event),
    /// In a game: take the game file's last event back.
    UndoEvent,
    /// In a game, while a moving skill is being declared: a point of the route (table inches),
    /// for the trooper whose route is being drawn.
    RoutePoint(crate::geometry::TablePoint),
    /// A route point clicked on the plan or the picture: as [`Command::RoutePoint`], put in base
    /// contact with an enemy when it is within `plan::CONTACT_SNAP_IN` of it.
    RouteClick(crate::geometry::TablePoint),
    /// Take that route's last point back.
    UndoRoutePoint,
    /// Draw the route of this activated trooper (of several the Order activated).
    RouteOf(String),
    /// In a game, while a "placed at" outcome is put together: where the trooper now stands
    /// (table inches).
    PlaceAt(crate::geometry::TablePoint),
    /// The same, and the facing it is placed with (degrees): a press dragged that way.
    PlaceFacing(crate::geometry::TablePoint, f64),
    /// In a game, while deploying: the selected trooper stands here (table inches), its base
    /// this high (inches: on a roof, the roof's height).
    DeployAt(crate::geometry::TablePoint, f64),
    /// The same, facing the way given (degrees): a press on the table dragged that way.
    DeployFacing(crate::geometry::TablePoint, f64, f64),
    /// A route click, and the mover's facing at the end of its route (degrees): a press on the
    /// table dragged the way it is to face.
    RouteClickFacing(crate::geometry::TablePoint, f64),
    /// The routes being drawn changed (show them).
    RouteChanged,
    /// In a game: select a trooper that is not on the table yet (to activate it: Airborne
    /// Deployment and the like), by id.
    SelectOffTable(String),
    /// Open the New game window (both armies put together in the app, on the table in view).
    NewGameWindow,
    /// Write this setup to a new game file at this path (never over an existing one), and play it.
    CreateGame(Box<crate::rules::Setup>, std::path::PathBuf),
    /// Outside a game: start tracing a terrain piece.
    StartTerrain,
    /// A corner of the piece being traced (table inches).
    TerrainCorner(crate::geometry::TablePoint),
    /// A corner of the piece being traced clicked on the picture (image pixels): snapped to the
    /// corner the picture shows there when snapping is on, and put at the piece's height.
    TerrainPictureClick(crate::vision::ImagePoint),
    /// Take the traced piece's last corner back.
    UndoTerrainCorner,
    /// Add the traced piece to the table (checked: its shape, its id, nobody standing inside it).
    FinishTerrain,
    /// Give up tracing the piece.
    CancelTerrain,
    /// Outside a game: take terrain piece `.0` off the table.
    RemoveTerrain(usize),
    /// Outside a game: edit terrain piece `.0` (its id, height and corners) in the tracing window.
    EditTerrain(usize),
    /// Outside a game: put a ladder (or stairs) up terrain piece `.0`: its two ends are clicked next.
    StartLadder(usize),
    /// An end of that ladder, clicked (table inches); the second puts it on the piece.
    LadderEnd(crate::geometry::TablePoint),
    /// Give up putting the ladder on.
    CancelLadder,
    /// Outside a game: take terrain piece `.0`'s ladders away.
    ClearLadders(usize),
    /// Outside a game: write the table (its terrain and troopers) to a new scene file in this
    /// directory.
    SaveTable(std::path::PathBuf),
}

/// The widest the LoF column of the measures panel gets, screen points: longer lists of
/// blockers wrap (narrower in a narrow panel, down to `MIN_LOF_COLUMN_WIDTH`).
const LOF_COLUMN_WIDTH: f32 = 150.0;
/// The narrowest the LoF column gets, screen points.
const MIN_LOF_COLUMN_WIDTH: f32 = 70.0;
/// What the measures panel's distance and ZoC columns and the spacing take beside the names,
/// screen points, about.
const DISTANCE_ZOC_WIDTH: f32 = 128.0;
/// The most of the window's width the measures panel takes, so a small window keeps room for
/// the picture.
const MEASURES_MAX_SHARE: f32 = 0.3;

/// The app's state: preferences, the scene and what is derived from it.
pub struct SightlineApp {
    prefs: Prefs,
    /// Where the camera picture was last drawn, screen points.
    picture_rect: Option<egui::Rect>,
    scene: Scene,
    title: String,
    /// Every pair's distance, ZoC and LoF (refreshed, not recomputed, when troopers move).
    pairs: PairTable,
    selected: Option<usize>,
    visibility: Vec<crate::geometry::TablePoint>,
    commands: Vec<Command>,
    camera: camera_view::CameraState,
    calibrator: camera_view::Calibrator,
    /// The game file this table belongs to, if one was opened: calibrations are kept in it.
    game: Option<game_session::GameSession>,
    /// The game's calibration, waiting for the first frame (its size must match).
    pending_calibration: Option<crate::rules::CalibrationSetup>,
    /// In a game: the event the player is putting together.
    draft: order_panel::OrderDraft,
    /// In a game: a trooper not on the table, selected in the list (then `selected` is `None`).
    off_table: Option<String>,
    /// The New game window, while it is open.
    new_game: Option<setup_editor::SetupEditor>,
    /// On the demo table: its picture is drawn again from the table as it now stands.
    demo_table: Option<crate::camera::demo::DemoTable>,
    /// Outside a game: the terrain piece being traced.
    terrain_draft: Option<terrain_tool::TerrainDraft>,
    /// Outside a game: the ladder being put on a piece.
    ladder_draft: Option<terrain_tool::LadderDraft>,
    /// What became of the last terrain change or table save.
    table_note: Option<String>,
}

const PREFS_KEY: &str = "sightline.prefs";

impl SightlineApp {
    /// An app showing `scene` (named `title`), restoring preferences from `storage` if any.
    pub fn new(
        scene: Scene,
        title: String,
        camera: camera_view::CameraState,
        storage: Option<&dyn eframe::Storage>,
    ) -> Self {
        let prefs = storage
            .and_then(|s| s.get_string(PREFS_KEY))
            .and_then(|text| match serde_json::from_str::<Prefs>(&text) {
                Ok(p) => Some(p),
                Err(e) => {
                    log::warn!("ignoring saved preferences ({e}); using defaults");
                    None
                }
            })
            .unwrap_or_default();
        let pairs = PairTable::new(&scene);
        let mut app = Self {
            prefs,
            picture_rect: None,
            scene,
            title,
            pairs,
            selected: None,
            visibility: Vec::new(),
            commands: Vec::new(),
            camera,
            calibrator: Default::default(),
            game: None,
            pending_calibration: None,
            draft: Default::default(),
            off_table: None,
            new_game: None,
            demo_table: None,
            terrain_draft: None,
            ladder_draft: None,
            table_note: None,
        };
        app.run_command(Command::Select(Some(0)));
        app
    }

    /// Start with a calibration (the demo table's, from its known camera pose).
    pub fn with_calibration(mut self, c: crate::vision::Calibration, note: &str) -> Self {
        self.calibrator.calibration = Some(c);
        self.calibrator.message = self.calibrator.quality().map(|q| format!("{note} — {q}"));
        self
    }

    /// On the demo table: draw its picture again whenever the table changes (troopers deployed,
    /// moved, fallen, Prone), as a camera would show the Models where the players put them.
    pub fn with_demo_table(mut self, table: crate::camera::demo::DemoTable) -> Self {
        table.show(&self.scene);
        self.demo_table = Some(table);
        self
    }

    /// The table changed: the demo picture follows it.
    /// Outside a game: the table is now `scene` (terrain traced or taken away): everything
    /// measured again.
    fn set_table(&mut self, scene: Scene) {
        self.scene = scene;
        self.pairs = PairTable::new(&self.scene);
        self.table_changed();
        self.run_command(Command::Select(self.selected));
    }

    fn table_changed(&self) {
        if let Some(t) = &self.demo_table {
            t.show(&self.scene);
        }
    }

    /// Play on an opened game file: its calibration is used once the camera's first frame
    /// arrives (if the picture size matches), and every new calibration is appended to it.
    pub fn with_game(mut self, opened: game_session::Opened) -> Self {
        self.enter_game(opened);
        self
    }

    /// Play on `opened` from now on: its table, troopers and calibration; the first trooper
    /// selected (on the table, or the first to deploy).
    fn enter_game(&mut self, opened: game_session::Opened) {
        self.title = opened.session.path().display().to_string();
        self.pending_calibration = opened.calibration;
        self.scene = opened.scene;
        self.pairs = PairTable::new(&self.scene);
        self.table_changed();
        self.draft = Default::default();
        self.off_table = None;
        // A game's terrain is its setup's: tracing stops.
        self.terrain_draft = None;
        self.ladder_draft = None;
        let first_off_table = opened.session.game().troopers().iter().find(|t| !t.on_table()).map(|t| t.id.clone());
        self.game = Some(opened.session);
        match (self.scene.troopers.is_empty(), first_off_table) {
            (false, _) | (true, None) => self.run_command(Command::Select(Some(0))),
            (true, Some(id)) => {
                self.run_command(Command::Select(None));
                self.run_command(Command::SelectOffTable(id));
            }
        }
        if !opened.notes.is_empty() {
            self.calibrator.message = Some(opened.notes.join("; "));
        }
        if self.pending_calibration.is_none() && self.calibrator.calibration.is_none() {
            self.calibrator.message = Some(
                [self.calibrator.message.take(), Some("the game has no calibration yet: press Calibrate".into())]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join("; "),
            );
        }
    }

    /// The game file open in the app, if any.
    pub fn game(&self) -> Option<&game_session::GameSession> {
        self.game.as_ref()
    }

    /// A new calibration was made: keep it with the game, if one is open, and say so.
    fn keep_calibration(&mut self) {
        let (Some(game), Some(c)) = (self.game.as_mut(), self.calibrator.calibration.as_ref()) else { return };
        let saved = match game.save_calibration(c) {
            Ok(()) => format!("saved to {}", game.path().display()),
            Err(e) => format!("NOT saved to the game ({e}); it holds for this session only"),
        };
        let q = self.calibrator.message.take().unwrap_or_default();
        self.calibrator.message = Some(format!("{q} — {saved}"));
    }

    /// Fit the game's calibration against the first frame, once one is in.
    fn apply_pending_calibration(&mut self) {
        let Some(size) = self.camera.image_size() else { return };
        let Some(setup) = self.pending_calibration.take() else { return };
        match game_session::calibration_from_setup(&setup, size) {
            Ok(c) => {
                self.calibrator.calibration = Some(c);
                let q = self.calibrator.quality().unwrap_or_default();
                self.calibrator.message = Some(format!("the game's calibration — {q}"));
            }
            Err(e) => self.calibrator.message = Some(e),
        }
    }

    /// The calibration in force.
    pub fn calibration(&self) -> Option<&crate::vision::Calibration> {
        self.calibrator.calibration.as_ref()
    }

    /// Whether a camera frame has arrived.
    pub fn has_frame(&self) -> bool {
        self.camera.frame.is_some()
    }

    /// The newest camera frame shown.
    pub fn frame(&self) -> Option<&crate::camera::Frame> {
        self.camera.frame.as_ref()
    }

    /// What the status bar says about the calibration.
    pub fn calibration_message(&self) -> Option<&str> {
        self.calibrator.message.as_deref()
    }

    /// Where the camera picture was last drawn, screen points (`None` before it was).
    pub fn picture_rect(&self) -> Option<egui::Rect> {
        self.picture_rect
    }

    /// Send a command as a panel would (tests use it).
    pub fn command(&mut self, c: Command) {
        self.run_command(c);
    }

    fn run_command(&mut self, c: Command) {
        match c {
            Command::StartCalibration => {
                self.prefs.view = View::Camera;
                self.calibrator.start();
            }
            Command::CancelCalibration => self.calibrator.cancel(),
            Command::ClearCalibration => {
                self.calibrator = Default::default();
            }
            Command::CalibrationClick(p) => {
                if let Some(frame) = self.camera.frame.clone() {
                    let table = (self.scene.table.width, self.scene.table.depth);
                    if self.calibrator.click(p, &frame, table, self.prefs.snap) {
                        self.keep_calibration();
                    }
                }
            }
            Command::StartKnownPoint => {
                self.prefs.view = View::Camera;
                self.calibrator.start_point();
            }
            Command::KnownPointClick(p) => {
                if let Some(frame) = self.camera.frame.clone() {
                    self.calibrator.point_click(p, &frame, self.prefs.snap);
                }
            }
            Command::AddKnownPoint(table) => {
                if let Some(adding) = self.calibrator.adding.as_mut() {
                    adding.table = table;
                }
                if self.calibrator.add_point() {
                    self.keep_calibration();
                }
            }
            Command::CancelKnownPoint => self.calibrator.adding = None,
            Command::SetProne(i, prone) => {
                let Some(t) = self.scene.troopers.get(i) else { return };
                // (Only the height changes: the scene stays valid, but it is checked as any other.)
                if self.game.is_none()
                    && let Ok(scene) = self.scene.with_body(i, t.body.lying(prone))
                {
                    self.scene = scene;
                    self.pairs.refresh(&self.scene);
                    self.table_changed();
                    self.run_command(Command::Select(self.selected));
                }
            }
            Command::Play(event) => {
                let Some(game) = self.game.as_mut() else { return };
                self.draft.message = Some(match game.play(&event) {
                    Ok(()) => {
                        self.draft.played(&event);
                        // A typed route point starts from where the activated trooper stands.
                        if let crate::rules::Event::Activate { troopers, .. } = &event
                            && let Some(p) =
                                troopers.first().and_then(|id| game.game().trooper(id)).and_then(|t| t.position)
                        {
                            self.draft.typed = (p.x, p.y);
                        }
                        // A place a Deployment Skill reaches only by a Roll: say which Roll.
                        let roll = match &event {
                            crate::rules::Event::Deploy { trooper, .. } => game.game().deployment_roll(trooper),
                            _ => None,
                        };
                        let saved = format!("{} — saved", order_panel::event_text(&event));
                        Ok(match roll {
                            Some(r) => format!("{saved}. {r}"),
                            None => saved,
                        })
                    }
                    Err(e) => Err(e),
                });
                self.table_from_game();
                // A Deployment step ended without a tag: tagging goes on with whose step it is now.
                let steps = matches!(
                    event,
                    crate::rules::Event::EndDeploymentStep
                        | crate::rules::Event::StrategicCommandToken(crate::rules::StrategicUse::HoldBackTrooper)
                );
                if steps && matches!(self.draft.message, Some(Ok(_))) {
                    self.select_first_due();
                }
            }
            Command::UndoEvent => {
                let Some(game) = self.game.as_mut() else { return };
                self.draft.message = Some(game.undo().map(|e| format!("undone: {}", order_panel::event_text(&e))));
                self.draft.routes.clear();
                self.table_from_game();
            }
            Command::RouteClick(p) => {
                let Some(mover) = self.mover() else { return };
                let p = match self.scene.troopers.iter().position(|t| t.id == mover) {
                    Some(i) => plan::snap_to_contact(&self.scene, i, p),
                    None => p,
                };
                self.run_command(Command::RoutePoint(p));
            }
            Command::RouteClickFacing(p, facing) => {
                let Some(mover) = self.mover() else { return };
                self.run_command(Command::RouteClick(p));
                self.draft.facing.insert(mover, facing);
            }
            Command::RoutePoint(p) => {
                let Some(mover) = self.mover() else { return };
                self.draft.routes.entry(mover).or_default().push(p);
                self.draft.typed = (p.x, p.y);
                self.show_routes();
            }
            Command::UndoRoutePoint => {
                if let Some(mover) = self.mover()
                    && let Some(r) = self.draft.routes.get_mut(&mover)
                {
                    r.pop();
                }
                self.show_routes();
            }
            Command::RouteChanged => self.show_routes(),
            Command::RouteOf(id) => {
                // Selected too: the measures panel gives its route's length and what is in its way.
                let i = self.scene.troopers.iter().position(|t| t.id == id);
                self.draft.mover = Some(id);
                if i.is_some() {
                    self.run_command(Command::Select(i));
                }
            }
            Command::PlaceAt(p) => self.draft.outcome.at = (p.x, p.y),
            Command::PlaceFacing(p, facing) => {
                self.draft.outcome.at = (p.x, p.y);
                self.draft.outcome.facing = facing;
            }
            Command::DeployAt(p, elevation) => self.deploy_selected(p, elevation, None),
            Command::DeployFacing(p, elevation, facing) => self.deploy_selected(p, elevation, Some(facing)),
            Command::NewGameWindow => {
                // A rematch starts from the open game's armies; a new file beside its file.
                let dir = self
                    .game
                    .as_ref()
                    .and_then(|g| g.path().parent().map(Path::to_path_buf))
                    .or_else(|| std::env::current_dir().ok())
                    .unwrap_or_default();
                let from = self.game.as_ref().map(|g| g.game().setup());
                let mut editor = setup_editor::SetupEditor::new(from, setup_editor::fresh_game_path(&dir));
                editor.army_data_paths = self.prefs.army_data.clone();
                self.new_game = Some(editor);
            }
            Command::CreateGame(setup, path) => self.create_game(&setup, &path),
            Command::StartTerrain => {
                if self.game.is_none() {
                    self.terrain_draft = Some(terrain_tool::TerrainDraft::new(&self.scene));
                }
            }
            Command::TerrainCorner(p) => {
                if let Some(d) = self.terrain_draft.as_mut() {
                    d.corners.push(p);
                    d.error = None;
                }
            }
            Command::TerrainPictureClick(p) => {
                let (Some(d), Some(cal)) = (self.terrain_draft.as_ref(), self.calibrator.calibration.as_ref()) else {
                    return;
                };
                // Snapped as a table corner is, on the picture as it is now.
                let q = match self.camera.frame.as_ref().filter(|_| self.prefs.snap) {
                    Some(frame) => {
                        let gray = image::imageops::grayscale(frame.image.as_ref());
                        crate::vision::snap_corner(&gray, p, camera_view::SNAP_RADIUS_PX).unwrap_or(p)
                    }
                    None => p,
                };
                if let Some(t) = camera_view::table_from_image_at(cal, q, d.height_in) {
                    self.run_command(Command::TerrainCorner(t));
                }
            }
            Command::UndoTerrainCorner => {
                if let Some(d) = self.terrain_draft.as_mut() {
                    d.corners.pop();
                    d.error = None;
                }
            }
            Command::CancelTerrain => self.terrain_draft = None,
            Command::EditTerrain(k) => {
                if self.game.is_none() {
                    self.ladder_draft = None;
                    self.terrain_draft = terrain_tool::TerrainDraft::editing(&self.scene, k);
                }
            }
            Command::FinishTerrain => {
                let Some(d) = self.terrain_draft.as_mut() else { return };
                match d.added_to(&self.scene) {
                    Ok(scene) => {
                        let done = if d.replacing.is_some() { "changed" } else { "added" };
                        self.table_note = Some(format!("terrain \"{}\" {done} ({}\" tall)", d.id.trim(), d.height_in));
                        self.terrain_draft = None;
                        self.set_table(scene);
                    }
                    Err(e) => d.error = Some(e),
                }
            }
            Command::RemoveTerrain(k) => {
                if self.game.is_some() {
                    return;
                }
                let id = self.scene.terrain.get(k).map(|t| t.id.clone()).unwrap_or_default();
                match terrain_tool::removed_from(&self.scene, k) {
                    Ok(scene) => {
                        self.table_note = Some(format!("terrain \"{id}\" taken away"));
                        self.set_table(scene);
                    }
                    Err(e) => self.table_note = Some(e),
                }
            }
            Command::StartLadder(k) => {
                if self.game.is_none() && k < self.scene.terrain.len() {
                    self.terrain_draft = None;
                    self.ladder_draft = Some(terrain_tool::LadderDraft { piece: k, ends: Vec::new() });
                }
            }
            Command::LadderEnd(p) => {
                let Some(d) = self.ladder_draft.as_mut() else { return };
                d.ends.push(p);
                if let [a, b] = d.ends[..] {
                    let k = d.piece;
                    self.ladder_draft = None;
                    let id = self.scene.terrain.get(k).map(|t| t.id.clone()).unwrap_or_default();
                    match terrain_tool::with_ladder(&self.scene, k, a, b) {
                        Ok(scene) => {
                            self.table_note = Some(format!("a ladder put up \"{id}\""));
                            self.set_table(scene);
                        }
                        Err(e) => self.table_note = Some(format!("no ladder: {e}")),
                    }
                }
            }
            Command::CancelLadder => self.ladder_draft = None,
            Command::ClearLadders(k) => {
                if self.game.is_some() {
                    return;
                }
                match terrain_tool::without_ladders(&self.scene, k) {
                    Ok(scene) => self.set_table(scene),
                    Err(e) => self.table_note = Some(e),
                }
            }
            Command::SaveTable(dir) => {
                let path = terrain_tool::fresh_table_path(&dir);
                self.table_note = Some(match terrain_tool::save(&self.scene, &path) {
                    Ok(()) => format!("table saved to {} (open it with --scene)", path.display()),
                    Err(e) => format!("table not saved: {e}"),
                });
            }
            Command::SelectOffTable(id) => {
                self.run_command(Command::Select(None));
                self.off_table = Some(id);
            }
            Command::Select(sel) => {
                self.off_table = None;
                self.selected = sel.filter(|&i| i < self.scene.troopers.len());
                self.visibility = self
                    .selected
                    .map(|i| visibility_polygon(&self.scene.troopers[i].body, &self.scene.terrain, &self.scene.table))
                    .unwrap_or_default();
            }
        }
    }

    /// In a game: the table as the game now has it (after a move, a casualty, an undo), measured
    /// again; the selection stays with the same trooper.
    fn table_from_game(&mut self) {
        let Some(game) = self.game.as_ref() else { return };
        match game.scene() {
            Ok(scene) => {
                let selected = self.selected.and_then(|i| self.scene.troopers.get(i)).map(|t| t.id.clone());
                let off_table = self.off_table.take();
                self.scene = scene;
                self.show_routes();
                self.pairs.refresh(&self.scene);
                self.table_changed();
                // The same trooper stays selected: on the table (it may just have entered it), or off it.
                let id = selected.or(off_table);
                match id.as_ref().and_then(|id| self.scene.troopers.iter().position(|t| t.id == *id)) {
                    Some(i) => self.run_command(Command::Select(Some(i))),
                    None => {
                        self.run_command(Command::Select(None));
                        self.off_table = id.filter(|id| self.game_trooper(id).is_some_and(|t| !t.on_table()));
                    }
                }
            }
            Err(e) => self.draft.message = Some(Err(format!("the table cannot be shown: {e}"))),
        }
    }

    /// Write a new game file from `setup` and play it; refused, the New game window says why
    /// (the field at fault, or the file) and nothing is written.
    fn create_game(&mut self, setup: &crate::rules::Setup, path: &Path) {
        match game_session::GameSession::create(path, setup) {
            Ok(opened) => {
                // The table in view stays calibrated: the game keeps the calibration in force.
                let current = self.calibrator.calibration.as_ref().map(game_session::setup_from_calibration);
                let kept = current.is_some() && current == setup.calibration;
                self.enter_game(opened);
                if kept {
                    self.pending_calibration = None;
                }
                self.new_game = None;
                self.draft.tagging = true;
                self.calibrator.message =
                    Some(format!("new game saved to {}: tag where each Model stands", path.display()));
            }
            Err(e) => match self.new_game.as_mut() {
                Some(editor) => editor.message = Some(format!("not created — {e}")),
                None => self.draft.message = Some(Err(e)),
            },
        }
    }

    /// Put the routes being drawn on the table shown (the plan draws them, and what is in their
    /// way).
    fn show_routes(&mut self) {
        if self.game.is_none() {
            return;
        }
        for t in &mut self.scene.troopers {
            t.route = self.draft.routes.get(&t.id).cloned().unwrap_or_default();
        }
    }

    /// Whether the skill being declared goes over what a plain move may not (Climb, Jump): its
    /// route is a slope between levels, judged as the rules engine judges it.
    /// How scene trooper `i`'s drafted route moves it: the skill being declared (Climb and Jump
    /// leap; in a game only), and the trooper's Climbing Plus for a Move.
    fn gait(&self, i: usize) -> plan::Gait {
        let Some(game) = self.game.as_ref() else { return plan::Gait::Walk };
        let skill = crate::rules::skills::find(&self.draft.skill);
        if skill.is_some_and(|s| s.over_obstacles) {
            return plan::Gait::Leap;
        }
        let climbs = self.scene.troopers.get(i).is_some_and(|t| game.game().climbs_walls(&t.id, &self.draft.skill));
        if climbs { plan::Gait::ClimbingPlus } else { plan::Gait::Walk }
    }

    /// The troopers (scene indices) that may declare an ARO now.
    fn may_react(&self) -> Vec<usize> {
        let Some(order) = self.game.as_ref().and_then(|g| g.game().order()) else { return Vec::new() };
        let ids: Vec<&String> = order.eligible_now().into_iter().map(|(id, _)| id).collect();
        self.scene.troopers.iter().enumerate().filter(|(_, t)| ids.contains(&&t.id)).map(|(i, _)| i).collect()
    }

    /// The pairs of troopers (scene indices, the lower first) in Close Combat now: Engaged with
    /// each other (N4 Engaged State, worked out by the rules engine from Silhouette contact).
    pub fn close_combat_pairs(&self) -> Vec<(usize, usize)> {
        let Some(game) = self.game.as_ref().map(|g| g.game()) else { return Vec::new() };
        let at = |id: &str| self.scene.troopers.iter().position(|t| t.id == id);
        let mut out = Vec::new();
        for (i, t) in self.scene.troopers.iter().enumerate() {
            for j in game.close_combat_of(&t.id).iter().filter_map(|id| at(id)) {
                if i < j {
                    out.push((i, j));
                }
            }
        }
        out
    }

    /// Deployment: the selected trooper stands at `p` (its base `elevation` up), facing `facing`
    /// when given (a drag), else as the panel says; then the next trooper of its side in the
    /// list is selected, for the next click.
    fn deploy_selected(&mut self, p: crate::geometry::TablePoint, elevation: f64, facing: Option<f64>) {
        let Some(game) = self.game.as_ref() else { return };
        let Some(id) = self.selected_id() else { return };
        let side = game.game().trooper(&id).map(|t| t.side);
        let facing =
            facing.or(self.draft.deploy_facing).unwrap_or_else(|| order_panel::facing_the_middle(p, &self.scene.table));
        let event = crate::rules::Event::Deploy { trooper: id.clone(), x: p.x, y: p.y, facing, elevation };
        self.run_command(Command::Play(event));
        let Some(game) = self.game.as_ref().map(|g| g.game()) else { return };
        let troopers = game.troopers();
        let after = || troopers.iter().skip_while(|t| t.id != id).skip(1);
        let alive = |t: &&crate::rules::TrooperState| !t.is(crate::rules::State::Dead);
        // Off the table, and its player's to place now (the Deployment Phase's steps).
        let due = |t: &&crate::rules::TrooperState| !t.on_table() && alive(t) && game.deployment_allows(&t.id);
        // A Controller's Peripherals are deployed at the same time (N4 Peripheral): they come next.
        let root = game.trooper(&id).map(|t| t.unit_root());
        let mate = |t: &&crate::rules::TrooperState| Some(t.unit_root()) == root;
        let next = if game.deployment_step().is_some() {
            troopers
                .iter()
                .find(|t| mate(t) && due(t))
                .or_else(|| after().find(|t| Some(t.side) == side && due(t)))
                .or_else(|| troopers.iter().find(due))
        } else {
            None
        }
        .or_else(|| after().find(|t| Some(t.side) == side && alive(t)))
        // After a side's last trooper: the first of either side still to be tagged.
        .or_else(|| troopers.iter().find(|t| t.id != id && !t.on_table() && alive(t)))
        .map(|t| t.id.clone());
        if matches!(self.draft.message, Some(Ok(_)))
            && let Some(next) = next
        {
            match self.scene.troopers.iter().position(|t| t.id == next) {
                Some(i) => self.run_command(Command::Select(Some(i))),
                None => self.run_command(Command::SelectOffTable(next)),
            }
        }
    }

    /// While the Deployment Phase goes in steps: select the first trooper whose player's step it
    /// is and that is still off the table, unless the one selected is such a trooper.
    fn select_first_due(&mut self) {
        let Some(game) = self.game.as_ref().map(|g| g.game()).filter(|g| g.deployment_step().is_some()) else {
            return;
        };
        let due = |id: &str| game.trooper(id).is_some_and(|t| !t.on_table()) && game.deployment_allows(id);
        let selected = self.selected_id();
        if selected.as_deref().is_some_and(due) {
            return;
        }
        if let Some(next) = game.troopers().iter().find(|t| due(&t.id)).map(|t| t.id.clone()) {
            self.run_command(Command::SelectOffTable(next));
        }
    }

    /// What a click on the table does now.
    fn table_click(&self) -> order_panel::TableClick {
        if self.terrain_draft.is_some() {
            return order_panel::TableClick::TerrainCorner;
        }
        if self.ladder_draft.is_some() {
            return order_panel::TableClick::LadderEnd;
        }
        self.game.as_ref().map_or(order_panel::TableClick::Select, |g| order_panel::table_click(g.game(), &self.draft))
    }

    /// The activated trooper whose route clicks extend now, if an Order is being carried out.
    fn mover(&self) -> Option<String> {
        self.game.as_ref().and_then(|g| g.game().order()).and_then(|o| self.draft.mover_in(o))
    }

    fn camera_ui(&mut self, ui: &mut egui::Ui) {
        let Some((f, response)) = self.camera.show(ui) else { return };
        self.picture_rect = Some(f.rect);
        let painter = ui.painter_at(f.rect);
        if let Some(clicks) = &self.calibrator.clicks {
            let names = camera_view::corner_names(self.scene.table.width, self.scene.table.depth);
            let next = names.get(clicks.len()).cloned().unwrap_or_default();
            banner(&painter, &f, &format!("Calibrating: click table corner {} of 4, {next}", clicks.len() + 1));
            for (k, c) in clicks.iter().enumerate() {
                let s = f.screen_from_image(c.x, c.y);
                painter.circle_stroke(s, 6.0, egui::Stroke::new(2.0, egui::Color32::from_rgb(255, 60, 200)));
                painter.text(
                    s + egui::vec2(8.0, -8.0),
                    egui::Align2::LEFT_BOTTOM,
                    format!("{}", k + 1),
                    egui::FontId::proportional(14.0),
                    egui::Color32::WHITE,
                );
            }
            if let Some(p) = self.pick(ui, &response, &f) {
                self.commands.push(Command::CalibrationClick(p));
            }
            return;
        }
        if let Some(adding) = self.calibrator.adding {
            let text = match adding.pixel {
                None => "Click a point whose table position you know: an edge midpoint, a terrain corner",
                Some(_) => "Type its table position, then Add",
            };
            banner(&painter, &f, text);
            match adding.pixel {
                None => {
                    if let Some(p) = self.pick(ui, &response, &f) {
                        self.commands.push(Command::KnownPointClick(p));
                    }
                }
                Some(px) => {
                    let s = f.screen_from_image(px.x, px.y);
                    painter.circle_stroke(s, 6.0, egui::Stroke::new(2.0, egui::Color32::from_rgb(255, 60, 200)));
                    let mut table = adding.table;
                    // Beside the point, on the side with more room, so it does not cover it (a
                    // new window for each click: its place follows the point).
                    let (dx, dy) = (
                        if s.x < f.rect.center().x { 30.0 } else { -270.0 },
                        if s.y < f.rect.center().y { 30.0 } else { -140.0 },
                    );
                    egui::Window::new("Known point")
                        .id(egui::Id::unique(("known point", px.x.to_bits(), px.y.to_bits())))
                        .collapsible(false)
                        .resizable(false)
                        .default_pos(s + egui::vec2(dx, dy))
                        .show(ui.ctx(), |ui| {
                            ui.label(format!("picture ({:.1}, {:.1}) px is on the table at", px.x, px.y));
                            ui.horizontal(|ui| {
                                ui.label("x");
                                ui.add(egui::DragValue::new(&mut table.0).speed(0.1).suffix("\""));
                                ui.label("y");
                                ui.add(egui::DragValue::new(&mut table.1).speed(0.1).suffix("\""));
                            });
                            ui.horizontal(|ui| {
                                if ui.button("Add").clicked() {
                                    self.commands.push(Command::AddKnownPoint(table));
                                }
                                if ui.button("Cancel").clicked() {
                                    self.commands.push(Command::CancelKnownPoint);
                                }
                            });
                        });
                    if let Some(a) = self.calibrator.adding.as_mut() {
                        a.table = table;
                    }
                }
            }
            return;
        }
        let Some(cal) = &self.calibrator.calibration else {
            banner(&painter, &f, "Not calibrated: press Calibrate and click the four table corners");
            return;
        };
        let view = camera_view::TableOnPicture { cal, frame: f };
        let (w, d) = (self.scene.table.width, self.scene.table.depth);
        let corners = [(0.0, 0.0), (w, 0.0), (w, d), (0.0, d)].map(|(x, y)| crate::geometry::TablePoint::new(x, y));
        let corners = view.path(&corners, 0.0, true);
        painter.add(egui::Shape::closed_line(corners, egui::Stroke::new(1.5, egui::Color32::from_rgb(255, 230, 120))));
        // Every terrain piece's top, thin, where the picture should show it: a traced piece that
        // does not sit on its real one was traced wrong. Ladders in their colour.
        for t in &self.scene.terrain {
            let top = view.path(&t.polygon, t.height_in, true);
            painter.add(egui::Shape::closed_line(top, egui::Stroke::new(1.0, egui::Color32::from_white_alpha(140))));
            for &[a, b] in &t.ladders {
                // Its two rails, up the side from the table to the top, and the top between them.
                for rail in [view.segment((a, 0.0), (a, t.height_in)), view.segment((b, 0.0), (b, t.height_in))] {
                    painter.add(egui::Shape::line(rail, egui::Stroke::new(2.0, plan::LADDER)));
                }
                painter.add(egui::Shape::line(
                    view.segment((a, t.height_in), (b, t.height_in)),
                    egui::Stroke::new(2.0, plan::LADDER),
                ));
            }
        }
        // While the Models are deployed: the Deployment Zones' edges, on the table's surface.
        if self.game.as_ref().is_some_and(|g| g.game().deployment_open()) {
            for (side, zone) in self.deployment_zones() {
                if zone.iter().all(|&p| view.screen_from_table(p, 0.0).is_some()) {
                    let pts = view.path(&zone, 0.0, true);
                    plan::dashed_outline(&painter, &pts, egui::Stroke::new(2.0, plan::side_colour(side)), 10.0, 5.0);
                }
            }
        }
        // How far beyond its zone the trooper to tag may deploy (Forward Deployment …).
        if let Some((side, line, inches)) = self.deployment_reach() {
            let t = &self.scene.table;
            let (on, name_at) = plan::reach_on_table(&line, t);
            if on.iter().all(|&p| view.screen_from_table(p, 0.0).is_some()) {
                let colour = plan::side_colour(side);
                plan::dashed_outline(&painter, &view.path(&on, 0.0, true), egui::Stroke::new(1.5, colour), 5.0, 5.0);
                if let (Some(at), Some(towards)) =
                    (name_at.and_then(|p| view.screen_from_table(p, 0.0)), view.screen_from_table(t.middle(), 0.0))
                {
                    plan::reach_label(&painter, at, towards, inches, colour);
                }
            }
        }
        if let Some(sel) = self.selected {
            for m in self.pairs.pairs().iter().filter(|m| m.from == sel) {
                let colour = plan::verdict_colour(&m.lof.lof);
                match m.lof.witness {
                    // The witness: one unblocked line, drawn where it runs in the picture.
                    Some([a, b]) => {
                        let line = view.segment((a.plan(), a.z), (b.plan(), b.z));
                        painter.add(egui::Shape::line(line, egui::Stroke::new(2.0, colour)));
                    }
                    // Blocked: dashed, between the middles of the two Silhouettes.
                    None if matches!(m.lof.lof, crate::geometry::Lof::Blocked { .. }) => {
                        let mid = |k: usize| {
                            let b = &self.scene.troopers[k].body;
                            (b.centre, b.elevation_in + b.height() / 2.0)
                        };
                        let line = view.segment(mid(m.from), mid(m.to));
                        if line.len() >= 2 {
                            painter.extend(egui::Shape::dashed_line(
                                &line,
                                egui::Stroke::new(1.5, colour.gamma_multiply(0.8)),
                                6.0,
                                5.0,
                            ));
                        }
                    }
                    None => {}
                }
            }
        }
        // Close Combat: each Engaged trooper ringed at its base.
        for (i, j) in self.close_combat_pairs() {
            for b in [&self.scene.troopers[i].body, &self.scene.troopers[j].body] {
                let ring = view.ring(b.centre, b.radius() + 0.25, b.elevation_in);
                painter.add(egui::Shape::closed_line(ring, egui::Stroke::new(2.5, plan::CLOSE_COMBAT)));
            }
        }
        let may_react = self.may_react();
        for (i, t) in self.scene.troopers.iter().enumerate() {
            let colour = plan::side_colour(t.side);
            let b = &t.body;
            if may_react.contains(&i) {
                let ring = view.ring(b.centre, b.radius() + 0.4, b.elevation_in);
                painter.add(egui::Shape::closed_line(ring, egui::Stroke::new(2.5, plan::MAY_REACT)));
            }
            let stroke = if self.selected == Some(i) {
                egui::Stroke::new(3.0, egui::Color32::YELLOW)
            } else {
                egui::Stroke::new(2.0, colour)
            };
            painter.add(egui::Shape::closed_line(view.ring(b.centre, b.radius(), b.elevation_in), stroke));
            if self.selected == Some(i) {
                // The Silhouette's top, so its whole volume shows (what LoF is drawn to).
                painter.add(egui::Shape::closed_line(
                    view.ring(b.centre, b.radius(), b.top()),
                    egui::Stroke::new(1.0, egui::Color32::YELLOW.gamma_multiply(0.7)),
                ));
            }
            if self.selected == Some(i) || self.prefs.all_zoc {
                let zoc = view.ring(b.centre, b.radius() + crate::geometry::ZOC_RANGE_IN, b.elevation_in);
                painter.add(egui::Shape::closed_line(zoc, egui::Stroke::new(1.5, colour.gamma_multiply(0.8))));
            }
        }
        // Routes being drawn, at the level they pass at: up onto what they step on or climb.
        for (i, t) in self.scene.troopers.iter().enumerate().filter(|(_, t)| !t.route.is_empty()) {
            let levels = plan::route_levels(&self.scene, i, self.gait(i));
            for w in levels.windows(2) {
                let line = view.segment((w[0].at, w[0].level_in), (w[1].at, w[1].level_in));
                painter.add(egui::Shape::line(line, egui::Stroke::new(2.0, egui::Color32::WHITE)));
            }
            let ends = t.route.iter().filter_map(|&p| levels.iter().rev().find(|q| q.at == p).map(|q| (p, q.level_in)));
            for p in ends.filter_map(|(p, z)| view.screen_from_table(p, z)) {
                painter.circle_filled(p, 3.5, egui::Color32::WHITE);
            }
        }
        if let Some(d) = &self.terrain_draft {
            // The piece's top, at its height, where the picture shows it.
            banner(
                &painter,
                &f,
                &format!("Tracing \"{}\": click the corners of its top ({}\" up), in order", d.id, d.height_in),
            );
            let pts = view.path(&d.corners, d.height_in, d.corners.len() >= 3);
            painter.add(egui::Shape::line(pts, egui::Stroke::new(2.0, plan::TERRAIN_DRAFT)));
            for p in d.corners.iter().filter_map(|&p| view.screen_from_table(p, d.height_in)) {
                painter.circle_filled(p, 3.5, plan::TERRAIN_DRAFT);
            }
            // (With the magnifier, as a table corner is clicked.)
            if let Some(p) = self.pick(ui, &response, &f) {
                self.commands.push(Command::TerrainPictureClick(p));
            }
        }
        let ladder_on = self.ladder_draft.as_ref().and_then(|d| self.scene.terrain.get(d.piece).map(|t| (d, t)));
        if let Some((d, t)) = ladder_on {
            let which = if d.ends.is_empty() { "one end" } else { "the other end" };
            banner(&painter, &f, &format!("Ladder up \"{}\": click {which} of it along the piece's top edge", t.id));
            for p in d.ends.iter().filter_map(|&p| view.screen_from_table(p, t.height_in)) {
                painter.circle_filled(p, 4.0, plan::LADDER);
            }
        }
        // While tagging, or drawing a route: a press dragged gives the facing it is dragged
        // towards, on the surface it was pressed on.
        if self.terrain_draft.is_none()
            && ladder_on.is_none()
            && self.table_click().takes_facing()
            && let Some((from, to, ended)) = plan::facing_drag(ui, &response)
        {
            painter.arrow(from, to - from, egui::Stroke::new(2.0, egui::Color32::WHITE));
            if ended
                && let Some((a, h)) = view.standing_point(&self.scene.terrain, from)
                && let Some(b) = view.table_from_screen(to, h)
                && a.dist(b) >= order_panel::FACING_DRAG_IN
                && let Some(facing) = order_panel::facing_towards(a, b)
                && let Some(c) = self.table_click().command_facing(a, h, facing)
            {
                self.commands.push(c);
            }
        }
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            if self.terrain_draft.is_some() {
                // (Taken above, from the picture's pixels.)
            } else if let Some((_, t)) = ladder_on {
                // Where the ladder meets the piece's top, which the picture shows.
                if let Some(p) = view.table_from_screen(pos, t.height_in) {
                    self.commands.push(Command::LadderEnd(p));
                }
            } else if self.table_click() == order_panel::TableClick::Deploy {
                if let Some((p, h)) = view.standing_point(&self.scene.terrain, pos) {
                    self.commands.push(Command::DeployAt(p, h));
                }
            } else if self.table_click() != order_panel::TableClick::Select {
                // On the surface the click lands on: a click on a roof is a point on the roof, where
                // the picture shows it (a move goes up and down to the surfaces it passes over).
                let click = self.table_click();
                if let Some(c) = view
                    .standing_point(&self.scene.terrain, pos)
                    .and_then(|(p, _)| click.command_at(p, &self.scene.terrain))
                {
                    self.commands.push(c);
                }
            } else {
                self.commands.push(Command::Select(view.trooper_at(&self.scene, pos, 0.5)));
            }
        }
    }

    /// While picking a point on the picture: the magnifier under the pointer, and the image
    /// point (pixels) clicked, if any.
    fn pick(
        &self,
        ui: &egui::Ui,
        response: &egui::Response,
        f: &camera_view::ImageFrame,
    ) -> Option<crate::vision::ImagePoint> {
        if let (Some(pos), Some(tex)) = (response.hover_pos(), self.camera.texture()) {
            camera_view::magnifier(ui, tex, f, pos);
        }
        let pos = response.interact_pointer_pos().filter(|_| response.clicked())?;
        let (x, y) = f.image_from_screen(pos);
        Some(crate::vision::ImagePoint::new(x, y))
    }

    fn length(&self, inches: f64) -> String {
        if self.prefs.show_cm { format!("{inches:.2}\" ({:.1} cm)", inches * 2.54) } else { format!("{inches:.2}\"") }
    }

    fn troopers_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Troopers");
        for side in [crate::geometry::Side::A, crate::geometry::Side::B] {
            ui.label(egui::RichText::new(format!("Side {side:?}")).color(plan::side_colour(side)).strong());
            if let Some(g) = &self.game {
                for line in order_panel::side_summary(g.game(), side) {
                    ui.add(egui::Label::new(egui::RichText::new(line).small()).wrap());
                }
            }
            for (i, t) in self.scene.troopers.iter().enumerate().filter(|(_, t)| t.side == side) {
                let prone = if t.body.prone { " prone" } else { "" };
                let mut label = format!("{}  S{}{prone}", t.id, t.body.silhouette.value());
                let in_game = self.game_trooper(&t.id);
                if let Some(states) = in_game.map(states_text).filter(|s| !s.is_empty()) {
                    label = format!("{label} · {states}");
                }
                // A Peripheral outside its Controller's ZoC (Coherency).
                if self.game.as_ref().and_then(|g| g.game().peripheral_coherency(&t.id)) == Some(false) {
                    label = format!("{label} · out of Coherency");
                }
                let mut item = ui.selectable_label(self.selected == Some(i), label);
                if let Some(g) = in_game {
                    item = item.on_hover_text(&g.name);
                }
                if item.clicked() {
                    self.commands.push(Command::Select(Some(i)));
                }
            }
            // In a game: troopers not on the table yet (they enter it with a move).
            if let Some(g) = &self.game {
                for t in g
                    .game()
                    .troopers()
                    .iter()
                    .filter(|t| t.side == side && !t.on_table() && !t.is(crate::rules::State::Dead))
                {
                    let label = format!("{}  not on the table", t.id);
                    if ui
                        .selectable_label(self.off_table.as_deref() == Some(t.id.as_str()), label)
                        .on_hover_text(&t.name)
                        .clicked()
                    {
                        self.commands.push(Command::SelectOffTable(t.id.clone()));
                    }
                }
            }
            ui.add_space(8.0);
        }
        if !self.scene.terrain.is_empty() {
            ui.separator();
            ui.label(egui::RichText::new("Terrain").strong());
            for (k, t) in self.scene.terrain.iter().enumerate() {
                let ladders = match t.ladders.len() {
                    0 => String::new(),
                    1 => " · 1 ladder".to_string(),
                    n => format!(" · {n} ladders"),
                };
                ui.label(format!("{}  {}\"{ladders}", t.id, t.height_in));
                if self.game.is_some() {
                    continue;
                }
                // (The piece's buttons on a row of their own beneath it, indented, so that
                // every piece's row reads alike whatever the length of its id.)
                ui.horizontal_wrapped(|ui| {
                    ui.add_space(8.0);
                    if ui.small_button("take away").on_hover_text(format!("Take \"{}\" off the table", t.id)).clicked()
                    {
                        self.commands.push(Command::RemoveTerrain(k));
                    }
                    if ui
                        .small_button("edit")
                        .on_hover_text(format!("Change \"{}\"'s id, height or corners", t.id))
                        .clicked()
                    {
                        self.commands.push(Command::EditTerrain(k));
                    }
                    if self.ladder_draft.as_ref().is_some_and(|d| d.piece == k) {
                        if ui.small_button("cancel ladder").clicked() {
                            self.commands.push(Command::CancelLadder);
                        }
                    } else if ui
                        .small_button("ladder")
                        .on_hover_text(format!(
                            "Put a ladder or stairs up \"{}\": click its two ends along one side",
                            t.id
                        ))
                        .clicked()
                    {
                        self.commands.push(Command::StartLadder(k));
                    }
                    if !t.ladders.is_empty()
                        && ui
                            .small_button("no ladders")
                            .on_hover_text(format!("Take \"{}\"'s ladders away", t.id))
                            .clicked()
                    {
                        self.commands.push(Command::ClearLadders(k));
                    }
                });
            }
        }
        ui.separator();
        ui.checkbox(&mut self.prefs.all_zoc, "ZoC of everyone");
        ui.checkbox(&mut self.prefs.visibility, "Visibility region");
        ui.checkbox(&mut self.prefs.show_cm, "Also in cm");
    }

    /// In a game, the game's trooper `id` (its name and states).
    fn game_trooper(&self, id: &str) -> Option<&crate::rules::TrooperState> {
        self.game.as_ref().and_then(|g| g.game().trooper(id))
    }

    fn measures_panel(&mut self, ui: &mut egui::Ui) {
        let Some(sel) = self.selected else {
            if let Some(id) = &self.off_table {
                ui.heading(id);
                let deploying = self.game.as_ref().is_some_and(|g| g.game().deployment_open());
                ui.label(if deploying {
                    "not on the table yet: deploy it by tagging where its Model stands"
                } else {
                    "not on the table: its first route point is where it enters"
                });
                return;
            }
            ui.label("Click a trooper to see what it measures.");
            return;
        };
        let me = &self.scene.troopers[sel];
        ui.heading(&me.id);
        if let Some(g) = self.game_trooper(&me.id) {
            let states = states_text(g);
            ui.label(if states.is_empty() { g.name.clone() } else { format!("{} · {states}", g.name) });
            if !g.abilities.is_empty() {
                let names: Vec<&str> = g.abilities.iter().map(|a| a.rule_name()).collect();
                let meanings: Vec<&str> = g.abilities.iter().map(|&a| setup_editor::ability_hover(a)).collect();
                // One line that says what it lists ("abilities: Lieutenant"), so a Lieutenant called
                // "Lieutenant" does not read as the same line twice, to the eye or a screen reader.
                let font = egui::TextStyle::Body.resolve(ui.style());
                let mut line = egui::text::LayoutJob::default();
                let weak = egui::TextFormat::simple(font.clone(), ui.visuals().weak_text_color());
                line.append("abilities: ", 0.0, weak);
                line.append(&names.join(", "), 0.0, egui::TextFormat::simple(font, ui.visuals().text_color()));
                ui.label(line).on_hover_text(meanings.join("\n"));
            }
        }
        ui.label(
            format!(
                "S{} · facing {:.0}° · {} arc{}",
                me.body.silhouette.value(),
                me.body.facing_deg,
                match me.body.arc {
                    crate::geometry::Arc::Front180 => "180°",
                    crate::geometry::Arc::All360 => "360°",
                },
                if me.body.elevation_in > 0.0 {
                    format!(" · {:.1}\" up", me.body.elevation_in)
                } else {
                    String::new()
                }
            ) + if me.body.prone { " · prone" } else { "" },
        );
        if let Some(m) = self.game_trooper(&me.id).and_then(|g| g.mov) {
            ui.label(format!("MOV {}-{}", m[0], m[1]));
        }
        if !me.route.is_empty() {
            let across = crate::geometry::path_length(&me.path());
            let gait = self.gait(sel);
            let levels = plan::route_levels(&self.scene, sel, gait);
            let end_level = levels.last().map_or(me.body.elevation_in, |q| q.level_in);
            // As the rules measure it, in a game by the rules engine itself (Climb and Jump across
            // and up or down together, a Climbing Plus Move with the walls it climbs); on a
            // scene, a plain move with the ladders it goes up and down.
            let measured = match &self.game {
                Some(g) => g.game().route_length(&self.draft.skill, &me.id, &me.route).map_or(across, |(m, _)| m),
                None => plan::route_length(&self.scene, sel),
            };
            if measured > across + 1e-9 {
                ui.label(format!("Route: {} ({} across)", self.length(measured), self.length(across)));
            } else {
                ui.label(format!("Route: {}", self.length(across)));
            }
            if let Some(&end) = me.route.last()
                && (end_level - me.body.elevation_in).abs() > crate::geometry::LEVEL_EPS_IN
            {
                let on = crate::geometry::surface_at(&self.scene.terrain, end);
                let surface =
                    on.piece.map_or("on the table".to_string(), |k| format!("on {}", self.scene.terrain[k].id));
                ui.label(format!("ends {end_level:.1}\" up, {surface}"));
            }
            let problems = plan::route_problems(&self.scene, sel, gait);
            if problems.is_empty() {
                ui.label("nothing in its way");
            }
            for p in problems {
                let (from, to) = (p.stretch.from_in, p.stretch.to_in);
                let at =
                    if to > from { format!("{}–{}", self.length(from), self.length(to)) } else { self.length(from) };
                ui.colored_label(plan::BLOCKED_ROUTE, format!("{} at {at}", p.what));
            }
        }
        if self.game.is_none() {
            let mut prone = me.body.prone;
            if ui.checkbox(&mut prone, "Prone").on_hover_text("S0 tall (3 mm) on its own base").changed() {
                self.commands.push(Command::SetProne(sel, prone));
            }
        }
        ui.separator();
        // The LoF column takes what the names, distances and ZoC leave of the panel.
        let font = egui::TextStyle::Body.resolve(ui.style());
        let names = self
            .scene
            .troopers
            .iter()
            .map(|t| ui.painter().layout_no_wrap(t.id.clone(), font.clone(), egui::Color32::WHITE).size().x)
            .fold(0.0, f32::max);
        let lof_width =
            (ui.available_width() - names - DISTANCE_ZOC_WIDTH).clamp(MIN_LOF_COLUMN_WIDTH, LOF_COLUMN_WIDTH);
        egui::Grid::new("pairs").striped(true).num_columns(4).show(ui, |ui| {
            ui.strong("to");
            ui.strong("distance");
            ui.strong("ZoC");
            ui.strong("LoF");
            ui.end_row();
            // Side A's troopers, then side B's (as the list on the left has them), each in the
            // scene's order.
            let mut rows: Vec<_> = self.pairs.pairs().iter().filter(|m| m.from == sel).collect();
            rows.sort_by_key(|m| self.scene.troopers[m.to].side == crate::geometry::Side::B);
            for m in rows {
                let other = &self.scene.troopers[m.to];
                ui.colored_label(plan::side_colour(other.side), &other.id);
                ui.label(self.length(m.distance_in));
                ui.label(match m.zoc {
                    ZocVerdict::Outside => "—",
                    ZocVerdict::Inside => "inside",
                    ZocVerdict::TotallyInside => "totally",
                });
                let by: Vec<&str> = m.lof.lof.blockers().iter().map(|&b| self.scene.blocker_id(b)).collect();
                let verdict = plan::verdict_text(&m.lof.lof);
                let text = if by.is_empty() { verdict.to_string() } else { format!("{verdict} ({})", by.join(", ")) };
                // (Wrapped to a fixed width: a long list of blockers would otherwise widen the
                // panel, and shrink the picture, each time another trooper is selected.)
                ui.scope(|ui| {
                    ui.set_max_width(lof_width);
                    ui.add(egui::Label::new(egui::RichText::new(text).color(plan::verdict_colour(&m.lof.lof))).wrap());
                });
                ui.end_row();
            }
        });
    }

    /// The troopers panel on the left and the measures (and game) panel on the right.
    fn side_panels(&mut self, ui: &mut egui::Ui) {
        // (Scrolled: 60 troopers and the options below them do not fit a window's height.)
        egui::Panel::left("troopers")
            .default_size(215.0)
            .show(ui, |ui| egui::ScrollArea::vertical().show(ui, |ui| self.troopers_panel(ui)));
        let widest = (ui.ctx().content_rect().width() * MEASURES_MAX_SHARE).max(300.0);
        egui::Panel::right("measures")
            .default_size(330.0_f32.min(widest))
            .max_size(widest)
            // (Both ways: in the narrowest panel a long trooper name still scrolls, not clips.)
            .show(ui, |ui| {
                egui::ScrollArea::both().show(ui, |ui| {
                    if let Some(g) = &self.game {
                        let selected =
                            self.selected.map(|i| self.scene.troopers[i].id.as_str()).or(self.off_table.as_deref());
                        let tagging = self.draft.tagging;
                        order_panel::ui(ui, g.game(), &mut self.draft, selected, &mut self.commands);
                        ui.separator();
                        // Tagging just turned on: the first click goes to a trooper whose player
                        // is to deploy now, not to whoever happened to be selected.
                        if self.draft.tagging && !tagging {
                            self.select_first_due();
                        }
                    }
                    self.measures_panel(ui);
                })
            });
    }
}

impl eframe::App for SightlineApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        if self.calibrator.clicks.is_some() && ui.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.commands.push(Command::CancelCalibration);
        }
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if let Ok(text) = serde_json::to_string(&self.prefs) {
            storage.set_string(PREFS_KEY, text);
        }
    }
}

impl SightlineApp {
    /// The selected trooper, if any.
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// The open game's Deployment Zones (each player's area, inches), if its setup sets them.
    pub fn deployment_zones(&self) -> Vec<(Side, Vec<TablePoint>)> {
        let Some(g) = &self.game else { return Vec::new() };
        [Side::A, Side::B]
            .into_iter()
            .filter_map(|side| g.game().setup().deployment_zone(side).ok().flatten().map(|z| (side, z)))
            .collect()
    }

    /// The id of the trooper selected: on the table, or one not on it yet.
    fn selected_id(&self) -> Option<String> {
        self.selected.map(|i| self.scene.troopers[i].id.clone()).or(self.off_table.clone())
    }

    /// While Models are tagged at deployment: for the trooper to be tagged next, when a
    /// Deployment Skill lets it go a distance beyond its player's Deployment Zone (Forward
    /// Deployment …), that zone's side, the line that far out (inches) and the distance.
    pub fn deployment_reach(&self) -> Option<(Side, Vec<TablePoint>, f64)> {
        let game = self.game.as_ref()?.game();
        if !game.deployment_open() || !self.draft.tagging {
            return None;
        }
        let id = self.selected_id()?;
        let side = game.trooper(&id)?.side;
        let inches = game.deployment_reach_in(&id)?;
        let zone = game.setup().deployment_zone(side).ok().flatten()?;
        Some((side, crate::geometry::area_grown_outline(&zone, inches), inches))
    }

    /// What the game panel is putting together (nothing in it is in the game yet).
    pub fn draft(&self) -> &order_panel::OrderDraft {
        &self.draft
    }

    /// The terrain piece being traced, if one is (its id and height are typed in its window).
    pub fn terrain_draft_mut(&mut self) -> Option<&mut terrain_tool::TerrainDraft> {
        self.terrain_draft.as_mut()
    }

    /// The scene shown.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// Every pair's measurements, as shown.
    pub fn pairs(&self) -> &PairTable {
        &self.pairs
    }

    /// The whole window's contents (what [`eframe::App::ui`] draws; tests drive it headless).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.camera.poll(ui.ctx());
        self.apply_pending_calibration();
        egui::Panel::top("toolbar").show(ui, |ui| {
            // Wrapped: in a narrow window (800 px) the calibration buttons take a second line
            // instead of running off the edge.
            ui.horizontal_wrapped(|ui| {
                ui.strong("sightline");
                ui.separator();
                ui.selectable_value(&mut self.prefs.view, View::Camera, "Camera");
                ui.selectable_value(&mut self.prefs.view, View::Plan, "Plan");
                ui.separator();
                ui.label(&self.title);
                ui.separator();
                ui.label(format!("table {}\" × {}\"", self.scene.table.width, self.scene.table.depth));
                ui.separator();
                if self.calibrator.clicks.is_some() {
                    if ui.button("Cancel calibration").on_hover_text("Keep the calibration in force (Esc)").clicked() {
                        self.commands.push(Command::CancelCalibration);
                    }
                } else if ui.button("Calibrate").on_hover_text("Click the four table corners on the picture").clicked() {
                    self.commands.push(Command::StartCalibration);
                }
                let calibrated = self.calibrator.calibration.is_some();
                if ui
                    .add_enabled(calibrated, egui::Button::new("Add point"))
                    .on_hover_text("Click a point whose table position you know (an edge midpoint, a terrain corner) to improve the calibration; from 8 points on (the corners and the four edge midpoints) it corrects the lens too")
                    .clicked()
                {
                    self.commands.push(Command::StartKnownPoint);
                }
                ui.checkbox(&mut self.prefs.snap, "snap to corners");
                if self.calibrator.calibration.is_some() && ui.button("Clear calibration").clicked() {
                    self.commands.push(Command::ClearCalibration);
                }
                ui.separator();
                ui.checkbox(&mut self.prefs.panels, "Panels")
                    .on_hover_text("Show the side panels; hidden, the picture has the whole window");
                if ui
                    .button("New game…")
                    .on_hover_text("Put both armies together and start a game file on the table in view")
                    .clicked()
                {
                    self.commands.push(Command::NewGameWindow);
                }
                let outside_game = self.game.is_none();
                if ui
                    .add_enabled(outside_game && self.terrain_draft.is_none(), egui::Button::new("Add terrain"))
                    .on_hover_text("Trace a terrain piece: click the corners of its top on the picture or the plan")
                    .on_disabled_hover_text("A game's terrain is its setup's: trace the table before New game…")
                    .clicked()
                {
                    self.commands.push(Command::StartTerrain);
                }
                if ui
                    .add_enabled(outside_game, egui::Button::new("Save table"))
                    .on_hover_text("Write the table, its terrain and troopers, to a new scene file here (open it with --scene)")
                    .clicked()
                {
                    self.commands.push(Command::SaveTable(std::env::current_dir().unwrap_or_default()));
                }
            });
        });
        egui::Panel::bottom("status").show(ui, |ui| {
            // (Wrapped: a long calibration message takes a second line instead of running off.)
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("source: {}", self.camera.status));
                if let Some((w, h)) = self.camera.image_size() {
                    ui.separator();
                    ui.label(format!("{w}×{h}"));
                }
                if let Some(e) = &self.camera.error {
                    ui.separator();
                    ui.colored_label(egui::Color32::from_rgb(240, 120, 90), e);
                }
                if let Some(m) = &self.calibrator.message {
                    ui.separator();
                    ui.label(m);
                }
                if let Some(m) = &self.table_note {
                    ui.separator();
                    ui.label(m);
                }
            });
            if let Some(g) = &self.game {
                ui.horizontal_wrapped(|ui| {
                    let events = g.events();
                    ui.label(format!(
                        "{} event{} in the game file",
                        events.len(),
                        if events.len() == 1 { "" } else { "s" }
                    ));
                    for (e, taken) in events.iter().rev().take(3) {
                        ui.separator();
                        if *taken {
                            ui.label(order_panel::event_text(e));
                        } else {
                            ui.colored_label(plan::BLOCKED_ROUTE, format!("refused: {}", order_panel::event_text(e)));
                        }
                    }
                    if let Some((last, _)) = events.last()
                        && ui
                            .button("Undo")
                            .on_hover_text(format!("Take back the last event ({})", order_panel::event_text(last)))
                            .clicked()
                    {
                        self.commands.push(Command::UndoEvent);
                    }
                });
            }
        });
        if self.prefs.panels {
            self.side_panels(ui);
        }
        egui::CentralPanel::default().show(ui, |ui| {
            if self.prefs.view == View::Camera {
                self.camera_ui(ui);
                return;
            }
            let view = plan::PlanView {
                scene: &self.scene,
                pairs: self.pairs.pairs(),
                selected: self.selected,
                visibility: if self.prefs.visibility { &self.visibility } else { &[] },
                all_zoc: self.prefs.all_zoc,
                click: self.table_click(),
                may_react: &self.may_react(),
                zones: &self.deployment_zones(),
                gaits: &(0..self.scene.troopers.len()).map(|i| self.gait(i)).collect::<Vec<_>>(),
                close_combat: &self.close_combat_pairs(),
                terrain_draft: self.terrain_draft.as_ref().map_or(&[][..], |d| &d.corners[..]),
                reach: self.deployment_reach(),
            };
            if let Some(cmd) = view.ui(ui) {
                self.commands.push(cmd);
            }
        });
        self.new_game_window(ui.ctx());
        if let Some(d) = self.terrain_draft.as_mut() {
            terrain_tool::draft_window(ui.ctx(), d, &mut self.commands);
        }
        for c in std::mem::take(&mut self.commands) {
            self.run_command(c);
        }
    }

    /// The New game window, while open.
    fn new_game_window(&mut self, ctx: &egui::Context) {
        let Some(editor) = self.new_game.as_mut() else { return };
        let table = setup_editor::TableInView {
            scene: &self.scene,
            calibration: self.calibrator.calibration.as_ref().map(game_session::setup_from_calibration),
        };
        let mut open = true;
        let mut action = None;
        egui::Window::new("New game")
            .open(&mut open)
            // (Wide enough for a whole army row when the screen is.)
            .default_width(960.0_f32.min(ctx.content_rect().width() - 40.0))
            .default_height(ctx.content_rect().height() * 0.8)
            // (The editor scrolls its lists itself, both ways: in an 800 px window the army rows
            // are wider than the window; its actions stay in view beneath them.)
            .show(ctx, |ui| action = editor.ui(ui, &table));
        self.prefs.army_data.clone_from(&editor.army_data_paths);
        match action {
            Some(setup_editor::EditorAction::Create(setup, path)) => {
                self.commands.push(Command::CreateGame(setup, path));
            }
            Some(setup_editor::EditorAction::Close) => open = false,
            None => {}
        }
        if !open {
            self.new_game = None;
        }
    }
}

/// A line of instructions across the top of the picture.
fn banner(painter: &egui::Painter, f: &camera_view::ImageFrame, text: &str) {
    painter.text(
        f.rect.center_top() + egui::vec2(0.0, 14.0),
        egui::Align2::CENTER_TOP,
        text,
        egui::FontId::proportional(17.0),
        egui::Color32::from_rgb(255, 230, 120),
    );
}

/// A trooper's states in words, Null states first ("unconscious, isolated"); Prone is left out
/// (the list says it already, from the body).
pub fn states_text(t: &crate::rules::TrooperState) -> String {
    let mut states: Vec<_> = t.states.iter().filter(|&&s| s != crate::rules::State::Prone).collect();
    states.sort_by_key(|s| !s.is_null());
    // The names game files give the states ("suppressive_fire"), in words.
    let words = |s: &crate::rules::State| {
        serde_json::to_value(s).ok().and_then(|v| v.as_str().map(|w| w.replace('_', " "))).unwrap_or_default()
    };
    states.into_iter().map(words).collect::<Vec<_>>().join(", ")
}

/// The trooper whose base is nearest table point `p`, if within `tolerance_in` of its edge (a click).
fn trooper_at(scene: &Scene, p: crate::geometry::TablePoint, tolerance_in: f64) -> Option<usize> {
    nearest_base(scene, tolerance_in, |_| Some(p))
}

/// The trooper whose base edge is nearest the point `click(trooper)` gives for it (where a click
/// lands at that trooper's height; `None`: nowhere), if within `tolerance_in` inches.
fn nearest_base(
    scene: &Scene,
    tolerance_in: f64,
    click: impl Fn(&crate::geometry::SceneTrooper) -> Option<crate::geometry::TablePoint>,
) -> Option<usize> {
    scene
        .troopers
        .iter()
        .enumerate()
        .filter_map(|(i, t)| Some((i, t.body.centre.dist(click(t)?) - t.body.radius())))
        .filter(|&(_, d)| d <= tolerance_in)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// The demo camera's calibration from the true image positions of the table's corners, edge
/// middles and centre: nine known points, so the demo lens is corrected too (see
/// [`crate::vision::LENS_MIN_PAIRS`]).
pub fn demo_calibration(table: (f64, f64)) -> Option<crate::vision::Calibration> {
    let cam = crate::camera::demo::DemoCamera::default_demo();
    let pairs = crate::vision::known_points(table.0, table.1)
        .into_iter()
        .map(|t| {
            let (u, v) = cam.image_from_table(t, table)?;
            Some(crate::vision::PointPair::new(crate::vision::ImagePoint::new(u, v), t))
        })
        .collect::<Option<Vec<_>>>()?;
    crate::vision::Calibration::fit((cam.image[0], cam.image[1]), &pairs).ok()
}

/// Open the app window on `scene` (a scene file) or the bundled demo table, with the camera
/// `source` (the demo table when `None`); folder sources play at `fps`.
pub fn run(
    scene: Option<&Path>,
    game: Option<&Path>,
    source: Option<&crate::camera::SourceSpec>,
    fps: f64,
) -> anyhow::Result<()> {
    let mut game_file = match game {
        Some(p) => Some(game_session::GameSession::open(p).map_err(|e| anyhow::anyhow!(e))?),
        None => None,
    };
    let (scene, title) = match (scene, &game_file) {
        (_, Some(o)) => (o.scene.clone(), o.session.path().display().to_string()),
        (Some(p), None) => {
            (crate::cli::load_scene(p).map_err(|e| anyhow::anyhow!(e.message))?, p.display().to_string())
        }
        (None, None) => (
            Scene::from_json(crate::DEMO_SCENE_JSON).context("the bundled demo scene is invalid")?,
            "demo table".to_string(),
        ),
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1280.0, 800.0]).with_title("sightline"),
        ..Default::default()
    };
    let spec = source.cloned().unwrap_or(crate::camera::SourceSpec::Demo);
    eframe::run_native(
        "sightline",
        options,
        Box::new(move |cc| {
            let ctx = cc.egui_ctx.clone();
            let mut demo_table = None;
            let opened = match &spec {
                crate::camera::SourceSpec::Demo => {
                    let source = crate::camera::demo::DemoSource::new(
                        crate::camera::demo::DemoCamera::default_demo(),
                        scene.clone(),
                    );
                    demo_table = Some(source.table());
                    Ok(Box::new(source) as Box<dyn crate::camera::FrameSource>)
                }
                other => crate::camera::open(other, fps),
            };
            let capture = opened
                .and_then(|src| crate::camera::Capture::start(src, move || ctx.request_repaint()))
                .map_err(|e| e.to_string());
            if let Err(e) = &capture {
                log::warn!("camera source: {e}");
            }
            let camera = camera_view::CameraState::new(capture);
            let table = (scene.table.width, scene.table.depth);
            let app = SightlineApp::new(scene, title, camera, cc.storage);
            // The demo table's camera pose is known: start calibrated from its nine known points.
            let app = match (&spec, demo_calibration(table)) {
                (crate::camera::SourceSpec::Demo, Some(c)) => {
                    app.with_calibration(c, "demo table, from its known camera pose (nine points)")
                }
                _ => app,
            };
            let app = match demo_table {
                Some(t) => app.with_demo_table(t),
                None => app,
            };
            let app = match game_file.take() {
                Some(o) => app.with_game(o),
                None => app,
            };
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))
}
