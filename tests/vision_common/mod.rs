//! Helpers shared by the vision tests: a synthetic pinhole camera above a table, and an anti-aliased renderer of
//! bright quadrilaterals on a dark background.

#![allow(dead_code)]

use image::{GrayImage, Luma};
use sightline::geometry::TablePoint;
use sightline::vision::{ImagePoint, NormalRng};

/// Image size of the synthetic camera, pixels.
pub const IMAGE: (u32, u32) = (1920, 1080);

/// A pinhole camera: centre `c` (inches, table space, z up), rotation rows `x`, `y`, `z` (camera axes in table space:
/// x right, y down, z forward), focal length `f` pixels, principal point at the image centre.
#[derive(Debug, Clone, Copy)]
pub struct Camera {
    c: [f64; 3],
    x: [f64; 3],
    y: [f64; 3],
    z: [f64; 3],
    f: f64,
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn unit(a: [f64; 3]) -> [f64; 3] {
    let n = dot(a, a).sqrt();
    [a[0] / n, a[1] / n, a[2] / n]
}

impl Camera {
    /// A camera at `eye` looking at `target` (table space, inches, z up), with no roll.
    pub fn looking_at(eye: [f64; 3], target: [f64; 3], f: f64) -> Self {
        let z = unit(sub(target, eye));
        let x = unit(cross(z, [0.0, 0.0, 1.0]));
        let y = cross(z, x);
        Self { c: eye, x, y, z, f }
    }

    /// The default test camera: above and in front of a 48"×48" table, yawed and tilted (about 37° down).
    pub fn standard() -> Self {
        Self::looking_at([14.0, -26.0, 36.0], [26.0, 21.0, 0.0], 1000.0)
    }

    /// Where table point `p` (z = 0) appears, pixels.
    pub fn project(&self, p: TablePoint) -> ImagePoint {
        self.project3([p.x, p.y, 0.0])
    }

    /// Where the 3D point `p` (table space, inches) appears, pixels.
    pub fn project3(&self, p: [f64; 3]) -> ImagePoint {
        let (q, zc) = self.project_any(p);
        assert!(zc > 0.0, "point behind the camera");
        q
    }

    /// The pinhole projection of `p` even when it is behind the camera, with its depth (negative behind).
    pub fn project_any(&self, p: [f64; 3]) -> (ImagePoint, f64) {
        let d = sub(p, self.c);
        let (xc, yc, zc) = (dot(self.x, d), dot(self.y, d), dot(self.z, d));
        (ImagePoint::new(self.f * xc / zc + f64::from(IMAGE.0) / 2.0, self.f * yc / zc + f64::from(IMAGE.1) / 2.0), zc)
    }

    /// The table corners (0,0), (W,0), (W,D), (0,D) in the image.
    pub fn corners(&self, w: f64, d: f64) -> [ImagePoint; 4] {
        [(0.0, 0.0), (w, 0.0), (w, d), (0.0, d)].map(|(x, y)| self.project(TablePoint::new(x, y)))
    }
}

/// Points on an `n × n` grid over a `w × d` table, edges included.
pub fn table_grid(w: f64, d: f64, n: usize) -> Vec<TablePoint> {
    (0..n * n)
        .map(|k| TablePoint::new(w * (k % n) as f64 / (n - 1) as f64, d * (k / n) as f64 / (n - 1) as f64))
        .collect()
}

/// The same points with the four table corners (0,0), (W,0), (W,D), (0,D) moved to the front, in that order (the
/// calibration takes its first four pairs as the corner quad).
pub fn corners_first(mut pts: Vec<TablePoint>, w: f64, d: f64) -> Vec<TablePoint> {
    let corners = [(0.0, 0.0), (w, 0.0), (w, d), (0.0, d)].map(|(x, y)| TablePoint::new(x, y));
    pts.retain(|p| !corners.contains(p));
    corners.into_iter().chain(pts).collect()
}

/// Whether `p` is inside the convex polygon `poly` (either winding).
fn inside(poly: &[ImagePoint], p: (f64, f64)) -> bool {
    let mut sign = 0.0;
    for k in 0..poly.len() {
        let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
        let c = (b.x - a.x) * (p.1 - a.y) - (b.y - a.y) * (p.0 - a.x);
        if c == 0.0 {
            continue;
        }
        if sign == 0.0 {
            sign = c.signum();
        } else if c.signum() != sign {
            return false;
        }
    }
    true
}

/// Distance from `p` to the segment `ab`.
fn seg_dist(a: ImagePoint, b: ImagePoint, p: (f64, f64)) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let t = (((p.0 - a.x) * dx + (p.1 - a.y) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    (p.0 - a.x - t * dx).hypot(p.1 - a.y - t * dy)
}

/// A `width × height` image of the convex polygon `poly` (grey `fg`) on grey `bg`, each pixel's value its covered
/// fraction (8 × 8 supersampling near the edges), plus Gaussian noise of `noise` grey levels (seeded).
pub fn render(width: u32, height: u32, poly: &[ImagePoint], fg: f64, bg: f64, noise: f64, seed: u64) -> GrayImage {
    let mut rng = NormalRng::new(seed);
    GrayImage::from_fn(width, height, |i, j| {
        let c = (f64::from(i) + 0.5, f64::from(j) + 0.5);
        let near = (0..poly.len()).any(|k| seg_dist(poly[k], poly[(k + 1) % poly.len()], c) < 1.0);
        let cover = if near {
            let mut n = 0;
            for sj in 0..8 {
                for si in 0..8 {
                    let s = (f64::from(i) + (f64::from(si) + 0.5) / 8.0, f64::from(j) + (f64::from(sj) + 0.5) / 8.0);
                    n += usize::from(inside(poly, s));
                }
            }
            n as f64 / 64.0
        } else if inside(poly, c) {
            1.0
        } else {
            0.0
        };
        let v = bg + (fg - bg) * cover + noise * rng.normal();
        Luma([v.round().clamp(0.0, 255.0) as u8])
    })
}
