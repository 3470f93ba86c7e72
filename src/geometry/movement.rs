//! Where a moving base passes into terrain: the geometry behind N4's General Movement Rules.
//!
//! A trooper moving with a plain movement skill (Move, Cautious Movement, Dodge) may pass over an
//! obstacle no taller than its Silhouette without declaring Jump or Climb (N4 General Movement
//! Rules, "Movement over an obstacle lower than the height of the Silhouette": the obstacle's
//! height is equal to or lower than the trooper's — assumption `VAULT_UP_TO_SILHOUETTE` in the
//! README); a taller piece it cannot walk through. [`terrain_crossings`] gives, for a route, every
//! piece its base passes into, where along the route, how high the piece rises above the mover's
//! level and whether it may be vaulted; the rules engine refuses the move when one may not.
//!
//! A piece counts when the base reaches more than [`MOVE_CONTACT_SLACK_IN`] into its footprint:
//! a trooper in base contact with a wall — tagged on the camera picture a hair into it — may
//! still slide along it or step away.
//!
//! Other troopers are in the way too (N4 General Movement Rules, PDF 2.1): a trooper may move
//! through allied Models and Markers whose Silhouette is no taller than its own, never through an
//! enemy's (assumption `ENEMIES_BLOCK_MOVEMENT`: the rule names only allies as passable), and may
//! not end its move in another's space. [`base_crossings`] gives where a route's base passes into
//! other bases, [`may_pass_through`] whether it may.
//!
//! # Units
//! Table inches; distances along a route are inches travelled from its start.

use super::route::{Polyline, Stretch};
use super::segment::{convex_interval, disc_interval, edges, inside_stretches, locate, point_segment_distance};
use super::{Body, Side, TablePoint, Terrain};

/// How far a moving base may reach into a terrain footprint without passing into the piece,
/// inches (assumption `MOVE_CONTACT_SLACK_IN`): 0.1", the precision issue 4 asks of a click on
/// the calibrated picture, so a base tagged in contact with a wall is not "inside" it.
pub const MOVE_CONTACT_SLACK_IN: f64 = 0.1;

/// A terrain piece a moving base passes into.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainCrossing {
    /// Index of the piece in the terrain list.
    pub piece: usize,
    /// How far the piece rises above the mover's level (the bottom of its base), inches.
    pub rise_in: f64,
    /// Whether a plain movement skill may pass over it: it rises no more than the mover's
    /// Silhouette is tall (N4 General Movement Rules; `VAULT_UP_TO_SILHOUETTE`). The standing
    /// Silhouette counts, Prone or not ("as determined by its Silhouette Attribute").
    pub vaultable: bool,
    /// The stretches of the route where the base is in the piece's footprint, in order.
    pub stretches: Vec<Stretch>,
}

/// Every terrain piece rising above `mover`'s level whose footprint its base passes into (deeper
/// than [`MOVE_CONTACT_SLACK_IN`]) as it moves from where it stands through `route`, in terrain
/// order. Pieces at or below its level (the roof it walks on) are not obstacles. Exact: along a
/// leg, the points where the base is in a footprint are where the centre is within the slack
/// radius of it — inside it, or near one of its edges (a capsule around each edge) — so each
/// stretch's ends are found in closed form, not sampled.
///
/// # Units
/// Table inches; stretches by inches travelled along the route.
pub fn terrain_crossings(mover: &Body, route: &[TablePoint], terrain: &[Terrain]) -> Vec<TerrainCrossing> {
    let mut pts = vec![mover.centre];
    pts.extend_from_slice(route);
    let line = Polyline::new(&pts);
    let r = (mover.radius() - MOVE_CONTACT_SLACK_IN).max(1e-6);
    let tall = mover.silhouette.height_in();
    let mut out = Vec::new();
    let mut scratch = Vec::new();
    for (piece, t) in terrain.iter().enumerate() {
        let rise_in = t.height_in - mover.bottom();
        if rise_in <= 1e-9 {
            continue;
        }
        let reach = t.aabb().grown(r);
        let mut along: Vec<(f64, f64)> = Vec::new();
        for (i, w) in pts.windows(2).enumerate() {
            let (a, b) = (w[0], w[1]);
            let len = a.dist(b);
            if len <= 0.0 || !reach.meets_segment(a, b) {
                continue;
            }
            let c0 = line.cum[i];
            for (t0, t1) in leg_intervals(&t.polygon, a, b, r, &mut scratch) {
                push_merged(&mut along, (c0 + len * t0, c0 + len * t1));
            }
        }
        // A route that goes nowhere: whether the base where it stands is in the footprint.
        if line.length() <= 0.0 && near_or_inside(&t.polygon, mover.centre, r) {
            along.push((0.0, 0.0));
        }
        if !along.is_empty() {
            out.push(TerrainCrossing {
                piece,
                rise_in,
                vaultable: rise_in <= tall + 1e-9,
                stretches: along.into_iter().map(|(a, b)| line.stretch(a, b)).collect(),
            });
        }
    }
    out
}

/// Another trooper's base that a moving base passes into.
#[derive(Debug, Clone, PartialEq)]
pub struct BaseCrossing {
    /// Index of the other trooper's body.
    pub trooper: usize,
    /// The stretches of the route where the two bases overlap (deeper than
    /// [`MOVE_CONTACT_SLACK_IN`]), in order; the last one reaches the route's end when the move
    /// would end in the other's space.
    pub stretches: Vec<Stretch>,
    /// The move would end with the bases overlapping.
    pub ends_inside: bool,
}

/// Every other body (not `mover_index`, nor any in `ignore`) whose base `mover`'s base passes
/// into as it moves from where it stands through `route`, in body order. Only bodies whose
/// Silhouette cylinders share some height with the mover's count (one on a roof above is not in
/// the way). Exact: the centres come within the sum of the two radii less the slack along an
/// interval of each leg.
///
/// # Units
/// Table inches; stretches by inches travelled along the route.
pub fn base_crossings(mover: &Body, route: &[TablePoint], bodies: &[Body], ignore: &[usize]) -> Vec<BaseCrossing> {
    let mut pts = vec![mover.centre];
    pts.extend_from_slice(route);
    let line = Polyline::new(&pts);
    let total = line.length();
    let mut out = Vec::new();
    for (k, o) in bodies.iter().enumerate() {
        if ignore.contains(&k) || o.top() <= mover.bottom() || o.bottom() >= mover.top() {
            continue;
        }
        let reach = (mover.radius() + o.radius() - MOVE_CONTACT_SLACK_IN).max(1e-6);
        let mut along: Vec<(f64, f64)> = Vec::new();
        for (i, w) in pts.windows(2).enumerate() {
            let len = w[0].dist(w[1]);
            if len <= 0.0 {
                continue;
            }
            if let Some((t0, t1)) = disc_interval(w[0], w[1], o.centre, reach) {
                push_merged(&mut along, (line.cum[i] + len * t0, line.cum[i] + len * t1));
            }
        }
        let end = *pts.last().unwrap_or(&mover.centre);
        let ends_inside = end.dist(o.centre) < reach;
        if total <= 0.0 && ends_inside {
            along.push((0.0, 0.0));
        }
        if !along.is_empty() {
            out.push(BaseCrossing {
                trooper: k,
                stretches: along.into_iter().map(|(a, b)| line.stretch(a, b)).collect(),
                ends_inside,
            });
        }
    }
    out
}

/// Whether a trooper of side `side` moving as `mover` may pass through `other`'s base (of side
/// `other_side`): an ally (Model or Marker) whose Silhouette is no taller than the mover's (N4
/// General Movement Rules, PDF 2.1); never an enemy (`ENEMIES_BLOCK_MOVEMENT`). Heights are the
/// Silhouette Attributes', Prone or not.
pub fn may_pass_through(mover: &Body, side: Side, other: &Body, other_side: Side) -> bool {
    side == other_side && other.silhouette.height_in() <= mover.silhouette.height_in() + 1e-9
}

/// The `t` intervals of leg `a b` (not of zero length) where a disc of radius `r` centred on it
/// overlaps polygon `poly`: the Minkowski sum of the polygon and the disc is the polygon itself
/// and a capsule around each edge (two end discs and a rectangle), so the leg's part inside it is
/// the union of the leg's parts inside each of those convex shapes. Sorted and merged.
fn leg_intervals(poly: &[TablePoint], a: TablePoint, b: TablePoint, r: f64, scratch: &mut Vec<f64>) -> Vec<(f64, f64)> {
    let mut raw: Vec<(f64, f64)> = inside_stretches(poly, a, b, scratch).collect();
    for (e0, e1) in edges(poly) {
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        let mut take = |iv: Option<(f64, f64)>| {
            if let Some((t0, t1)) = iv {
                lo = lo.min(t0);
                hi = hi.max(t1);
            }
        };
        take(disc_interval(a, b, e0, r));
        take(disc_interval(a, b, e1, r));
        let e = e1 - e0;
        let l = e.norm();
        if l > 1e-12 {
            let n = TablePoint::new(-e.y, e.x).scale(r / l);
            // Counter-clockwise: the side left of the edge first.
            let slab = [e0 - n, e1 - n, e1 + n, e0 + n];
            take(convex_interval(&slab, true, a, b));
        }
        // (The three shapes make one convex capsule, so their intervals make one interval.)
        if hi - lo > 1e-12 {
            raw.push((lo, hi));
        }
    }
    raw.sort_by(|p, q| p.0.total_cmp(&q.0));
    let mut out: Vec<(f64, f64)> = Vec::new();
    for iv in raw {
        push_merged(&mut out, iv);
    }
    out
}

/// Append `iv` to sorted intervals `out`, joining it to the last one when they meet.
fn push_merged(out: &mut Vec<(f64, f64)>, iv: (f64, f64)) {
    match out.last_mut() {
        Some(last) if iv.0 <= last.1 + 1e-12 => last.1 = last.1.max(iv.1),
        _ => out.push(iv),
    }
}

/// Whether a disc of radius `r` at `p` overlaps polygon `poly`.
fn near_or_inside(poly: &[TablePoint], p: TablePoint, r: f64) -> bool {
    locate(poly, p) != super::segment::Where::Outside || edges(poly).any(|(a, b)| point_segment_distance(p, a, b) < r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Silhouette;
    use crate::geometry::lof::tests::xorshift;

    fn s2(x: f64, y: f64) -> Body {
        Body::new(TablePoint::new(x, y), Silhouette::S2)
    }

    fn p(x: f64, y: f64) -> TablePoint {
        TablePoint::new(x, y)
    }

    /// The slack radius of an S2 base, inches.
    fn r2() -> f64 {
        Silhouette::S2.radius_in() - MOVE_CONTACT_SLACK_IN
    }

    #[test]
    fn walking_into_a_wall_is_found_where_the_base_enters_and_leaves_it() {
        // A 3" wall x 14–15 across the route y = 5 from x = 10 to 20.
        let terrain = vec![Terrain::rect("wall", 14.0, 0.0, 15.0, 30.0, 3.0).expect("valid")];
        let c = terrain_crossings(&s2(10.0, 5.0), &[p(20.0, 5.0)], &terrain);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].piece, 0);
        assert!(!c[0].vaultable, "3\" is taller than an S2 (40 mm)");
        assert!((c[0].rise_in - 3.0).abs() < 1e-12);
        assert_eq!(c[0].stretches.len(), 1);
        let s = c[0].stretches[0];
        assert!((s.from_in - (4.0 - r2())).abs() < 1e-9, "{s:?}");
        assert!((s.to_in - (5.0 + r2())).abs() < 1e-9, "{s:?}");
        assert!((s.start.x - (14.0 - r2())).abs() < 1e-9 && (s.start.y - 5.0).abs() < 1e-12);
    }

    #[test]
    fn a_crate_lower_than_the_silhouette_may_be_vaulted() {
        let terrain = vec![Terrain::rect("crate", 14.0, 4.0, 15.0, 6.0, 1.0).expect("valid")];
        let c = terrain_crossings(&s2(10.0, 5.0), &[p(20.0, 5.0)], &terrain);
        assert_eq!(c.len(), 1);
        assert!(c[0].vaultable, "1\" is lower than an S2 (1.57\")");
        // An S1 (25 mm) may vault a 0.9" piece but not a 1.1" one.
        let s1 = Body::new(p(10.0, 5.0), Silhouette::S1);
        for (h, ok) in [(0.9, true), (1.1, false)] {
            let t = vec![Terrain::rect("crate", 14.0, 4.0, 15.0, 6.0, h).expect("valid")];
            assert_eq!(terrain_crossings(&s1, &[p(20.0, 5.0)], &t)[0].vaultable, ok, "{h}\"");
        }
        // Prone, it still vaults by its Silhouette Attribute.
        assert!(terrain_crossings(&s2(10.0, 5.0).lying(true), &[p(20.0, 5.0)], &terrain)[0].vaultable);
    }

    #[test]
    fn a_base_in_contact_with_a_wall_may_slide_along_it_and_step_away() {
        let terrain = vec![Terrain::rect("wall", 14.0, 0.0, 15.0, 30.0, 3.0).expect("valid")];
        let r = Silhouette::S2.radius_in();
        // In contact (and tagged 0.05" into it): along the wall, then away from it.
        for x in [14.0 - r, 14.0 - r + 0.05] {
            let c = terrain_crossings(&s2(x, 5.0), &[p(x, 25.0), p(5.0, 25.0)], &terrain);
            assert!(c.is_empty(), "contact at x = {x}: {c:?}");
        }
        // 0.15" into it is passing into it, along the whole leg beside it.
        let x = 14.0 - r + 0.15;
        let c = terrain_crossings(&s2(x, 5.0), &[p(x, 25.0), p(5.0, 25.0)], &terrain);
        assert_eq!(c.len(), 1);
        assert!(c[0].stretches[0].from_in.abs() < 1e-12 && (c[0].stretches[0].to_in - 20.0).abs() < 0.2);
    }

    #[test]
    fn rounding_a_corner_closer_than_the_base_cuts_it_by_the_chord() {
        // A building x 10–20, y 10–20; the centre passes its corner (20, 20) at distance d along
        // the diagonal's normal: the base is in it along a chord 2·sqrt(r² − d²) (the corner's
        // end disc), nowhere else.
        let terrain = vec![Terrain::rect("house", 10.0, 10.0, 20.0, 20.0, 5.0).expect("valid")];
        let k = std::f64::consts::FRAC_1_SQRT_2;
        for d in [r2() - 0.05, r2() + 0.01] {
            let c0 = p(20.0 + d * k, 20.0 + d * k);
            let dir = p(-k, k); // along the line x + y = const, past the corner
            let (a, b) = (c0 - dir.scale(5.0), c0 + dir.scale(5.0));
            let c = terrain_crossings(&s2(a.x, a.y), &[b], &terrain);
            if d < r2() {
                assert_eq!(c.len(), 1, "d = {d}");
                let s = c[0].stretches[0];
                let half = (r2() * r2() - d * d).sqrt();
                assert!((s.from_in - (5.0 - half)).abs() < 1e-9 && (s.to_in - (5.0 + half)).abs() < 1e-9, "{s:?}");
            } else {
                assert!(c.is_empty(), "d = {d}: {c:?}");
            }
        }
    }

    #[test]
    fn on_a_roof_the_roof_is_no_obstacle_but_a_taller_piece_on_it_is() {
        let terrain = vec![
            Terrain::rect("roof", 0.0, 0.0, 20.0, 20.0, 3.0).expect("valid"),
            Terrain::rect("tower", 10.0, 8.0, 12.0, 12.0, 6.0).expect("valid"),
            Terrain::rect("low", 30.0, 8.0, 32.0, 12.0, 2.0).expect("valid"),
        ];
        let up = s2(5.0, 10.0).elevated(3.0);
        let c = terrain_crossings(&up, &[p(15.0, 10.0), p(35.0, 10.0)], &terrain);
        assert_eq!(c.iter().map(|c| c.piece).collect::<Vec<_>>(), vec![1], "{c:?}");
        assert!(!c[0].vaultable && (c[0].rise_in - 3.0).abs() < 1e-12);
        // At table level the roof is a 3" building in the way, and the low piece a 2" one.
        let c = terrain_crossings(&s2(5.0, 30.0), &[p(5.0, 10.0)], &terrain);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].piece, 0);
        assert!((c[0].stretches[0].from_in - (10.0 - r2())).abs() < 1e-9);
        assert!((c[0].stretches[0].to_in - 20.0).abs() < 1e-9, "inside to the end of the route");
    }

    #[test]
    fn going_in_and_out_of_an_l_shaped_ruin_gives_two_stretches_and_staying_put_one_point() {
        // An L: arms x 0–5 (up to y = 10) and y 0–5 (out to x = 10); the notch x 5–10, y 5–10
        // is open. Down into the upright arm, across it and out into the notch, up and away.
        let l = Terrain::new(
            "ruin",
            vec![p(0.0, 0.0), p(10.0, 0.0), p(10.0, 5.0), p(5.0, 5.0), p(5.0, 10.0), p(0.0, 10.0)],
            4.0,
        )
        .expect("valid");
        let terrain = vec![l];
        let c = terrain_crossings(&s2(2.5, 15.0), &[p(2.5, 7.5), p(7.5, 7.5), p(7.5, 15.0)], &terrain);
        assert_eq!(c.len(), 1);
        let st = &c[0].stretches;
        assert_eq!(st.len(), 1, "in the arm, then out through the notch side: one stretch {st:?}");
        assert!((st[0].from_in - (5.0 - r2())).abs() < 1e-9, "{st:?}");
        // It leaves the arm's edge x = 5 when the centre is r past it, on the middle leg.
        assert!((st[0].to_in - (7.5 + 2.5 + r2())).abs() < 1e-9, "{st:?}");
        // Out, then back in: two stretches.
        let c = terrain_crossings(&s2(2.5, 15.0), &[p(2.5, 7.5), p(2.5, 15.0), p(7.5, 15.0), p(7.5, 2.5)], &terrain);
        assert_eq!(c[0].stretches.len(), 2, "{:?}", c[0].stretches);
        // Standing still, with its base in the footprint.
        let c = terrain_crossings(&s2(5.0 + r2() - 0.1, 7.5), &[], &terrain);
        assert_eq!(c.len(), 1);
        assert_eq!((c[0].stretches[0].from_in, c[0].stretches[0].to_in), (0.0, 0.0));
    }

    #[test]
    fn passing_through_other_bases_is_found_where_they_overlap_and_at_the_end() {
        // The mover (S2) walks east along y = 10 from x = 0 to 20; an S2 at (10, 10.5), an S5 on a
        // 4" roof at (15, 10) (above it: not in the way), an S2 at (20, 10) where the move ends.
        let bodies =
            vec![s2(0.0, 10.0), s2(10.0, 10.5), Body::new(p(15.0, 10.0), Silhouette::S5).elevated(4.0), s2(20.0, 10.0)];
        let c = base_crossings(&bodies[0], &[p(20.0, 10.0)], &bodies, &[0]);
        assert_eq!(c.iter().map(|c| c.trooper).collect::<Vec<_>>(), vec![1, 3], "{c:?}");
        let reach = 2.0 * Silhouette::S2.radius_in() - MOVE_CONTACT_SLACK_IN;
        let half = (reach * reach - 0.25).sqrt();
        let s = c[0].stretches[0];
        assert!((s.from_in - (10.0 - half)).abs() < 1e-9 && (s.to_in - (10.0 + half)).abs() < 1e-9, "{s:?}");
        assert!(!c[0].ends_inside);
        assert!(c[1].ends_inside && (c[1].stretches[0].to_in - 20.0).abs() < 1e-12);
        // In base contact at the end (centres 2r apart), not inside.
        let r = Silhouette::S2.radius_in();
        let c = base_crossings(&bodies[0], &[p(20.0 - 2.0 * r, 10.0)], &bodies, &[0, 1]);
        assert!(c.is_empty(), "{c:?}");
        // Who may be passed: allies no taller.
        let s5 = Body::new(p(0.0, 0.0), Silhouette::S5);
        assert!(may_pass_through(&bodies[0], Side::A, &bodies[1], Side::A));
        assert!(!may_pass_through(&bodies[0], Side::A, &bodies[1], Side::B));
        assert!(!may_pass_through(&bodies[0], Side::A, &s5, Side::A), "an S5 is taller than an S2");
        assert!(may_pass_through(&s5, Side::A, &bodies[0], Side::A));
        assert!(!may_pass_through(&bodies[0], Side::A, &s5.lying(true), Side::A), "Prone, still its Silhouette");
    }

    /// Against a brute force: at points 0.01" apart along random routes among random pieces,
    /// "the base reaches more than the slack into the footprint" (by distances to the edges and a
    /// point-in-polygon test) agrees with the stretches, away from their ends.
    #[test]
    fn crossings_agree_with_distances_sampled_along_random_routes() {
        let mut rng = xorshift(0x5eed_cafe);
        let mut rand = move |lo: f64, hi: f64| lo + (hi - lo) * rng();
        let mut checked = 0;
        for _ in 0..200 {
            let mut terrain = Vec::new();
            for k in 0..4 {
                let (cx, cy) = (rand(5.0, 25.0), rand(5.0, 25.0));
                let n = 3 + (k % 4);
                // A star-shaped polygon: corners at increasing angles, random radii (non-convex).
                let poly: Vec<TablePoint> = (0..n)
                    .map(|i| {
                        let a = std::f64::consts::TAU * (i as f64 + rand(0.1, 0.9)) / n as f64;
                        let rr = rand(0.5, 4.0);
                        p(cx + rr * a.cos(), cy + rr * a.sin())
                    })
                    .collect();
                if let Ok(t) = Terrain::new(format!("t{k}"), poly, rand(0.5, 4.0)) {
                    terrain.push(t);
                }
            }
            let start = s2(rand(0.0, 30.0), rand(0.0, 30.0));
            let route: Vec<TablePoint> = (0..3).map(|_| p(rand(0.0, 30.0), rand(0.0, 30.0))).collect();
            let crossings = terrain_crossings(&start, &route, &terrain);
            let mut pts = vec![start.centre];
            pts.extend_from_slice(&route);
            let line = Polyline::new(&pts);
            let r = r2();
            let mut s = 0.0;
            while s <= line.length() {
                let c = line.at(s);
                for (k, t) in terrain.iter().enumerate() {
                    let truth = near_or_inside(&t.polygon, c, r);
                    let found = crossings.iter().find(|x| x.piece == k);
                    let near_end = found.is_some_and(|x| {
                        x.stretches.iter().any(|st| (st.from_in - s).abs() < 1e-6 || (st.to_in - s).abs() < 1e-6)
                    });
                    if near_end {
                        continue;
                    }
                    let said = found.is_some_and(|x| x.stretches.iter().any(|st| st.from_in <= s && s <= st.to_in));
                    assert_eq!(said, truth, "piece {k} at {s}\" along ({c:?}): {found:?}");
                    checked += usize::from(truth);
                }
                s += 0.01;
            }
        }
        assert!(checked > 1000, "the scenes should put bases in footprints often ({checked})");
    }
}
