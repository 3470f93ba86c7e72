//! The demo table: a synthetic picture of a scene seen by a camera at an angle — a mat, terrain
//! pieces with height, Models on bases of the right sizes — with perspective, optional mild lens
//! distortion and sensor noise, rendered from a scene and a known camera pose.
//!
//! It is what `sightline` shows with no camera, and it gives the tests ground truth:
//! [`DemoCamera::image_from_table`] says exactly where any table point lands in the picture.
//!
//! # Units
//! Table space in inches (x along the width, y along the depth, z up); image space in pixels with
//! the origin at the image's top-left corner, x right, y down, pixel (i, j) covering
//! [i, i+1) × [j, j+1).

use super::{CameraError, FrameSource};
use crate::geometry::{Scene, Side, TablePoint};
use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_line_segment_mut, draw_polygon_mut};
use imageproc::point::Point;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The demo camera's description shipped in `assets/demo/camera.json`.
pub const DEMO_CAMERA_JSON: &str = include_str!("../../assets/demo/camera.json");

/// Supersampling factor of the renderer (edges and corners land within 1/(2·SS) px of their
/// true place before the downscale smooths them).
pub const SUPERSAMPLE: u32 = 3;

/// Frames per second at which the demo source repeats its picture.
pub const DEMO_FPS: f64 = 2.0;

/// A pinhole camera looking at the table, with optional radial distortion and sensor noise.
///
/// # Units
/// Positions in table inches; focal length and image size in pixels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DemoCamera {
    /// Where the camera is, inches (x, y, z).
    pub eye: [f64; 3],
    /// The point it looks at, inches.
    pub target: [f64; 3],
    /// Image width and height, pixels.
    pub image: [u32; 2],
    /// Focal length, pixels; `null` fits the table into the picture with a margin.
    #[serde(default)]
    pub focal_px: Option<f64>,
    /// Radial distortion k1 (on coordinates normalised by the focal length); 0 for none,
    /// negative for barrel.
    #[serde(default)]
    pub k1: f64,
    /// Sensor noise, standard deviation in 8-bit levels; 0 for none.
    #[serde(default)]
    pub noise: f64,
    /// Seed of the noise.
    #[serde(default)]
    pub seed: u64,
}

/// The shipped demo scene (`assets/scenes/demo.json`).
pub fn default_scene() -> Scene {
    // The shipped scene is checked by the tests; fall back to an empty table rather than panic.
    Scene::from_json(crate::DEMO_SCENE_JSON).unwrap_or_else(|_| Scene {
        table: Default::default(),
        troopers: Vec::new(),
        terrain: Vec::new(),
    })
}

type V3 = [f64; 3];

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: V3, b: V3) -> V3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn unit(a: V3) -> V3 {
    let n = dot(a, a).sqrt();
    if n > 0.0 { [a[0] / n, a[1] / n, a[2] / n] } else { a }
}

/// The camera's axes: right, down (image y) and forward, in table space.
struct Axes {
    right: V3,
    down: V3,
    forward: V3,
}

impl DemoCamera {
    /// The shipped demo camera.
    pub fn default_demo() -> Self {
        serde_json::from_str(DEMO_CAMERA_JSON).unwrap_or(Self {
            eye: [24.0, -22.0, 40.0],
            target: [24.0, 21.0, 0.0],
            image: [1280, 720],
            focal_px: None,
            k1: 0.0,
            noise: 0.0,
            seed: 0,
        })
    }

    fn axes(&self) -> Axes {
        let forward = unit(sub(self.target, self.eye));
        let right = unit(cross(forward, [0.0, 0.0, 1.0]));
        let down = cross(forward, right);
        Axes { right, down, forward }
    }

    /// Camera coordinates of a table-space point (x right, y down, z forward), inches.
    fn to_camera(&self, p: V3) -> V3 {
        let a = self.axes();
        let d = sub(p, self.eye);
        [dot(a.right, d), dot(a.down, d), dot(a.forward, d)]
    }

    fn centre(&self) -> (f64, f64) {
        (f64::from(self.image[0]) / 2.0, f64::from(self.image[1]) / 2.0)
    }

    /// The focal length in pixels: as given, or fitted so that the table `width`×`depth` fills
    /// the picture but for a 6% margin.
    pub fn focal(&self, width: f64, depth: f64) -> f64 {
        if let Some(f) = self.focal_px {
            return f;
        }
        let (cx, cy) = self.centre();
        let mut f = f64::INFINITY;
        for (x, y) in [(0.0, 0.0), (width, 0.0), (width, depth), (0.0, depth)] {
            let c = self.to_camera([x, y, 0.0]);
            if c[2] > 0.0 {
                let (nx, ny) = ((c[0] / c[2]).abs(), (c[1] / c[2]).abs());
                if nx > 0.0 {
                    f = f.min(cx * 0.94 / nx);
                }
                if ny > 0.0 {
                    f = f.min(cy * 0.94 / ny);
                }
            }
        }
        if f.is_finite() { f } else { f64::from(self.image[0]) }
    }

    fn distort(&self, nx: f64, ny: f64) -> (f64, f64) {
        let r2 = nx * nx + ny * ny;
        let k = 1.0 + self.k1 * r2;
        (nx * k, ny * k)
    }

    fn undistort(&self, dx: f64, dy: f64) -> (f64, f64) {
        let (mut x, mut y) = (dx, dy);
        for _ in 0..8 {
            let k = 1.0 + self.k1 * (x * x + y * y);
            x = dx / k;
            y = dy / k;
        }
        (x, y)
    }

    /// Where table point `p` at height `z` (inches) lands in the picture, pixels, lens
    /// distortion included; `None` behind the camera. `table` is the table size, for the focal
    /// length when it is fitted.
    pub fn project(&self, p: V3, table: (f64, f64)) -> Option<(f64, f64)> {
        let c = self.to_camera(p);
        if c[2] <= 1e-9 {
            return None;
        }
        let f = self.focal(table.0, table.1);
        let (cx, cy) = self.centre();
        let (x, y) = self.distort(c[0] / c[2], c[1] / c[2]);
        Some((cx + f * x, cy + f * y))
    }

    /// Ground truth: where a point on the table surface lands in the picture, pixels.
    pub fn image_from_table(&self, p: TablePoint, table: (f64, f64)) -> Option<(f64, f64)> {
        self.project([p.x, p.y, 0.0], table)
    }

    /// Render `scene` as this camera sees it.
    pub fn render(&self, scene: &Scene) -> RgbaImage {
        let table = (scene.table.width, scene.table.depth);
        let [w, h] = self.image;
        let (w, h) = (w.max(1), h.max(1));
        let s = f64::from(SUPERSAMPLE);
        // Render undistorted at SUPERSAMPLE× (pixel k of it has its centre at (k + 0.5)/s), then
        // distort and downscale.
        let undistorted = DemoCamera { k1: 0.0, ..self.clone() };
        let mut big = RgbaImage::new(w * SUPERSAMPLE, h * SUPERSAMPLE);
        paint_background(&mut big);
        let to_big = |p: V3| -> Option<Point<i32>> {
            undistorted
                .project(p, table)
                .map(|(u, v)| Point::new((u * s - 0.5).round() as i32, (v * s - 0.5).round() as i32))
        };
        let mut shapes = scene_shapes(scene, self.eye);
        shapes.sort_by(|a, b| b.depth.total_cmp(&a.depth));
        for shape in &shapes {
            for (poly, colour) in &shape.polys {
                let pts: Option<Vec<Point<i32>>> = poly.iter().map(|&p| to_big(p)).collect();
                if let Some(pts) = pts {
                    fill(&mut big, &pts, *colour);
                }
            }
            for (a, b, colour) in &shape.lines {
                if let (Some(pa), Some(pb)) = (to_big(*a), to_big(*b)) {
                    draw_line_segment_mut(&mut big, (pa.x as f32, pa.y as f32), (pb.x as f32, pb.y as f32), *colour);
                }
            }
        }
        let mut img = image::imageops::resize(&big, w, h, image::imageops::FilterType::Triangle);
        if self.k1 != 0.0 {
            let f = self.focal(table.0, table.1);
            let (cx, cy) = self.centre();
            let cam = self.clone();
            img = imageproc::geometric_transformations::warp_with(
                &img,
                move |x, y| {
                    // Output pixel centre (distorted) → undistorted position.
                    let (dx, dy) = ((f64::from(x) + 0.5 - cx) / f, (f64::from(y) + 0.5 - cy) / f);
                    let (ux, uy) = cam.undistort(dx, dy);
                    ((cx + f * ux - 0.5) as f32, (cy + f * uy - 0.5) as f32)
                },
                imageproc::geometric_transformations::Interpolation::Bilinear,
                imageproc::geometric_transformations::Border::Replicate,
            );
        }
        if self.noise > 0.0 {
            imageproc::noise::gaussian_noise_mut(&mut img, 0.0, self.noise, self.seed);
            for p in img.pixels_mut() {
                p[3] = 255;
            }
        }
        img
    }
}

fn fill(img: &mut RgbaImage, pts: &[Point<i32>], colour: Rgba<u8>) {
    let mut pts = pts.to_vec();
    pts.dedup();
    while pts.len() > 1 && pts.first() == pts.last() {
        pts.pop();
    }
    if pts.len() >= 3 {
        draw_polygon_mut(img, &pts, colour);
    }
}

fn paint_background(img: &mut RgbaImage) {
    let h = img.height().max(1) as f32;
    for (_, y, p) in img.enumerate_pixels_mut() {
        let t = y as f32 / h;
        let v = (34.0 + 22.0 * t) as u8;
        *p = Rgba([v + 6, v + 2, v.saturating_sub(4), 255]);
    }
}

/// A thing to draw: its polygons (table-space corners, colour) and lines, and its distance from
/// the camera for the painter's order.
struct Shape {
    depth: f64,
    polys: Vec<(Vec<V3>, Rgba<u8>)>,
    lines: Vec<(V3, V3, Rgba<u8>)>,
}

fn shade(c: [u8; 3], k: f64) -> Rgba<u8> {
    let f = |v: u8| (f64::from(v) * k).clamp(0.0, 255.0) as u8;
    Rgba([f(c[0]), f(c[1]), f(c[2]), 255])
}

/// Light comes from above, a little from the left and the front.
const LIGHT: V3 = [-0.35, -0.45, 0.82];

fn lit(c: [u8; 3], normal: V3) -> Rgba<u8> {
    shade(c, 0.45 + 0.6 * dot(unit(normal), unit(LIGHT)).max(0.0))
}

fn dist(a: V3, b: V3) -> f64 {
    let d = sub(a, b);
    dot(d, d).sqrt()
}

/// A prism: a footprint polygon from height `z0` to `z1`; faces turned away are not drawn.
fn prism(poly: &[TablePoint], z0: f64, z1: f64, colour: [u8; 3], eye: V3) -> Shape {
    let n = poly.len();
    let mut polys = Vec::new();
    let area2: f64 = (0..n).map(|i| poly[i].cross(poly[(i + 1) % n])).sum();
    let ccw = area2 > 0.0;
    let centre = poly.iter().fold(TablePoint::default(), |a, &p| a + p).scale(1.0 / n.max(1) as f64);
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let e = b - a;
        let out = if ccw { [e.y, -e.x, 0.0] } else { [-e.y, e.x, 0.0] };
        let mid = [(a.x + b.x) / 2.0, (a.y + b.y) / 2.0, (z0 + z1) / 2.0];
        if dot(out, sub(eye, mid)) > 0.0 {
            polys.push((vec![[a.x, a.y, z0], [b.x, b.y, z0], [b.x, b.y, z1], [a.x, a.y, z1]], lit(colour, out)));
        }
    }
    // Nearer side faces are drawn after farther ones.
    polys.sort_by(|p, q| {
        let d = |v: &Vec<V3>| dist([(v[0][0] + v[1][0]) / 2.0, (v[0][1] + v[1][1]) / 2.0, z0], eye);
        d(&q.0).total_cmp(&d(&p.0))
    });
    polys.push((poly.iter().map(|p| [p.x, p.y, z1]).collect(), lit(colour, [0.0, 0.0, 1.0])));
    Shape { depth: dist([centre.x, centre.y, (z0 + z1) / 2.0], eye), polys, lines: Vec::new() }
}

fn circle(c: TablePoint, r: f64, k: usize) -> Vec<TablePoint> {
    (0..k).map(|i| c + TablePoint::from_angle_deg(360.0 * i as f64 / k as f64).scale(r)).collect()
}

fn scene_shapes(scene: &Scene, eye: V3) -> Vec<Shape> {
    let (w, d) = (scene.table.width, scene.table.depth);
    let mut shapes = Vec::new();
    // The table: a 1.5" slab under the mat, then the mat with a faint 6" grid.
    let slab = [TablePoint::new(0.0, 0.0), TablePoint::new(w, 0.0), TablePoint::new(w, d), TablePoint::new(0.0, d)];
    let mut table = prism(&slab, -1.5, 0.0, [92, 64, 40], eye);
    table.polys.pop();
    table.polys.push((slab.iter().map(|p| [p.x, p.y, 0.0]).collect(), Rgba([96, 112, 78, 255])));
    let grid = Rgba([108, 124, 90, 255]);
    let mut x = 6.0;
    while x < w {
        table.lines.push(([x, 0.0, 0.0], [x, d, 0.0], grid));
        x += 6.0;
    }
    let mut y = 6.0;
    while y < d {
        table.lines.push(([0.0, y, 0.0], [w, y, 0.0], grid));
        y += 6.0;
    }
    table.depth = f64::INFINITY;
    shapes.push(table);
    for t in &scene.terrain {
        let colour = if t.height_in >= 3.0 { [150, 146, 140] } else { [140, 104, 70] };
        shapes.push(prism(&t.polygon, 0.0, t.height_in, colour, eye));
    }
    for t in &scene.troopers {
        let b = &t.body;
        let base = circle(b.centre, b.radius(), 40);
        let colour = match t.side {
            Side::A => [60, 110, 215],
            Side::B => [205, 60, 55],
        };
        // Base rim (3 mm), then the model: a narrower cylinder up to the Silhouette's height.
        let rim = 3.0 / crate::geometry::MM_PER_INCH;
        let mut s = prism(&base, b.bottom(), b.bottom() + rim, [28, 28, 30], eye);
        let body = prism(&circle(b.centre, b.radius() * 0.62, 28), b.bottom() + rim, b.top(), colour, eye);
        s.polys.extend(body.polys);
        // A facing mark on the base top.
        let tip = b.centre + b.facing_unit().scale(b.radius() * 0.95);
        s.lines.push((
            [b.centre.x, b.centre.y, b.bottom() + rim],
            [tip.x, tip.y, b.bottom() + rim],
            Rgba([240, 240, 240, 255]),
        ));
        s.depth = dist([b.centre.x, b.centre.y, b.bottom()], eye);
        shapes.push(s);
    }
    shapes
}

/// The demo as a frame source: the rendered picture, repeated at [`DEMO_FPS`]; drawn again
/// when the table it shows changes (see [`DemoTable`]), as a real camera would show the Models
/// moved.
#[derive(Debug)]
pub struct DemoSource {
    camera: DemoCamera,
    image: Option<RgbaImage>,
    scene: Scene,
    next: Arc<Mutex<Option<Scene>>>,
}

/// The app's handle on a demo source's table: [`DemoTable::show`] gives it the table as it now
/// stands (troopers moved, deployed, fallen), and the capture thread draws it for its next frame.
#[derive(Debug, Clone)]
pub struct DemoTable(Arc<Mutex<Option<Scene>>>);

impl DemoTable {
    /// Draw `scene` from the next frame on (a newer call before that frame replaces it).
    pub fn show(&self, scene: &Scene) {
        // (A poisoned lock means the capture thread panicked mid-frame: the demo keeps its last
        // picture, and nothing else depends on it.)
        if let Ok(mut next) = self.0.lock() {
            *next = Some(scene.clone());
        }
    }
}

impl DemoSource {
    /// A demo source for `scene` seen by `camera` (rendered on the capture thread at its first frame).
    pub fn new(camera: DemoCamera, scene: Scene) -> Self {
        Self { camera, image: None, scene, next: Arc::default() }
    }

    /// The handle that changes the table this source draws.
    pub fn table(&self) -> DemoTable {
        DemoTable(Arc::clone(&self.next))
    }
}

impl FrameSource for DemoSource {
    fn next_frame(&mut self) -> Result<Option<RgbaImage>, CameraError> {
        if let Some(scene) = self.next.lock().ok().and_then(|mut next| next.take()) {
            // (Drawn again only when what the picture shows changed: routes being drawn are not
            // in it, and most events move nobody.)
            let shown = |s: &Scene| {
                (s.table, s.terrain.clone(), s.troopers.iter().map(|t| (t.side, t.body)).collect::<Vec<_>>())
            };
            if shown(&scene) != shown(&self.scene) {
                self.image = None;
            }
            self.scene = scene;
        }
        let img = self.image.get_or_insert_with(|| self.camera.render(&self.scene));
        Ok(Some(img.clone()))
    }

    fn interval(&self) -> Option<Duration> {
        Some(Duration::from_secs_f64(1.0 / DEMO_FPS))
    }

    fn describe(&self) -> String {
        format!("demo table ({}×{})", self.camera.image[0], self.camera.image[1])
    }
}
