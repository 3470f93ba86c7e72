//! Game files: durable appends, crash recovery (a torn last line), undo by truncation.

use sightline::rules::{Event, Game, Setup};
use sightline::store::{self, GameWriter, StoreError};
use std::io::Write as _;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sightline-store-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("game.jsonl")
}

fn setup() -> Setup {
    Setup::from_json(sightline::rules::EXAMPLE_SETUP_JSON).expect("setup")
}

fn events() -> Vec<Event> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/full-order-aros.jsonl"))
        .expect("fixture");
    store::parse(&text).expect("parses").events.into_iter().map(|e| e.event).collect()
}

#[test]
fn appended_events_read_back_in_order_and_replay_to_the_same_game() {
    let p = temp("append");
    let mut w = GameWriter::create(&p, &setup()).expect("create");
    let evs = events();
    for e in &evs {
        w.append(e).expect("append");
    }
    let file = store::load(&p).expect("load");
    assert_eq!(file.events.iter().map(|e| e.event.clone()).collect::<Vec<_>>(), evs);
    assert_eq!(file.events[0].line, 2, "the header is line 1");
    let (a, _) = Game::replay(setup(), &evs).expect("replay");
    let (b, _) = Game::replay(file.setup, &evs).expect("replay");
    assert_eq!(a, b);
}

#[test]
fn a_new_game_never_overwrites_an_old_one() {
    let p = temp("exists");
    GameWriter::create(&p, &setup()).expect("create");
    assert!(matches!(GameWriter::create(&p, &setup()), Err(StoreError::Exists(_))));
}

#[test]
fn a_torn_last_line_is_cut_off_before_appending_again() {
    let p = temp("torn");
    let mut w = GameWriter::create(&p, &setup()).expect("create");
    let evs = events();
    for e in &evs[..3] {
        w.append(e).expect("append");
    }
    drop(w);
    // A crash in the middle of writing event 4.
    let mut f = std::fs::OpenOptions::new().append(true).open(&p).expect("open");
    f.write_all(br#"{"type":"declare","skill":"mo"#).expect("write");
    drop(f);
    let file = store::load(&p).expect("a torn last line is not fatal");
    assert_eq!(file.events.len(), 3);
    assert_eq!(file.torn.as_ref().map(|t| t.line), Some(5));
    let (mut w, read) = GameWriter::open(&p).expect("reopen");
    assert_eq!(read.events.len(), 3);
    w.append(&evs[3]).expect("append");
    let file = store::load(&p).expect("load");
    assert!(file.torn.is_none());
    assert_eq!(file.events.len(), 4);
    assert_eq!(file.events[3].event, evs[3]);
}

#[test]
fn a_bad_line_that_is_not_the_last_is_an_error_with_its_number() {
    let p = temp("bad");
    let mut w = GameWriter::create(&p, &setup()).expect("create");
    w.append(&Event::OrderCount).expect("append");
    drop(w);
    let mut f = std::fs::OpenOptions::new().append(true).open(&p).expect("open");
    f.write_all(b"{\"type\":\"order_count\"\n{\"type\":\"end_turn\"}\n").expect("write");
    drop(f);
    match store::load(&p) {
        Err(StoreError::Line { line, .. }) => assert_eq!(line, 3),
        other => panic!("expected a line error, got {other:?}"),
    }
    // A complete (newline-terminated) last line that is bad is an error too, not a torn line.
    let p = temp("bad-last");
    let w = GameWriter::create(&p, &setup()).expect("create");
    drop(w);
    std::fs::OpenOptions::new()
        .append(true)
        .open(&p)
        .expect("open")
        .write_all(b"{\"type\":\"jump_for_joy\"}\n")
        .expect("write");
    assert!(matches!(store::load(&p), Err(StoreError::Line { line: 2, .. })));
}

#[test]
fn a_bad_line_names_its_event_or_the_field_s_path_and_the_column() {
    let header = |setup: &str| format!("{{\"format\": \"sightline-game\", \"version\": 1, \"setup\": {setup}}}\n");
    let good = serde_json::to_string(&setup()).expect("a setup");
    let reason = |text: &str| match store::parse(text) {
        Err(StoreError::Line { line, reason }) => (line, reason),
        other => panic!("expected a line error, got {other:?}"),
    };
    // Inside an event serde cannot follow the path: the event's type is named instead.
    let (line, r) =
        reason(&(header(&good) + "{\"type\": \"activate\", \"source\": \"bribe\", \"troopers\": [\"a1\"]}\n"));
    assert_eq!(line, 2);
    assert!(r.starts_with("in the \"activate\" event: unknown variant `bribe`, expected one of `regular`"), "{r}");
    // In the header, the field's path, in words, and the column (the line is named already).
    let bad = good.replacen("\"silhouette\":2", "\"silhouette\":\"two\"", 1);
    assert_ne!(bad, good, "the setup has an S2 trooper");
    let (line, r) = reason(&header(&bad));
    assert_eq!(line, 1);
    let column = header(&bad).find("\"two\"").expect("there") + "\"two\"".len();
    assert_eq!(
        r,
        format!(
            "header: setup.armies.A.groups[0].troopers[0].silhouette: invalid type: string \"two\", expected a whole \
             number from 0 to 255 (column {column})"
        )
    );
}

#[test]
fn undo_truncates_the_log_safely() {
    let p = temp("undo");
    let mut w = GameWriter::create(&p, &setup()).expect("create");
    let evs = events();
    for e in &evs {
        w.append(e).expect("append");
    }
    drop(w);
    let file = store::truncate_events(&p, 4).expect("truncate");
    assert_eq!(file.events.len(), 4);
    let again = store::load(&p).expect("load");
    assert_eq!(again.events.len(), 4);
    let (g, _) = Game::replay(again.setup, &evs[..4]).expect("replay");
    assert_eq!(g.order().map(|o| o.step), Some(sightline::rules::OrderStep::AroWindow1));
}

#[test]
fn a_calibration_is_part_of_the_game_and_can_be_redone_mid_game() {
    let mut s = setup();
    let pair =
        |px: f64, py: f64, tx: f64, ty: f64| sightline::rules::CalibrationPair { pixel: (px, py), table: (tx, ty) };
    s.calibration = Some(sightline::rules::CalibrationSetup {
        image: (1280, 720),
        pairs: vec![
            pair(100.0, 700.0, 0.0, 0.0),
            pair(1180.0, 700.0, 48.0, 0.0),
            pair(1000.0, 100.0, 48.0, 48.0),
            pair(280.0, 100.0, 0.0, 48.0),
        ],
    });
    let p = temp("calibration");
    let mut w = GameWriter::create(&p, &s).expect("create");
    w.append(&Event::OrderCount).expect("append");
    let mut bumped = s.calibration.clone().expect("set");
    bumped.pairs[0].pixel = (104.0, 702.0);
    w.append(&Event::Calibrate(bumped.clone())).expect("append");
    drop(w);
    let file = store::load(&p).expect("load");
    let evs: Vec<Event> = file.events.iter().map(|e| e.event.clone()).collect();
    let (before, _) = Game::replay(file.setup.clone(), &evs[..1]).expect("replay");
    assert_eq!(before.calibration(), s.calibration.as_ref(), "a saved game reopens calibrated");
    let (after, results) = Game::replay(file.setup, &evs).expect("replay");
    assert!(results.iter().all(|r| r.is_ok()));
    assert_eq!(after.calibration(), Some(&bumped));
    let mut bad = bumped;
    bad.pairs.truncate(3);
    assert!(after.apply(&Event::Calibrate(bad)).is_err());
}

/// A position is read back as the very number written: a game replayed from its file is the game
/// that was played, to the last bit (a tag at y = 0.9125823974609375 came back as …376 before
/// serde_json's `float_roundtrip`; found by `tests/app_monkey.rs`).
#[test]
fn numbers_in_a_game_file_read_back_exactly() {
    let p = temp("exact");
    let mut w = GameWriter::create(&p, &setup()).expect("create");
    let mut ys = vec![0.9125823974609375, 0.1 + 0.2, 1.0 / 3.0, 48.0f64.next_down()];
    // And numbers of every size, bits drawn at random (a fixed sequence).
    let mut bits = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..200 {
        bits ^= bits << 13;
        bits ^= bits >> 7;
        bits ^= bits << 17;
        ys.push(f64::from_bits((bits >> 12) | 0x3FF0_0000_0000_0000) * 16.0 - 16.0);
    }
    let events: Vec<Event> =
        ys.iter().map(|&y| Event::Deploy { trooper: "a1".into(), x: 12.0, y, facing: 90.0, elevation: 0.0 }).collect();
    for e in &events {
        w.append(e).expect("append");
    }
    let read: Vec<Event> = store::load(&p).expect("load").events.into_iter().map(|l| l.event).collect();
    for (k, (r, e)) in read.iter().zip(&events).enumerate() {
        if let (Event::Deploy { y: got, .. }, Event::Deploy { y: want, .. }) = (r, e) {
            assert_eq!(got.to_bits(), want.to_bits(), "event {k}: {want} read back as {got}");
        }
    }
    assert_eq!(read.len(), events.len());
}
