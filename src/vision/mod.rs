//! Image ↔ table: the homography calibration, its residuals and error estimate, and corner snapping.
//!
//! Two spaces, one point type each:
//! - **Image space** ([`ImagePoint`]), pixels: origin at the top-left corner of the image, `x` to the right, `y` down.
//!   Pixel `(i, j)` covers `[i, i+1) × [j, j+1)`, so its centre is `(i + 0.5, j + 0.5)`, and the whole image of
//!   `width × height` pixels is `[0, width] × [0, height]`.
//! - **Table space** ([`TablePoint`]), inches, as in [`crate::geometry`]: right-handed with `z` up, so seen from above
//!   (as the camera sees it) turning from `+x` to `+y` is counter-clockwise — the player at the `y = 0` edge has `x`
//!   running to the right and `y` away from them.
//!
//! The named transforms between them are [`Calibration::table_from_image`] and [`Calibration::image_from_table`].
//! This module imports [`crate::geometry`] only (and image/nalgebra for pixels and linear algebra).
//!
//! ```
//! use sightline::geometry::TablePoint;
//! use sightline::vision::{Calibration, ImagePoint, corner_pairs};
//!
//! // Where the corners (0,0), (48,0), (48,48), (0,48) of a 48"×48" table appear in a 1920×1080 photo.
//! let corners = [
//!     ImagePoint::new(420.0, 1000.0),
//!     ImagePoint::new(1500.0, 1000.0),
//!     ImagePoint::new(1300.0, 200.0),
//!     ImagePoint::new(620.0, 200.0),
//! ];
//! let cal = Calibration::fit((1920, 1080), &corner_pairs(48.0, 48.0, corners)).expect("a good quad");
//! let centre = cal.table_from_image(ImagePoint::new(960.0, 600.0));
//! assert!((centre.x - 24.0).abs() < 1e-6);
//! let back = cal.image_from_table(centre);
//! assert!((back.x - 960.0).abs() < 1e-6 && (back.y - 600.0).abs() < 1e-6);
//! assert!(cal.max_error_in() > 0.0);
//! # let _ = TablePoint::new(0.0, 0.0);
//! ```

mod calibration;
mod homography;
mod lens;
mod noise;
mod pose;
mod snap;

#[cfg(test)]
pub(crate) use calibration::tests::points_no_lens_fits;
pub use calibration::{
    CLICK_SIGMA_PX, COLLINEAR_RATIO, Calibration, CalibrationError, ERROR_GRID, ERROR_PERCENTILE, ERROR_TRIALS,
    LENS_MAX_LAMBDA, LENS_MIN_PAIRS, MIN_CONDITIONING, REPEAT_IN, REPEAT_PX, Role, corner_pairs, known_points,
};
pub use lens::Lens;
pub use noise::NormalRng;
pub use pose::{ASSUMED_HFOV_DEG, CameraPose, Focal, MIN_TILT_FOR_FOCAL_DEG, PLAUSIBLE_HFOV_DEG};
pub use snap::{MIN_CORNER_RESPONSE, REFINE_HALF_WINDOW, RESPONSE_HALF_WINDOW, SnapError, snap_corner};

use crate::geometry::TablePoint;
use serde::{Deserialize, Serialize};

/// A point in the image, pixels.
///
/// # Units
/// Pixels from the image's top-left corner, `x` to the right, `y` down; pixel `(i, j)` covers `[i, i+1) × [j, j+1)`
/// and has its centre at `(i + 0.5, j + 0.5)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub struct ImagePoint {
    /// Pixels to the right of the image's left edge.
    pub x: f64,
    /// Pixels down from the image's top edge.
    pub y: f64,
}

impl ImagePoint {
    /// A point at `(x, y)` pixels.
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// The centre of pixel `(i, j)`: `(i + 0.5, j + 0.5)`.
    pub fn pixel_centre(i: u32, j: u32) -> Self {
        Self::new(f64::from(i) + 0.5, f64::from(j) + 0.5)
    }

    /// Distance to `o`, pixels.
    pub fn dist(self, o: Self) -> f64 {
        (self.x - o.x).hypot(self.y - o.y)
    }
}

/// One known correspondence: where a table point appears in the image.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub struct PointPair {
    /// Where it appears, pixels.
    pub image: ImagePoint,
    /// Where it is on the table, inches.
    pub table: TablePoint,
}

impl PointPair {
    /// The pair `image ↔ table`.
    pub const fn new(image: ImagePoint, table: TablePoint) -> Self {
        Self { image, table }
    }
}
