//! The image ↔ table homography: fitting, checking, mapping, and how good it is in inches.

use super::homography::{self, P2};
use super::lens::{Lens, golden_min};
use super::noise::NormalRng;
use super::pose::CameraPose;
use super::{ImagePoint, PointPair};
use crate::geometry::TablePoint;
use nalgebra::Matrix3;
use std::fmt;

/// Assumed standard deviation of a placed point, pixels per axis: a careful click placed with the magnifier, or a
/// sub-pixel snapped corner. [`Calibration::max_error_in`] never assumes the clicks are better than this.
pub const CLICK_SIGMA_PX: f64 = 0.5;

/// Monte Carlo trials behind [`Calibration::max_error_in`].
pub const ERROR_TRIALS: usize = 200;

/// The percentile of the per-trial worst error that [`Calibration::max_error_in`] reports (0.95: 19 calibrations in 20
/// are at least this good everywhere on the table).
pub const ERROR_PERCENTILE: f64 = 0.95;

/// Grid points per side over the table on which [`Calibration::max_error_in`] looks for the worst error.
pub const ERROR_GRID: usize = 9;

/// Two image points closer than this (pixels) are the same point.
pub const REPEAT_PX: f64 = 1.0;

/// Two table points closer than this (inches) are the same point.
pub const REPEAT_IN: f64 = 0.01;

/// Three points are collinear when the triangle they make is flatter than this: its height over its longest side.
pub const COLLINEAR_RATIO: f64 = 0.01;

/// The fit is ill-conditioned when the normalised DLT system's smallest useful singular value falls below this fraction
/// of its largest (the pairs no longer pin one homography down).
pub const MIN_CONDITIONING: f64 = 1e-7;

/// The lens's distortion is fitted only from this many pairs on — the four corners and four more, such as the edge
/// middles (assumption CAMERA_INTRINSICS). With fewer, the homography alone leaves too few numbers over to tell a
/// lens from click noise, and the picture is taken as undistorted.
pub const LENS_MIN_PAIRS: usize = 8;

/// The division model's `λ` ([`Lens`]) is looked for within `±LENS_MAX_LAMBDA`: well beyond a webcam's (the demo
/// camera's polynomial lens at `k1 = −0.2`, a strong barrel that moves its corners by 137 px, fits as `λ ≈ −0.16`).
pub const LENS_MAX_LAMBDA: f64 = 0.5;

/// Steps of the first, coarse look for `λ` over `±LENS_MAX_LAMBDA` (0 among them), before the golden-section search
/// between the two neighbours of the best.
const LENS_SCAN: usize = 20;

/// Golden-section steps of the fit's search for `λ` (the bracket shrinks to 0.618⁴⁰ ≈ 4·10⁻⁹ of its width).
const LENS_STEPS: usize = 40;

/// Each trial of [`Calibration::max_error_in`] looks for its own `λ` this far either side of the fitted one, in
/// [`LENS_TRIAL_STEPS`] golden-section steps.
const LENS_TRIAL_REACH: f64 = 0.05;

/// See [`LENS_TRIAL_REACH`].
const LENS_TRIAL_STEPS: usize = 18;

/// Levenberg–Marquardt iterations on the reprojection error when more than four pairs are given.
const REFINE_ITERATIONS: usize = 15;

/// Fixed seed of the Monte Carlo error estimate (the estimate is deterministic).
const ERROR_SEED: u64 = 0x5EED_CA1B;

/// Which half of a [`PointPair`] an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The point in the image (pixels).
    Image,
    /// The point on the table (inches).
    Table,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Image => "image",
            Role::Table => "table",
        })
    }
}

/// Why a set of point pairs gives no calibration. Pairs are named by their index in the input (0-based; with
/// [`corner_pairs`], pairs 0–3 are the corners (0,0), (W,0), (W,D), (0,D)); [`CalibrationError::describe`] names them
/// otherwise.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CalibrationError {
    /// Fewer than four pairs.
    #[error("{}", self.describe(&pair_name))]
    TooFewPairs {
        /// How many were given.
        given: usize,
    },
    /// The image has no pixels.
    #[error("{}", self.describe(&pair_name))]
    EmptyImage {
        /// Image width, pixels.
        width: u32,
        /// Image height, pixels.
        height: u32,
    },
    /// A coordinate is NaN or infinite.
    #[error("{}", self.describe(&pair_name))]
    NonFinite {
        /// The pair.
        index: usize,
        /// Its image or table point.
        role: Role,
        /// The x given.
        x: f64,
        /// The y given.
        y: f64,
    },
    /// An image point lies outside the image.
    #[error("{}", self.describe(&pair_name))]
    OutsideImage {
        /// The pair.
        index: usize,
        /// Pixels.
        x: f64,
        /// Pixels.
        y: f64,
        /// Image width, pixels.
        width: u32,
        /// Image height, pixels.
        height: u32,
    },
    /// Two pairs share (nearly) the same image or table point.
    #[error("{}", self.describe(&pair_name))]
    Repeated {
        /// The later pair.
        index: usize,
        /// The earlier pair it repeats.
        earlier: usize,
        /// Image or table point.
        role: Role,
        /// The x of the repeated point.
        x: f64,
        /// The y of the repeated point.
        y: f64,
    },
    /// Three of the first four pairs (the corners) lie on one line in the image or on the table.
    #[error("{}", self.describe(&pair_name))]
    Collinear {
        /// The three pairs.
        indices: [usize; 3],
        /// In the image or on the table.
        role: Role,
    },
    /// The first four image points turn the other way round from their table points: a mirror image of the table,
    /// which a camera above the table cannot see.
    #[error("{}", self.describe(&pair_name))]
    FlippedOrder,
    /// The first four image points make a self-crossing quadrilateral where the table points do not.
    #[error("{}", self.describe(&pair_name))]
    SelfCrossing {
        /// Two pairs whose image points, swapped, would untangle the quadrilateral (when one swap does it).
        swapped: Option<[usize; 2]>,
    },
    /// A pair's table point maps to or beyond the horizon of the fitted view: no camera sees all the points so.
    #[error("{}", self.describe(&pair_name))]
    BeyondHorizon {
        /// The pair.
        index: usize,
        /// Inches.
        x: f64,
        /// Inches.
        y: f64,
    },
    /// The pairs do not determine one homography well.
    #[error("{}", self.describe(&pair_name))]
    IllConditioned {
        /// What is wrong.
        reason: String,
    },
}

fn pair_name(index: usize) -> String {
    format!("pair {index}")
}

impl CalibrationError {
    /// The message, with each pair named by `name(index)` (the `Display` form names them "pair 3").
    pub fn describe(&self, name: &dyn Fn(usize) -> String) -> String {
        let quad = || format!("{}, {}, {} and {}", name(0), name(1), name(2), name(3));
        match self {
            Self::TooFewPairs { given } => {
                format!("{given} point pair(s) given: a calibration needs at least 4 (the four table corners)")
            }
            Self::EmptyImage { width, height } => {
                format!("image size {width}×{height}: both sides must be at least 1 pixel")
            }
            Self::NonFinite { index, role, x, y } => {
                format!("{}: the {role} point ({x}, {y}) is not a finite number", name(*index))
            }
            Self::OutsideImage { index, x, y, width, height } => {
                format!("{}: the image point ({x}, {y}) is outside the {width}×{height} image", name(*index))
            }
            Self::Repeated { index, earlier, role, x, y } => {
                format!("{}: the {role} point ({x}, {y}) repeats {}'s", name(*index), name(*earlier))
            }
            Self::Collinear { indices: [a, b, c], role } => format!(
                "{}, {} and {}: their {role} points lie (nearly) on one line; the four corners (the first four pairs) \
                 need no three in line",
                name(*a),
                name(*b),
                name(*c)
            ),
            Self::FlippedOrder => format!(
                "the image points of {} turn the opposite way from their table points — a camera above the table sees \
                 the corners (0,0), (W,0), (W,D), (0,D) counter-clockwise on screen; give them in that order (e.g. \
                 swap {} and {}), or un-mirror the camera image",
                quad(),
                name(1),
                name(3)
            ),
            Self::SelfCrossing { swapped } => match swapped {
                Some([a, b]) => format!(
                    "the image points of {} make a self-crossing quadrilateral: {} and {} look swapped",
                    quad(),
                    name(*a),
                    name(*b)
                ),
                None => format!("the image points of {} make a self-crossing quadrilateral: check their order", quad()),
            },
            Self::BeyondHorizon { index, x, y } => format!(
                "{}: the table point ({x}, {y}) falls beyond the horizon of the fitted view; check this pair",
                name(*index)
            ),
            Self::IllConditioned { reason } => format!("ill-conditioned fit: {reason}"),
        }
    }
}

/// The four pairs for the table corners (0,0), (W,0), (W,D), (0,D), in that order, given where each appears in the
/// image. `table_width_in` is W, `table_depth_in` is D (inches).
pub fn corner_pairs(table_width_in: f64, table_depth_in: f64, corners: [ImagePoint; 4]) -> [PointPair; 4] {
    let table = known_points(table_width_in, table_depth_in);
    [0, 1, 2, 3].map(|i| PointPair::new(corners[i], table[i]))
}

/// The nine points of a W × D table (inches) that are easy to find on the picture: the corners in
/// [`corner_pairs`]'s order, then the middles of the edges (y = 0, x = W, y = D, x = 0), then the
/// centre. With the corners, the edge middles make the [`LENS_MIN_PAIRS`] that correct the lens.
pub fn known_points(table_width_in: f64, table_depth_in: f64) -> [TablePoint; 9] {
    let (w, d) = (table_width_in, table_depth_in);
    [
        (0.0, 0.0),
        (w, 0.0),
        (w, d),
        (0.0, d),
        (w / 2.0, 0.0),
        (w, d / 2.0),
        (w / 2.0, d),
        (0.0, d / 2.0),
        (w / 2.0, d / 2.0),
    ]
    .map(|(x, y)| TablePoint::new(x, y))
}

/// An image ↔ table homography fitted from point pairs, with its residuals.
///
/// `image_from_table` maps table inches to image pixels; `table_from_image` is its inverse. From
/// [`LENS_MIN_PAIRS`] pairs on, they go through the lens's radial distortion ([`Lens`], fitted with the homography):
/// the homography maps the table to the undistorted picture. With fewer, the lens is taken as bending nothing, and
/// both are exact plane projective maps.
#[derive(Debug, Clone)]
pub struct Calibration {
    image_size: (u32, u32),
    pairs: Vec<PointPair>,
    lens: Lens,
    /// Whether `lens` was fitted (from [`LENS_MIN_PAIRS`] pairs on, unless [`Calibration::fit_without_lens`]).
    lens_fitted: bool,
    /// Table inches to undistorted pixels.
    image_from_table: Matrix3<f64>,
    table_from_image: Matrix3<f64>,
    residuals: Vec<f64>,
    extent: (TablePoint, TablePoint),
    pose: Option<CameraPose>,
}

/// Twice the signed area of triangle `abc` and its longest side squared.
fn orient(a: P2, b: P2, c: P2) -> (f64, f64) {
    let area2 = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
    let d2 = |p: P2, q: P2| (p.0 - q.0).powi(2) + (p.1 - q.1).powi(2);
    (area2, d2(a, b).max(d2(b, c)).max(d2(a, c)))
}

/// The four triangles of a quadrilateral, each leaving one vertex out.
const TRIANGLES: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];

/// Whether every triangle of the image quad turns the opposite way from its table triangle (what a camera above the
/// table sees: image y runs down, table y runs away from the viewer).
fn consistent(img: &[P2; 4], tab: &[P2; 4]) -> bool {
    TRIANGLES.iter().all(|&[a, b, c]| orient(img[a], img[b], img[c]).0 * orient(tab[a], tab[b], tab[c]).0 < 0.0)
}

/// What [`solve`] gives: `H` (table to image), its inverse, and the DLT conditioning.
type Fit = (Matrix3<f64>, Matrix3<f64>, f64);

/// [`solve`] for pixels seen through `lens`: the homography to the undistorted picture, and the sum of squared
/// distances, pixels², between each observed image point and where the fit puts it (distorted again).
fn solve_through(lens: &Lens, table: &[P2], image: &[P2]) -> Option<(f64, Fit)> {
    let ideal: Vec<P2> = image.iter().map(|&p| lens.undistort(p)).collect();
    let fit = solve(table, &ideal)?;
    let sse = table
        .iter()
        .zip(image)
        .map(|(&t, &i)| {
            let q = lens.distort(homography::apply(&fit.0, t));
            (q.0 - i.0).powi(2) + (q.1 - i.1).powi(2)
        })
        .sum::<f64>();
    sse.is_finite().then_some((sse, fit))
}

/// The lens and homography that best explain the pairs: `λ` (within `bracket`) minimising the pixel residuals, each
/// `λ` with its own least-squares homography. With `scan`, a coarse look over the bracket first, then a
/// golden-section search between the best one's neighbours; without, the search over the whole bracket.
fn solve_lens(
    image_size: (u32, u32),
    table: &[P2],
    image: &[P2],
    (lo, hi): (f64, f64),
    scan: bool,
    steps: usize,
) -> Option<(Lens, Fit)> {
    let sse =
        |lambda: f64| solve_through(&Lens::new(image_size, lambda), table, image).map_or(f64::INFINITY, |(sse, _)| sse);
    let bracket = if scan {
        let at = |k: usize| lo + (hi - lo) * k as f64 / LENS_SCAN as f64;
        let best = (0..=LENS_SCAN).map(|k| (k, sse(at(k)))).min_by(|a, b| a.1.total_cmp(&b.1))?.0;
        (at(best.saturating_sub(1)), at((best + 1).min(LENS_SCAN)))
    } else {
        (lo, hi)
    };
    let (lambda, _) = golden_min(sse, bracket, steps);
    let lens = Lens::new(image_size, lambda);
    Some((lens, solve_through(&lens, table, image)?.1))
}

/// Fit `image ~ H · table`: normalized DLT, refined on the pixel reprojection error beyond four pairs. Returns `H`
/// (unit norm), its inverse and the DLT conditioning.
fn solve(table: &[P2], image: &[P2]) -> Option<Fit> {
    let mut fit = homography::dlt(table, image)?;
    if table.len() > 4 {
        homography::refine(&mut fit, table, image, REFINE_ITERATIONS);
    }
    let h = fit.denormalised()?;
    let inv = homography::inverse(&h)?;
    Some((h, inv, fit.conditioning))
}

impl Calibration {
    /// Fit the homography from `pairs` for an image of `image_size` = (width, height) pixels.
    ///
    /// The first four pairs are the frame — normally the table corners from [`corner_pairs`] — and must be in general
    /// position, in the same turning order as a camera above the table sees them; further pairs (edge midpoints,
    /// terrain corners) improve the fit. Method: Hartley-normalized DLT (both point sets moved to centroid 0 and mean
    /// distance √2), SVD of the 2n×9 system, denormalised; with more than four pairs, then a few Levenberg–Marquardt
    /// steps on the reprojection error in pixels (the table points are taken as exact). From [`LENS_MIN_PAIRS`] pairs
    /// on, the lens's distortion ([`Lens`]) is fitted with it: the `λ` whose own homography (as above, to the
    /// undistorted picture) leaves the least squared pixel residuals, by a scan over `±LENS_MAX_LAMBDA` and a
    /// golden-section search.
    ///
    /// # Errors
    /// [`CalibrationError`] naming the pair at fault: fewer than 4 pairs, non-finite numbers, image points outside the
    /// image, repeated points, three of the first four in line, a flipped or self-crossing corner order, a point
    /// beyond the fitted horizon, or an ill-conditioned system.
    pub fn fit(image_size: (u32, u32), pairs: &[PointPair]) -> Result<Self, CalibrationError> {
        // (A lens that the checks after the fit refuse — a point beyond the horizon it bends the view to — leaves
        // the homography alone: a calibration that fitted before the lens was modelled still fits, so a saved game
        // reopens calibrated. Bad input fails the same either way.)
        Self::fit_with(image_size, pairs, true)
            .or_else(|e| if pairs.len() >= LENS_MIN_PAIRS { Self::fit_with(image_size, pairs, false) } else { Err(e) })
    }

    /// [`Self::fit`] taking the picture as undistorted whatever the number of pairs: the homography alone (as
    /// OpenCV's `findHomography` fits it, for comparing the two).
    ///
    /// # Errors
    /// As [`Self::fit`].
    pub fn fit_without_lens(image_size: (u32, u32), pairs: &[PointPair]) -> Result<Self, CalibrationError> {
        Self::fit_with(image_size, pairs, false)
    }

    fn fit_with(image_size: (u32, u32), pairs: &[PointPair], fit_lens: bool) -> Result<Self, CalibrationError> {
        let (width, height) = image_size;
        if width == 0 || height == 0 {
            return Err(CalibrationError::EmptyImage { width, height });
        }
        if pairs.len() < 4 {
            return Err(CalibrationError::TooFewPairs { given: pairs.len() });
        }
        for (index, p) in pairs.iter().enumerate() {
            for (role, x, y) in [(Role::Image, p.image.x, p.image.y), (Role::Table, p.table.x, p.table.y)] {
                if !x.is_finite() || !y.is_finite() {
                    return Err(CalibrationError::NonFinite { index, role, x, y });
                }
            }
            let (x, y) = (p.image.x, p.image.y);
            if !(0.0..=f64::from(width)).contains(&x) || !(0.0..=f64::from(height)).contains(&y) {
                return Err(CalibrationError::OutsideImage { index, x, y, width, height });
            }
        }
        let image: Vec<P2> = pairs.iter().map(|p| (p.image.x, p.image.y)).collect();
        let table: Vec<P2> = pairs.iter().map(|p| (p.table.x, p.table.y)).collect();
        for (role, pts, tol) in [(Role::Image, &image, REPEAT_PX), (Role::Table, &table, REPEAT_IN)] {
            for index in 1..pts.len() {
                let (x, y) = pts[index];
                if let Some(earlier) = (0..index).find(|&j| (pts[j].0 - x).hypot(pts[j].1 - y) < tol) {
                    return Err(CalibrationError::Repeated { index, earlier, role, x, y });
                }
            }
        }
        let img4 = [image[0], image[1], image[2], image[3]];
        let tab4 = [table[0], table[1], table[2], table[3]];
        for (role, pts) in [(Role::Table, &tab4), (Role::Image, &img4)] {
            for &[a, b, c] in TRIANGLES.iter().rev() {
                let (area2, longest2) = orient(pts[a], pts[b], pts[c]);
                // height / longest side = area2 / longest².
                if area2.abs() < COLLINEAR_RATIO * longest2 {
                    return Err(CalibrationError::Collinear { indices: [a, b, c], role });
                }
            }
        }
        if !consistent(&img4, &tab4) {
            let signs =
                TRIANGLES.map(|[a, b, c]| orient(img4[a], img4[b], img4[c]).0 * orient(tab4[a], tab4[b], tab4[c]).0);
            if signs.iter().all(|&s| s > 0.0) {
                return Err(CalibrationError::FlippedOrder);
            }
            let swaps = [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [1, 3]];
            let swapped = swaps.into_iter().find(|&[a, b]| {
                let mut s = img4;
                s.swap(a, b);
                consistent(&s, &tab4)
            });
            return Err(CalibrationError::SelfCrossing { swapped });
        }

        let ill = |reason: String| CalibrationError::IllConditioned { reason };
        // (Should no lens give a usable fit, the homography alone still may.)
        let fitted = (fit_lens && pairs.len() >= LENS_MIN_PAIRS)
            .then(|| solve_lens(image_size, &table, &image, (-LENS_MAX_LAMBDA, LENS_MAX_LAMBDA), true, LENS_STEPS))
            .flatten()
            .or_else(|| solve(&table, &image).map(|fit| (Lens::none(image_size), fit)));
        let lens_fitted = fitted.as_ref().is_some_and(|(l, _)| !l.is_none());
        let (lens, (h, inv, conditioning)) =
            fitted.ok_or_else(|| ill("the linear system has no usable solution".into()))?;
        if conditioning < MIN_CONDITIONING {
            return Err(ill(format!(
                "the pairs do not pin one homography down (conditioning {conditioning:.1e} < {MIN_CONDITIONING:.0e})"
            )));
        }
        let det = h.determinant();
        // Every table point must map in front of the camera, keeping the turning order a camera above sees:
        // det(H) · w < 0 (see `consistent`).
        let front = |p: P2| det * homography::w_of(&h, p) < 0.0;
        let behind: Vec<usize> = (0..table.len()).filter(|&i| !front(table[i])).collect();
        if behind.len() == table.len() {
            return Err(ill(
                "the best fit over all pairs mirrors the table; check the pairs after the first four".into()
            ));
        }
        if let Some(&index) = behind.first() {
            return Err(CalibrationError::BeyondHorizon { index, x: table[index].0, y: table[index].1 });
        }
        let lo = TablePoint::new(
            table.iter().map(|p| p.0).fold(f64::INFINITY, f64::min),
            table.iter().map(|p| p.1).fold(f64::INFINITY, f64::min),
        );
        let hi = TablePoint::new(
            table.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max),
            table.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max),
        );
        for c in [(lo.x, lo.y), (hi.x, lo.y), (hi.x, hi.y), (lo.x, hi.y)] {
            if !front(c) {
                return Err(ill(format!(
                    "the corner ({}, {}) of the table area the pairs span falls beyond the fitted horizon",
                    c.0, c.1
                )));
            }
        }
        let residuals = table
            .iter()
            .zip(&image)
            .map(|(&t, &i)| {
                let q = lens.distort(homography::apply(&h, t));
                (q.0 - i.0).hypot(q.1 - i.1)
            })
            .collect();
        Ok(Self {
            image_size,
            pairs: pairs.to_vec(),
            lens,
            lens_fitted,
            image_from_table: h,
            table_from_image: inv,
            residuals,
            extent: (lo, hi),
            pose: CameraPose::from_homography(&h, image_size, lens),
        })
    }

    /// The image size (width, height) in pixels the calibration was fitted for.
    pub fn image_size(&self) -> (u32, u32) {
        self.image_size
    }

    /// The pairs it was fitted from, in the order given.
    pub fn pairs(&self) -> &[PointPair] {
        &self.pairs
    }

    /// The table area the pairs span: (min corner, max corner) of their table points' bounding box, inches.
    pub fn table_extent(&self) -> (TablePoint, TablePoint) {
        self.extent
    }

    /// Where an image point lies on the table plane, inches. Meaningless above the horizon (a point of the image that
    /// shows no part of the table plane).
    pub fn table_from_image(&self, p: ImagePoint) -> TablePoint {
        let (x, y) = homography::apply(&self.table_from_image, self.lens.undistort((p.x, p.y)));
        TablePoint::new(x, y)
    }

    /// [`Self::table_from_image`] for many points, into `out` (cleared first; keep it between
    /// frames, so no frame allocates). One point at a time: a version that mapped four at a time
    /// for vector instructions took 2.4 times as long (222 against 91 µs for 100,000 points).
    pub fn table_from_image_into(&self, points: &[ImagePoint], out: &mut Vec<TablePoint>) {
        out.clear();
        out.extend(points.iter().map(|&p| self.table_from_image(p)));
    }

    /// Where a point of the table plane appears in the image, pixels.
    pub fn image_from_table(&self, p: TablePoint) -> ImagePoint {
        let (x, y) = self.image_from_table_xy((p.x, p.y));
        ImagePoint::new(x, y)
    }

    /// [`Self::image_from_table`] on plain `(x, y)` pairs: through the homography, then the lens.
    fn image_from_table_xy(&self, t: P2) -> P2 {
        self.lens.distort(homography::apply(&self.image_from_table, t))
    }

    /// The camera behind the calibration, for points above the table (see [`CameraPose`]);
    /// `None` when the homography cannot come from a camera above the table.
    pub fn pose(&self) -> Option<&CameraPose> {
        self.pose.as_ref()
    }

    /// Whether the camera sees table point `p`: it maps in front of the camera, below the horizon. (A point beyond the
    /// horizon still has a finite `image_from_table`, through the centre of projection, that means nothing.)
    pub fn is_visible(&self, p: TablePoint) -> bool {
        self.image_from_table.determinant() * homography::w_of(&self.image_from_table, (p.x, p.y)) < 0.0
    }

    /// The lens distortion fitted with the homography ([`Lens::is_none`] with fewer than [`LENS_MIN_PAIRS`] pairs).
    pub fn lens(&self) -> &Lens {
        &self.lens
    }

    /// The homography from the table to the undistorted picture as a row-major 3×3 matrix (unit Frobenius norm):
    /// pixel `(u, v)` of table point `(x, y)` is [`Lens::distort`] of `(m[0]·(x,y,1), m[1]·(x,y,1)) / m[2]·(x,y,1)`.
    pub fn image_from_table_matrix(&self) -> [[f64; 3]; 3] {
        let m = &self.image_from_table;
        [0, 1, 2].map(|r| [m[(r, 0)], m[(r, 1)], m[(r, 2)]])
    }

    /// Per pair, in the order given: the distance in pixels between the observed image point and
    /// `image_from_table(table point)`. All ≈ 0 with exactly four pairs.
    pub fn residuals_px(&self) -> &[f64] {
        &self.residuals
    }

    /// Root mean square of [`Self::residuals_px`], pixels.
    pub fn rms_px(&self) -> f64 {
        (self.residuals.iter().map(|r| r * r).sum::<f64>() / self.residuals.len() as f64).sqrt()
    }

    /// The per-axis click noise the residuals show, pixels: `sqrt(Σ r² / (2n − k))` (`k` = 8 of the 2n coordinates
    /// are spent on the homography, 9 with the lens), 0 with four pairs.
    pub fn residual_sigma_px(&self) -> f64 {
        let spent = if self.lens_fitted { 9 } else { 8 };
        let dof = (2 * self.residuals.len()).saturating_sub(spent);
        if dof == 0 { 0.0 } else { (self.residuals.iter().map(|r| r * r).sum::<f64>() / dof as f64).sqrt() }
    }

    /// The noise [`Self::max_error_in`] assumes: `max(residual_sigma_px, CLICK_SIGMA_PX)`, pixels per axis.
    pub fn noise_sigma_px(&self) -> f64 {
        self.residual_sigma_px().max(CLICK_SIGMA_PX)
    }

    /// An estimate of the worst error over the table of points found through this calibration, inches.
    ///
    /// Monte Carlo ([`ERROR_TRIALS`] trials, fixed seed, so the same calibration always gives the same figure): move
    /// every image point to where the fit puts it and add Gaussian noise of σ = [`Self::noise_sigma_px`] per axis,
    /// refit (the lens too, from [`LENS_MIN_PAIRS`] pairs on, within `LENS_TRIAL_REACH` of the fitted one), and
    /// measure, on an [`ERROR_GRID`]² grid over [`Self::table_extent`], how far the refitted `table_from_image` puts
    /// each grid point's true image from the grid point. The worst grid point of each trial is that trial's error; the
    /// [`ERROR_PERCENTILE`] percentile over trials is reported. It covers click noise only: not a lens that bends
    /// otherwise than the model does, nor a table that is not flat.
    pub fn max_error_in(&self) -> f64 {
        self.max_error_in_at(self.noise_sigma_px())
    }

    /// [`Self::max_error_in`] for clicks with a given noise, `sigma_px` pixels per axis.
    pub fn max_error_in_at(&self, sigma_px: f64) -> f64 {
        let (lo, hi) = self.extent;
        let n = ERROR_GRID;
        let grid: Vec<(P2, P2)> = (0..n * n)
            .map(|k| {
                let fx = (k % n) as f64 / (n - 1) as f64;
                let fy = (k / n) as f64 / (n - 1) as f64;
                let g = (lo.x + fx * (hi.x - lo.x), lo.y + fy * (hi.y - lo.y));
                (g, self.image_from_table_xy(g))
            })
            .collect();
        let table: Vec<P2> = self.pairs.iter().map(|p| (p.table.x, p.table.y)).collect();
        let ideal: Vec<P2> = table.iter().map(|&t| self.image_from_table_xy(t)).collect();
        let with_lens = self.lens_fitted;
        let lambda = self.lens.lambda();
        let reach =
            ((lambda - LENS_TRIAL_REACH).max(-LENS_MAX_LAMBDA), (lambda + LENS_TRIAL_REACH).min(LENS_MAX_LAMBDA));
        let mut rng = NormalRng::new(ERROR_SEED);
        let mut worst: Vec<f64> = (0..ERROR_TRIALS)
            .map(|_| {
                let noisy: Vec<P2> =
                    ideal.iter().map(|p| (p.0 + sigma_px * rng.normal(), p.1 + sigma_px * rng.normal())).collect();
                let refit = if with_lens {
                    solve_lens(self.image_size, &table, &noisy, reach, false, LENS_TRIAL_STEPS)
                } else {
                    solve(&table, &noisy).map(|fit| (self.lens, fit))
                };
                match refit {
                    Some((lens, (_, inv, _))) => grid
                        .iter()
                        .map(|&(g, px)| {
                            let q = homography::apply(&inv, lens.undistort(px));
                            (q.0 - g.0).hypot(q.1 - g.1)
                        })
                        .fold(0.0, |a: f64, d| if d.is_nan() { f64::INFINITY } else { a.max(d) }),
                    None => f64::INFINITY,
                }
            })
            .collect();
        worst.sort_by(f64::total_cmp);
        let k = ((ERROR_PERCENTILE * ERROR_TRIALS as f64).ceil() as usize).clamp(1, ERROR_TRIALS) - 1;
        worst[k]
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn a_division_model_lens_is_recovered_exactly_from_nine_points() {
        // Pixels bent by λ = −0.15 through a known homography: the fit finds λ, and maps the
        // table's points back exactly; with seven of the points the lens is left out.
        let truth = Matrix3::new(20.0, 3.0, 400.0, -1.0, -15.0, 900.0, 0.0005, -0.004, 1.0);
        let size = (1920, 1080);
        let lens = Lens::new(size, -0.15);
        let seen = |t: P2| {
            let p = lens.distort(homography::apply(&truth, t));
            ImagePoint::new(p.0, p.1)
        };
        let pairs: Vec<PointPair> =
            known_points(48.0, 48.0).iter().map(|&t| PointPair::new(seen((t.x, t.y)), t)).collect();
        let cal = Calibration::fit(size, &pairs).expect("fits");
        assert!((cal.lens().lambda() + 0.15).abs() < 1e-6, "λ = {}", cal.lens().lambda());
        for t in [(5.0, 7.0), (40.0, 3.0), (24.0, 30.0), (47.0, 47.0)] {
            let back = cal.table_from_image(seen(t));
            assert!((back.x - t.0).hypot(back.y - t.1) < 1e-5, "{t:?} came back as {back:?}");
            let px = cal.image_from_table(TablePoint::new(t.0, t.1));
            assert!(px.dist(seen(t)) < 1e-4, "{t:?}: {px:?} against {:?}", seen(t));
        }
        assert!(cal.residuals_px().iter().all(|&r| r < 1e-4), "{:?}", cal.residuals_px());
        // Seven points: not enough to tell the lens; the homography alone, with residuals.
        let seven = Calibration::fit(size, &pairs[..7]).expect("fits");
        assert!(seven.lens().is_none());
        assert!(seven.rms_px() > 1.0, "{}", seven.rms_px());
    }

    /// Nine points clicked far off (five of them hundreds of pixels from where the table's
    /// points are, under a steep view whose far corners sit near the horizon): the lens that fits
    /// them best bends a point beyond the horizon, which the checks refuse; the homography alone
    /// passes them, and `fit` falls back to it rather than failing.
    pub(crate) fn points_no_lens_fits() -> Vec<PointPair> {
        let image = [
            (100.0, 710.0),
            (1180.0, 710.0),
            (700.0, 30.0),
            (580.0, 30.0),
            (337.093_637_927, 355.617_879_18),
            (720.640_416_459, 200.955_214_881),
            (718.579_497_759, 358.093_905_517),
            (0.0, 470.849_568_274),
            (792.902_140_993, 169.672_018_699),
        ];
        image
            .iter()
            .zip(known_points(48.0, 48.0))
            .map(|(&(x, y), t)| PointPair::new(ImagePoint::new(x, y), t))
            .collect()
    }

    #[test]
    fn a_lens_the_checks_refuse_falls_back_to_the_homography_alone() {
        let pairs = points_no_lens_fits();
        let with_lens = Calibration::fit_with((1280, 720), &pairs, true);
        assert!(
            with_lens.is_err(),
            "the lens-fitted view passed the checks: {:?}",
            with_lens.map(|c| c.lens().lambda())
        );
        let cal = Calibration::fit((1280, 720), &pairs).expect("the homography alone fits");
        assert!(cal.lens().is_none());
        let alone = Calibration::fit_without_lens((1280, 720), &pairs).expect("fits");
        assert_eq!(cal.residuals_px(), alone.residuals_px());
    }

    #[test]
    fn refinement_lowers_the_pixel_residuals_of_the_dlt() {
        // A slightly noisy 3 × 3 grid seen by an affine-ish view: the refined fit has the smaller sum of squares.
        let truth = Matrix3::new(20.0, 3.0, 400.0, -1.0, -15.0, 900.0, 0.0005, -0.004, 1.0);
        let offsets = [
            (0.7, -0.4),
            (-0.9, 0.3),
            (0.2, 0.8),
            (-0.5, -0.6),
            (0.9, 0.1),
            (-0.3, 0.9),
            (0.6, -0.8),
            (0.1, 0.4),
            (-0.7, -0.2),
        ];
        let table: Vec<P2> = (0..9).map(|k| (24.0 * (k % 3) as f64, 24.0 * (k / 3) as f64)).collect();
        let image: Vec<P2> = table
            .iter()
            .zip(offsets)
            .map(|(&t, o)| {
                let p = homography::apply(&truth, t);
                (p.0 + o.0, p.1 + o.1)
            })
            .collect();
        let sse = |h: &Matrix3<f64>| -> f64 {
            table
                .iter()
                .zip(&image)
                .map(|(&t, &i)| {
                    let q = homography::apply(h, t);
                    (q.0 - i.0).powi(2) + (q.1 - i.1).powi(2)
                })
                .sum()
        };
        let dlt = homography::dlt(&table, &image).and_then(|f| f.denormalised()).expect("dlt");
        let (refined, _, _) = solve(&table, &image).expect("solve");
        assert!(sse(&refined) < sse(&dlt), "{} vs {}", sse(&refined), sse(&dlt));
        assert!(sse(&refined) <= sse(&truth), "{} vs {}", sse(&refined), sse(&truth));
    }
}
