//! The live webcam, through nokhwa: list devices, open one by index or name, choose the format
//! (MJPEG 1920×1080 when offered), decode frames to RGBA, reopen after an unplug.

use super::{CameraError, FrameSource};
use image::RgbaImage;
use nokhwa::pixel_format::RgbAFormat;
use nokhwa::utils::{
    ApiBackend, CameraFormat, CameraIndex, FrameFormat, RequestedFormat, RequestedFormatType, Resolution,
};
use std::time::Duration;

/// The resolution asked for first.
pub const WANTED: (u32, u32) = (1920, 1080);

/// Slowest frame rate worth choosing when a faster one is offered.
pub const MIN_FPS: u32 = 10;

/// Which camera.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CameraSelector {
    /// The first one found.
    First,
    /// By its index in [`list_devices`].
    Index(u32),
    /// By (part of) its name, case-insensitive.
    Name(String),
}

/// A camera found on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Its index (as `camera:N` takes it).
    pub index: u32,
    /// Its name.
    pub name: String,
    /// The backend's description.
    pub description: String,
}

/// Every camera the system offers. An empty list is not an error.
pub fn list_devices() -> Result<Vec<DeviceInfo>, CameraError> {
    let found = nokhwa::query(ApiBackend::Auto)
        .map_err(|e| CameraError::Open { device: "any".into(), reason: e.to_string() })?;
    Ok(found
        .iter()
        .enumerate()
        .map(|(k, c)| DeviceInfo {
            index: match c.index() {
                CameraIndex::Index(i) => *i,
                CameraIndex::String(_) => k as u32,
            },
            name: c.human_name(),
            description: c.description().to_string(),
        })
        .collect())
}

/// A format a camera offers, as the chooser sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatChoice {
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// Frames per second.
    pub fps: u32,
    /// Compressed MJPEG (otherwise uncompressed: YUYV, NV12 …).
    pub mjpeg: bool,
}

/// The format to use among those offered: MJPEG 1920×1080 if there is one; otherwise the
/// resolution nearest 1920×1080 without exceeding it (the smallest if all exceed it), preferring a
/// frame rate of at least `MIN_FPS`, then MJPEG (uncompressed HD saturates USB 2), then the
/// higher frame rate (up to 30).
pub fn choose_format(offered: &[FormatChoice]) -> Option<FormatChoice> {
    let wanted_area = u64::from(WANTED.0) * u64::from(WANTED.1);
    offered.iter().copied().max_by_key(|f| {
        let area = u64::from(f.width) * u64::from(f.height);
        let exact = f.mjpeg && (f.width, f.height) == WANTED;
        let fits = area <= wanted_area;
        // Nearer to the wanted size is better: fitting ones by size, too-big ones by smallness.
        let size_score = if fits { area } else { u64::MAX - area };
        (exact, f.fps >= MIN_FPS, fits, size_score, f.mjpeg, f.fps.min(30))
    })
}

/// Decode one MJPEG frame (a JPEG, possibly without Huffman tables, as many UVC cameras send
/// them) to RGBA, with libjpeg-turbo (its SIMD decoder; a missing Huffman table gets the
/// standard one).
pub fn decode_mjpeg(bytes: &[u8]) -> Result<RgbaImage, CameraError> {
    let mut out = RgbaImage::new(0, 0);
    decode_mjpeg_into(bytes, &mut out)?;
    Ok(out)
}

/// [`decode_mjpeg`] into `out`, reusing its pixels when the size is the same (a stream's frames
/// all are): no 8 MB allocation per 1080p frame. On an error `out` keeps its size, its pixels
/// unspecified.
pub fn decode_mjpeg_into(bytes: &[u8], out: &mut RgbaImage) -> Result<(), CameraError> {
    thread_local! {
        /// One decompressor per thread, kept between frames.
        static DECOMPRESSOR: std::cell::RefCell<Option<turbojpeg::Decompressor>> = const { std::cell::RefCell::new(None) };
    }
    let bad = |e: turbojpeg::Error| CameraError::Decode(e.to_string());
    DECOMPRESSOR.with_borrow_mut(|slot| {
        let dec = match slot {
            Some(d) => d,
            None => slot.insert(turbojpeg::Decompressor::new().map_err(bad)?),
        };
        let header = dec.read_header(bytes).map_err(bad)?;
        let (w, h) = (header.width, header.height);
        let (Ok(width), Ok(height)) = (u32::try_from(w), u32::try_from(h)) else {
            return Err(CameraError::Decode(format!("a {w}×{h} frame is too big")));
        };
        if out.dimensions() != (width, height) {
            *out = RgbaImage::new(width, height);
        }
        let format = turbojpeg::PixelFormat::RGBA;
        let image = turbojpeg::Image { pixels: &mut **out, width: w, pitch: w * 4, height: h, format };
        dec.decompress(bytes, image).map_err(bad)
    })
}

/// A webcam opened through nokhwa.
pub struct WebcamSource {
    selector: CameraSelector,
    name: String,
    camera: Option<nokhwa::Camera>,
    format: Option<FormatChoice>,
}

impl std::fmt::Debug for WebcamSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebcamSource").field("name", &self.name).field("format", &self.format).finish_non_exhaustive()
    }
}

impl WebcamSource {
    /// Find and open the camera `selector` names.
    pub fn open(selector: CameraSelector) -> Result<Self, CameraError> {
        let mut s = Self { selector, name: String::new(), camera: None, format: None };
        s.reopen()?;
        Ok(s)
    }

    /// The format in use.
    pub fn format(&self) -> Option<FormatChoice> {
        self.format
    }

    fn find(&self) -> Result<DeviceInfo, CameraError> {
        let devices = list_devices()?;
        if devices.is_empty() {
            return Err(CameraError::NoCamera);
        }
        let names = || devices.iter().map(|d| format!("{}: {}", d.index, d.name)).collect::<Vec<_>>().join(", ");
        let found = match &self.selector {
            CameraSelector::First => devices.first(),
            CameraSelector::Index(i) => devices.iter().find(|d| d.index == *i),
            CameraSelector::Name(n) => devices.iter().find(|d| d.name.to_lowercase().contains(&n.to_lowercase())),
        };
        found.cloned().ok_or_else(|| {
            let what = match &self.selector {
                CameraSelector::First => "0".to_string(),
                CameraSelector::Index(i) => i.to_string(),
                CameraSelector::Name(n) => format!("\"{n}\""),
            };
            CameraError::NotFound(what, names())
        })
    }
}

fn to_choice(f: &CameraFormat) -> FormatChoice {
    FormatChoice { width: f.width(), height: f.height(), fps: f.frame_rate(), mjpeg: f.format() == FrameFormat::MJPEG }
}

impl FrameSource for WebcamSource {
    fn next_frame(&mut self) -> Result<Option<RgbaImage>, CameraError> {
        let device = self.name.clone();
        let Some(camera) = self.camera.as_mut() else {
            return Err(CameraError::Read { device, reason: "not open".into() });
        };
        let buffer = camera.frame().map_err(|e| CameraError::Read { device: device.clone(), reason: e.to_string() })?;
        let image = if buffer.source_frame_format() == FrameFormat::MJPEG {
            decode_mjpeg(buffer.buffer())?
        } else {
            buffer.decode_image::<RgbAFormat>().map_err(|e| CameraError::Decode(e.to_string()))?
        };
        Ok(Some(image))
    }

    fn interval(&self) -> Option<Duration> {
        None
    }

    fn describe(&self) -> String {
        match self.format {
            Some(f) => format!(
                "camera {} ({}×{} {} at {} fps)",
                self.name,
                f.width,
                f.height,
                if f.mjpeg { "MJPEG" } else { "uncompressed" },
                f.fps
            ),
            None => format!("camera {}", self.name),
        }
    }

    fn retry_on_error(&self) -> bool {
        true
    }

    fn reopen(&mut self) -> Result<(), CameraError> {
        self.camera = None;
        let info = self.find()?;
        self.name = info.name.clone();
        let open_err = |e: nokhwa::NokhwaError| CameraError::Open { device: info.name.clone(), reason: e.to_string() };
        let first = RequestedFormat::new::<RgbAFormat>(RequestedFormatType::AbsoluteHighestFrameRate);
        let mut camera = nokhwa::Camera::new(CameraIndex::Index(info.index), first).map_err(open_err)?;
        let offered = camera.compatible_camera_formats().map_err(open_err)?;
        let choices: Vec<FormatChoice> = offered.iter().map(to_choice).collect();
        if let Some(c) = choose_format(&choices)
            && let Some(fmt) = offered.iter().find(|f| to_choice(f) == c)
        {
            let exact = CameraFormat::new(Resolution::new(fmt.width(), fmt.height()), fmt.format(), fmt.frame_rate());
            camera
                .set_camera_requset(RequestedFormat::new::<RgbAFormat>(RequestedFormatType::Exact(exact)))
                .map_err(open_err)?;
            self.format = Some(c);
        }
        camera.open_stream().map_err(open_err)?;
        self.camera = Some(camera);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(width: u32, height: u32, fps: u32, mjpeg: bool) -> FormatChoice {
        FormatChoice { width, height, fps, mjpeg }
    }

    #[test]
    fn prefers_mjpeg_1080p_then_falls_back_sensibly() {
        let all = [f(640, 480, 30, false), f(1920, 1080, 5, false), f(1920, 1080, 30, true), f(1280, 720, 30, true)];
        assert_eq!(choose_format(&all), Some(f(1920, 1080, 30, true)));
        // No MJPEG 1080p: the biggest that fits at a usable rate; MJPEG over raw at the same size.
        let no = [f(640, 480, 30, false), f(1920, 1080, 5, false), f(1280, 720, 30, true), f(1280, 720, 30, false)];
        assert_eq!(choose_format(&no), Some(f(1280, 720, 30, true)));
        // Only too-big formats: the smallest of them.
        let big = [f(3840, 2160, 30, true), f(2560, 1440, 30, true)];
        assert_eq!(choose_format(&big), Some(f(2560, 1440, 30, true)));
        assert_eq!(choose_format(&[]), None);
    }

    #[test]
    fn decodes_a_jpeg_to_rgba_and_refuses_garbage() {
        let mut img = RgbaImage::new(64, 32);
        for (x, _, p) in img.enumerate_pixels_mut() {
            *p = image::Rgba([(x * 4) as u8, 100, 200, 255]);
        }
        let jpeg = jpeg_of(img);
        let out = decode_mjpeg(&jpeg).expect("decodes");
        assert_eq!(out.dimensions(), (64, 32));
        let p = out.get_pixel(40, 10);
        assert!((i32::from(p[0]) - 160).abs() < 12 && (i32::from(p[2]) - 200).abs() < 12 && p[3] == 255, "{p:?}");
        assert!(decode_mjpeg(b"not a jpeg").is_err());
    }

    /// `img` as a JPEG (the image crate's encoder: baseline, standard Huffman tables).
    fn jpeg_of(img: RgbaImage) -> Vec<u8> {
        let mut jpeg = Vec::new();
        image::DynamicImage::ImageRgba8(img)
            .to_rgb8()
            .write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg)
            .expect("encode");
        jpeg
    }

    /// Removes every DHT (Huffman table) segment from a baseline JPEG, as many UVC webcams send
    /// their MJPEG frames.
    fn strip_huffman_tables(jpeg: &[u8]) -> Vec<u8> {
        let mut out = jpeg[..2].to_vec(); // SOI
        let mut i = 2;
        while i + 4 <= jpeg.len() {
            let (marker, len) = (jpeg[i + 1], usize::from(u16::from_be_bytes([jpeg[i + 2], jpeg[i + 3]])));
            if marker == 0xDA {
                out.extend_from_slice(&jpeg[i..]); // the scan and everything after it
                return out;
            }
            if marker != 0xC4 {
                out.extend_from_slice(&jpeg[i..i + 2 + len]);
            }
            i += 2 + len;
        }
        panic!("no scan in the JPEG");
    }

    #[test]
    fn decodes_a_webcam_frame_without_huffman_tables_with_the_standard_ones() {
        // The image crate's encoder writes the standard tables, so the stripped frame must decode
        // to exactly the same pixels.
        let mut img = RgbaImage::new(96, 48);
        for (x, y, p) in img.enumerate_pixels_mut() {
            *p = image::Rgba([(x * 2) as u8, (y * 5) as u8, ((x + y) * 3) as u8, 255]);
        }
        let jpeg = jpeg_of(img);
        let stripped = strip_huffman_tables(&jpeg);
        assert!(stripped.len() < jpeg.len() && !stripped.windows(2).any(|w| w == [0xFF, 0xC4]), "DHT removed");
        let (full, bare) = (decode_mjpeg(&jpeg).expect("decodes"), decode_mjpeg(&stripped).expect("decodes"));
        assert_eq!(full, bare);
        // And into a reused frame of another size: resized, same pixels.
        let mut frame = RgbaImage::new(8, 8);
        decode_mjpeg_into(&stripped, &mut frame).expect("decodes");
        assert_eq!(frame, full);
    }
}
