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
        let response = ui.allocate_rect(rect, Sense::click());
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
