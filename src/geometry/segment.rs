//! Plane primitives shared by terrain validation, Line of Fire and the visibility polygon.
//!
//! # Units
//! Inches throughout. `t` parameters run from 0 at a segment's start to 1 at its end.

use super::TablePoint;
use super::measure::EPS;
use std::ops::Sub as _;

/// An axis-aligned bounding box, inches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Aabb {
    pub min: TablePoint,
    pub max: TablePoint,
}

impl Aabb {
    /// The box around `pts` (empty input gives an inverted box that overlaps nothing).
    pub fn around(pts: impl IntoIterator<Item = TablePoint>) -> Self {
        let mut b = Aabb {
            min: TablePoint::new(f64::INFINITY, f64::INFINITY),
            max: TablePoint::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        };
        for p in pts {
            b.min.x = b.min.x.min(p.x);
            b.min.y = b.min.y.min(p.y);
            b.max.x = b.max.x.max(p.x);
            b.max.y = b.max.y.max(p.y);
        }
        b
    }

    /// The box around both boxes (the same as the box around all their points).
    pub fn union(self, other: Self) -> Self {
        Aabb {
            min: TablePoint::new(self.min.x.min(other.min.x), self.min.y.min(other.min.y)),
            max: TablePoint::new(self.max.x.max(other.max.x), self.max.y.max(other.max.y)),
        }
    }

    /// The box grown by `r` on every side.
    pub fn grown(self, r: f64) -> Self {
        Aabb {
            min: TablePoint::new(self.min.x - r, self.min.y - r),
            max: TablePoint::new(self.max.x + r, self.max.y + r),
        }
    }

    /// Whether segment `a b` meets this box (touching counts), by slab clipping.
    pub fn meets_segment(&self, a: TablePoint, b: TablePoint) -> bool {
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, d, lo, hi) in [(a.x, b.x - a.x, self.min.x, self.max.x), (a.y, b.y - a.y, self.min.y, self.max.y)] {
            if d.abs() < 1e-15 {
                if p < lo || p > hi {
                    return false;
                }
            } else {
                let (u, v) = ((lo - p) / d, (hi - p) / d);
                t0 = t0.max(u.min(v));
                t1 = t1.min(u.max(v));
            }
        }
        // (Checked once at the end: `t0` only grows and `t1` only shrinks, and a branch per
        // slab is one the processor mostly guesses wrong.)
        t1 >= t0
    }

    /// Whether the boxes overlap (touching counts).
    pub fn overlaps(&self, o: &Aabb) -> bool {
        // (`&`, not `&&`: four comparisons cost less than the branches that guess between them.)
        (self.min.x <= o.max.x) & (o.min.x <= self.max.x) & (self.min.y <= o.max.y) & (o.min.y <= self.max.y)
    }
}

/// Twice the signed area of triangle `a b c` (positive when counter-clockwise), square inches.
pub(crate) fn orient(a: TablePoint, b: TablePoint, c: TablePoint) -> f64 {
    b.sub(a).cross(c.sub(a))
}

/// Whether segments `p1 p2` and `q1 q2` share any point (touching and overlapping count).
pub(crate) fn segments_touch(p1: TablePoint, p2: TablePoint, q1: TablePoint, q2: TablePoint) -> bool {
    let d1 = orient(q1, q2, p1);
    let d2 = orient(q1, q2, p2);
    let d3 = orient(p1, p2, q1);
    let d4 = orient(p1, p2, q2);
    let s = |v: f64| {
        if v > EPS {
            1
        } else if v < -EPS {
            -1
        } else {
            0
        }
    };
    let (s1, s2, s3, s4) = (s(d1), s(d2), s(d3), s(d4));
    if s1 * s2 < 0 && s3 * s4 < 0 {
        return true;
    }
    let on = |a: TablePoint, b: TablePoint, p: TablePoint| {
        p.x >= a.x.min(b.x) - EPS && p.x <= a.x.max(b.x) + EPS && p.y >= a.y.min(b.y) - EPS && p.y <= a.y.max(b.y) + EPS
    };
    (s1 == 0 && on(q1, q2, p1))
        || (s2 == 0 && on(q1, q2, p2))
        || (s3 == 0 && on(p1, p2, q1))
        || (s4 == 0 && on(p1, p2, q2))
}

/// Parameters `t` on `a b` where it meets segment `c d` (one value, or both ends of a collinear
/// overlap). Appends to `out`.
pub(crate) fn crossing_params(a: TablePoint, b: TablePoint, c: TablePoint, d: TablePoint, out: &mut Vec<f64>) {
    let r = b.sub(a);
    let s = d.sub(c);
    let denom = r.cross(s);
    let ca = c.sub(a);
    let rr = r.dot(r);
    if denom.abs() <= 1e-12 * (rr.sqrt() * s.norm()).max(1e-300) {
        // Parallel: collinear overlap only.
        if ca.cross(r).abs() <= 1e-12 * rr.sqrt().max(1e-300) && rr > 0.0 {
            for p in [c, d] {
                let t = p.sub(a).dot(r) / rr;
                if (-EPS..=1.0 + EPS).contains(&t) {
                    out.push(t.clamp(0.0, 1.0));
                }
            }
        }
        return;
    }
    let t = ca.cross(s) / denom;
    let u = ca.cross(r) / denom;
    if (-1e-12..=1.0 + 1e-12).contains(&t) && (-1e-12..=1.0 + 1e-12).contains(&u) {
        out.push(t.clamp(0.0, 1.0));
    }
}

/// Where `p` lies relative to a closed polygon (any orientation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Where {
    Inside,
    Boundary,
    Outside,
}

/// The edges of a closed polygon, each from the corner before to the corner: the closing edge
/// (last corner to first) first, then corner 0 to 1, and so on — every edge once, for tests whose
/// answer does not depend on the order. (No index arithmetic: `(i + 1) % n` costs a division
/// per edge in the hottest loops.)
pub(crate) fn edges(poly: &[TablePoint]) -> Edges<'_> {
    Edges { prev: poly.last().copied().unwrap_or(TablePoint::new(0.0, 0.0)), rest: poly.iter() }
}

/// See [`edges`].
#[derive(Debug, Clone)]
pub(crate) struct Edges<'p> {
    prev: TablePoint,
    rest: std::slice::Iter<'p, TablePoint>,
}

impl Iterator for Edges<'_> {
    type Item = (TablePoint, TablePoint);

    fn next(&mut self) -> Option<Self::Item> {
        let q = *self.rest.next()?;
        Some((std::mem::replace(&mut self.prev, q), q))
    }
}

/// Locate `p` against polygon `poly` (vertices in order, closing edge implied).
pub(crate) fn locate(poly: &[TablePoint], p: TablePoint) -> Where {
    let mut inside = false;
    for (a, b) in edges(poly) {
        // On the edge? (|orient| / length ≤ 1e-9", compared squared: no square root here, this
        // runs for every edge of every piece a sampled line meets.)
        let o = orient(a, b, p);
        let len2 = b.sub(a).dot(b.sub(a));
        if o * o <= 1e-18 * len2.max(1.0)
            && p.x >= a.x.min(b.x) - 1e-9
            && p.x <= a.x.max(b.x) + 1e-9
            && p.y >= a.y.min(b.y) - 1e-9
            && p.y <= a.y.max(b.y) + 1e-9
        {
            return Where::Boundary;
        }
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    if inside { Where::Inside } else { Where::Outside }
}

/// Whether the part of segment `a b` with `t` in `[t0, t1]` passes through `poly`: through its
/// interior, or along one of its edges for some length. Touching it at a single point (grazing a
/// vertex) does not count. Counting edges means two pieces set edge to edge leave no crack.
pub(crate) fn passes_through(
    poly: &[TablePoint],
    a: TablePoint,
    b: TablePoint,
    t0: f64,
    t1: f64,
    scratch: &mut Vec<f64>,
) -> bool {
    if t1 - t0 <= 1e-12 {
        return false;
    }
    let (p, q) = (a.lerp(b, t0), a.lerp(b, t1));
    inside_stretches(poly, p, q, scratch).next().is_some()
}

/// The stretches `(t0, t1)` of segment `a b` inside polygon `poly` (any shape; longer than 1e-9
/// of the segment, edges counting as inside), in order. `scratch` holds the crossings.
pub(crate) fn inside_stretches<'s>(
    poly: &'s [TablePoint],
    a: TablePoint,
    b: TablePoint,
    scratch: &'s mut Vec<f64>,
) -> impl Iterator<Item = (f64, f64)> + 's {
    scratch.clear();
    scratch.push(0.0);
    scratch.push(1.0);
    for (e0, e1) in edges(poly) {
        crossing_params(a, b, e0, e1, scratch);
    }
    scratch.sort_by(f64::total_cmp);
    scratch
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(move |&(t0, t1)| t1 - t0 > 1e-9 && locate(poly, a.lerp(b, 0.5 * (t0 + t1))) != Where::Outside)
}

/// The `t` range of segment `a b` inside convex polygon `poly` (closed: its edges count), by
/// Cyrus–Beck clipping against each edge's half-plane; `ccw` is the polygon's orientation.
pub(crate) fn convex_interval(poly: &[TablePoint], ccw: bool, a: TablePoint, b: TablePoint) -> Option<(f64, f64)> {
    let d = b.sub(a);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    // Inside is left of each edge for a counter-clockwise polygon: cross(e, x - p) ≥ 0.
    let sign = if ccw { 1.0 } else { -1.0 };
    for (p, q) in edges(poly) {
        let e = q.sub(p);
        let num = sign * e.cross(a.sub(p));
        let den = sign * e.cross(d);
        if den.abs() <= 1e-15 {
            if num < -1e-12 * e.norm() {
                return None; // parallel and outside this edge
            }
            continue;
        }
        let t = -num / den;
        // (Both bounds updated by selection rather than by a branch on the sign, and checked
        // once at the end: `t0` only grows and `t1` only shrinks.)
        let entering = den > 0.0;
        t0 = if entering { t0.max(t) } else { t0 };
        t1 = if entering { t1 } else { t1.min(t) };
    }
    (t1 >= t0).then_some((t0, t1))
}

/// The open interval of `t` on segment `a b` inside the disc of radius `r` at `c`, if any.
pub(crate) fn disc_interval(a: TablePoint, b: TablePoint, c: TablePoint, r: f64) -> Option<(f64, f64)> {
    let d = b.sub(a);
    let f = a.sub(c);
    let qa = d.dot(d);
    if qa <= 0.0 {
        return (f.norm() < r).then_some((0.0, 1.0));
    }
    let qb = 2.0 * f.dot(d);
    let qc = f.dot(f) - r * r;
    let disc = qb * qb - 4.0 * qa * qc;
    if disc <= 0.0 {
        return None;
    }
    let sq = disc.sqrt();
    let t0 = ((-qb - sq) / (2.0 * qa)).max(0.0);
    let t1 = ((-qb + sq) / (2.0 * qa)).min(1.0);
    (t1 - t0 > 1e-12).then_some((t0, t1))
}

/// The point of segment `a b` closest to `p`, inches.
pub fn closest_on_segment(p: TablePoint, a: TablePoint, b: TablePoint) -> TablePoint {
    let d = b.sub(a);
    let len2 = d.dot(d);
    let t = if len2 > 0.0 { (p.sub(a).dot(d) / len2).clamp(0.0, 1.0) } else { 0.0 };
    a.lerp(b, t)
}

/// Distance from `p` to segment `a b`, inches.
pub(crate) fn point_segment_distance(p: TablePoint, a: TablePoint, b: TablePoint) -> f64 {
    p.dist(closest_on_segment(p, a, b))
}

/// Squared distance from `p` to segment `a b`, square inches.
pub(crate) fn point_segment_distance2(p: TablePoint, a: TablePoint, b: TablePoint) -> f64 {
    let d = b.sub(a);
    let len2 = d.dot(d);
    let t = if len2 > 0.0 { (p.sub(a).dot(d) / len2).clamp(0.0, 1.0) } else { 0.0 };
    let e = p.sub(a.lerp(b, t));
    e.dot(e)
}

/// Convex hull (counter-clockwise, no repeated first point) by Andrew's monotone chain. (Line of
/// Fire uses its twin `lof::tagged_hull`, which also tells which outline each corner came from.)
#[cfg(test)]
pub(crate) fn convex_hull(mut pts: Vec<TablePoint>) -> Vec<TablePoint> {
    pts.sort_unstable_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup_by(|a, b| a.dist(*b) < 1e-12);
    if pts.len() < 3 {
        return pts;
    }
    let mut hull: Vec<TablePoint> = Vec::with_capacity(pts.len() * 2);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &TablePoint>> =
            if pass == 0 { Box::new(pts.iter()) } else { Box::new(pts.iter().rev()) };
        for &p in iter {
            while hull.len() >= start + 2 && orient(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Whether two convex polygons (any orientation) share any point (touching counts), by the
/// separating-axis test on edge normals: they are apart exactly when every corner of one lies
/// strictly outside some edge of the other.
pub(crate) fn convex_polygons_meet(p: &[TablePoint], q: &[TablePoint]) -> bool {
    convex_polygons_meet_oriented((p, signed_area(p) >= 0.0), (q, signed_area(q) >= 0.0))
}

/// [`convex_polygons_meet`] for polygons whose orientations are known (`true`: counter-clockwise,
/// or zero area).
pub(crate) fn convex_polygons_meet_oriented(
    (p, p_ccw): (&[TablePoint], bool),
    (q, q_ccw): (&[TablePoint], bool),
) -> bool {
    polygons_may_come_within((p, Some(p_ccw)), (q, Some(q_ccw)), 0.0)
}

/// Whether polygons `p` and `q` may come within `gap` inches of each other, by the
/// separating-axis test on edge normals: `false` exactly when every corner of one lies more than
/// `gap` outside some edge of the other. Each comes with its orientation when it is convex
/// (`true`: counter-clockwise, or zero area), `None` when not: a polygon that is not convex
/// lends no edges, and its corners still count. `false` is always right (the edge's line, moved
/// out by `gap`, parts them); `true` may not be when one is not convex, or within `gap` of a
/// corner of the other (where the `gap` around it is round, not the corner of two moved lines).
pub(crate) fn polygons_may_come_within(
    (p, p_ccw): (&[TablePoint], Option<bool>),
    (q, q_ccw): (&[TablePoint], Option<bool>),
    gap: f64,
) -> bool {
    let outside_an_edge_of = |a: &[TablePoint], a_ccw: Option<bool>, b: &[TablePoint]| {
        let Some(a_ccw) = a_ccw else { return false };
        let sign = if a_ccw { 1.0 } else { -1.0 };
        edges(a).any(|(e0, e1)| {
            let e = e1.sub(e0);
            // (`orient` is the edge's length times the distance from its line. With no gap, the
            // rounding allowance need not be exact: the sum of the sides, between the length and
            // √2 times it, spares a square root per edge.)
            let tol = if gap == 0.0 {
                1e-12 * (e.x.abs() + e.y.abs()).max(1.0)
            } else {
                let len = e.norm();
                1e-12 * len.max(1.0) + gap * len
            };
            b.iter().all(|&v| sign * orient(e0, e1, v) < -tol)
        })
    };
    !outside_an_edge_of(p, p_ccw, q) && !outside_an_edge_of(q, q_ccw, p)
}

/// Whether polygon `poly` and convex polygon `convex` share any point.
pub(crate) fn polygon_meets_convex(poly: &[TablePoint], convex: &[TablePoint]) -> bool {
    for (p0, p1) in edges(poly) {
        for (c0, c1) in edges(convex) {
            if segments_touch(p0, p1, c0, c1) {
                return true;
            }
        }
    }
    locate(convex, poly[0]) != Where::Outside || locate(poly, convex[0]) != Where::Outside
}

/// Distance from `p` to the outline of polygon `poly` (any shape; inside or out), inches.
pub(crate) fn distance_to_outline(poly: &[TablePoint], p: TablePoint) -> f64 {
    edges(poly).map(|(a, b)| point_segment_distance(p, a, b)).fold(f64::INFINITY, f64::min)
}

/// Distance from `p` to convex polygon `convex` (0 inside), inches.
pub(crate) fn point_convex_distance(p: TablePoint, convex: &[TablePoint]) -> f64 {
    if locate(convex, p) != Where::Outside {
        return 0.0;
    }
    // The nearest point's squared distance, then one square root (monotone: the same result as
    // the smallest of the distances).
    edges(convex).map(|(c0, c1)| point_segment_distance2(p, c0, c1)).fold(f64::INFINITY, f64::min).sqrt()
}

/// Signed area of a polygon (positive counter-clockwise), square inches.
pub(crate) fn signed_area(poly: &[TablePoint]) -> f64 {
    let n = poly.len();
    0.5 * (0..n).map(|i| poly[i].cross(poly[(i + 1) % n])).sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> TablePoint {
        TablePoint::new(x, y)
    }

    fn square() -> Vec<TablePoint> {
        vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)]
    }

    #[test]
    fn a_line_grazing_a_vertex_is_not_blocked_but_one_along_an_edge_is() {
        let mut s = Vec::new();
        assert!(!passes_through(&square(), p(0.0, 2.0), p(2.0, 0.0), 0.0, 1.0, &mut s)); // touches (1,1)
        assert!(passes_through(&square(), p(-1.0, 0.0), p(2.0, 0.0), 0.0, 1.0, &mut s)); // along an edge
        assert!(!passes_through(&square(), p(-1.0, -0.5), p(2.0, -0.5), 0.0, 1.0, &mut s)); // beside it
        assert!(passes_through(&square(), p(-1.0, -1.0), p(2.0, 2.0), 0.0, 1.0, &mut s)); // the diagonal
        assert!(passes_through(&square(), p(-1.0, 0.5), p(2.0, 0.5), 0.0, 1.0, &mut s));
        // but only inside the t window given
        assert!(!passes_through(&square(), p(-1.0, 0.5), p(2.0, 0.5), 0.0, 0.3, &mut s));
    }

    #[test]
    fn hull_and_locate_agree() {
        let h = convex_hull(vec![p(0.0, 0.0), p(2.0, 0.0), p(1.0, 1.0), p(2.0, 2.0), p(0.0, 2.0)]);
        assert_eq!(h.len(), 4);
        assert!(signed_area(&h) > 0.0);
        assert_eq!(locate(&h, p(1.0, 1.0)), Where::Inside);
        assert_eq!(locate(&h, p(2.0, 1.0)), Where::Boundary);
        assert_eq!(locate(&h, p(3.0, 1.0)), Where::Outside);
    }

    #[test]
    fn convex_polygons_meet_when_touching_and_not_when_apart() {
        let sq = |x: f64, y: f64| vec![p(x, y), p(x + 1.0, y), p(x + 1.0, y + 1.0), p(x, y + 1.0)];
        let cw = |v: Vec<TablePoint>| v.into_iter().rev().collect::<Vec<_>>();
        assert!(convex_polygons_meet(&sq(0.0, 0.0), &sq(1.0, 1.0))); // one shared corner
        assert!(convex_polygons_meet(&sq(0.0, 0.0), &cw(sq(1.0, 0.0)))); // shared edge, mixed orientation
        assert!(convex_polygons_meet(&sq(0.0, 0.0), &sq(0.5, 0.5)));
        assert!(!convex_polygons_meet(&sq(0.0, 0.0), &sq(1.001, 0.0)));
        // Apart only along a diagonal axis: a triangle off the square's corner.
        let tri = vec![p(1.2, 1.0), p(2.0, 1.0), p(1.0, 2.0)];
        assert!(!convex_polygons_meet(&sq(0.0, 0.0), &cw(tri.clone())));
        assert!(convex_polygons_meet(&sq(0.0, 0.0), &[p(0.9, 1.0), p(2.0, 1.0), p(1.0, 2.0)]));
    }

    #[test]
    fn disc_interval_is_the_chord() {
        let (t0, t1) = disc_interval(p(-2.0, 0.0), p(2.0, 0.0), p(0.0, 0.0), 1.0).expect("crosses");
        assert!((t0 - 0.25).abs() < 1e-12 && (t1 - 0.75).abs() < 1e-12);
        assert!(disc_interval(p(-2.0, 1.0), p(2.0, 1.0), p(0.0, 0.0), 1.0).is_none()); // tangent
    }
}
