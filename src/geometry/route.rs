//! What happens along a declared move: where each other trooper gains LoF to the mover, and where
//! the mover enters its Zone of Control.
//!
//! N4 "Order Expenditure Sequence" (seed 000, 1.1.1 wording) and "Zone of Control" (digest §1):
//! AROs are judged against the whole route — LoF to any point of it, or ZoC measured from any
//! point along the path, start and end included.
//!
//! [`route_events`] keeps the mover's Silhouette and elevation along the route;
//! [`super::route_events_with_levels`] builds on it for a route that goes up and down (a step
//! onto a crate, a climb, a jump). While it moves, its starting position blocks nothing.

use super::lof::{ARC_TOUCH_IN, Obstacles, line_of_fire};
use super::measure::{ZOC_RANGE_IN, height_gap};
use super::segment::disc_interval;
use super::{Arc, Body, TablePoint};

/// Step between LoF samples along a route, inches; crossings are then bisected to
/// [`ROUTE_PRECISION_IN`]. Only the stretches where some of the mover's base is in the observer's
/// arc are sampled, each from end to end, and those ends are exact (see `arc_windows`).
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
pub(super) struct Polyline<'a> {
    pub(super) pts: &'a [TablePoint],
    pub(super) cum: Vec<f64>,
}

impl<'a> Polyline<'a> {
    pub(super) fn new(pts: &'a [TablePoint]) -> Self {
        let mut cum = vec![0.0];
        for w in pts.windows(2) {
            let last = cum.last().copied().unwrap_or(0.0);
            cum.push(last + w[0].dist(w[1]));
        }
        Self { pts, cum }
    }

    pub(super) fn length(&self) -> f64 {
        self.cum.last().copied().unwrap_or(0.0)
    }

    pub(super) fn at(&self, s: f64) -> TablePoint {
        let i = self.cum.partition_point(|&c| c <= s).clamp(1, self.pts.len().max(2) - 1);
        if self.pts.len() < 2 {
            return self.pts.first().copied().unwrap_or_default();
        }
        let (c0, c1) = (self.cum[i - 1], self.cum[i]);
        let t = if c1 > c0 { ((s - c0) / (c1 - c0)).clamp(0.0, 1.0) } else { 0.0 };
        self.pts[i - 1].lerp(self.pts[i], t)
    }

    pub(super) fn stretch(&self, a: f64, b: f64) -> Stretch {
        Stretch { from_in: a, to_in: b, start: self.at(a), end: self.at(b) }
    }
}

/// The length of polyline `path`, inches: the sum of its legs (what a move along it measures).
pub fn path_length(path: &[TablePoint]) -> f64 {
    path.windows(2).map(|w| w[0].dist(w[1])).sum()
}

/// The part of polyline `path` between `from_in` and `to_in` inches along it (clamped to it): its
/// two end points and the corners between, in order; one point when the two are equal.
///
/// # Units
/// Table inches.
pub fn route_part(path: &[TablePoint], from_in: f64, to_in: f64) -> Vec<TablePoint> {
    let line = Polyline::new(path);
    let (a, b) = (from_in.clamp(0.0, line.length()), to_in.clamp(0.0, line.length()));
    let mut out = vec![line.at(a)];
    out.extend(line.cum.iter().zip(path).filter(|&(&c, _)| c > a && c < b).map(|(_, &p)| p));
    if b > a {
        out.push(line.at(b));
    }
    out
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
    bodies
        .iter()
        .enumerate()
        .filter(|&(o, _)| o != mover)
        .map(|(o, observer)| {
            let sees = |s: f64| {
                let m = start.at(line.at(s));
                line_of_fire(obstacles, observer, &m, &[o, mover]).lof.has_lof()
            };
            let windows = arc_windows(&line, start, observer);
            // Bounded: a route longer than any table still samples a bounded number of points.
            let total: f64 = windows.iter().map(|w| w.to - w.from).sum();
            let step = ROUTE_STEP_IN.max(total / MAX_ROUTE_SAMPLES as f64);
            let mut lof = Vec::new();
            for w in &windows {
                let samples = (((w.to - w.from) / step).ceil() as usize).clamp(1, MAX_ROUTE_SAMPLES);
                lof.extend(stretches(w, samples, sees));
            }
            let zoc = zoc_stretches(&line, start, observer);
            RouteEvents { observer: o, lof: lof.into_iter().map(|(a, b)| line.stretch(a, b)).collect(), zoc }
        })
        .collect()
}

/// A stretch of a route, by distance along it, and whether each end is where the mover's base
/// leaves the observer's arc (rather than an end of the route).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Window {
    from: f64,
    to: f64,
    arc_from: bool,
    arc_to: bool,
}

/// The stretches of the route where some of the mover's base is in front of the observer's arc
/// line — only there can the observer have LoF to it (N4 "Line of Fire": some part of the target
/// in the front arc) — in order, by distance along the route (inches); the whole route for a 360°
/// arc. Exact: along each leg the mover's centre moves at a constant rate, so its distance ahead
/// of the line changes linearly. A stretch too short to hold a sample of [`ROUTE_STEP_IN`] (a base
/// grazing the arc line as it passes) is sampled all the same.
fn arc_windows(line: &Polyline, mover: &Body, observer: &Body) -> Vec<Window> {
    let len = line.length();
    let whole = vec![Window { from: 0.0, to: len, arc_from: false, arc_to: false }];
    if observer.arc == Arc::All360 || !len.is_finite() {
        return whole;
    }
    let f = observer.facing_unit();
    // (As `line_of_fire` judges the arc: in it when some of the base reaches more than
    // `ARC_TOUCH_IN` past the line.)
    let ahead = |p: TablePoint| (p - observer.centre).dot(f) + mover.radius() - ARC_TOUCH_IN;
    let mut out: Vec<Window> = Vec::new();
    if line.pts.len() == 1 {
        return if ahead(line.pts[0]) > 0.0 { whole } else { out };
    }
    for (i, w) in line.pts.windows(2).enumerate() {
        let (c0, c1) = (line.cum[i], line.cum[i + 1]);
        let (g0, g1) = (ahead(w[0]), ahead(w[1]));
        // The part of the leg, as fractions of it, where `g0 + (g1 - g0)·t > 0`.
        let (t0, t1) = match (g0 > 0.0, g1 > 0.0) {
            (true, true) => (0.0, 1.0),
            (false, false) => continue,
            (true, false) => (0.0, g0 / (g0 - g1)),
            (false, true) => (g0 / (g0 - g1), 1.0),
        };
        let (a, b) = (c0 + (c1 - c0) * t0, c0 + (c1 - c0) * t1);
        match out.last_mut() {
            // (Joined across the corner between two legs.)
            Some(last) if !last.arc_to && a <= last.to => (last.to, last.arc_to) = (b, t1 < 1.0),
            _ => out.push(Window { from: a, to: b, arc_from: t0 > 0.0, arc_to: t1 < 1.0 }),
        }
    }
    out
}

/// Intervals of window `w` where `f` holds, sampled at `samples + 1` points, edges bisected. An
/// end of the window where the base leaves the arc is sampled a hair inside it (on the line
/// itself only a touch is in the arc: no LoF there), so a stretch that reaches it ends there.
fn stretches(w: &Window, samples: usize, f: impl Fn(f64) -> bool) -> Vec<(f64, f64)> {
    let hair = ((w.to - w.from) * 1e-3).min(1e-6);
    let from = if w.arc_from { w.from + hair } else { w.from };
    let to = if w.arc_to { w.to - hair } else { w.to };
    let at = |k: usize| if k == samples { to } else { from + (to - from) * k as f64 / samples as f64 };
    let refine = |mut lo: f64, mut hi: f64, lo_val: bool| {
        while hi - lo > ROUTE_PRECISION_IN {
            let mid = 0.5 * (lo + hi);
            if f(mid) == lo_val { lo = mid } else { hi = mid }
        }
        if lo_val { lo } else { hi }
    };
    let mut out = Vec::new();
    let mut prev = f(from);
    let mut open = prev.then_some(from);
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
        out.push((a, to));
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
    use crate::geometry::lof::tests::xorshift;
    use crate::geometry::{Lof, Silhouette, Terrain};

    fn s2(x: f64, y: f64) -> Body {
        Body::new(TablePoint::new(x, y), Silhouette::S2)
    }

    #[test]
    fn the_part_of_a_route_between_two_distances_keeps_its_corners() {
        let path = [
            TablePoint::new(0.0, 0.0),
            TablePoint::new(4.0, 0.0),
            TablePoint::new(4.0, 3.0),
            TablePoint::new(0.0, 3.0),
        ];
        let part = route_part(&path, 2.0, 9.0);
        let want = [
            TablePoint::new(2.0, 0.0),
            TablePoint::new(4.0, 0.0),
            TablePoint::new(4.0, 3.0),
            TablePoint::new(2.0, 3.0),
        ];
        assert_eq!(part.len(), want.len(), "{part:?}");
        for (p, w) in part.iter().zip(want) {
            assert!(p.dist(w) < 1e-12, "{part:?}");
        }
        assert_eq!(route_part(&path, 5.0, 5.0).len(), 1);
        // Clamped: past the end is the end.
        assert!(route_part(&path, 10.0, 50.0).last().is_some_and(|p| p.dist(TablePoint::new(0.0, 3.0)) < 1e-12));
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

    /// A mover that walks past a watcher's back and, for about 0.05" of its route, pokes 0.012"
    /// of its base into the watcher's arc is seen there (nothing is in the way), though no sample
    /// 0.1" apart falls in that stretch; and the stretch's ends are where the base enters and
    /// leaves the arc, exactly.
    #[test]
    fn a_base_grazing_the_arc_line_as_it_passes_is_seen_there() {
        let watcher = s2(10.0, 10.0); // facing +x: the arc line is x = 10
        let mover = Body::new(TablePoint::new(9.0, 20.0), Silhouette::S1);
        let bodies = vec![watcher, mover];
        let obs = Obstacles::new(&[], &bodies);
        let route = [TablePoint::new(9.52, 21.0), TablePoint::new(9.0, 22.0)];
        let ev = route_events(&obs, &bodies, 1, &route);
        // On the first leg x = 9 + 0.52·t: the base reaches past x = 10 by more than ARC_TOUCH_IN
        // from t = (1 − r + ARC_TOUCH_IN) / 0.52 on; the second leg mirrors it.
        let t = (1.0 - mover.radius() + ARC_TOUCH_IN) / 0.52;
        let leg = 0.52f64.hypot(1.0);
        let (enter, leave) = (leg * t, leg + leg * (1.0 - t));
        assert!(leave - enter < 0.06, "a stretch of {}\"", leave - enter);
        assert_eq!(ev[0].lof.len(), 1, "{:?}", ev[0].lof);
        let s = ev[0].lof[0];
        assert!((s.from_in - enter).abs() < 1e-5 && (s.to_in - leave).abs() < 1e-5, "{s:?}: {enter} to {leave}");
        // (Either side of it, out of the arc.)
        for along in [enter - 1e-4, leave + 1e-4] {
            let m = mover.at(Polyline::new(&[mover.centre, route[0], route[1]]).at(along));
            assert_eq!(line_of_fire(&obs, &watcher, &m, &[0, 1]).lof, Lof::OutOfArc);
        }
    }

    /// The arc windows are where `line_of_fire` finds some of the mover's base in the arc: on a
    /// bare table (every trooper in the arc seen), at points 0.01" apart along random routes past
    /// watchers facing every way.
    #[test]
    fn arc_windows_are_where_the_mover_is_in_the_arc() {
        let mut rnd = xorshift(0x51ee_7a11_0ff1_ce55);
        let (mut inside, mut outside) = (0, 0);
        for _ in 0..60 {
            let watcher = s2(24.0, 24.0).facing(360.0 * rnd());
            let mover = Body::new(TablePoint::new(48.0 * rnd(), 48.0 * rnd()), Silhouette::S1);
            let bodies = vec![watcher, mover];
            let obs = Obstacles::new(&[], &bodies);
            let mut pts = vec![mover.centre];
            pts.extend((0..3).map(|_| TablePoint::new(48.0 * rnd(), 48.0 * rnd())));
            let line = Polyline::new(&pts);
            let windows = arc_windows(&line, &mover, &watcher);
            let n = (line.length() / 0.01).ceil() as usize;
            for k in 0..=n {
                let s = line.length() * k as f64 / n as f64;
                let seen = line_of_fire(&obs, &watcher, &mover.at(line.at(s)), &[0, 1]).lof.has_lof();
                let near_end = windows.iter().any(|w| (s - w.from).abs() < 1e-6 || (s - w.to).abs() < 1e-6);
                let within = windows.iter().any(|w| s >= w.from && s <= w.to);
                if !near_end {
                    assert_eq!(seen, within, "{s}\" along {pts:?}, facing {}: windows {windows:?}", watcher.facing_deg);
                }
                if within { inside += 1 } else { outside += 1 }
            }
        }
        assert!(inside > 10_000 && outside > 10_000, "{inside} in, {outside} out");
    }

    /// Among walls and other troopers, every stretch of a random route along which
    /// `line_of_fire` finds LoF at points 0.01" apart for at least twice the sampling step is
    /// met by a reported stretch: no LoF that lasts is lost between samples or outside the arc
    /// windows. (Shorter flickers, where the answer is borderline, may be missed: README.)
    #[test]
    fn every_lasting_stretch_of_lof_along_a_route_is_reported() {
        let mut rnd = xorshift(0x0dd_ba11_5eed_7001);
        let sils = [Silhouette::S1, Silhouette::S2, Silhouette::S3, Silhouette::S5, Silhouette::S7];
        let (mut runs, mut seen_points) = (0, 0);
        for _ in 0..6 {
            let terrain: Vec<Terrain> = (0..10)
                .filter_map(|k| {
                    let (x, y, w, d) = (2.0 + 20.0 * rnd(), 2.0 + 20.0 * rnd(), 0.1 + 4.0 * rnd(), 0.1 + 4.0 * rnd());
                    Terrain::rect(format!("t{k}"), x, y, x + w, y + d, 0.5 + 3.0 * rnd()).ok()
                })
                .collect();
            let bodies: Vec<Body> = (0..5)
                .map(|k| Body::new(TablePoint::new(24.0 * rnd(), 24.0 * rnd()), sils[k % 5]).facing(360.0 * rnd()))
                .collect();
            let obs = Obstacles::new(&terrain, &bodies);
            let route: Vec<TablePoint> = (0..2).map(|_| TablePoint::new(24.0 * rnd(), 24.0 * rnd())).collect();
            let mut pts = vec![bodies[0].centre];
            pts.extend_from_slice(&route);
            let line = Polyline::new(&pts);
            let n = (line.length() / 0.01).ceil() as usize;
            for e in route_events(&obs, &bodies, 0, &route) {
                let o = e.observer;
                let seen: Vec<(f64, bool)> = (0..=n)
                    .map(|k| line.length() * k as f64 / n as f64)
                    .map(|s| (s, line_of_fire(&obs, &bodies[o], &bodies[0].at(line.at(s)), &[o, 0]).lof.has_lof()))
                    .collect();
                seen_points += seen.iter().filter(|p| p.1).count();
                let mut k = 0;
                while k < seen.len() {
                    if !seen[k].1 {
                        k += 1;
                        continue;
                    }
                    let start = k;
                    while k < seen.len() && seen[k].1 {
                        k += 1;
                    }
                    let (a, b) = (seen[start].0, seen[k - 1].0);
                    if b - a >= 2.0 * ROUTE_STEP_IN {
                        runs += 1;
                        assert!(
                            e.lof.iter().any(|s| s.from_in <= b && s.to_in >= a),
                            "observer {o} sees the mover from {a} to {b}\" along, reported {:?}",
                            e.lof
                        );
                    }
                }
            }
        }
        assert!(runs > 5 && seen_points > 2_000, "{runs} runs, {seen_points} points seen");
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
