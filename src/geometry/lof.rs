//! Line of Fire between Silhouette cylinders among terrain and other troopers (2.5D).
//!
//! N4 "Line of Fire" (digest §2): A has LoF to B when
//! 1. some part of B's Silhouette is inside A's front arc (the half-plane in front of the line
//!    through A's base centre, perpendicular to its facing; 360° arcs skip this), and
//! 2. some straight line from A's Silhouette — its front half — to B's Silhouette is unblocked,
//!    and A sees at least a 3×3 mm piece of B.
//!
//! Blockers are terrain pieces (a footprint raised to a height) and every other trooper's
//! Silhouette, friend or enemy. Heights count: a line passes a piece where its height at the
//! crossing is at or above the piece's height.
//!
//! # How "any line" is decided
//! * **Reachable line set.** Lines run from a point of A's front half-cylinder to a point of B's
//!   cylinder inside A's arc, at most [`MIN_VISIBLE_IN`] below B's top (so a line that finds B
//!   sees a piece at least 3 mm tall: everything between that point and the top is seen too).
//! * **Heights.** Terrain is solid from the table up, so raising either end of a line only helps
//!   it clear terrain: in plan, the highest line (A's top to B's top less 3 mm) is the best one.
//!   Only an elevated trooper can be passed underneath; when one is in the way, low and middle
//!   lines are tried as well.
//! * **Plan.** A line can be cut back to where it leaves A's base and enters B's, so only points on
//!   the facing sides of both base outlines are sampled, every [`SAMPLE_SPACING_IN`]
//!   (1.5 mm, half the rulebook's 3 mm): a piece of B at least 3 mm wide that can be seen is
//!   found. Before sampling, two fast decisions settle most pairs: nothing stands in the convex
//!   hull of both bases (**Clear**), or a chain of touching pieces and troopers, each taller there
//!   than any line can be, cuts the hull in two (**Blocked**, proved without sampling).
//! * **Verdict.** `Clear` when nothing can block any line; `Partial` when some lines are blocked
//!   (by the listed pieces: partial cover) and a clear one was found; `Blocked` when every line is.
//!
//! A line that touches a piece at one point (grazing a vertex) is not blocked; one that runs along
//! a piece's face is, so two pieces set edge to edge leave no crack. Markers are not bodies here.

use super::measure::EPS;
use super::segment::{
    Aabb, Where, convex_hull, convex_interval, convex_polygons_meet, disc_interval, locate, passes_through,
    point_convex_distance, point_segment_distance, polygon_meets_convex, segments_touch, signed_area,
};
use super::{Arc, Body, MM_PER_INCH, Point3, TablePoint, Terrain};
use std::ops::{Add as _, Sub as _};

/// The smallest piece of a target that gives LoF: 3 mm (the rulebook's 3×3 mm), in inches.
pub const MIN_VISIBLE_IN: f64 = 3.0 / MM_PER_INCH;

/// Spacing of sample points along base outlines when searching for a clear line, inches
/// (half of [`MIN_VISIBLE_IN`]).
pub const SAMPLE_SPACING_IN: f64 = MIN_VISIBLE_IN / 2.0;

/// Sides of the polygon that stands in for a base outline in the broad phase (circumscribed, so
/// it contains the true disc: at most 2% of the radius larger).
const OUTLINE_SIDES: usize = 16;

/// Something that can block a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Blocker {
    /// A terrain piece, by index into [`Obstacles::terrain`].
    Terrain(usize),
    /// A trooper's Silhouette, by index into [`Obstacles::bodies`].
    Trooper(usize),
}

/// The LoF verdict (N4 "Line of Fire").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lof {
    /// Every line is clear.
    Clear,
    /// Some lines are blocked (by these), at least one is clear: LoF, with partial cover.
    Partial {
        /// What blocks some of the lines.
        blocked_by: Vec<Blocker>,
    },
    /// Every line is blocked: no LoF.
    Blocked {
        /// What blocks the lines.
        by: Vec<Blocker>,
    },
    /// No part of the target is inside the viewer's arc.
    OutOfArc,
}

impl Lof {
    /// Whether the viewer has LoF (clear or partial).
    pub fn has_lof(&self) -> bool {
        matches!(self, Lof::Clear | Lof::Partial { .. })
    }

    /// Short name, as in `sightline measure` output.
    pub fn name(&self) -> &'static str {
        match self {
            Lof::Clear => "clear",
            Lof::Partial { .. } => "partial",
            Lof::Blocked { .. } => "blocked",
            Lof::OutOfArc => "out_of_arc",
        }
    }

    /// The blockers named by the verdict.
    pub fn blockers(&self) -> &[Blocker] {
        match self {
            Lof::Partial { blocked_by: b } | Lof::Blocked { by: b } => b,
            _ => &[],
        }
    }
}

/// A verdict and, when there is LoF, one clear line to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct LofResult {
    /// The verdict.
    pub lof: Lof,
    /// One unblocked line, from a point of the viewer to a point of the target (inches).
    pub witness: Option<[Point3; 2]>,
}

/// What can block lines: the terrain and every trooper's body.
#[derive(Debug, Clone)]
pub struct Obstacles<'a> {
    /// Terrain pieces (validated).
    pub terrain: &'a [Terrain],
    /// Every trooper's body; the viewer and target are skipped by index.
    pub bodies: &'a [Body],
    terrain_boxes: Vec<Aabb>,
    /// Per piece: `Some(counter-clockwise?)` when its footprint is convex.
    terrain_convex: Vec<Option<bool>>,
}

impl<'a> Obstacles<'a> {
    /// Obstacles from terrain and bodies (precomputes bounding boxes).
    pub fn new(terrain: &'a [Terrain], bodies: &'a [Body]) -> Self {
        let terrain_boxes = terrain.iter().map(Terrain::aabb).collect();
        let terrain_convex =
            terrain.iter().map(|t| is_convex(&t.polygon).then(|| signed_area(&t.polygon) > 0.0)).collect();
        Self { terrain, bodies, terrain_boxes, terrain_convex }
    }
}

/// Whether the polygon turns one way only (collinear corners allowed).
fn is_convex(poly: &[TablePoint]) -> bool {
    let n = poly.len();
    let mut sign = 0.0;
    for i in 0..n {
        let o = super::segment::orient(poly[i], poly[(i + 1) % n], poly[(i + 2) % n]);
        if o.abs() > EPS {
            if sign == 0.0 {
                sign = o.signum();
            } else if o.signum() != sign {
                return false;
            }
        }
    }
    true
}

/// The corners of a regular polygon circumscribing the unit circle ([`OUTLINE_SIDES`] sides).
static UNIT_RING: std::sync::LazyLock<[TablePoint; OUTLINE_SIDES]> = std::sync::LazyLock::new(|| {
    let k = 1.0 / (std::f64::consts::PI / OUTLINE_SIDES as f64).cos();
    std::array::from_fn(|i| {
        let a = i as f64 * std::f64::consts::TAU / OUTLINE_SIDES as f64;
        TablePoint::new(a.cos() * k, a.sin() * k)
    })
});

/// A base outline clipped to the viewer's arc half-plane (plan view).
#[derive(Debug, Clone, Copy)]
struct Region {
    centre: TablePoint,
    r: f64,
    /// Half-plane `(p - origin)·normal ≥ 0`, or none.
    clip: Option<(TablePoint, TablePoint)>,
}

impl Region {
    fn ahead(&self, p: TablePoint) -> f64 {
        self.clip.map_or(f64::INFINITY, |(o, n)| p.sub(o).dot(n))
    }

    /// Move `p` into the half-plane (onto its line, plus a hair) if it is behind it.
    fn pull_in(&self, p: TablePoint) -> TablePoint {
        match self.clip {
            Some((_, n)) => {
                let a = self.ahead(p);
                if a < 1e-7 { p.add(n.scale(1e-7 - a)) } else { p }
            }
            None => p,
        }
    }

    /// A polygon containing the region (circumscribed outline clipped to the half-plane).
    fn outer_polygon(&self) -> Vec<TablePoint> {
        let ring: Vec<TablePoint> = UNIT_RING.iter().map(|&u| self.centre.add(u.scale(self.r))).collect();
        match self.clip {
            None => ring,
            Some(_) => {
                let mut out = Vec::with_capacity(ring.len() + 2);
                clip_half_plane(&ring, &mut out, |p| self.ahead(p));
                out
            }
        }
    }

    /// Points on the region's outline where a line to the disc of radius `other_r` at `toward`
    /// can leave (or enter) it, every `spacing` inches or closer; with `chord`, the straight edge
    /// of a clipped base too (a line between two points of the arc's half-plane crosses the arc
    /// line only at an end, so the viewer needs only the chord's two ends; the target needs the
    /// chord when it straddles the arc line).
    fn facing_outline(&self, toward: TablePoint, other_r: f64, spacing: f64, chord: bool) -> Vec<TablePoint> {
        let mut pts = Vec::new();
        let n = ((std::f64::consts::TAU * self.r / spacing).ceil() as usize).max(8);
        let dir = toward.sub(self.centre);
        let len = dir.norm().max(1e-12);
        // Every such line is within asin((r + other_r) / distance) of the centre line, so its
        // crossing point's outward normal u has u·dir ≥ -sin of that.
        let margin = ((self.r + other_r) / len).min(1.0) + 1e-9;
        for i in 0..n {
            let a = i as f64 * std::f64::consts::TAU / n as f64;
            let u = TablePoint::new(a.cos(), a.sin());
            let p = self.centre.add(u.scale(self.r));
            if u.dot(dir) >= -margin * len && self.ahead(p) >= 0.0 {
                pts.push(p);
            }
        }
        if let Some((o, n)) = self.clip {
            // The straight edge of a clipped base, along the arc line: all of it with `chord`,
            // otherwise its two ends (the base's extreme points across the arc line, where the
            // narrowest slivers are seen from).
            let along = TablePoint::new(-n.y, n.x);
            let off = self.centre.sub(o).dot(n);
            let half = (self.r * self.r - off * off).max(0.0).sqrt();
            let mid = self.centre.sub(n.scale(off));
            let k = if chord { ((2.0 * half / spacing).ceil() as usize).max(1) } else { 1 };
            for i in 0..=k {
                pts.push(self.pull_in(mid.add(along.scale(-half + 2.0 * half * i as f64 / k as f64))));
            }
        }
        pts
    }
}

/// One line's height profile: height at the viewer end and at the target end, inches.
type Profile = (f64, f64);

/// The per-pair context of a LoF query.
struct Query<'o, 'a> {
    obs: &'o Obstacles<'a>,
    terrain: Vec<usize>,
    bodies: Vec<usize>,
    scratch: Vec<f64>,
}

impl Query<'_, '_> {
    /// Whether the 3D segment `a → b` (plan points, heights from `z`) is blocked, and by what.
    fn blocked(&mut self, a: TablePoint, b: TablePoint, z: Profile) -> Option<Blocker> {
        let seg_box = Aabb::around([a, b]);
        for &i in &self.terrain {
            if !self.obs.terrain_boxes[i].overlaps(&seg_box) {
                continue;
            }
            let t = &self.obs.terrain[i];
            // The stretch of the line lower than the piece.
            let Some((t0, t1)) = below(z, t.height_in, 0.0, 1.0) else { continue };
            let through = match self.obs.terrain_convex[i] {
                // Convex: one clipping pass; the stretch inside must overlap the low stretch.
                Some(ccw) => {
                    convex_interval(&t.polygon, ccw, a, b).is_some_and(|(u0, u1)| u1.min(t1) - u0.max(t0) > 1e-9)
                }
                None => passes_through(&t.polygon, a, b, t0, t1, &mut self.scratch),
            };
            if through {
                return Some(Blocker::Terrain(i));
            }
        }
        for &j in &self.bodies {
            let c = &self.obs.bodies[j];
            let Some((t0, t1)) = disc_interval(a, b, c.centre, c.radius()) else { continue };
            // Inside the disc, is the line between the body's bottom and top anywhere?
            let Some((u0, u1)) = below(z, c.top(), t0, t1) else { continue };
            if above(z, c.bottom(), u0, u1) {
                return Some(Blocker::Trooper(j));
            }
        }
        None
    }
}

/// The sub-range of `[t0, t1]` where the line's height is strictly below `h`.
fn below((za, zb): Profile, h: f64, t0: f64, t1: f64) -> Option<(f64, f64)> {
    let z = |t: f64| za + (zb - za) * t;
    let (z0, z1) = (z(t0), z(t1));
    match (z0 < h - EPS, z1 < h - EPS) {
        (true, true) => Some((t0, t1)),
        (false, false) => None,
        _ => {
            let tc = t0 + (t1 - t0) * (h - z0) / (z1 - z0);
            if z0 < h { Some((t0, tc)) } else { Some((tc, t1)) }
        }
    }
}

/// Whether the line's height is strictly above `h` somewhere in the open range `(t0, t1)`.
fn above((za, zb): Profile, h: f64, t0: f64, t1: f64) -> bool {
    let z = |t: f64| za + (zb - za) * t;
    t1 - t0 > 1e-12 && z(t0).max(z(t1)) > h + EPS
}

/// Line of Fire from `viewer` to `target` (N4 "Line of Fire"); `skip` lists indices in
/// `obstacles.bodies` that do not block (the viewer and the target themselves).
///
/// # Units
/// Bodies and terrain in table inches; the witness is two 3D points in inches.
pub fn line_of_fire(obstacles: &Obstacles, viewer: &Body, target: &Body, skip: &[usize]) -> LofResult {
    let (ra, rb) = (viewer.radius(), target.radius());
    // 1. Arc: some part of the target in front of the arc line (strictly: a zero-area touch is not "partly inside").
    if viewer.ahead(target.centre) + rb <= 1e-6 {
        return LofResult { lof: Lof::OutOfArc, witness: None };
    }
    let clip = match viewer.arc {
        Arc::Front180 => Some((viewer.centre, viewer.facing_unit())),
        Arc::All360 => None,
    };
    let va = Region { centre: viewer.centre, r: ra, clip };
    let tb = Region { centre: target.centre, r: rb, clip: clip.filter(|_| viewer.ahead(target.centre) < rb) };
    let line_lo = viewer.bottom().min(target.bottom());
    let line_hi = viewer.top().max(target.top() - MIN_VISIBLE_IN);
    let best: Profile = (viewer.top(), (target.top() - MIN_VISIBLE_IN).max(target.bottom()));

    // 2. Broad phase: what comes within the larger radius (plus the outline polygon's 2%) of the
    // segment joining the centres — a capsule that contains the hull of both bases.
    let reach = ra.max(rb) * 1.05;
    let bbox = Aabb::around([va.centre, tb.centre]).grown(reach);
    let mut q = Query { obs: obstacles, terrain: Vec::new(), bodies: Vec::new(), scratch: Vec::with_capacity(16) };
    for (i, t) in obstacles.terrain.iter().enumerate() {
        let b = &obstacles.terrain_boxes[i];
        if t.height_in > line_lo + EPS && b.overlaps(&bbox) && b.grown(reach).meets_segment(va.centre, tb.centre) {
            q.terrain.push(i);
        }
    }
    for (j, c) in obstacles.bodies.iter().enumerate() {
        if skip.contains(&j) || c.bottom() >= line_hi || c.top() <= line_lo {
            continue;
        }
        if point_segment_distance(c.centre, va.centre, tb.centre) < reach + c.radius() {
            q.bodies.push(j);
        }
    }
    let centre_line = || {
        let (a, b) = (va.pull_in(va.centre), tb.pull_in(tb.centre));
        [Point3::at(a, 0.5 * (viewer.bottom() + viewer.top())), Point3::at(b, 0.5 * (target.bottom() + target.top()))]
    };
    if q.terrain.is_empty() && q.bodies.is_empty() {
        return LofResult { lof: Lof::Clear, witness: Some(centre_line()) };
    }

    // 3. Narrow phase: what really meets the hull of both bases, and can block some line there.
    let (pa, pb) = (va.outer_polygon(), tb.outer_polygon());
    let hull = convex_hull(pa.iter().chain(pb.iter()).copied().collect());
    let axis = tb.centre.sub(va.centre);
    let axis_len2 = axis.dot(axis).max(1e-12);
    let frac = |p: TablePoint| (p.sub(va.centre).dot(axis) / axis_len2).clamp(0.0, 1.0);
    let lowest_z = |p: TablePoint| viewer.bottom() + (target.bottom() - viewer.bottom()) * frac(p);
    let highest_z = |p: TablePoint| best.0 + (best.1 - best.0) * frac(p);
    let mut blockers = Vec::new();
    q.terrain.retain(|&i| {
        let t = &obstacles.terrain[i];
        let meets = match obstacles.terrain_convex[i] {
            Some(_) => convex_polygons_meet(&t.polygon, &hull),
            None => polygon_meets_convex(&t.polygon, &hull),
        };
        if !meets {
            return false;
        }
        // On one level the lowest line is as low everywhere: no need to find where the piece is.
        let low = if viewer.bottom() == target.bottom() {
            viewer.bottom()
        } else {
            clip_to_convex(&t.polygon, &hull).into_iter().map(lowest_z).fold(f64::INFINITY, f64::min)
        };
        if t.height_in > low + EPS {
            blockers.push(Blocker::Terrain(i));
        }
        true
    });
    q.bodies.retain(|&j| {
        let c = &obstacles.bodies[j];
        if point_convex_distance(c.centre, &hull) >= c.radius() {
            return false;
        }
        if c.bottom() < highest_z(c.centre) - EPS && c.top() > lowest_z(c.centre) + EPS {
            blockers.push(Blocker::Trooper(j));
        }
        true
    });
    if q.terrain.is_empty() && q.bodies.is_empty() {
        return LofResult { lof: Lof::Clear, witness: Some(centre_line()) };
    }
    let mut profiles = vec![best];
    if q.bodies.iter().any(|&j| obstacles.bodies[j].bottom() > line_lo + EPS) {
        let mid = |b: &Body| 0.5 * (b.bottom() + b.top());
        profiles.push((mid(viewer), mid(target)));
        profiles.push((viewer.bottom(), (target.bottom() + MIN_VISIBLE_IN).min(target.top())));
    }
    let verdict = |witness: Option<[Point3; 2]>, blockers: Vec<Blocker>| match witness {
        Some(_) if blockers.is_empty() => LofResult { lof: Lof::Clear, witness },
        Some(_) => LofResult { lof: Lof::Partial { blocked_by: blockers }, witness },
        None => LofResult { lof: Lof::Blocked { by: blockers }, witness: None },
    };

    // 4a. A chain of tall blockers, taller than every line, cutting the hull in two.
    // The highest any line can be above a point p: p's position along the axis bounds the
    // fraction t at which a line from A's base to B's crosses it, and the highest lines run from
    // A's top to B's top (less 3 mm).
    let len = axis_len2.sqrt();
    let zmax = |p: TablePoint| {
        let s = p.sub(va.centre).dot(axis) / len;
        let t_hi = ((s + ra) / (len - rb + ra)).clamp(0.0, 1.0);
        let t_lo = ((s - ra) / (len + rb - ra)).clamp(0.0, 1.0);
        let z = |t: f64| best.0 + (best.1 - best.0) * t;
        z(t_lo).max(z(t_hi))
    };
    let dir = axis.scale(1.0 / len);
    // (The bound needs the bases apart; overlapping ones only reach here through the API.)
    if len > ra + rb
        && let Some(by) =
            separating_chain(obstacles, &q, &hull, (&pa, &pb), line_lo, (va.centre, dir, (-ra, len + rb)), zmax)
    {
        return verdict(None, by);
    }

    // 4b. A few lines across the middle and both sides.
    let perp = TablePoint::new(-dir.y, dir.x);
    let spread = |reg: &Region, ks: &[f64]| -> Vec<TablePoint> {
        ks.iter().map(|&k| reg.pull_in(reg.centre.add(perp.scale(k * reg.r)))).collect()
    };
    let coarse_a = spread(&va, &[0.0, -0.9, 0.9]);
    let coarse_b = spread(&tb, &[0.0, -0.5, 0.5, -0.9, 0.9]);
    if let Some(w) = search(&mut q, &coarse_a, &coarse_b, &profiles) {
        return verdict(Some(w), blockers);
    }

    // 4c. Every sample, 1.5 mm apart along the facing sides of both outlines.
    let fine_a = va.facing_outline(tb.centre, rb, SAMPLE_SPACING_IN, false);
    let fine_b = tb.facing_outline(va.centre, ra, SAMPLE_SPACING_IN, true);
    let w = search(&mut q, &fine_a, &fine_b, &profiles);
    if w.is_none() && blockers.is_empty() {
        // Every line is blocked, so whatever met the hull blocks: name it.
        blockers = q
            .terrain
            .iter()
            .map(|&i| Blocker::Terrain(i))
            .chain(q.bodies.iter().map(|&j| Blocker::Trooper(j)))
            .collect();
    }
    verdict(w, blockers)
}

/// Decide "every line blocked" without sampling: tall blockers (covering every line's height)
/// whose parts inside the hull touch one another in a chain from one bridge edge of the hull to
/// the other, without touching either base. Such a chain cuts the hull in two with one base on
/// each side, so every line between the bases crosses it.
///
/// Sound by construction: the hull and base outlines used are the circumscribed polygons (larger
/// than the truth), troopers enter as their exact discs, and parts count as joined only where
/// they meet inside the hull; concave pieces are left to the sampling. Pieces that touch at a single corner count as joined: a crack
/// of zero width shows no 3 mm of anything.
fn separating_chain(
    obstacles: &Obstacles,
    q: &Query,
    hull: &[TablePoint],
    (pa, pb): (&[TablePoint], &[TablePoint]),
    line_lo: f64,
    (origin, axis_dir, s_range): (TablePoint, TablePoint, (f64, f64)),
    zmax: impl Fn(TablePoint) -> f64,
) -> Option<Vec<Blocker>> {
    /// A blocker's part inside the hull: a clipped convex footprint, or a trooper's disc.
    enum Part {
        Poly(Vec<TablePoint>),
        Disc(TablePoint, f64),
    }
    let [(b0, b1), (c0, c1)] = bridge_edges(hull, pa, pb)?;
    let mut parts: Vec<(Blocker, Part)> = Vec::new();
    // The highest-line bound is convex along the axis, so its maximum over a convex part is at a
    // corner (or, for a disc, at one of its two ends along the axis).
    let tall_over = |p: &[TablePoint], h: f64| p.iter().all(|&v| zmax(v) + EPS <= h);
    for &i in &q.terrain {
        let t = &obstacles.terrain[i];
        if obstacles.terrain_convex[i].is_none() {
            continue; // concave pieces are left to the sampling
        }
        // Clipping only lowers the bound: test the whole piece first, the clipped part if needed.
        let mut clipped = clip_to_convex(&t.polygon, hull);
        if clipped.len() < 3 || signed_area(&clipped).abs() <= 1e-12 {
            continue; // nothing inside, or only a touch along the hull's edge
        }
        if !tall_over(&t.polygon, t.height_in) && !tall_over(&clipped, t.height_in) {
            // The bound is monotone along the axis: keep the part beyond the point where the
            // piece becomes taller than every line (a piece near the lower end of a sloping line).
            let Some(part) = tall_part(&clipped, t.height_in, origin, axis_dir, s_range, &zmax) else { continue };
            if signed_area(&part).abs() <= 1e-12 {
                continue;
            }
            clipped = part;
        }
        if !convex_polygons_meet(&clipped, pa) && !convex_polygons_meet(&clipped, pb) {
            parts.push((Blocker::Terrain(i), Part::Poly(clipped)));
        }
    }
    for &j in &q.bodies {
        let c = &obstacles.bodies[j];
        let r = c.radius();
        let keep = c.bottom() <= line_lo
            && tall_over(&[c.centre.add(axis_dir.scale(r)), c.centre.sub(axis_dir.scale(r))], c.top())
            && point_convex_distance(c.centre, pa) > r
            && point_convex_distance(c.centre, pb) > r;
        if keep {
            parts.push((Blocker::Trooper(j), Part::Disc(c.centre, r)));
        }
    }
    if parts.is_empty() {
        return None;
    }
    let touches_edge = |p: &Part, a: TablePoint, b: TablePoint| match p {
        Part::Poly(poly) => meets_outline(poly, a, b),
        Part::Disc(c, r) => point_segment_distance(*c, a, b) <= *r,
    };
    // Two parts are joined where they meet inside the hull.
    let joined = |p: &Part, q: &Part| match (p, q) {
        (Part::Poly(a), Part::Poly(b)) => convex_polygons_meet(a, b),
        (Part::Poly(a), Part::Disc(c, r)) | (Part::Disc(c, r), Part::Poly(a)) => point_convex_distance(*c, a) <= *r,
        (Part::Disc(c1, r1), Part::Disc(c2, r2)) => {
            let d = c1.dist(*c2);
            d <= r1 + r2 + 1e-9 && locate(hull, c1.lerp(*c2, r1 / (r1 + r2))) != Where::Outside
        }
    };
    let n = parts.len();
    let mut reached = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&k| touches_edge(&parts[k].1, b0, b1)).collect();
    for &k in &stack {
        reached[k] = true;
    }
    while let Some(k) = stack.pop() {
        if touches_edge(&parts[k].1, c0, c1) {
            let mut by: Vec<Blocker> = (0..n).filter(|&m| reached[m]).map(|m| parts[m].0).collect();
            by.sort();
            return Some(by);
        }
        for m in 0..n {
            if !reached[m] && joined(&parts[m].1, &parts[k].1) {
                reached[m] = true;
                stack.push(m);
            }
        }
    }
    None
}

/// The part of convex `poly` where it is taller than every line, given that the highest-line
/// bound `zmax` is monotone along the axis `origin + dir·s`, `s` in `s_range`; `None` if no part.
fn tall_part(
    poly: &[TablePoint],
    height: f64,
    origin: TablePoint,
    dir: TablePoint,
    (lo, hi): (f64, f64),
    zmax: impl Fn(TablePoint) -> f64,
) -> Option<Vec<TablePoint>> {
    let excess = |s: f64| zmax(origin.add(dir.scale(s))) + EPS - height;
    let (at_lo, at_hi) = (excess(lo), excess(hi));
    if (at_lo > 0.0) == (at_hi > 0.0) {
        return None; // tall nowhere (tall everywhere was handled by the caller)
    }
    let (mut a, mut b) = (lo, hi);
    for _ in 0..60 {
        let m = 0.5 * (a + b);
        if (excess(m) > 0.0) == (at_lo > 0.0) { a = m } else { b = m }
    }
    // Keep the side where the excess is ≤ 0, stepping a hair past the crossing to stay sound.
    let (cut, keep_above) = if at_lo > 0.0 { (b + 1e-9, true) } else { (a - 1e-9, false) };
    let mut out = Vec::with_capacity(poly.len() + 1);
    clip_half_plane(poly, &mut out, |p| {
        let s = p.sub(origin).dot(dir) - cut;
        if keep_above { s } else { -s }
    });
    (out.len() >= 3).then_some(out)
}

fn search(q: &mut Query, from: &[TablePoint], to: &[TablePoint], profiles: &[Profile]) -> Option<[Point3; 2]> {
    for &z in profiles {
        for &a in from {
            for &b in to {
                if q.blocked(a, b, z).is_none() {
                    return Some([Point3::at(a, z.0), Point3::at(b, z.1)]);
                }
            }
        }
    }
    None
}

/// The two hull edges that run from one base's outline to the other's.
fn bridge_edges(hull: &[TablePoint], pa: &[TablePoint], pb: &[TablePoint]) -> Option<[(TablePoint, TablePoint); 2]> {
    // Hull corners are copies of outline corners, so exact comparison finds their origin.
    let side = |p: TablePoint| {
        if pa.contains(&p) {
            0
        } else if pb.contains(&p) {
            1
        } else {
            2
        }
    };
    let n = hull.len();
    let mut found = Vec::with_capacity(2);
    for i in 0..n {
        let (p, q) = (hull[i], hull[(i + 1) % n]);
        let (sp, sq) = (side(p), side(q));
        if sp != sq && sp < 2 && sq < 2 {
            found.push((p, q));
        }
    }
    (found.len() == 2).then(|| [found[0], found[1]])
}

/// Whether polygon `poly` meets segment `a b` (crossing, touching or containing it).
fn meets_outline(poly: &[TablePoint], a: TablePoint, b: TablePoint) -> bool {
    let n = poly.len();
    (0..n).any(|i| segments_touch(poly[i], poly[(i + 1) % n], a, b)) || locate(poly, a) == Where::Inside
}

/// One Sutherland–Hodgman step: append to `out` the part of `input` where `side(p) ≥ 0`
/// (`side` linear in `p`, so crossings are found by interpolation).
fn clip_half_plane(input: &[TablePoint], out: &mut Vec<TablePoint>, side: impl Fn(TablePoint) -> f64) {
    let n = input.len();
    for i in 0..n {
        let (p, q) = (input[i], input[(i + 1) % n]);
        let (sp, sq) = (side(p), side(q));
        if sp >= 0.0 {
            out.push(p);
        }
        if (sp >= 0.0) != (sq >= 0.0) {
            out.push(p.lerp(q, sp / (sp - sq)));
        }
    }
}

/// Sutherland–Hodgman: the part of `poly` inside convex counter-clockwise `clip`.
fn clip_to_convex(poly: &[TablePoint], clip: &[TablePoint]) -> Vec<TablePoint> {
    let mut out = Vec::with_capacity(poly.len() + clip.len());
    out.extend_from_slice(poly);
    let mut input = Vec::with_capacity(poly.len() + clip.len());
    let m = clip.len();
    for j in 0..m {
        let (c0, c1) = (clip[j], clip[(j + 1) % m]);
        std::mem::swap(&mut input, &mut out);
        out.clear();
        clip_half_plane(&input, &mut out, |p| super::segment::orient(c0, c1, p));
        if out.is_empty() {
            break;
        }
    }
    out
}
