//! Frame sources — the live webcam (nokhwa), a still image, an image folder, the synthetic demo
//! table — behind one interface, [`FrameSource`], and the capture thread that runs one of them
//! ([`Capture`]).
//!
//! Knows nothing of the game. Frames are RGBA images; the UI side receives them through a bounded
//! channel that drops stale frames and never blocks (DESIGN.md "Data flow").

mod capture;
pub mod demo;
mod files;
mod webcam;

pub use capture::{Capture, CaptureEvent, Clock, FRAME_CHANNEL_DEPTH, SystemClock};
pub use files::{FolderSource, MAX_FPS, StillSource, check_fps};
pub use webcam::{
    CameraSelector, DeviceInfo, FormatChoice, WebcamSource, choose_format, decode_mjpeg, decode_mjpeg_into,
    list_devices,
};

use image::RgbaImage;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// One picture from a source.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The picture, RGBA, 8 bits per channel.
    pub image: Arc<RgbaImage>,
    /// Its number in the stream, from 0.
    pub seq: u64,
    /// When the capture thread received it, since the stream started.
    pub at: Duration,
}

/// What can go wrong with a source: values the UI can show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CameraError {
    /// No camera is connected.
    #[error("no camera found (is one plugged in, and may this user open /dev/video*?)")]
    NoCamera,
    /// The camera asked for is not there.
    #[error("camera {0} not found; cameras present: {1}")]
    NotFound(String, String),
    /// The camera could not be opened (busy, permissions, unsupported format).
    #[error("camera {device}: cannot open: {reason}")]
    Open {
        /// Which camera.
        device: String,
        /// What the system said.
        reason: String,
    },
    /// Reading a frame failed (unplugged mid-stream, …).
    #[error("camera {device}: {reason}")]
    Read {
        /// Which camera.
        device: String,
        /// What the system said.
        reason: String,
    },
    /// A frame could not be decoded.
    #[error("cannot decode frame: {0}")]
    Decode(String),
    /// An image file could not be read.
    #[error("{path}: {reason}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// A folder has no images.
    #[error("{0}: no PNG or JPEG images in this folder")]
    EmptyFolder(PathBuf),
    /// A `--source` that cannot be understood.
    #[error("--source {0}")]
    BadSpec(String),
    /// A folder playback rate (`--fps`) out of range.
    #[error("--fps {0}: give a rate above 0 and at most {max} frames per second", max = files::MAX_FPS)]
    BadRate(String),
}

/// A source of frames.
pub trait FrameSource: Send {
    /// The next frame, or `None` when the source has no more (a still image after its one frame).
    /// A webcam blocks until the camera delivers; file sources return at once and are paced by
    /// the capture thread at [`FrameSource::interval`].
    fn next_frame(&mut self) -> Result<Option<RgbaImage>, CameraError>;

    /// Time between frames for sources the capture thread paces; `None` when the device paces itself.
    fn interval(&self) -> Option<Duration>;

    /// For people: what this source is.
    fn describe(&self) -> String;

    /// Whether an error is worth retrying (an unplugged webcam) rather than the end of the stream.
    fn retry_on_error(&self) -> bool {
        false
    }

    /// Try to get the source going again after an error (reopen the camera).
    fn reopen(&mut self) -> Result<(), CameraError> {
        Ok(())
    }
}

/// Which source to open: `--source camera[:N|:NAME] | image:PATH | folder:PATH | demo`.
#[derive(Debug, Clone, PartialEq)]
pub enum SourceSpec {
    /// A webcam: the first, or one chosen by index or name.
    Camera(CameraSelector),
    /// A still PNG or JPEG.
    Image(PathBuf),
    /// A folder of PNG/JPEG images, played in name order, looping.
    Folder(PathBuf),
    /// The synthetic demo table.
    Demo,
}

impl std::str::FromStr for SourceSpec {
    type Err = CameraError;
    fn from_str(s: &str) -> Result<Self, CameraError> {
        let (kind, rest) = match s.split_once(':') {
            Some((k, r)) => (k, Some(r)),
            None => (s, None),
        };
        let need_path = |what: &str| match rest {
            Some(p) if !p.is_empty() => Ok(PathBuf::from(p)),
            _ => Err(CameraError::BadSpec(format!("{s}: give a path, as {what}:PATH"))),
        };
        match kind {
            "camera" => Ok(SourceSpec::Camera(match rest {
                None | Some("") => CameraSelector::First,
                Some(r) => match r.parse::<u32>() {
                    Ok(n) => CameraSelector::Index(n),
                    Err(_) => CameraSelector::Name(r.to_string()),
                },
            })),
            "image" => Ok(SourceSpec::Image(need_path("image")?)),
            "folder" => Ok(SourceSpec::Folder(need_path("folder")?)),
            "demo" if rest.is_none() => Ok(SourceSpec::Demo),
            _ => Err(CameraError::BadSpec(format!(
                "{s}: expected camera, camera:N, camera:NAME, image:PATH, folder:PATH or demo"
            ))),
        }
    }
}

/// Open the source `spec` describes. `fps` paces folder playback.
pub fn open(spec: &SourceSpec, fps: f64) -> Result<Box<dyn FrameSource>, CameraError> {
    Ok(match spec {
        SourceSpec::Camera(sel) => Box::new(WebcamSource::open(sel.clone())?),
        SourceSpec::Image(p) => Box::new(StillSource::open(p)?),
        SourceSpec::Folder(p) => Box::new(FolderSource::open(p, fps)?),
        SourceSpec::Demo => Box::new(demo::DemoSource::new(demo::DemoCamera::default_demo(), demo::default_scene())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_specs_parse_and_bad_ones_say_what_is_expected() {
        assert_eq!("demo".parse::<SourceSpec>(), Ok(SourceSpec::Demo));
        assert_eq!("camera".parse::<SourceSpec>(), Ok(SourceSpec::Camera(CameraSelector::First)));
        assert_eq!("camera:2".parse::<SourceSpec>(), Ok(SourceSpec::Camera(CameraSelector::Index(2))));
        assert_eq!(
            "camera:HD Pro Webcam".parse::<SourceSpec>(),
            Ok(SourceSpec::Camera(CameraSelector::Name("HD Pro Webcam".into())))
        );
        assert_eq!("image:/tmp/a.png".parse::<SourceSpec>(), Ok(SourceSpec::Image("/tmp/a.png".into())));
        assert_eq!("folder:shots".parse::<SourceSpec>(), Ok(SourceSpec::Folder("shots".into())));
        let e = "image".parse::<SourceSpec>().expect_err("no path");
        assert!(e.to_string().contains("image:PATH"), "{e}");
        let e = "webcam".parse::<SourceSpec>().expect_err("unknown");
        assert!(e.to_string().contains("expected camera"), "{e}");
    }
}
