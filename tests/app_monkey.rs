//! The app under random use (egui_kittest, headless): many steps, each a click on a random
//! button or checkbox, a click or drag somewhere on the window, a key, or some typed text. After
//! every step nothing has panicked, the measurements shown are those of the scene shown (the
//! table kept up to date change by change equals one measured afresh), and with a game open, the
//! table shown is the game's (its terrain and troopers, where the game has them) and the game
//! file on disk replays to the very game the app shows: whatever a player does, what is saved is
//! what they see.
//!
//! The steps come from a fixed seed (with the demo camera, where frames arrive on their own
//! thread, the same steps can meet the app in another state) (`SIGHTLINE_MONKEY_SEED`, default 1), so a failure repeats;
//! `SIGHTLINE_MONKEY_STEPS` sets how many (default 300 a run). The test runs in a directory of
//! its own, since some buttons write files to the working directory (Save table, New game).

mod common;

use common::{Rng, env};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use sightline::app::SightlineApp;
use sightline::app::camera_view::CameraState;
use sightline::app::game_session::GameSession;
use sightline::geometry::Scene;
use sightline::rules::Game;

const SIZE: [f32; 2] = [1280.0, 800.0];

/// What the monkey types: numbers in and out of range, names, a table size, file names that are
/// and are not there, an army code's start, text no field expects (in letters the bundled font draws:
/// the tests panic on a missing glyph, where the app draws a box).
const TEXTS: [&str; 14] = [
    "12",
    "-3",
    "x",
    "1e308",
    "",
    "a1",
    "48x48",
    "NaN",
    "0",
    "game.jsonl",
    "/nonexistent/dir/table.json",
    "gEMpZWxzAA",
    "ünïcødé",
    "999999999999999999999",
];

fn click_at(h: &mut Harness<'_, SightlineApp>, pos: egui::Pos2) {
    let press = |pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    h.event(egui::Event::PointerMoved(pos));
    h.event(press(true));
    h.step();
    h.event(press(false));
}

/// One of the enabled widgets of either role, chosen at random: its label and where it is.
fn any_enabled(h: &Harness<'_, SightlineApp>, roles: [Role; 2], rng: &mut Rng) -> Option<(String, egui::Rect)> {
    let nodes: Vec<_> = roles
        .into_iter()
        .flat_map(|role| h.query_all_by_role(role))
        .filter(|n| !n.accesskit_node().is_disabled())
        .map(|n| (n.accesskit_node().label().unwrap_or_default(), n.rect()))
        .collect();
    (!nodes.is_empty()).then(|| nodes[rng.below(nodes.len())].clone())
}

/// One random step; what it was, for the failure message.
fn step(h: &mut Harness<'_, SightlineApp>, rng: &mut Rng) -> String {
    let anywhere = |rng: &mut Rng| egui::pos2(rng.unit() * SIZE[0], rng.unit() * SIZE[1]);
    let what = match rng.below(22) {
        // Mostly a button or checkbox, as a player finds them.
        0..=10 => {
            let Some((label, rect)) = any_enabled(h, [Role::Button, Role::CheckBox], rng) else {
                return "no button".into();
            };
            click_at(h, rect.center());
            format!("clicked {label:?}")
        }
        11..=15 => {
            let pos = anywhere(rng);
            click_at(h, pos);
            format!("clicked at {pos:?}")
        }
        16..=17 => {
            let (from, to) = (anywhere(rng), anywhere(rng));
            h.drag_at(from);
            h.step();
            h.event(egui::Event::PointerMoved(from.lerp(to, 0.5)));
            h.step();
            h.drop_at(to);
            format!("dragged {from:?} → {to:?}")
        }
        18 => {
            let keys = [egui::Key::Escape, egui::Key::Enter, egui::Key::Tab, egui::Key::Backspace, egui::Key::Delete];
            let key = keys[rng.below(keys.len())];
            h.key_press(key);
            format!("pressed {key:?}")
        }
        19 => {
            let text = TEXTS[rng.below(TEXTS.len())];
            h.event(egui::Event::Text(text.into()));
            format!("typed {text:?}")
        }
        // A text field as a player finds it (a file name, an army code, a known point's
        // position): clicked, then typed into, and the typing sometimes ended with Enter.
        _ => {
            let Some((label, rect)) = any_enabled(h, [Role::TextInput, Role::MultilineTextInput], rng) else {
                return "no text field".into();
            };
            click_at(h, rect.center());
            h.step();
            if rng.below(2) == 0 {
                // (Select what is there, to type over it.)
                h.event(egui::Event::Key {
                    key: egui::Key::A,
                    physical_key: None,
                    pressed: true,
                    repeat: false,
                    modifiers: egui::Modifiers::COMMAND,
                });
            }
            let text = TEXTS[rng.below(TEXTS.len())];
            h.event(egui::Event::Text(text.into()));
            let enter = rng.below(3) == 0;
            if enter {
                h.step();
                h.key_press(egui::Key::Enter);
            }
            format!("typed {text:?} into {label:?}{}", if enter { " and Enter" } else { "" })
        }
    };
    // (Some steps start something that runs on: a bounded number of frames, not until quiet.)
    h.run_steps(3);
    what
}

/// The game the file at `path` holds, replayed as the app replays it, and its events.
fn saved_game(path: &std::path::Path) -> (Game, Vec<sightline::rules::Event>) {
    let file = sightline::store::load(path).expect("the game file reads");
    let events: Vec<_> = file.events.into_iter().map(|l| l.event).collect();
    let (game, _) = Game::replay(file.setup, &events).expect("its setup");
    (game, events)
}

/// Run the random steps on `h`, checking after each; the number of steps after which the game
/// open, or its file, had changed.
fn monkey(mut h: Harness<'static, SightlineApp>, seed: u64) -> usize {
    // (The game open and its file's length: a change of either is a change of the game.)
    let saved = |app: &SightlineApp| {
        app.game().map(|s| (s.path().to_path_buf(), std::fs::metadata(s.path()).map(|m| m.len()).ok()))
    };
    let mut last = saved(h.state());
    let mut changes = 0;
    let mut rng = Rng::new(seed);
    let mut done = Vec::new();
    h.run_steps(2);
    for k in 0..env("SIGHTLINE_MONKEY_STEPS", 300) {
        done.push(step(&mut h, &mut rng));
        if std::env::var_os("SIGHTLINE_MONKEY_SHOW").is_some() {
            eprintln!("{k}: {}", done[done.len() - 1]);
        }
        let recent = || done[done.len().saturating_sub(8)..].join("; ");
        let app = h.state();
        assert_eq!(
            app.pairs().pairs(),
            app.scene().all_pairs().as_slice(),
            "step {k}: the measurements shown are not the scene's, after {}",
            recent()
        );
        // (Whichever game is open: the one the run began with, or one a step started with New
        // game, in a file of its own.)
        if let Some(session) = app.game() {
            let (saved, events) = saved_game(session.path());
            assert!(
                *session.game() == saved,
                "step {k}: the saved game ({}) differs from the app's, after {}\napp's events: {:?}\nsaved: {events:?}",
                session.path().display(),
                recent(),
                session.events()
            );
        }
        // (The table shown carries the routes being declared, drawn and measured before they are
        // played; the game's has none.)
        if let Some(session) = app.game() {
            let without_routes = |scene: &Scene| {
                let mut json = scene.to_json();
                for t in json["troopers"].as_array_mut().into_iter().flatten() {
                    t.as_object_mut().map(|t| t.remove("route"));
                }
                json
            };
            let (shown, game) =
                (without_routes(app.scene()), without_routes(&session.scene().expect("the game's table")));
            assert!(
                shown == game,
                "step {k}: the table shown is not the game's, after {}\nshown: {shown}\nthe game's: {game}",
                recent()
            );
        }
        let now = saved(app);
        changes += usize::from(now != last);
        last = now;
    }
    changes
}

/// A fresh directory of the test's own, made the working directory, held until the guard is
/// dropped: some buttons write files there (Save table, Save A's army, New game) and the New game
/// window lists the army files there, so tests sharing one would see each other's files and take
/// other paths. (The working directory is the process's: the tests take turns.)
fn workdir(name: &str) -> (std::sync::MutexGuard<'static, ()>, std::path::PathBuf) {
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let guard = TURN.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = std::env::temp_dir().join(format!("sightline-monkey-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp dir");
    std::env::set_current_dir(&dir).expect("into it");
    (guard, dir)
}

fn harness(app: SightlineApp) -> Harness<'static, SightlineApp> {
    Harness::builder().with_size(SIZE).build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app)
}

#[test]
fn random_use_of_the_plan_keeps_the_measurements_those_of_the_scene_shown() {
    let _turn = workdir("plan");
    let scene = Scene::from_json(sightline::DEMO_SCENE_JSON).expect("the demo scene");
    let app = SightlineApp::new(scene, "demo table".into(), CameraState::new(Err("no camera".into())), None);
    monkey(harness(app), env("SIGHTLINE_MONKEY_SEED", 1));
}

/// A game file started from `fixture`'s header (and `events` of its events), in a working
/// directory of its own ([`workdir`], held while the guard lives).
fn game_from(fixture: &str, events: usize, name: &str) -> (std::sync::MutexGuard<'static, ()>, std::path::PathBuf) {
    let (turn, dir) = workdir(name);
    let path = dir.join(name);
    let text =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture)).expect("fixture");
    let lines: Vec<&str> = text.lines().take(events.saturating_add(1)).collect();
    std::fs::write(&path, lines.join("\n") + "\n").expect("written");
    (turn, path)
}

#[test]
fn random_use_of_a_game_from_deployment_on_saves_what_the_app_shows() {
    let (_turn, path) = game_from("tests/fixtures/deployment-steps.jsonl", 0, "deployment.jsonl");
    let opened = GameSession::open(&path).expect("the game opens");
    let app = SightlineApp::new(opened.scene.clone(), "game".into(), CameraState::new(Err("no camera".into())), None)
        .with_game(opened);
    // (Tagging on, as a player starts: random clicks on the table then deploy Models.)
    let mut h = harness(app);
    h.run();
    h.get_by_label("Tag where Models stand").click();
    let changes = monkey(h, env("SIGHTLINE_MONKEY_SEED", 1) + 1);
    // (Else the steps never reached the game: more steps, or another seed.)
    assert!(changes > 0, "the random steps never changed the game file");
}

#[test]
fn random_use_of_a_game_in_its_first_turn_saves_what_the_app_shows() {
    let (_turn, path) = game_from("tests/fixtures/full-order-aros.jsonl", usize::MAX, "order.jsonl");
    let opened = GameSession::open(&path).expect("the game opens");
    let app = SightlineApp::new(opened.scene.clone(), "game".into(), CameraState::new(Err("no camera".into())), None)
        .with_game(opened);
    let changes = monkey(harness(app), env("SIGHTLINE_MONKEY_SEED", 1) + 2);
    assert!(changes > 0, "the random steps never changed the game file");
}

/// With the demo camera's picture (its own lens, uncalibrated at the start): calibrating by
/// random clicks on the picture, and tagging Models on it, as well as all the rest.
#[test]
fn random_use_of_a_game_on_the_demo_camera_saves_what_the_app_shows() {
    use sightline::camera::demo::{DemoCamera, DemoSource, default_scene};
    let (_turn, path) = game_from("tests/fixtures/deployment-steps.jsonl", 0, "camera.jsonl");
    let opened = GameSession::open(&path).expect("the game opens");
    let source = DemoSource::new(DemoCamera::default_demo(), default_scene());
    let capture = sightline::camera::Capture::start(Box::new(source), || {}).map_err(|e| e.to_string());
    let app = SightlineApp::new(opened.scene.clone(), "game".into(), CameraState::new(capture), None).with_game(opened);
    let mut h = harness(app);
    for _ in 0..2000 {
        h.run_steps(1);
        if h.state().has_frame() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(h.state().has_frame(), "no camera frame arrived");
    monkey(h, env("SIGHTLINE_MONKEY_SEED", 1) + 3);
}
