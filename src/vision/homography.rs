//! Plane-to-plane homographies: normalized DLT and a Levenberg–Marquardt refinement.
//!
//! Everything here works on plain `(x, y)` pairs; [`super::Calibration`] gives them their spaces.

use nalgebra::{DMatrix, Matrix3, SMatrix, SVector};

/// A 2D point as `(x, y)`.
pub(crate) type P2 = (f64, f64);

/// Apply `h` to `p` (dehomogenised). Infinite or NaN when `p` maps to the line at infinity.
#[inline]
pub(crate) fn apply(h: &Matrix3<f64>, p: P2) -> P2 {
    // Column-major storage: m[c * 3 + r] is row r, column c.
    let m = h.as_slice();
    let inv_w = 1.0 / (m[2] * p.0 + m[5] * p.1 + m[8]);
    ((m[0] * p.0 + m[3] * p.1 + m[6]) * inv_w, (m[1] * p.0 + m[4] * p.1 + m[7]) * inv_w)
}

/// The homogeneous scale `w` of `h · (p, 1)`.
pub(crate) fn w_of(h: &Matrix3<f64>, p: P2) -> f64 {
    h[(2, 0)] * p.0 + h[(2, 1)] * p.1 + h[(2, 2)]
}

/// Hartley normalisation: a similarity moving the centroid of `pts` to the origin and scaling their mean distance from
/// it to √2. `None` when all points coincide.
fn normaliser(pts: &[P2]) -> Option<Matrix3<f64>> {
    let n = pts.len() as f64;
    let (cx, cy) = pts.iter().fold((0.0, 0.0), |(a, b), p| (a + p.0, b + p.1));
    let (cx, cy) = (cx / n, cy / n);
    let mean = pts.iter().map(|p| (p.0 - cx).hypot(p.1 - cy)).sum::<f64>() / n;
    if !(mean > 0.0 && mean.is_finite()) {
        return None;
    }
    let s = std::f64::consts::SQRT_2 / mean;
    Some(Matrix3::new(s, 0.0, -s * cx, 0.0, s, -s * cy, 0.0, 0.0, 1.0))
}

/// A fitted homography in normalised coordinates, with the normalisers to leave them.
pub(crate) struct Normalised {
    /// Maps normalised source points to normalised destination points; scaled so that `h[(2,2)] = 1` when possible.
    pub h: Matrix3<f64>,
    /// Source normaliser.
    pub ts: Matrix3<f64>,
    /// Destination normaliser.
    pub td: Matrix3<f64>,
    /// Smallest non-null singular value over the largest (of the normalised DLT system): near 0 means the pairs do
    /// not pin the homography down.
    pub conditioning: f64,
}

impl Normalised {
    /// The homography in the original coordinates (`src → dst`), scaled to unit Frobenius norm.
    pub fn denormalised(&self) -> Option<Matrix3<f64>> {
        let h = self.td.try_inverse()? * self.h * self.ts;
        let norm = h.norm();
        (norm > 0.0 && norm.is_finite()).then(|| h / norm)
    }
}

/// The normalised direct linear transform: the `h` minimising the algebraic error of `dst ~ h · src` over the pairs
/// (exact for four pairs in general position). `None` for fewer than four pairs or coincident points.
pub(crate) fn dlt(src: &[P2], dst: &[P2]) -> Option<Normalised> {
    let n = src.len();
    if n < 4 || dst.len() != n {
        return None;
    }
    let ts = normaliser(src)?;
    let td = normaliser(dst)?;
    // 2n × 9, padded with zero rows to at least 9 × 9 so the SVD yields all nine right singular vectors.
    let rows = (2 * n).max(9);
    let mut a = DMatrix::<f64>::zeros(rows, 9);
    for (i, (&s, &d)) in src.iter().zip(dst).enumerate() {
        let (x, y) = (ts[(0, 0)] * s.0 + ts[(0, 2)], ts[(1, 1)] * s.1 + ts[(1, 2)]);
        let (u, v) = (td[(0, 0)] * d.0 + td[(0, 2)], td[(1, 1)] * d.1 + td[(1, 2)]);
        let r = 2 * i;
        for (c, val) in [-x, -y, -1.0, 0.0, 0.0, 0.0, u * x, u * y, u].into_iter().enumerate() {
            a[(r, c)] = val;
        }
        for (c, val) in [0.0, 0.0, 0.0, -x, -y, -1.0, v * x, v * y, v].into_iter().enumerate() {
            a[(r + 1, c)] = val;
        }
    }
    let svd = a.try_svd(false, true, f64::EPSILON, 10_000)?;
    let v_t = svd.v_t.as_ref()?;
    let sv = &svd.singular_values;
    if sv.len() < 9 || sv[0].is_nan() || sv[0] <= 0.0 {
        return None;
    }
    let conditioning = sv[7] / sv[0];
    let row = v_t.row(8);
    let mut h = Matrix3::new(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8]);
    if h[(2, 2)].abs() > 1e-8 {
        h /= h[(2, 2)];
    }
    Some(Normalised { h, ts, td, conditioning })
}

/// Levenberg–Marquardt on the reprojection error in destination space (the error is all in `dst`: the table points are
/// exact, the clicks are not). Works in the normalised coordinates of `fit` (an isotropic scaling of pixels, so the
/// minimiser is the same as in pixels) with `h[(2,2)]` fixed at 1. Leaves `fit` unchanged when it cannot do that.
pub(crate) fn refine(fit: &mut Normalised, src: &[P2], dst: &[P2], iterations: usize) {
    if (fit.h[(2, 2)] - 1.0).abs() > 1e-12 {
        return;
    }
    let s: Vec<P2> = src.iter().map(|&p| apply(&fit.ts, p)).collect();
    let d: Vec<P2> = dst.iter().map(|&p| apply(&fit.td, p)).collect();
    let to_params = |h: &Matrix3<f64>| SVector::<f64, 8>::from_fn(|i, _| h[(i / 3, i % 3)]);
    let to_h = |p: &SVector<f64, 8>| Matrix3::new(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], 1.0);
    let cost = |p: &SVector<f64, 8>| -> f64 {
        let h = to_h(p);
        s.iter()
            .zip(&d)
            .map(|(&a, &b)| {
                let q = apply(&h, a);
                (q.0 - b.0).powi(2) + (q.1 - b.1).powi(2)
            })
            .sum()
    };
    let mut p = to_params(&fit.h);
    let mut c = cost(&p);
    let mut lambda = 1e-3;
    for _ in 0..iterations {
        if !c.is_finite() || c < 1e-30 {
            break;
        }
        let mut jtj = SMatrix::<f64, 8, 8>::zeros();
        let mut jtr = SVector::<f64, 8>::zeros();
        for (&(x, y), &(u0, v0)) in s.iter().zip(&d) {
            let w = p[6] * x + p[7] * y + 1.0;
            let u = (p[0] * x + p[1] * y + p[2]) / w;
            let v = (p[3] * x + p[4] * y + p[5]) / w;
            let ju = SVector::<f64, 8>::from([x / w, y / w, 1.0 / w, 0.0, 0.0, 0.0, -u * x / w, -u * y / w]);
            let jv = SVector::<f64, 8>::from([0.0, 0.0, 0.0, x / w, y / w, 1.0 / w, -v * x / w, -v * y / w]);
            jtj += ju * ju.transpose() + jv * jv.transpose();
            jtr += ju * (u - u0) + jv * (v - v0);
        }
        let mut improved = false;
        for _ in 0..8 {
            let mut m = jtj;
            for i in 0..8 {
                m[(i, i)] += lambda * jtj[(i, i)].max(1e-12);
            }
            let Some(chol) = m.cholesky() else {
                lambda *= 10.0;
                continue;
            };
            let step = chol.solve(&(-jtr));
            let next = p + step;
            let cn = cost(&next);
            if cn < c {
                let rel = (c - cn) / c;
                p = next;
                c = cn;
                lambda = (lambda * 0.1).max(1e-12);
                improved = rel > 1e-12;
                break;
            }
            lambda *= 10.0;
        }
        if !improved {
            break;
        }
    }
    fit.h = to_h(&p);
}

/// The inverse of `h`, scaled to unit Frobenius norm; `None` when `h` is singular.
pub(crate) fn inverse(h: &Matrix3<f64>) -> Option<Matrix3<f64>> {
    let inv = h.try_inverse()?;
    let norm = inv.norm();
    (norm > 0.0 && norm.is_finite()).then(|| inv / norm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_exact_pairs_are_reproduced() {
        let src = [(0.0, 0.0), (48.0, 0.0), (48.0, 48.0), (0.0, 48.0)];
        let dst = [(300.0, 900.0), (1600.0, 880.0), (1300.0, 300.0), (600.0, 320.0)];
        let fit = dlt(&src, &dst).expect("fit");
        let h = fit.denormalised().expect("h");
        for (s, d) in src.iter().zip(&dst) {
            let q = apply(&h, *s);
            assert!((q.0 - d.0).abs() < 1e-9 && (q.1 - d.1).abs() < 1e-9, "{q:?} vs {d:?}");
        }
        assert!(fit.conditioning > 1e-3, "{}", fit.conditioning);
    }
}
