//! Renders the demo table (what `sightline --source demo` shows) to image files: the shipped
//! `assets/demo/table.png`, and `frame-1080p.png`, from which the decode benchmark's MJPEG-like
//! fixture is made with the chroma subsampling webcams use (UVC MJPEG is YUV 4:2:2):
//!
//! ```sh
//! cargo run --release --example render_demo -- OUT_DIR
//! convert OUT_DIR/frame-1080p.png -sampling-factor 2x1 -quality 90 assets/demo/frame-1080p.jpg
//! ```

use sightline::camera::demo::{DemoCamera, default_scene};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args().nth(1).unwrap_or_else(|| "assets/demo".into());
    let out = std::path::Path::new(&out);
    let scene = default_scene();
    let cam = DemoCamera::default_demo();
    cam.render(&scene).save(out.join("table.png"))?;
    let hd = DemoCamera { image: [1920, 1080], ..cam };
    image::DynamicImage::ImageRgba8(hd.render(&scene)).to_rgb8().save(out.join("frame-1080p.png"))?;
    println!("wrote {}/table.png and {}/frame-1080p.png", out.display(), out.display());
    Ok(())
}
