//! Frame sources and the capture thread, without a webcam: file and folder sources deliver frames
//! in order at the requested rate, the thread shuts down cleanly, a source that fails mid-stream
//! reports the error and stops, a failing webcam-like source is retried, and the UI side never
//! blocks. Time is a virtual clock stepped by the test (no wall-clock assertions).

use image::{Rgba, RgbaImage};
use sightline::camera::{
    CameraError, Capture, CaptureEvent, Clock, FolderSource, FrameSource, SourceSpec, StillSource, demo,
};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A clock that moves only when the test allows one more wait.
struct StepClock {
    now: Mutex<Duration>,
    permits: Mutex<Receiver<()>>,
}

impl StepClock {
    fn new() -> (Self, Sender<()>) {
        let (tx, rx) = mpsc::channel();
        (Self { now: Mutex::new(Duration::ZERO), permits: Mutex::new(rx) }, tx)
    }
}

impl Clock for StepClock {
    fn now(&self) -> Duration {
        *self.now.lock().expect("clock")
    }

    fn wait_until(&self, t: Duration, stop: &Receiver<()>) -> bool {
        let permits = self.permits.lock().expect("permits");
        loop {
            if !matches!(stop.try_recv(), Err(mpsc::TryRecvError::Empty)) {
                return false;
            }
            match permits.recv_timeout(Duration::from_millis(5)) {
                Ok(()) => break,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return false,
            }
        }
        let mut now = self.now.lock().expect("clock");
        *now = (*now).max(t);
        true
    }
}

/// Poll (without asserting on time) until `f` gives something; panics after a generous bound.
fn eventually<T>(mut f: impl FnMut() -> Option<T>) -> T {
    for _ in 0..4000 {
        if let Some(v) = f() {
            return v;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("nothing arrived");
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sightline-cam-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn solid(v: u8) -> RgbaImage {
    RgbaImage::from_pixel(8, 6, Rgba([v, v, v, 255]))
}

#[test]
fn folder_frames_arrive_in_order_at_the_requested_rate_and_loop() {
    let dir = temp_dir("folder");
    for (i, v) in [10u8, 20, 30].iter().enumerate() {
        solid(*v).save(dir.join(format!("f{i}.png"))).expect("save");
    }
    std::fs::write(dir.join("notes.txt"), "not an image").expect("write");
    let src = FolderSource::open(&dir, 4.0).expect("folder");
    assert_eq!(src.files().len(), 3, "only PNG/JPEG files");
    let (clock, step) = StepClock::new();
    let cap = Capture::start_with_clock(Box::new(src), clock, || {}).expect("start");
    for i in 0..7u64 {
        step.send(()).expect("step");
        let f = eventually(|| cap.latest());
        assert_eq!(f.seq, i, "in order, none skipped");
        assert_eq!(f.at, Duration::from_millis(250) * i as u32, "one frame every 1/4 s");
        assert_eq!(f.image.get_pixel(0, 0)[0], [10, 20, 30][(i % 3) as usize], "files in name order, looping");
    }
    assert_eq!(cap.dropped(), 0);
    assert!(cap.description().contains("3 images"));
    cap.stop();
}

#[test]
fn a_still_image_is_delivered_once_then_the_stream_ends() {
    let dir = temp_dir("still");
    solid(77).save(dir.join("a.png")).expect("save");
    let (clock, step) = StepClock::new();
    let cap = Capture::start_with_clock(Box::new(StillSource::open(&dir.join("a.png")).expect("open")), clock, || {})
        .expect("start");
    step.send(()).expect("step");
    let f = eventually(|| cap.latest());
    assert_eq!(f.image.get_pixel(3, 3)[1], 77);
    step.send(()).expect("step");
    let ev = eventually(|| {
        let e = cap.events();
        (!e.is_empty()).then_some(e)
    });
    assert_eq!(ev, vec![CaptureEvent::Ended]);
    eventually(|| cap.is_finished().then_some(()));
}

#[test]
fn a_source_that_fails_mid_stream_reports_the_error_and_stops() {
    let dir = temp_dir("broken");
    solid(1).save(dir.join("a.png")).expect("save");
    std::fs::write(dir.join("b.png"), b"\x89PNG truncated").expect("write");
    let (clock, step) = StepClock::new();
    let cap = Capture::start_with_clock(Box::new(FolderSource::open(&dir, 10.0).expect("open")), clock, || {})
        .expect("start");
    step.send(()).expect("step");
    let good = eventually(|| cap.latest());
    step.send(()).expect("step");
    let ev = eventually(|| {
        let e = cap.events();
        (e.len() >= 2).then_some(e)
    });
    match &ev[0] {
        CaptureEvent::Error(CameraError::File { path, .. }) => assert!(path.ends_with("b.png")),
        other => panic!("expected a file error naming b.png, got {other:?}"),
    }
    assert_eq!(ev[1], CaptureEvent::Ended);
    eventually(|| cap.is_finished().then_some(()));
    assert_eq!(good.seq, 0, "the last good frame is what the UI keeps");
}

/// A webcam stand-in: fails after two frames, fails its first reopen, then works again.
struct Flaky {
    n: u32,
    reopens: u32,
    thread_name: Arc<Mutex<Option<String>>>,
}

impl FrameSource for Flaky {
    fn next_frame(&mut self) -> Result<Option<RgbaImage>, CameraError> {
        *self.thread_name.lock().expect("name") = std::thread::current().name().map(String::from);
        self.n += 1;
        if self.n == 3 {
            return Err(CameraError::Read { device: "flaky".into(), reason: "No such device (unplugged)".into() });
        }
        Ok(Some(solid(self.n as u8)))
    }
    fn interval(&self) -> Option<Duration> {
        Some(Duration::from_millis(100))
    }
    fn describe(&self) -> String {
        "flaky".into()
    }
    fn retry_on_error(&self) -> bool {
        true
    }
    fn reopen(&mut self) -> Result<(), CameraError> {
        self.reopens += 1;
        if self.reopens == 1 { Err(CameraError::NoCamera) } else { Ok(()) }
    }
}

#[test]
fn an_unplugged_camera_is_retried_and_frames_resume_on_the_named_thread() {
    let name = Arc::new(Mutex::new(None));
    let src = Flaky { n: 0, reopens: 0, thread_name: Arc::clone(&name) };
    let (clock, step) = StepClock::new();
    let cap = Capture::start_with_clock(Box::new(src), clock, || {}).expect("start");
    let mut seen = Vec::new();
    let mut events = Vec::new();
    for _ in 0..8 {
        step.send(()).expect("step");
        std::thread::sleep(Duration::from_millis(10));
        if let Some(f) = cap.latest() {
            seen.push(f.image.get_pixel(0, 0)[0]);
        }
        events.extend(cap.events());
    }
    step.send(()).expect("step");
    let more = eventually(|| cap.latest());
    seen.push(more.image.get_pixel(0, 0)[0]);
    events.extend(cap.events());
    assert!(matches!(events.first(), Some(CaptureEvent::Error(CameraError::Read { .. }))), "{events:?}");
    assert!(events.contains(&CaptureEvent::Error(CameraError::NoCamera)), "the failed reopen is reported");
    assert!(events.contains(&CaptureEvent::Recovered), "{events:?}");
    assert!(!events.contains(&CaptureEvent::Ended));
    assert!(seen.iter().any(|&v| v >= 4), "frames after the reconnection: {seen:?}");
    assert_eq!(name.lock().expect("name").as_deref(), Some("camera-capture"));
    drop(cap); // joins the thread
}

/// A source that blocks inside `next_frame` until the test releases it.
struct Stuck {
    release: Receiver<()>,
}

impl FrameSource for Stuck {
    fn next_frame(&mut self) -> Result<Option<RgbaImage>, CameraError> {
        let _ = self.release.recv();
        Ok(Some(solid(5)))
    }
    fn interval(&self) -> Option<Duration> {
        None
    }
    fn describe(&self) -> String {
        "stuck".into()
    }
}

#[test]
fn the_ui_side_never_blocks_on_a_slow_source() {
    let (release, rx) = mpsc::channel();
    let cap = Capture::start(Box::new(Stuck { release: rx }), || {}).expect("start");
    // The capture thread is blocked in the source: the UI still gets an answer at once.
    for _ in 0..100 {
        assert!(cap.latest().is_none());
        assert!(cap.events().is_empty());
    }
    release.send(()).expect("release");
    let f = eventually(|| cap.latest());
    assert_eq!(f.seq, 0);
    drop(release); // the source's next recv fails at once, so the thread can be joined
    cap.stop();
}

#[test]
fn stale_frames_are_dropped_and_the_newest_kept() {
    let dir = temp_dir("stale");
    for i in 0..3u8 {
        solid(i * 50).save(dir.join(format!("f{i}.png"))).expect("save");
    }
    let (clock, step) = StepClock::new();
    let cap = Capture::start_with_clock(Box::new(FolderSource::open(&dir, 10.0).expect("open")), clock, || {})
        .expect("start");
    for _ in 0..3 {
        step.send(()).expect("step");
    }
    // Wait until the third frame has replaced the first two in the mailbox.
    eventually(|| (cap.dropped() == 2).then_some(()));
    let f = cap.latest().expect("newest");
    assert_eq!(f.seq, 2);
    assert!(cap.latest().is_none(), "taken");
}

#[test]
fn bad_sources_are_refused_with_the_path() {
    let dir = temp_dir("empty");
    match FolderSource::open(&dir, 5.0) {
        Err(e @ CameraError::EmptyFolder(_)) => assert!(e.to_string().contains("no PNG or JPEG")),
        other => panic!("{other:?}"),
    }
    // A bad rate is refused, with the rate, before the folder is read.
    for fps in [0.0, -1.0, f64::NAN, f64::INFINITY, 1000.5] {
        match FolderSource::open(&dir, fps) {
            Err(e @ CameraError::BadRate(_)) => {
                assert!(e.to_string().starts_with(&format!("--fps {fps}: give a rate above 0")), "{e}")
            }
            other => panic!("{fps}: {other:?}"),
        }
    }
    assert!(matches!(FolderSource::open(&dir, 1000.0), Err(CameraError::EmptyFolder(_))));
    let e = StillSource::open(&dir.join("missing.png")).expect_err("missing");
    assert!(e.to_string().contains("missing.png"), "{e}");
    assert!("folder:".parse::<SourceSpec>().is_err());
}

/// The command line refuses a bad `--fps` at once, whatever the source (before session 16 a demo
/// or webcam source ignored `--fps nan`, and `--fps -1` read as an unknown flag).
#[test]
fn the_command_line_refuses_a_bad_rate() {
    for fps in ["0", "-1", "nan", "inf", "1e9", "two"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
            .args(["--fps", fps, "cameras"])
            .output()
            .expect("run sightline");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--fps {fps}: {err}");
        assert!(err.contains(&format!("invalid value '{fps}' for '--fps <FPS>'")), "--fps {fps}: {err}");
        assert!(err.contains("above 0 and at most 1000") || err.contains("not a number"), "--fps {fps}: {err}");
    }
}

#[test]
fn the_demo_render_matches_its_ground_truth() {
    let scene = demo::default_scene();
    let cam = demo::DemoCamera { noise: 0.0, ..demo::DemoCamera::default_demo() };
    let img = cam.render(&scene);
    assert_eq!(img.dimensions(), (cam.image[0], cam.image[1]));
    let table = (scene.table.width, scene.table.depth);
    let px = |x: f64, y: f64| {
        let (u, v) = cam.image_from_table(sightline::geometry::TablePoint::new(x, y), table).expect("in front");
        *img.get_pixel(u.floor() as u32, v.floor() as u32)
    };
    let mat = |p: Rgba<u8>| p[1] > p[0] + 8 && p[1] > p[2] + 8; // the green mat
    // Open mat points are mat-coloured; a trooper's base centre is not; off-table points are not.
    assert!(mat(px(3.0, 45.0)) && mat(px(45.0, 3.0)) && mat(px(30.0, 16.0)), "mat where the truth says mat");
    assert!(!mat(px(8.0, 6.0)), "a1-fusilier stands at (8, 6)");
    assert!(!mat(px(24.0, 24.0)), "the tower covers (24, 24)");
    // Corners: just inside is mat, just outside (past the far corners) is not.
    for (x, y) in [(0.0, 48.0), (48.0, 48.0)] {
        let inside = (if x > 0.0 { x - 0.4 } else { 0.4 }, y - 0.4);
        assert!(mat(px(inside.0, inside.1)), "inside corner ({x}, {y})");
        let outside = (if x > 0.0 { x + 0.6 } else { -0.6 }, y + 0.6);
        assert!(!mat(px(outside.0, outside.1)), "outside corner ({x}, {y})");
    }
}

/// The demo table follows the game: given the table as it now stands, the demo source draws it
/// for its next frame (as a camera would see the Models moved), exactly as a new source for that
/// table would, and keeps drawing it.
#[test]
fn the_demo_source_draws_the_table_again_when_it_changes() {
    let cam = demo::DemoCamera::default_demo();
    let scene = demo::default_scene();
    let mut source = demo::DemoSource::new(cam.clone(), scene.clone());
    let table = source.table();
    let before = source.next_frame().expect("a frame").expect("an image");
    assert_eq!(source.next_frame().expect("a frame").expect("an image"), before, "unchanged: the same picture");
    let moved_to = sightline::geometry::TablePoint::new(40.0, 24.0);
    let moved = scene.with_body(0, scene.troopers[0].body.at(moved_to)).expect("a valid table");
    table.show(&moved);
    let after = source.next_frame().expect("a frame").expect("an image");
    assert_ne!(after, before);
    assert_eq!(after, cam.render(&moved), "the moved table, as a new source would draw it");
    // Where the Model now stands the picture changed; and it stays drawn there.
    let (u, v) = cam.image_from_table(moved_to, (scene.table.width, scene.table.depth)).expect("in view");
    let (u, v) = (u.round() as u32, v.round() as u32);
    assert_ne!(after.get_pixel(u, v), before.get_pixel(u, v));
    assert_eq!(source.next_frame().expect("a frame").expect("an image"), after);
}
