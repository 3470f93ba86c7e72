//! Game files: the setup plus its events, in JSON Lines — read, validate, append durably.
//!
//! Line 1 is the header `{"format": "sightline-game", "version": 1, "setup": {...}}`; every
//! further line is one event (see [`crate::rules::Event`]). Appending writes one line and
//! `fsync`s it, so a crash costs at most the event being written: on load, a torn last line (no
//! final newline, not valid JSON) is reported and skipped, never fatal. Any other bad line is an
//! error naming its line number and what is wrong with it.

pub mod army_code;
pub mod army_data;

use crate::rules::{Event, Setup};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

/// The `format` value of a game file's header.
pub const FORMAT: &str = "sightline-game";

/// The format version this build reads and writes.
pub const VERSION: u32 = 1;

/// A game file's first line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The game's setup.
    pub setup: Setup,
}

/// An event read from a file, with its line number (1-based; the header is line 1).
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedEvent {
    /// Line number in the file.
    pub line: usize,
    /// The event.
    pub event: Event,
}

/// A torn last line: written partly when the program stopped; skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TornLine {
    /// Its line number.
    pub line: usize,
    /// Its length in bytes.
    pub bytes: usize,
    /// Why it does not parse.
    pub error: String,
}

/// A game file read into memory.
#[derive(Debug, Clone, PartialEq)]
pub struct GameFile {
    /// The setup (from the header).
    pub setup: Setup,
    /// The events, in order.
    pub events: Vec<LoggedEvent>,
    /// A torn last line that was skipped, if any.
    pub torn: Option<TornLine>,
    /// Bytes of the file up to the end of the last good line.
    pub good_len: usize,
}

/// Why a game file cannot be read or written. The messages leave out the file's name: whoever
/// shows one puts the name in front, once.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file cannot be opened, read or written.
    #[error("{source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A line is not what it should be.
    #[error("line {line}: {reason}")]
    Line {
        /// Its number (1-based).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The file already exists (a new game never overwrites one).
    #[error("already exists; a new game is never written over an old one")]
    Exists(PathBuf),
}

/// One line of a game file read as JSON of type `T`. On an error, its message names the field
/// (its path, such as `setup.terrain[0].height`, where serde can follow it) and the column (the
/// caller names the line); and says whether the line is merely cut short or not JSON at all, as a
/// torn last line is.
fn read_line<T: serde::de::DeserializeOwned>(raw: &str) -> Result<T, (String, bool)> {
    crate::geometry::read_json_at(raw).map_err(|e| (e.described(true), e.error.is_eof() || e.error.is_syntax()))
}

/// The `type` an event line says it is, when it says one (for messages: an event's own fields
/// are read past its type, where serde cannot give their path).
fn event_type(raw: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(raw).ok()?;
    v.get("type")?.as_str().map(str::to_owned)
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io { path: path.to_path_buf(), source }
}

/// Parse a game file's text.
pub fn parse(text: &str) -> Result<GameFile, StoreError> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            lines.push((start, i, true));
            start = i + 1;
        }
    }
    if start < text.len() {
        lines.push((start, text.len(), false));
    }
    let mut header: Option<Header> = None;
    let mut events = Vec::new();
    let mut torn = None;
    let mut good_len = 0;
    let last = lines.len();
    for (k, &(a, b, terminated)) in lines.iter().enumerate() {
        let n = k + 1;
        let raw = text[a..b].trim_end_matches('\r');
        let is_last_unterminated = !terminated && n == last;
        if header.is_none() {
            match read_line::<Header>(raw) {
                Ok(h) => {
                    if h.format != FORMAT {
                        return Err(StoreError::Line {
                            line: n,
                            reason: format!("format is \"{}\", expected \"{FORMAT}\"", h.format),
                        });
                    }
                    if h.version != VERSION {
                        return Err(StoreError::Line {
                            line: n,
                            reason: format!("version {} (this build reads version {VERSION})", h.version),
                        });
                    }
                    header = Some(h);
                    good_len = if terminated { b + 1 } else { b };
                }
                Err((e, _)) => return Err(StoreError::Line { line: n, reason: format!("header: {e}") }),
            }
            continue;
        }
        if raw.trim().is_empty() {
            if terminated {
                good_len = b + 1;
            }
            continue;
        }
        match read_line::<Event>(raw) {
            Ok(event) => {
                events.push(LoggedEvent { line: n, event });
                good_len = if terminated { b + 1 } else { b };
            }
            Err((e, cut_short)) if is_last_unterminated && cut_short => {
                torn = Some(TornLine { line: n, bytes: raw.len(), error: e });
            }
            Err((e, _)) => {
                let reason = match event_type(raw) {
                    Some(t) => format!("in the \"{t}\" event: {e}"),
                    None => e,
                };
                return Err(StoreError::Line { line: n, reason });
            }
        }
    }
    let Some(h) = header else {
        return Err(StoreError::Line { line: 1, reason: "empty file: no header".into() });
    };
    Ok(GameFile { setup: h.setup, events, torn, good_len })
}

/// Read a game file.
pub fn load(path: &Path) -> Result<GameFile, StoreError> {
    let mut text = String::new();
    File::open(path).and_then(|mut f| f.read_to_string(&mut text)).map_err(io(path))?;
    parse(&text)
}

/// Appends events to a game file, one fsynced line each.
#[derive(Debug)]
pub struct GameWriter {
    path: PathBuf,
    file: File,
}

impl GameWriter {
    /// Start a new game file with its header; refuses to overwrite an existing file.
    pub fn create(path: &Path, setup: &Setup) -> Result<Self, StoreError> {
        let header = Header { format: FORMAT.into(), version: VERSION, setup: setup.clone() };
        let line = serde_json::to_string(&header).map_err(|e| StoreError::Line { line: 1, reason: e.to_string() })?;
        let mut file = OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                StoreError::Exists(path.to_path_buf())
            } else {
                io(path)(e)
            }
        })?;
        file.write_all(format!("{line}\n").as_bytes()).and_then(|()| file.sync_all()).map_err(io(path))?;
        sync_dir(path);
        Ok(Self { path: path.to_path_buf(), file })
    }

    /// Open an existing game file to append to it. A torn last line is cut off first (it was
    /// never a whole event), so the next event starts on a line of its own. Returns the file as read.
    pub fn open(path: &Path) -> Result<(Self, GameFile), StoreError> {
        let game = load(path)?;
        let file = OpenOptions::new().read(true).write(true).open(path).map_err(io(path))?;
        let len = file.metadata().map_err(io(path))?.len();
        if game.good_len as u64 != len {
            file.set_len(game.good_len as u64).and_then(|()| file.sync_all()).map_err(io(path))?;
        }
        let mut file = file;
        // Make sure the last good line ends with a newline.
        if game.good_len > 0 {
            let mut text = String::new();
            File::open(path).and_then(|mut f| f.read_to_string(&mut text)).map_err(io(path))?;
            if !text.ends_with('\n') {
                file.write_all(b"\n").and_then(|()| file.sync_all()).map_err(io(path))?;
            }
        }
        let file = OpenOptions::new().append(true).open(path).map_err(io(path))?;
        Ok((Self { path: path.to_path_buf(), file }, game))
    }

    /// Append one event and fsync it.
    pub fn append(&mut self, event: &Event) -> Result<(), StoreError> {
        let line = serde_json::to_string(event).map_err(|e| StoreError::Line { line: 0, reason: e.to_string() })?;
        self.file.write_all(format!("{line}\n").as_bytes()).and_then(|()| self.file.sync_data()).map_err(io(&self.path))
    }
}

/// Rewrite a game file keeping only its first `keep` events (undo to an earlier event), safely:
/// the new text goes to a temporary file beside it, is fsynced, then renamed over the old one.
pub fn truncate_events(path: &Path, keep: usize) -> Result<GameFile, StoreError> {
    let game = load(path)?;
    let header = Header { format: FORMAT.into(), version: VERSION, setup: game.setup.clone() };
    let mut text = serde_json::to_string(&header).map_err(|e| StoreError::Line { line: 1, reason: e.to_string() })?;
    text.push('\n');
    for e in game.events.iter().take(keep) {
        text.push_str(
            &serde_json::to_string(&e.event)
                .map_err(|err| StoreError::Line { line: e.line, reason: err.to_string() })?,
        );
        text.push('\n');
    }
    write_atomically(path, text.as_bytes())?;
    parse(&text)
}

/// Write `bytes` as the whole of the file at `path`, safely: to a temporary file beside it
/// (its name with `.tmp` added), fsynced, then renamed over the old one, so a crash leaves the
/// old file or the new one, never a torn one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    let mut f = File::create(&tmp).map_err(io(&tmp))?;
    f.write_all(bytes).and_then(|()| f.sync_all()).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))?;
    sync_dir(path);
    Ok(())
}

/// Save `setup` as a setup file (the JSON `sightline new` reads), pretty-printed, through
/// [`write_atomically`].
pub fn save_setup(path: &Path, setup: &Setup) -> Result<(), StoreError> {
    let text = serde_json::to_string_pretty(setup).map_err(|e| StoreError::Line { line: 1, reason: e.to_string() })?;
    write_atomically(path, format!("{text}\n").as_bytes())
}

/// Write one player's army list to the army file `path` ([`crate::rules::Army::to_file_json`]: no positions),
/// through a temporary file renamed into place.
pub fn save_army(path: &Path, army: &crate::rules::Army) -> Result<(), StoreError> {
    write_atomically(path, format!("{}\n", army.to_file_json()).as_bytes())
}

/// Read the army file `path`: the army, or what is wrong (the file cannot be read; a field,
/// named, is not what an army file holds).
pub fn load_army(path: &Path) -> Result<crate::rules::Army, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    crate::rules::Army::from_file_json(&text).map_err(|e| e.to_string())
}

/// fsync the directory holding `path`, so a new or renamed file survives a crash (best effort:
/// not every platform can open a directory).
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
}
