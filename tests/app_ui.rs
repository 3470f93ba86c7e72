//! The app's behaviour, headless (egui_kittest): what a player sees and clicks.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use sightline::app::SightlineApp;
use sightline::app::camera_view::CameraState;
use sightline::geometry::Scene;

fn app(camera: CameraState) -> SightlineApp {
    let scene = Scene::from_json(sightline::DEMO_SCENE_JSON).expect("demo scene");
    SightlineApp::new(scene, "demo table".into(), camera, None)
}

/// The demo scene's app without a camera, in a 1280 × 900 window, its New game window open.
fn new_game_window() -> Harness<'static, SightlineApp> {
    let mut h = Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app(CameraState::new(Err("no camera".into()))));
    h.run();
    click_each(&mut h, &["New game…"]);
    h
}

/// An army code of the invented army's units 1091 and 3000 (`tests/fixtures/army-data/`): a LINER
/// Lieutenant, and a WALKER with its two DRONEs.
const INVENTED_CODE: &str = "pw8IaW52ZW50ZWQBIIEsAQECAIRDAQIAAIu4AQEA";

/// The demo scene's app with `camera`, in a 1280 × 800 window.
fn harness(camera: CameraState) -> Harness<'static, SightlineApp> {
    Harness::builder().with_size([1280.0, 800.0]).build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app(camera))
}

#[test]
fn clicking_a_trooper_in_the_list_selects_it_and_shows_its_measurements() {
    let mut h = harness(CameraState::new(Err("no camera".into())));
    h.run();
    assert_eq!(h.state().selected(), Some(0), "the first trooper is selected at start");
    h.get_by_label("b3-tag  S7").click();
    h.run();
    assert_eq!(h.state().selected(), Some(7));
    // The right panel now measures from b3-tag: its heading, and a row for a1-fusilier.
    assert!(h.query_all_by_label("b3-tag").count() >= 1);
    h.get_by_label("a1-fusilier");
}

#[test]
fn laying_the_selected_trooper_prone_measures_again_what_it_changes() {
    let mut h = harness(CameraState::new(Err("no camera".into())));
    h.run();
    let before = h.state().pairs().pairs().to_vec();
    h.get_by_label("Prone").click();
    h.run();
    let me = h.state().selected().expect("the first trooper");
    assert!(h.state().scene().troopers[me].body.prone);
    h.get_by_label("a1-fusilier  S2 prone");
    // The table shown is the changed scene's, and some line of fire changed with it.
    let after = h.state().pairs().pairs();
    assert_eq!(after, h.state().scene().all_pairs().as_slice());
    assert!(before.iter().zip(after).any(|(b, a)| b.lof != a.lof), "going prone changed no LoF");
    // And back up: the table is as it was.
    h.get_by_label("Prone").click();
    h.run();
    assert_eq!(h.state().pairs().pairs(), before.as_slice());
}

#[test]
fn a_missing_camera_is_shown_not_fatal_and_the_plan_still_works() {
    let mut h = harness(CameraState::new(Err("no camera found (is one plugged in?)".into())));
    h.run();
    h.get_by_label("no camera found (is one plugged in?)");
    h.get_by_label("Plan").click();
    h.run();
    h.get_by_label("Camera");
}

/// Calibrate on the undistorted demo picture with clicks 2–3 px off the corners, snapping on or
/// off; returns the worst table error at a few known points, inches.
fn calibrate_with_offset_clicks(snap: bool) -> f64 {
    use sightline::app::Command;
    use sightline::camera::demo::{DemoCamera, DemoSource, default_scene};
    use sightline::geometry::TablePoint;
    use sightline::vision::ImagePoint;
    // The demo picture without lens distortion, so the truth is a homography.
    let cam = DemoCamera { k1: 0.0, ..DemoCamera::default_demo() };
    let source = DemoSource::new(cam.clone(), default_scene());
    let capture = sightline::camera::Capture::start(Box::new(source), || {}).map_err(|e| e.to_string());
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app(CameraState::new(capture)));
    for _ in 0..2000 {
        h.run();
        if h.state().has_frame() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(h.state().has_frame(), "the demo frame arrived");
    if !snap {
        h.get_by_label("snap to corners").click();
    }
    h.get_by_label("Calibrate").click();
    h.run();
    let table = (48.0, 48.0);
    let truth = |x: f64, y: f64| cam.image_from_table(TablePoint::new(x, y), table).expect("in view");
    // Clicks 2–3 px off each corner; snapping finds the real corner.
    let offsets = [(2.0, -2.0), (-3.0, 1.0), (2.5, 2.0), (-2.0, -2.5)];
    for (k, &(x, y)) in [(0.0, 0.0), (48.0, 0.0), (48.0, 48.0), (0.0, 48.0)].iter().enumerate() {
        let (u, v) = truth(x, y);
        h.state_mut().command(Command::CalibrationClick(ImagePoint::new(u + offsets[k].0, v + offsets[k].1)));
    }
    h.run();
    let cal = h.state().calibration().expect("calibrated").clone();
    assert!(h.state().calibration_message().is_some_and(|m| m.contains("worst error")));
    [(8.0, 6.0), (24.0, 24.0), (44.0, 34.0), (2.0, 46.0), (46.0, 2.0)]
        .iter()
        .map(|&(x, y)| {
            let (u, v) = truth(x, y);
            cal.table_from_image(ImagePoint::new(u, v)).dist(TablePoint::new(x, y))
        })
        .fold(0.0, f64::max)
}

#[test]
fn calibrating_on_the_demo_picture_snapping_makes_rough_clicks_exact() {
    let snapped = calibrate_with_offset_clicks(true);
    assert!(snapped < 0.1, "with snapping: worst {snapped:.3}\"");
    let raw = calibrate_with_offset_clicks(false);
    assert!(raw > 0.1, "the same clicks unsnapped are off by {raw:.3}\" (so the snapping is what helps)");
}

/// Adding the edge middles as known points on the shipped demo picture, whose lens bends it
/// (k1 = −0.02), corrects the lens from the eighth point on: the status bar counts down to it and
/// then says so, and points the corners alone put 0.05"–0.12" off land within 0.01".
#[test]
fn known_points_correct_the_demo_lens_from_the_eighth_on() {
    use sightline::app::Command;
    use sightline::camera::demo::{DemoCamera, DemoSource, default_scene};
    use sightline::geometry::TablePoint;
    use sightline::vision::ImagePoint;
    let cam = DemoCamera::default_demo();
    assert!(cam.k1 < 0.0, "the shipped demo has a lens");
    let source = DemoSource::new(cam.clone(), default_scene());
    let capture = sightline::camera::Capture::start(Box::new(source), || {}).map_err(|e| e.to_string());
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app(CameraState::new(capture)));
    wait_for_frame(&mut h);
    h.get_by_label("snap to corners").click();
    h.get_by_label("Calibrate").click();
    h.run();
    let truth = |x: f64, y: f64| {
        let (u, v) = cam.image_from_table(TablePoint::new(x, y), (48.0, 48.0)).expect("in view");
        ImagePoint::new(u, v)
    };
    for &(x, y) in &[(0.0, 0.0), (48.0, 0.0), (48.0, 48.0), (0.0, 48.0)] {
        h.state_mut().command(Command::CalibrationClick(truth(x, y)));
    }
    h.run();
    let worst = |h: &Harness<'_, SightlineApp>| {
        let cal = h.state().calibration().expect("calibrated");
        [(8.0, 6.0), (24.0, 12.0), (44.0, 34.0), (30.0, 46.0), (46.0, 20.0), (12.0, 30.0)]
            .iter()
            .map(|&(x, y)| cal.table_from_image(truth(x, y)).dist(TablePoint::new(x, y)))
            .fold(0.0, f64::max)
    };
    let corners_alone = worst(&h);
    let message = h.state().calibration_message().unwrap_or_default().to_string();
    assert!(message.contains("lens not corrected (4 more known points needed)"), "{message}");
    for (k, &(x, y)) in [(24.0, 0.0), (48.0, 24.0), (24.0, 48.0), (0.0, 24.0)].iter().enumerate() {
        h.state_mut().command(Command::StartKnownPoint);
        h.state_mut().command(Command::KnownPointClick(truth(x, y)));
        h.state_mut().command(Command::AddKnownPoint((x, y)));
        h.run();
        let message = h.state().calibration_message().unwrap_or_default().to_string();
        assert_eq!(h.state().calibration().expect("calibrated").pairs().len(), 5 + k, "{message}");
        if k < 3 {
            assert!(message.contains(&format!("{} more known point", 3 - k)), "{message}");
        } else {
            assert!(message.contains("lens corrected (λ = -0.0"), "{message}");
        }
    }
    let with_lens = worst(&h);
    eprintln!("corners alone {corners_alone:.4}\", with the edge middles {with_lens:.4}\"");
    assert!(corners_alone > 0.05, "{corners_alone}");
    assert!(with_lens < 0.01, "{with_lens}");
}

/// In a small window (800×600) the side panels leave the picture a third of the width; the
/// Panels box hides them and the picture grows to the window's width, with the troopers' list
/// gone; ticked again, both come back.
#[test]
fn hiding_the_panels_gives_the_picture_the_window() {
    use sightline::camera::demo::{DemoCamera, DemoSource, default_scene};
    let source = DemoSource::new(DemoCamera::default_demo(), default_scene());
    let capture = sightline::camera::Capture::start(Box::new(source), || {}).map_err(|e| e.to_string());
    let mut h = Harness::builder()
        .with_size([800.0, 600.0])
        .build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app(CameraState::new(capture)));
    wait_for_frame(&mut h);
    h.run();
    let with_panels = h.state().picture_rect().expect("the picture is drawn").width();
    assert!(h.query_by_label("Troopers").is_some());
    h.get_by_label("Panels").click();
    h.run();
    h.run();
    let without = h.state().picture_rect().expect("the picture is drawn").width();
    assert!(h.query_by_label("Troopers").is_none(), "the troopers' list is hidden");
    assert!(with_panels < 450.0 && without > 750.0, "{with_panels} → {without}");
    h.get_by_label("Panels").click();
    h.run();
    h.run();
    assert!(h.query_by_label("Troopers").is_some());
    assert_eq!(h.state().picture_rect().expect("drawn").width(), with_panels);
}

/// Wait until the app has a camera frame.
fn wait_for_frame(h: &mut Harness<'_, SightlineApp>) {
    for _ in 0..2000 {
        h.run();
        if h.state().has_frame() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("no camera frame arrived");
}

/// The app on game file `path`, looking at the undistorted demo picture.
fn game_app(path: &std::path::Path) -> (Harness<'static, SightlineApp>, sightline::camera::demo::DemoCamera) {
    use sightline::app::game_session::GameSession;
    use sightline::camera::demo::{DemoCamera, DemoSource, default_scene};
    let cam = DemoCamera { k1: 0.0, ..DemoCamera::default_demo() };
    let capture = sightline::camera::Capture::start(Box::new(DemoSource::new(cam.clone(), default_scene())), || {})
        .map_err(|e| e.to_string());
    let opened = GameSession::open(path).expect("the game file opens");
    let app = SightlineApp::new(opened.scene.clone(), "game".into(), CameraState::new(capture), None).with_game(opened);
    let mut h =
        Harness::builder().with_size([1280.0, 800.0]).build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app);
    wait_for_frame(&mut h);
    (h, cam)
}

#[test]
fn a_game_keeps_its_calibration_in_its_file_and_reopens_calibrated() {
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    use sightline::rules::{Event, Setup};
    use sightline::vision::ImagePoint;
    let dir = fresh_dir("game");
    let path = dir.join("game.jsonl");
    let _ = std::fs::remove_file(&path);
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/setup-small.json"))
        .expect("setup fixture");
    let setup = Setup::from_json(&text).expect("valid setup");
    assert!(setup.calibration.is_none());
    drop(sightline::store::GameWriter::create(&path, &setup).expect("new game file"));

    // A new game: no calibration; the player clicks the four corners.
    let (mut h, cam) = game_app(&path);
    assert!(h.state().calibration().is_none());
    assert!(h.state().calibration_message().is_some_and(|m| m.contains("no calibration yet")));
    h.get_by_label("Calibrate").click();
    h.run();
    let table = (48.0, 48.0);
    let truth = |x: f64, y: f64| cam.image_from_table(TablePoint::new(x, y), table).expect("in view");
    for &(x, y) in &[(0.0, 0.0), (48.0, 0.0), (48.0, 48.0), (0.0, 48.0)] {
        let (u, v) = truth(x, y);
        h.state_mut().command(Command::CalibrationClick(ImagePoint::new(u, v)));
    }
    h.run();
    let message = h.state().calibration_message().unwrap_or_default().to_string();
    assert!(message.contains("saved to"), "{message}");
    // A further known point, the middle of the first long edge: its table position is guessed
    // from the calibration (to the nearest 0.5"), then added and refitted, and kept too.
    h.get_by_label("Add point").click();
    h.run();
    let (u, v) = truth(24.0, 0.0);
    h.state_mut().command(Command::KnownPointClick(ImagePoint::new(u, v)));
    h.run();
    h.get_by_label("Known point");
    h.get_by_label("Add").click();
    h.run();
    assert_eq!(h.state().calibration().expect("calibrated").pairs().len(), 5);
    let message = h.state().calibration_message().unwrap_or_default().to_string();
    assert!(message.contains("from 5 points") && message.contains("saved to"), "{message}");
    // A point that contradicts the others badly enough to make no homography (the same pixel as
    // the first corner, somewhere else on the table) is refused, naming it; nothing changes.
    h.state_mut().command(Command::StartKnownPoint);
    let (u0, v0) = truth(0.0, 0.0);
    h.state_mut().command(Command::KnownPointClick(ImagePoint::new(u0, v0)));
    h.state_mut().command(Command::AddKnownPoint((10.0, 30.0)));
    h.run();
    assert_eq!(h.state().calibration().expect("still calibrated").pairs().len(), 5);
    let message = h.state().calibration_message().unwrap_or_default().to_string();
    assert!(message.contains("(10, 30) not added"), "{message}");
    // The file now ends with that calibration, as a `calibrate` event.
    let file = sightline::store::load(&path).expect("the game file reads");
    let Some(Event::Calibrate(c)) = file.events.last().map(|l| &l.event) else {
        panic!("no calibrate event: {:?}", file.events)
    };
    assert_eq!(c.image, (cam.image[0], cam.image[1]), "the picture size it was made on");
    assert_eq!(c.pairs.len(), 5, "the corners and the further point");
    let corners_then_four = file.events.iter().filter(|l| matches!(l.event, Event::Calibrate(_))).count();
    assert_eq!(corners_then_four, 2, "one calibrate event for the corners, one for the added point");
    drop(h);

    // Reopened: calibrated from the file as soon as a frame is in, mapping as well as before.
    let (h, _) = game_app(&path);
    let cal = h.state().calibration().expect("calibrated from the game file");
    assert!(h.state().calibration_message().is_some_and(|m| m.contains("the game's calibration")));
    for &(x, y) in &[(10.0, 12.0), (24.0, 24.0), (40.0, 36.0)] {
        let (u, v) = truth(x, y);
        let err = cal.table_from_image(ImagePoint::new(u, v)).dist(TablePoint::new(x, y));
        assert!(err < 0.05, "({x}, {y}) off by {err:.3}\"");
    }
    drop(h);

    // A calibration made on another picture size is not applied: the player is told to redo it.
    let mut setup = setup;
    setup.calibration = Some(sightline::rules::CalibrationSetup { image: (640, 480), pairs: c.pairs.clone() });
    assert_ne!((cam.image[0], cam.image[1]), (640, 480));
    let other = dir.join("other-camera.jsonl");
    let _ = std::fs::remove_file(&other);
    drop(sightline::store::GameWriter::create(&other, &setup).expect("new game file"));
    let (h, _) = game_app(&other);
    assert!(h.state().calibration().is_none());
    let m = h.state().calibration_message().unwrap_or_default();
    assert!(m.contains("640×480") && m.contains("calibrate again"), "{m}");
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_game_file_is_refused_naming_the_file_and_line() {
    let dir = fresh_dir("badgame");
    let path = dir.join("bad.jsonl");
    std::fs::write(
        &path,
        "{\"format\": \"sightline-game\", \"version\": 1, \"setup\": {}}\n{not json}\n{\"also\": 1}\n",
    )
    .expect("write");
    let e = sightline::app::game_session::GameSession::open(&path).expect_err("refused");
    assert!(e.contains("bad.jsonl") && e.contains("line"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// In a game, the trooper list says each trooper's states (an Unconscious trooper is still on
/// the table, and a player must see it cannot act), and the measures panel its name.
#[test]
fn a_game_shows_troopers_states_and_names() {
    let dir = fresh_dir("states");
    let path = dir.join("game.jsonl");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/full-order-aros.jsonl"), &path)
        .expect("fixture copied");
    let (mut h, _) = game_app(&path);
    h.run();
    h.get_by_label("b2  S2 · unconscious");
    h.get_by_label("b_camo  S2 · camouflaged");
    h.get_by_label("b1  S2");
    let name = {
        let opened = sightline::app::game_session::GameSession::open(&path).expect("opens");
        opened.session.game().trooper("a_lt").expect("a_lt").name.clone()
    };
    // The card names it, and then its abilities on a line of their own that says so: a
    // Lieutenant called "Lieutenant" does not read as one line twice.
    h.get_by_label(&name);
    h.get_by_label("abilities: Lieutenant");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_selected_troopers_route_says_what_is_in_its_way() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/scenes/movement.json")).expect("scene");
    let scene = Scene::from_json(&text).expect("movement scene");
    let app = SightlineApp::new(scene, "movement".into(), CameraState::new(Err("no camera".into())), None);
    let mut h =
        Harness::builder().with_size([1280.0, 800.0]).build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app);
    h.run();
    // a1 (selected at start) walks into the 3" wall: the panel names it and where, in inches
    // along the route (the base reaches it 0.39" before the wall's face at x = 20, 14" along).
    h.get_by_label("Route: 24.00\"");
    h.get_by_label("into wall, 3.0\" high at 13.61\"–15.39\"");
    assert!(h.query_by_label_contains("into crate").is_none(), "the 1\" crate is vaulted: not in the way");
    h.get_by_label("a2  S2").click();
    h.run();
    h.get_by_label("through b2 (enemy) at 27.27\"–28.73\"");
    h.get_by_label("a3  S2").click();
    h.run();
    assert!(h.query_by_label("nothing in its way").is_none(), "a3 has no route: no route lines at all");
    assert!(h.query_by_label_contains("Route:").is_none());
}

/// A route that ends on a low piece ends up on it: the panel says at what level, and on what; one
/// that walks off a roof is stopped at its edge.
#[test]
fn a_route_onto_a_crate_ends_on_its_top_and_one_off_a_roof_is_stopped_at_the_edge() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/scenes/demo.json")).expect("demo");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    for t in v["troopers"].as_array_mut().expect("troopers") {
        match t["id"].as_str() {
            // Onto the 1" crates (x 32–35, y 10–12).
            Some("a2-fusilier") => t["route"] = serde_json::json!([[16.0, 12.0], [33.5, 11.0]]),
            // The sniper on the 5" tower (x 20–28, y 20–28), walking off its east edge.
            Some("a4-sniper") => t["route"] = serde_json::json!([[31.0, 22.0]]),
            _ => {}
        }
    }
    let scene = Scene::from_json(&v.to_string()).expect("scene");
    let app = SightlineApp::new(scene, "levels".into(), CameraState::new(Err("no camera".into())), None);
    let mut h =
        Harness::builder().with_size([1280.0, 800.0]).build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app);
    h.run();
    h.get_by_label("a2-fusilier  S2").click();
    h.run();
    h.get_by_label("ends 1.0\" up, on crates");
    h.get_by_label("nothing in its way");
    h.get_by_label("a4-sniper  S2").click();
    h.run();
    h.get_by_label("down 5.0\" off tower at 6.00\"");
    assert!(h.query_by_label_contains("ends ").is_none(), "it stays on the tower's level");
}

/// A new game file in a temp folder of its own: the setup of `fixture`, no events yet.
/// An empty folder of this test run's own, for game files: `sightline-app-TAG-PID` (emptied
/// first, should an earlier run with the same process id have left it).
fn fresh_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sightline-app-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn new_game_from(fixture: &str, tag: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = fresh_dir(tag);
    let path = dir.join("game.jsonl");
    let text =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture)).expect("fixture");
    std::fs::write(&path, format!("{}\n", text.lines().next().expect("header"))).expect("written");
    (dir, path)
}

/// Click each of `labels` in turn, letting the app run after each click.
fn click_each(h: &mut Harness<'_, SightlineApp>, labels: &[&str]) {
    for label in labels {
        h.get_by_label(label).click();
        h.run();
    }
}

/// The events in game file `path`, as saved.
fn saved_events(path: &std::path::Path) -> Vec<sightline::rules::Event> {
    sightline::store::load(path).expect("the game file reads").events.into_iter().map(|l| l.event).collect()
}

#[test]
fn an_order_played_in_the_app_is_saved_event_by_event_as_the_rules_take_it() {
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    use sightline::rules::Event;
    let (dir, path) = new_game_from("tests/fixtures/full-order-aros.jsonl", "play");
    let (mut h, _) = game_app(&path);
    h.run();
    h.get_by_label("Round 1 · Turn 1 · A active · Tactical Phase");
    h.get_by_label("Order Count").click();
    h.run();
    h.get_by_label("End Impetuous Phase").click();
    h.run();
    let pool = |h: &Harness<'_, SightlineApp>| h.state().game().map(|g| g.game().pool(sightline::geometry::Side::A, 0));
    let counted = pool(&h).expect("a game");
    h.get_by_label(&format!(
        "Orders: G1 {counted} · G2 {}",
        h.state().game().expect("a game").game().pool(sightline::geometry::Side::A, 1)
    ));
    h.get_by_label("a1  S2").click();
    h.run();
    h.get_by_label("Activate a1").click();
    h.run();
    // The Team Leader's Order activates core-a: a route for each, clicked on the table.
    for (who, route) in
        [("a1", vec![(16.0, 12.0), (16.0, 18.0)]), ("a2", vec![(18.0, 12.0)]), ("a3", vec![(20.0, 12.0)])]
    {
        h.state_mut().command(Command::RouteOf(who.into()));
        for (x, y) in route {
            h.state_mut().command(Command::RoutePoint(TablePoint::new(x, y)));
        }
    }
    h.run();
    h.get_by_label("a3: 1 point, to (20.0, 12.0): 6.32\"");
    h.get_by_label("Declare Move").click();
    h.run();
    // Window 1: the panel lists who may react, with why; b1 and b2 shoot, the rest pass.
    let eligible: Vec<String> = h
        .state()
        .game()
        .and_then(|g| g.game().order())
        .map(|o| o.eligible_now().into_iter().map(|(id, _)| id.clone()).collect())
        .unwrap_or_default();
    assert!(eligible.contains(&"b1".to_string()) && eligible.contains(&"b2".to_string()), "{eligible:?}");
    assert!(h.query_all_by_label_contains("LoF to a1 from").next().is_some(), "the panel says why they may react");
    click_each(&mut h, &["Declare ARO of b1", "Declare ARO of b2", "Close ARO window 1"]);
    h.state_mut().command(Command::RoutePoint(TablePoint::new(14.0, 24.0)));
    h.run();
    click_each(&mut h, &["Declare Move", "Declare ARO of b3", "Close ARO window 2"]);
    h.get_by_label("Step 5: Resolution");
    h.get_by_label("Resolve").click();
    h.run();
    let expected: Vec<Event> = [
        r#"{"type": "order_count"}"#,
        r#"{"type": "end_impetuous_phase"}"#,
        r#"{"type": "activate", "source": "regular", "troopers": ["a1"]}"#,
        r#"{"type": "declare", "skill": "move", "moves": [{"trooper": "a1", "route": [[16, 12], [16, 18]]}, {"trooper": "a2", "route": [[18, 12]]}, {"trooper": "a3", "route": [[20, 12]]}]}"#,
        r#"{"type": "declare_aro", "trooper": "b1", "skill": "bs_attack", "target": "a1"}"#,
        r#"{"type": "declare_aro", "trooper": "b2", "skill": "bs_attack", "target": "a1"}"#,
        r#"{"type": "close_aro_window"}"#,
        r#"{"type": "declare", "skill": "move", "moves": [{"trooper": "a1", "route": [[14, 24]]}]}"#,
        r#"{"type": "declare_aro", "trooper": "b3", "skill": "bs_attack", "target": "a1"}"#,
        r#"{"type": "close_aro_window"}"#,
        r#"{"type": "resolve"}"#,
    ]
    .iter()
    .map(|l| serde_json::from_str(l).expect("an event"))
    .collect();
    assert_eq!(saved_events(&path), expected, "the file holds every event, in order");
    // The table follows the game: a1 stands where its second Move took it, and is measured there.
    let app = h.state();
    let a1 = app.scene().troopers.iter().position(|t| t.id == "a1").expect("a1");
    assert!(app.scene().troopers[a1].body.centre.dist(TablePoint::new(14.0, 24.0)) < 1e-9);
    let fresh = sightline::geometry::PairTable::new(app.scene());
    assert_eq!(app.pairs().pairs(), fresh.pairs(), "the measurements are of the table as it is now");
    assert!(app.game().and_then(|g| g.game().order()).is_none(), "the Order is over");
    assert_eq!(pool(&h), Some(counted - 1), "the Regular Order was spent from Combat Group 1");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_illegal_declaration_in_the_app_is_refused_naming_the_rule_and_nothing_is_saved() {
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let (dir, path) = new_game_from("tests/fixtures/movement.jsonl", "refuse");
    let (mut h, _) = game_app(&path);
    h.run();
    h.get_by_label("Order Count").click();
    h.run();
    let saved = saved_events(&path);
    // a1 (MOV 4-2, at (16, 10)) is told to go 8" up the table: twice its first MOV value.
    h.get_by_label("a1  S2").click();
    h.run();
    h.get_by_label("Activate a1").click();
    h.run();
    let start = TablePoint::new(16.0, 10.0);
    h.state_mut().command(Command::RoutePoint(TablePoint::new(16.0, 18.0)));
    h.run();
    h.get_by_label("a1: 1 point, to (16.0, 18.0): 8.00\", MOV 4-2");
    let before = saved_events(&path);
    assert_eq!(before.len(), saved.len() + 1, "the activation was saved");
    // Greyed out beforehand, saying why; played all the same (a stale click), refused.
    assert!(disabled(&h, "Declare Move"), "the rules would refuse it");
    h.get_by_label_contains("Not now: Move — a1 would move 8.000\" in its first Move; its MOV is 4-2, so at most 4\"");
    let declaration = h.state().draft().declaration();
    h.state_mut().command(Command::Play(sightline::rules::Event::Declare(declaration)));
    h.run();
    h.get_by_label_contains("Refused — Move: ");
    assert_eq!(saved_events(&path), before, "a refused declaration is not written");
    let here = h.state().scene().troopers.iter().find(|t| t.id == "a1").expect("on the table").body.centre;
    assert!(here.dist(start) < 1e-9, "and nobody moved");
    // Undo takes the activation back: the file loses its last line, the Order is unspent.
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(saved_events(&path), saved);
    assert!(h.state().game().is_some_and(|g| g.game().order().is_none()));
    h.get_by_label_contains("undone: activate");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two troopers set base to base are in Close Combat: the engine makes both Engaged, the list
/// says so, and the app rings them on the plan and the picture (`close_combat_pairs`).
#[test]
fn troopers_in_close_combat_are_listed_engaged_and_ringed() {
    let dir = fresh_dir("close-combat");
    let path = dir.join("game.jsonl");
    let t = |id: &str, x: f64, y: f64, lt: bool| {
        let abilities = if lt { serde_json::json!(["lieutenant"]) } else { serde_json::json!([]) };
        serde_json::json!({"id": id, "silhouette": 2, "points": 10, "abilities": abilities,
                           "position": {"x": x, "y": y, "facing": 0.0}})
    };
    let touch = 25.0 / 25.4;
    let army = |troopers: Vec<serde_json::Value>| serde_json::json!({"groups": [{"troopers": troopers}]});
    let setup = serde_json::json!({"table": {"width": 48, "depth": 48}, "terrain": [], "first": "A", "armies": {
        "A": army(vec![t("a_lt", 2.0, 2.0, true), t("a1", 20.0, 20.0, false)]),
        "B": army(vec![t("b_lt", 46.0, 46.0, true), t("b1", 20.0 + touch, 20.0, false), t("b2", 30.0, 20.0, false)])}});
    let header = serde_json::json!({"format": "sightline-game", "version": 1, "setup": setup});
    std::fs::write(&path, format!("{header}\n")).expect("written");
    let (h, _) = game_app(&path);
    let app = h.state();
    let names: Vec<(String, String)> = app
        .close_combat_pairs()
        .iter()
        .map(|&(i, j)| (app.scene().troopers[i].id.clone(), app.scene().troopers[j].id.clone()))
        .collect();
    assert_eq!(names, vec![("a1".to_string(), "b1".to_string())]);
    assert_eq!(h.query_all_by_label_contains("engaged").count(), 2, "a1 and b1 listed as engaged");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Climb drafted in the app (levels.jsonl's table: a1 at the foot of a 3" building, b1 behind a
/// wall that hides the foot): the panel measures it as Climb does and says where it ends; declared,
/// a1 stands on the roof and b1, who sees the roof, may react.
#[test]
fn a_climb_drafted_in_the_panel_is_measured_as_climb_measures_it_and_lands_on_the_roof() {
    use egui::accesskit::Role;
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let (dir, path) = new_game_from("tests/fixtures/levels.jsonl", "climb");
    let (mut h, _) = game_app(&path);
    h.run();
    click_each(&mut h, &["Order Count", "a1  S2", "Activate a1"]);
    h.get_by_role_and_label(Role::ComboBox, "Skill:").click();
    h.run();
    h.get_by_label("Climb").click();
    h.run();
    h.state_mut().command(Command::RouteClick(TablePoint::new(10.5, 23.0)));
    h.run();
    h.get_by_label("Route: 1.74\" (1.00\" across)");
    h.get_by_label("ends 3.0\" up, on building");
    h.get_by_label("nothing in its way");
    h.get_by_label("Declare Climb").click();
    h.run();
    let a1 = h.state().game().and_then(|g| g.game().trooper("a1").and_then(|t| t.position)).expect("a1");
    assert_eq!((a1.x, a1.y, a1.elevation), (10.5, 23.0, 3.0));
    h.get_by_label("Declare ARO of b1");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Executive Use panel says what the army's Fireteams Chart makes of the ticked members
/// before the Command Token is spent, and the rules refuse the Fireteam for the same reason.
#[test]
fn the_executive_use_panel_says_when_the_fireteams_chart_does_not_take_the_ticked_troopers() {
    use egui::accesskit::Role;
    let (dir, path) = new_game_from("tests/fixtures/full-order-aros.jsonl", "chartpanel");
    // Its A army gets a chart whose only team is a Core of LINE troopers, and two of them.
    let text = std::fs::read_to_string(&path).expect("the header");
    let mut header: serde_json::Value = serde_json::from_str(text.trim()).expect("a JSON header");
    let army = &mut header["setup"]["armies"]["A"];
    army["fireteam_chart"] = serde_json::json!([
        {"name": "Line Fireteams", "types": ["core"], "units": [{"unit": "line", "name": "LINE", "min": 1, "max": 5}]}
    ]);
    for t in army["groups"][0]["troopers"].as_array_mut().expect("A's troopers") {
        if ["a_lt", "a_imp"].contains(&t["id"].as_str().unwrap_or_default()) {
            t["unit"] = serde_json::json!("line");
        }
    }
    std::fs::write(&path, format!("{header}\n")).expect("written");
    let (mut h, _) = game_app(&path);
    h.run();
    h.get_by_label("Create a Fireteam (1 Command Token)").click();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "id").focus();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "id").type_text("duo-a");
    h.run();
    h.get_by_role_and_label(Role::ComboBox, "type").click();
    h.run();
    h.get_by_label("duo").click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "a_lt").click();
    h.run();
    let said = "Fireteams Chart: this army's Fireteams Chart has no team that may be a Duo";
    assert!(h.query_by_label(said).is_none(), "nothing said for one member");
    h.get_by_role_and_label(Role::CheckBox, "a_imp").click();
    h.run();
    h.get_by_label(said);
    h.get_by_label("Create Fireteam").click();
    h.run();
    // (Refused, saying why, beside the panel's warning, which still stands.)
    h.get_by_label_contains("Refused — ");
    assert_eq!(h.query_all_by_label_contains("no team that may be a Duo").count(), 2);
    let formed = |g: &sightline::rules::Game| g.fireteams(sightline::geometry::Side::A).iter().any(|f| f.id == "duo-a");
    assert!(h.state().game().is_some_and(|g| !formed(g.game())), "no Duo formed");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fireteams_templates_and_outcomes_are_put_together_in_the_panel_and_saved_as_events() {
    use egui::accesskit::Role;
    use sightline::geometry::TablePoint;
    use sightline::rules::Event;
    let (dir, path) = new_game_from("tests/fixtures/full-order-aros.jsonl", "panel");
    let (mut h, _) = game_app(&path);
    h.run();
    // Executive Use: a Duo of the Lieutenant (leading) and the Berserker.
    h.get_by_label("Create a Fireteam (1 Command Token)").click();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "id").focus();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "id").type_text("duo-a");
    h.run();
    assert_eq!(h.get_by_role_and_label(Role::TextInput, "id").value().as_deref(), Some("duo-a"));
    h.get_by_role_and_label(Role::ComboBox, "type").click();
    h.run();
    h.get_by_label("duo").click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "a_lt").click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "a_imp").click();
    h.run();
    h.get_by_label("Create Fireteam").click();
    h.run();
    assert!(h.query_by_label_contains("Refused").is_none(), "the Duo was created");
    h.get_by_label_contains("duo-a (duo): a_lt (leader), a_imp");
    click_each(&mut h, &["Order Count", "End Impetuous Phase", "a_nco  S2", "Activate a_nco"]);
    // A BS Attack at an enemy it sees, which is also under the Template.
    let target = {
        let app = h.state();
        let me = app.scene().troopers.iter().position(|t| t.id == "a_nco").expect("a_nco");
        let seen = app.pairs().pairs().iter().find(|m| {
            m.from == me && m.lof.lof.has_lof() && app.scene().troopers[m.to].side == sightline::geometry::Side::B
        });
        app.scene().troopers[seen.expect("a_nco sees an enemy").to].id.clone()
    };
    h.get_by_role_and_label(Role::ComboBox, "Skill:").click();
    h.run();
    h.get_by_label("BS Attack").click();
    h.run();
    let boxes: Vec<_> = h.get_all_by_role_and_label(Role::CheckBox, &target).collect();
    assert_eq!(boxes.len(), 2, "a target box and a Template box");
    boxes[0].click();
    boxes[1].click();
    h.run();
    h.get_by_label("Declare BS Attack").click();
    h.run();
    h.get_by_label("Close ARO window 1").click();
    h.run();
    // Resolution, skipping the second skill: the target falls, a_nco is placed 2" on.
    let outcome = |h: &mut Harness<'_, SightlineApp>, k: usize, choice: &str| {
        h.get_all_by_role_and_label(Role::ComboBox, "Outcome:").nth(k).expect("an outcome box").click();
        h.run();
        h.get_by_role_and_label(Role::Button, choice).click();
        h.run();
    };
    outcome(&mut h, 0, &target);
    h.get_by_label("Add outcome").click();
    h.run();
    outcome(&mut h, 0, "a_nco");
    outcome(&mut h, 1, "is placed at");
    h.get_by_label("Click the table where a_nco now stands, or type it.");
    // Pressed on the plan at (40, 8) and dragged towards (40, 12): placed there facing +y, 90°.
    h.get_by_label("Plan").click();
    h.run();
    drag_on_plan(&mut h, (40.0, 8.0), (40.0, 12.0));
    h.get_by_label("Add outcome").click();
    h.run();
    h.get_by_label(&format!("{target} enters unconscious"));
    h.get_by_label("Resolve").click();
    h.run();
    let expected: Vec<Event> = [
        r#"{"type": "create_fireteam", "id": "duo-a", "kind": "duo", "leader": "a_lt", "members": ["a_lt", "a_imp"]}"#
            .to_string(),
        r#"{"type": "order_count"}"#.into(),
        r#"{"type": "end_impetuous_phase"}"#.into(),
        r#"{"type": "activate", "source": "regular", "troopers": ["a_nco"]}"#.into(),
        format!(
            r#"{{"type": "declare", "skill": "bs_attack", "targets": ["{target}"], "template_hits": ["{target}"]}}"#
        ),
        r#"{"type": "close_aro_window"}"#.into(),
        format!(
            r#"{{"type": "resolve", "outcomes": [{{"type": "enter", "trooper": "{target}", "state": "unconscious"}},
               {{"type": "place", "trooper": "a_nco", "x": 40, "y": 8, "facing": 90}}]}}"#
        ),
    ]
    .iter()
    .map(|l| serde_json::from_str(l).expect("an event"))
    .collect();
    assert_eq!(saved_events(&path), expected);
    let nco = h.state().scene().troopers.iter().find(|t| t.id == "a_nco").expect("a_nco").body;
    assert!(nco.centre.dist(TablePoint::new(40.0, 8.0)) < 1e-9, "placed where the press was");
    assert_eq!(nco.facing_deg, 90.0, "facing the way it was dragged");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_strategic_use_is_offered_once_and_a_trooper_not_on_the_table_is_activated_and_enters_where_its_route_begins() {
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let (dir, path) = new_game_from("tests/fixtures/full-order-aros.jsonl", "enter");
    let (mut h, _) = game_app(&path);
    h.run();
    h.get_by_label("Order Count").click();
    h.run();
    h.get_by_label("End Impetuous Phase").click();
    h.run();
    // Before A's first Order, B may make its Strategic Use of a Command Token.
    h.get_by_label("B: Strategic Use of a Command Token").click();
    h.run();
    h.get_by_label("Limit A to 1 Command Token").click();
    h.run();
    assert_eq!(
        saved_events(&path).last(),
        Some(
            &serde_json::from_str(r#"{"type": "strategic_command_token", "use": "limit_command_tokens"}"#)
                .expect("event")
        )
    );
    assert!(h.query_by_label("B: Strategic Use of a Command Token").is_none(), "once a game");
    assert!(h.state().scene().troopers.iter().all(|t| t.id != "a_ad"), "the Paratrooper is not on the table");
    h.get_by_label("a_ad  not on the table").click();
    h.run();
    h.get_by_label("not on the table: its first route point is where it enters");
    h.get_by_label("Activate a_ad").click();
    h.run();
    h.state_mut().command(Command::RoutePoint(TablePoint::new(30.0, 40.0)));
    h.state_mut().command(Command::RoutePoint(TablePoint::new(30.0, 38.0)));
    h.run();
    h.get_by_label("Declare Move").click();
    h.run();
    assert!(h.query_by_label_contains("Refused").is_none());
    let app = h.state();
    let ad = app.scene().troopers.iter().position(|t| t.id == "a_ad").expect("on the table now");
    assert!(app.scene().troopers[ad].body.centre.dist(TablePoint::new(30.0, 38.0)) < 1e-9);
    assert_eq!(app.selected(), Some(ad), "and still selected");
    assert_eq!(app.pairs().pairs(), sightline::geometry::PairTable::new(app.scene()).pairs(), "and measured");
    assert!(h.query_by_label("a_ad  not on the table").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_game_log_marks_the_events_the_rules_refused() {
    let dir = fresh_dir("log");
    let path = dir.join("game.jsonl");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/rejected-declaration.jsonl"), &path)
        .expect("fixture copied");
    let (mut h, _) = game_app(&path);
    h.run();
    // The last three lines: a close (taken), a Dodge after all the Order's skills (refused), the resolve (taken).
    h.get_by_label("refused: declare Dodge");
    h.get_by_label("resolve (0 outcomes)");
    assert_eq!(h.query_all_by_label_contains("refused: ").count(), 1);
    h.get_by_label("10 events in the game file");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn deployment_tags_each_model_where_it_stands_and_moves_on_to_the_next() {
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let (dir, path) = new_game_from("tests/fixtures/full-order-aros.jsonl", "deploy");
    let (mut h, _) = game_app(&path);
    h.run();
    h.get_by_label("Tag where Models stand").click();
    h.run();
    h.get_by_label("a1  S2").click();
    h.run();
    h.get_by_label("Click the table where a1 stands.");
    h.state_mut().command(Command::DeployAt(TablePoint::new(12.0, 6.0), 0.0));
    h.run();
    // a1 stands there, and a2 (next in the list) is the one the next click tags.
    let at = |h: &Harness<'_, SightlineApp>, id: &str| {
        h.state().scene().troopers.iter().find(|t| t.id == id).map(|t| (t.body.centre, t.body.elevation_in))
    };
    assert_eq!(at(&h, "a1"), Some((TablePoint::new(12.0, 6.0), 0.0)));
    h.get_by_label("Click the table where a2 stands.");
    // On the bunker's roof (4" high), and a refusal where it cannot stand.
    h.state_mut().command(Command::DeployAt(TablePoint::new(24.0, 23.0), 4.0));
    h.run();
    assert_eq!(at(&h, "a2"), Some((TablePoint::new(24.0, 23.0), 4.0)));
    h.state_mut().command(Command::DeployAt(TablePoint::new(12.5, 6.0), 0.0));
    h.run();
    h.get_by_label_contains("Refused — General Movement Rules: a3 would stand in a1's space");
    h.get_by_label("Click the table where a3 stands.");
    let events = saved_events(&path);
    assert_eq!(events.len(), 2, "the refused tag is not written");
    assert_eq!(
        events[1],
        serde_json::from_str(r#"{"type": "deploy", "trooper": "a2", "x": 24, "y": 23, "facing": 90, "elevation": 4}"#)
            .expect("event")
    );
    // The game cannot begin with the Core Fireteam (a1 leading a2, a3) tagged apart: a2 is on
    // the roof 19" from a1, outside its ZoC (digest §7 "Coherency", Deployment).
    h.get_by_label("Order Count").click();
    h.run();
    h.get_by_label_contains("Fireteam \"core-a\": \"a2\" is not in Coherency");
    // a1 tagged again between them; then the game begins, and no more tagging.
    h.get_by_label("a1  S2").click();
    h.run();
    h.state_mut().command(Command::DeployAt(TablePoint::new(24.0, 15.0), 0.0));
    h.run();
    h.get_by_label("Order Count").click();
    h.run();
    assert!(h.query_by_label("Tag where Models stand").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The panel greys out what the rules would refuse now, saying why on hover or beneath the
/// button: an Order a trooper does not hold, a skill it cannot use, a Coordinated Order with no
/// one else in it. A greyed entry cannot be picked.
#[test]
fn the_panel_greys_out_what_the_rules_would_refuse_and_says_why() {
    use egui::accesskit::Role;
    use egui_kittest::kittest::NodeT as _;
    let disabled = |h: &Harness<'static, SightlineApp>, label: &str| {
        h.get_by_role_and_label(Role::Button, label).accesskit_node().is_disabled()
    };
    let (dir, path) = new_game_from("tests/fixtures/movement.jsonl", "greyed");
    let (mut h, _) = game_app(&path);
    h.run();
    h.get_by_label("Order Count").click();
    h.run();
    h.get_by_label("a1  S2").click();
    h.run();
    h.get_by_role_and_label(Role::ComboBox, "Order:").click();
    h.run();
    // a1 is a Regular Fusilier: no Irregular Order of its own, not the Lieutenant nor an NCO.
    assert!(!disabled(&h, "regular"));
    assert!(disabled(&h, "irregular"));
    assert!(disabled(&h, "lieutenant"));
    assert!(disabled(&h, "tactical awareness"));
    h.get_by_role_and_label(Role::Button, "irregular").click();
    h.run();
    assert_eq!(h.state().draft().source, sightline::rules::OrderSource::Regular, "a greyed entry is not picked");
    if h.query_by_role_and_label(Role::Button, "coordinated").is_none() {
        h.get_by_role_and_label(Role::ComboBox, "Order:").click();
        h.run();
    }
    h.get_by_role_and_label(Role::Button, "coordinated").click();
    h.run();
    assert!(disabled(&h, "Activate a1"), "a Coordinated Order of one trooper");
    h.get_by_label_contains("Not now: Coordinated Order");
    h.get_by_role_and_label(Role::CheckBox, "a_lt").click();
    h.run();
    assert!(!disabled(&h, "Activate a1"), "a1 and its Lieutenant, one Command Token");
    h.get_by_role_and_label(Role::ComboBox, "Order:").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "regular").click();
    h.run();
    h.get_by_label("Activate a1").click();
    h.run();
    h.get_by_role_and_label(Role::ComboBox, "Skill:").click();
    h.run();
    assert!(!disabled(&h, "Move"));
    assert!(disabled(&h, "Hacking Program (Comms Attack)"), "a1 is not a Hacker");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A new game from the movement fixture (a1 off the table) whose setup gives A the table's left
/// half as its Deployment Zone and B its right half, and a1 the `abilities`; opened in the app
/// with tagging on and a1 selected. The game folder, the game file and the app.
fn tagging_a1_with_halves_for_zones(
    tag: &str,
    abilities: &[&str],
) -> (std::path::PathBuf, std::path::PathBuf, Harness<'static, SightlineApp>) {
    let (dir, path) = new_game_from("tests/fixtures/movement.jsonl", tag);
    let text = std::fs::read_to_string(&path).expect("header");
    let mut header: serde_json::Value = serde_json::from_str(text.trim()).expect("json");
    header["setup"]["deployment_zones"] =
        serde_json::json!({"A": [[0, 0], [24, 0], [24, 48], [0, 48]], "B": [[24, 0], [48, 0], [48, 48], [24, 48]]});
    if !abilities.is_empty() {
        header["setup"]["armies"]["A"]["groups"][0]["troopers"][1]["abilities"] = serde_json::json!(abilities);
    }
    std::fs::write(&path, format!("{header}\n")).expect("written");
    let (mut h, _) = game_app(&path);
    h.run();
    h.get_by_label("Tag where Models stand").click();
    h.run();
    h.get_by_label("a1  S2").click();
    h.run();
    (dir, path, h)
}

/// A game whose setup sets Deployment Zones shows them on the plan and refuses a tag that puts a
/// Model outside its player's zone, naming how far out; nothing refused is written.
#[test]
fn tagging_outside_the_players_deployment_zone_is_refused_in_the_app() {
    use sightline::app::Command;
    use sightline::geometry::{Side, TablePoint};
    let (dir, path, mut h) = tagging_a1_with_halves_for_zones("zones", &[]);
    let zones = h.state().deployment_zones();
    assert_eq!(zones.iter().map(|(s, z)| (*s, z.len())).collect::<Vec<_>>(), vec![(Side::A, 4), (Side::B, 4)]);
    let before = saved_events(&path);
    h.state_mut().command(Command::DeployAt(TablePoint::new(24.0, 10.0), 0.0));
    h.run();
    h.get_by_label_contains("Refused — Deployment Phase: a1's base reaches 0.492\" outside A's Deployment Zone");
    assert_eq!(saved_events(&path), before, "the refused tag is not written");
    h.state_mut().command(Command::DeployAt(TablePoint::new(23.0, 10.0), 0.0));
    h.run();
    assert_eq!(saved_events(&path).len(), before.len() + 1, "inside: tagged");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Deployment Skills in the app: while a trooper with Forward Deployment (+4") is to be tagged,
/// the plan draws the line 4" beyond its zone; an impersonator tagged inside the enemy's
/// Deployment Zone is taken, and the message names the WIP Roll it needs there (N4
/// Impersonation); tagged against an enemy's base it is refused, whatever its skills, and nothing
/// refused is written.
#[test]
fn an_impersonator_tagged_in_the_enemy_zone_is_told_its_roll_and_never_deploys_in_contact() {
    use sightline::app::Command;
    use sightline::geometry::{Silhouette, TablePoint};
    let (dir, path, mut h) =
        tagging_a1_with_halves_for_zones("impersonation", &["impersonation", "forward_deployment_4"]);
    // a1's Forward Deployment (+4"): the plan has the line 4" beyond A's zone (x 0–24), at x 28.
    let (side, line, inches) = h.state().deployment_reach().expect("a1 may deploy 4\" forward");
    assert_eq!((side, inches), (sightline::geometry::Side::A, 4.0));
    assert!(line.iter().all(|p| p.x <= 28.0 + 1e-9) && line.iter().any(|p| (p.x - 28.0).abs() < 1e-9), "{line:?}");
    let before = saved_events(&path);
    // Beside b_lt (at 46, 46): refused.
    let r = Silhouette::S2.radius_in();
    h.state_mut().command(Command::DeployAt(TablePoint::new(46.0 - 2.0 * r - 0.05, 46.0), 0.0));
    h.run();
    h.get_by_label_contains("Refused — Deployment Phase: a1 would be deployed in contact with b_lt");
    assert_eq!(saved_events(&path), before, "the refused tag is not written");
    // Inside B's zone, clear of b_lt: taken, with the Roll it needs.
    h.state_mut().command(Command::DeployAt(TablePoint::new(30.0, 10.0), 0.0));
    h.run();
    h.get_by_label_contains(
        "a1 stands inside B's Deployment Zone: Impersonation deploys there only by passing a Normal WIP Roll",
    );
    assert_eq!(saved_events(&path).len(), before.len() + 1, "tagged");
    h.get_by_label("b_lt  S2").click();
    h.run();
    assert_eq!(h.state().deployment_reach(), None, "b_lt has no Forward Deployment");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Army lists in the New game window: A's list saved to an army file and loaded as B's (a mirror
/// match), its ids renamed apart, and the game created with it.
#[test]
fn an_army_list_saved_from_one_side_is_played_by_the_other() {
    let dir = fresh_dir("armylist");
    let list = dir.join("my-list.json");
    let game = dir.join("mirror.jsonl");
    let mut h = new_game_window();
    retype(&mut h, "A's army file", list.to_str().expect("utf-8 path"));
    click_each(&mut h, &["Save A's army"]);
    h.get_by_label_contains(&format!("saved to {}", list.display()));
    retype(&mut h, "B's army file", list.to_str().expect("utf-8 path"));
    click_each(&mut h, &["Load B's army"]);
    h.get_by_label_contains("as B's army: 1 trooper, 0 points (renamed, as the other army uses the same ids");
    h.get_by_label_contains("a1 to a1_2");
    retype(&mut h, "Game file", game.to_str().expect("utf-8 path"));
    assert!(!disabled(&h, "Create and play"), "{:?}", h.query_by_label_contains("Not yet").map(|n| format!("{n:?}")));
    click_each(&mut h, &["Create and play"]);
    let file = sightline::store::load(&game).expect("the new game file");
    let b: Vec<&str> = file.setup.armies.b.troopers().map(|t| t.id.as_str()).collect();
    assert_eq!(b, ["a1_2"]);
    assert!(file.setup.armies.b.troopers().all(|t| t.has(sightline::rules::Ability::Lieutenant)), "A's list");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An army code in the New game window: pasted with the army builder's data for its army, it
/// becomes B's army (its Peripherals under their Controller, the import's notes shown), and the
/// game is created with it; a data file that cannot be read is named, and B's army stays.
#[test]
fn an_army_code_pasted_in_the_new_game_window_becomes_an_army() {
    let dir = fresh_dir("armycode");
    let game = dir.join("imported.jsonl");
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/army-data/invented-army.json");
    let mut h = new_game_window();
    retype(&mut h, "B's army code", INVENTED_CODE);
    click_each(&mut h, &["Import B's army code"]);
    h.get_by_label_contains(
        "not imported — name the army builder's data for invented in B's army data: save https://api.corvusbelli.com/army/units/en/9999 as a file once",
    );
    let missing = dir.join("no-such-data.json");
    retype(&mut h, "B's army data", missing.to_str().expect("utf-8 path"));
    click_each(&mut h, &["Import B's army code"]);
    h.get_by_label_contains(&format!("not imported — army data {}: cannot read", missing.display()));
    retype(&mut h, "B's army data", data);
    click_each(&mut h, &["Import B's army code"]);
    h.get_by_label_contains("imported the army code (invented, 300 points) as B's army: 4 troopers, 70 points");
    h.get_by_label_contains("• army codes carry no Fireteams");
    retype(&mut h, "Game file", game.to_str().expect("utf-8 path"));
    assert!(!disabled(&h, "Create and play"), "{:?}", h.query_by_label_contains("Not yet").map(|n| format!("{n:?}")));
    click_each(&mut h, &["Create and play"]);
    let file = sightline::store::load(&game).expect("the new game file");
    let b: Vec<(&str, &str, Option<&str>)> =
        file.setup.armies.b.troopers().map(|t| (t.id.as_str(), t.name.as_str(), t.peripheral_of.as_deref())).collect();
    assert_eq!(
        b,
        [
            ("b1", "LINER Lieutenant", None),
            ("b2", "WALKER", None),
            ("b3", "DRONE", Some("b2")),
            ("b4", "DRONE", Some("b2"))
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The invented army data (tests/fixtures/army-data) with `chart` as its `fireteamChart`, written
/// into `dir`: its path.
fn army_data_with_chart(dir: &std::path::Path, chart: &str) -> std::path::PathBuf {
    let data = dir.join("army-data.json");
    let fixture =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/army-data/invented-army.json"))
            .expect("the invented army data");
    let with = fixture.replacen(r#""fireteamChart": {}"#, &format!(r#""fireteamChart": {chart}"#), 1);
    assert_ne!(with, fixture, "the fixture has an empty chart");
    std::fs::write(&data, with).expect("a data file with a chart");
    data
}

/// How many Fireteams of each type an army may have on the table: read from the Fireteams Chart
/// of an imported army's data and said in its notes, set by hand in the New game window for a
/// typed list, and kept in the game's setup.
#[test]
fn fireteam_limits_come_from_an_army_s_chart_or_the_new_game_window() {
    use egui::accesskit::Role;
    let dir = fresh_dir("ftlimits");
    let game = dir.join("limits.jsonl");
    let data = army_data_with_chart(&dir, r#"{"spec": {"CORE": 1, "HARIS": 2, "DUO": 3}}"#);
    let mut h = new_game_window();
    retype(&mut h, "B's army code", INVENTED_CODE);
    retype(&mut h, "B's army data", data.to_str().expect("utf-8 path"));
    click_each(&mut h, &["Import B's army code"]);
    h.get_by_label_contains(
        "• Fireteams on the table, as the army data's Fireteams Chart sets them: at most 1 Core, 2 Haris and 3 Duos",
    );
    // A's typed list: no Core, and 2 Duos at most.
    for (kind, n) in [("Core", "0"), ("Duo", "2")] {
        h.get_all_by_role_and_label(Role::ComboBox, kind).next().expect("A's menu").click();
        h.run();
        h.get_all_by_label(n).last().expect("the menu's entry").click();
        h.run();
    }
    retype(&mut h, "Game file", game.to_str().expect("utf-8 path"));
    click_each(&mut h, &["Create and play"]);
    let file = sightline::store::load(&game).expect("the new game file");
    let limits = |l: &sightline::rules::FireteamLimits| (l.core, l.haris, l.duo);
    assert_eq!(limits(&file.setup.armies.a.fireteam_limits), (Some(0), None, Some(2)));
    assert_eq!(limits(&file.setup.armies.b.fireteam_limits), (Some(1), Some(2), Some(3)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Which units may form which Fireteams: the teams of an imported army's Fireteams Chart are
/// shown in the New game window and kept in the game's setup with each trooper's unit, unless
/// the players choose not to check them.
#[test]
fn an_imported_fireteams_chart_s_teams_are_kept_unless_the_players_say_not_to_check_them() {
    let dir = fresh_dir("ftchart");
    let chart = r#"{"spec": {"CORE": 1}, "teams": [{"name": "Invented Fireteams", "type": ["CORE"],
        "units": [{"slug": "invented-line", "name": "LINE", "min": 1, "max": 5}]}]}"#;
    let data = army_data_with_chart(&dir, chart);
    for check in [true, false] {
        let game = dir.join(format!("chart-{check}.jsonl"));
        let mut h = new_game_window();
        retype(&mut h, "B's army code", INVENTED_CODE);
        retype(&mut h, "B's army data", data.to_str().expect("utf-8 path"));
        click_each(&mut h, &["Import B's army code"]);
        let shown = "Fireteams Chart: Invented Fireteams — only the units it lists form each Fireteam";
        h.get_by_label(shown);
        if !check {
            // (Below B's list: scrolled to first, as a player would.)
            h.get_by_label("Don't check").scroll_to_me();
            h.run();
            click_each(&mut h, &["Don't check"]);
            assert!(h.query_by_label(shown).is_none(), "the chart's row is gone");
        }
        retype(&mut h, "Game file", game.to_str().expect("utf-8 path"));
        click_each(&mut h, &["Create and play"]);
        let file = sightline::store::load(&game).expect("the new game file");
        let b = &file.setup.armies.b;
        let teams: Vec<&str> = b.fireteam_chart.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(teams, if check { vec!["Invented Fireteams"] } else { vec![] });
        assert!(b.troopers().any(|t| t.unit.as_deref() == Some("invented-line")), "each trooper keeps its unit");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tagging on the plan with the mouse: a click puts the Model where it is clicked, facing the
/// table's middle; a press dragged puts it where it was pressed, facing the way it was dragged.
#[test]
fn a_model_tagged_with_a_drag_faces_the_way_it_was_dragged() {
    let (dir, path, mut h) = tagging_a1_with_halves_for_zones("dragface", &[]);
    h.get_by_label("Plan").click();
    h.run();
    let last_deploy = |path: &std::path::Path| match saved_events(path).last() {
        Some(sightline::rules::Event::Deploy { trooper, x, y, facing, .. }) => (trooper.clone(), *x, *y, *facing),
        other => panic!("not a deploy: {other:?}"),
    };
    // A click at (12, 30): there, facing the middle (24, 24).
    drag_on_plan(&mut h, (12.0, 30.0), (12.0, 30.0));
    let (id, x, y, facing) = last_deploy(&path);
    assert_eq!(id, "a1");
    assert!((x - 12.0).abs() < 0.01 && (y - 30.0).abs() < 0.01, "({x}, {y})");
    assert_eq!(facing, (-6.0f64).atan2(12.0).to_degrees().round().rem_euclid(360.0));
    // Pressed at (10, 20) and dragged to (13, 23): at (10, 20), facing 45°.
    h.get_by_label("a1  S2").click();
    h.run();
    drag_on_plan(&mut h, (10.0, 20.0), (13.0, 23.0));
    let (id, x, y, facing) = last_deploy(&path);
    assert_eq!(id, "a1");
    assert!((x - 10.0).abs() < 0.01 && (y - 20.0).abs() < 0.01, "({x}, {y})");
    assert_eq!(facing, 45.0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Drawing a route on the plan: a press dragged adds the point where it was pressed and gives
/// the mover the facing it was dragged towards at the end of its route, which the Move declares.
#[test]
fn a_route_point_dragged_sets_the_facing_at_the_end_of_the_move() {
    let (dir, path) = new_game_from("tests/fixtures/movement.jsonl", "dragroute");
    let (mut h, _) = game_app(&path);
    h.run();
    click_each(&mut h, &["Plan", "Order Count", "a1  S2", "Activate a1"]);
    // a1 (at (16, 10), MOV 4-2): pressed at (16, 13), dragged towards (13, 13), due -x.
    drag_on_plan(&mut h, (16.0, 13.0), (13.0, 13.0));
    h.get_by_label_contains("a1: 1 point, to (16.0, 13.0): 3.00\", MOV 4-2");
    let before = saved_events(&path).len();
    click_each(&mut h, &["Declare Move"]);
    let events = saved_events(&path);
    assert_eq!(events.len(), before + 1, "declared");
    match events.last() {
        Some(sightline::rules::Event::Declare(d)) => assert_eq!(d.moves[0].facing, Some(180.0), "{d:?}"),
        other => panic!("not a declaration: {other:?}"),
    }
    let a1 = h.state().game().and_then(|g| g.game().trooper("a1").and_then(|t| t.position)).expect("on the table");
    assert_eq!((a1.x, a1.y, a1.facing), (16.0, 13.0, 180.0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Press the plan (shown) at table point `from` (inches), move the pointer in three steps to
/// `to` and let go there, through egui's pointer events; `from` = `to` is a click (let go at once).
fn drag_on_plan(h: &mut Harness<'static, SightlineApp>, from: (f32, f32), to: (f32, f32)) {
    let plan = h.get_by_label("table plan").rect();
    let depth = h.state().scene().table.depth as f32;
    let scale = plan.width() / h.state().scene().table.width as f32;
    let screen = |(x, y): (f32, f32)| egui::pos2(plan.min.x + x * scale, plan.min.y + (depth - y) * scale);
    h.drag_at(screen(from));
    h.run();
    // (A click is let go at once: held over frames it would no longer be one.)
    let steps = if from == to { 0 } else { 3 };
    for step in 1..=steps {
        let t = step as f32 / steps as f32;
        h.hover_at(screen((from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t)));
        h.run();
    }
    h.event(egui::Event::PointerButton {
        pos: screen(to),
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run();
}

/// Select all of the text box `label` and type `text` over it.
fn retype(h: &mut Harness<'static, SightlineApp>, label: &str, text: &str) {
    use egui::accesskit::Role;
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_role_and_label(Role::TextInput, label).type_text(text);
    h.run();
    assert_eq!(h.get_by_role_and_label(Role::TextInput, label).value().as_deref(), Some(text));
}

/// Whether the button `label` is greyed out.
fn disabled(h: &Harness<'static, SightlineApp>, label: &str) -> bool {
    use egui_kittest::kittest::NodeT as _;
    h.get_by_label(label).accesskit_node().is_disabled()
}

#[test]
fn a_new_game_is_put_together_in_the_app_checked_written_and_played() {
    use egui::accesskit::Role;
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let dir = fresh_dir("newgame");
    let game = dir.join("new.jsonl");
    let setup_file = dir.join("lists.json");
    let calibration = sightline::app::demo_calibration((48.0, 48.0)).expect("the demo pose");
    let app = app(CameraState::new(Err("no camera".into()))).with_calibration(calibration.clone(), "demo");
    let mut h =
        Harness::builder().with_size([1280.0, 900.0]).build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app);
    h.run();
    // A piece half traced when the game starts is dropped: the game's terrain is its setup's.
    click_each(&mut h, &["Add terrain"]);
    h.state_mut().command(Command::TerrainCorner(TablePoint::new(1.0, 1.0)));
    h.get_by_label("New game…").click();
    h.run();
    let terrain = h.state().scene().terrain.len();
    h.get_by_label_contains(&format!("{terrain} terrain pieces, calibrated"));
    // One Lieutenant a side to start with: a setup the rules take.
    retype(&mut h, "Game file", game.to_str().expect("utf-8 path"));
    assert!(!disabled(&h, "Create and play"));
    // Side B without its Lieutenant is refused, naming the field and the rule.
    // (The remove buttons: a1's, then b1's.)
    h.query_all_by_label("remove").nth(1).expect("b1's remove button").click();
    h.run();
    assert!(disabled(&h, "Create and play"));
    h.get_by_label_contains("setup.armies.B: no Lieutenant");
    // Back: B gets a trooper (b1 again) and makes it Lieutenant in its abilities menu.
    h.query_all_by_label("Add trooper").nth(1).expect("side B's Add trooper").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "—").click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "lieutenant").click();
    h.run();
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(!disabled(&h, "Create and play"), "{:?}", h.query_by_label_contains("Not yet").map(|n| format!("{n:?}")));
    // Side A: a second trooper, and a Fireteam of both. An empty Fireteam is refused first.
    h.query_all_by_label("Add trooper").next().expect("side A's Add trooper").click();
    h.run();
    h.query_all_by_label("Add Fireteam").next().expect("side A's Add Fireteam").click();
    h.run();
    assert!(disabled(&h, "Create and play"));
    h.get_by_label_contains("0 members");
    h.get_by_role_and_label(Role::CheckBox, "a1").click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "a2").click();
    h.run();
    assert!(
        !disabled(&h, "Create and play"),
        "a Core Fireteam of two, led by the first ticked: {:?}",
        h.query_by_label_contains("Not yet").map(|n| format!("{n:?}"))
    );
    // Deployment Zones: a 12" strip along the bottom (A) and the top (B).
    h.get_by_role_and_label(Role::ComboBox, "Deployment Zones").click();
    h.run();
    h.get_by_label("a strip along two opposite edges").click();
    h.run();
    // The setup saved to a file, for another game: then changed, and loaded back.
    retype(&mut h, "Setup file", setup_file.to_str().expect("utf-8 path"));
    h.get_by_label("Save").click();
    h.run();
    h.get_by_label_contains("saved to");
    let saved = sightline::rules::Setup::from_json(&std::fs::read_to_string(&setup_file).expect("saved"))
        .expect("a setup `sightline new` takes");
    assert_eq!(saved.troopers().count(), 3);
    h.query_all_by_label("Add trooper").next().expect("side A's Add trooper").click();
    h.run();
    // (Below the lists, which have grown: scrolled to first, as a player would.)
    h.get_by_label("Load").scroll_to_me();
    h.run();
    h.get_by_label("Load").click();
    h.run();
    h.get_by_label_contains("loaded");
    // An existing game file is never written over.
    retype(&mut h, "Game file", setup_file.to_str().expect("utf-8 path"));
    assert!(disabled(&h, "Create and play"));
    h.get_by_label_contains("exists already");
    retype(&mut h, "Game file", game.to_str().expect("utf-8 path"));
    h.get_by_label("Create and play").click();
    h.run();
    assert!(h.query_by_label("New terrain piece").is_none(), "tracing stops with the game");
    assert!(disabled(&h, "Add terrain"));
    // The game file holds the setup as built: the table in view, its calibration, the zones.
    let file = sightline::store::load(&game).expect("the new game file");
    assert_eq!(file.setup, saved, "the loaded setup, unchanged by the trooper added before Load");
    assert!(file.events.is_empty());
    assert_eq!(file.setup.terrain.len(), terrain);
    let pairs = file.setup.calibration.as_ref().expect("the calibration in force").pairs.len();
    assert_eq!(pairs, calibration.pairs().len());
    let zones = file.setup.deployment_zones.as_ref().expect("zones");
    assert_eq!(zones.a, vec![(0.0, 0.0), (48.0, 0.0), (48.0, 12.0), (0.0, 12.0)]);
    assert_eq!(zones.b, vec![(0.0, 36.0), (48.0, 36.0), (48.0, 48.0), (0.0, 48.0)]);
    // And it is being played: nobody on the table yet, a1 selected to be tagged, the zones held.
    let g = h.state().game().expect("the new game is open");
    assert_eq!(g.path(), game.as_path());
    assert!(h.state().scene().troopers.is_empty());
    h.get_by_label("a1  not on the table");
    h.state_mut().command(Command::DeployAt(TablePoint::new(10.0, 20.0), 0.0));
    h.run();
    h.get_by_label_contains("outside");
    h.state_mut().command(Command::DeployAt(TablePoint::new(10.0, 6.0), 0.0));
    h.run();
    assert_eq!(h.state().scene().troopers.len(), 1, "a1 deployed inside its zone");
    assert_eq!(sightline::store::load(&game).expect("game").events.len(), 1);
    // a2 next, in Coherency with its Team Leader; after A's last trooper, B's first.
    h.get_by_label("Click the table where a2 stands.");
    h.state_mut().command(Command::DeployAt(TablePoint::new(14.0, 6.0), 0.0));
    h.run();
    h.get_by_label("Click the table where b1 stands.");
    h.state_mut().command(Command::DeployAt(TablePoint::new(10.0, 42.0), 0.0));
    h.run();
    h.get_by_label("Order Count").click();
    h.run();
    assert!(h.query_by_label("Tag where Models stand").is_none(), "the game has begun");
    assert_eq!(sightline::store::load(&game).expect("game").events.len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// On the demo table the picture follows the game, as a camera over a real table would: a Model
/// tagged at deployment appears where it was tagged: the picture is drawn again from the table
/// as the game now stands.
#[test]
fn the_demo_picture_shows_a_tagged_model_where_it_was_tagged() {
    use sightline::app::Command;
    use sightline::app::game_session::GameSession;
    use sightline::camera::demo::{DemoCamera, DemoSource};
    use sightline::geometry::TablePoint;
    let (dir, path) = new_game_from("tests/fixtures/full-order-aros.jsonl", "demo-follows");
    let opened = GameSession::open(&path).expect("the game file opens");
    let cam = DemoCamera { k1: 0.0, ..DemoCamera::default_demo() };
    let source = DemoSource::new(cam.clone(), opened.scene.clone());
    let table = source.table();
    let capture = sightline::camera::Capture::start(Box::new(source), || {}).map_err(|e| e.to_string());
    let app = SightlineApp::new(opened.scene.clone(), "game".into(), CameraState::new(capture), None)
        .with_demo_table(table)
        .with_game(opened);
    let mut h =
        Harness::builder().with_size([1280.0, 800.0]).build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app);
    wait_for_frame(&mut h);
    let to = TablePoint::new(14.0, 20.0);
    let (u, v) = cam.image_from_table(to, (48.0, 48.0)).expect("in view");
    let (u, v) = (u.round() as u32, v.round() as u32);
    let first = h.state().frame().expect("a frame").image.clone();
    // a1 tagged 12" from where the setup put it.
    h.get_by_label("Tag where Models stand").click();
    h.run();
    h.get_by_label("a1  S2").click();
    h.run();
    h.state_mut().command(Command::DeployAt(to, 0.0));
    h.run();
    let scene = h.state().scene().clone();
    let drawn = cam.render(&scene);
    assert_ne!(drawn.get_pixel(u, v), first.get_pixel(u, v), "a1's Model covers the spot now");
    let mut seen = None;
    for _ in 0..4000 {
        h.run();
        let img = &h.state().frame().expect("a frame").image;
        if **img == drawn {
            seen = Some(img.clone());
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    seen.expect("the picture drawn from the table as the game now stands");
    let _ = std::fs::remove_dir_all(&dir);
}

/// With the setup saying who deploys first, the panel walks the players through the Deployment
/// Phase's four steps (N4 Initiative and Deployment): it says whose step it is and what that
/// player places, tagging moves on to the trooper whose turn it is, the first-Turn player may
/// hold back one more trooper for a Command Token, a player may end its step early, and the Order
/// Count waits for the last step.
#[test]
fn deployment_follows_its_four_steps_in_the_panel() {
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let dir = fresh_dir("steps");
    let path = dir.join("game.jsonl");
    let off = |id: &str, lt: bool| {
        let abilities = if lt { serde_json::json!(["lieutenant"]) } else { serde_json::json!([]) };
        serde_json::json!({"id": id, "silhouette": 2, "points": 10, "abilities": abilities})
    };
    let setup: sightline::rules::Setup = serde_json::from_value(serde_json::json!({
        "first": "A", "deploys_first": "A",
        "armies": {
            "A": {"groups": [{"troopers": [off("a_lt", true), off("a1", false), off("a2", false)]}]},
            "B": {"groups": [{"troopers": [off("b_lt", true), off("b1", false), off("b_ad", false)]}]}
        }
    }))
    .expect("setup");
    sightline::app::game_session::GameSession::create(&path, &setup).expect("game created");
    let (mut h, _) = game_app(&path);
    h.run();
    // Tagging turned on with a B trooper selected: it goes to A's first, whose step it is.
    h.get_by_label("b1  not on the table").click();
    h.run();
    h.get_by_label("Tag where Models stand").click();
    h.run();
    h.get_by_label("Click the table where a_lt stands.");
    h.get_by_label(
        "Step 1 of 4: A places all but 1 of its troopers (3 off the table). Next: B places all but 1 of its own.",
    );
    // A, with the first Turn, holds back one more: it places one trooper, then B deploys.
    h.get_by_label("A: hold back one more trooper (1 CT)").click();
    h.run();
    h.get_by_label(
        "Step 1 of 4: A places all but 2 of its troopers (3 off the table). Next: B places all but 1 of its own.",
    );
    h.get_by_label("Click the table where a_lt stands.");
    h.state_mut().command(Command::DeployAt(TablePoint::new(10.0, 6.0), 0.0));
    h.run();
    h.get_by_label(
        "Step 2 of 4: B places all but 1 of its troopers (3 off the table). Next: A places the 2 troopers it kept back.",
    );
    // Tagging moves on to B's first trooper, not to A's next.
    h.get_by_label("Click the table where b_lt stands.");
    h.state_mut().command(Command::DeployAt(TablePoint::new(10.0, 40.0), 0.0));
    h.run();
    // B keeps b_ad off the table (Airborne Deployment) besides b1: it ends its step.
    h.get_by_label("B is done with step 2").click();
    h.run();
    h.get_by_label_contains("Step 3 of 4: A places the 2 troopers it kept back (2 off the table)");
    // The Order Count is greyed out until the last step is done, saying why.
    h.get_by_label_contains("Not now: Deployment Phase — the Deployment Phase is not over: step 3 of 4");
    // A's two (tagging has moved on to A's first still off the table), then B's last.
    h.get_by_label("Click the table where a1 stands.");
    h.state_mut().command(Command::DeployAt(TablePoint::new(14.0, 6.0), 0.0));
    h.run();
    h.get_by_label("Click the table where a2 stands.");
    h.state_mut().command(Command::DeployAt(TablePoint::new(18.0, 6.0), 0.0));
    h.run();
    h.get_by_label("Step 4 of 4: B places the 1 trooper it kept back (2 off the table). Then the Order Count.");
    h.get_by_label("Click the table where b1 stands.");
    // b1 with a facing of its own: the box unticked gives 90°.
    h.get_by_label("facing the table's middle").click();
    h.run();
    h.state_mut().command(Command::DeployAt(TablePoint::new(14.0, 40.0), 0.0));
    h.run();
    h.get_by_label("Every step of the Deployment Phase is done: the Order Count begins the game.");
    let kinds: Vec<&str> = saved_events(&path).iter().map(|e| e.kind()).collect();
    assert_eq!(
        kinds,
        ["strategic_command_token", "deploy", "deploy", "end_deployment_step", "deploy", "deploy", "deploy"],
        "what was played, in order"
    );
    // Each Model tagged faces the middle of the 48" table, whichever edge it stands at, but b1.
    let facings: Vec<(String, f64)> = saved_events(&path)
        .iter()
        .filter_map(|e| match e {
            sightline::rules::Event::Deploy { trooper, facing, .. } => Some((trooper.clone(), *facing)),
            _ => None,
        })
        .collect();
    let towards = |x: f64, y: f64| (24.0 - y).atan2(24.0 - x).to_degrees().round().rem_euclid(360.0);
    let want = [
        ("a_lt", towards(10.0, 6.0)),
        ("b_lt", towards(10.0, 40.0)),
        ("a1", towards(14.0, 6.0)),
        ("a2", towards(18.0, 6.0)),
        ("b1", 90.0),
    ];
    assert_eq!(facings, want.map(|(id, f)| (id.to_string(), f)));
    assert!(facings[1].1 > 270.0, "B's Lieutenant at the far edge looks back across the table");
    // b_ad starts the game off the table.
    h.get_by_label("Order Count").click();
    h.run();
    assert!(h.query_by_label("Tag where Models stand").is_none(), "the game has begun");
    let _ = std::fs::remove_dir_all(&dir);
}

/// N4 Peripheral: a Controller and its Peripherals are deployed at the same time. Once the
/// Controller is tagged, tagging moves on to its Peripheral (listed after another trooper), and
/// the panel says they count as one.
#[test]
fn tagging_a_controller_moves_on_to_its_peripheral() {
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let dir = fresh_dir("peripheral-steps");
    let path = dir.join("game.jsonl");
    let trooper = |id: &str, extra: serde_json::Value| {
        let mut t = serde_json::json!({"id": id, "silhouette": 2, "points": 10});
        t.as_object_mut().expect("object").extend(extra.as_object().cloned().unwrap_or_default());
        t
    };
    let lt = || serde_json::json!({"abilities": ["lieutenant"]});
    let setup: sightline::rules::Setup = serde_json::from_value(serde_json::json!({
        "first": "A", "deploys_first": "A",
        "armies": {
            "A": {"groups": [{"troopers": [
                trooper("a_lt", lt()), trooper("a_eng", serde_json::json!({})), trooper("a1", serde_json::json!({})),
                trooper("a_bot", serde_json::json!({"peripheral_of": "a_eng"})), trooper("a2", serde_json::json!({}))]}]},
            "B": {"groups": [{"troopers": [trooper("b_lt", lt()), trooper("b1", serde_json::json!({}))]}]}
        }
    }))
    .expect("setup");
    sightline::app::game_session::GameSession::create(&path, &setup).expect("game created");
    let (mut h, _) = game_app(&path);
    h.run();
    h.get_by_label("a_lt  not on the table").click();
    h.run();
    h.get_by_label("Tag where Models stand").click();
    h.run();
    h.get_by_label(
        "Step 1 of 4: A places all but 1 of its troopers (5 off the table, 4 to place: a Controller and its \
         Peripherals are placed together and count as one, N4 Peripheral). Next: B places all but 1 of its own.",
    );
    h.state_mut().command(Command::DeployAt(TablePoint::new(10.0, 6.0), 0.0));
    h.run();
    h.get_by_label("Click the table where a_eng stands.");
    h.state_mut().command(Command::DeployAt(TablePoint::new(14.0, 6.0), 0.0));
    h.run();
    // Not a1, next in the list: the Controller's Peripheral.
    h.get_by_label("Click the table where a_bot stands.");
    h.state_mut().command(Command::DeployAt(TablePoint::new(16.0, 6.0), 0.0));
    h.run();
    // Then on down the list.
    h.get_by_label("Click the table where a2 stands.");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Stealth trooper's Move inside an enemy's ZoC behind its back (stealth.jsonl's first three
/// events): the ARO window says that enemy gets no ARO, and why.
#[test]
fn the_aro_window_says_who_a_stealth_trooper_gave_no_aro() {
    let dir = fresh_dir("stealth");
    let path = dir.join("game.jsonl");
    let text =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stealth.jsonl"))
            .expect("fixture");
    let first: Vec<&str> = text.lines().take(4).collect();
    std::fs::write(&path, format!("{}\n", first.join("\n"))).expect("written");
    let (mut h, _) = game_app(&path);
    h.run();
    h.get_by_label("Nobody may declare an ARO now.");
    h.get_by_label("b1: no ARO against a1 (Stealth: inside b1's ZoC, outside its LoF)");
    assert!(h.query_by_label("Declare ARO of b1").is_none(), "b1 is offered no ARO");
    let _ = std::fs::remove_dir_all(&dir);
}

/// levels.jsonl's setup with a1 given `abilities`, as a new game file (no events).
fn levels_game_with(abilities: serde_json::Value, tag: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let (dir, path) = new_game_from("tests/fixtures/levels.jsonl", tag);
    let text = std::fs::read_to_string(&path).expect("header");
    let mut header: serde_json::Value = serde_json::from_str(text.trim()).expect("JSON");
    for t in header["setup"]["armies"]["A"]["groups"][0]["troopers"].as_array_mut().expect("troopers") {
        if t["id"] == "a1" {
            t["abilities"] = abilities.clone();
        }
    }
    std::fs::write(&path, format!("{header}\n")).expect("written");
    (dir, path)
}

/// With Climbing Plus, a Move drafted up the building's side is drawn and measured as the rules
/// take it: up the 3" wall, counted in its length, with nothing in its way.
#[test]
fn a_climbing_plus_move_drafted_up_a_wall_is_measured_with_the_wall_and_ends_on_the_roof() {
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let (dir, path) = levels_game_with(serde_json::json!(["climbing_plus", "stealth"]), "climbing-plus");
    let (mut h, _) = game_app(&path);
    h.run();
    click_each(&mut h, &["Order Count", "a1  S2", "Activate a1"]);
    // The trooper's card names its abilities as the rules do.
    h.get_by_label("abilities: Climbing Plus, Stealth");
    h.state_mut().command(Command::RouteClick(TablePoint::new(10.5, 23.0)));
    h.run();
    h.get_by_label("Route: 4.00\" (1.00\" across)");
    h.get_by_label("a1: 1 point, to (10.5, 23.0): 4.00\" (1.00\" across), MOV 4-4");
    h.get_by_label("ends 3.0\" up, on building");
    h.get_by_label("nothing in its way");
    h.get_by_label("Declare Move").click();
    h.run();
    let a1 = h.state().game().and_then(|g| g.game().trooper("a1").and_then(|t| t.position)).expect("a1");
    assert_eq!((a1.x, a1.y, a1.elevation), (10.5, 23.0, 3.0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// With Super-Jump the panel offers the Entire Order Jump, and the declaration saved says so.
#[test]
fn a_super_jump_may_be_declared_as_an_entire_order_in_the_panel() {
    use egui::accesskit::Role;
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let (dir, path) = levels_game_with(serde_json::json!(["super_jump"]), "super-jump");
    let (mut h, _) = game_app(&path);
    h.run();
    click_each(&mut h, &["Order Count", "a1  S2", "Activate a1"]);
    assert!(h.query_by_label("as an Entire Order (both MOV values together)").is_none(), "not for a Move");
    h.get_by_role_and_label(Role::ComboBox, "Skill:").click();
    h.run();
    // (Jump is far down the list: scrolled to first.)
    h.get_by_label("Jump").scroll_to_me();
    h.run();
    h.get_by_label("Jump").click();
    h.run();
    assert_eq!(h.state().draft().skill, "jump");
    click_each(&mut h, &["as an Entire Order (both MOV values together)"]);
    // 5" over the table: more than the first MOV value (4), within both (8).
    h.state_mut().command(Command::RouteClick(TablePoint::new(4.5, 23.0)));
    h.run();
    click_each(&mut h, &["Declare Jump"]);
    let declared = saved_events(&path).into_iter().find_map(|e| match e {
        sightline::rules::Event::Declare(d) => Some(d),
        _ => None,
    });
    assert!(declared.is_some_and(|d| d.skill == "jump" && d.entire_order), "the Entire Order Jump is saved");
    let _ = std::fs::remove_dir_all(&dir);
}

/// N4 Berserk in the panel: the skill takes a route and a target; a charge clicked just short of
/// the enemy's base lands in contact (`CONTACT_SNAP_IN`), goes further than a Move's first MOV
/// value, and leaves both Engaged.
#[test]
fn a_berserk_charge_is_drafted_with_its_route_and_target_and_ends_in_close_combat() {
    use egui::accesskit::Role;
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let dir = fresh_dir("berserk");
    let path = dir.join("game.jsonl");
    let at = |x: f64, y: f64, facing: f64| serde_json::json!({"x": x, "y": y, "facing": facing});
    let setup: sightline::rules::Setup = serde_json::from_value(serde_json::json!({
        "first": "A",
        "armies": {
            "A": {"groups": [{"troopers": [
                {"id": "a_lt", "silhouette": 2, "points": 10, "abilities": ["lieutenant"], "position": at(2.0, 46.0, 0.0)},
                {"id": "a1", "silhouette": 2, "points": 10, "mov": [4, 4], "abilities": ["berserk"], "position": at(10.0, 10.0, 0.0)}]}]},
            "B": {"groups": [{"troopers": [
                {"id": "b_lt", "silhouette": 2, "points": 10, "abilities": ["lieutenant"], "position": at(46.0, 46.0, 90.0)},
                {"id": "b1", "silhouette": 2, "points": 10, "position": at(16.0, 10.0, 180.0)}]}]}
        }
    }))
    .expect("setup");
    sightline::app::game_session::GameSession::create(&path, &setup).expect("game created");
    let (mut h, _) = game_app(&path);
    h.run();
    click_each(&mut h, &["Order Count", "a1  S2", "Activate a1"]);
    h.get_by_role_and_label(Role::Label, "abilities: Berserk");
    h.get_by_role_and_label(Role::ComboBox, "Skill:").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "Berserk").scroll_to_me();
    h.run();
    h.get_by_role_and_label(Role::Button, "Berserk").click();
    h.run();
    assert_eq!(h.state().draft().skill, "berserk");
    // Clicked 0.2" short of b1's base: the base is put in contact.
    h.state_mut().command(Command::RouteClick(TablePoint::new(16.0 - 25.0 / 25.4 - 0.2, 10.0)));
    h.run();
    // The target: the first "b1" box is the Targets one (the second, under a Template).
    h.query_all_by_label("b1").next().expect("a target box").click();
    h.run();
    click_each(&mut h, &["Declare Berserk"]);
    let declared = saved_events(&path).into_iter().find_map(|e| match e {
        sightline::rules::Event::Declare(d) => Some(d),
        _ => None,
    });
    assert!(
        declared.is_some_and(|d| d.skill == "berserk" && d.targets == ["b1"] && d.moves.len() == 1),
        "the charge is saved with its route and target"
    );
    let game = h.state().game().map(|g| g.game().clone()).expect("a game");
    assert_eq!(game.close_combat_of("a1"), vec!["b1"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A BS Attack on an enemy in Close Combat with the attacker's ally: the panel names the ally and
/// the MOD the dice take (N4 Engaged State's "BS Attack against a Close Combat",
/// `BS_INTO_CLOSE_COMBAT_MOD`); on an enemy not in Close Combat, nothing.
#[test]
fn a_bs_attack_into_a_close_combat_says_the_mod_and_who_a_miss_may_hit() {
    use egui::accesskit::Role;
    let dir = fresh_dir("into-cc");
    let path = dir.join("game.jsonl");
    let at = |x: f64, y: f64, facing: f64| serde_json::json!({"x": x, "y": y, "facing": facing});
    let s2 =
        |id: &str, p: serde_json::Value| serde_json::json!({"id": id, "silhouette": 2, "points": 10, "position": p});
    let mut a_lt = s2("a_lt", at(2.0, 46.0, 0.0));
    a_lt["abilities"] = serde_json::json!(["lieutenant"]);
    let mut b_lt = s2("b_lt", at(46.0, 46.0, 90.0));
    b_lt["abilities"] = serde_json::json!(["lieutenant"]);
    let setup: sightline::rules::Setup = serde_json::from_value(serde_json::json!({
        "first": "A",
        "armies": {
            "A": {"groups": [{"troopers": [a_lt, s2("a1", at(10.0, 10.0, 0.0)), s2("a2", at(16.0 + 25.0 / 25.4, 10.0, 180.0))]}]},
            "B": {"groups": [{"troopers": [b_lt, s2("b1", at(16.0, 10.0, 0.0)), s2("b2", at(16.0, 16.0, 180.0))]}]}
        }
    }))
    .expect("setup");
    sightline::app::game_session::GameSession::create(&path, &setup).expect("game created");
    let (mut h, _) = game_app(&path);
    h.run();
    click_each(&mut h, &["Order Count", "a1  S2", "Activate a1"]);
    h.get_by_role_and_label(Role::ComboBox, "Skill:").click();
    h.run();
    h.get_by_label("BS Attack").click();
    h.run();
    // b2, not in Close Combat: no note.
    h.query_all_by_label("b2").next().expect("a target box").click();
    h.run();
    assert!(h.query_by_label_contains("in Close Combat with").is_none(), "b2 is in no Close Combat");
    h.query_all_by_label("b1").next().expect("a target box").click();
    h.run();
    h.get_by_label("b1 is in Close Combat with a2: BS Attack into a Close Combat, -6 to BS for each ally in it (-6); a missed shot may hit a2");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tracing the table's terrain in the app (outside a game): a 10" piece traced between a5-bike
/// and b4-hacker blocks the LoF between them; a piece drawn over a trooper is refused naming it;
/// a piece is taken away again; the table saved as a scene file reads back as the table in view.
#[test]
fn a_terrain_piece_is_traced_added_refused_over_a_trooper_removed_and_the_table_saved() {
    use sightline::app::Command;
    use sightline::geometry::{Lof, TablePoint};
    let mut h = harness(CameraState::new(Err("no camera".into())));
    h.run();
    let lof = |h: &Harness<'_, SightlineApp>| {
        let s = h.state().scene();
        let (a, b) = (s.trooper_index("a5-bike").expect("a5"), s.trooper_index("b4-hacker").expect("b4"));
        h.state().pairs().pairs().iter().find(|m| m.from == a && m.to == b).map(|m| m.lof.lof.clone()).expect("pair")
    };
    assert!(!matches!(lof(&h), Lof::Blocked { .. }), "{:?}", lof(&h));
    let pieces = h.state().scene().terrain.len();
    click_each(&mut h, &["Add terrain"]);
    h.get_by_label("New terrain piece");
    h.state_mut().terrain_draft_mut().expect("a piece being traced").height_in = 10.0;
    for (x, y) in [(33.0, 16.0), (42.0, 16.0), (42.0, 17.0)] {
        h.state_mut().command(Command::TerrainCorner(TablePoint::new(x, y)));
    }
    // The last corner typed, as measured on the real table.
    h.state_mut().terrain_draft_mut().expect("tracing").typed = (33.0, 17.0);
    h.run();
    click_each(&mut h, &["Add corner"]);
    h.get_by_label("4 corner(s), the last at (33.0, 17.0)");
    click_each(&mut h, &["Add piece"]);
    assert_eq!(h.state().scene().terrain.len(), pieces + 1);
    assert!(h.query_by_label("New terrain piece").is_none(), "the window closes");
    h.get_by_label("terrain \"t1\" added (10\" tall)");
    h.get_by_label("t1  10\"");
    let blocked = lof(&h);
    assert!(
        matches!(&blocked, Lof::Blocked { by } if by.contains(&sightline::geometry::Blocker::Terrain(pieces))),
        "{blocked:?}"
    );
    // Over a1-fusilier (at (8, 6)): refused, naming it; the window stays open with the corners.
    click_each(&mut h, &["Add terrain"]);
    for (x, y) in [(7.0, 5.0), (9.0, 5.0), (9.0, 7.0), (7.0, 7.0)] {
        h.state_mut().command(Command::TerrainCorner(TablePoint::new(x, y)));
    }
    click_each(&mut h, &["Add piece"]);
    let refused = h.query_by_label_contains("(\"a1-fusilier\").elevation: the trooper stands inside terrain \"t2\"");
    assert!(refused.is_some(), "the refusal names the trooper and the piece");
    assert_eq!(h.state().scene().terrain.len(), pieces + 1);
    click_each(&mut h, &["Cancel"]);
    // Saved, the table reads back as it is in the app.
    let dir = fresh_dir("save-table");
    h.state_mut().command(Command::SaveTable(dir.clone()));
    let saved = std::fs::read_to_string(dir.join("sightline-table-1.json")).expect("the table file");
    let back = Scene::from_json(&saved).expect("a scene");
    assert_eq!(back.to_json(), h.state().scene().to_json());
    // A second save never writes over the first.
    h.state_mut().command(Command::SaveTable(dir.clone()));
    assert!(dir.join("sightline-table-2.json").exists());
    // Taken away (its button in the terrain list), the LoF is as before.
    // (Far down the scrolled list now: scrolled to first, as a player would.)
    h.query_all_by_label("take away").nth(pieces).expect("t1's button").scroll_to_me();
    h.run();
    h.query_all_by_label("take away").nth(pieces).expect("t1's button").click();
    h.run();
    assert_eq!(h.state().scene().terrain.len(), pieces);
    assert!(!matches!(lof(&h), Lof::Blocked { .. }));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A terrain corner clicked on the (calibrated) demo picture is put at the piece's height: the
/// top's corner where the picture shows it, not the table point under the same pixel.
#[test]
fn a_terrain_corner_clicked_on_the_picture_lands_at_the_pieces_height() {
    use sightline::geometry::TablePoint;
    use sightline::vision::ImagePoint;
    let (mut h, cam, calibration) = demo_picture_app();
    // (Snapping off: nothing on the table shows where this new piece's corner will be.)
    click_each(&mut h, &["Camera", "snap to corners", "Add terrain"]);
    h.state_mut().terrain_draft_mut().expect("tracing").height_in = 4.0;
    h.run();
    let corner = TablePoint::new(30.0, 12.0);
    let (u, v) = cam.project([corner.x, corner.y, 4.0], (48.0, 48.0)).expect("in view");
    click_picture(&mut h, (u, v));
    let got = h.state_mut().terrain_draft_mut().and_then(|d| d.corners.first().copied()).expect("a corner");
    // (Within the screen's rounding of the pixel and the calibration's own error.)
    assert!(got.dist(corner) < 0.15, "clicked the top's corner at {corner:?}, got {got:?}");
    let on_table = calibration.table_from_image(ImagePoint::new(u, v));
    assert!(on_table.dist(corner) > 1.0, "the table under that pixel is elsewhere: {on_table:?}");
}

/// The demo scene's app on the demo camera's picture (its lens too), calibrated from the demo's
/// known pose, once the first frame is in; with the camera and the calibration.
fn demo_picture_app()
-> (Harness<'static, SightlineApp>, sightline::camera::demo::DemoCamera, sightline::vision::Calibration) {
    use sightline::camera::demo::{DemoCamera, DemoSource, default_scene};
    let cam = DemoCamera::default_demo();
    let capture = sightline::camera::Capture::start(Box::new(DemoSource::new(cam.clone(), default_scene())), || {})
        .map_err(|e| e.to_string());
    let calibration = sightline::app::demo_calibration((48.0, 48.0)).expect("the demo pose");
    let app = app(CameraState::new(capture)).with_calibration(calibration.clone(), "demo");
    let mut h =
        Harness::builder().with_size([1280.0, 800.0]).build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app);
    wait_for_frame(&mut h);
    (h, cam, calibration)
}

/// Click the picture at image point `(u, v)` (pixels), as a player's pointer does.
fn click_picture(h: &mut Harness<'_, SightlineApp>, (u, v): (f64, f64)) {
    let rect = h.state().picture_rect().expect("the picture is drawn");
    let w = h.state().frame().map(|f| f.image.width()).expect("a frame");
    let scale = rect.width() / w as f32;
    let pos = rect.min + egui::vec2(u as f32 * scale, v as f32 * scale);
    let button = |pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::default(),
    };
    h.event(egui::Event::PointerMoved(pos));
    h.event(button(true));
    h.run();
    h.event(button(false));
    h.run();
}

/// Tracing over a real piece, a corner clicked a few pixels off its top's corner on the picture
/// is snapped to it (as table corners are): the demo tower's top corner (20, 20), 5" up.
#[test]
fn a_terrain_corner_clicked_a_few_pixels_off_a_real_corner_is_snapped_to_it() {
    use sightline::geometry::TablePoint;
    let (mut h, cam, _) = demo_picture_app();
    click_each(&mut h, &["Camera", "Add terrain"]);
    h.state_mut().terrain_draft_mut().expect("tracing").height_in = 5.0;
    h.run();
    let corner = TablePoint::new(20.0, 20.0);
    let (u, v) = cam.project([corner.x, corner.y, 5.0], (48.0, 48.0)).expect("in view");
    click_picture(&mut h, (u + 3.0, v - 3.0));
    let got = h.state_mut().terrain_draft_mut().and_then(|d| d.corners.first().copied()).expect("a corner");
    assert!(got.dist(corner) < 0.2, "snapped to the tower's corner {corner:?}: got {got:?}");
    // Off by the 3 px, unsnapped, it would be this far away.
    let off = sightline::app::camera_view::table_from_image_at(
        h.state().calibration().expect("calibrated"),
        sightline::vision::ImagePoint::new(u + 3.0, v - 3.0),
        5.0,
    )
    .expect("in view");
    assert!(off.dist(corner) > got.dist(corner) + 0.1, "unsnapped {off:?}, snapped {got:?}");
}

/// A ladder put up a traced piece in the app: its two ends clicked near one side are put on that
/// side, the list says so, and "no ladders" takes it away.
#[test]
fn a_ladder_is_put_up_a_piece_from_two_clicks_along_its_side() {
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let mut h = harness(CameraState::new(Err("no camera".into())));
    h.run();
    let k = h.state().scene().terrain.iter().position(|t| t.id == "tower").expect("the demo's tower");
    // The tower is x 20–28, y 20–28, 5" tall; its west side is x = 20.
    h.query_all_by_label("ladder").nth(k).expect("the tower's ladder button").click();
    h.run();
    h.get_by_label("cancel ladder");
    h.state_mut().command(Command::LadderEnd(TablePoint::new(19.8, 23.0)));
    h.state_mut().command(Command::LadderEnd(TablePoint::new(20.3, 24.0)));
    h.run();
    let ladders = h.state().scene().terrain[k].ladders.clone();
    assert_eq!(ladders, vec![[TablePoint::new(20.0, 23.0), TablePoint::new(20.0, 24.0)]]);
    h.get_by_label("tower  5\" · 1 ladder");
    h.get_by_label("a ladder put up \"tower\"");
    h.query_all_by_label("no ladders").next().expect("the tower's no ladders button").click();
    h.run();
    assert!(h.state().scene().terrain[k].ladders.is_empty());
}

/// A mission's Deployment Zones typed corner by corner in the New game window (a corner zone for
/// A): the game file's setup holds them; a corner that is not x,y is named and the game is not made.
#[test]
fn deployment_zones_typed_by_their_corners_go_into_the_new_game() {
    use egui::accesskit::Role;
    let dir = fresh_dir("typed-zones");
    let game = dir.join("zones.jsonl");
    let mut h = harness(CameraState::new(Err("no camera".into())));
    h.run();
    click_each(&mut h, &["New game…"]);
    h.get_by_role_and_label(Role::ComboBox, "Deployment Zones").click();
    h.run();
    click_each(&mut h, &["each by its corners"]);
    retype(&mut h, "A's corners", "0,0 16,0 0,16");
    retype(&mut h, "B's corners", "48,48 x");
    let said = h.query_all_by_label_contains("deployment zones: B's corner 2 (\"x\") is not x,y in inches");
    assert!(said.count() >= 1, "the bad corner is named");
    assert!(disabled(&h, "Create and play"));
    retype(&mut h, "B's corners", "48, 48 32, 48 48, 32");
    retype(&mut h, "Game file", game.to_str().expect("utf-8 path"));
    assert!(!disabled(&h, "Create and play"));
    click_each(&mut h, &["Create and play"]);
    let file = sightline::store::load(&game).expect("the new game file");
    let zones = file.setup.deployment_zones.expect("zones");
    assert_eq!(zones.a, vec![(0.0, 0.0), (16.0, 0.0), (0.0, 16.0)]);
    assert_eq!(zones.b, vec![(48.0, 48.0), (32.0, 48.0), (48.0, 32.0)]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Peripheral outside its Controller's ZoC is listed "out of Coherency"; one inside it is not.
#[test]
fn a_peripheral_out_of_its_controllers_zoc_is_listed_out_of_coherency() {
    let dir = fresh_dir("peripheral");
    let path = dir.join("game.jsonl");
    let t = |id: &str, x: f64, extra: serde_json::Value| {
        let mut v = serde_json::json!({"id": id, "silhouette": 2, "points": 10,
                                       "position": {"x": x, "y": 10.0, "facing": 90.0}});
        if let (Some(v), serde_json::Value::Object(e)) = (v.as_object_mut(), extra) {
            v.extend(e);
        }
        v
    };
    let army = |troopers: Vec<serde_json::Value>| serde_json::json!({"groups": [{"troopers": troopers}]});
    let lt = serde_json::json!({"abilities": ["lieutenant"]});
    let setup = serde_json::json!({"table": {"width": 48, "depth": 48}, "terrain": [], "first": "A", "armies": {
        "A": army(vec![t("a_lt", 2.0, lt.clone()), t("eng", 20.0, serde_json::json!({})),
                       t("bot", 34.0, serde_json::json!({"peripheral_of": "eng"})),
                       t("bot2", 22.0, serde_json::json!({"peripheral_of": "eng"}))]),
        "B": army(vec![t("b_lt", 46.0, lt)])}});
    let header = serde_json::json!({"format": "sightline-game", "version": 1, "setup": setup});
    std::fs::write(&path, format!("{header}\n")).expect("written");
    let (h, _) = game_app(&path);
    h.get_by_label("bot  S2 · out of Coherency");
    h.get_by_label("bot2  S2");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A piece traced at the wrong height is edited in place: the same place in the terrain list,
/// its ladders kept, the trooper on its top raised with it, everything measured again.
#[test]
fn a_terrain_piece_is_edited_in_place_keeping_its_ladders() {
    use sightline::app::Command;
    use sightline::geometry::TablePoint;
    let mut h = harness(CameraState::new(Err("no camera".into())));
    h.run();
    let pieces = h.state().scene().terrain.len();
    let k = h.state().scene().terrain.iter().position(|t| t.id == "tower").expect("the demo's tower");
    h.state_mut().command(Command::StartLadder(k));
    h.state_mut().command(Command::LadderEnd(TablePoint::new(20.0, 23.0)));
    h.state_mut().command(Command::LadderEnd(TablePoint::new(20.0, 24.0)));
    h.run();
    h.query_all_by_label("edit").nth(k).expect("the tower's edit button").click();
    h.run();
    h.get_by_label("Edit terrain piece");
    assert_eq!(h.state_mut().terrain_draft_mut().map(|d| d.corners.len()), Some(4), "its corners to start from");
    h.state_mut().terrain_draft_mut().expect("editing").height_in = 7.0;
    click_each(&mut h, &["Keep changes"]);
    let s = h.state().scene();
    assert_eq!(s.terrain.len(), pieces);
    assert_eq!((s.terrain[k].id.as_str(), s.terrain[k].height_in), ("tower", 7.0));
    assert_eq!(s.terrain[k].ladders.len(), 1, "the ladder is kept");
    let sniper = s.trooper_index("a4-sniper").expect("a4-sniper, on the tower");
    assert_eq!(s.troopers[sniper].body.elevation_in, 7.0, "the trooper on its top stays on it");
    h.get_by_label("terrain \"tower\" changed (7\" tall)");
    let fresh = sightline::geometry::PairTable::new(s);
    assert_eq!(h.state().pairs().pairs(), fresh.pairs(), "measured again with the taller tower");
}
