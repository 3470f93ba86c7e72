//! The desktop app (egui/eframe): the camera picture of the table (a webcam, an image, a folder,
//! or the synthetic demo table) and the same table as a top-down plan with its measurements —
//! bases, arcs, Zones of Control, LoF lines and the selected trooper's visibility region.
//!
//! Panels read state and emit [`Command`]s; the commands run at the end of the frame.

pub mod camera_view;
mod plan;

use crate::geometry::{PairMeasure, Scene, ZocVerdict, visibility_polygon};
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
        Self { all_zoc: false, visibility: true, show_cm: false, view: View::Camera }
    }
}

/// Something a panel asks for; run at the end of the frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Select a trooper by index (or none).
    Select(Option<usize>),
}

/// The app's state: preferences, the scene and what is derived from it.
pub struct SightlineApp {
    prefs: Prefs,
    scene: Scene,
    title: String,
    pairs: Vec<PairMeasure>,
    selected: Option<usize>,
    visibility: Vec<crate::geometry::TablePoint>,
    commands: Vec<Command>,
    camera: camera_view::CameraState,
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
        let pairs = scene.all_pairs();
        let mut app =
            Self { prefs, scene, title, pairs, selected: None, visibility: Vec::new(), commands: Vec::new(), camera };
        app.run_command(Command::Select(Some(0)));
        app
    }

    fn run_command(&mut self, c: Command) {
        match c {
            Command::Select(sel) => {
                self.selected = sel.filter(|&i| i < self.scene.troopers.len());
                self.visibility = self
                    .selected
                    .map(|i| visibility_polygon(&self.scene.troopers[i].body, &self.scene.terrain, &self.scene.table))
                    .unwrap_or_default();
            }
        }
    }

    fn length(&self, inches: f64) -> String {
        if self.prefs.show_cm { format!("{inches:.2}\" ({:.1} cm)", inches * 2.54) } else { format!("{inches:.2}\"") }
    }

    fn troopers_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Troopers");
        for side in [crate::geometry::Side::A, crate::geometry::Side::B] {
            ui.label(egui::RichText::new(format!("Side {side:?}")).color(plan::side_colour(side)).strong());
            for (i, t) in self.scene.troopers.iter().enumerate().filter(|(_, t)| t.side == side) {
                let label = format!("{}  S{}", t.id, t.body.silhouette.value());
                if ui.selectable_label(self.selected == Some(i), label).clicked() {
                    self.commands.push(Command::Select(Some(i)));
                }
            }
            ui.add_space(8.0);
        }
        ui.separator();
        ui.checkbox(&mut self.prefs.all_zoc, "ZoC of everyone");
        ui.checkbox(&mut self.prefs.visibility, "Visibility region");
        ui.checkbox(&mut self.prefs.show_cm, "Also in cm");
    }

    fn measures_panel(&mut self, ui: &mut egui::Ui) {
        let Some(sel) = self.selected else {
            ui.label("Click a trooper to see what it measures.");
            return;
        };
        let me = &self.scene.troopers[sel];
        ui.heading(&me.id);
        ui.label(format!(
            "S{} · facing {:.0}° · {} arc{}",
            me.body.silhouette.value(),
            me.body.facing_deg,
            match me.body.arc {
                crate::geometry::Arc::Front180 => "180°",
                crate::geometry::Arc::All360 => "360°",
            },
            if me.body.elevation_in > 0.0 { format!(" · {:.1}\" up", me.body.elevation_in) } else { String::new() }
        ));
        ui.separator();
        egui::Grid::new("pairs").striped(true).num_columns(4).show(ui, |ui| {
            ui.strong("to");
            ui.strong("distance");
            ui.strong("ZoC");
            ui.strong("LoF");
            ui.end_row();
            for m in self.pairs.iter().filter(|m| m.from == sel) {
                let other = &self.scene.troopers[m.to];
                ui.colored_label(plan::side_colour(other.side), &other.id);
                ui.label(self.length(m.distance_in));
                ui.label(match m.zoc {
                    ZocVerdict::Outside => "—",
                    ZocVerdict::Inside => "inside",
                    ZocVerdict::TotallyInside => "totally",
                });
                let by: Vec<&str> = m.lof.lof.blockers().iter().map(|&b| self.scene.blocker_id(b)).collect();
                let text = if by.is_empty() {
                    m.lof.lof.name().to_string()
                } else {
                    format!("{} ({})", m.lof.lof.name(), by.join(", "))
                };
                ui.colored_label(plan::verdict_colour(&m.lof.lof), text);
                ui.end_row();
            }
        });
    }
}

impl eframe::App for SightlineApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
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

    /// The whole window's contents (what [`eframe::App::ui`] draws; tests drive it headless).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.camera.poll(ui.ctx());
        egui::Panel::top("toolbar").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.strong("sightline");
                ui.separator();
                ui.selectable_value(&mut self.prefs.view, View::Camera, "Camera");
                ui.selectable_value(&mut self.prefs.view, View::Plan, "Plan");
                ui.separator();
                ui.label(&self.title);
                ui.separator();
                ui.label(format!("table {}\" × {}\"", self.scene.table.width, self.scene.table.depth));
            });
        });
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(format!("source: {}", self.camera.status));
                if let Some((w, h)) = self.camera.image_size() {
                    ui.separator();
                    ui.label(format!("{w}×{h}"));
                }
                if let Some(e) = &self.camera.error {
                    ui.separator();
                    ui.colored_label(egui::Color32::from_rgb(240, 120, 90), e);
                }
            });
        });
        egui::Panel::left("troopers").default_size(170.0).show(ui, |ui| self.troopers_panel(ui));
        egui::Panel::right("measures")
            .default_size(330.0)
            .show(ui, |ui| egui::ScrollArea::vertical().show(ui, |ui| self.measures_panel(ui)));
        egui::CentralPanel::default().show(ui, |ui| {
            if self.prefs.view == View::Camera {
                self.camera.show(ui);
                return;
            }
            let view = plan::PlanView {
                scene: &self.scene,
                pairs: &self.pairs,
                selected: self.selected,
                visibility: if self.prefs.visibility { &self.visibility } else { &[] },
                all_zoc: self.prefs.all_zoc,
            };
            if let Some(cmd) = view.ui(ui) {
                self.commands.push(cmd);
            }
        });
        for c in std::mem::take(&mut self.commands) {
            self.run_command(c);
        }
    }
}

/// Open the app window on `scene` (a scene file) or the bundled demo table, with the camera
/// `source` (the demo table when `None`); folder sources play at `fps`.
pub fn run(scene: Option<&Path>, source: Option<&crate::camera::SourceSpec>, fps: f64) -> anyhow::Result<()> {
    let (scene, title) = match scene {
        Some(p) => (crate::cli::load_scene(p).map_err(|e| anyhow::anyhow!(e.message))?, p.display().to_string()),
        None => (
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
            let opened = match &spec {
                crate::camera::SourceSpec::Demo => Ok(Box::new(crate::camera::demo::DemoSource::new(
                    crate::camera::demo::DemoCamera::default_demo(),
                    scene.clone(),
                )) as Box<dyn crate::camera::FrameSource>),
                other => crate::camera::open(other, fps),
            };
            let capture = opened
                .and_then(|src| crate::camera::Capture::start(src, move || ctx.request_repaint()))
                .map_err(|e| e.to_string());
            if let Err(e) = &capture {
                log::warn!("camera source: {e}");
            }
            let camera = camera_view::CameraState::new(capture);
            Ok(Box::new(SightlineApp::new(scene, title, camera, cc.storage)))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))
}
