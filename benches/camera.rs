//! Camera benchmarks: decoding a 1920×1080 MJPEG frame (the shipped `assets/demo/frame-1080p.jpg`,
//! quality 90) to RGBA with libjpeg-turbo — target ≤ 8 ms (OpenCV's imdecode: about 9.6 ms on this machine) —
//! into a reused frame (as a stream's frames are) and into a new one.

use criterion::{Criterion, criterion_group, criterion_main};
use sightline::camera::{decode_mjpeg, decode_mjpeg_into};
use std::hint::black_box;

fn decode(c: &mut Criterion) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/frame-1080p.jpg");
    let bytes = std::fs::read(path).expect("the JPEG fixture");
    let img = decode_mjpeg(&bytes).expect("decodes");
    assert_eq!(img.dimensions(), (1920, 1080));
    // Into the same frame each time, as a stream's frames are decoded.
    let mut frame = img.clone();
    c.bench_function("decode_mjpeg_1080p_to_rgba", |b| {
        b.iter(|| decode_mjpeg_into(black_box(&bytes), &mut frame).expect("decodes"))
    });
    // Into a new 8 MB frame each time.
    c.bench_function("decode_mjpeg_1080p_to_new_rgba", |b| b.iter(|| black_box(decode_mjpeg(black_box(&bytes)))));
}

criterion_group!(benches, decode);
criterion_main!(benches);
