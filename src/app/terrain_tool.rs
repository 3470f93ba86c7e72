//! Tracing the table's terrain in the app, before a game: a piece's top clicked corner by corner
//! on the picture (each click is put at the piece's height through the calibration's camera, so
//! a roof's corners land where the roof is, not where its foot would be) or on the plan, with
//! its id and height typed; pieces listed and taken away again; and the table written as a
//! scene file (`--scene`, `sightline measure`), so a home table is traced once.
//!
//! Space: table inches.

use super::Command;
use crate::geometry::{Scene, TablePoint, Terrain};
use std::path::{Path, PathBuf};

/// The height a new piece starts with, inches: a typical building storey.
pub const DEFAULT_HEIGHT_IN: f64 = 3.0;

/// A terrain piece being traced.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainDraft {
    /// Its id (unique among the scene's troopers and pieces).
    pub id: String,
    /// Its height above the table, inches.
    pub height_in: f64,
    /// The corners of its footprint so far, in order, inches.
    pub corners: Vec<TablePoint>,
    /// Why the last attempt to add it was refused.
    pub error: Option<String>,
    /// A corner typed in, inches (measured on the real table with a tape).
    pub typed: (f64, f64),
    /// The piece (its index in the scene's terrain) this draft edits: added, it takes that
    /// piece's place; `None` for a new piece.
    pub replacing: Option<usize>,
}

impl TerrainDraft {
    /// A new piece for `scene`: the first free id of `t1`, `t2` …, [`DEFAULT_HEIGHT_IN`] tall.
    pub fn new(scene: &Scene) -> Self {
        let taken = |id: &str| scene.terrain.iter().any(|t| t.id == id) || scene.trooper_index(id).is_some();
        let id = (1..).map(|n| format!("t{n}")).find(|id| !taken(id)).unwrap_or_default();
        Self { id, height_in: DEFAULT_HEIGHT_IN, corners: Vec::new(), error: None, typed: (0.0, 0.0), replacing: None }
    }

    /// A draft editing `scene`'s piece `k` (its id, height and corners), or `None` if there is
    /// no such piece.
    pub fn editing(scene: &Scene, k: usize) -> Option<Self> {
        let t = scene.terrain.get(k)?;
        let typed = t.polygon.last().map_or((0.0, 0.0), |p| (p.x, p.y));
        Some(Self {
            id: t.id.clone(),
            height_in: t.height_in,
            corners: t.polygon.clone(),
            error: None,
            typed,
            replacing: Some(k),
        })
    }

    /// `scene` with the piece added, or why not, in words: the piece's own faults (fewer than
    /// three corners, crossing edges, no height) or the scene's (an id already used, a trooper
    /// standing where the piece would be), each naming what is wrong.
    pub fn added_to(&self, scene: &Scene) -> Result<Scene, String> {
        if self.corners.len() < 3 {
            return Err(format!("{} corner(s): a piece needs at least 3", self.corners.len()));
        }
        let mut piece = Terrain::new(self.id.trim(), self.corners.clone(), self.height_in)
            .map_err(|e| format!("\"{}\": {e}", self.id.trim()))?;
        if scene.trooper_index(&piece.id).is_some() {
            return Err(format!("\"{}\" is a trooper's id; pieces and troopers share one set of ids", piece.id));
        }
        let mut terrain = scene.terrain.clone();
        let mut troopers = scene.troopers.clone();
        match self.replacing.filter(|&k| k < terrain.len()) {
            Some(k) => {
                // The piece edited keeps its ladders where they still lie along its outline, and
                // the troopers standing on its top stay on it, at its new height.
                let old = &terrain[k];
                for t in &mut troopers {
                    let on_top = (t.body.elevation_in - old.height_in).abs() <= crate::geometry::LEVEL_EPS_IN
                        && crate::geometry::surface_at(&terrain, t.body.centre).piece == Some(k);
                    if on_top
                        && crate::geometry::surface_at(std::slice::from_ref(&piece), t.body.centre).piece.is_some()
                    {
                        t.body.elevation_in = piece.height_in;
                    }
                }
                let ladders = old.ladders.clone();
                piece = piece.clone().with_ladders(ladders).unwrap_or(piece);
                terrain[k] = piece;
            }
            None => terrain.push(piece),
        }
        Scene::new(scene.table, troopers, terrain).map_err(|e| e.to_string())
    }
}

/// A ladder (or stairs) being put on a terrain piece: its two ends clicked along one side.
#[derive(Debug, Clone, PartialEq)]
pub struct LadderDraft {
    /// The piece (its index in the scene's terrain).
    pub piece: usize,
    /// The ends clicked so far, inches.
    pub ends: Vec<TablePoint>,
}

/// `scene` with a ladder up terrain piece `k` between the places clicked `a` and `b`, put on the
/// piece's side nearest to both ([`Terrain::ladder_between`]), or why not.
pub fn with_ladder(scene: &Scene, k: usize, a: TablePoint, b: TablePoint) -> Result<Scene, String> {
    let mut terrain = scene.terrain.clone();
    let Some(piece) = terrain.get(k).cloned() else { return Err(format!("there is no terrain piece {k}")) };
    let mut ladders = piece.ladders.clone();
    ladders.push(piece.ladder_between(a, b));
    terrain[k] = piece.with_ladders(ladders).map_err(|e| format!("\"{}\": {e}", terrain[k].id))?;
    scene.with_terrain(terrain).map_err(|e| e.to_string())
}

/// `scene` with terrain piece `k`'s ladders taken away.
pub fn without_ladders(scene: &Scene, k: usize) -> Result<Scene, String> {
    let mut terrain = scene.terrain.clone();
    let Some(piece) = terrain.get_mut(k) else { return Err(format!("there is no terrain piece {k}")) };
    piece.ladders.clear();
    scene.with_terrain(terrain).map_err(|e| e.to_string())
}

/// `scene` without terrain piece `k` (a piece traced by mistake).
pub fn removed_from(scene: &Scene, k: usize) -> Result<Scene, String> {
    let mut terrain = scene.terrain.clone();
    if k >= terrain.len() {
        return Err(format!("there is no terrain piece {k}"));
    }
    terrain.remove(k);
    scene.with_terrain(terrain).map_err(|e| e.to_string())
}

/// The first path `dir/sightline-table-N.json` not taken yet (never over an existing file).
pub fn fresh_table_path(dir: &Path) -> PathBuf {
    (1..)
        .map(|n| dir.join(format!("sightline-table-{n}.json")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join("sightline-table.json"))
}

/// Write `scene` as a scene file at `path`, which must not exist yet (a new file, written in
/// full or not at all: the text goes to a file created for it, then is synced).
pub fn save(scene: &Scene, path: &Path) -> Result<(), String> {
    use std::io::Write as _;
    let text = serde_json::to_string_pretty(&scene.to_json()).map_err(|e| e.to_string())?;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.write_all(b"\n"))
        .and_then(|()| f.sync_all())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The window for the piece being traced: its id and height, its corners, and Add, Undo corner
/// and Cancel.
pub fn draft_window(ctx: &egui::Context, draft: &mut TerrainDraft, commands: &mut Vec<Command>) {
    // Low on the left of the picture, clear of the trooper list and of the table's middle.
    let title = if draft.replacing.is_some() { "Edit terrain piece" } else { "New terrain piece" };
    let window = egui::Window::new(title).collapsible(false).resizable(false);
    window.anchor(egui::Align2::LEFT_BOTTOM, [180.0, -50.0]).show(ctx, |ui| {
        ui.label("Click the corners of its top, in order, on the picture or the plan.");
        ui.horizontal(|ui| {
            let label = ui.label("id");
            ui.add(egui::TextEdit::singleline(&mut draft.id).desired_width(80.0)).labelled_by(label.id);
            let label = ui.label("height");
            ui.add(egui::DragValue::new(&mut draft.height_in).speed(0.1).range(0.1..=50.0).suffix("\""))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            let label = ui.label("x");
            ui.add(egui::DragValue::new(&mut draft.typed.0).speed(0.1).suffix("\"")).labelled_by(label.id);
            let label = ui.label("y");
            ui.add(egui::DragValue::new(&mut draft.typed.1).speed(0.1).suffix("\"")).labelled_by(label.id);
            if ui.button("Add corner").on_hover_text("Add the corner typed (table inches)").clicked() {
                commands.push(Command::TerrainCorner(TablePoint::new(draft.typed.0, draft.typed.1)));
            }
        });
        ui.label(match draft.corners.last() {
            None => "no corners yet".to_string(),
            Some(p) => format!("{} corner(s), the last at ({:.1}, {:.1})", draft.corners.len(), p.x, p.y),
        });
        if let Some(e) = &draft.error {
            ui.colored_label(super::plan::BLOCKED_ROUTE, e);
        }
        ui.horizontal(|ui| {
            let done = if draft.replacing.is_some() { "Keep changes" } else { "Add piece" };
            if ui.add_enabled(draft.corners.len() >= 3, egui::Button::new(done)).clicked() {
                commands.push(Command::FinishTerrain);
            }
            if ui.add_enabled(!draft.corners.is_empty(), egui::Button::new("Undo corner")).clicked() {
                commands.push(Command::UndoTerrainCorner);
            }
            if ui.button("Cancel").clicked() {
                commands.push(Command::CancelTerrain);
            }
        });
    });
}
