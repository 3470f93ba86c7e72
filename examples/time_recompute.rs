//! The full recompute of `benches/geometry.rs` (distance, ZoC and LoF for all 3,540 ordered pairs
//! of `bench-30v30.json`, on new obstacles each time), timed 400 times: the median and the 10th
//! and 90th percentiles, in milliseconds.
//!
//! For comparing two versions of the code on a shared machine, whose speed drifts by more than
//! most changes make: build this example for each, and run the two binaries in turn, several
//! times over (the README's session-24 figures were compared so):
//!
//! ```sh
//! cargo build --release --example time_recompute && cp target/release/examples/time_recompute /tmp/a
//! # ...change the code...
//! cargo build --release --example time_recompute && cp target/release/examples/time_recompute /tmp/b
//! for k in $(seq 10); do /tmp/a; /tmp/b; done
//! ```
//!
//! Instruction counts (`examples/profile_geometry.rs`) do not tell time here: about 40% of the
//! recompute's time is branches guessed wrong and cold caches, which callgrind does not count.

use sightline::geometry::{Obstacles, Scene, distance, line_of_fire, zoc};

// The app's allocator (see src/main.rs), so the times are the app's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/scenes/bench-30v30.json");
    let text = std::fs::read_to_string(path).expect("the bench scene");
    let scene = Scene::from_json(&text).expect("a valid scene");
    let bodies = scene.bodies();
    let n = bodies.len();
    let mut times: Vec<f64> = (0..400)
        .map(|_| {
            let start = std::time::Instant::now();
            let obstacles = Obstacles::new(&scene.terrain, &bodies);
            let mut seen = 0usize;
            for i in 0..n {
                for j in (0..n).filter(|&j| j != i) {
                    let d = distance(&bodies[i], &bodies[j]);
                    let z = zoc(&bodies[i], &bodies[j]);
                    let l = line_of_fire(&obstacles, &bodies[i], &bodies[j], &[i, j]);
                    seen += usize::from(l.lof.has_lof()) + usize::from(z.is_inside()) + usize::from(d < 8.0);
                }
            }
            std::hint::black_box(seen);
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!("full recompute: median {:.3} ms (10th percentile {:.3}, 90th {:.3})", times[200], times[40], times[360]);
}
