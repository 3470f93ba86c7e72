//! `sightline locate` from outside: a photo of a table rendered by a synthetic camera with a known pose, the binary,
//! its JSON, its exit codes and messages.

mod vision_common;

use serde_json::Value;
use sightline::geometry::TablePoint;
use sightline::vision::ImagePoint;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use vision_common::{Camera, IMAGE, render};

/// A temp dir for this test process, with `table.png`: the standard camera's view of a light 48"×48" mat on a dark
/// floor, anti-aliased, with noise.
fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("sightline-locate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp dir");
        let img = render(IMAGE.0, IMAGE.1, &Camera::standard().corners(48.0, 48.0), 190.0, 45.0, 2.0, 3);
        img.save(dir.join("table.png")).expect("write png");
        dir
    })
}

fn photo() -> String {
    dir().join("table.png").to_string_lossy().to_string()
}

fn corners_arg(c: &[ImagePoint; 4]) -> String {
    c.iter().map(|p| format!("{:.4},{:.4}", p.x, p.y)).collect::<Vec<_>>().join(",")
}

fn locate(args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sightline")).arg("locate").args(args).output().expect("run sightline");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json, String::from_utf8_lossy(&out.stderr).to_string())
}

fn xy(v: &Value) -> (f64, f64) {
    (v[0].as_f64().expect("x"), v[1].as_f64().expect("y"))
}

#[test]
fn pixels_map_to_table_inches() {
    let cam = Camera::standard();
    let truth = [(24.0, 24.0), (3.0, 40.0), (47.0, 1.0)].map(|(x, y)| TablePoint::new(x, y));
    let px: Vec<String> = truth.iter().map(|&t| cam.project(t)).map(|p| format!("{:.4},{:.4}", p.x, p.y)).collect();
    let corners = corners_arg(&cam.corners(48.0, 48.0));
    let photo = photo();
    let mut args = vec!["--image", &photo, "--table", "48x48", "--corners", &corners];
    args.extend(px.iter().map(String::as_str));
    let (code, v, err) = locate(&args);
    assert_eq!(code, 0, "{err}");
    let points = v["points"].as_array().expect("points");
    assert_eq!(points.len(), 3);
    for (p, t) in points.iter().zip(truth) {
        let (x, y) = xy(&p["table"]);
        assert!((x - t.x).abs() < 0.002 && (y - t.y).abs() < 0.002, "{p} vs {t:?}");
    }
    assert_eq!(v["residuals_px"].as_array().map(Vec::len), Some(4));
    assert!(v["residuals_px"].as_array().is_some_and(|r| r.iter().all(|r| r.as_f64() == Some(0.0))));
    // Four corners leave no residuals: the estimate assumes CLICK_SIGMA_PX (0.5 px) of click noise, which on this
    // view (the far edge ~0.08"/px) is worth about 0.2" at the far corners.
    let e = v["max_error_in"].as_f64().expect("max_error_in");
    assert!(e > 0.1 && e < 0.4, "{e}");
    assert_eq!(v["image"], serde_json::json!({"width": 1920, "height": 1080}));
    assert_eq!(v["corners"].as_array().map(Vec::len), Some(4));
    assert_eq!(v.get("corners_clicked"), None);
}

#[test]
fn to_image_maps_table_inches_to_pixels() {
    let cam = Camera::standard();
    let corners = corners_arg(&cam.corners(48.0, 48.0));
    let (code, v, err) =
        locate(&["--image", &photo(), "--table", "48x48", "--corners", &corners, "--to-image", "24,24", "10.5,30"]);
    assert_eq!(code, 0, "{err}");
    for (p, t) in v["points"].as_array().expect("points").iter().zip([(24.0, 24.0), (10.5, 30.0)]) {
        assert_eq!(xy(&p["table"]), t);
        let want = cam.project(TablePoint::new(t.0, t.1));
        let (x, y) = xy(&p["pixel"]);
        assert!((x - want.x).abs() < 0.01 && (y - want.y).abs() < 0.01, "{p} vs {want:?}");
    }
    // Negative coordinates go after `--`.
    let (code, v, err) =
        locate(&["--image", &photo(), "--table", "48x48", "--corners", &corners, "--to-image", "--", "-2,5"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(xy(&v["points"][0]["table"]), (-2.0, 5.0));
}

#[test]
fn pairs_file_adds_points_and_residuals() {
    let cam = Camera::standard();
    let corners = corners_arg(&cam.corners(48.0, 48.0));
    let extra = [(24.0, 0.0), (48.0, 24.0), (24.0, 48.0), (0.0, 24.0), (24.0, 24.0)];
    let offsets = [(0.6, -0.3), (-0.4, 0.5), (0.2, 0.7), (-0.6, -0.2), (0.3, 0.3)];
    let entries: Vec<Value> = extra
        .iter()
        .zip(offsets)
        .map(|(&(x, y), (dx, dy))| {
            let p = cam.project(TablePoint::new(x, y));
            serde_json::json!({"pixel": [p.x + dx, p.y + dy], "table": [x, y]})
        })
        .collect();
    let file = dir().join("pairs.json");
    std::fs::write(&file, serde_json::to_string(&entries).expect("json")).expect("write");
    let p = cam.project(TablePoint::new(12.0, 36.0));
    let (code, v, err) = locate(&[
        "--image",
        &photo(),
        "--table",
        "48x48",
        "--corners",
        &corners,
        "--pairs",
        file.to_str().expect("utf8"),
        &format!("{},{}", p.x, p.y),
    ]);
    assert_eq!(code, 0, "{err}");
    let r = v["residuals_px"].as_array().expect("residuals");
    assert_eq!(r.len(), 9);
    assert!(r.iter().any(|r| r.as_f64().is_some_and(|r| r > 0.05)), "{r:?}");
    assert!(v["rms_px"].as_f64().is_some_and(|x| x > 0.0 && x < 1.0));
    let (x, y) = xy(&v["points"][0]["table"]);
    assert!((x - 12.0).abs() < 0.1 && (y - 36.0).abs() < 0.1, "{x} {y}");
}

#[test]
fn snap_moves_rough_corners_onto_the_photo_corners() {
    let cam = Camera::standard();
    let truth = cam.corners(48.0, 48.0);
    let rough = [(1.7, -1.2), (-2.0, 1.5), (1.1, 1.9), (-1.6, -1.8)];
    let clicked: [ImagePoint; 4] =
        [0, 1, 2, 3].map(|k| ImagePoint::new(truth[k].x + rough[k].0, truth[k].y + rough[k].1));
    let far = cam.project(TablePoint::new(40.0, 44.0));
    let (code, v, err) = locate(&[
        "--image",
        &photo(),
        "--table",
        "48x48",
        "--corners",
        &corners_arg(&clicked),
        "--snap",
        &format!("{},{}", far.x, far.y),
    ]);
    assert_eq!(code, 0, "{err}");
    for (k, c) in v["corners"].as_array().expect("corners").iter().enumerate() {
        let (x, y) = xy(c);
        assert!(ImagePoint::new(x, y).dist(truth[k]) < 0.2, "corner {k}: {c} vs {:?}", truth[k]);
        let (cx, cy) = xy(&v["corners_clicked"][k]);
        assert!((cx - clicked[k].x).abs() < 1e-3 && (cy - clicked[k].y).abs() < 1e-3);
    }
    let (x, y) = xy(&v["points"][0]["table"]);
    assert!((x - 40.0).abs() < 0.1 && (y - 44.0).abs() < 0.1, "{x} {y}");

    // Without --snap the same rough clicks are much further off.
    let (code, v, err) = locate(&[
        "--image",
        &photo(),
        "--table",
        "48x48",
        "--corners",
        &corners_arg(&clicked),
        &format!("{},{}", far.x, far.y),
    ]);
    assert_eq!(code, 0, "{err}");
    let (x, y) = xy(&v["points"][0]["table"]);
    eprintln!("rough clicks without snapping: ({x}, {y}) for (40, 44)");
    assert!((x - 40.0).hypot(y - 44.0) > 0.15, "{x} {y}");
}

#[test]
fn bad_input_exits_2_naming_the_argument_or_point() {
    let cam = Camera::standard();
    let c = cam.corners(48.0, 48.0);
    let good = corners_arg(&c);
    let photo = photo();
    let run = |extra: &[&str]| {
        let (code, _, err) = locate(extra);
        assert_eq!(code, 2, "{extra:?}: {err}");
        err
    };
    let err = run(&["--image", "/nonexistent/photo.png", "--table", "48x48", "--corners", &good]);
    assert!(err.contains("--image /nonexistent/photo.png: cannot read"), "{err}");
    let err = run(&["--image", &photo, "--table", "48", "--corners", &good]);
    assert!(err.contains("--table \"48\": expected WIDTHxDEPTH"), "{err}");
    let err = run(&["--image", &photo, "--table", "48x0", "--corners", &good]);
    assert!(err.contains("--table \"48x0\""), "{err}");
    let err = run(&["--image", &photo, "--table", "48x48", "--corners", "1,2,3,4,5,6"]);
    assert!(err.contains("--corners: expected 8 numbers") && err.contains("got 6"), "{err}");
    let err = run(&["--image", &photo, "--table", "48x48", "--corners", "1,2,3,4,5,six,7,8"]);
    assert!(err.contains("--corners: Y3 = \"six\" is not a number"), "{err}");
    // Corners 3 and 4 swapped: a self-crossing quad.
    let swapped = corners_arg(&[c[0], c[1], c[3], c[2]]);
    let err = run(&["--image", &photo, "--table", "48x48", "--corners", &swapped]);
    assert!(
        err.contains("self-crossing") && err.contains("corner 3 (48,48) and corner 4 (0,48) look swapped"),
        "{err}"
    );
    // Reversed: flipped.
    let reversed = corners_arg(&[c[0], c[3], c[2], c[1]]);
    let err = run(&["--image", &photo, "--table", "48x48", "--corners", &reversed]);
    assert!(err.contains("turn the opposite way"), "{err}");
    // A corner outside the photo.
    let outside = corners_arg(&[c[0], ImagePoint::new(1930.0, c[1].y), c[2], c[3]]);
    let err = run(&["--image", &photo, "--table", "48x48", "--corners", &outside]);
    assert!(
        err.contains("corner 2 (48,0): the image point (1930, ") && err.contains("outside the 1920×1080 image"),
        "{err}"
    );
    // Three corners in line.
    let mid = ImagePoint::new((c[1].x + c[3].x) / 2.0, (c[1].y + c[3].y) / 2.0);
    let err = run(&["--image", &photo, "--table", "48x48", "--corners", &corners_arg(&[c[0], c[1], mid, c[3]])]);
    assert!(err.contains("corner 2 (48,0), corner 3 (48,48) and corner 4 (0,48): their image points lie"), "{err}");
    // A point that is not PX,PY.
    let err = run(&["--image", &photo, "--table", "48x48", "--corners", &good, "100,200", "abc"]);
    assert!(err.contains("point 2 \"abc\": expected PX,PY"), "{err}");
    // A pairs file: unreadable, malformed, and with a repeated table point.
    let err = run(&["--image", &photo, "--table", "48x48", "--corners", &good, "--pairs", "/nonexistent/p.json"]);
    assert!(err.contains("--pairs /nonexistent/p.json: cannot read"), "{err}");
    let bad = dir().join("bad-pairs.json");
    std::fs::write(&bad, r#"[{"pixel": [1, 2], "tabel": [3, 4]}]"#).expect("write");
    let err = run(&["--image", &photo, "--table", "48x48", "--corners", &good, "--pairs", bad.to_str().expect("utf8")]);
    assert!(err.contains("bad-pairs.json") && err.contains("tabel"), "{err}");
    std::fs::write(&bad, r#"[{"pixel": [900, 600], "table": [10, 10]}, {"pixel": [950, 650], "table": [48, 0]}]"#)
        .expect("write");
    let err = run(&["--image", &photo, "--table", "48x48", "--corners", &good, "--pairs", bad.to_str().expect("utf8")]);
    assert!(err.contains("bad-pairs.json[1]: the table point (48, 0) repeats corner 2 (48,0)'s"), "{err}");
    // --snap where there is no corner.
    let flat = corners_arg(&[ImagePoint::new(30.0, 30.0), c[1], c[2], c[3]]);
    let err = run(&["--image", &photo, "--table", "48x48", "--corners", &flat, "--snap"]);
    assert!(err.contains("--snap: corner 1 (0,0): no corner within 6 px"), "{err}");
}

/// The camera behind the calibration comes out of the four corners (the standard camera: 1000 px
/// focal length, at (14, −26, 36)"), and `--to-image TX,TY,TZ` places a point TZ inches above the
/// table where that camera shows it.
#[test]
fn the_camera_and_raised_points_come_out_of_the_corners() {
    let cam = Camera::standard();
    let corners = corners_arg(&cam.corners(48.0, 48.0));
    let (code, v, err) =
        locate(&["--image", &photo(), "--table", "48x48", "--corners", &corners, "--to-image", "24,24,5", "10,30"]);
    assert_eq!(code, 0, "{err}");
    let c = &v["camera"];
    assert_eq!(c["focal"], "estimated");
    assert!((c["focal_px"].as_f64().expect("focal_px") - 1000.0).abs() < 0.5, "{c}");
    let eye: Vec<f64> = c["eye"].as_array().expect("eye").iter().filter_map(Value::as_f64).collect();
    for (got, want) in eye.iter().zip([14.0, -26.0, 36.0]) {
        assert!((got - want).abs() < 0.01, "{c}");
    }
    let raised = &v["points"][0];
    assert_eq!(raised["table"], serde_json::json!([24.0, 24.0, 5.0]));
    let (u, w) = xy(&raised["pixel"]);
    let truth = cam.project3([24.0, 24.0, 5.0]);
    assert!((u - truth.x).abs() < 0.01 && (w - truth.y).abs() < 0.01, "{raised} vs {truth:?}");
    // A height that is not a number is refused, naming the point.
    let (code, _, err) =
        locate(&["--image", &photo(), "--table", "48x48", "--corners", &corners, "--to-image", "24,24,high"]);
    assert_eq!(code, 2);
    assert!(err.contains("point 1 \"24,24,high\""), "{err}");
}

/// From eight known points on, `locate` fits the lens too and reports it (`lens`); with the four
/// corners alone it is `null`. The photo's pixels here are bent by a barrel lens of λ = −0.08 (the
/// division model about the picture's centre), corners included, so the corners alone put a
/// point near the table's middle 0.08" off while the eight points put it back.
#[test]
fn eight_known_points_fit_and_report_the_lens() {
    let cam = Camera::standard();
    let lens = sightline::vision::Lens::new(IMAGE, -0.08);
    let seen = |x: f64, y: f64| {
        let p = cam.project(TablePoint::new(x, y));
        let (u, v) = lens.distort((p.x, p.y));
        ImagePoint::new(u, v)
    };
    let corners = corners_arg(&[(0.0, 0.0), (48.0, 0.0), (48.0, 48.0), (0.0, 48.0)].map(|(x, y)| seen(x, y)));
    let extra = [(24.0, 0.0), (48.0, 24.0), (24.0, 48.0), (0.0, 24.0)];
    let entries: Vec<Value> = extra
        .iter()
        .map(|&(x, y)| {
            let p = seen(x, y);
            serde_json::json!({"pixel": [p.x, p.y], "table": [x, y]})
        })
        .collect();
    let file = dir().join("pairs-lens.json");
    std::fs::write(&file, serde_json::to_string(&entries).expect("json")).expect("write");
    let middle = seen(30.0, 20.0);
    let middle = format!("{},{}", middle.x, middle.y);
    let photo = photo();
    let base = ["--image", &photo, "--table", "48x48", "--corners", &corners];
    let (code, v, err) = locate(&[&base[..], &[middle.as_str()]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(v["lens"].is_null(), "{}", v["lens"]);
    let (x, y) = xy(&v["points"][0]["table"]);
    let off = (x - 30.0).hypot(y - 20.0);
    assert!(off > 0.05, "the corners alone cannot see the lens: off by {off}\"");
    let pairs = file.to_str().expect("utf8");
    let (code, v, err) = locate(&[&base[..], &["--pairs", pairs, middle.as_str()]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["lens"]["model"], "division");
    let lambda = v["lens"]["lambda"].as_f64().expect("lambda");
    assert!((lambda + 0.08).abs() < 1e-4, "λ {lambda}");
    assert!(v["lens"]["worst_shift_px"].as_f64().is_some_and(|s| s > 10.0), "{}", v["lens"]);
    let (x, y) = xy(&v["points"][0]["table"]);
    assert!((x - 30.0).hypot(y - 20.0) < off / 20.0, "{x} {y}");
    assert!(v["rms_px"].as_f64().is_some_and(|r| r < 0.01), "{}", v["rms_px"]);
}
