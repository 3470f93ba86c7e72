//! The camera picture: the newest frame from the capture thread, fitted into the panel, with the
//! status of the source. Spaces: image pixels (origin top-left, y down) and screen points;
//! [`ImageFrame::screen_from_image`] and [`ImageFrame::image_from_screen`] convert between them.

use crate::camera::{Capture, CaptureEvent, Frame};
use egui::{Color32, ColorImage, Pos2, Rect, Sense, TextureHandle, TextureOptions, pos2, vec2};

/// The camera side of the app: the capture thread and what it last delivered.
pub struct CameraState {
    /// The running capture, if a source could be opened.
    pub capture: Option<Capture>,
    /// The last good frame (kept on screen when the source fails).
    pub frame: Option<Frame>,
    texture: Option<TextureHandle>,
    /// What the source is, or why there is none.
    pub status: String,
    /// The last error, if the source is failing now.
    pub error: Option<String>,
}

impl CameraState {
    /// A camera state around a started capture, or an error to show.
    pub fn new(capture: Result<Capture, String>) -> Self {
        match capture {
            Ok(c) => {
                Self { status: c.description().to_string(), capture: Some(c), frame: None, texture: None, error: None }
            }
            Err(e) => Self { capture: None, frame: None, texture: None, status: "no source".into(), error: Some(e) },
        }
    }

    /// Take what the capture thread delivered since the last frame (never blocks).
    pub fn poll(&mut self, ctx: &egui::Context) {
        let Some(cap) = &self.capture else { return };
        for e in cap.events() {
            match e {
                CaptureEvent::Error(err) => self.error = Some(err.to_string()),
                CaptureEvent::Recovered => self.error = None,
                CaptureEvent::Ended => {
                    if self.error.is_none() && self.frame.is_none() {
                        self.error = Some("the source ended without a frame".into());
                    }
                }
            }
        }
        if let Some(f) = cap.latest() {
            let size = [f.image.width() as usize, f.image.height() as usize];
            let img = ColorImage::from_rgba_unmultiplied(size, f.image.as_raw());
            match &mut self.texture {
                Some(t) => t.set(img, TextureOptions::LINEAR),
                None => self.texture = Some(ctx.load_texture("camera-frame", img, TextureOptions::LINEAR)),
            }
            self.frame = Some(f);
        }
    }

    /// Size of the current picture, pixels.
    pub fn image_size(&self) -> Option<(u32, u32)> {
        self.frame.as_ref().map(|f| (f.image.width(), f.image.height()))
    }

    /// Draw the picture fitted into the available space; returns the mapping and the response.
    pub fn show(&self, ui: &mut egui::Ui) -> Option<(ImageFrame, egui::Response)> {
        let avail = ui.available_rect_before_wrap();
        let (Some(tex), Some((w, h))) = (&self.texture, self.image_size()) else {
            let text = match &self.error {
                Some(e) => format!("No picture: {e}"),
                None => "Waiting for the first frame…".to_string(),
            };
            ui.painter().text(
                avail.center(),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(16.0),
                Color32::LIGHT_GRAY,
            );
            return None;
        };
        let scale = (avail.width() / w as f32).min(avail.height() / h as f32);
        let rect = Rect::from_center_size(avail.center(), vec2(w as f32 * scale, h as f32 * scale));
        let response = ui.allocate_rect(rect, Sense::click_and_drag());
        ui.painter().image(tex.id(), rect, Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)), Color32::WHITE);
        Some((ImageFrame { rect, scale, size: (w, h) }, response))
    }

    /// The texture, for the magnifier.
    pub fn texture(&self) -> Option<&TextureHandle> {
        self.texture.as_ref()
    }
}

/// Where the picture is on screen.
#[derive(Debug, Clone, Copy)]
pub struct ImageFrame {
    /// The picture's rectangle on screen.
    pub rect: Rect,
    /// Screen points per image pixel.
    pub scale: f32,
    /// Image size, pixels.
    pub size: (u32, u32),
}

impl ImageFrame {
    /// Screen position of an image point (pixels, origin top-left).
    pub fn screen_from_image(&self, x: f64, y: f64) -> Pos2 {
        pos2(self.rect.min.x + x as f32 * self.scale, self.rect.min.y + y as f32 * self.scale)
    }

    /// Image point (pixels) under a screen position.
    pub fn image_from_screen(&self, p: Pos2) -> (f64, f64) {
        (f64::from((p.x - self.rect.min.x) / self.scale), f64::from((p.y - self.rect.min.y) / self.scale))
    }
}

/// Pieces a straight table segment is drawn in when the calibration corrects the lens
/// ([`TableOnPicture::segment`]): the demo lens bends a table edge by 2.7 px at its middle, and 24
/// pieces follow that to under 0.01 px (a chord's error falls with the square of its length).
const LENS_PIECES: usize = 24;

/// The table as the picture shows it: table inches at a height to screen points and back,
/// through the calibration's camera ([`crate::vision::CameraPose`]), so that a trooper on a
/// rooftop is drawn, and clicked, where it stands in the picture rather than at the foot of the
/// building. Without a camera (a calibration no camera above the table could give) heights are
/// left out and everything lies on the table plane.
pub struct TableOnPicture<'a> {
    /// The calibration in force.
    pub cal: &'a crate::vision::Calibration,
    /// Where the picture is on screen.
    pub frame: ImageFrame,
}

impl TableOnPicture<'_> {
    /// Screen position of table point `p` at `z_in` inches above the table; `None` when it is
    /// not in front of the camera.
    pub fn screen_from_table(&self, p: crate::geometry::TablePoint, z_in: f64) -> Option<Pos2> {
        let q = match self.cal.pose() {
            Some(pose) => pose.image_from_table_at(p, z_in)?,
            None => self.cal.image_from_table(p),
        };
        Some(self.frame.screen_from_image(q.x, q.y))
    }

    /// The point at `z_in` inches above the table under screen position `s`, table inches.
    pub fn table_from_screen(&self, s: Pos2, z_in: f64) -> Option<crate::geometry::TablePoint> {
        let (x, y) = self.frame.image_from_screen(s);
        table_from_image_at(self.cal, crate::vision::ImagePoint::new(x, y), z_in)
    }

    /// The straight segment from table point `a` at `za` inches up to `b` at `zb`, as a screen
    /// polyline: a lens the calibration corrects bends straight lines in the picture, so the
    /// segment is then cut into `LENS_PIECES` (the points the camera sees).
    pub fn segment(
        &self,
        (a, za): (crate::geometry::TablePoint, f64),
        (b, zb): (crate::geometry::TablePoint, f64),
    ) -> Vec<Pos2> {
        let n = if self.cal.lens().is_none() { 1 } else { LENS_PIECES };
        (0..=n)
            .filter_map(|k| {
                let t = k as f64 / n as f64;
                self.screen_from_table(a.lerp(b, t), za + (zb - za) * t)
            })
            .collect()
    }

    /// The polygon or path through table points `pts` at `z_in` inches up, as screen points,
    /// each edge as [`Self::segment`] draws it; `closed`: with the edge back to the first point
    /// (which is not repeated at the end, as [`egui::Shape::closed_line`] wants).
    pub fn path(&self, pts: &[crate::geometry::TablePoint], z_in: f64, closed: bool) -> Vec<Pos2> {
        let n = pts.len();
        let edges = if closed { n } else { n.saturating_sub(1) };
        let mut out: Vec<Pos2> = Vec::new();
        for i in 0..edges {
            let piece = self.segment((pts[i], z_in), (pts[(i + 1) % n], z_in));
            // (Each edge starts where the last ended.)
            out.extend(piece.into_iter().skip(usize::from(i > 0)));
        }
        if closed && n > 1 {
            out.pop();
        } else if n == 1 {
            out.extend(self.screen_from_table(pts[0], z_in));
        }
        out
    }

    /// A circle of radius `r` inches around `c` at `z_in` inches up, as a closed screen polyline
    /// (the points the camera sees).
    pub fn ring(&self, c: crate::geometry::TablePoint, r: f64, z_in: f64) -> Vec<Pos2> {
        (0..48)
            .filter_map(|k| {
                self.screen_from_table(c + crate::geometry::TablePoint::from_angle_deg(7.5 * k as f64).scale(r), z_in)
            })
            .collect()
    }

    /// Where a Model clicked at screen position `s` stands: on the top of the highest terrain
    /// piece the click lands on at that piece's height (the picture shows a roof where it is,
    /// not at the building's foot), else on the table. Table inches, and the height, inches.
    pub fn standing_point(
        &self,
        terrain: &[crate::geometry::Terrain],
        s: Pos2,
    ) -> Option<(crate::geometry::TablePoint, f64)> {
        let mut heights: Vec<f64> = terrain.iter().map(|t| t.height_in).filter(|&h| h > 0.0).collect();
        heights.sort_by(|a, b| b.total_cmp(a));
        let on_top = heights.into_iter().find_map(|h| {
            let p = self.table_from_screen(s, h)?;
            (crate::geometry::surface_height(terrain, p) == h).then_some((p, h))
        });
        on_top.or_else(|| self.table_from_screen(s, 0.0).map(|p| (p, 0.0)))
    }

    /// The trooper whose base a click at screen position `s` falls on (within `tolerance_in`
    /// inches of its edge), each base looked for at its own height; the nearest if several.
    pub fn trooper_at(&self, scene: &crate::geometry::Scene, s: Pos2, tolerance_in: f64) -> Option<usize> {
        super::nearest_base(scene, tolerance_in, |t| self.table_from_screen(s, t.body.elevation_in))
    }
}

/// The point at `z_in` inches above the table that image point `q` (pixels) shows, through
/// calibration `cal`'s camera (without one, the table point under it), table inches; `None` when
/// no such point is in front of the camera.
pub fn table_from_image_at(
    cal: &crate::vision::Calibration,
    q: crate::vision::ImagePoint,
    z_in: f64,
) -> Option<crate::geometry::TablePoint> {
    match cal.pose() {
        Some(pose) => pose.table_from_image_at(q, z_in),
        None => Some(cal.table_from_image(q)),
    }
}

/// A further known point is refused when, refitted with it, the calibration's worst error over
/// the table would be more than this, inches, and more than twice the error of the calibration
/// in force: such a point was mistyped or misclicked (a table position 30" off made the error
/// 16,962" and was kept, and saved to a game file).
pub const MAX_ADDED_ERROR_IN: f64 = 1.0;

/// Calibrating by clicking the four table corners, and the calibration in force.
#[derive(Default)]
pub struct Calibrator {
    /// The corners clicked so far, while calibrating.
    pub clicks: Option<Vec<crate::vision::ImagePoint>>,
    /// The calibration in force.
    pub calibration: Option<crate::vision::Calibration>,
    /// What to tell the player: how good the calibration is, or what went wrong.
    pub message: Option<String>,
    /// A further known point being added to the calibration in force.
    pub adding: Option<KnownPoint>,
    /// A grey copy of the frame being calibrated on, for snapping.
    gray: Option<image::GrayImage>,
}

/// A further point of the table the player knows the position of (an edge midpoint, a terrain
/// corner), to improve the calibration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KnownPoint {
    /// Where it was clicked on the picture (snapped), once it has been.
    pub pixel: Option<crate::vision::ImagePoint>,
    /// Its position on the table, inches, as the player types it.
    pub table: (f64, f64),
}

/// How far from a click to look for the real corner, image pixels.
pub const SNAP_RADIUS_PX: f64 = 10.0;

/// The table corners in the order they are clicked, for the instructions: each by its table
/// position and by where the Plan view draws it (origin bottom left, y up), so the player can
/// tell which corner of the real table the scene's (0, 0) is.
pub fn corner_names(w: f64, d: f64) -> [String; 4] {
    [
        "(0, 0) — the Plan's bottom-left corner".to_string(),
        format!("({w}, 0) — the Plan's bottom-right, along the width from the first"),
        format!("({w}, {d}) — the Plan's top-right, opposite the first"),
        format!("(0, {d}) — the Plan's top-left"),
    ]
}

impl Calibrator {
    /// Start clicking corners.
    pub fn start(&mut self) {
        self.clicks = Some(Vec::new());
        self.adding = None;
        self.gray = None;
        self.message = None;
    }

    /// Stop calibrating: the clicks so far are dropped and the calibration in force, if any,
    /// stays.
    pub fn cancel(&mut self) {
        if self.clicks.take().is_some() {
            self.message = self.quality().or_else(|| Some("calibration cancelled: not calibrated".into()));
        }
    }

    /// Start adding a further known point (needs a calibration to add to).
    pub fn start_point(&mut self) {
        if self.calibration.is_some() {
            self.adding = Some(KnownPoint { pixel: None, table: (0.0, 0.0) });
            self.gray = None;
        }
    }

    /// The click for the further point: snapped like a corner (if `snap` and one is nearby), and
    /// its table position guessed from the calibration in force, to the nearest 0.5".
    pub fn point_click(&mut self, p: crate::vision::ImagePoint, frame: &Frame, snap: bool) {
        let (Some(adding), Some(cal)) = (self.adding.as_mut(), self.calibration.as_ref()) else { return };
        let mut q = p;
        if snap {
            let gray = self.gray.get_or_insert_with(|| image::imageops::grayscale(frame.image.as_ref()));
            if let Ok(s) = crate::vision::snap_corner(gray, p, SNAP_RADIUS_PX) {
                q = s;
            }
        }
        let t = cal.table_from_image(q);
        // (+ 0.0 turns a −0.0 into 0, which the field would show as -0.0".)
        let half = |v: f64| if v.is_finite() { (v * 2.0).round() / 2.0 + 0.0 } else { 0.0 };
        *adding = KnownPoint { pixel: Some(q), table: (half(t.x), half(t.y)) };
    }

    /// Refit with the further point added to the pairs in force. Whether a new calibration came of
    /// it; if not, the message says why (naming the pair) and the calibration is unchanged.
    pub fn add_point(&mut self) -> bool {
        let (Some(KnownPoint { pixel: Some(pixel), table }), Some(cal)) = (self.adding, self.calibration.as_ref())
        else {
            return false;
        };
        self.adding = None;
        let mut pairs = cal.pairs().to_vec();
        pairs
            .push(crate::vision::PointPair { image: pixel, table: crate::geometry::TablePoint::new(table.0, table.1) });
        match crate::vision::Calibration::fit(cal.image_size(), &pairs) {
            Ok(c) if c.max_error_in() > MAX_ADDED_ERROR_IN.max(2.0 * cal.max_error_in()) => {
                self.message = Some(format!(
                    "point ({}, {}) not added: with it the worst error over the table would be {:.2}\" (now {:.2}\"); \
                     check its table position and where it was clicked",
                    table.0,
                    table.1,
                    c.max_error_in(),
                    cal.max_error_in()
                ));
                false
            }
            Ok(c) => {
                let n = c.pairs().len();
                self.calibration = Some(c);
                self.message = self.quality().map(|q| format!("{q}, from {n} points"));
                true
            }
            Err(e) => {
                self.message = Some(format!("point ({}, {}) not added: {}", table.0, table.1, e.describe(&click_name)));
                false
            }
        }
    }

    /// A short line on the calibration's quality, in inches.
    pub fn quality(&self) -> Option<String> {
        self.calibration.as_ref().map(|c| {
            let worst_px = c.residuals_px().iter().copied().fold(0.0, f64::max);
            let camera = match c.pose() {
                Some(p) => {
                    let (across, up) = (p.hfov_deg(f64::from(c.image_size().0)), p.eye()[2]);
                    match p.focal() {
                        crate::vision::Focal::Estimated => format!("; camera {across:.0}° across, {up:.0}\" up"),
                        crate::vision::Focal::Assumed => {
                            format!("; camera looks almost straight down: {across:.0}° across assumed, {up:.0}\" up")
                        }
                    }
                }
                None => "; no camera fits it: heights left out of the picture".to_string(),
            };
            let lens = if c.lens().is_none() {
                match crate::vision::LENS_MIN_PAIRS.saturating_sub(c.pairs().len()) {
                    // Enough points, but no lens fitted them inside the checks (`Calibration::fit` fell back).
                    0 => "; lens not corrected (these points fit no lens: the picture is taken as undistorted)".into(),
                    more => {
                        format!(
                            "; lens not corrected ({more} more known point{} needed)",
                            if more == 1 { "" } else { "s" }
                        )
                    }
                }
            } else {
                format!("; lens corrected (λ = {:+.3}, up to {:.1} px)", c.lens().lambda(), c.lens().worst_shift_px())
            };
            format!(
                "calibrated: worst error ≈ {:.2}\" over the table (residuals ≤ {worst_px:.2} px){lens}{camera}",
                c.max_error_in()
            )
        })
    }

    /// A click at image point `p` while calibrating: snap it to the real corner (if `snap` and
    /// one is found nearby), and fit once four are in. Whether a new calibration came of it.
    pub fn click(&mut self, p: crate::vision::ImagePoint, frame: &Frame, table: (f64, f64), snap: bool) -> bool {
        let Some(clicks) = self.clicks.as_mut() else { return false };
        let mut q = p;
        if snap {
            let gray = self.gray.get_or_insert_with(|| image::imageops::grayscale(frame.image.as_ref()));
            match crate::vision::snap_corner(gray, p, SNAP_RADIUS_PX) {
                Ok(s) => q = s,
                Err(e) => {
                    self.message = Some(format!("corner {} not snapped ({e}); using the click", clicks.len() + 1))
                }
            }
        }
        clicks.push(q);
        if clicks.len() == 4 {
            let corners = [clicks[0], clicks[1], clicks[2], clicks[3]];
            let pairs = crate::vision::corner_pairs(table.0, table.1, corners);
            let size = (frame.image.width(), frame.image.height());
            match crate::vision::Calibration::fit(size, &pairs) {
                Ok(c) => {
                    self.calibration = Some(c);
                    self.clicks = None;
                    self.message = self.quality();
                    return true;
                }
                Err(e) => {
                    self.message = Some(format!("{} — click the four corners again", e.describe(&click_name)));
                    self.clicks = Some(Vec::new());
                }
            }
        }
        false
    }
}

/// How the calibration's messages name its point pairs in the app: the corners as the prompt
/// counts them ("corner 1 of 4"), then the further known points in the order added.
fn click_name(index: usize) -> String {
    if index < 4 { format!("corner {}", index + 1) } else { format!("known point {}", index - 3) }
}

/// A magnifier: the picture around `at` (screen), zoomed, in a square beside the pointer, with a cross.
pub fn magnifier(ui: &egui::Ui, tex: &TextureHandle, f: &ImageFrame, at: Pos2) {
    const ZOOM: f32 = 6.0;
    const SIZE: f32 = 150.0;
    let (x, y) = f.image_from_screen(at);
    let half = f64::from(SIZE / ZOOM / 2.0);
    let (w, h) = (f64::from(f.size.0), f64::from(f.size.1));
    let uv = Rect::from_min_max(
        pos2(((x - half) / w) as f32, ((y - half) / h) as f32),
        pos2(((x + half) / w) as f32, ((y + half) / h) as f32),
    );
    let mut rect = Rect::from_min_size(at + vec2(24.0, 24.0), vec2(SIZE, SIZE));
    // (Flipped against the panel it is drawn in, not the window: beside the right corners the
    // window's edge is behind the measures panel, which would hide the magnifier.)
    let screen = ui.clip_rect();
    if rect.max.x > screen.max.x {
        rect = rect.translate(vec2(-SIZE - 48.0, 0.0));
    }
    if rect.max.y > screen.max.y {
        rect = rect.translate(vec2(0.0, -SIZE - 48.0));
    }
    let painter = ui.painter();
    painter.rect_filled(rect, 2.0, Color32::BLACK);
    painter.image(tex.id(), rect, uv, Color32::WHITE);
    let c = rect.center();
    let cross = egui::Stroke::new(1.0, Color32::from_rgb(255, 60, 200));
    painter.line_segment([pos2(rect.min.x, c.y), pos2(rect.max.x, c.y)], cross);
    painter.line_segment([pos2(c.x, rect.min.y), pos2(c.x, rect.max.y)], cross);
    painter.rect_stroke(rect, 2.0, egui::Stroke::new(1.5, Color32::WHITE), egui::StrokeKind::Outside);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::TablePoint;
    use crate::vision::{Calibration, ImagePoint, corner_pairs};

    /// The status line says why the lens is not corrected: too few known points (and how many more
    /// are needed), or enough points that no lens fits, when the picture is taken as undistorted.
    #[test]
    fn the_calibration_line_says_why_the_lens_is_not_corrected() {
        let quality = |pairs: &[crate::vision::PointPair]| {
            let c = Calibrator {
                calibration: Some(Calibration::fit((1280, 720), pairs).expect("fits")),
                ..Calibrator::default()
            };
            c.quality().expect("a calibration")
        };
        let pairs = crate::vision::points_no_lens_fits();
        let line = quality(&pairs[..7]);
        assert!(line.contains("lens not corrected (1 more known point needed)"), "{line}");
        let line = quality(&pairs[..5]);
        assert!(line.contains("lens not corrected (3 more known points needed)"), "{line}");
        let line = quality(&pairs);
        assert!(line.contains("lens not corrected (these points fit no lens"), "{line}");
        assert!(!line.contains("more known point"), "{line}");
    }

    /// With the demo lens corrected, a table edge is drawn as the curve the picture shows it as:
    /// every piece's end lies where the demo camera puts that point of the edge, while the
    /// straight chord between the corners misses the edge's middle by pixels.
    #[test]
    fn straight_table_edges_are_drawn_bent_as_the_lens_bends_them() {
        let cam = crate::camera::demo::DemoCamera::default_demo();
        let table = (48.0, 48.0);
        let cal = crate::app::demo_calibration(table).expect("the demo calibration");
        assert!(!cal.lens().is_none());
        let frame = ImageFrame {
            rect: Rect::from_min_size(pos2(0.0, 0.0), vec2(1280.0, 720.0)),
            scale: 1.0,
            size: (1280, 720),
        };
        let view = TableOnPicture { cal: &cal, frame };
        let corners = [(0.0, 0.0), (48.0, 0.0), (48.0, 48.0), (0.0, 48.0)].map(|(x, y)| TablePoint::new(x, y));
        let outline = view.path(&corners, 0.0, true);
        assert_eq!(outline.len(), 4 * LENS_PIECES);
        let truth = |x: f64, y: f64| cam.image_from_table(TablePoint::new(x, y), table).expect("in view");
        for (k, p) in outline.iter().enumerate().take(LENS_PIECES) {
            let (u, v) = truth(48.0 * k as f64 / LENS_PIECES as f64, 0.0);
            let off = (f64::from(p.x) - u).hypot(f64::from(p.y) - v);
            assert!(off < 0.05, "point {k} of the near edge is {off} px off");
        }
        let ((u0, v0), (u1, v1), (um, vm)) = (truth(0.0, 0.0), truth(48.0, 0.0), truth(24.0, 0.0));
        let chord = ((u0 + u1) / 2.0 - um).hypot((v0 + v1) / 2.0 - vm);
        assert!(chord > 1.0, "the lens bends the edge by {chord} px at its middle");
        // Without a lens to correct, a segment is one straight piece.
        let four = Calibration::fit(
            (1280, 720),
            &corner_pairs(
                48.0,
                48.0,
                [0, 1, 2, 3].map(|k| {
                    let (u, v) = truth(corners[k].x, corners[k].y);
                    ImagePoint::new(u, v)
                }),
            ),
        )
        .expect("fits");
        let view = TableOnPicture { cal: &four, frame };
        assert_eq!(view.segment((corners[0], 0.0), (corners[1], 0.0)).len(), 2);
        assert_eq!(view.path(&corners, 0.0, true).len(), 4);
    }

    /// On the demo camera (its pose known), a click where the picture shows a point on a roof
    /// stands there, at the roof's height; a click on the open table stands on the table.
    #[test]
    fn a_click_on_a_roof_in_the_picture_stands_on_the_roof() {
        let cam = crate::camera::demo::DemoCamera { k1: 0.0, ..crate::camera::demo::DemoCamera::default_demo() };
        let table = (48.0, 48.0);
        let corners = [(0.0, 0.0), (48.0, 0.0), (48.0, 48.0), (0.0, 48.0)]
            .map(|(x, y)| cam.image_from_table(TablePoint::new(x, y), table).map(|(u, v)| ImagePoint::new(u, v)));
        let corners = corners.map(|c| c.expect("in view"));
        let cal = Calibration::fit((cam.image[0], cam.image[1]), &corner_pairs(48.0, 48.0, corners)).expect("fit");
        let frame = ImageFrame {
            rect: Rect::from_min_size(Pos2::ZERO, egui::vec2(1280.0, 720.0)),
            scale: 1.0,
            size: (1280, 720),
        };
        let view = TableOnPicture { cal: &cal, frame };
        let roof = crate::geometry::Terrain::rect("bunker", 20.0, 20.0, 28.0, 26.0, 4.0).expect("a piece");
        let terrain = [roof];
        let click = |p: TablePoint, z: f64| {
            let (u, v) = cam.project([p.x, p.y, z], table).expect("in view");
            view.standing_point(&terrain, Pos2::new(u as f32, v as f32)).expect("a point")
        };
        let (p, h) = click(TablePoint::new(24.0, 23.0), 4.0);
        assert_eq!(h, 4.0);
        assert!(p.dist(TablePoint::new(24.0, 23.0)) < 0.01, "{p:?}");
        // In front of the bunker: the table, though the same pixel at roof height would miss it.
        let (p, h) = click(TablePoint::new(24.0, 12.0), 0.0);
        assert_eq!(h, 0.0);
        assert!(p.dist(TablePoint::new(24.0, 12.0)) < 0.01, "{p:?}");
    }

    /// A further point typed 30" off is refused and the calibration in force stays; the same
    /// point typed right is added.
    #[test]
    fn known_points_and_a_cancelled_calibration_keep_the_good_one() {
        let corners =
            [(100.0, 600.0), (1180.0, 620.0), (1000.0, 120.0), (260.0, 110.0)].map(|(x, y)| ImagePoint { x, y });
        let cal = Calibration::fit((1280, 720), &corner_pairs(48.0, 48.0, corners)).expect("a calibration");
        let edge_mid = cal.image_from_table(TablePoint::new(24.0, 0.0));
        let add = |table: (f64, f64)| {
            let mut c = Calibrator { calibration: Some(cal.clone()), ..Calibrator::default() };
            c.adding = Some(KnownPoint { pixel: Some(edge_mid), table });
            let added = c.add_point();
            (added, c)
        };
        let (added, c) = add((24.0, 30.0));
        assert!(!added);
        assert_eq!(c.calibration.as_ref().map(|k| k.pairs().len()), Some(4), "the calibration in force stays");
        assert!(c.message.as_deref().is_some_and(|m| m.starts_with("point (24, 30) not added")), "{:?}", c.message);
        let (added, c) = add((24.0, 0.0));
        assert!(added, "{:?}", c.message);
        assert_eq!(c.calibration.as_ref().map(|k| k.pairs().len()), Some(5));
        // Calibrating again and cancelling keeps the calibration in force.
        let mut c = Calibrator { calibration: Some(cal.clone()), ..Calibrator::default() };
        c.start();
        c.clicks.as_mut().expect("calibrating").push(corners[0]);
        c.cancel();
        assert!(c.clicks.is_none() && c.calibration.is_some());
        assert!(c.message.as_deref().is_some_and(|m| m.starts_with("calibrated: worst error")), "{:?}", c.message);
        // The corners are named as the prompt counts them, not "pair 0".
        let mut c = Calibrator { calibration: Some(cal.clone()), ..Calibrator::default() };
        c.adding = Some(KnownPoint { pixel: Some(corners[3]), table: (0.0, 48.0) });
        assert!(!c.add_point());
        let m = c.message.unwrap_or_default();
        assert!(m.contains("known point 1") && m.contains("corner 4") && !m.contains("pair"), "{m}");
    }

    /// A trooper on a rooftop is clicked where the picture shows it, on the roof, and drawn
    /// there: not at the foot of the building, where the table plane would put it.
    #[test]
    fn a_rooftop_trooper_is_found_and_drawn_at_its_height() {
        use crate::camera::demo::{DemoCamera, default_scene};
        let scene = default_scene();
        let sniper = scene.troopers.iter().position(|t| t.body.elevation_in > 0.0).expect("a raised trooper");
        let b = scene.troopers[sniper].body;
        let cam = DemoCamera { k1: 0.0, ..DemoCamera::default_demo() };
        let table = (scene.table.width, scene.table.depth);
        let project = |x: f64, y: f64, z: f64| {
            let (u, v) = cam.project([x, y, z], table).expect("in view");
            egui::pos2(u as f32, v as f32)
        };
        let corners = [(0.0, 0.0), (table.0, 0.0), table, (0.0, table.1)].map(|(x, y)| {
            let p = project(x, y, 0.0);
            ImagePoint::new(f64::from(p.x), f64::from(p.y))
        });
        let cal = Calibration::fit((cam.image[0], cam.image[1]), &corner_pairs(table.0, table.1, corners))
            .expect("a calibration");
        let frame = ImageFrame {
            rect: Rect::from_min_size(Pos2::ZERO, vec2(cam.image[0] as f32, cam.image[1] as f32)),
            scale: 1.0,
            size: (cam.image[0], cam.image[1]),
        };
        let view = TableOnPicture { cal: &cal, frame };
        let on_roof = project(b.centre.x, b.centre.y, b.elevation_in);
        let below = project(b.centre.x, b.centre.y, 0.0);
        assert!(on_roof.distance(below) > 10.0, "the roof is {} px above the table there", on_roof.distance(below));
        assert_eq!(view.trooper_at(&scene, on_roof, 0.5), Some(sniper));
        assert_ne!(view.trooper_at(&scene, below, 0.5), Some(sniper));
        // Its base ring is drawn around it on the roof.
        let ring = view.ring(b.centre, b.radius(), b.elevation_in);
        let centre = ring.iter().fold(egui::Vec2::ZERO, |a, p| a + p.to_vec2()) / ring.len() as f32;
        assert!(centre.to_pos2().distance(on_roof) < 1.0, "{centre:?} vs {on_roof:?}");
    }
}
