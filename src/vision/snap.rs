//! Snapping a clicked point to the real corner nearby, to a fraction of a pixel.

use super::ImagePoint;
use image::GrayImage;
use imageproc::gradients::{horizontal_sobel, vertical_sobel};

/// Half-size of the window over which the structure tensor is summed for the corner response, pixels (5 × 5).
pub const RESPONSE_HALF_WINDOW: i64 = 2;

/// Half-size of the window of the sub-pixel refinement, pixels (11 × 11).
pub const REFINE_HALF_WINDOW: i64 = 5;

/// The weakest corner response accepted, in squared Sobel units: about what a right-angled corner with 16 grey levels
/// of contrast gives (an edge or sensor noise alone stays well below).
pub const MIN_CORNER_RESPONSE: f64 = 2.0e4;

/// Refinement stops when an iteration moves the point less than this, pixels.
const REFINE_EPS_PX: f64 = 0.005;

/// Refinement iterations at most.
const REFINE_ITERATIONS: usize = 30;

/// Why no corner was snapped to.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SnapError {
    /// The click or radius is not a finite number, or the radius is not positive.
    #[error("click ({x}, {y}) with radius {radius_px} px: not a finite point and positive radius")]
    BadInput {
        /// Pixels.
        x: f64,
        /// Pixels.
        y: f64,
        /// Pixels.
        radius_px: f64,
    },
    /// The click is outside the image.
    #[error("click ({x}, {y}) is outside the {width}×{height} image")]
    OutsideImage {
        /// Pixels.
        x: f64,
        /// Pixels.
        y: f64,
        /// Image width, pixels.
        width: u32,
        /// Image height, pixels.
        height: u32,
    },
    /// Nothing corner-like within the radius.
    #[error(
        "no corner within {radius_px} px of the click ({x}, {y}) (strongest response {response:.0} < {MIN_CORNER_RESPONSE:.0})"
    )]
    NoCorner {
        /// Pixels.
        x: f64,
        /// Pixels.
        y: f64,
        /// Pixels.
        radius_px: f64,
        /// The strongest corner response found.
        response: f64,
    },
    /// The sub-pixel refinement did not settle within the radius (e.g. two corners close together).
    #[error("the corner near ({x}, {y}) did not settle within {radius_px} px of the click")]
    Unsettled {
        /// Pixels.
        x: f64,
        /// Pixels.
        y: f64,
        /// Pixels.
        radius_px: f64,
    },
}

/// Move a clicked point to the strongest corner within `radius_px` of it, refined to a fraction of a pixel.
///
/// 1. Corner response: Sobel gradients, the structure tensor `Σ [gx² gx·gy; gx·gy gy²]` over a 5 × 5 window, and its
///    smaller eigenvalue (Shi–Tomasi); the pixel with the strongest response whose centre lies within the radius wins.
/// 2. Sub-pixel refinement (Förstner; OpenCV's `cornerSubPix`): at the true corner `q`, every gradient `g` at `p` near
///    it is orthogonal to `p − q` (along an edge, `g` is normal to it; in flat areas `g` is 0). So solve
///    `(Σ w g gᵀ) q = Σ w g gᵀ p` over an 11 × 11 Gaussian-weighted window centred on the estimate, and iterate.
///
/// Coordinates follow [`ImagePoint`]: pixel (i, j)'s centre is (i + 0.5, j + 0.5).
///
/// # Errors
/// [`SnapError`]: a click outside the image, nothing corner-like within the radius, or a refinement that wanders off.
pub fn snap_corner(image: &GrayImage, click: ImagePoint, radius_px: f64) -> Result<ImagePoint, SnapError> {
    let (width, height) = image.dimensions();
    let (x, y) = (click.x, click.y);
    if !x.is_finite() || !y.is_finite() || !radius_px.is_finite() || radius_px <= 0.0 {
        return Err(SnapError::BadInput { x, y, radius_px });
    }
    if !(0.0..=f64::from(width)).contains(&x) || !(0.0..=f64::from(height)).contains(&y) {
        return Err(SnapError::OutsideImage { x, y, width, height });
    }
    // A crop around the click wide enough for the search, both windows and the Sobel kernel.
    let margin = radius_px.ceil() as i64 + REFINE_HALF_WINDOW + RESPONSE_HALF_WINDOW + 2;
    let (w, h) = (i64::from(width), i64::from(height));
    let (cx, cy) = (x.floor() as i64, y.floor() as i64);
    let (x0, y0) = ((cx - margin).max(0), (cy - margin).max(0));
    let (x1, y1) = ((cx + margin + 1).min(w), (cy + margin + 1).min(h));
    let (cw, ch) = (x1 - x0, y1 - y0);
    let crop = image::imageops::crop_imm(image, x0 as u32, y0 as u32, cw as u32, ch as u32).to_image();
    let gx = horizontal_sobel(&crop);
    let gy = vertical_sobel(&crop);
    let grad = |i: i64, j: i64| -> (f64, f64) {
        if i < 0 || j < 0 || i >= cw || j >= ch {
            return (0.0, 0.0);
        }
        (f64::from(gx.get_pixel(i as u32, j as u32)[0]), f64::from(gy.get_pixel(i as u32, j as u32)[0]))
    };

    // 1. Shi–Tomasi response at each pixel whose centre is within the radius of the click.
    let r = radius_px.ceil() as i64;
    let mut best: Option<(f64, i64, i64)> = None;
    for j in (cy - r).max(0)..=(cy + r).min(h - 1) {
        for i in (cx - r).max(0)..=(cx + r).min(w - 1) {
            let (px, py) = (i as f64 + 0.5, j as f64 + 0.5);
            if (px - x).hypot(py - y) > radius_px {
                continue;
            }
            let (mut a, mut b, mut c) = (0.0, 0.0, 0.0);
            for dj in -RESPONSE_HALF_WINDOW..=RESPONSE_HALF_WINDOW {
                for di in -RESPONSE_HALF_WINDOW..=RESPONSE_HALF_WINDOW {
                    let (u, v) = grad(i - x0 + di, j - y0 + dj);
                    a += u * u;
                    b += u * v;
                    c += v * v;
                }
            }
            let lambda_min = (a + c) / 2.0 - (((a - c) / 2.0).powi(2) + b * b).sqrt();
            if best.is_none_or(|(l, _, _)| lambda_min > l) {
                best = Some((lambda_min, i, j));
            }
        }
    }
    let (response, bi, bj) = best.unwrap_or((0.0, cx, cy));
    if response < MIN_CORNER_RESPONSE {
        return Err(SnapError::NoCorner { x, y, radius_px, response });
    }

    // 2. Förstner / cornerSubPix iteration.
    let sigma = REFINE_HALF_WINDOW as f64 / 1.5;
    let mut q = (bi as f64 + 0.5, bj as f64 + 0.5);
    for _ in 0..REFINE_ITERATIONS {
        let (qi, qj) = (q.0.floor() as i64, q.1.floor() as i64);
        let (mut a, mut b, mut c, mut bx, mut by) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for j in qj - REFINE_HALF_WINDOW..=qj + REFINE_HALF_WINDOW {
            for i in qi - REFINE_HALF_WINDOW..=qi + REFINE_HALF_WINDOW {
                let (u, v) = grad(i - x0, j - y0);
                let (px, py) = (i as f64 + 0.5, j as f64 + 0.5);
                let wgt = (-((px - q.0).powi(2) + (py - q.1).powi(2)) / (2.0 * sigma * sigma)).exp();
                let (guu, guv, gvv) = (wgt * u * u, wgt * u * v, wgt * v * v);
                a += guu;
                b += guv;
                c += gvv;
                bx += guu * px + guv * py;
                by += guv * px + gvv * py;
            }
        }
        let det = a * c - b * b;
        if det.is_nan() || det <= 1e-9 * (a * c).max(1.0) {
            break;
        }
        let next = ((c * bx - b * by) / det, (a * by - b * bx) / det);
        let moved = (next.0 - q.0).hypot(next.1 - q.1);
        q = next;
        if (q.0 - x).hypot(q.1 - y) > radius_px + 1.0 {
            return Err(SnapError::Unsettled { x, y, radius_px });
        }
        if moved < REFINE_EPS_PX {
            break;
        }
    }
    Ok(ImagePoint::new(q.0, q.1))
}
