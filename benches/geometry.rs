//! Geometry benchmarks on the shipped 30 v 30 scene (`assets/scenes/bench-30v30.json`, made by
//! `scripts/make-bench-scene.py`): 60 troopers among 40 terrain pieces on a 48" table.
//!
//! 1. `full_recompute_30v30`: distance, ZoC and LoF for all 3,540 ordered pairs; and
//!    `full_recompute_30v30_ruins`, the same on `bench-30v30-ruins.json`, where 29 of the 40
//!    pieces are L- or U-shaped ruins (concave), as on real tables.
//! 2. `visibility_polygon`: one trooper's visibility polygon, beside the `geo-visibility` crate
//!    on the same segments (table edges plus the edges of pieces taller than the trooper).
//! 3. `refresh_after_one_move_30v30`: `PairTable::refresh` after one trooper steps 1" (each
//!    trooper in turn, and back): what the table costs per change once it is built.

use criterion::{Criterion, criterion_group, criterion_main};
use geo_visibility::Visibility;
use sightline::geometry::{
    Arc, Body, Obstacles, PairTable, Scene, TablePoint, distance, line_of_fire, visibility_polygon, zoc,
};
use std::hint::black_box;

// The app's allocator (see src/main.rs), so the figures are the app's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn load() -> Scene {
    load_named("bench-30v30.json")
}

fn load_named(name: &str) -> Scene {
    let path = format!("{}/assets/scenes/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("bench scene");
    Scene::from_json(&text).expect("valid bench scene")
}

fn full_recompute(c: &mut Criterion) {
    for (name, file) in
        [("full_recompute_30v30", "bench-30v30.json"), ("full_recompute_30v30_ruins", "bench-30v30-ruins.json")]
    {
        recompute_scene(c, name, &load_named(file));
    }
}

fn recompute_scene(c: &mut Criterion, name: &str, scene: &Scene) {
    let bodies = scene.bodies();
    c.bench_function(name, |b| {
        b.iter(|| {
            let obstacles = Obstacles::new(&scene.terrain, &bodies);
            let mut seen = 0usize;
            for i in 0..bodies.len() {
                for j in 0..bodies.len() {
                    if i == j {
                        continue;
                    }
                    let d = distance(&bodies[i], &bodies[j]);
                    let z = zoc(&bodies[i], &bodies[j]);
                    let l = line_of_fire(&obstacles, &bodies[i], &bodies[j], &[i, j]);
                    seen += usize::from(l.lof.has_lof()) + usize::from(z.is_inside()) + usize::from(d < 8.0);
                }
            }
            black_box(seen)
        })
    });
}

fn refresh(c: &mut Criterion) {
    let scene = load();
    // Each trooper stepped 1" (the first of four directions that leaves a valid scene).
    let moves: Vec<Scene> = (0..scene.troopers.len())
        .filter_map(|k| {
            let b = scene.troopers[k].body;
            [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)].into_iter().find_map(|(dx, dy)| {
                let centre = TablePoint::new(b.centre.x + dx, b.centre.y + dy);
                scene.with_body(k, Body { centre, ..b }).ok()
            })
        })
        .collect();
    let mut table = PairTable::new(&scene);
    let mut step = 0usize;
    c.bench_function("refresh_after_one_move_30v30", |b| {
        b.iter(|| {
            // Out to the next move, then back: every refresh is one trooper's step.
            let to = if step.is_multiple_of(2) { &moves[(step / 2) % moves.len()] } else { &scene };
            step += 1;
            black_box(table.refresh(to))
        })
    });
}

fn visibility(c: &mut Criterion) {
    let scene = load();
    let viewer = scene.troopers[0].body;
    let mut group = c.benchmark_group("visibility_polygon");
    group.bench_function("sightline_180", |b| {
        b.iter(|| black_box(visibility_polygon(&viewer, &scene.terrain, &scene.table)))
    });
    let round = viewer.with_arc(Arc::All360);
    group.bench_function("sightline_360", |b| {
        b.iter(|| black_box(visibility_polygon(&round, &scene.terrain, &scene.table)))
    });
    // The same obstacles for geo-visibility (it always computes 360°).
    let (w, d) = (scene.table.width, scene.table.depth);
    let corners = [(0.0, 0.0), (w, 0.0), (w, d), (0.0, d)];
    let mut lines: Vec<geo::Line<f64>> = (0..4).map(|i| geo::Line::from([corners[i], corners[(i + 1) % 4]])).collect();
    for t in scene.terrain.iter().filter(|t| t.height_in > viewer.top()) {
        let n = t.polygon.len();
        for i in 0..n {
            let (a, b) = (t.polygon[i], t.polygon[(i + 1) % n]);
            lines.push(geo::Line::from([(a.x, a.y), (b.x, b.y)]));
        }
    }
    let point = geo::Point::new(viewer.centre.x, viewer.centre.y);
    group.bench_function("geo_visibility_360", |b| b.iter(|| black_box(point.visibility(lines.as_slice()))));
    group.finish();
}

criterion_group!(benches, full_recompute, refresh, visibility);
criterion_main!(benches);
