//! What happens along a declared move: where each other trooper gains LoF to the mover, and where
//! the mover enters its Zone of Control.
//!
//! N4 "Order Expenditure Sequence" (seed 000, 1.1.1 wording) and "Zone of Control" (digest §1):
//! AROs are judged against the whole route — LoF to any point of it, or ZoC measured from any
//! point along the path, start and end included.
//!
//! The mover keeps its Silhouette and elevation along the route (assumption `ROUTE_LEVEL`: a move
//! between levels is given as separate routes), and while it moves its starting position blocks
//! nothing.

use super::lof::{Obstacles, line_of_fire};
use super::measure::{ZOC_RANGE_IN, height_gap};
use super::segment::disc_interval;
use super::{Body, TablePoint};

/// Step between LoF samples along a route, inches; crossings are then bisected to
/// [`ROUTE_PRECISION_IN`].
pub const ROUTE_STEP_IN: f64 = 0.1;

/// Most LoF samples along one route (10,000" at [`ROUTE_STEP_IN`]); longer routes are sampled
/// more sparsely rather than without bound.
pub const MAX_ROUTE_SAMPLES: usize = 100_000;

/// Precision of the reported points where LoF or ZoC starts and stops, inches.
pub const ROUTE_PRECISION_IN: f64 = 0.005;

/// A stretch of a route, by distance travelled along it.
///
/// # Units
/// Inches along the route from its start; points in table inches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stretch {
    /// Distance along the route where the stretch starts, inches.
    pub from_in: f64,
    /// Distance along the route where it ends, inches.
    pub to_in: f64,
    /// The point where it starts.
    pub start: TablePoint,
    /// The point where it ends.
    pub end: TablePoint,
}

/// What one other trooper sees of the mover's route.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteEvents {
    /// Index of the observing trooper.
    pub observer: usize,
    /// Stretches where the observer has LoF to the mover, in order.
    pub lof: Vec<Stretch>,
    /// Stretches where the mover is inside the observer's ZoC (and so the observer inside the
    /// mover's: the reach is the same both ways), in order.
    pub zoc: Vec<Stretch>,
}

impl RouteEvents {
    /// The first point of the route where the observer has LoF, with its distance along it.
    pub fn first_lof(&self) -> Option<(f64, TablePoint)> {
        self.lof.first().map(|s| (s.from_in, s.start))
    }

    /// The first point of the route inside the observer's ZoC, with its distance along it.
    pub fn first_zoc(&self) -> Option<(f64, TablePoint)> {
        self.zoc.first().map(|s| (s.from_in, s.start))
    }
}

/// A polyline with cumulative lengths.
struct Polyline<'a> {
    pts: &'a [TablePoint],
    cum: Vec<f64>,
}

impl<'a> Polyline<'a> {
    fn new(pts: &'a [TablePoint]) -> Self {
        let mut cum = vec![0.0];
        for w in pts.windows(2) {
            let last = cum.last().copied().unwrap_or(0.0);
            cum.push(last + w[0].dist(w[1]));
        }
        Self { pts, cum }
    }

    fn length(&self) -> f64 {
        self.cum.last().copied().unwrap_or(0.0)
    }

    fn at(&self, s: f64) -> TablePoint {
        let i = self.cum.partition_point(|&c| c <= s).clamp(1, self.pts.len().max(2) - 1);
        if self.pts.len() < 2 {
            return self.pts.first().copied().unwrap_or_default();
        }
        let (c0, c1) = (self.cum[i - 1], self.cum[i]);
        let t = if c1 > c0 { ((s - c0) / (c1 - c0)).clamp(0.0, 1.0) } else { 0.0 };
        self.pts[i - 1].lerp(self.pts[i], t)
    }

    fn stretch(&self, a: f64, b: f64) -> Stretch {
        Stretch { from_in: a, to_in: b, start: self.at(a), end: self.at(b) }
    }
}

/// Route events for every other trooper as trooper `mover` moves from its position through
/// `route` (the points after its position).
///
/// # Units
/// Bodies and route in table inches.
pub fn route_events(obstacles: &Obstacles, bodies: &[Body], mover: usize, route: &[TablePoint]) -> Vec<RouteEvents> {
    let Some(start) = bodies.get(mover) else { return Vec::new() };
    let mut pts = vec![start.centre];
    pts.extend_from_slice(route);
    let line = Polyline::new(&pts);
    let len = line.length();
    // Bounded: a route longer than any table (or not finite) still samples a bounded number of points.
    let samples = ((len / ROUTE_STEP_IN).ceil() as usize).clamp(1, MAX_ROUTE_SAMPLES);
    bodies
        .iter()
        .enumerate()
        .filter(|&(o, _)| o != mover)
        .map(|(o, observer)| {
            let sees = |s: f64| {
                let m = start.at(line.at(s));
                line_of_fire(obstacles, observer, &m, &[o, mover]).lof.has_lof()
            };
            let lof = stretches(len, samples, sees);
            let zoc = zoc_stretches(&line, start, observer);
            RouteEvents { observer: o, lof: lof.into_iter().map(|(a, b)| line.stretch(a, b)).collect(), zoc }
        })
        .collect()
}

/// Intervals of `[0, len]` where `f` holds, sampled at `samples + 1` points, edges bisected.
fn stretches(len: f64, samples: usize, f: impl Fn(f64) -> bool) -> Vec<(f64, f64)> {
    let at = |k: usize| len * k as f64 / samples as f64;
    let refine = |mut lo: f64, mut hi: f64, lo_val: bool| {
        while hi - lo > ROUTE_PRECISION_IN {
            let mid = 0.5 * (lo + hi);
            if f(mid) == lo_val { lo = mid } else { hi = mid }
        }
        if lo_val { lo } else { hi }
    };
    let mut out = Vec::new();
    let mut prev = f(0.0);
    let mut open = prev.then_some(0.0);
    for k in 1..=samples {
        let s = at(k);
        let cur = f(s);
        if cur != prev {
            let edge = refine(at(k - 1), s, prev);
            match open.take() {
                Some(a) => out.push((a, edge)),
                None => open = Some(edge),
            }
        }
        prev = cur;
    }
    if let Some(a) = open {
        out.push((a, len));
    }
    out
}

/// Exact ZoC stretches: the mover's base within 8" of the observer's base edge, levels allowing.
fn zoc_stretches(line: &Polyline, mover: &Body, observer: &Body) -> Vec<Stretch> {
    if height_gap(mover, observer) > ZOC_RANGE_IN {
        return Vec::new();
    }
    let reach = observer.radius() + ZOC_RANGE_IN + mover.radius();
    let mut raw: Vec<(f64, f64)> = Vec::new();
    for (i, w) in line.pts.windows(2).enumerate() {
        let (c0, c1) = (line.cum[i], line.cum[i + 1]);
        let hit = if w[0].dist(w[1]) <= 0.0 {
            (w[0].dist(observer.centre) <= reach).then_some((0.0, 1.0))
        } else {
            // Closed disc: touching counts.
            disc_interval(w[0], w[1], observer.centre, reach + 1e-9)
        };
        if let Some((t0, t1)) = hit {
            let (a, b) = (c0 + (c1 - c0) * t0, c0 + (c1 - c0) * t1);
            match raw.last_mut() {
                Some(last) if a - last.1 <= 1e-9 => last.1 = b,
                _ => raw.push((a, b)),
            }
        }
    }
    if line.pts.len() == 1 && line.pts[0].dist(observer.centre) <= reach {
        raw.push((0.0, 0.0));
    }
    raw.into_iter().map(|(a, b)| line.stretch(a, b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Silhouette, Terrain};

    fn s2(x: f64, y: f64) -> Body {
        Body::new(TablePoint::new(x, y), Silhouette::S2)
    }

    #[test]
    fn a_runner_stepping_out_from_behind_a_wall_is_seen_from_that_point() {
        // Watcher at (10, 20) faces +x; a 3" wall x 14–15, y 10–30. The runner runs north along
        // x = 20 from y = 29. The flattest line past the wall's corner (14, 30) starts at the
        // north end of the watcher's arc line (10, 20 + r); the runner is first seen when its
        // base touches that line: centre y = line(20) - r·√(1 + slope²) (a hair later in
        // practice: a 3 mm piece must show).
        let r = Silhouette::S2.radius_in();
        let terrain = vec![Terrain::rect("wall", 14.0, 10.0, 15.0, 30.0, 3.0).expect("valid")];
        let bodies = vec![s2(10.0, 20.0), s2(20.0, 29.0)];
        let obs = Obstacles::new(&terrain, &bodies);
        let ev = route_events(&obs, &bodies, 1, &[TablePoint::new(20.0, 46.0)]);
        assert_eq!(ev.len(), 1);
        let slope = (30.0 - (20.0 + r)) / 4.0;
        let y_first = 20.0 + r + slope * 10.0 - r * (1.0 + slope * slope).sqrt();
        let (s, p) = ev[0].first_lof().expect("seen at some point");
        assert!(p.y >= y_first - 0.01 && p.y < y_first + 0.25, "first LoF at {p:?} ({s}\" along), expected {y_first}");
        assert!((s - (p.y - 29.0)).abs() < 1e-9);
        assert_eq!(ev[0].lof.len(), 1);
        assert_eq!(ev[0].lof[0].to_in, 17.0);
    }

    #[test]
    fn zoc_entry_is_exact() {
        // Observer at origin; mover walks along y = 0 from x = 20 to x = 0. Reach = 8 + 2r.
        let bodies = vec![s2(0.0, 0.0), s2(20.0, 0.0)];
        let obs = Obstacles::new(&[], &bodies);
        let ev = route_events(&obs, &bodies, 1, &[TablePoint::new(2.0, 0.0)]);
        let (s, p) = ev[0].first_zoc().expect("enters ZoC");
        let reach = 8.0 + 2.0 * Silhouette::S2.radius_in();
        assert!((p.x - reach).abs() < 1e-6 && (s - (20.0 - reach)).abs() < 1e-6);
    }
}
