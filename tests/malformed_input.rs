//! Bad input never panics: random edits of every shipped scene, game file, army file, army data
//! and army code are read, and, where they are still accepted, measured or replayed, and every
//! refusal names where the problem is.
//!
//! The edits are the kind a hand-edited or half-copied file has: a value replaced by a number
//! far out of range, a negative one, another type, or another value of the same file (an id where
//! a number goes, two troopers with one id); a field or an array element dropped or doubled; an
//! event line dropped, doubled or moved; bytes of an army code changed, dropped or cut off.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::{Value, json};
use sightline::app::game_session::{GameSession, calibration_from_setup};
use sightline::cli;
use sightline::geometry::Scene;
use sightline::geometry::TablePoint;
use sightline::rules::{Army, CalibrationPair, CalibrationSetup, Event, Game, Setup, full_state};
use sightline::store::army_code::decode;

mod common;
use sightline::store::army_data::{ArmyData, army_from_code};
use sightline::store::{StoreError, parse};

/// One edit of a JSON document: which node (by its place in a pre-order walk, modulo the node
/// count), what to do there, and a number that picks among the choices the edit has.
#[derive(Debug, Clone, Copy)]
struct Edit {
    node: usize,
    kind: u8,
    pick: usize,
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(
        (any::<usize>(), 0u8..5, any::<usize>()).prop_map(|(node, kind, pick)| Edit { node, kind, pick }),
        1..4,
    )
}

/// Values out of every range a field has, and of every type.
fn wild(pick: usize) -> Value {
    let all = [
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(0.5),
        json!(-0.5),
        json!(1e-300),
        json!(1e300),
        json!(-1e300),
        json!(1e15),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(""),
        json!("x"),
        json!([]),
        json!({}),
        json!([0, 0]),
        json!([[0, 0]]),
    ];
    all[pick % all.len()].clone()
}

fn count(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count).sum(),
        Value::Object(m) => m.values().map(count).sum(),
        _ => 0,
    }
}

/// The node at pre-order place `k` (0 is the root).
fn node_mut(v: &mut Value, k: usize) -> Option<&mut Value> {
    fn walk<'a>(v: &'a mut Value, k: &mut usize) -> Option<&'a mut Value> {
        if *k == 0 {
            return Some(v);
        }
        *k -= 1;
        match v {
            Value::Array(a) => a.iter_mut().find_map(|c| walk(c, k)),
            Value::Object(m) => m.values_mut().find_map(|c| walk(c, k)),
            _ => None,
        }
    }
    let mut k = k;
    walk(v, &mut k)
}

fn node(v: &Value, k: usize) -> Option<Value> {
    let mut copy = v.clone();
    node_mut(&mut copy, k).map(|n| n.clone())
}

/// Apply `e` to `doc`; a short description of it, for the failure message.
fn apply(doc: &mut Value, e: Edit) -> String {
    let n = count(doc);
    let k = e.node % n;
    let donor = node(doc, e.pick % n).unwrap_or(Value::Null);
    let Some(at) = node_mut(doc, k) else { return "nothing".into() };
    match e.kind {
        0 => {
            let w = wild(e.pick);
            let s = format!("node {k} := {w}");
            *at = w;
            s
        }
        1 => {
            let s = format!("node {k} := node {} ({donor})", e.pick % n);
            *at = donor;
            s
        }
        2 => match at {
            Value::Object(m) if !m.is_empty() => {
                let key = m.keys().nth(e.pick % m.len()).cloned().unwrap_or_default();
                m.remove(&key);
                format!("node {k}: field {key} dropped")
            }
            Value::Array(a) if !a.is_empty() => {
                let i = e.pick % a.len();
                a.remove(i);
                format!("node {k}: element {i} dropped")
            }
            _ => "nothing".into(),
        },
        3 => match at {
            Value::Array(a) if !a.is_empty() => {
                let i = e.pick % a.len();
                let c = a[i].clone();
                a.push(c);
                format!("node {k}: element {i} doubled")
            }
            _ => "nothing".into(),
        },
        _ => match at.as_f64() {
            Some(x) => {
                let factors = [-1.0, 0.0, 10.0, 1e6, 1.0001, 0.5];
                let y = x * factors[e.pick % factors.len()];
                let s = format!("node {k}: {x} → {y}");
                *at = json!(y);
                s
            }
            None => "nothing".into(),
        },
    }
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// A runner for `cases` cases, times `SIGHTLINE_FUZZ_SCALE` (default 1), from seed
/// `SIGHTLINE_FUZZ_SEED` (default 7): fixed, so that a failure is found again on every run; set
/// them to explore further.
fn runner(cases: u32) -> TestRunner {
    let scale = u32::try_from(common::env("SIGHTLINE_FUZZ_SCALE", 1)).unwrap_or(u32::MAX);
    TestRunner::new_with_rng(
        Config { cases: cases.saturating_mul(scale), failure_persistence: None, ..Config::default() },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[common::env("SIGHTLINE_FUZZ_SEED", 7) as u8; 32]),
    )
}

/// Run `check` on `cases` random values of `strategy` ([`runner`]); `check` says whether the
/// edited input was accepted. Fails on a panic or a failed check, and when fewer than
/// `min_percent` of the cases were accepted: the edits must keep reaching past the first check,
/// into measuring, replaying or importing, or the test would only ever see refusals.
fn fuzz<S: Strategy>(
    what: &str,
    cases: u32,
    min_percent: u32,
    strategy: S,
    check: impl Fn(S::Value) -> Result<bool, TestCaseError>,
) {
    let accepted = std::cell::Cell::new(0u32);
    let mut runner = runner(cases);
    let total = runner.config().cases;
    runner
        .run(&strategy, |v| {
            if check(v)? {
                accepted.set(accepted.get() + 1);
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        accepted.get() * 100 >= total * min_percent,
        "{what}: only {} of {total} edited inputs were accepted",
        accepted.get()
    );
}

/// With `SIGHTLINE_FUZZ_SHOW` set, every refusal is printed, to read them.
fn show(kind: &str, message: &str) {
    if std::env::var_os("SIGHTLINE_FUZZ_SHOW").is_some() {
        eprintln!("REFUSED {kind}: {message}");
    }
}

/// A refusal's message names a place: a field by its path (`troopers[2].x`, `setup.table`) or
/// its name first (`format: ...`), a line, a column, a byte, an army code's header or a member of
/// one of its Combat Groups.
fn names_a_place(message: &str) -> bool {
    let dotted = message
        .as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_alphanumeric() && w[1] == b'.' && w[2].is_ascii_alphabetic());
    let field_first = message
        .split_once(": ")
        .is_some_and(|(field, _)| !field.is_empty() && field.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    dotted
        || field_first
        || ["line ", "column ", "byte ", "[", "Combat Group ", "the header"].iter().any(|p| message.contains(p))
}

/// A refusal of an edited input (`case`: which input, and its edits): shown, and checked to
/// name a place. `Ok(false)`: the input was not accepted.
fn refused(kind: &str, case: &str, message: &str) -> Result<bool, TestCaseError> {
    show(kind, message);
    prop_assert!(names_a_place(message), "{case}: {kind} refusal names no place: {message}");
    Ok(false)
}

const SCENES: [&str; 6] =
    ["demo.json", "heights.json", "ladder.json", "movement.json", "wall.json", "zoc-constants.json"];

#[test]
fn edited_scenes_are_refused_naming_the_field_or_measured_without_panicking() {
    for name in SCENES {
        let base: Value = serde_json::from_str(&read(&format!("assets/scenes/{name}"))).expect("a shipped scene");
        fuzz(name, 120, 10, edits(), |es| {
            let mut doc = base.clone();
            let what: Vec<String> = es.iter().map(|&e| apply(&mut doc, e)).collect();
            match Scene::from_json(&doc.to_string()) {
                Err(e) => refused("scene", &format!("{name} {what:?}"), &e.to_string()),
                Ok(scene) => {
                    let ids: Vec<String> = scene.troopers.iter().take(1).map(|t| t.id.clone()).collect();
                    let out = cli::measure(&scene, &ids);
                    prop_assert!(out.is_ok(), "{name} {what:?}: a valid scene not measured: {:?}", out.err());
                    Ok(true)
                }
            }
        });
    }
}

const GAMES: [&str; 10] = [
    "deployment-steps.jsonl",
    "fireteam-loses-member.jsonl",
    "full-order-aros.jsonl",
    "levels.jsonl",
    "loss-of-lieutenant.jsonl",
    "movement.jsonl",
    "rejected-declaration.jsonl",
    "stealth.jsonl",
    "torn-last-line.jsonl",
    "setup-small.json",
];

/// An edit of a game file: one of its lines edited as JSON, or lines dropped, doubled or moved.
fn edit_lines(lines: &mut Vec<String>, e: Edit) -> String {
    let n = lines.len();
    if n == 0 {
        return "nothing".into();
    }
    // Mostly edits inside a line; now and then a whole line.
    if e.node % 4 < 3 {
        let i = e.pick % n;
        return match serde_json::from_str::<Value>(&lines[i]) {
            Ok(mut v) => {
                let s = apply(&mut v, Edit { node: e.node / 4, ..e });
                lines[i] = v.to_string();
                format!("line {}: {s}", i + 1)
            }
            Err(_) => "nothing".into(),
        };
    }
    let (i, j) = (e.pick % n, (e.node / 4) % n);
    match e.kind % 3 {
        0 => {
            lines.remove(i);
            format!("line {} dropped", i + 1)
        }
        1 => {
            let l = lines[i].clone();
            lines.insert(j, l);
            format!("line {} doubled before line {}", i + 1, j + 1)
        }
        _ => {
            lines.swap(i, j);
            format!("lines {} and {} swapped", i + 1, j + 1)
        }
    }
}

#[test]
fn edited_game_files_are_refused_naming_the_line_or_replayed_without_panicking() {
    let mut games: Vec<(String, Vec<String>, bool)> = GAMES
        .iter()
        .map(|name| {
            let text = read(&format!("tests/fixtures/{name}"));
            // (The setup file is a game's first line.)
            let base: Vec<String> = if name.ends_with(".json") {
                let setup: Value = serde_json::from_str(&text).expect("a setup");
                vec![json!({"format": "sightline-game", "version": 1, "setup": setup}).to_string()]
            } else {
                text.lines().map(str::to_owned).collect()
            };
            (name.to_string(), base, !text.ends_with('\n'))
        })
        .collect();
    // A game with a calibration: the demo camera's view of the table's corners, edge middles and
    // centre, kept with the game after its header.
    let camera = sightline::camera::demo::DemoCamera::default_demo();
    let pairs =
        [(0.0, 0.0), (48.0, 0.0), (48.0, 48.0), (0.0, 48.0), (24.0, 0.0), (48.0, 24.0), (24.0, 24.0)].map(|(x, y)| {
            let (u, v) = camera.image_from_table(TablePoint::new(x, y), (48.0, 48.0)).expect("in view");
            CalibrationPair { pixel: (u, v), table: (x, y) }
        });
    let calibrate = Event::Calibrate(CalibrationSetup { image: (1280, 720), pairs: pairs.to_vec() });
    let mut calibrated = games.iter().find(|g| g.0 == "movement.jsonl").expect("the movement game").1.clone();
    calibrated.insert(1, serde_json::to_string(&calibrate).expect("an event"));
    games.push(("movement.jsonl, calibrated".into(), calibrated, false));
    // (Each game the rules take is opened as the app opens it, from a file, and must open: its
    // table, its calibration.)
    let dir = std::env::temp_dir().join(format!("sightline-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let opened = std::cell::Cell::new(0usize);
    for (name, base, torn) in &games {
        let (name, torn) = (name.as_str(), *torn);
        fuzz(name, 60, 10, edits(), |es| {
            let mut lines = base.clone();
            let what: Vec<String> = es.iter().map(|&e| edit_lines(&mut lines, e)).collect();
            let text = lines.join("\n") + if torn { "" } else { "\n" };
            match parse(&text) {
                Err(StoreError::Line { line, reason }) => {
                    show("game file", &format!("line {line}: {reason}"));
                    prop_assert!(
                        (1..=lines.len().max(1)).contains(&line) && !reason.trim().is_empty(),
                        "{name} {what:?}: line {line} of {}: {reason}",
                        lines.len()
                    );
                    Ok(false)
                }
                Err(e) => Err(TestCaseError::fail(format!("{name} {what:?}: not a line error: {e}"))),
                Ok(file) => match Game::new(file.setup) {
                    Err(e) => refused("setup", &format!("{name} {what:?}"), &e.to_string()),
                    Ok(mut game) => {
                        for logged in &file.events {
                            match game.apply(&logged.event) {
                                Ok(next) => game = next,
                                Err(r) => {
                                    show("event", &format!("line {}: {}", logged.line, r.reason));
                                    prop_assert!(
                                        !r.reason.trim().is_empty(),
                                        "{name} {what:?}: line {}: an empty rejection",
                                        logged.line
                                    )
                                }
                            }
                        }
                        let _ = full_state(&game);
                        opened.set(opened.get() + 1);
                        let path = dir.join(format!("game-{}.jsonl", opened.get()));
                        std::fs::write(&path, &text).expect("written");
                        match GameSession::open(&path) {
                            Ok(o) => {
                                if let Some(c) = &o.calibration
                                    && let Err(m) = calibration_from_setup(c, c.image)
                                {
                                    show("calibration", &m);
                                    prop_assert!(!m.trim().is_empty(), "{name} {what:?}: an empty refusal");
                                }
                            }
                            // (A game the rules take is one the app can show.)
                            Err(m) => {
                                prop_assert!(false, "{name} {what:?}: the rules take it, the app cannot open it: {m}")
                            }
                        }
                        let _ = std::fs::remove_file(&path);
                        Ok(true)
                    }
                },
            }
        });
    }
}

#[test]
fn edited_army_files_are_refused_naming_the_field_or_read_without_panicking() {
    let setup = Setup::from_json(&read("tests/fixtures/setup-small.json")).expect("the small setup");
    for (name, army) in [("army A", &setup.armies.a), ("army B", &setup.armies.b)] {
        let base: Value = serde_json::from_str(&army.to_file_json()).expect("an army file");
        fuzz(name, 150, 10, edits(), |es| {
            let mut doc = base.clone();
            let what: Vec<String> = es.iter().map(|&e| apply(&mut doc, e)).collect();
            match Army::from_file_json(&doc.to_string()) {
                Ok(_) => Ok(true),
                Err(e) => refused("army file", &format!("{name} {what:?}"), &e.to_string()),
            }
        });
    }
}

/// The army codes of the test vectors that decode.
fn codes() -> Vec<String> {
    let v: Value = serde_json::from_str(&read("tests/fixtures/army-codes/vectors.json")).expect("the vectors");
    v["vectors"]
        .as_array()
        .expect("a list of vectors")
        .iter()
        .filter_map(|c| c["code"].as_str().map(str::to_owned))
        .filter(|c| decode(c).is_ok())
        .collect()
}

#[test]
fn edited_army_data_is_refused_naming_the_field_or_imported_without_panicking() {
    let base: Value = serde_json::from_str(&read("tests/fixtures/army-data/invented-army.json")).expect("army data");
    // A public code whose one member the invented data describes, and one with a Lieutenant, a
    // profile with two options and a team sold as one option (tests/army_import.rs).
    let public = decode("gfUGbm9tYWRzASCBLAEBAQCEQwGPnwA=").expect("a code");
    let team = common::army_code(&[&[(1091, 1, 2), (1091, 1, 1), (3000, 1, 1)]]);
    let invented = ArmyData::from_json(&base.to_string()).expect("the invented army data");
    assert!(invented.unit_count() > 0);
    assert!(army_from_code(&team, &invented, "a").is_ok(), "the team code imports unedited");
    fuzz("army data", 300, 10, edits(), |es| {
        let mut doc = base.clone();
        let what: Vec<String> = es.iter().map(|&e| apply(&mut doc, e)).collect();
        match ArmyData::from_json(&doc.to_string()) {
            Err(e) => refused("army data", &format!("{what:?}"), &e.to_string()),
            Ok(data) => {
                for code in [&public, &team] {
                    if let Err(e) = army_from_code(code, &data, "a") {
                        refused("import", &format!("{what:?}"), &e.to_string())?;
                    }
                }
                Ok(true)
            }
        }
    });
}

#[test]
fn edited_army_codes_are_refused_naming_the_byte_or_decoded_without_panicking() {
    use base64::Engine as _;
    let engine = base64::engine::general_purpose::STANDARD;
    // (Some vectors are URL-encoded, some unpadded.)
    let codes: Vec<Vec<u8>> = codes()
        .iter()
        .filter_map(|c| {
            let text = percent_encoding::percent_decode_str(c.trim()).decode_utf8().ok()?;
            base64::engine::general_purpose::STANDARD_NO_PAD.decode(text.trim_end_matches('=')).ok()
        })
        .collect();
    assert!(codes.len() > 50, "the vectors' readable codes: {}", codes.len());
    let strategy = (any::<usize>(), prop::collection::vec((any::<usize>(), 0u8..4, any::<u8>()), 1..4));
    // (A code has little slack: most changed bytes make it unreadable.)
    fuzz("army codes", 2000, 5, strategy, |(which, changes)| {
        let mut bytes = codes[which % codes.len()].clone();
        for &(at, kind, b) in &changes {
            if bytes.is_empty() {
                break;
            }
            let i = at % bytes.len();
            match kind {
                0 => bytes[i] = b,
                1 => {
                    bytes.remove(i);
                }
                2 => bytes.insert(i, b),
                _ => bytes.truncate(i),
            }
        }
        let text = engine.encode(&bytes);
        match decode(&text) {
            Ok(_) => Ok(true),
            Err(e) => {
                let m = e.to_string();
                show("army code", &m);
                // (Unless it is about the code as a whole: empty, or a saved list's short id.)
                let whole = m.contains("it is empty") || m.contains("short id");
                prop_assert!(whole || names_a_place(&m), "{text}: refusal names no place: {m}");
                Ok(false)
            }
        }
    });
}
