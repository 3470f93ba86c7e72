//! Radial lens distortion: the one-parameter division model (Fitzgibbon 2001, "Simultaneous
//! linear estimation of multiple view geometry and lens distortion", CVPR), about the picture's
//! centre (assumption CAMERA_INTRINSICS in the README).
//!
//! A webcam's lens bends straight lines on the table, most at the picture's edges (barrel
//! distortion: points pulled towards the centre). The model says where an observed pixel `p`
//! would be in an ideal pinhole picture:
//!
//! `u = c + (p − c) / (1 + λ·ρ²)`, `ρ = |p − c| / s`,
//!
//! with `c` the picture's centre and `s` its half-diagonal, pixels (so `ρ = 1` at a corner and
//! `λ` does not depend on the resolution). `λ < 0` is barrel distortion, `λ > 0` pincushion,
//! `λ = 0` none. A homography then maps the table to the ideal picture.
//!
//! Units: image pixels; `λ` has none.

use super::homography::P2;

/// The distortion of one camera's pictures (see the module's docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lens {
    lambda: f64,
    centre: P2,
    half_diagonal: f64,
}

impl Lens {
    /// A lens of distortion `lambda` for pictures of `image_size` = (width, height) pixels.
    pub fn new(image_size: (u32, u32), lambda: f64) -> Self {
        let (w, h) = (f64::from(image_size.0), f64::from(image_size.1));
        Self { lambda, centre: (w / 2.0, h / 2.0), half_diagonal: (w.hypot(h) / 2.0).max(1e-9) }
    }

    /// No distortion.
    pub fn none(image_size: (u32, u32)) -> Self {
        Self::new(image_size, 0.0)
    }

    /// The division model's `λ` (0: none).
    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// Whether the lens bends anything.
    pub fn is_none(&self) -> bool {
        self.lambda == 0.0
    }

    /// Where observed pixel `p` lies in the ideal pinhole picture, pixels.
    pub fn undistort(&self, p: P2) -> P2 {
        if self.is_none() {
            return p;
        }
        let (dx, dy) = (p.0 - self.centre.0, p.1 - self.centre.1);
        let rho2 = (dx * dx + dy * dy) / (self.half_diagonal * self.half_diagonal);
        let k = 1.0 / (1.0 + self.lambda * rho2);
        (self.centre.0 + dx * k, self.centre.1 + dy * k)
    }

    /// Where a point `u` of the ideal pinhole picture is observed, pixels: the inverse of
    /// [`Self::undistort`]. With `ρᵤ` its radius and `ρ` the observed one, `λ·ρᵤ·ρ² − ρ + ρᵤ = 0`;
    /// the root that goes to `ρᵤ` as `λ → 0` is `ρ = 2ρᵤ / (1 + √(1 − 4λρᵤ²))`. Pincushion
    /// (`λ > 0`) maps no observed point beyond `ρᵤ = 1/(2√λ)`; points past that (far outside
    /// the picture) are put where the model folds.
    pub fn distort(&self, u: P2) -> P2 {
        if self.is_none() {
            return u;
        }
        let (dx, dy) = (u.0 - self.centre.0, u.1 - self.centre.1);
        let rho_u2 = (dx * dx + dy * dy) / (self.half_diagonal * self.half_diagonal);
        let k = 2.0 / (1.0 + (1.0 - 4.0 * self.lambda * rho_u2).max(0.0).sqrt());
        (self.centre.0 + dx * k, self.centre.1 + dy * k)
    }

    /// How far, pixels, the lens moves the point it moves most among the picture's corners and
    /// edge middles (a figure for the status line).
    pub fn worst_shift_px(&self) -> f64 {
        let (cx, cy) = self.centre;
        let (w, h) = (2.0 * cx, 2.0 * cy);
        let edge = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h), (cx, 0.0), (w, cy), (cx, h), (0.0, cy)];
        edge.iter()
            .map(|&p| {
                let u = self.undistort(p);
                (u.0 - p.0).hypot(u.1 - p.1)
            })
            .fold(0.0, f64::max)
    }
}

/// The least of `f` over `[lo, hi]` by golden-section search (`iterations` steps, each
/// shrinking the bracket by 0.618), for a function with one minimum there: `(x, f(x))`.
pub(crate) fn golden_min(mut f: impl FnMut(f64) -> f64, (mut lo, mut hi): (f64, f64), iterations: usize) -> (f64, f64) {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..iterations {
        if fa <= fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - g * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + g * (hi - lo);
            fb = f(b);
        }
    }
    if fa <= fb { (a, fa) } else { (b, fb) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distort_undoes_undistort_over_the_picture() {
        for lambda in [-0.3, -0.05, 0.0, 0.02, 0.2] {
            let lens = Lens::new((1280, 720), lambda);
            for i in 0..=16 {
                for j in 0..=9 {
                    let p = (80.0 * f64::from(i), 80.0 * f64::from(j));
                    let q = lens.distort(lens.undistort(p));
                    assert!((q.0 - p.0).hypot(q.1 - p.1) < 1e-9, "λ {lambda}: {p:?} came back as {q:?}");
                }
            }
        }
    }

    #[test]
    fn barrel_distortion_pulls_the_corners_in_and_leaves_the_centre() {
        let lens = Lens::new((1280, 720), -0.1);
        // Observed at a corner: the ideal point is farther out (barrel: λ < 0).
        let u = lens.undistort((0.0, 0.0));
        assert!(u.0 < 0.0 && u.1 < 0.0, "{u:?}");
        // ρ = 1 there: 1/(1 − 0.1) of the way out.
        assert!((u.0 - (640.0 - 640.0 / 0.9)).abs() < 1e-9, "{u:?}");
        assert_eq!(lens.undistort((640.0, 360.0)), (640.0, 360.0));
        assert!(lens.worst_shift_px() > 70.0);
        assert_eq!(Lens::none((1280, 720)).worst_shift_px(), 0.0);
    }

    #[test]
    fn golden_section_finds_a_parabolas_minimum() {
        let (x, fx) = golden_min(|x| (x - 0.137).powi(2) + 2.0, (-1.0, 1.0), 60);
        // (Near a minimum f changes with the square of x: x is known to about √ε.)
        assert!((x - 0.137).abs() < 1e-7 && (fx - 2.0).abs() < 1e-12, "{x} {fx}");
    }
}
