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

#[test]
fn clicking_a_trooper_in_the_list_selects_it_and_shows_its_measurements() {
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(|ui, app: &mut SightlineApp| app.show(ui), app(CameraState::new(Err("no camera".into()))));
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
fn a_missing_camera_is_shown_not_fatal_and_the_plan_still_works() {
    let mut h = Harness::builder().with_size([1280.0, 800.0]).build_ui_state(
        |ui, app: &mut SightlineApp| app.show(ui),
        app(CameraState::new(Err("no camera found (is one plugged in?)".into()))),
    );
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
