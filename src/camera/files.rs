//! File sources: a still image, and a folder of images played at a chosen rate, looping.

use super::{CameraError, FrameSource};
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn read(path: &Path) -> Result<RgbaImage, CameraError> {
    image::open(path)
        .map(|i| i.to_rgba8())
        .map_err(|e| CameraError::File { path: path.to_path_buf(), reason: e.to_string() })
}

/// One PNG or JPEG, delivered once (the UI keeps showing it).
#[derive(Debug)]
pub struct StillSource {
    path: PathBuf,
    image: Option<RgbaImage>,
}

impl StillSource {
    /// Read the image now, so a bad file is reported at once.
    pub fn open(path: &Path) -> Result<Self, CameraError> {
        Ok(Self { path: path.to_path_buf(), image: Some(read(path)?) })
    }
}

impl FrameSource for StillSource {
    fn next_frame(&mut self) -> Result<Option<RgbaImage>, CameraError> {
        Ok(self.image.take())
    }

    fn interval(&self) -> Option<Duration> {
        Some(Duration::ZERO)
    }

    fn describe(&self) -> String {
        format!("image {}", self.path.display())
    }
}

/// The highest folder playback rate accepted, in frames per second.
pub const MAX_FPS: f64 = 1000.0;

/// `fps` if it is a folder playback rate sightline can keep: above 0 and at most [`MAX_FPS`]
/// frames per second (the command line checks `--fps` with it, whatever the source).
pub fn check_fps(fps: f64) -> Result<f64, CameraError> {
    if fps.is_finite() && fps > 0.0 && fps <= MAX_FPS { Ok(fps) } else { Err(CameraError::BadRate(fps.to_string())) }
}

/// The PNG and JPEG files of a folder in name order, played at a rate, looping.
#[derive(Debug)]
pub struct FolderSource {
    folder: PathBuf,
    files: Vec<PathBuf>,
    next: usize,
    interval: Duration,
}

impl FolderSource {
    /// List the folder's images; `fps` frames per second (> 0).
    pub fn open(folder: &Path, fps: f64) -> Result<Self, CameraError> {
        let fps = check_fps(fps)?;
        let entries = std::fs::read_dir(folder)
            .map_err(|e| CameraError::File { path: folder.to_path_buf(), reason: e.to_string() })?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension()
                    .and_then(|x| x.to_str())
                    .is_some_and(|x| matches!(x.to_ascii_lowercase().as_str(), "png" | "jpg" | "jpeg"))
            })
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(CameraError::EmptyFolder(folder.to_path_buf()));
        }
        Ok(Self { folder: folder.to_path_buf(), files, next: 0, interval: Duration::from_secs_f64(1.0 / fps) })
    }

    /// The files it plays, in order.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }
}

impl FrameSource for FolderSource {
    fn next_frame(&mut self) -> Result<Option<RgbaImage>, CameraError> {
        let path = &self.files[self.next % self.files.len()];
        self.next += 1;
        read(path).map(Some)
    }

    fn interval(&self) -> Option<Duration> {
        Some(self.interval)
    }

    fn describe(&self) -> String {
        format!("folder {} ({} images)", self.folder.display(), self.files.len())
    }
}
