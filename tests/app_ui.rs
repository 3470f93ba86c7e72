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
