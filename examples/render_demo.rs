//! Renders the demo table (what `sightline --source demo` shows) to image files: the shipped
//! `assets/demo/table.png` and the 1080p JPEG fixture of the decode benchmark.
//!
//! `cargo run --release --example render_demo -- OUT_DIR`

use sightline::camera::demo::{DemoCamera, default_scene};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args().nth(1).unwrap_or_else(|| "assets/demo".into());
    let out = std::path::Path::new(&out);
    let scene = default_scene();
    let cam = DemoCamera::default_demo();
    cam.render(&scene).save(out.join("table.png"))?;
    let hd = DemoCamera { image: [1920, 1080], ..cam };
    let rgb = image::DynamicImage::ImageRgba8(hd.render(&scene)).to_rgb8();
    let mut file = std::io::BufWriter::new(std::fs::File::create(out.join("frame-1080p.jpg"))?);
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut file, 90).encode_image(&rgb)?;
    println!("wrote {}/table.png and {}/frame-1080p.jpg", out.display(), out.display());
    Ok(())
}
