//! A game file opened in the app (`sightline --game FILE`): the table, terrain and troopers come
//! from the game's setup and its events so far, and the camera calibration is the game's — the
//! setup's, or the latest `calibrate` event's — so a saved game reopens calibrated. A new
//! calibration (the camera was bumped) is appended to the file as a `calibrate` event, fsynced,
//! before the app uses it: nothing already saved is touched.

use crate::geometry::{Scene, SceneTrooper};
use crate::rules::{CalibrationPair, CalibrationSetup, Event, Game, Setup};
use crate::store::GameWriter;
use crate::vision::{Calibration, ImagePoint, PointPair};
use std::path::{Path, PathBuf};

/// An open game file, appended to as the game goes on.
#[derive(Debug)]
pub struct GameSession {
    path: PathBuf,
    writer: GameWriter,
    game: Game,
    /// Every event in the file, in order, and whether the rules took it (a file written by hand
    /// may hold refused ones: undo takes off the file's last line, whatever it is).
    events: Vec<(Event, bool)>,
}

/// What opening a game file gives the app.
#[derive(Debug)]
pub struct Opened {
    /// The file, open for appending.
    pub session: GameSession,
    /// The table as the game has it now: its terrain and the troopers on the table.
    pub scene: Scene,
    /// The game's calibration, if it has one (plain data: it is fitted against the camera's
    /// picture size once a frame arrives, see [`calibration_from_setup`]).
    pub calibration: Option<CalibrationSetup>,
    /// Things worth telling the player (a torn last line cut off, events the rules refused).
    pub notes: Vec<String>,
}

impl GameSession {
    /// Open `path`: read it, replay its events, and keep it open to append to. Errors name the
    /// file and what is wrong with it (its line, its field).
    pub fn open(path: &Path) -> Result<Opened, String> {
        let shown = path.display();
        let (writer, file) = GameWriter::open(path).map_err(|e| format!("{shown}: {e}"))?;
        let mut notes = Vec::new();
        if let Some(t) = &file.torn {
            notes.push(format!(
                "{shown}: line {} was torn ({} bytes: {}) and has been cut off",
                t.line, t.bytes, t.error
            ));
        }
        let events: Vec<Event> = file.events.iter().map(|l| l.event.clone()).collect();
        let (game, results) = Game::replay(file.setup.clone(), &events)
            .map_err(|e| format!("{shown}: setup: {}: {}", e.field, e.reason))?;
        for (logged, result) in file.events.iter().zip(&results) {
            if let Err(r) = result {
                notes.push(format!("{shown}: line {}: refused ({}): {}", logged.line, r.rule.name(), r.reason));
            }
        }
        let scene = scene_of(&game).map_err(|e| format!("{shown}: {e}"))?;
        let calibration = game.calibration().cloned();
        Ok(Opened {
            session: GameSession {
                path: path.to_path_buf(),
                writer,
                game,
                events: events.into_iter().zip(results.iter().map(Result::is_ok)).collect(),
            },
            scene,
            calibration,
            notes,
        })
    }

    /// Start a new game file at `path` from `setup` and open it: the setup is checked first as
    /// the game checks it (`sightline new` does the same; the error names the field), and an
    /// existing file is never written over.
    pub fn create(path: &Path, setup: &Setup) -> Result<Opened, String> {
        Game::new(setup.clone()).map_err(|e| format!("setup.{e}"))?;
        GameWriter::create(path, setup).map_err(|e| format!("{}: {e}", path.display()))?;
        GameSession::open(path)
    }

    /// Play `event`: the rules judge it and, accepted, it is appended to the file (fsynced) before
    /// the game moves on. Refused, or not written, the game and the file stay as they were, and
    /// the message says why (the rule and its reason, or the file and the error).
    pub fn play(&mut self, event: &Event) -> Result<(), String> {
        let next = self.game.apply(event).map_err(|r| format!("{}: {}", r.rule.name(), r.reason))?;
        self.writer.append(event).map_err(|e| format!("{}: {e}", self.path.display()))?;
        self.game = next;
        self.events.push((event.clone(), true));
        Ok(())
    }

    /// Every event in the file, in order, each with whether the rules took it.
    pub fn events(&self) -> &[(Event, bool)] {
        &self.events
    }

    /// Take the file's last event back: the file is rewritten without it (safely: a new file,
    /// fsynced, renamed over the old) and the game replayed. Returns the event taken back.
    pub fn undo(&mut self) -> Result<Event, String> {
        let Some((last, _)) = self.events.last().cloned() else { return Err("there is no event to undo".into()) };
        let shown = self.path.display().to_string();
        crate::store::truncate_events(&self.path, self.events.len() - 1).map_err(|e| format!("{shown}: {e}"))?;
        let opened = GameSession::open(&self.path)?;
        *self = opened.session;
        Ok(last)
    }

    /// The table as the game has it now (the troopers on the table, where they stand).
    pub fn scene(&self) -> Result<Scene, String> {
        scene_of(&self.game)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Keep `c` with the game: append a `calibrate` event (fsynced) and apply it.
    pub fn save_calibration(&mut self, c: &Calibration) -> Result<(), String> {
        let event = Event::Calibrate(setup_from_calibration(c));
        self.play(&event)
    }
}

/// The table of `game` as a scene: its size, terrain, and the troopers on the table.
fn scene_of(game: &Game) -> Result<Scene, String> {
    let setup = game.setup();
    let terrain = setup.terrain_pieces().map_err(|e| format!("setup: {}: {}", e.field, e.reason))?;
    let troopers = game
        .troopers()
        .iter()
        .filter_map(|t| {
            let body = t.body()?;
            Some(SceneTrooper { id: t.id.clone(), side: t.side, body, route: Vec::new() })
        })
        .collect();
    Scene::new(setup.table, troopers, terrain).map_err(|e| e.to_string())
}

/// A calibration as the game keeps it: the picture size and the pairs it was fitted from.
pub fn setup_from_calibration(c: &Calibration) -> CalibrationSetup {
    let pairs = c
        .pairs()
        .iter()
        .map(|p| CalibrationPair { pixel: (p.image.x, p.image.y), table: (p.table.x, p.table.y) })
        .collect();
    CalibrationSetup { image: c.image_size(), pairs }
}

/// Fit the game's calibration `setup` for a camera picture of `frame_size`: refused, with a
/// message saying why, when the picture is not the size it was made on (another camera or
/// resolution: the clicks mean nothing there) or the pairs do not fit.
pub fn calibration_from_setup(setup: &CalibrationSetup, frame_size: (u32, u32)) -> Result<Calibration, String> {
    if setup.image != frame_size {
        return Err(format!(
            "the game's calibration was made on a {}×{} picture and this camera gives {}×{}: calibrate again",
            setup.image.0, setup.image.1, frame_size.0, frame_size.1
        ));
    }
    let pairs: Vec<PointPair> = setup
        .pairs
        .iter()
        .map(|p| PointPair {
            image: ImagePoint::new(p.pixel.0, p.pixel.1),
            table: crate::geometry::TablePoint::new(p.table.0, p.table.1),
        })
        .collect();
    Calibration::fit(setup.image, &pairs)
        .map_err(|e| format!("the game's calibration does not fit: {e}: calibrate again"))
}
