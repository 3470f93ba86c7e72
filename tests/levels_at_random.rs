//! Levels along a move (`geometry::levels`), checked at random against plain step-by-step versions
//! that share no code with it:
//!
//! - a plain move's levels ([`walk`]: N4 General Movement Rules, up or down onto a surface no
//!   more than the Silhouette's height away, "moving up and over") against a walk taken in
//!   0.001" steps over boxes whose footprints are tested here by their own coordinates;
//! - what other troopers see of that move ([`route_events_with_levels`]: N4 Order Expenditure
//!   Sequence, AROs judged against the whole route, the mover at the level it is at there)
//!   against `line_of_fire` and `zoc` asked afresh every 0.01" along it.
//!
//! Random boxes from crates to buildings (some standing on or beside others), troopers of every
//! standing Silhouette on the table or on tops, routes of one to three legs. The seed is
//! `SIGHTLINE_LEVELS_SEED` (default 1) and `SIGHTLINE_LEVELS_CASES` sets how many scenes each
//! test draws, so a failure repeats and a longer run is one variable away.
//!
//! # Units
//! Table inches throughout.

mod common;

use common::{Rng, env};
use sightline::geometry::{
    Body, MOVE_CONTACT_SLACK_IN, Obstacles, ROUTE_STEP_IN, RoutePoint, Silhouette, TablePoint, Terrain, WalkProblem,
    ZocVerdict, line_of_fire, route_events_with_levels, walk, walk_problems, zoc,
};

/// A box: its footprint's opposite corners and its height.
#[derive(Debug, Clone, Copy)]
struct Box3 {
    lo: [f64; 2],
    hi: [f64; 2],
    height: f64,
}

impl Box3 {
    /// Strictly inside the footprint (a point on its edge is beside the piece).
    fn holds(&self, p: TablePoint) -> bool {
        p.x > self.lo[0] && p.x < self.hi[0] && p.y > self.lo[1] && p.y < self.hi[1]
    }

    /// Signed distance from `p` to the footprint's outline: negative inside.
    fn gap(self, p: TablePoint) -> f64 {
        let (dx0, dx1, dy0, dy1) = (p.x - self.lo[0], self.hi[0] - p.x, p.y - self.lo[1], self.hi[1] - p.y);
        if self.holds(p) {
            -dx0.min(dx1).min(dy0).min(dy1)
        } else {
            let dx = (-dx0).max(-dx1).max(0.0);
            let dy = (-dy0).max(-dy1).max(0.0);
            dx.hypot(dy)
        }
    }
}

/// The height of the surface under `p`: the highest box holding it, or the table.
fn surface(boxes: &[Box3], p: TablePoint) -> f64 {
    boxes.iter().filter(|b| b.holds(p)).map(|b| b.height).fold(0.0, f64::max)
}

fn near_an_outline(boxes: &[Box3], p: TablePoint, within: f64) -> bool {
    boxes.iter().any(|b| b.gap(p).abs() <= within)
}

struct Case {
    boxes: Vec<Box3>,
    terrain: Vec<Terrain>,
    /// The mover first, then the troopers watching it.
    bodies: Vec<Body>,
    route: Vec<TablePoint>,
}

const STANDING: [Silhouette; 7] =
    [Silhouette::S1, Silhouette::S2, Silhouette::S3, Silhouette::S4, Silhouette::S5, Silhouette::S6, Silhouette::S7];

/// A scene on a 24" table: 4–9 boxes, half of them crates (0.3–1.6" tall: most Silhouettes step
/// onto them) and half taller; sometimes a small box on top of a larger one's footprint (a
/// chimney, a crate on a roof); five troopers standing on whatever surface is under them; a
/// route for the first.
fn random_case(rng: &mut Rng) -> Case {
    let mut boxes = Vec::new();
    for _ in 0..4 + rng.below(6) {
        let (w, d) = (rng.within(0.4, 6.0), rng.within(0.4, 6.0));
        let (x, y) = (rng.within(1.0, 22.0 - w), rng.within(1.0, 22.0 - d));
        let height = if rng.below(2) == 0 { rng.within(0.3, 1.6) } else { rng.within(1.6, 5.0) };
        boxes.push(Box3 { lo: [x, y], hi: [x + w, y + d], height });
    }
    if rng.below(2) == 0 {
        let under = boxes[rng.below(boxes.len())];
        let (w, d) = ((under.hi[0] - under.lo[0]) * 0.4, (under.hi[1] - under.lo[1]) * 0.4);
        let (x, y) = (rng.within(under.lo[0], under.hi[0] - w), rng.within(under.lo[1], under.hi[1] - d));
        boxes.push(Box3 { lo: [x, y], hi: [x + w, y + d], height: under.height + rng.within(0.3, 1.5) });
    }
    let terrain = boxes
        .iter()
        .enumerate()
        .map(|(k, b)| Terrain::rect(format!("t{k}"), b.lo[0], b.lo[1], b.hi[0], b.hi[1], b.height).expect("a box"))
        .collect();
    let bodies = (0..5)
        .map(|_| {
            let at = TablePoint::new(rng.within(1.0, 23.0), rng.within(1.0, 23.0));
            Body::new(at, STANDING[rng.below(STANDING.len())])
                .facing(rng.within(0.0, 360.0))
                .elevated(surface(&boxes, at))
        })
        .collect();
    let route = (0..1 + rng.below(3)).map(|_| TablePoint::new(rng.within(1.0, 23.0), rng.within(1.0, 23.0))).collect();
    Case { boxes, terrain, bodies, route }
}

fn cases() -> (Rng, usize) {
    (Rng::new(env("SIGHTLINE_LEVELS_SEED", 1)), env("SIGHTLINE_LEVELS_CASES", 60) as usize)
}

/// Points every `spacing` inches along the polyline from `start` through `route`, with their
/// distance along it; the last is the route's end.
fn along(start: TablePoint, route: &[TablePoint], spacing: f64) -> Vec<(f64, TablePoint)> {
    let mut out = vec![(0.0, start)];
    let (mut prev, mut done) = (start, 0.0);
    for &next in route {
        let len = prev.dist(next);
        let n = (len / spacing).ceil() as usize;
        for k in 1..=n {
            out.push((done + len * k as f64 / n as f64, prev.lerp(next, k as f64 / n as f64)));
        }
        done += len;
        prev = next;
    }
    out
}

/// The walk's level at `s` inches along it, where `s` lies inside a leg of some length (a walk
/// keeps its level along such a leg; it changes level only on legs of no length).
fn level_at(path: &[RoutePoint], s: f64) -> Option<f64> {
    let mut done = 0.0;
    for w in path.windows(2) {
        let len = w[0].at.dist(w[1].at);
        if len > 0.0 && s > done && s < done + len {
            return Some(w[0].level_in);
        }
        done += len;
    }
    None
}

/// A walk taken in small steps: each point with its distance along the route and the level there,
/// and where it would step down further than it may (distance along, and how far down).
struct SmallSteps {
    points: Vec<(f64, TablePoint, f64)>,
    too_deep: Vec<(f64, f64)>,
}

/// N4 General Movement Rules, step by step: every 0.001" the surface under the base centre is
/// looked up; where it changes to one at another level than the trooper's and no more than
/// `step` away, the trooper goes up or down to it; otherwise it keeps its level (and a step
/// down too deep to take is noted: assumption `STEP_DOWN_UP_TO_SILHOUETTE`).
fn walk_in_small_steps(boxes: &[Box3], mover: &Body, route: &[TablePoint], step: f64) -> SmallSteps {
    let mut level = mover.elevation_in;
    let mut under = surface(boxes, mover.centre);
    let mut too_deep = Vec::new();
    let points = along(mover.centre, route, 0.001)
        .into_iter()
        .map(|(s, p)| {
            let here = surface(boxes, p);
            if (here - under).abs() > 1e-6 && (here - level).abs() > 1e-6 {
                if (here - level).abs() <= step + 1e-9 {
                    level = here;
                } else if here < level {
                    too_deep.push((s, level - here));
                }
            }
            under = here;
            (s, p, level)
        })
        .collect();
    SmallSteps { points, too_deep }
}

/// [`walk_problems`]: the levels of the walk, and where it may not go — its base more than
/// [`MOVE_CONTACT_SLACK_IN`] into a piece rising more than its Silhouette above the level it
/// walks at, a step down deeper than its Silhouette is tall — as the small steps find them.
#[test]
fn a_walk_keeps_the_levels_and_meets_the_problems_a_walk_in_small_steps_does() {
    let (mut rng, n) = cases();
    let (mut compared, mut raised, mut changed_level, mut skipped) = (0, 0, 0, 0);
    let (mut into_in, mut into_out, mut downs) = (0, 0, 0);
    for case in 0..n {
        let c = random_case(&mut rng);
        let mover = &c.bodies[0];
        let (w, problems) = walk_problems(mover, &c.route, &c.terrain);
        // Where the route clips a footprint's corner or passes two outlines within a few
        // thousandths of an inch of each other, the small steps can step over what the walk
        // (exact at every outline) stands on for a moment: such cases are left out, and counted.
        let clipped = w.path.windows(2).any(|p| p[0].at.dist(p[1].at) > 0.0 && p[0].at.dist(p[1].at) < 0.003);
        if clipped {
            skipped += 1;
            continue;
        }
        let tall = mover.silhouette.height_in();
        let small = walk_in_small_steps(&c.boxes, mover, &c.route, tall);
        let steps = &small.points;
        let mut levels_seen = std::collections::BTreeSet::new();
        for (i, &(s, p, level)) in steps.iter().enumerate() {
            if near_an_outline(&c.boxes, p, 0.005) {
                continue;
            }
            let Some(got) = level_at(&w.path, s) else { continue };
            assert!(
                (got - level).abs() < 1e-9,
                "case {case}: {s}\" along {:?} from {:?} ({:?}, level {}), among {:?}: the walk is at {got}, \
                 the small steps at {level}; walk {:?}",
                c.route,
                mover.centre,
                mover.silhouette,
                mover.elevation_in,
                c.boxes,
                w.path
            );
            compared += 1;
            raised += usize::from(level > 0.0);
            levels_seen.insert(level.to_bits());
            // Into a piece: the base reaches more than the slack into a footprint rising more
            // than the Silhouette above the level (every tenth point, away from the slack's edge).
            if steps.len() > 1 && i.is_multiple_of(10) {
                let r = mover.radius() - MOVE_CONTACT_SLACK_IN;
                for (k, b) in c.boxes.iter().enumerate().filter(|(_, b)| b.height - level > tall + 1e-9) {
                    let gap = b.gap(p);
                    if (gap - r).abs() < 0.002 {
                        continue;
                    }
                    let inside = gap < r;
                    let reported = problems.iter().any(|q| {
                        matches!(q, WalkProblem::Into { piece, stretch, .. }
                            if *piece == k && s >= stretch.from_in - 1e-9 && s <= stretch.to_in + 1e-9)
                    });
                    assert_eq!(
                        inside,
                        reported,
                        "case {case}: {s}\" along {:?} from {:?} ({:?}) at level {level}, box {k} {b:?}: \
                         base {} it; problems {problems:?}",
                        c.route,
                        mover.centre,
                        mover.silhouette,
                        if inside { "in" } else { "not in" }
                    );
                    if inside { into_in += 1 } else { into_out += 1 }
                }
            }
        }
        // Too deep a step down: one problem at each place the small steps find one.
        let found: Vec<(f64, f64)> = problems
            .iter()
            .filter_map(|q| match q {
                WalkProblem::Down { along_in, drop_in, .. } => Some((*along_in, *drop_in)),
                _ => None,
            })
            .collect();
        assert_eq!(
            found.len(),
            small.too_deep.len(),
            "case {case}: steps down {found:?}, small steps {:?}",
            small.too_deep
        );
        for (&(s, drop), &(t, small_drop)) in found.iter().zip(&small.too_deep) {
            assert!(
                (s - t).abs() < 0.002 && (drop - small_drop).abs() < 1e-9,
                "case {case}: a step down {drop}\" at {s}\", small steps {small_drop}\" at {t}\""
            );
            downs += 1;
        }
        let (s_end, p_end, level_end) = steps[steps.len() - 1];
        if s_end > 0.0 && !near_an_outline(&c.boxes, p_end, 0.005) {
            assert!((w.end_level() - level_end).abs() < 1e-9, "case {case}: ends at {} not {level_end}", w.end_level());
        }
        changed_level += usize::from(levels_seen.len() > 1);
    }
    let counts = format!(
        "{compared} points compared, {raised} above the table, {changed_level} walks changed level, {skipped} \
         skipped; into a piece {into_in} in / {into_out} not; {downs} steps down too deep"
    );
    eprintln!("{counts}");
    // The cases must reach what the rules are about: levels other than the table, changes of
    // level, pieces in the way and steps too deep.
    assert!(
        compared > 100_000
            && raised > 10_000
            && changed_level >= n / 4
            && skipped <= n / 10
            && into_in > 1_000
            && into_out > 1_000
            && downs >= n / 20,
        "{counts}"
    );
}

#[test]
fn route_events_with_levels_match_lof_and_zoc_asked_along_the_walk() {
    let (mut rng, n) = cases();
    let (mut runs, mut raised_seen, mut zoc_in, mut zoc_out, mut stretches_checked) = (0, 0, 0, 0, 0);
    for case in 0..n {
        let c = random_case(&mut rng);
        let mover = c.bodies[0];
        let w = walk(&mover, &c.route, &c.terrain);
        let events = route_events_with_levels(&c.terrain, &c.bodies, 0, &w.path);
        let obstacles = Obstacles::new(&c.terrain, &c.bodies);
        // Where the walk changes level (by distance along it): the answer there depends on which
        // side of the change is asked.
        let mut changes = Vec::new();
        let mut done = 0.0;
        for p in w.path.windows(2) {
            let len = p[0].at.dist(p[1].at);
            if (p[0].level_in - p[1].level_in).abs() > 1e-9 {
                changes.push(done);
            }
            done += len;
        }
        let samples: Vec<(f64, Option<Body>)> = along(mover.centre, &c.route, 0.01)
            .into_iter()
            .map(|(s, p)| {
                let clear_of_changes = changes.iter().all(|&x| (s - x).abs() > 0.01);
                (s, level_at(&w.path, s).filter(|_| clear_of_changes).map(|l| mover.at(p).elevated(l)))
            })
            .collect();
        assert_eq!(events.len(), c.bodies.len() - 1, "case {case}: one entry per other trooper");
        for e in &events {
            let o = e.observer;
            let observer = &c.bodies[o];
            let sees = |m: &Body| line_of_fire(&obstacles, observer, m, &[o, 0]).lof.has_lof();
            let seen: Vec<(f64, Option<bool>)> = samples.iter().map(|(s, m)| (*s, m.as_ref().map(sees))).collect();
            // Every stretch of LoF lasting twice the sampling step is reported (an ARO is never
            // lost between samples); shorter flickers may be missed (README).
            let mut k = 0;
            while k < seen.len() {
                if seen[k].1 != Some(true) {
                    k += 1;
                    continue;
                }
                let start = k;
                while k < seen.len() && seen[k].1 == Some(true) {
                    k += 1;
                }
                let (a, b) = (seen[start].0, seen[k - 1].0);
                if b - a >= 2.0 * ROUTE_STEP_IN {
                    runs += 1;
                    raised_seen +=
                        samples[start..k].iter().filter(|(_, m)| m.is_some_and(|m| m.elevation_in > 0.0)).count();
                    assert!(
                        e.lof.iter().any(|st| st.from_in <= b && st.to_in >= a),
                        "case {case}: {o} sees the mover from {a} to {b}\" along its walk {:?}, reported {:?}",
                        w.path,
                        e.lof
                    );
                }
            }
            // Every reported stretch is seen somewhere in it (no ARO out of nothing).
            for st in e.lof.iter().filter(|st| st.to_in - st.from_in >= 0.05) {
                stretches_checked += 1;
                let inside = samples.iter().zip(&seen).filter(|((s, _), _)| *s >= st.from_in && *s <= st.to_in);
                let (mut known, mut any) = (0, false);
                for (_, (_, v)) in inside {
                    if let Some(v) = v {
                        known += 1;
                        any |= *v;
                    }
                }
                assert!(
                    known == 0 || any,
                    "case {case}: {o} is reported to see the mover from {} to {}\" along its walk {:?}, \
                     but sees it at none of the {known} points asked there",
                    st.from_in,
                    st.to_in,
                    w.path
                );
            }
            // ZoC stretches are exact: inside one exactly where `zoc` says so (N4 ZoC, levels
            // included), a hair from their ends aside.
            for (s, m) in &samples {
                let Some(m) = m else { continue };
                if e.zoc.iter().any(|st| (s - st.from_in).abs() < 0.005 || (s - st.to_in).abs() < 0.005) {
                    continue;
                }
                let inside = zoc(observer, m) != ZocVerdict::Outside;
                let reported = e.zoc.iter().any(|st| *s >= st.from_in && *s <= st.to_in);
                assert_eq!(
                    inside,
                    reported,
                    "case {case}: at {s}\" along the walk {:?} the mover is {} {o}'s ZoC; reported {:?}",
                    w.path,
                    if inside { "inside" } else { "outside" },
                    e.zoc
                );
                if inside { zoc_in += 1 } else { zoc_out += 1 }
            }
        }
    }
    eprintln!(
        "{runs} stretches of LoF, {raised_seen} points seen above the table, ZoC {zoc_in} in / {zoc_out} out, {stretches_checked} reported stretches checked"
    );
    assert!(
        runs > 50 && raised_seen > 1_000 && zoc_in > 5_000 && zoc_out > 5_000 && stretches_checked > 50,
        "{runs} stretches of LoF, {raised_seen} points seen above the table, ZoC {zoc_in} in / {zoc_out} out, \
         {stretches_checked} reported stretches checked"
    );
}
