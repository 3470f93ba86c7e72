//! The visibility region: the part of the table a trooper sees inside its arc, for the overlay.
//!
//! Plan view (2D) from the centre of the trooper's base. Terrain taller than the trooper's top
//! blocks; lower terrain and other troopers do not (they are answered per pair by
//! [`line_of_fire`](super::line_of_fire)). The region is clipped to the table and, for a 180°
//! arc, to the half-plane in front of the trooper.
//!
//! Method: rays are cast at every obstacle endpoint's angle (and a hair either side of it) and at
//! the arc's edges; each ray is tested only against the segments whose angular span contains it,
//! kept in an active list while the angles are swept in order.

use super::scene::Table;
use super::{Arc, Body, TablePoint, Terrain};
use std::ops::{Add as _, Sub as _};

/// A blocking segment relative to the viewer, with its angular span.
struct Seg {
    a: TablePoint,
    b: TablePoint,
    /// Start angle of the span, radians in `[0, 2π)`, and its width (`< π`).
    start: f64,
    width: f64,
}

const TAU: f64 = std::f64::consts::TAU;

/// `x` (within one turn either side of `[0, 2π)`) moved into `[0, 2π)`: `x.rem_euclid(TAU)` to the
/// last bit (both steps are exact there), without the `fmod` call it makes.
fn wrap(x: f64) -> f64 {
    if (-TAU..0.0).contains(&x) {
        x + TAU
    } else if (TAU..2.0 * TAU).contains(&x) {
        x - TAU
    } else if (0.0..TAU).contains(&x) {
        x
    } else {
        x.rem_euclid(TAU)
    }
}

fn angle(p: TablePoint) -> f64 {
    let a = p.y.atan2(p.x);
    if a < 0.0 { a + TAU } else { a }
}

/// Distance along the unit ray `d` (from the origin) to segment `s`, if it hits.
fn ray_hit(d: TablePoint, s: &Seg) -> Option<f64> {
    let e = s.b.sub(s.a);
    let denom = d.cross(e);
    if denom.abs() < 1e-15 {
        return None;
    }
    let t = s.a.cross(e) / denom;
    let u = s.a.cross(d) / denom;
    (t >= 0.0 && (-1e-9..=1.0 + 1e-9).contains(&u)).then_some(t)
}

/// The polygon (counter-clockwise, table inches) of table a trooper sees inside its arc.
pub fn visibility_polygon(viewer: &Body, terrain: &[Terrain], table: &Table) -> Vec<TablePoint> {
    let o = viewer.centre;
    let eye = viewer.top();
    let mut segs: Vec<Seg> = Vec::new();
    let mut push = |a: TablePoint, b: TablePoint| {
        let (a, b) = (a.sub(o), b.sub(o));
        if a.cross(b).abs() < 1e-12 {
            return; // edge-on to the viewer: hides nothing
        }
        let (a, b) = if a.cross(b) > 0.0 { (a, b) } else { (b, a) };
        let start = angle(a);
        let mut width = angle(b) - start;
        if width < 0.0 {
            width += TAU;
        }
        segs.push(Seg { a, b, start, width });
    };
    let corners = [
        TablePoint::new(0.0, 0.0),
        TablePoint::new(table.width, 0.0),
        TablePoint::new(table.width, table.depth),
        TablePoint::new(0.0, table.depth),
    ];
    for i in 0..4 {
        push(corners[i], corners[(i + 1) % 4]);
    }
    for t in terrain.iter().filter(|t| t.height_in > eye) {
        let n = t.polygon.len();
        for i in 0..n {
            push(t.polygon[i], t.polygon[(i + 1) % n]);
        }
    }
    // The arc's angular window.
    let (lo, span) = match viewer.arc {
        Arc::Front180 => {
            let f = viewer.facing_deg.to_radians() - std::f64::consts::FRAC_PI_2;
            (f.rem_euclid(TAU), std::f64::consts::PI)
        }
        Arc::All360 => (0.0, TAU),
    };
    let rel = |a: f64| wrap(a - lo);
    let mut rays: Vec<f64> = Vec::with_capacity(segs.len() * 6 + 2);
    const HAIR: f64 = 1e-7;
    for s in &segs {
        for a in [s.start, s.start + s.width] {
            for r in [rel(a) - HAIR, rel(a), rel(a) + HAIR] {
                if (0.0..=span).contains(&r) {
                    rays.push(r);
                }
            }
        }
    }
    rays.push(0.0);
    rays.push(span);
    rays.sort_by(f64::total_cmp);
    rays.dedup();

    // Sweep: segments sorted by their span's start (relative to the window), active while the
    // ray is inside the span. Spans that wrap past the window start are active from the outset.
    // (Each span's start relative to the window, worked out once.)
    let starts: Vec<f64> = segs.iter().map(|s| rel(s.start)).collect();
    let mut order: Vec<usize> = (0..segs.len()).collect();
    order.sort_by(|&i, &j| starts[i].total_cmp(&starts[j]));
    let mut active: Vec<usize> = order.iter().copied().filter(|&i| starts[i] + segs[i].width > TAU).collect();
    let mut next = 0;
    let mut poly = Vec::with_capacity(rays.len() + 1);
    if viewer.arc == Arc::Front180 {
        poly.push(o);
    }
    for &r in &rays {
        while next < order.len() && starts[order[next]] <= r + 1e-12 {
            active.push(order[next]);
            next += 1;
        }
        active.retain(|&i| starts[i] + segs[i].width >= r - 1e-12);
        let a = lo + r;
        let d = TablePoint::new(a.cos(), a.sin());
        let hit = active.iter().filter_map(|&i| ray_hit(d, &segs[i])).fold(f64::INFINITY, f64::min);
        if hit.is_finite() {
            let p = o.add(d.scale(hit));
            if poly.last().is_none_or(|q: &TablePoint| q.dist(p) > 1e-6) {
                poly.push(p);
            }
        }
    }
    poly
}
