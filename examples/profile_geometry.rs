//! The geometry benchmarks' work, run a set number of times, for counting instructions under
//! callgrind (steadier than wall-clock time on a shared machine; the README's counts come from it):
//!
//! ```sh
//! cargo build --release --example profile_geometry
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/profile_geometry recompute 1
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/profile_geometry recompute-ruins 1
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/profile_geometry visibility 200
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/profile_geometry geo-visibility 200
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/profile_geometry refresh 1
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/profile_geometry none 0
//! ```
//! Subtract the `none` run (loading the scene) and divide by the count. `refresh N` measures
//! everything once, then N times over moves each trooper 1" and back (120 refreshes per round):
//! subtract the `refresh 0` run (the same without the refreshes) and divide by 120·N.
//!
//! `time N` times the full recompute N times instead (without callgrind), printing the median
//! and the 10th and 90th percentiles in milliseconds. Instruction counts miss branches guessed
//! wrong, which take a large part of the recompute's time (docs/benchmark-history.md, "Session 24"), and
//! the machine drifts by more than most changes make from one run to the next. So to compare
//! two versions, build this example for each and run the two in turn, several times over:
//!
//! ```sh
//! cargo build --release --example profile_geometry && cp target/release/examples/profile_geometry /tmp/a
//! # ...change the code...
//! cargo build --release --example profile_geometry && cp target/release/examples/profile_geometry /tmp/b
//! for k in $(seq 10); do /tmp/a time 400; /tmp/b time 400; done
//! ```

use geo_visibility::Visibility as _;
use sightline::geometry::{Arc, Body, PairTable, Scene, TablePoint, visibility_polygon};

// The app's allocator (see src/main.rs), so the counts are the app's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/scenes/bench-30v30.json");
    let text = std::fs::read_to_string(path).expect("the bench scene");
    let scene = Scene::from_json(&text).expect("a valid scene");
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "recompute".into());
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let ruins = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/scenes/bench-30v30-ruins.json");
    let ruins = Scene::from_json(&std::fs::read_to_string(ruins).expect("the ruins scene")).expect("a valid scene");
    let viewer = scene.troopers[0].body.with_arc(Arc::All360);
    // The same segments as benches/geometry.rs gives geo-visibility.
    let (w, d) = (scene.table.width, scene.table.depth);
    let corners = [(0.0, 0.0), (w, 0.0), (w, d), (0.0, d)];
    let mut lines: Vec<geo::Line<f64>> = (0..4).map(|i| geo::Line::from([corners[i], corners[(i + 1) % 4]])).collect();
    for t in scene.terrain.iter().filter(|t| t.height_in > viewer.top()) {
        let n = t.polygon.len();
        lines.extend((0..n).map(|i| {
            let (a, b) = (t.polygon[i], t.polygon[(i + 1) % n]);
            geo::Line::from([(a.x, a.y), (b.x, b.y)])
        }));
    }
    let point = geo::Point::new(viewer.centre.x, viewer.centre.y);
    if what == "time" {
        let mut ms: Vec<f64> = (0..times.max(1))
            .map(|_| {
                let start = std::time::Instant::now();
                drop(std::hint::black_box(scene.all_pairs()));
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        let at = |percent: usize| ms[(ms.len() - 1) * percent / 100];
        println!("full recompute: median {:.3} ms (10th percentile {:.3}, 90th {:.3})", at(50), at(10), at(90));
        return;
    }
    if what == "refresh" {
        let moves = one_inch_moves(&scene);
        let mut table = PairTable::new(&scene);
        for _ in 0..times {
            for moved in &moves {
                std::hint::black_box(table.refresh(moved));
                std::hint::black_box(table.refresh(&scene));
            }
        }
        return;
    }
    for _ in 0..times {
        match what.as_str() {
            "recompute" => drop(std::hint::black_box(scene.all_pairs())),
            "recompute-ruins" => drop(std::hint::black_box(ruins.all_pairs())),
            "visibility" => drop(std::hint::black_box(visibility_polygon(&viewer, &scene.terrain, &scene.table))),
            "geo-visibility" => drop(std::hint::black_box(point.visibility(lines.as_slice()))),
            _ => {}
        }
    }
}

/// For each trooper, the scene with it stepped 1" (the first of four directions that leaves a
/// valid scene).
fn one_inch_moves(scene: &Scene) -> Vec<Scene> {
    (0..scene.troopers.len())
        .filter_map(|k| {
            let b = scene.troopers[k].body;
            [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)].into_iter().find_map(|(dx, dy)| {
                let centre = TablePoint::new(b.centre.x + dx, b.centre.y + dy);
                scene.with_body(k, Body { centre, ..b }).ok()
            })
        })
        .collect()
}
