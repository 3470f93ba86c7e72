//! Line of Fire against an independent brute-force check over many random scenes.
//!
//! The brute force shares no code with `geometry::lof`: it builds 3D lines between a dense set of
//! points over the viewer's front half-cylinder (outline every 1 mm, inner rings, several heights,
//! its top face) and the target's side (up to 3 mm below its top) and top face (where 3 mm of it
//! shows beyond the line's end), and clips each line exactly against every terrain box (slabs) and
//! trooper cylinder. Concave (L- and U-shaped) pieces are clipped as overlapping boxes whose
//! union is the piece, while `line_of_fire` sees one concave polygon.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sightline::geometry::{
    Arc, Blocker, Body, Lof, MIN_VISIBLE_IN, Obstacles, Point3, Silhouette, TablePoint, Terrain, line_of_fire,
};

/// Whether the 3D segment `a b` passes through the open box `lo..hi` (slab clipping).
fn segment_hits_box(a: Point3, b: Point3, lo: [f64; 3], hi: [f64; 3]) -> bool {
    let (p, d) = ([a.x, a.y, a.z], [b.x - a.x, b.y - a.y, b.z - a.z]);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for k in 0..3 {
        if d[k].abs() < 1e-15 {
            if p[k] <= lo[k] || p[k] >= hi[k] {
                return false;
            }
        } else {
            let (u, v) = ((lo[k] - p[k]) / d[k], (hi[k] - p[k]) / d[k]);
            t0 = t0.max(u.min(v));
            t1 = t1.min(u.max(v));
        }
    }
    t1 - t0 > 1e-12
}

/// Whether the 3D segment `a b` passes through the open vertical cylinder.
fn segment_hits_cylinder(a: Point3, b: Point3, c: TablePoint, r: f64, z0: f64, z1: f64) -> bool {
    let (dx, dy, dz) = (b.x - a.x, b.y - a.y, b.z - a.z);
    let (fx, fy) = (a.x - c.x, a.y - c.y);
    let qa = dx * dx + dy * dy;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    if qa < 1e-15 {
        if fx * fx + fy * fy >= r * r {
            return false;
        }
    } else {
        let qb = 2.0 * (fx * dx + fy * dy);
        let qc = fx * fx + fy * fy - r * r;
        let disc = qb * qb - 4.0 * qa * qc;
        if disc <= 0.0 {
            return false;
        }
        t0 = t0.max((-qb - disc.sqrt()) / (2.0 * qa));
        t1 = t1.min((-qb + disc.sqrt()) / (2.0 * qa));
    }
    if dz.abs() < 1e-15 {
        if a.z <= z0 || a.z >= z1 {
            return false;
        }
    } else {
        let (u, v) = ((z0 - a.z) / dz, (z1 - a.z) / dz);
        t0 = t0.max(u.min(v));
        t1 = t1.min(u.max(v));
    }
    t1 - t0 > 1e-12
}

/// Whether the line is clear of every blocker, each shrunk by `margin` inches (a negative
/// margin grows them). Terrain here is rectilinear: each piece is clipped as the boxes of
/// [`boxes`], each shrunk or grown on its own.
fn line_clear(a: Point3, b: Point3, terrain: &[Terrain], others: &[Body], margin: f64) -> bool {
    let hits_terrain = terrain.iter().any(|t| {
        boxes(t).into_iter().any(|([x0, y0], [x1, y1])| {
            segment_hits_box(a, b, [x0 + margin, y0 + margin, -1.0], [x1 - margin, y1 - margin, t.height_in - margin])
        })
    });
    !hits_terrain
        && !others
            .iter()
            .any(|o| segment_hits_cylinder(a, b, o.centre, o.radius() - margin, o.bottom() + margin, o.top() - margin))
}

/// An axis-aligned (rectilinear) footprint as overlapping boxes whose union is the footprint:
/// on the grid of its corners' x and y values, every maximal run of inside cells along a row,
/// and every one along a column (so a point near a seam between two cells is deep inside some
/// box, and shrinking the boxes opens no gap along the seams). A rectangle is one box.
fn boxes(t: &Terrain) -> Vec<([f64; 2], [f64; 2])> {
    let sorted = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    };
    let xs = sorted(t.polygon.iter().map(|p| p.x).collect());
    let ys = sorted(t.polygon.iter().map(|p| p.y).collect());
    let (nx, ny) = (xs.len() - 1, ys.len() - 1);
    let inside = |i: usize, j: usize| {
        even_odd(&t.polygon, TablePoint::new((xs[i] + xs[i + 1]) / 2.0, (ys[j] + ys[j + 1]) / 2.0))
    };
    let mut out = Vec::new();
    for j in 0..ny {
        out.extend(runs(nx, |i| inside(i, j)).map(|(i0, i1)| ([xs[i0], ys[j]], [xs[i1], ys[j + 1]])));
    }
    for i in 0..nx {
        // (A run of one cell is already a row run's part.)
        let long = runs(ny, |j| inside(i, j)).filter(|&(j0, j1)| j1 > j0 + 1);
        out.extend(long.map(|(j0, j1)| ([xs[i], ys[j0]], [xs[i + 1], ys[j1]])));
    }
    out
}

#[test]
fn the_brute_force_boxes_of_a_notched_piece_make_up_exactly_the_piece() {
    for shape in 0..3 {
        for turn in 0..4 {
            let poly = notched(1.0, 2.0, 4.0, 3.0, (shape, 0.4, 0.7, turn));
            let t = Terrain::new("p", poly, 1.0).expect("a valid piece");
            let b = boxes(&t);
            // Every point of a fine grid (off the corners' lines) is in some box exactly when it
            // is in the piece.
            for (gx, gy) in (0..60).flat_map(|i| (0..50).map(move |j| (i, j))) {
                let p = TablePoint::new(0.513 + 0.0837 * f64::from(gx), 1.517 + 0.0811 * f64::from(gy));
                let in_boxes = b.iter().any(|&([x0, y0], [x1, y1])| (x0..x1).contains(&p.x) && (y0..y1).contains(&p.y));
                assert_eq!(in_boxes, clearance(&t.polygon, p) == 0.0, "shape {shape} turn {turn} at {p:?}");
            }
        }
    }
}

/// The maximal runs `start..end` of consecutive indices below `n` where `inside` holds.
fn runs(n: usize, inside: impl Fn(usize) -> bool) -> impl Iterator<Item = (usize, usize)> {
    let mut k = 0;
    std::iter::from_fn(move || {
        while k < n && !inside(k) {
            k += 1;
        }
        let start = k;
        while k < n && inside(k) {
            k += 1;
        }
        (k > start).then_some((start, k))
    })
}

/// Even-odd point-in-polygon (the point is never on an edge here: it is a grid cell's centre).
fn even_odd(poly: &[TablePoint], p: TablePoint) -> bool {
    let mut inside = false;
    for (k, &a) in poly.iter().enumerate() {
        let b = poly[(k + 1) % poly.len()];
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
    }
    inside
}

/// Points of the body's cylinder, a polar grid over the base: on `rings` (fractions of the
/// radius) at `heights` evenly spaced heights from `z_lo` to `z_hi`, kept only where `keep` holds.
fn cylinder_points(
    b: &Body,
    (z_lo, z_hi, heights): (f64, f64, usize),
    rings: &[f64],
    keep: impl Fn(TablePoint) -> bool,
) -> Vec<Point3> {
    let mut out = Vec::new();
    let r = b.radius();
    for h in 0..heights {
        let z = if heights > 1 { z_lo + (z_hi - z_lo) * h as f64 / (heights - 1) as f64 } else { z_lo };
        for &ring in rings {
            // The outline every 1 mm or closer; the inner ring as finely.
            let spokes =
                if ring == 0.0 { 1 } else { ((std::f64::consts::TAU * r * ring * 25.4).ceil() as usize).max(8) };
            for s in 0..spokes {
                let a = s as f64 * std::f64::consts::TAU / spokes as f64;
                let p = TablePoint::new(b.centre.x + ring * r * a.cos(), b.centre.y + ring * r * a.sin());
                if keep(p) {
                    out.push(Point3 { x: p.x, y: p.y, z });
                }
            }
        }
    }
    out
}

fn in_front(viewer: &Body, p: TablePoint) -> bool {
    let f = viewer.facing_unit();
    match viewer.arc {
        Arc::Front180 => (p.x - viewer.centre.x) * f.x + (p.y - viewer.centre.y) * f.y >= -1e-9,
        Arc::All360 => true,
    }
}

/// The brute force's lines: from the viewer's front half-cylinder (outline, inner rings, top
/// face) to the part of the target in the viewer's arc: its side up to 3 mm below its top, and
/// its top face (a top-face point counts for a line when 3 mm more of the top face lies beyond it
/// along the line: see [`top_ok`]).
fn brute_lines(viewer: &Body, target: &Body, heights: usize) -> (Vec<Point3>, Vec<Point3>, Vec<Point3>) {
    let from =
        cylinder_points(viewer, (viewer.bottom(), viewer.top(), heights), &[0.0, 0.5, 1.0], |p| in_front(viewer, p));
    let z_hi = (target.top() - MIN_VISIBLE_IN).max(target.bottom());
    let side = cylinder_points(target, (target.bottom(), z_hi, heights), &[1.0], |p| in_front(viewer, p));
    let top =
        cylinder_points(target, (target.top(), target.top(), 1), &[0.0, 0.25, 0.5, 0.75, 1.0], |p| in_front(viewer, p));
    (from, side, top)
}

/// A line from `a` ending on the target's top face at `b` shows 3 mm of it when it comes down
/// onto the face (a level line sees the face edge-on: nothing) and the top face goes on for 3 mm
/// beyond `b` along the line (inside the disc and the viewer's arc).
fn top_ok(viewer: &Body, target: &Body, a: Point3, b: Point3) -> bool {
    if a.z <= target.top() + 1e-6 {
        return false;
    }
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let n = dx.hypot(dy);
    if n < 1e-12 {
        return false;
    }
    let p = TablePoint::new(b.x + dx / n * MIN_VISIBLE_IN, b.y + dy / n * MIN_VISIBLE_IN);
    p.dist(target.centre) <= target.radius() + 1e-9 && in_front(viewer, p)
}

/// Whether the line from viewer point `a` reaches target point `b` on the target's side without
/// passing beneath its base first: a line that comes up under a raised base to a point of its
/// rim shows only that rim, not a 3 mm piece, and lines that see the underside of a raised base
/// are not looked for (assumption UNDERSIDE in the README). Judged in plan: the line's height
/// where it enters the target's disc is at least the target's feet.
fn not_from_beneath(target: &Body, a: Point3, b: Point3) -> bool {
    at_or_above_feet(target, a, b, Crossing::Enters)
}

/// The same on the viewer's side: whether the line from viewer point `a` leaves the viewer's
/// disc no lower than its feet — a line that drops out through the underside of a raised base
/// (from its soles, through the roof it stands on) is not looked at (assumption UNDERSIDE).
fn not_out_beneath(viewer: &Body, a: Point3, b: Point3) -> bool {
    at_or_above_feet(viewer, a, b, Crossing::Leaves)
}

#[derive(Clone, Copy, PartialEq)]
enum Crossing {
    Enters,
    Leaves,
}

/// Whether the line from `a` to `b` is at least `body`'s feet high where it first enters (or
/// last leaves) the body's disc, judged in plan.
fn at_or_above_feet(body: &Body, a: Point3, b: Point3, crossing: Crossing) -> bool {
    let (p, d) = (a.plan(), TablePoint::new(b.x - a.x, b.y - a.y));
    let dd = d.dot(d);
    if dd < 1e-15 {
        return true;
    }
    // Where along the line (0 at `a`, 1 at `b`) it crosses the outline: the roots of
    // |p + t·d − c|² = r², the smaller where it enters, the larger where it leaves.
    let f = p - body.centre;
    let (half_b, cc) = (f.dot(d), f.dot(f) - body.radius() * body.radius());
    let root = (half_b * half_b - dd * cc).max(0.0).sqrt();
    let t = match crossing {
        Crossing::Enters => (-half_b - root) / dd,
        Crossing::Leaves => (-half_b + root) / dd,
    };
    a.z + (b.z - a.z) * t.clamp(0.0, 1.0) >= body.bottom() - 1e-9
}

/// Brute force for the rule itself (N4 LoF: A must see a 3 × 3 mm piece of B): a clear sampled
/// line (blockers shrunk by `margin`) from a viewer point `a` to a target point `b` such that
/// the lines from `a` to the points of the target 1.5 mm either side of `b` (every 0.5 mm; along
/// the outline for a side point, across the line on the top face) are clear too — so a piece of
/// the target 3 mm wide shows from `a`. (A line through a gap narrower than that is not LoF.)
fn brute_line(
    viewer: &Body,
    target: &Body,
    terrain: &[Terrain],
    others: &[Body],
    (margin, heights): (f64, usize),
) -> Option<(Point3, Point3)> {
    let (from, side, top) = brute_lines(viewer, target, heights);
    let half = MIN_VISIBLE_IN / 2.0;
    let offsets = [-3.0, -2.0, -1.0, 1.0, 2.0, 3.0].map(|k| k * half / 3.0);
    let clear = |a: Point3, b: Point3| line_clear(a, b, terrain, others, margin);
    for &a in &from {
        for &b in &side {
            // Along the outline at the same height: an angle of `offset / r` about the centre.
            let around = |offset: f64| {
                let (c, r) = (target.centre, target.radius());
                let ang = (b.y - c.y).atan2(b.x - c.x) + offset / r;
                Point3 { x: c.x + r * ang.cos(), y: c.y + r * ang.sin(), z: b.z }
            };
            if not_from_beneath(target, a, b)
                && not_out_beneath(viewer, a, b)
                && clear(a, b)
                && offsets.iter().all(|&o| {
                    let q = around(o);
                    in_front(viewer, q.plan()) && clear(a, q)
                })
            {
                return Some((a, b));
            }
        }
        for &b in &top {
            // Across the line in plan, on the top face.
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let n = dx.hypot(dy).max(1e-12);
            let across = |offset: f64| Point3 { x: b.x - dy / n * offset, y: b.y + dx / n * offset, z: b.z };
            if top_ok(viewer, target, a, b)
                && not_out_beneath(viewer, a, b)
                && clear(a, b)
                && offsets.iter().all(|&o| {
                    let q = across(o);
                    q.plan().dist(target.centre) <= target.radius() + 1e-9
                        && top_ok(viewer, target, a, q)
                        && clear(a, q)
                })
            {
                return Some((a, b));
            }
        }
    }
    None
}

/// Brute force aimed at one trooper `x` (shrunk by `margin`): a line from the viewer to the
/// target that it blocks, if any. Evenly spaced heights can all miss a thin raised Silhouette (a
/// Prone trooper up on a roof is a 3 mm slab): here, for each plan line from a viewer point to a
/// target point (side at `heights` heights, top face), the viewer end's height is solved so the
/// line crosses `x`'s disc at its feet, mid-height or top (each nudged inside), at the disc's
/// near edge, middle and far edge; each such line within the viewer's Silhouette that reaches the
/// target as [`brute_blocked_line`]'s do is clipped against `x` alone.
fn brute_aimed_blocked_line(
    viewer: &Body,
    target: &Body,
    x: &Body,
    (margin, heights): (f64, usize),
) -> Option<(Point3, Point3)> {
    let (from, side, top) = brute_lines(viewer, target, heights);
    let (r, z0, z1) = (x.radius() - margin, x.bottom() + margin, x.top() - margin);
    if r <= 0.0 || z1 <= z0 {
        return None;
    }
    let aims = [z0 + 0.02 * (z1 - z0), 0.5 * (z0 + z1), z1 - 0.02 * (z1 - z0)];
    let plan_from: Vec<TablePoint> =
        from.iter().filter(|a| (a.z - viewer.bottom()).abs() < 1e-12).map(|a| a.plan()).collect();
    for a in plan_from {
        for &b in side.iter().chain(top.iter()) {
            let (d, f) = (b.plan() - a, a - x.centre);
            let dd = d.dot(d);
            let (half_b, cc) = (f.dot(d), f.dot(f) - r * r);
            let disc = half_b * half_b - dd * cc;
            if dd < 1e-15 || disc <= 0.0 {
                continue;
            }
            let (t0, t1) = ((-half_b - disc.sqrt()) / dd, (-half_b + disc.sqrt()) / dd);
            let (t0, t1) = (t0.max(0.0), t1.min(1.0));
            if t1 <= t0 {
                continue;
            }
            for t in [t0 + 0.02 * (t1 - t0), 0.5 * (t0 + t1), t1 - 0.02 * (t1 - t0)] {
                for z in aims {
                    // z = za + (zb − za)·t at the crossing.
                    let za = (z - b.z * t) / (1.0 - t);
                    if !(viewer.bottom()..=viewer.top()).contains(&za) {
                        continue;
                    }
                    let a3 = Point3 { x: a.x, y: a.y, z: za };
                    let on_top = (b.z - target.top()).abs() < 1e-12;
                    let reaches = if on_top { top_ok(viewer, target, a3, b) } else { not_from_beneath(target, a3, b) };
                    if reaches
                        && not_out_beneath(viewer, a3, b)
                        && !line_clear(a3, b, &[], std::slice::from_ref(x), margin)
                    {
                        return Some((a3, b));
                    }
                }
            }
        }
    }
    None
}

/// Brute force: a sampled line that is blocked (blockers shrunk by `margin`), if any, over
/// `heights` heights up each Silhouette.
fn brute_blocked_line(
    viewer: &Body,
    target: &Body,
    terrain: &[Terrain],
    others: &[Body],
    (margin, heights): (f64, usize),
) -> Option<(Point3, Point3)> {
    let (from, side, top) = brute_lines(viewer, target, heights);
    from.iter().find_map(|&a| {
        let ends = side.iter().chain(top.iter().filter(|&&b| top_ok(viewer, target, a, b)));
        ends.copied()
            .find(|&b| {
                not_from_beneath(target, a, b)
                    && not_out_beneath(viewer, a, b)
                    && !line_clear(a, b, terrain, others, margin)
            })
            .map(|b| (a, b))
    })
}

fn random_scene(
    troopers: std::ops::Range<usize>,
    pieces: std::ops::Range<usize>,
) -> impl Strategy<Value = (Vec<Body>, Vec<Terrain>)> {
    random_scene_of(&[Silhouette::S1, Silhouette::S2, Silhouette::S5, Silhouette::S7], troopers, pieces)
}

/// [`random_scene`] with troopers of the Silhouettes `sils`.
fn random_scene_of(
    sils: &'static [Silhouette],
    troopers: std::ops::Range<usize>,
    pieces: std::ops::Range<usize>,
) -> impl Strategy<Value = (Vec<Body>, Vec<Terrain>)> {
    let piece = (0.0f64..22.0, 0.0f64..22.0, 0.3f64..6.0, 0.3f64..6.0, 0.4f64..4.0);
    let pieces = prop::collection::vec(piece.prop_map(|(x, y, w, d, h)| (rect(x, y, w, d), h)), pieces);
    scene_with(sils, troopers, pieces)
}

/// Like [`random_scene`], with about two pieces in three concave: an L (a corner cut away) or a
/// U (a notch cut into one side), turned any of four ways.
fn concave_scene(
    troopers: std::ops::Range<usize>,
    pieces: std::ops::Range<usize>,
) -> impl Strategy<Value = (Vec<Body>, Vec<Terrain>)> {
    let size = (0.0f64..20.0, 0.0f64..20.0, 2.0f64..8.0, 2.0f64..8.0, 0.4f64..4.0);
    let cut = (0usize..3, 0.35f64..0.8, 0.35f64..0.8, 0usize..4);
    let piece = (size, cut)
        .prop_map(|((x, y, w, d, h), (shape, fx, fy, turn))| (notched(x, y, w, d, (shape, fx, fy, turn)), h));
    scene_of(troopers, prop::collection::vec(piece, pieces))
}

fn rect(x: f64, y: f64, w: f64, d: f64) -> Vec<TablePoint> {
    let p = TablePoint::new;
    vec![p(x, y), p(x + w, y), p(x + w, y + d), p(x, y + d)]
}

/// The box at `(x, y)`, `w` by `d`, as is (shape 0), with a corner cut away (1: an L) or with a
/// notch cut into one side (2: a U); the cut is `fx`, `fy` of the box, and `turn` mirrors the
/// shape in x, in y or in both.
fn notched(x: f64, y: f64, w: f64, d: f64, (shape, fx, fy, turn): (usize, f64, f64, usize)) -> Vec<TablePoint> {
    let (u, v) = (fx * w, fy * d);
    // In the box's own frame, (0, 0) to (w, d), anticlockwise.
    let local: Vec<(f64, f64)> = match shape {
        1 => vec![(0.0, 0.0), (w, 0.0), (w, v), (u, v), (u, d), (0.0, d)],
        2 => {
            let (a, b) = ((w - u) / 2.0, (w + u) / 2.0);
            vec![(0.0, 0.0), (w, 0.0), (w, d), (b, d), (b, d - v), (a, d - v), (a, d), (0.0, d)]
        }
        _ => vec![(0.0, 0.0), (w, 0.0), (w, d), (0.0, d)],
    };
    let (mx, my) = (turn & 1 == 1, turn & 2 == 2);
    let mut poly: Vec<TablePoint> = local
        .into_iter()
        .map(|(a, b)| TablePoint::new(x + if mx { w - a } else { a }, y + if my { d - b } else { b }))
        .collect();
    // (One mirror turns the outline clockwise: put it back.)
    if mx != my {
        poly.reverse();
    }
    poly
}

/// The troopers that stand clear of every piece and of each other (in plan, with 0.05" to
/// spare: in an L's corner or a U's notch too), among the pieces.
fn scene_of(
    troopers: std::ops::Range<usize>,
    pieces: impl Strategy<Value = Vec<(Vec<TablePoint>, f64)>>,
) -> impl Strategy<Value = (Vec<Body>, Vec<Terrain>)> {
    scene_with(&[Silhouette::S1, Silhouette::S2, Silhouette::S5, Silhouette::S7], troopers, pieces)
}

/// [`scene_of`] with troopers of the Silhouettes `sils`.
fn scene_with(
    sils: &'static [Silhouette],
    troopers: std::ops::Range<usize>,
    pieces: impl Strategy<Value = Vec<(Vec<TablePoint>, f64)>>,
) -> impl Strategy<Value = (Vec<Body>, Vec<Terrain>)> {
    let body = (1.0f64..23.0, 1.0f64..23.0, 0.0f64..360.0, 0usize..sils.len(), prop::bool::weighted(0.15)).prop_map(
        |(x, y, facing, s, all_round)| {
            let sil = sils[s];
            Body::new(TablePoint::new(x, y), sil).facing(facing).with_arc(if all_round {
                Arc::All360
            } else {
                Arc::Front180
            })
        },
    );
    (prop::collection::vec(body, troopers), pieces).prop_map(|(bodies, pieces)| {
        let terrain: Vec<Terrain> = pieces
            .into_iter()
            .enumerate()
            .filter_map(|(i, (polygon, h))| Terrain::new(format!("t{i}"), polygon, h).ok())
            .collect();
        let mut kept: Vec<Body> = Vec::new();
        for b in bodies {
            let clear_of_terrain = terrain.iter().all(|t| clearance(&t.polygon, b.centre) > b.radius() + 0.05);
            let clear_of_others = kept.iter().all(|o| o.centre.dist(b.centre) > o.radius() + b.radius() + 0.05);
            if clear_of_terrain && clear_of_others {
                kept.push(b);
            }
        }
        (kept, terrain)
    })
}

/// How far `p` is from the footprint `poly`, in plan (0 inside).
fn clearance(poly: &[TablePoint], p: TablePoint) -> f64 {
    if even_odd(poly, p) { 0.0 } else { edge_distance(poly, p) }
}

/// How far `p` is from the nearest edge of `poly`, in plan.
fn edge_distance(poly: &[TablePoint], p: TablePoint) -> f64 {
    (0..poly.len())
        .map(|k| {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            let (ab, ap) = (b - a, p - a);
            let t = (ap.dot(ab) / ab.dot(ab)).clamp(0.0, 1.0);
            (a + ab.scale(t)).dist(p)
        })
        .fold(f64::INFINITY, f64::min)
}

/// A piece's bounding box, lower and upper corners.
fn bounds(t: &Terrain) -> ([f64; 2], [f64; 2]) {
    t.polygon.iter().fold(([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]), |(lo, hi), p| {
        ([lo[0].min(p.x), lo[1].min(p.y)], [hi[0].max(p.x), hi[1].max(p.y)])
    })
}

/// Like [`random_scene`], with some troopers up on the pieces (see [`rooftops`]).
fn rooftop_scene(
    troopers: std::ops::Range<usize>,
    pieces: std::ops::Range<usize>,
) -> impl Strategy<Value = (Vec<Body>, Vec<Terrain>)> {
    rooftops(random_scene(troopers, pieces))
}

/// The scenes of `base` with one to three more troopers up at a piece's height, each somewhere
/// over the piece's bounding box: most on its roof, some on its edge with part of the base
/// hanging over (lines pass beneath that part) — on an L or a U, in its corner or over its
/// notch too.
fn rooftops(
    base: impl Strategy<Value = (Vec<Body>, Vec<Terrain>)>,
) -> impl Strategy<Value = (Vec<Body>, Vec<Terrain>)> {
    let up = (0usize..100, 0.0f64..1.0, 0.0f64..1.0, 0usize..4, 0.0f64..360.0);
    (base, prop::collection::vec(up, 1..4)).prop_map(|((mut bodies, terrain), ups)| {
        for (k, fx, fy, s, facing) in ups {
            let Some(t) = terrain.get(k % terrain.len().max(1)) else { continue };
            let ([x0, y0], [x1, y1]) = bounds(t);
            let sil = [Silhouette::S1, Silhouette::S2, Silhouette::S5, Silhouette::S7][s];
            let b = Body::new(TablePoint::new(x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)), sil)
                .facing(facing)
                .elevated(t.height_in);
            // Clear of the other pieces and of the other troopers, in plan.
            let clear_of_terrain = terrain
                .iter()
                .filter(|o| !std::ptr::eq(*o, t))
                .all(|o| clearance(&o.polygon, b.centre) > b.radius() + 0.05);
            let clear_of_others = bodies.iter().all(|o| o.centre.dist(b.centre) > o.radius() + b.radius() + 0.05);
            if clear_of_terrain && clear_of_others {
                bodies.push(b);
            }
        }
        (bodies, terrain)
    })
}

/// How many raised troopers of `scenes` scenes from `strategy` a piece holds whole (the base
/// clear of every edge, inside the footprint) and how many hang over an edge, or a notch.
fn held_and_hanging(strategy: impl Strategy<Value = (Vec<Body>, Vec<Terrain>)>, scenes: usize) -> (usize, usize) {
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &seed()));
    let (mut held, mut hanging) = (0, 0);
    for _ in 0..scenes {
        let (bodies, terrain) = strategy.new_tree(&mut runner).expect("scene").current();
        for b in bodies.iter().filter(|b| b.bottom() > 0.0) {
            let on = |t: &Terrain| even_odd(&t.polygon, b.centre) && edge_distance(&t.polygon, b.centre) >= b.radius();
            if terrain.iter().any(on) { held += 1 } else { hanging += 1 }
        }
    }
    (held, hanging)
}

#[test]
fn lof_agrees_with_brute_force_with_troopers_on_rooftops() {
    // (Lines may have to slip between a wall's top and a raised trooper's feet: the brute force
    // samples 9 heights up each Silhouette instead of 3 when it looks for a line the verdict
    // missed, and 5 when it looks for a blocked line behind a "clear": a raised trooper's
    // Silhouette blocks a band of heights, which 5 heights at each end cross.)
    check_against_brute_force(rooftop_scene(3..6, 3..7), 30, 150, (9, 5));
    // (The scenes do hold raised troopers, whole bases on roofs and bases hanging over edges:
    // checked after the scenes, so that another seed, `SIGHTLINE_LOF_SEED`, that draws too few
    // of either still has its verdicts checked.)
    let (held, hanging) = held_and_hanging(rooftop_scene(3..6, 3..7), 30);
    assert!(held >= 5 && hanging >= 5, "{held} held, {hanging} hanging");
}

/// Prone troopers up on the pieces (a sniper lying on a roof), whole or hanging over an edge
/// (a 3 mm slab that lines may pass beneath), among standing and prone ones on the table.
#[test]
fn lof_agrees_with_brute_force_with_prone_troopers_on_rooftops() {
    let scenes = rooftop_scene(3..6, 3..7).prop_map(|(bodies, terrain)| {
        let prone = |k: usize, b: &Body| b.bottom() > 0.0 || k.is_multiple_of(2);
        (bodies.iter().enumerate().map(|(k, b)| b.lying(prone(k, b))).collect(), terrain)
    });
    check_against_brute_force(scenes, 20, 100, (9, 5));
}

/// Troopers up on L- and U-shaped pieces: held in a corner, hanging over a notch.
#[test]
fn lof_agrees_with_brute_force_with_troopers_on_concave_rooftops() {
    check_against_brute_force(rooftops(concave_scene(3..6, 3..7)), 16, 100, (9, 5));
    // (Checked after the scenes, as above.)
    let (held, hanging) = held_and_hanging(rooftops(concave_scene(3..6, 3..7)), 16);
    assert!(held >= 2 && hanging >= 5, "{held} held, {hanging} hanging");
}

/// Troopers up on a box, an L or a U with their bases hanging over its edge (or over a notch),
/// and troopers on the table close by, below them: the lines from a raised trooper leave its
/// base above its feet and run down beside the piece it stands on, the lines to it come up to
/// its rim past that piece's edge (brute force seeds 1068, 1070, 1076: the piece was named).
/// Seed 4 of this family still fails, on a trooper: an S2 on the table beside the lines from an
/// S1 up to an S7 on a roof is named, by the lowest-line estimate, though it blocks no line
/// (over-naming between levels, older than this family; see issue 2's notes).
fn hanging_scene() -> impl Strategy<Value = (Vec<Body>, Vec<Terrain>)> {
    let sil = |s: usize| [Silhouette::S1, Silhouette::S2, Silhouette::S5, Silhouette::S7][s];
    // Where on the piece's box outline (a fraction of the way round), how far inside it (a
    // fraction of the radius, less than one: the base hangs over), the Silhouette, the facing.
    let up = (0.0f64..1.0, -0.3f64..0.95, 0usize..4, 0.0f64..360.0);
    // Below: the direction and distance (inches) from the raised trooper, Silhouette, facing.
    let below = (0.0f64..360.0, 0.8f64..4.0, 0usize..4, 0.0f64..360.0);
    (concave_scene(0..1, 1..3), prop::collection::vec(up, 1..3), prop::collection::vec(below, 4..8)).prop_map(
        move |((_, terrain), ups, belows)| {
            let mut bodies: Vec<Body> = Vec::new();
            let clear = |bodies: &[Body], b: &Body, skip: Option<usize>| {
                let terrain_ok = terrain
                    .iter()
                    .enumerate()
                    .all(|(k, t)| Some(k) == skip || clearance(&t.polygon, b.centre) > b.radius() + 0.05);
                terrain_ok && bodies.iter().all(|o| o.centre.dist(b.centre) > o.radius() + b.radius() + 0.05)
            };
            for (k, (round, inside, s, facing)) in ups.into_iter().enumerate() {
                let t = &terrain[k % terrain.len()];
                let ([x0, y0], [x1, y1]) = bounds(t);
                let (w, d) = (x1 - x0, y1 - y0);
                // (A point of the box's outline, and the inward normal there.)
                let along = round * 2.0 * (w + d);
                let (p, n) = if along < w {
                    (TablePoint::new(x0 + along, y0), TablePoint::new(0.0, 1.0))
                } else if along < w + d {
                    (TablePoint::new(x1, y0 + along - w), TablePoint::new(-1.0, 0.0))
                } else if along < 2.0 * w + d {
                    (TablePoint::new(x1 - (along - w - d), y1), TablePoint::new(0.0, -1.0))
                } else {
                    (TablePoint::new(x0, y1 - (along - 2.0 * w - d)), TablePoint::new(1.0, 0.0))
                };
                let r = sil(s).radius_in();
                let b = Body::new(p + n.scale(inside * r), sil(s)).facing(facing).elevated(t.height_in);
                if clear(&bodies, &b, Some(k % terrain.len())) {
                    bodies.push(b);
                }
            }
            let Some(&first) = bodies.first() else { return (bodies, terrain) };
            for (angle, dist, s, facing) in belows {
                let u = TablePoint::new(angle.to_radians().cos(), angle.to_radians().sin());
                let b = Body::new(first.centre + u.scale(dist), sil(s)).facing(facing);
                if clear(&bodies, &b, None) {
                    bodies.push(b);
                }
            }
            (bodies, terrain)
        },
    )
}

#[test]
fn lof_agrees_with_brute_force_with_troopers_hanging_over_edges_above_others() {
    check_against_brute_force(hanging_scene(), 30, 150, (9, 5));
}

/// Two troopers with a wall between them and, beyond it, a trooper up on a ledge with most of
/// its base hanging over the line between them: the lines that pass must run over the wall and
/// under the raised trooper's feet, lower than the best lines there and higher than the low ones.
fn slit_scene() -> impl Strategy<Value = (Vec<Body>, Vec<Terrain>)> {
    let sil = |s: usize| [Silhouette::S1, Silhouette::S2, Silhouette::S5, Silhouette::S7][s];
    // (Small troopers at the ends, so that their best lines run into a larger raised one.)
    let ends = (0usize..2, 0usize..2, -20.0f64..20.0, -0.3f64..0.3, 13.0f64..16.0);
    let wall = (4.0f64..7.0, 0.2f64..1.0, 0.6f64..1.4);
    let raised = (2usize..4, 8.5f64..11.0, -0.2f64..0.2, 0.05f64..0.6, prop::bool::ANY);
    (ends, wall, raised).prop_map(move |((sv, st, turn, dy, tx), (wx, ww, wh), (sr, rx, ry, gap, low_side))| {
        let at = TablePoint::new;
        let viewer = Body::new(at(2.0, 10.0), sil(sv)).facing(turn);
        let target = Body::new(at(tx, 10.0 + dy), sil(st)).facing(180.0 + turn);
        let up = Body::new(at(rx, 10.0 + ry), sil(sr)).facing(180.0).elevated(wh + gap);
        let r = up.radius();
        // The ledge holds the far edge of the base only (below or above the line, as drawn).
        let (y0, y1) = if low_side {
            (up.centre.y - r - 0.5, up.centre.y - 0.6 * r)
        } else {
            (up.centre.y + 0.6 * r, up.centre.y + r + 0.5)
        };
        let terrain = [
            Terrain::rect("wall", wx, 7.0, wx + ww, 13.0, wh),
            Terrain::rect("ledge", rx - r, y0, rx + r, y1, wh + gap),
        ];
        (vec![viewer, target, up], terrain.into_iter().filter_map(Result::ok).collect())
    })
}

/// Lines that must slip between a wall's top and a raised trooper's feet are found (the brute
/// force samples 12 heights up each Silhouette here, both ways).
#[test]
fn lof_agrees_with_brute_force_through_slits_beneath_raised_troopers() {
    check_against_brute_force(slit_scene(), 40, 200, (12, 12));
}

/// [`slit_scene`] with the wall made a U twice as thick, its notch cut in from one end past
/// the line between the two troopers: lines cross the wall twice, over each arm.
fn u_slit_scene() -> impl Strategy<Value = (Vec<Body>, Vec<Terrain>)> {
    (slit_scene(), (0.3f64..0.6, 0.6f64..0.9, 0usize..4)).prop_map(|((bodies, mut terrain), (fx, fy, turn))| {
        for t in terrain.iter_mut().filter(|t| t.id == "wall") {
            let ([x0, y0], [x1, y1]) = bounds(t);
            let polygon = notched(x0, y0, 2.0 * (x1 - x0), y1 - y0, (2, fx, fy, turn & 2));
            *t = Terrain::new("wall", polygon, t.height_in).expect("a U-shaped wall");
        }
        (bodies, terrain)
    })
}

/// Lines must slip over both arms of a U-shaped wall and under a raised trooper's feet.
#[test]
fn lof_agrees_with_brute_force_through_slits_over_concave_walls() {
    check_against_brute_force(u_slit_scene(), 30, 150, (12, 12));
}

/// L- and U-shaped pieces: lines pass through their notches, and along and around their
/// inner corners.
#[test]
fn lof_agrees_with_brute_force_among_concave_pieces() {
    check_against_brute_force(concave_scene(4..7, 3..7), 30, 200, (3, 3));
}

#[test]
fn lof_agrees_with_brute_force_over_random_scenes() {
    check_against_brute_force(random_scene(3..5, 2..5), 40, 200, (3, 3));
}

/// Every other trooper Prone: 3 mm tall on its own base, seen over by the rest, hidden by every
/// piece, and looking out from just above the table.
#[test]
fn lof_agrees_with_brute_force_with_prone_troopers() {
    let scenes = random_scene(4..7, 3..7).prop_map(|(bodies, terrain)| {
        (bodies.into_iter().enumerate().map(|(k, b)| b.lying(k % 2 == 0)).collect(), terrain)
    });
    check_against_brute_force(scenes, 30, 200, (3, 3));
}

/// The Silhouettes the other tests leave out: S0 markers (3 mm on 25 mm), S3 and S6 (40 mm
/// bases, 32 and 55 mm tall), S4 (55 mm, 32 mm tall), S8 (70 mm, the largest base).
#[test]
fn lof_agrees_with_brute_force_with_every_silhouette() {
    use Silhouette::*;
    check_against_brute_force(random_scene_of(&[S0, S3, S4, S6, S8, S2], 4..7, 3..7), 30, 200, (3, 3));
}

#[test]
fn lof_agrees_with_brute_force_over_cluttered_scenes() {
    // More troopers and pieces on the same 24" table: chains of blockers, cover from several pieces.
    check_against_brute_force(random_scene(6..8, 6..10), 10, 100, (3, 3));
}

/// Seed for the random scenes (change it, or set `SIGHTLINE_LOF_SEED`, to explore others).
/// How much nearer than any line a piece or trooper a partial LoF names may be, inches (1 mm):
/// `line_of_fire` stands a circumscribed 16-gon in for each base outline, at most 2% of the
/// radius (0.021" for a 55 mm base) outside the circle, and the brute force's lines are 1 mm
/// apart, so a piece that only grazes the lines may not be met by one of them.
const GRAZE_IN: f64 = 1.0 / 25.4;

/// Heights up each Silhouette at which the brute force looks for the lines a named piece or
/// trooper blocks.
const LIST_HEIGHTS: usize = 5;

/// Whether piece or trooper `x` comes near enough to the lines from `viewer` to `target` to
/// block one (within both bases' larger radius of the segment between their centres, plus
/// `GRAZE_IN`: every line lies within that radius of the segment). Checked at points 0.1"
/// apart along the segment, each allowed 0.05" more.
fn near_the_lines(viewer: &Body, target: &Body, x: Blocker, terrain: &[Terrain], bodies: &[Body]) -> bool {
    let reach = viewer.radius().max(target.radius()) + GRAZE_IN + 0.05;
    let (a, b) = (viewer.centre, target.centre);
    let steps = (a.dist(b) / 0.1).ceil().max(1.0) as usize;
    (0..=steps).map(|k| a.lerp(b, k as f64 / steps as f64)).any(|p| match x {
        Blocker::Terrain(k) => clearance(&terrain[k].polygon, p) < reach,
        Blocker::Trooper(k) => p.dist(bodies[k].centre) < reach + bodies[k].radius(),
    })
}

const SEED: [u8; 32] = *b"sightline-lof-brute-force-seed-1";

fn seed() -> [u8; 32] {
    let mut seed = SEED;
    if let Some(n) = std::env::var("SIGHTLINE_LOF_SEED").ok().and_then(|v| v.parse::<u64>().ok()) {
        for (b, x) in seed.iter_mut().zip(n.to_le_bytes()) {
            *b ^= x;
        }
    }
    seed
}

/// Checks `line_of_fire` on every ordered pair of `scenes` scenes from `strategy` (more than
/// `min_pairs` pairs in all): the brute force samples `heights` heights up each Silhouette when
/// it looks for a line behind a "no LoF", and `clear_heights` when it looks for a blocked line
/// behind a "clear".
fn check_against_brute_force(
    strategy: impl Strategy<Value = (Vec<Body>, Vec<Terrain>)>,
    scenes: usize,
    min_pairs: usize,
    (heights, clear_heights): (usize, usize),
) {
    // A fixed seed: the same scenes on every run, so a failure can be reproduced.
    let mut runner = TestRunner::new_with_rng(
        Config { cases: scenes as u32, ..Config::default() },
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed()),
    );
    let (mut pairs, mut disagreements) = (0usize, Vec::new());
    for _ in 0..scenes {
        let (bodies, terrain) = strategy.new_tree(&mut runner).expect("scene").current();
        let obstacles = Obstacles::new(&terrain, &bodies);
        for i in 0..bodies.len() {
            for j in 0..bodies.len() {
                if i != j {
                    pairs += 1;
                    check_pair(&obstacles, (&bodies, &terrain), (i, j), (heights, clear_heights), &mut disagreements);
                }
            }
        }
    }
    assert!(pairs > min_pairs, "too few pairs checked: {pairs}");
    assert!(
        disagreements.is_empty(),
        "{} of {pairs} pairs disagree:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

/// How far a witness may reach into a blocker and still be checked clear, inches. A line that
/// only touches a blocker is not blocked (README, "Line of Fire": a line grazing a corner passes,
/// and a line at a piece's height passes over it), and `line_of_fire`'s own test lets a line by
/// that is within 1e-9" of a top or overlaps a footprint for at most 1e-9 of its length (under
/// 1e-7" on a 48" × 48" table). So a witness is checked with every blocker shrunk by this much:
/// far below anything a player can see, far above rounding. (It was "grown by 1e-6"", which no
/// search promises: see [`a_witness_that_touches_a_wall_top_is_clear`].)
const WITNESS_TOUCH_IN: f64 = 1e-7;

/// Checks `line_of_fire` from trooper `i` to trooper `j` of the scene against the brute force
/// (see [`check_against_brute_force`]), adding what disagrees to `disagreements`.
fn check_pair(
    obstacles: &Obstacles,
    (bodies, terrain): (&[Body], &[Terrain]),
    (i, j): (usize, usize),
    (heights, clear_heights): (usize, usize),
    disagreements: &mut Vec<String>,
) {
    let others: Vec<Body> = (0..bodies.len()).filter(|&k| k != i && k != j).map(|k| bodies[k]).collect();
    let ours = line_of_fire(obstacles, &bodies[i], &bodies[j], &[i, j]);
    let (v, t) = (&bodies[i], &bodies[j]);
    // (iii) LoF always comes with a witness, and every witness is a really clear line
    // (exact clipping) from the viewer's front half to the target's 3 mm-below-top
    // part in the arc. So a "yes" can never be wrong unseen.
    assert_eq!(ours.lof.has_lof(), ours.witness.is_some(), "{i}->{j}: {:?}", ours.lof);
    if let Some([a, b]) = ours.witness {
        let scene = format!("{i}->{j}: witness {a:?} -> {b:?}; scene {bodies:?} {terrain:?}");
        // (A piece no higher than both ends cannot be entered, only touched — by a
        // witness ending on the feet of a Prone trooper lying on it, say — and a touch
        // does not block: such pieces are left out, not grown into the line.)
        let enterable: Vec<Terrain> = terrain.iter().filter(|p| p.height_in > a.z.min(b.z)).cloned().collect();
        assert!(line_clear(a, b, &enterable, &others, WITNESS_TOUCH_IN), "blocked {scene}");
        assert!(a.plan().dist(v.centre) <= v.radius() + 1e-6 && in_front(v, a.plan()), "start {scene}");
        assert!(a.z >= v.bottom() - 1e-9 && a.z <= v.top() + 1e-9, "start height {scene}");
        assert!(b.plan().dist(t.centre) <= t.radius() + 1e-6 && in_front(v, b.plan()), "end {scene}");
        // On the side up to 3 mm below the top, or on the top face with 3 mm of it beyond.
        let side = b.z >= t.bottom() - 1e-9 && b.z <= t.top() - MIN_VISIBLE_IN + 1e-9;
        let top = (b.z - t.top()).abs() <= 1e-9 && top_ok(v, t, a, b);
        assert!(side || top, "end height {scene}");
    }
    // (i) A "no" must not miss a 3 mm piece of the target that the brute force sees
    // clear even with every blocker grown by 0.005" (lines that merely graze a blocker
    // may go either way).
    if !ours.lof.has_lof()
        && let Some(line) = brute_line(v, t, terrain, &others, (-0.005, heights))
    {
        disagreements.push(format!(
            "{i}->{j}: ours {:?}, but the brute force sees it along {line:?}; scene {bodies:?} {terrain:?}",
            ours.lof
        ));
    }
    // "Clear" means no line is blocked: every sampled line must be clear with every
    // blocker shrunk by 0.005".
    if ours.lof == Lof::Clear
        && let Some(line) = brute_blocked_line(v, t, terrain, &others, (0.005, clear_heights))
    {
        disagreements.push(format!(
            "{i}->{j}: ours Clear, but the brute force finds {line:?} blocked; scene {bodies:?} {terrain:?}"
        ));
    }
    // A partial LoF names what blocks: each piece or trooper named blocks some line
    // (grown by `GRAZE_IN`: the bases' outlines are circumscribed polygons), and each
    // that blocks a line even shrunk by 0.005" is named.
    if let Lof::Partial { blocked_by } = &ours.lof {
        let candidates = (0..terrain.len())
            .map(Blocker::Terrain)
            .chain((0..bodies.len()).filter(|&k| k != i && k != j).map(Blocker::Trooper));
        for x in candidates {
            let named = blocked_by.contains(&x);
            if !named && !near_the_lines(v, t, x, terrain, bodies) {
                continue;
            }
            let blocks = |margin: f64| {
                let (pieces, troopers) = match x {
                    Blocker::Terrain(k) => (std::slice::from_ref(&terrain[k]), &[][..]),
                    Blocker::Trooper(k) => (&[][..], std::slice::from_ref(&bodies[k])),
                };
                brute_blocked_line(v, t, pieces, troopers, (margin, LIST_HEIGHTS)).is_some()
                    || matches!(x, Blocker::Trooper(k)
                        if brute_aimed_blocked_line(v, t, &bodies[k], (margin, LIST_HEIGHTS)).is_some())
            };
            if named && !blocks(-GRAZE_IN) {
                disagreements.push(format!(
                    "{i}->{j}: ours {:?}, but {x:?} blocks no line; scene {bodies:?} {terrain:?}",
                    ours.lof
                ));
            } else if !named && blocks(0.005) {
                disagreements.push(format!(
                    "{i}->{j}: ours {:?}, but {x:?} blocks a line; scene {bodies:?} {terrain:?}",
                    ours.lof
                ));
            }
        }
    }
}

/// A Prone S1 up on a narrow piece, its 3 mm slab across the lines from a tall S7 to a Prone
/// S5 on the table (the case that made partial lists look over-named on seeds 7 and 10): the
/// evenly spaced heights all pass above or below the slab, the aimed lines find one it blocks.
#[test]
fn aimed_lines_find_what_a_thin_raised_trooper_blocks() {
    let at = TablePoint::new;
    let viewer = Body::new(at(3.2647, 11.6547), Silhouette::S7).facing(304.293);
    let target = Body::new(at(20.7433, 2.2675), Silhouette::S5).facing(314.934).lying(true);
    let slab = Body::new(at(7.0507, 10.0925), Silhouette::S1).facing(149.144).elevated(0.82603).lying(true);
    let others = std::slice::from_ref(&slab);
    assert_eq!(brute_blocked_line(&viewer, &target, &[], others, (-GRAZE_IN, LIST_HEIGHTS)), None);
    // (Even grown by 1 mm the slab is missed; aimed at it as it is, a line is found.)
    let (a, b) = brute_aimed_blocked_line(&viewer, &target, &slab, (0.0, LIST_HEIGHTS)).expect("an aimed line");
    assert!(segment_hits_cylinder(a, b, slab.centre, slab.radius(), slab.bottom(), slab.top()), "{a:?} -> {b:?}");
    assert!(a.z >= viewer.bottom() && a.z <= viewer.top() && in_front(&viewer, a.plan()), "{a:?}");
}

/// The witness check lets a line touch a blocker, and only touch: a line along a wall's top is
/// clear, one `2 · WITNESS_TOUCH_IN` below it is not. And the scene of seed 141 of
/// [`lof_agrees_with_brute_force_through_slits_over_concave_walls`], where sightline's witness
/// from the S1 to the S2 passes 6.7e-7" over the top of the U-shaped wall's arm (the highest
/// lines to the S2's chord all cross the arm's near face, which is parallel to the chord, at the
/// same height, a hair over its top), agrees with the brute force.
#[test]
fn a_witness_that_touches_a_wall_top_is_clear() {
    let at = TablePoint::new;
    let wall = vec![Terrain::rect("wall", 5.0, 0.0, 6.0, 20.0, 1.0).expect("valid")];
    let line = |z: f64| (Point3 { x: 1.0, y: 10.0, z }, Point3 { x: 10.0, y: 10.0, z });
    let (a, b) = line(1.0);
    assert!(line_clear(a, b, &wall, &[], WITNESS_TOUCH_IN));
    let (a, b) = line(1.0 - 2.0 * WITNESS_TOUCH_IN);
    assert!(!line_clear(a, b, &wall, &[], WITNESS_TOUCH_IN));

    let bodies = vec![
        Body::new(at(2.0, 10.0), Silhouette::S2).facing(0.09165942534452633),
        Body::new(at(15.762081154769001, 9.994752506999603), Silhouette::S1).facing(180.09165942534452),
        Body::new(at(8.912313576711677, 9.936759442306668), Silhouette::S5).facing(180.0).elevated(1.8705804917140778),
    ];
    let (x0, x1, x2, x3) = (4.447231757047008, 4.758613805042881, 5.462118117442193, 5.773500165438066);
    let u = [(x0, 7.0), (x3, 7.0), (x3, 13.0), (x2, 13.0), (x2, 7.702801159986423), (x1, 7.702801159986423)];
    let u: Vec<TablePoint> = u.into_iter().chain([(x1, 13.0), (x0, 13.0)]).map(|(x, y)| at(x, y)).collect();
    let (lx0, ly0, lx1, ly1) = (8.124912001908527, 8.649357867503518, 9.699715151514827, 9.46431849742478);
    let terrain = vec![
        Terrain::new("wall", u, 1.327155285355918).expect("a U-shaped wall"),
        Terrain::rect("ledge", lx0, ly0, lx1, ly1, 1.8705804917140778).expect("valid"),
    ];
    let obstacles = Obstacles::new(&terrain, &bodies);
    let mut disagreements = Vec::new();
    for (i, j) in (0..3).flat_map(|i| (0..3).map(move |j| (i, j))).filter(|(i, j)| i != j) {
        check_pair(&obstacles, (&bodies, &terrain), (i, j), (12, 12), &mut disagreements);
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// Brute-force rooftops seed 403 (session 16): a Prone TAG lies on a ledge with most of its base
/// hanging over the edge, towards a Prone trooper below. The ledge reaches only under its base:
/// the only lines it blocks drop out through the TAG's own soles, and those are not looked at
/// (assumption UNDERSIDE, the viewer's side). sightline named the ledge in a partial list there
/// (and, on the concave rooftops, failed to name one in the mirror case, both found by the brute
/// force counting lines from the soles).
#[test]
fn a_ledge_only_beneath_a_hanging_viewer_blocks_no_line() {
    let at = TablePoint::new;
    // (From the viewer's soles straight down and away: out beneath; from its rim outwards at
    // its feet: not.)
    let v = Body::new(at(0.0, 0.0), Silhouette::S2).elevated(2.0);
    let down = |x: f64, z: f64| (Point3 { x, y: 0.0, z }, Point3 { x: 10.0, y: 0.0, z: 0.0 });
    let (a, b) = down(-0.3, 2.0);
    assert!(!not_out_beneath(&v, a, b));
    let (a, b) = down(v.radius(), 2.0);
    assert!(not_out_beneath(&v, a, b));
    let (a, b) = down(-v.radius(), v.top());
    assert!(not_out_beneath(&v, a, b), "through the Silhouette, out of its far side above the feet");

    let bodies = vec![
        Body::new(at(5.374564848589796, 1.7939633567150355), Silhouette::S2).facing(308.9775118509576).lying(true),
        Body::new(at(14.548464154555493, 17.04676078873297), Silhouette::S5).facing(326.33719630041077),
        Body::new(at(10.937928978004111, 8.33283921986863), Silhouette::S1).facing(178.1532226311434).lying(true),
        Body::new(at(4.160552281157746, 7.340537536126889), Silhouette::S7).facing(354.65907138748145),
        Body::new(at(7.812092441515087, 9.58716811210856), Silhouette::S7)
            .facing(289.76411559898156)
            .elevated(1.9633488995026267)
            .lying(true),
    ];
    let rect = |id: &str, (x0, x1): (f64, f64), (y0, y1): (f64, f64), h: f64| {
        Terrain::rect(id, x0, y0, x1, y1, h).expect("valid")
    };
    let terrain = vec![
        rect("t0", (4.075661594289144, 5.1764850635466155), (8.853984127867525, 11.392715386370615), 2.913959789605162),
        rect("t1", (11.128035785449637, 11.441745954873312), (2.8750977285679813, 5.7204239394281), 2.525496911522497),
        rect("t2", (7.187290801736852, 9.196356628183064), (9.35295388586462, 13.581138683145541), 1.9633488995026267),
        rect(
            "t3",
            (7.173660357291834, 10.548504687738914),
            (11.429660285362635, 13.05286865366248),
            0.46906977651290666,
        ),
        rect(
            "t4",
            (0.36101622175757064, 4.067478681134986),
            (9.807729510361394, 12.541497598073152),
            1.5753054366012238,
        ),
        rect(
            "t5",
            (8.49284284761416, 11.133394180702794),
            (17.872038768336953, 23.798499689792642),
            2.4545265692137708,
        ),
    ];
    let obstacles = Obstacles::new(&terrain, &bodies);
    let ours = line_of_fire(&obstacles, &bodies[4], &bodies[0], &[4, 0]);
    assert!(ours.lof.has_lof() && !ours.lof.blockers().contains(&Blocker::Terrain(2)), "{:?}", ours.lof);
    let mut disagreements = Vec::new();
    for j in [0, 1, 2, 3] {
        check_pair(&obstacles, (&bodies, &terrain), (4, j), (9, 5), &mut disagreements);
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// A raised viewer standing on a piece, its base hanging over the piece's edge, sees a target on
/// the table below: the piece is under the viewer's base, and every line that leaves the viewer
/// above its feet runs down over the table beside the piece, so the piece blocks none and the LoF
/// is clear (brute force seeds 1068, 1070 and 1076, where it was named, partial):
/// - a U-shaped building, the target in its notch and the viewer on one arm: the estimate of the
///   lowest lines was taken over the U clipped whole to the hull of both bases, and the clipping
///   left seams along the hull's edges, through the notch, that counted as building (now each
///   convex part is clipped);
/// - a plain roof, the viewer 0.22" from its edge: the hull of the bases' outline polygons (2%
///   outside the circles) reached over the roof where no line from the true base does (now only
///   the hull moved in by that much names a piece at once; beyond it a sampled line must).
#[test]
fn a_piece_under_a_hanging_viewer_only_is_not_named_for_a_target_below() {
    let at = TablePoint::new;
    let rect = |id: &str, (x0, x1): (f64, f64), (y0, y1): (f64, f64), h: f64| {
        Terrain::rect(id, x0, y0, x1, y1, h).expect("valid")
    };
    let u = |id: &str, pts: &[(f64, f64)], h: f64| {
        Terrain::new(id, pts.iter().map(|&(x, y)| at(x, y)).collect(), h).expect("valid")
    };
    let scenes = [
        (
            vec![
                Body::new(at(12.49, 22.71), Silhouette::S7).facing(65.0).elevated(2.521),
                Body::new(at(14.71, 22.04), Silhouette::S2).facing(72.13),
            ],
            vec![u(
                "u",
                &[
                    (10.41, 18.64),
                    (17.54, 18.64),
                    (17.54, 24.73),
                    (15.27, 24.73),
                    (15.27, 21.32),
                    (12.69, 21.32),
                    (12.69, 24.73),
                    (10.41, 24.73),
                ],
                2.521,
            )],
        ),
        (
            vec![
                Body::new(at(2.81, 13.81), Silhouette::S5).facing(204.58).elevated(3.788),
                Body::new(at(1.93, 16.82), Silhouette::S2).facing(241.64),
            ],
            vec![u(
                "u",
                &[
                    (1.07, 10.7),
                    (3.13, 10.7),
                    (3.13, 17.71),
                    (2.85, 17.71),
                    (2.85, 13.53),
                    (1.35, 13.53),
                    (1.35, 17.71),
                    (1.07, 17.71),
                ],
                3.788,
            )],
        ),
        (
            vec![
                Body::new(at(11.38, 14.47), Silhouette::S7).facing(190.94).elevated(2.995),
                Body::new(at(11.28, 12.44), Silhouette::S2).facing(263.89),
            ],
            vec![rect("roof", (6.74, 12.05), (14.25, 20.21), 2.995)],
        ),
    ];
    for (k, (bodies, terrain)) in scenes.iter().enumerate() {
        let obstacles = Obstacles::new(terrain, bodies);
        let ours = line_of_fire(&obstacles, &bodies[0], &bodies[1], &[0, 1]);
        assert_eq!(ours.lof, Lof::Clear, "scene {k}");
        let mut disagreements = Vec::new();
        check_pair(&obstacles, (bodies, terrain), (0, 1), (9, 5), &mut disagreements);
        assert!(disagreements.is_empty(), "scene {k}: {}", disagreements.join("\n"));
    }
}

#[test]
fn a_3mm_gap_between_two_walls_is_never_missed() {
    // Two tall walls leave a gap 3 mm wide on the line between two S2 troopers, at several
    // offsets across the bases and several distances: LoF must be found every time, and closing
    // the gap must block it.
    let gap = 3.0 / 25.4;
    for offset in [-0.4, -0.2, 0.0, 0.13, 0.31, 0.45] {
        for wall_x in [3.0, 6.0, 9.0] {
            let y = 10.0 + offset;
            let walls = vec![
                Terrain::rect("lower", wall_x, 0.0, wall_x + 0.5, y - gap / 2.0, 5.0).expect("valid"),
                Terrain::rect("upper", wall_x, y + gap / 2.0, wall_x + 0.5, 20.0, 5.0).expect("valid"),
            ];
            let bodies = vec![
                Body::new(TablePoint::new(1.0, 10.0), Silhouette::S2),
                Body::new(TablePoint::new(12.0, 10.0), Silhouette::S2).facing(180.0),
            ];
            let obs = Obstacles::new(&walls, &bodies);
            let r = line_of_fire(&obs, &bodies[0], &bodies[1], &[0, 1]);
            assert!(r.lof.has_lof(), "3 mm gap at offset {offset} wall {wall_x}: {:?}", r.lof);
            let closed = vec![Terrain::rect("solid", wall_x, 0.0, wall_x + 0.5, 20.0, 5.0).expect("valid")];
            let obs = Obstacles::new(&closed, &bodies);
            assert!(!line_of_fire(&obs, &bodies[0], &bodies[1], &[0, 1]).lof.has_lof());
        }
    }
}

/// The brute force on a scene file of `sightline measure`'s format (rectilinear pieces only):
/// `SIGHTLINE_LOF_SCENE=PATH`, and optionally `SIGHTLINE_LOF_PAIRS="a1:b2 b3:a4"` for some
/// ordered pairs only (all of them otherwise). Ignored by default: a 60-trooper scene has 3,540
/// pairs, minutes of brute force. `cargo test --release --test lof_brute_force -- --ignored scene_file`
#[test]
#[ignore]
fn lof_agrees_with_brute_force_on_a_scene_file() {
    let path = std::env::var("SIGHTLINE_LOF_SCENE").expect("SIGHTLINE_LOF_SCENE: a scene file");
    let text = std::fs::read_to_string(&path).expect("a readable scene file");
    let scene = sightline::geometry::Scene::from_json(&text).expect("a valid scene");
    let (bodies, terrain) = (scene.bodies(), scene.terrain.clone());
    let index = |id: &str| scene.trooper_index(id).unwrap_or_else(|| panic!("no trooper {id} in {path}"));
    let pairs: Vec<(usize, usize)> = match std::env::var("SIGHTLINE_LOF_PAIRS") {
        Ok(list) => list
            .split_whitespace()
            .map(|p| p.split_once(':').map(|(a, b)| (index(a), index(b))).expect("pairs as FROM:TO"))
            .collect(),
        Err(_) => {
            (0..bodies.len()).flat_map(|i| (0..bodies.len()).map(move |j| (i, j))).filter(|(i, j)| i != j).collect()
        }
    };
    let obstacles = Obstacles::new(&terrain, &bodies);
    let mut disagreements = Vec::new();
    for &(i, j) in &pairs {
        check_pair(&obstacles, (&bodies, &terrain), (i, j), (9, 5), &mut disagreements);
    }
    assert!(!pairs.is_empty(), "no pairs to check");
    assert!(
        disagreements.is_empty(),
        "{} of {} pairs disagree:\n{}",
        disagreements.len(),
        pairs.len(),
        disagreements.join("\n")
    );
}
