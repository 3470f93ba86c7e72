//! The camera behind a table calibration: where a point *above* the table (a trooper on a
//! rooftop, the top of its Silhouette, a LoF witness's end) appears in the picture, and which
//! point at a given height lies under an image point.
//!
//! A homography knows the table plane only. A pinhole camera `K [R | t]` seen through it is
//! pinned down once its intrinsics `K` are: `image_from_table = λ K [r₁ r₂ t]`, so `r₁, r₂, t`
//! come out of `K⁻¹ H`, and `r₃ = r₁ × r₂` gives height. This module assumes (assumption
//! CAMERA_INTRINSICS in the README) square pixels, no skew, the principal point at the image's
//! centre and the calibration's radial distortion about it ([`Lens`]: the homography maps the
//! table to the undistorted picture, and the pose projects there, then bends the result through
//! the lens); the one unknown left, the focal length `f`, follows from the
//! two constraints `r₁ ⊥ r₂` and `|r₁| = |r₂|` (Zhang 2000, "A flexible new technique for camera
//! calibration", §3.1, with those intrinsics fixed) — unless the camera looks too nearly straight
//! down for them to tell (both vanish for a camera square above the table), or gives a focal
//! length no webcam has; then a webcam's typical field of view is assumed
//! ([`ASSUMED_HFOV_DEG`]).
//!
//! Units: table inches (x, y on the table as in [`crate::geometry`], `z` up from the table's
//! surface), image pixels.

use super::ImagePoint;
use super::homography;
use super::lens::Lens;
use crate::geometry::TablePoint;
use nalgebra::{Matrix3, Vector3};

/// The horizontal field of view assumed when the calibration cannot tell the focal length,
/// degrees: about what common USB webcams have (a Logitech C920's 1080p picture spans about
/// 70°).
pub const ASSUMED_HFOV_DEG: f64 = 70.0;

/// A focal length is estimated only when the camera's axis leans at least this far from the
/// table's normal, degrees: nearer straight down the two constraints vanish together and click
/// noise decides the estimate.
pub const MIN_TILT_FOR_FOCAL_DEG: f64 = 15.0;

/// The horizontal fields of view an estimate may give, degrees; outside them it is taken for
/// noise and [`ASSUMED_HFOV_DEG`] is used.
pub const PLAUSIBLE_HFOV_DEG: (f64, f64) = (20.0, 120.0);

/// Where the focal length came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focal {
    /// Worked out from the calibration.
    Estimated,
    /// [`ASSUMED_HFOV_DEG`]: the calibration could not tell it.
    Assumed,
}

/// The camera seen through a calibration: projects points above the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraPose {
    /// The calibration's `image_from_table` (table plane `z = 0`).
    h: Matrix3<f64>,
    /// What one inch up adds to `h · (x, y, 1)` (homogeneous image coordinates): `λ K r₃`.
    up: Vector3<f64>,
    /// The sign of `λ`: a point is in front of the camera when its homogeneous `w` has it.
    front: f64,
    /// Focal length, pixels.
    focal_px: f64,
    /// Where it came from.
    focal: Focal,
    /// The camera's centre, table inches (x, y, z).
    eye: [f64; 3],
    /// How far its axis leans from straight down, degrees.
    tilt_deg: f64,
    /// Its lens's distortion: `h` and `up` map to the undistorted picture.
    lens: Lens,
}

impl CameraPose {
    /// The camera behind `image_from_table` (as [`super::Calibration`] fits it) for a picture
    /// of `image_size` pixels. `None` when the homography cannot come from a camera above the
    /// table (singular, or the table seen from below).
    pub(crate) fn from_homography(h: &Matrix3<f64>, image_size: (u32, u32), lens: Lens) -> Option<Self> {
        let (w, ht) = (f64::from(image_size.0), f64::from(image_size.1));
        if !(w > 0.0 && ht > 0.0 && h.iter().all(|v| v.is_finite())) {
            return None;
        }
        let (cx, cy) = (w / 2.0, ht / 2.0);
        let assumed = w / 2.0 / (ASSUMED_HFOV_DEG.to_radians() / 2.0).tan();
        if let Some(f) = estimate_focal(h, (cx, cy), w) {
            let pose = Self::with_focal(h, (cx, cy), f, Focal::Estimated, lens)?;
            let plausible = (PLAUSIBLE_HFOV_DEG.0..=PLAUSIBLE_HFOV_DEG.1).contains(&pose.hfov_deg(w));
            if plausible && pose.tilt_deg() >= MIN_TILT_FOR_FOCAL_DEG {
                return Some(pose);
            }
        }
        Self::with_focal(h, (cx, cy), assumed, Focal::Assumed, lens)
    }

    fn with_focal(h: &Matrix3<f64>, (cx, cy): (f64, f64), f: f64, focal: Focal, lens: Lens) -> Option<Self> {
        let k = Matrix3::new(f, 0.0, cx, 0.0, f, cy, 0.0, 0.0, 1.0);
        let m = k.try_inverse()? * h;
        let (m1, m2, m3) = (m.column(0).into_owned(), m.column(1).into_owned(), m.column(2).into_owned());
        let mut lambda = (m1.norm() + m2.norm()) / 2.0;
        // The table is in front of the camera: t_z > 0.
        if m3.z < 0.0 {
            lambda = -lambda;
        }
        if !(lambda.abs() > 0.0 && lambda.is_finite()) {
            return None;
        }
        let (r1, r2, t) = (m1 / lambda, m2 / lambda, m3 / lambda);
        let r3 = r1.cross(&r2).try_normalize(1e-12)?;
        // The camera's centre C = −Rᵀ t, R = [r₁ r₂ r₃] (orthonormal up to click noise).
        let eye = [-r1.dot(&t), -r2.dot(&t), -r3.dot(&t)];
        if eye[2].is_nan() || eye[2] <= 0.0 {
            return None;
        }
        // The table's normal in camera coordinates is r₃; the camera's axis is +z there.
        let tilt_deg = r3.z.abs().clamp(0.0, 1.0).acos().to_degrees();
        Some(Self { h: *h, up: (k * r3) * lambda, front: lambda.signum(), focal_px: f, focal, eye, tilt_deg, lens })
    }

    /// Focal length, pixels.
    pub fn focal_px(&self) -> f64 {
        self.focal_px
    }

    /// Whether the focal length was estimated or assumed.
    pub fn focal(&self) -> Focal {
        self.focal
    }

    /// The horizontal field of view, degrees, for a picture `width_px` wide.
    pub fn hfov_deg(&self, width_px: f64) -> f64 {
        2.0 * (width_px / 2.0 / self.focal_px).atan().to_degrees()
    }

    /// The camera's centre, table inches (x, y, height above the table).
    pub fn eye(&self) -> [f64; 3] {
        self.eye
    }

    /// How far the camera's axis leans from straight down, degrees (0: square above the table).
    pub fn tilt_deg(&self) -> f64 {
        self.tilt_deg
    }

    /// Where point `p` of the table, `z_in` inches above its surface, appears in the picture,
    /// pixels; `None` when it is not in front of the camera.
    pub fn image_from_table_at(&self, p: TablePoint, z_in: f64) -> Option<ImagePoint> {
        let (x, y) = self.lens.distort(self.undistorted_at(p, z_in)?);
        Some(ImagePoint::new(x, y))
    }

    /// [`Self::image_from_table_at`] in the undistorted picture.
    fn undistorted_at(&self, p: TablePoint, z_in: f64) -> Option<(f64, f64)> {
        let q = self.h * Vector3::new(p.x, p.y, 1.0) + self.up * z_in;
        (q.z * self.front > 0.0 && q.iter().all(|v| v.is_finite())).then(|| (q.x / q.z, q.y / q.z))
    }

    /// The point at height `z_in` inches above the table that image point `p` shows (where the
    /// ray through `p` crosses that level), table inches; `None` when that level is seen edge on
    /// there, or behind the camera.
    pub fn table_from_image_at(&self, p: ImagePoint, z_in: f64) -> Option<TablePoint> {
        let mut hz = self.h;
        hz.set_column(2, &(self.h.column(2) + self.up * z_in));
        let inv = homography::inverse(&hz)?;
        let u = self.lens.undistort((p.x, p.y));
        let q = inv * Vector3::new(u.0, u.1, 1.0);
        let t = TablePoint::new(q.x / q.z, q.y / q.z);
        let back = self.undistorted_at(t, z_in)?;
        let off = (back.0 - u.0).hypot(back.1 - u.1);
        (t.x.is_finite() && t.y.is_finite() && off <= 1e-6 * (1.0 + u.0.abs() + u.1.abs())).then_some(t)
    }
}

/// The focal length (pixels) that makes `K⁻¹ h`'s first two columns orthogonal and of equal
/// length, in the least-squares sense over the two constraints; `None` when they do not give a
/// positive `1/f²`.
fn estimate_focal(h: &Matrix3<f64>, (cx, cy): (f64, f64), width: f64) -> Option<f64> {
    // Image coordinates moved to the principal point and scaled by the width, so both
    // constraints weigh alike: g = S T h with K = diag(f/width, f/width, 1).
    let s = Matrix3::new(1.0 / width, 0.0, -cx / width, 0.0, 1.0 / width, -cy / width, 0.0, 0.0, 1.0);
    let g = s * h;
    let (g1, g2) = (g.column(0), g.column(1));
    // r₁ ⊥ r₂: (g1x g2x + g1y g2y) w + g1z g2z = 0; |r₁| = |r₂|: (|g1xy|² − |g2xy|²) w + g1z² − g2z² = 0,
    // with w = 1/f² (f in widths).
    let (a1, b1) = (g1.x * g2.x + g1.y * g2.y, g1.z * g2.z);
    let (a2, b2) = (g1.x * g1.x + g1.y * g1.y - g2.x * g2.x - g2.y * g2.y, g1.z * g1.z - g2.z * g2.z);
    let den = a1 * a1 + a2 * a2;
    if den.is_nan() || den <= 0.0 {
        return None;
    }
    let w = -(a1 * b1 + a2 * b2) / den;
    (w > 0.0 && w.is_finite()).then(|| width / w.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::{Calibration, corner_pairs};

    type V3 = [f64; 3];

    /// A pinhole camera at `eye` looking at `target` (table inches), focal `f` pixels, principal
    /// point at the centre of a 1280×720 picture: the truth the pose is checked against.
    struct Pinhole {
        eye: Vector3<f64>,
        axes: [Vector3<f64>; 3],
        f: f64,
    }

    impl Pinhole {
        fn new(eye: V3, target: V3, f: f64) -> Self {
            let eye = Vector3::from(eye);
            let forward = (Vector3::from(target) - eye).normalize();
            // (A camera looking straight down takes +y as its "up" on the picture.)
            let right = if forward.z.abs() > 0.999 { Vector3::x() } else { forward.cross(&Vector3::z()).normalize() };
            let down = forward.cross(&right);
            Self { eye, axes: [right, down, forward], f }
        }
        fn project(&self, p: V3) -> ImagePoint {
            let d = Vector3::from(p) - self.eye;
            let c = self.axes.map(|a| a.dot(&d));
            ImagePoint::new(640.0 + self.f * c[0] / c[2], 360.0 + self.f * c[1] / c[2])
        }
        fn calibration(&self, jitter: [(f64, f64); 4]) -> Calibration {
            let corners = [(0.0, 0.0), (48.0, 0.0), (48.0, 48.0), (0.0, 48.0)];
            let img: [ImagePoint; 4] = std::array::from_fn(|k| {
                let q = self.project([corners[k].0, corners[k].1, 0.0]);
                ImagePoint::new(q.x + jitter[k].0, q.y + jitter[k].1)
            });
            Calibration::fit((1280, 720), &corner_pairs(48.0, 48.0, img)).unwrap_or_else(|e| panic!("{img:?}: {e}"))
        }
    }

    const EXACT: [(f64, f64); 4] = [(0.0, 0.0); 4];

    /// Oblique cameras, as beside a real table: the focal length, the camera's place and every
    /// raised point come out as the camera has them; and the point under a pixel at a height
    /// is the one that shows there.
    #[test]
    fn an_oblique_camera_is_recovered_from_the_table_corners() {
        for (eye, target, f) in [
            ([24.0, -20.0, 36.0], [24.0, 21.0, 0.0], 700.0),
            ([-14.0, -16.0, 34.0], [24.0, 24.0, 0.0], 600.0),
            ([70.0, 24.0, 50.0], [22.0, 24.0, 0.0], 500.0),
        ] {
            let cam = Pinhole::new(eye, target, f);
            let pose = *cam.calibration(EXACT).pose().expect("a pose");
            assert_eq!(pose.focal(), Focal::Estimated);
            assert!((pose.focal_px() - f).abs() < 1e-6 * f, "{} vs {f}", pose.focal_px());
            for k in 0..3 {
                assert!((pose.eye()[k] - eye[k]).abs() < 1e-6, "{:?} vs {eye:?}", pose.eye());
            }
            for (x, y, z) in [(10.0, 5.0, 0.0), (30.0, 40.0, 3.0), (24.0, 24.0, 6.5), (2.0, 45.0, 12.0)] {
                let truth = cam.project([x, y, z]);
                let got = pose.image_from_table_at(TablePoint::new(x, y), z).expect("in front");
                assert!(got.dist(truth) < 1e-6, "({x}, {y}, {z}): {got:?} vs {truth:?}");
                let back = pose.table_from_image_at(truth, z).expect("a point at that height");
                assert!(back.dist(TablePoint::new(x, y)) < 1e-6, "{back:?}");
            }
            // A point behind the camera does not appear.
            let behind = [2.0 * eye[0] - target[0], 2.0 * eye[1] - target[1], 2.0 * eye[2] - target[2]];
            assert_eq!(pose.image_from_table_at(TablePoint::new(behind[0], behind[1]), behind[2]), None);
        }
    }

    /// A camera square above the table cannot tell its focal length from the table: the
    /// assumed field of view is used, and said so; the table plane still maps exactly.
    #[test]
    fn a_camera_straight_above_assumes_its_field_of_view() {
        let cam = Pinhole::new([24.0, 24.0, 60.0], [24.0, 24.0, 0.0], 800.0);
        let cal = cam.calibration(EXACT);
        let pose = cal.pose().expect("a pose");
        assert_eq!(pose.focal(), Focal::Assumed);
        assert!((pose.hfov_deg(1280.0) - ASSUMED_HFOV_DEG).abs() < 1e-9);
        assert!(pose.tilt_deg() < 1.0, "{}", pose.tilt_deg());
        for (x, y) in [(3.0, 4.0), (40.0, 30.0)] {
            let p = TablePoint::new(x, y);
            assert!(pose.image_from_table_at(p, 0.0).expect("in front").dist(cal.image_from_table(p)) < 1e-9);
        }
        // A raised point moves away from the picture's centre, as it does for any camera above.
        let top = pose.image_from_table_at(TablePoint::new(40.0, 24.0), 5.0).expect("in front");
        let foot = pose.image_from_table_at(TablePoint::new(40.0, 24.0), 0.0).expect("in front");
        assert!(top.x > foot.x + 1.0 && (top.y - foot.y).abs() < 1e-6, "{top:?} {foot:?}");
    }

    /// Clicks a pixel or two off still give a usable camera: a point 3" up lands within a few
    /// pixels of where the camera shows it.
    #[test]
    fn click_noise_moves_raised_points_a_little() {
        let cam = Pinhole::new([24.0, -20.0, 36.0], [24.0, 21.0, 0.0], 800.0);
        let pose = *cam.calibration([(1.0, -1.0), (-1.0, 0.5), (0.5, 1.0), (-0.5, -1.0)]).pose().expect("a pose");
        assert_eq!(pose.focal(), Focal::Estimated);
        assert!((pose.focal_px() - 800.0).abs() < 80.0, "{}", pose.focal_px());
        for (x, y) in [(10.0, 10.0), (24.0, 40.0), (40.0, 20.0)] {
            let truth = cam.project([x, y, 3.0]);
            let got = pose.image_from_table_at(TablePoint::new(x, y), 3.0).expect("in front");
            assert!(got.dist(truth) < 3.0, "({x}, {y}): {got:?} vs {truth:?}");
        }
    }
}
