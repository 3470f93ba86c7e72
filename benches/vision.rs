//! Calibration benchmarks (issue 4's targets, from OpenCV on this machine: `findHomography` ≈ 9 µs for 4 points and
//! ≈ 74 µs for 50; `perspectiveTransform` of 100k points ≈ 0.2 ms).
//!
//! 1. `fit_4`: the homography from the four table corners of a 1920×1080 view of a 48"×48" table.
//! 2. `fit_50`: from 50 pairs (corners first, 46 points inside, clicks off by up to ±1 px): DLT + refinement, the
//!    homography alone (`fit_without_lens`), as `findHomography` fits it; `fit_50_with_lens` and `fit_9_with_lens` (the
//!    corners, edge middles and centre) fit the lens's distortion too, as `Calibration::fit` does from 8 pairs on.
//! 3. `table_from_image_100k`: map 100,000 image points to the table (into a new `Vec`, and into a reused one).
//! 4. `max_error_in_4`: the Monte Carlo error estimate (200 refits) of the 4-corner calibration.
//! 5. `snap_corner`: snap a click 3 px off a corner in a 1920×1080 image.

use criterion::{Criterion, criterion_group, criterion_main};
use image::{GrayImage, Luma};
use sightline::geometry::TablePoint;
use sightline::vision::{Calibration, ImagePoint, NormalRng, PointPair, corner_pairs, known_points, snap_corner};
use std::hint::black_box;

const IMAGE: (u32, u32) = (1920, 1080);

/// A fixed homography standing in for a camera above and in front of the table (table inches to pixels).
fn project(t: TablePoint) -> ImagePoint {
    let m = [[22.7, 4.1, 420.0], [-0.4, -9.5, 1010.0], [0.0002, 0.0105, 1.0]];
    let w = m[2][0] * t.x + m[2][1] * t.y + m[2][2];
    ImagePoint::new((m[0][0] * t.x + m[0][1] * t.y + m[0][2]) / w, (m[1][0] * t.x + m[1][1] * t.y + m[1][2]) / w)
}

fn corners() -> [ImagePoint; 4] {
    [(0.0, 0.0), (48.0, 0.0), (48.0, 48.0), (0.0, 48.0)].map(|(x, y)| project(TablePoint::new(x, y)))
}

fn fits(c: &mut Criterion) {
    let four = corner_pairs(48.0, 48.0, corners());
    c.bench_function("fit_4", |b| b.iter(|| Calibration::fit(IMAGE, black_box(&four)).expect("fit")));

    let mut rng = NormalRng::new(3);
    let mut fifty = four.to_vec();
    while fifty.len() < 50 {
        let t = TablePoint::new(rng.range(1.0, 47.0), rng.range(1.0, 47.0));
        let p = project(t);
        fifty.push(PointPair::new(ImagePoint::new(p.x + rng.range(-1.0, 1.0), p.y + rng.range(-1.0, 1.0)), t));
    }
    c.bench_function("fit_50", |b| b.iter(|| Calibration::fit_without_lens(IMAGE, black_box(&fifty)).expect("fit")));
    c.bench_function("fit_50_with_lens", |b| b.iter(|| Calibration::fit(IMAGE, black_box(&fifty)).expect("fit")));
    let nine: Vec<PointPair> = known_points(48.0, 48.0).iter().map(|&t| PointPair::new(project(t), t)).collect();
    c.bench_function("fit_9_with_lens", |b| b.iter(|| Calibration::fit(IMAGE, black_box(&nine)).expect("fit")));
    let with_lens = Calibration::fit(IMAGE, &nine).expect("fit");
    c.bench_function("max_error_in_9_with_lens", |b| b.iter(|| black_box(&with_lens).max_error_in()));

    let cal = Calibration::fit(IMAGE, &four).expect("fit");
    let points: Vec<ImagePoint> =
        (0..100_000).map(|_| ImagePoint::new(rng.range(400.0, 1500.0), rng.range(300.0, 1000.0))).collect();
    c.bench_function("table_from_image_100k", |b| {
        b.iter(|| black_box(&points).iter().map(|&p| cal.table_from_image(p)).collect::<Vec<TablePoint>>())
    });
    // The same into a buffer kept between frames (no 1.6 MB allocation per run).
    let mut out: Vec<TablePoint> = Vec::with_capacity(points.len());
    c.bench_function("table_from_image_100k_reused_buffer", |b| {
        b.iter(|| {
            cal.table_from_image_into(black_box(&points), &mut out);
            black_box(out.len())
        })
    });
    c.bench_function("max_error_in_4", |b| b.iter(|| black_box(&cal).max_error_in()));
}

fn snap(c: &mut Criterion) {
    // A light quadrilateral (the mat) on a dark floor, edges anti-aliased by 4 × 4 supersampling.
    let q = corners();
    let inside = |x: f64, y: f64| {
        (0..4).all(|k| {
            let (a, b) = (q[k], q[(k + 1) % 4]);
            (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x) <= 0.0
        })
    };
    let img = GrayImage::from_fn(IMAGE.0, IMAGE.1, |i, j| {
        let n: u32 = (0..16)
            .map(|s| {
                u32::from(inside(
                    f64::from(i) + (f64::from(s % 4) + 0.5) / 4.0,
                    f64::from(j) + (f64::from(s / 4) + 0.5) / 4.0,
                ))
            })
            .sum();
        Luma([(45 + n * 145 / 16) as u8])
    });
    let click = ImagePoint::new(q[2].x + 2.0, q[2].y - 2.0);
    c.bench_function("snap_corner", |b| b.iter(|| snap_corner(&img, black_box(click), 6.0).expect("snap")));
}

criterion_group!(benches, fits, snap);
criterion_main!(benches);
