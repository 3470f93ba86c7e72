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
//! * **Reachable line set.** Lines run from a point of A's front half-cylinder (its top face
//!   included) to a point of B's cylinder inside A's arc: on its side at most [`MIN_VISIBLE_IN`]
//!   below B's top (so a line that finds B sees a piece at least 3 mm tall: everything between that
//!   point and the top is seen too), or — coming down from above — on its top face with 3 mm of
//!   the face beyond it (a level line sees the face edge-on, which shows nothing).
//! * **Heights.** Terrain is solid from the table up, so raising either end of a line only helps
//!   it clear terrain: in plan, the highest line (A's top to B's top less 3 mm) is the best one.
//!   Only an elevated trooper can be passed underneath; when one is in the way, low and middle
//!   lines are tried as well.
//! * **Plan.** A line can be cut back to where it leaves A's base and enters B's, so only points on
//!   the facing sides of both base outlines are sampled, every [`SAMPLE_SPACING_IN`]
//!   (1.5 mm, half the rulebook's 3 mm): a piece of B at least 3 mm wide that can be seen is
//!   found. Before sampling, fast decisions settle most pairs: nothing stands in the convex
//!   hull of both bases (**Clear**); one convex piece taller than both Silhouettes crosses the
//!   hull of both whole bases from one outer tangent to the other (**Blocked**: the commonest
//!   case among buildings, decided from the two tangent lines alone); a few lines across the
//!   middle and sides find a clear one; or a chain of pieces and troopers, each taller there
//!   than any line can be, cuts the hull in two (**Blocked**, proved without sampling): links
//!   touch, or leave a gap that no line between the bases can slip through (troopers standing
//!   staggered across the line; the gap test is exact, a small linear system per pair of links).
//!   While sampling, each viewer point first works out its *shadows*: the directions in which
//!   some candidate blocker surely stops every line to the target (the line passes well inside it,
//!   at a point where it is lower than the piece whatever the line's length — for a low piece,
//!   only the part of it where lines have come down, or not yet climbed, below its height).
//!   Lines in a shadow are skipped, and a viewer point whose shadows cover the whole target is
//!   skipped at once; every other line gets the exact test, in the same order, so the answer and
//!   witness are those of the plain sampling.
//! * **Verdict.** `Clear` when nothing can block any line; `Partial` when some lines are blocked
//!   (by the listed pieces: partial cover) and a clear one was found; `Blocked` when every line is.
//!
//! A line that touches a piece at one point (grazing a vertex) is not blocked; one that runs along
//! a piece's face is, so two pieces set edge to edge leave no crack. Markers are not bodies here.

use super::measure::EPS;
use super::segment::{
    Aabb, Where, convex_interval, convex_polygons_meet, convex_polygons_meet_oriented, disc_interval, edges,
    inside_stretches, locate, orient, passes_through, point_convex_distance, point_segment_distance,
    polygon_meets_convex, polygons_may_come_within, segments_touch, signed_area,
};
use super::terrain::convex_parts;
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

/// What can block lines: the terrain and every trooper's body (but a marker's: [`Body::marker`]).
#[derive(Debug, Clone)]
pub struct Obstacles<'a> {
    /// Terrain pieces (validated).
    pub terrain: &'a [Terrain],
    /// Every trooper's body; the viewer and target are skipped by index.
    pub bodies: &'a [Body],
    /// What is worked out from the terrain alone.
    work: TerrainWork,
    /// Per body: radius, bottom and top, inches.
    body_dims: Vec<(f64, f64, f64)>,
    /// The bodies' centres (x, y) and radii, inches, as separate arrays, for the broad phase's
    /// passes over them all (beside [`TerrainWork::soa`]).
    body_soa: [Vec<f64>; 3],
    /// Per body, worked out the first time it is a viewer (with its facing and arc): the
    /// [`Fans`] from its centre.
    fans: Vec<std::sync::OnceLock<Fans>>,
    /// Per body, worked out the first time it is a viewer: which obstacles lie in which
    /// direction from its centre (the broad phase for its targets).
    sectors: Vec<std::sync::OnceLock<Sectors>>,
    /// The broad phase's reach for any pair of these bodies, inches (see [`line_of_fire`]).
    reach_max: f64,
    /// Per body: its facing, degrees, and the unit vector along it.
    facings: Vec<(f64, TablePoint)>,
    /// Per body: its outline polygon ([`Region::outer_polygon`]) whole, and cut to its own arc's
    /// half-plane (the same for a 360° arc), each with its box, inches.
    outlines: Vec<[(Vec<TablePoint>, Aabb); 2]>,
    /// Per body: whether a line can pass beneath it — it is raised, and no piece at least as
    /// high as its feet holds its whole base (see [`stands_on_terrain`]).
    underpass: Vec<bool>,
}

/// What [`Obstacles`] works out from the terrain alone (kept in the [`ViewerCaches`], so that
/// obstacles over the same terrain need not work it out again).
#[derive(Debug, Clone, Default)]
struct TerrainWork {
    /// Per piece: its box.
    boxes: Vec<Aabb>,
    /// Per piece: `Some(counter-clockwise?)` when its footprint is convex.
    convex: Vec<Option<bool>>,
    /// The convex pieces, and the convex parts of concave ones (`(piece, Some(part))`), tallest
    /// first (then by piece and part), the order of every [`Fan`] list.
    convex_by_height: Vec<(usize, Option<usize>)>,
    /// Per convex piece: its footprint shrunk so that every point is at least [`SHADOW_MARGIN_IN`]
    /// inside it (for the shadows of phase 4c); empty when not convex or too small.
    core: Vec<Vec<TablePoint>>,
    /// Per concave piece: its convex parts ([`convex_parts`]), which stand in for it where
    /// convex shapes are needed — the narrow phase's test against the hull, the exact test of
    /// one line, and the proofs that every line is blocked (the spanning test of phase 2a, the
    /// chain of phase 4b, the shadows of phase 4c); empty for a convex piece, or one the parts
    /// could not be found for.
    parts: Vec<Vec<ConvexPart>>,
    /// The boxes' centres (x, y) and half-sizes (x, y), inches, as separate arrays, for the
    /// broad phase's passes over them all.
    soa: [Vec<f64>; 4],
}

impl TerrainWork {
    fn of(terrain: &[Terrain]) -> Self {
        let boxes: Vec<Aabb> = terrain.iter().map(Terrain::aabb).collect();
        let convex: Vec<Option<bool>> =
            terrain.iter().map(|t| is_convex(&t.polygon).then(|| signed_area(&t.polygon) > 0.0)).collect();
        let cores =
            terrain.iter().zip(&convex).map(|(t, c)| if c.is_some() { core(&t.polygon) } else { Vec::new() }).collect();
        let parts: Vec<Vec<ConvexPart>> = terrain
            .iter()
            .zip(&convex)
            .map(|(t, c)| match c {
                Some(_) => Vec::new(),
                None => convex_parts(&t.polygon)
                    .into_iter()
                    .map(|poly| ConvexPart { core: core(&poly), bx: Aabb::around(poly.iter().copied()), poly })
                    .collect(),
            })
            .collect();
        let mut convex_by_height: Vec<(usize, Option<usize>)> = (0..terrain.len())
            .flat_map(|i| {
                let n = if convex[i].is_some() { 0 } else { parts[i].len() };
                let parts = (0..n).map(move |k| (i, Some(k)));
                convex[i].is_some().then_some((i, None)).into_iter().chain(parts)
            })
            .collect();
        convex_by_height.sort_by(|a, b| terrain[b.0].height_in.total_cmp(&terrain[a.0].height_in).then(a.cmp(b)));
        let soa = |f: &dyn Fn(&Aabb) -> f64| boxes.iter().map(f).collect::<Vec<f64>>();
        let soa = [
            soa(&|b| 0.5 * (b.min.x + b.max.x)),
            soa(&|b| 0.5 * (b.min.y + b.max.y)),
            soa(&|b| 0.5 * (b.max.x - b.min.x)),
            soa(&|b| 0.5 * (b.max.y - b.min.y)),
        ];
        Self { boxes, convex, convex_by_height, core: cores, parts, soa }
    }
}

/// A convex part of a concave piece, counter-clockwise: its footprint, that shrunk as [`core`]
/// shrinks a convex piece's, and its box, inches.
#[derive(Debug, Clone)]
struct ConvexPart {
    poly: Vec<TablePoint>,
    core: Vec<TablePoint>,
    bx: Aabb,
}

/// How many equal slices of the [`pseudo_angle`] turn [`Sectors`] cuts.
const SECTORS: usize = 64;

/// The obstacles, seen from one point, slice by slice of directions: obstacle `k` is bit `k` of
/// every slice in which some point of it — a terrain piece's box grown by `reach` (as a square),
/// a body's disc grown by `reach` — lies (all slices if it reaches the point itself). Built with
/// [`Obstacles`]'s largest reach, so it serves every pair.
#[derive(Debug, Clone)]
struct Sectors {
    words: usize,
    /// `SECTORS × words` bits.
    masks: Vec<u64>,
    /// For a 180° arc: the facing's unit vector, and how far behind the arc line (inches) an
    /// obstacle may lie and still be listed (see [`Sectors::from`]).
    front: Option<(TablePoint, f64)>,
}

/// A number that grows with the direction of nonzero `v` counter-clockwise from `+x`, in `[0, 4)`
/// (not the angle, but in the same order, without trigonometry).
fn pseudo_angle(v: TablePoint) -> f64 {
    let r = v.y / (v.x.abs() + v.y.abs());
    if v.x < 0.0 {
        2.0 - r
    } else if v.y < 0.0 {
        4.0 + r
    } else {
        r
    }
}

/// The slice of [`Sectors`] holding direction `v`.
fn sector(v: TablePoint) -> usize {
    ((pseudo_angle(v) * (SECTORS as f64 / 4.0)) as usize).min(SECTORS - 1)
}

impl Sectors {
    /// The obstacles of `obs` by direction from `c`, grown by `reach` (inches), for targets in
    /// the arc (`front`: the facing's unit vector of a 180° arc; `None`: all around).
    ///
    /// With an arc, obstacles wholly more than `3·reach` behind its line are left out: a target
    /// in the arc has its centre less than its radius behind the line, so the segment from `c`
    /// to it does too, and an obstacle the broad phase keeps comes within `reach` of it (a
    /// body's disc) or within `reach` along x and y (a piece's box), under `1.5·reach` in all —
    /// and every radius is at most `reach`.
    fn from(obs: &Obstacles, c: TablePoint, reach: f64, front: Option<TablePoint>) -> Self {
        let n = obs.terrain.len() + obs.bodies.len();
        let front = front.map(|f| (f, -3.0 * reach - 1e-6));
        // (Each obstacle's first and last slice, or none; then turned into rows.)
        let mut spans = Vec::with_capacity(n);
        let [cx, cy, hx, hy] = &obs.work.soa;
        let grow = reach * (1.0 + 1e-9) + 1e-9;
        spans.extend((0..cx.len().min(cy.len()).min(hx.len()).min(hy.len())).map(|k| {
            // (Wholly behind: its corner farthest along the facing is.)
            let (ox, oy) = (cx[k] - c.x, cy[k] - c.y);
            if front.is_some_and(|(f, limit)| ox * f.x + oy * f.y + hx[k] * f.x.abs() + hy[k] * f.y.abs() < limit) {
                return None;
            }
            // The grown box's corners that bound the directions to it from outside: by which side
            // of it `c` is on along each axis (in line with a side, that side's two corners).
            let (ex, ey) = (hx[k] + grow, hy[k] + grow);
            let (x0, x1, y0, y1) = (ox - ex, ox + ex, oy - ey, oy + ey);
            let (left, right, below, above) = (x0 > 0.0, x1 < 0.0, y0 > 0.0, y1 < 0.0);
            let span = if !(left | right | below | above) {
                None // `c` is in the grown box: every direction
            } else {
                // (lo, hi): counter-clockwise from lo to hi across the box, seen from `c`.
                let (lo, hi) = match (left, right, below, above) {
                    (true, _, true, _) => ((x1, y0), (x0, y1)),
                    (true, _, _, true) => ((x0, y0), (x1, y1)),
                    (true, _, _, _) => ((x0, y0), (x0, y1)),
                    (_, true, true, _) => ((x1, y1), (x0, y0)),
                    (_, true, _, true) => ((x0, y1), (x1, y0)),
                    (_, true, _, _) => ((x1, y1), (x1, y0)),
                    (_, _, true, _) => ((x1, y0), (x0, y0)),
                    _ => ((x0, y1), (x1, y1)),
                };
                Some((TablePoint::new(lo.0, lo.1), TablePoint::new(hi.0, hi.1)))
            };
            Some(slice_range(span))
        }));
        let behind = |p: TablePoint, r: f64| front.is_some_and(|(f, limit)| p.sub(c).dot(f) + r < limit);
        spans.extend(
            obs.bodies
                .iter()
                .map(|b| (!behind(b.centre, b.radius())).then(|| slice_range(Self::body_span(c, b, reach)))),
        );
        let mut masks = Vec::new();
        let words = slice_rows(&spans, &mut masks);
        Self { words, masks, front }
    }

    /// The directions from `c` of body `b`'s disc grown by `reach`; `None`: all around.
    fn body_span(c: TablePoint, b: &Body, reach: f64) -> Option<(TablePoint, TablePoint)> {
        tangent_directions(b.centre.sub(c), (b.radius() + reach) * (1.0 + 1e-9) + 1e-9)
    }

    /// Move obstacle `k` (a body, seen from `c`) to where body `b` now stands.
    fn move_body(&mut self, c: TablePoint, k: usize, b: &Body, reach: f64) {
        let (word, bit) = (k / 64, k % 64);
        let behind = self.front.is_some_and(|(f, limit)| b.centre.sub(c).dot(f) + b.radius() < limit);
        let span = if behind { 0 } else { slice_bits(slice_range(Self::body_span(c, b, reach))) };
        for s in 0..SECTORS {
            let row = &mut self.masks[s * self.words + word];
            *row = (*row & !(1u64 << bit)) | (((span >> s) & 1) << bit);
        }
    }
}

// (A slice set is one word: [`slice_bits`] counts on it.)
const _: () = assert!(SECTORS == 64);

/// The slices of [`Sectors`] that directions `span` (counter-clockwise; `None`: all) reach
/// into: from the first, counter-clockwise, to the last (past slice 63 to slice 0 when the
/// last is the lower; `(0, 63)` for all).
fn slice_range(span: Option<(TablePoint, TablePoint)>) -> (usize, usize) {
    // (Widened by 1e-9 of a turn either way, far above rounding: no direction is lost.)
    let slices = span.and_then(|(lo, hi)| {
        let (lo, hi) = (
            TablePoint::new(lo.x + lo.y * 1e-9, lo.y - lo.x * 1e-9),
            TablePoint::new(hi.x - hi.y * 1e-9, hi.y + hi.x * 1e-9),
        );
        (lo.cross(hi) > 0.0).then(|| (sector(lo), sector(hi)))
    });
    slices.unwrap_or((0, SECTORS - 1))
}

/// The slices of a [`slice_range`] as one word, bit `s` for slice `s`.
fn slice_bits((a, b): (usize, usize)) -> u64 {
    // (From slice `a` on, and up to slice `b`: both when `a ≤ b`, either when it wraps.)
    let (from_a, to_b) = (u64::MAX << a, u64::MAX >> (SECTORS - 1 - b));
    if a <= b { from_a & to_b } else { from_a | to_b }
}

/// The rows of [`Sectors`] masks (`SECTORS × words`, `words` = obstacles / 64 rounded up, at
/// least 1) from each obstacle's [`slice_range`] (`None`: in no slice), into `rows`: bit `k` of
/// row `s` is set when obstacle `k`'s range holds slice `s`. Returns `words`.
///
/// Each range flips its obstacle's bit where it starts and just past where it ends (a wrapping
/// one at slice 0 as well), and each row is then the running XOR of the flips up to it: a few
/// steps per obstacle and per row, with no loop over each obstacle's slices (whose lengths the
/// processor cannot guess: setting the bits slice by slice cost more time than the rest of
/// building the rows).
fn slice_rows(ranges: &[Option<(usize, usize)>], rows: &mut Vec<u64>) -> usize {
    let words = ranges.len().div_ceil(64).max(1);
    rows.clear();
    // (One spare row for the flips just past slice 63.)
    rows.resize((SECTORS + 1) * words, 0);
    for (k, &range) in ranges.iter().enumerate() {
        let Some((a, b)) = range else { continue };
        let (w, bit) = (k / 64, 1u64 << (k % 64));
        rows[a * words + w] ^= bit;
        rows[(b + 1) * words + w] ^= bit;
        rows[w] ^= bit & u64::from(a > b).wrapping_neg();
    }
    for i in words..SECTORS * words {
        rows[i] ^= rows[i - words];
    }
    rows.truncate(SECTORS * words);
    words
}

/// What [`Obstacles`] works out per viewer — each body's `Fan`s and `Sectors` — and from
/// the terrain alone, with the terrain and bodies it was worked out for: taken from one
/// [`Obstacles`] by [`Obstacles::into_caches`], it lets the next, for the same troopers after
/// some moved, skip that work for the rest, and the terrain's altogether
/// ([`Obstacles::with_caches`]).
#[derive(Debug, Default)]
pub struct ViewerCaches {
    terrain: Vec<Terrain>,
    terrain_work: TerrainWork,
    bodies: Vec<Body>,
    fans: Vec<std::sync::OnceLock<Fans>>,
    sectors: Vec<std::sync::OnceLock<Sectors>>,
    reach_max: f64,
}

impl ViewerCaches {
    /// The bodies the caches were worked out for.
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// Whether they were worked out for this terrain.
    pub fn same_terrain(&self, terrain: &[Terrain]) -> bool {
        self.terrain == terrain
    }
}

/// The directions from `c` in which points `pts` lie, when they all lie within less than a
/// half-turn of each other (as for the corners of a convex shape `c` is outside): the two extreme
/// directions `(lo, hi)`, counter-clockwise; `None` for no points.
fn directions_from(c: TablePoint, mut pts: impl Iterator<Item = TablePoint>) -> Option<(TablePoint, TablePoint)> {
    let first = pts.next()?.sub(c);
    Some(pts.fold((first, first), |(lo, hi), v| {
        let w = v.sub(c);
        (if lo.cross(w) < 0.0 { w } else { lo }, if hi.cross(w) > 0.0 { w } else { hi })
    }))
}

/// The two directions from a point touching a disc of radius `r` whose centre is `w` away
/// (clockwise one first); `None` when the point is within the disc.
fn tangent_directions(w: TablePoint, r: f64) -> Option<(TablePoint, TablePoint)> {
    let d2 = w.dot(w);
    (d2 > r * r).then(|| {
        let (sin, cos) = (r / d2.sqrt(), (1.0 - r * r / d2).sqrt());
        let perp = TablePoint::new(-w.y, w.x);
        (w.scale(cos).sub(perp.scale(sin)), w.scale(cos).add(perp.scale(sin)))
    })
}

/// The directions in which a convex piece lies, seen from a point outside it: between the rays
/// along `lo` and `hi` (counter-clockwise, less than a half-turn apart); with the piece's index
/// and height (inches).
#[derive(Debug, Clone, Copy)]
struct Fan {
    piece: usize,
    /// Which convex part of a concave piece it is the fan of.
    part: Option<usize>,
    height: f64,
    lo: TablePoint,
    hi: TablePoint,
}

/// The [`Fan`]s from one point of the convex pieces it is outside of, tallest first, and which of
/// them reach into each slice of directions (fan `i` is bit `i`, as in [`Sectors`]).
#[derive(Debug, Clone, Default)]
struct Fans {
    list: Vec<Fan>,
    words: usize,
    /// `SECTORS × words` bits.
    slices: Vec<u64>,
}

impl Fans {
    /// The fans from point `c`, into `self`, for targets in front of `c` (`front`: the facing's
    /// unit vector of a 180° arc; `None`: all around), of every convex piece and convex part of a
    /// concave one. One that `c` is on or in, or one wholly behind the arc line never spans (see
    /// [`spanning_pieces`]: a spanning piece cuts the way from `c` to the target's foremost
    /// point, which is in front).
    fn fill(&mut self, obs: &Obstacles, c: TablePoint, front: Option<TablePoint>) {
        self.list.clear();
        self.list.extend(obs.work.convex_by_height.iter().filter_map(|&(piece, part)| {
            let (poly, _, bx) = obs.shape(piece, part);
            if front.is_some_and(|f| poly.iter().all(|&v| v.sub(c).dot(f) < -1e-6)) {
                return None;
            }
            // (Outside its box, and beyond what `locate` counts as on an edge: surely outside it.)
            let g = 1e-8;
            let outside = c.x < bx.min.x - g || c.x > bx.max.x + g || c.y < bx.min.y - g || c.y > bx.max.y + g;
            if !outside && locate(poly, c) != Where::Outside {
                return None;
            }
            let (lo, hi) = directions_from(c, poly.iter().copied())?;
            Some(Fan { piece, part, height: obs.terrain[piece].height_in, lo, hi })
        }));
        let ranges: Vec<_> = self.list.iter().map(|f| Some(slice_range(Some((f.lo, f.hi))))).collect();
        self.words = slice_rows(&ranges, &mut self.slices);
    }

    /// The pieces and parts taller than `low` (inches) whose fans hold both directions `t0` and
    /// `t1`, into `out` (in the fans' order).
    fn holding(&self, t0: TablePoint, t1: TablePoint, low: f64, out: &mut Vec<(usize, Option<usize>)>) {
        // (Only fans reaching into both directions' slices can hold both; the tallest come first.)
        let taller = self.list.partition_point(|f| f.height > low);
        let (row0, row1) = (sector(t0) * self.words, sector(t1) * self.words);
        for w in 0..self.words {
            let mut m = self.slices[row0 + w] & self.slices[row1 + w];
            while m != 0 {
                let i = w * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                if i >= taller {
                    break;
                }
                let f = &self.list[i];
                if f.holds(t0) && f.holds(t1) {
                    out.push((f.piece, f.part));
                }
            }
        }
    }
}

impl Fan {
    /// Whether direction `u` lies in the fan.
    fn holds(&self, u: TablePoint) -> bool {
        self.lo.cross(u) >= 0.0 && u.cross(self.hi) >= 0.0
    }
}

impl<'a> Obstacles<'a> {
    /// Obstacles from terrain and bodies (precomputes bounding boxes).
    pub fn new(terrain: &'a [Terrain], bodies: &'a [Body]) -> Self {
        Self::build(terrain, bodies, TerrainWork::of(terrain))
    }

    /// Obstacles from terrain, bodies, and what was worked out from that terrain.
    fn build(terrain: &'a [Terrain], bodies: &'a [Body], work: TerrainWork) -> Self {
        let body_dims = bodies.iter().map(|b| (b.radius(), b.bottom(), b.top())).collect();
        let body_soa = [
            bodies.iter().map(|b| b.centre.x).collect(),
            bodies.iter().map(|b| b.centre.y).collect(),
            bodies.iter().map(|b| b.radius()).collect(),
        ];
        Self {
            terrain,
            bodies,
            work,
            body_dims,
            body_soa,
            fans: bodies.iter().map(|_| std::sync::OnceLock::new()).collect(),
            sectors: bodies.iter().map(|_| std::sync::OnceLock::new()).collect(),
            reach_max: broad_reach(bodies.iter().map(|b| b.radius()).fold(0.0, f64::max), 0.0),
            facings: bodies.iter().map(|b| (b.facing_deg, b.facing_unit())).collect(),
            outlines: bodies
                .iter()
                .map(|b| {
                    let (mut ring, mut whole, mut front) = (Vec::new(), Vec::new(), Vec::new());
                    Region { centre: b.centre, r: b.radius(), clip: None }.outer_polygon(&mut ring, &mut whole);
                    let clip = matches!(b.arc, Arc::Front180).then(|| (b.centre, b.facing_unit()));
                    Region { centre: b.centre, r: b.radius(), clip }.outer_polygon(&mut ring, &mut front);
                    [whole, front].map(|p| {
                        let bx = Aabb::around(p.iter().copied());
                        (p, bx)
                    })
                })
                .collect(),
            underpass: bodies.iter().map(|b| b.bottom() > EPS && !stands_on_terrain(b, terrain)).collect(),
        }
    }

    /// Like [`Obstacles::new`], keeping from `caches` what still holds: when they were worked
    /// out over the same terrain and as many bodies, every body that has not moved keeps its
    /// fans, and every viewer keeps its sectors, with the bodies that moved moved in them.
    /// The obstacles answer exactly as new ones would.
    pub fn with_caches(terrain: &'a [Terrain], bodies: &'a [Body], caches: ViewerCaches) -> Self {
        let ViewerCaches { terrain: t0, terrain_work, bodies: before, mut fans, mut sectors, reach_max } = caches;
        if t0 != terrain {
            return Self::new(terrain, bodies);
        }
        let mut obs = Self::build(terrain, bodies, terrain_work);
        if before.len() != bodies.len() || fans.len() != bodies.len() || sectors.len() != bodies.len() {
            return obs;
        }
        let moved: Vec<usize> = (0..bodies.len()).filter(|&k| before[k] != bodies[k]).collect();
        for &k in &moved {
            fans[k] = std::sync::OnceLock::new();
            sectors[k] = std::sync::OnceLock::new();
        }
        if reach_max == obs.reach_max {
            for (v, s) in sectors.iter_mut().enumerate() {
                if let Some(s) = s.get_mut() {
                    for &k in &moved {
                        s.move_body(bodies[v].centre, terrain.len() + k, &bodies[k], reach_max);
                    }
                }
            }
            obs.sectors = sectors;
        }
        obs.fans = fans;
        obs
    }

    /// What was worked out per viewer, for [`Obstacles::with_caches`].
    pub fn into_caches(self) -> ViewerCaches {
        ViewerCaches {
            terrain: self.terrain.to_vec(),
            terrain_work: self.work,
            bodies: self.bodies.to_vec(),
            fans: self.fans,
            sectors: self.sectors,
            reach_max: self.reach_max,
        }
    }
}

/// Whether a raised body stands on terrain: some piece at least as high as the body's feet holds
/// its whole base (the base's centre inside the footprint, and every edge at least the radius
/// away). No line passes beneath such a body: at every plan point under it the line would be
/// lower than that piece, inside it, and blocked there. (Lines within [`EPS`] of the feet are
/// the exception, and a slit that thin is no Line of Fire.)
fn stands_on_terrain(b: &Body, terrain: &[Terrain]) -> bool {
    terrain.iter().any(|t| holds(t, b))
}

/// Whether piece `t`, at least as high as body `b`'s feet, holds its whole base: the base's
/// centre inside the footprint, and every edge at least the radius away.
fn holds(t: &Terrain, b: &Body) -> bool {
    let (c, r) = (b.centre, b.radius());
    t.height_in >= b.bottom()
        && locate(&t.polygon, c) == Where::Inside
        && edges(&t.polygon).all(|(p, q)| point_segment_distance(c, p, q) >= r)
}

/// Whether piece `t`'s footprint reaches in under some of body `b`'s base (its open disc).
fn reaches_under(t: &Terrain, b: &Body) -> bool {
    let (c, r) = (b.centre, b.radius());
    locate(&t.polygon, c) != Where::Outside || edges(&t.polygon).any(|(p, q)| point_segment_distance(c, p, q) < r)
}

/// Whether body `other` may block some line from `viewer` to `target` (or its place matter to
/// their LoF at all): whether it comes within the broad phase's reach of the segment between
/// their centres (inches). When it does not, [`line_of_fire`] answers the same wherever it is.
pub fn may_block(viewer: &Body, target: &Body, other: &Body) -> bool {
    let reach = broad_reach(viewer.radius(), target.radius());
    let len = viewer.centre.dist(target.centre);
    // (The margin is far above rounding, as in the broad phase's own tests.)
    point_segment_distance(other.centre, viewer.centre, target.centre) < reach + other.radius() + 1e-6 * (1.0 + len)
}

impl Obstacles<'_> {
    /// The footprint (inches), its orientation (`Some(counter-clockwise?)` when convex) and box
    /// of piece `piece`, or of convex part `part` of it when it is concave.
    #[inline]
    fn shape(&self, piece: usize, part: Option<usize>) -> (&[TablePoint], Option<bool>, &Aabb) {
        match part {
            Some(k) => (&self.work.parts[piece][k].poly, Some(true), &self.work.parts[piece][k].bx),
            None => (&self.terrain[piece].polygon, self.work.convex[piece], &self.work.boxes[piece]),
        }
    }

    /// Into `out`, in index order (terrain pieces first, then bodies), the terrain pieces whose
    /// boxes grown by `reach` meet segment `a b` (exactly: the separating axes x, y and the
    /// segment's normal), and the bodies that may come within `reach` of it (their discs tested
    /// as a box around the segment, `reach` plus the radius to every side: a superset). Inches.
    ///
    /// With `viewer`, the index of a body standing at `a` (the viewer: its facing and arc too,
    /// and `b` the centre of a target in its arc), its [`Sectors`] give the candidates instead: a
    /// superset of what the exact tests that follow keep (the slice holding the segment's
    /// direction lists everything that comes within `reach` of it).
    fn near_segment(&self, viewer: Option<usize>, a: TablePoint, b: TablePoint, reach: f64, out: &mut Vec<usize>) {
        out.clear();
        let w = b.sub(a);
        if let Some(k) = viewer
            && reach <= self.reach_max
            && w.dot(w) > 1e-18
            && let Some(sectors) = self.sectors.get(k).map(|s| {
                s.get_or_init(|| {
                    let v = &self.bodies[k];
                    let front = matches!(v.arc, Arc::Front180).then(|| self.facings[k].1);
                    Sectors::from(self, a, self.reach_max, front)
                })
            })
        {
            let words = sectors.words;
            let row = &sectors.masks[sector(w) * words..][..words];
            for (i, &word) in row.iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    out.push(i * 64 + m.trailing_zeros() as usize);
                    m &= m - 1;
                }
            }
            return;
        }
        let len = w.norm();
        let d = if len > 1e-12 { w.scale(1.0 / len) } else { TablePoint::new(1.0, 0.0) };
        let (lo, hi) = (TablePoint::new(a.x.min(b.x), a.y.min(b.y)), TablePoint::new(a.x.max(b.x), a.y.max(b.y)));
        let (nx, ny) = (d.y.abs(), d.x.abs());
        let [cx, cy, hx, hy] = &self.work.soa;
        let n_terrain = cx.len().min(cy.len()).min(hx.len()).min(hy.len());
        for k in 0..n_terrain {
            let (ex, ey) = (hx[k] + reach, hy[k] + reach);
            let (ox, oy) = (cx[k] - a.x, cy[k] - a.y);
            let apart_x = (cx[k] - ex > hi.x) | (cx[k] + ex < lo.x);
            let apart_y = (cy[k] - ey > hi.y) | (cy[k] + ey < lo.y);
            let apart_n = (d.x * oy - d.y * ox).abs() > ex * nx + ey * ny;
            if !(apart_x | apart_y | apart_n) {
                out.push(k);
            }
        }
        let slack = 1e-9 * (1.0 + len + reach);
        let [bx, by, br] = &self.body_soa;
        for k in 0..br.len().min(bx.len()).min(by.len()) {
            let (ox, oy) = (bx[k] - a.x, by[k] - a.y);
            let (along, across) = (ox * d.x + oy * d.y, d.x * oy - d.y * ox);
            let m = reach + br[k] + slack;
            if along >= -m && along <= len + m && across.abs() <= m {
                out.push(n_terrain + k);
            }
        }
    }
}

/// The broad phase's reach beyond the larger radius: the 16-gon outlines are up to 2% larger
/// than the bases.
const REACH_FACTOR: f64 = 1.05;

/// How far from the segment between the centres of bases of radii `ra` and `rb` the broad
/// phase looks (inches): a capsule that holds the hull of both bases' outlines.
fn broad_reach(ra: f64, rb: f64) -> f64 {
    ra.max(rb) * REACH_FACTOR
}

/// How far inside a blocker a line must pass to count as surely blocked by a shadow, inches: the
/// line then crosses the blocker for at least this long, far more than the exact test's 1e-9 of
/// its length on any table.
const SHADOW_MARGIN_IN: f64 = 1e-5;

/// Convex `poly` scaled about its vertex mean so that every point is at least
/// [`SHADOW_MARGIN_IN`] inside it (each edge moves in by `λ` times the mean's distance to it);
/// empty when the piece is too small for that.
fn core(poly: &[TablePoint]) -> Vec<TablePoint> {
    let n = poly.len();
    let c = poly.iter().fold(TablePoint::new(0.0, 0.0), |s, &p| s.add(p)).scale(1.0 / n as f64);
    let inset = (0..n)
        .map(|i| {
            let (p, q) = (poly[i], poly[(i + 1) % n]);
            orient(p, q, c).abs() / q.sub(p).norm().max(1e-300)
        })
        .fold(f64::INFINITY, f64::min);
    let lambda = SHADOW_MARGIN_IN / inset;
    if !(lambda > 0.0 && lambda < 0.5) {
        return Vec::new();
    }
    poly.iter().map(|&p| c.add(p.sub(c).scale(1.0 - lambda))).collect()
}

/// Whether the polygon turns one way only (collinear corners allowed).
fn is_convex(poly: &[TablePoint]) -> bool {
    let n = poly.len();
    let mut sign = 0.0;
    for i in 0..n {
        let o = orient(poly[i], poly[(i + 1) % n], poly[(i + 2) % n]);
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

/// How far from the centre the corners of the outline polygon of a unit circle are (it
/// circumscribes the circle: [`OUTLINE_SIDES`] sides).
fn outline_circumradius() -> f64 {
    1.0 / (std::f64::consts::PI / OUTLINE_SIDES as f64).cos()
}

/// The corners of a regular polygon circumscribing the unit circle ([`OUTLINE_SIDES`] sides).
static UNIT_RING: std::sync::LazyLock<[TablePoint; OUTLINE_SIDES]> = std::sync::LazyLock::new(|| {
    let k = outline_circumradius();
    std::array::from_fn(|i| {
        let a = i as f64 * std::f64::consts::TAU / OUTLINE_SIDES as f64;
        TablePoint::new(a.cos() * k, a.sin() * k)
    })
});

thread_local! {
    /// Unit vectors at `n` equal angles from `+x`, by `n` (few sizes: one per base size).
    static UNIT_CIRCLES: std::cell::RefCell<Vec<(usize, Vec<TablePoint>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Call `f` with the unit vectors at angles `i·τ/n`, `i` in `0..n` (computed once per thread).
fn with_unit_circle<R>(n: usize, f: impl FnOnce(&[TablePoint]) -> R) -> R {
    UNIT_CIRCLES.with_borrow_mut(|cache| {
        let k = match cache.iter().position(|(m, _)| *m == n) {
            Some(k) => k,
            None => {
                let circle = (0..n)
                    .map(|i| {
                        let a = i as f64 * std::f64::consts::TAU / n as f64;
                        TablePoint::new(a.cos(), a.sin())
                    })
                    .collect();
                cache.push((n, circle));
                cache.len() - 1
            }
        };
        f(&cache[k].1)
    })
}

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

    /// How far the ray from `a` along unit `u` runs before it leaves the disc or crosses the
    /// clip line to its back, inches.
    fn exit(&self, a: TablePoint, u: TablePoint) -> f64 {
        let (c, r) = (self.centre, self.r);
        let along = c.sub(a).dot(u);
        let off2 = c.sub(a).dot(c.sub(a)) - along * along;
        let far = along + (r * r - off2).max(0.0).sqrt();
        match self.clip {
            Some((_, n)) if u.dot(n) < -1e-12 => far.min(self.ahead(a) / -u.dot(n)),
            _ => far,
        }
    }

    /// Move a point `p` of the disc into the region: if it is behind the half-plane's line, onto
    /// the line (plus a hair), and, where that leaves the disc, along the line to the end of the
    /// disc's chord on it. (A target just straddling the arc line is a thin cap of its disc: a
    /// point across its centre moved straight onto the line can land beyond the cap.)
    fn pull_in(&self, p: TablePoint) -> TablePoint {
        match self.clip {
            Some((_, n)) => {
                let a = self.ahead(p);
                if a >= 1e-7 {
                    return p;
                }
                let q = p.add(n.scale(1e-7 - a));
                let along = TablePoint::new(-n.y, n.x);
                let (s, t) = (q.sub(self.centre).dot(along), q.sub(self.centre).dot(n));
                let half = (self.r * self.r - t * t).max(0.0).sqrt();
                if s.abs() <= half { q } else { self.centre.add(n.scale(t)).add(along.scale(half.copysign(s))) }
            }
            None => p,
        }
    }

    /// The straight edge of a clipped base, along the half-plane's line: its middle, the unit
    /// vector along it, and half its length (inches); none without a clip.
    fn chord(&self) -> Option<(TablePoint, TablePoint, f64)> {
        self.clip.map(|(o, n)| {
            let along = TablePoint::new(-n.y, n.x);
            let off = self.centre.sub(o).dot(n);
            let half = (self.r * self.r - off * off).max(0.0).sqrt();
            (self.centre.sub(n.scale(off)), along, half)
        })
    }

    /// A polygon containing the region (circumscribed outline clipped to the half-plane), into
    /// `out` (`ring` is scratch space).
    fn outer_polygon(&self, ring: &mut Vec<TablePoint>, out: &mut Vec<TablePoint>) {
        out.clear();
        match self.clip {
            None => out.extend(UNIT_RING.iter().map(|&u| self.centre.add(u.scale(self.r)))),
            Some(_) => {
                ring.clear();
                ring.extend(UNIT_RING.iter().map(|&u| self.centre.add(u.scale(self.r))));
                clip_half_plane(ring, out, |p| self.ahead(p));
            }
        }
    }

    /// Points on the region's outline where a line to the disc of radius `other_r` at `toward`
    /// can leave (or enter) it, every `spacing` inches or closer, into `pts`; with `chord`, the
    /// straight edge of a clipped base too (a line between two points of the arc's half-plane crosses the arc
    /// line only at an end, so the viewer needs only the chord's two ends; the target needs the
    /// chord when it straddles the arc line).
    fn facing_outline(&self, toward: TablePoint, other_r: f64, spacing: f64, chord: bool, pts: &mut Vec<TablePoint>) {
        pts.clear();
        let n = ((std::f64::consts::TAU * self.r / spacing).ceil() as usize).max(8);
        let dir = toward.sub(self.centre);
        let len = dir.norm().max(1e-12);
        // Every such line is within asin((r + other_r) / distance) of the centre line, so its
        // crossing point's outward normal u has u·dir ≥ -sin of that.
        let margin = ((self.r + other_r) / len).min(1.0) + 1e-9;
        // (Only points within a quarter-turn and asin(margin) of `dir` pass: the test visits
        // those, and one more either side, in the circle's order.)
        let step = std::f64::consts::TAU / n as f64;
        let (theta, half) = (dir.y.atan2(dir.x), std::f64::consts::FRAC_PI_2 + margin.min(1.0).asin());
        let first = ((theta - half) / step).floor() as isize - 1;
        let count = (((theta + half) / step).ceil() as isize + 1 - first + 1).clamp(0, n as isize) as usize;
        let start = first.rem_euclid(n as isize) as usize;
        let (wrapped, tail) = if start + count > n { (start + count - n, start..n) } else { (0, start..start + count) };
        with_unit_circle(n, |circle| {
            for &u in circle[..wrapped].iter().chain(&circle[tail]) {
                let p = self.centre.add(u.scale(self.r));
                if u.dot(dir) >= -margin * len && self.ahead(p) >= 0.0 {
                    pts.push(p);
                }
            }
        });
        if let Some((mid, along, half)) = self.chord() {
            // The straight edge of a clipped base, along the arc line: all of it with `chord`,
            // otherwise its two ends (the base's extreme points across the arc line, where the
            // narrowest slivers are seen from).
            let k = if chord { ((2.0 * half / spacing).ceil() as usize).max(1) } else { 1 };
            for i in 0..=k {
                pts.push(self.pull_in(mid.add(along.scale(-half + 2.0 * half * i as f64 / k as f64))));
            }
        }
    }
}

/// One line's height profile: height at the viewer end and at the target end, inches.
type Profile = (f64, f64);

/// The two Silhouettes' top faces, for lines that run on over them.
///
/// A line may end anywhere on the target's Silhouette, its top face included, and start anywhere
/// on the front half of the viewer's. Seen from above a shorter target, the best lines end on its
/// top face (up to 3 mm short of the far rim, so that 3 mm of it shows): where such a line enters
/// the base outline in plan it is *higher* than the target's top. Likewise a line climbing from a
/// lower viewer leaves its base outline higher than the viewer's top when it starts on the top face
/// behind. [`Tops::raise`] gives a sampled line those heights (the plan stretch inside a base holds
/// nothing else: bases do not overlap and no trooper stands inside terrain).
#[derive(Debug, Clone, Copy)]
struct Tops {
    viewer: Region,
    viewer_top: f64,
    target: Region,
    target_top: f64,
}

impl Tops {
    /// The line from plan point `a` (viewer outline) to `b` (target outline) at heights `z`,
    /// raised over the top faces where that helps: its heights at `a` and `b`, and its true end
    /// points on the Silhouettes (the witness).
    fn raise(&self, a: TablePoint, b: TablePoint, z: Profile) -> (Profile, [Point3; 2]) {
        let w = b.sub(a);
        let d = w.norm();
        let mut out = (z, [Point3::at(a, z.0), Point3::at(b, z.1)]);
        if d <= 1e-12 {
            return out;
        }
        let u = w.scale(1.0 / d);
        if z.0 > self.target_top + EPS {
            let e = self.run_on(a, u, d);
            if e > 0.0 {
                let zb = z.0 + (self.target_top - z.0) * d / (d + e);
                if zb > z.1 {
                    out = ((z.0, zb), [Point3::at(a, z.0), Point3::at(a.add(u.scale(d + e)), self.target_top)]);
                }
            }
        } else if z.1 > self.viewer_top + EPS {
            let g = self.run_back(a, u);
            if g > 1e-9 {
                let za = self.viewer_top + (z.1 - self.viewer_top) * g / (g + d);
                if za > z.0 {
                    out = ((za, z.1), [Point3::at(a.sub(u.scale(g)), self.viewer_top), Point3::at(b, z.1)]);
                }
            }
        }
        out
    }

    /// How far a line from `a` along unit `u`, reaching the target's outline at plan distance `d`,
    /// may run on over the target's top face: inside its disc (and the viewer's arc) to 3 mm short
    /// of where it leaves them, inches (not positive: not at all).
    fn run_on(&self, a: TablePoint, u: TablePoint, d: f64) -> f64 {
        self.target.exit(a, u) - d - MIN_VISIBLE_IN
    }

    /// How far behind `a` (on the viewer's outline) along unit `-u` a line may start on the
    /// viewer's top face: inside its disc and its arc's half-plane, inches.
    fn run_back(&self, a: TablePoint, u: TablePoint) -> f64 {
        self.viewer.exit(a, TablePoint::new(-u.x, -u.y))
    }

    /// Heights no raised line of profile `z` exceeds at either end, for lines at least `l_min`
    /// long in plan (inches). Running on over the target's top face for `e ≤ 2·rb` past its end at
    /// plan distance `d`, a line's end is raised to `z.0 + (top − z.0)·d/(d + e)`, at most
    /// `z.0 − (z.0 − top)·l_min/(l_min + 2·rb)`; likewise at the viewer's end.
    fn ceiling(&self, z: Profile, l_min: f64) -> Profile {
        let l_min = l_min.max(0.0);
        if z.0 > self.target_top + EPS {
            let run = 2.0 * self.target.r;
            (z.0, z.1.max(z.0 - (z.0 - self.target_top) * l_min / (l_min + run)))
        } else if z.1 > self.viewer_top + EPS {
            let run = 2.0 * self.viewer.r;
            (z.0.max(self.viewer_top + (z.1 - self.viewer_top) * run / (run + l_min)), z.1)
        } else {
            z
        }
    }
}

/// The per-pair context of a LoF query.
struct Query<'o, 'a, 'b> {
    obs: &'o Obstacles<'a>,
    terrain: &'b mut Vec<usize>,
    bodies: &'b mut Vec<usize>,
    scratch: &'b mut Vec<f64>,
    /// Shadow intervals for phase 4c (see [`Query::shadows`]).
    shadows: &'b mut Vec<(f64, f64)>,
    /// Scratch polygons for the shadows' clipping.
    clip: &'b mut Vec<TablePoint>,
    clip_tmp: &'b mut Vec<TablePoint>,
    /// What blocked the last line found blocked.
    last_hit: Option<Blocker>,
    /// The blockers whose shadows covered the target from the last viewer point.
    cover: &'b mut Vec<Blocker>,
}

/// A base outline polygon with its box (inches).
type Outline<'p> = (&'p [TablePoint], Aabb);

/// Points tagged with the outline they come from.
type Tagged = Vec<(TablePoint, u8)>;

/// Buffers a LoF query reuses from one call to the next (per thread), so that a query allocates
/// almost nothing.
#[derive(Default)]
struct Buffers {
    terrain: Vec<usize>,
    bodies: Vec<usize>,
    scratch: Vec<f64>,
    shadows: Vec<(f64, f64)>,
    clip: (Vec<TablePoint>, Vec<TablePoint>),
    ring: Vec<TablePoint>,
    pa: Vec<TablePoint>,
    pb: Vec<TablePoint>,
    hull_pts: (Tagged, Tagged),
    hull: Vec<TablePoint>,
    hull_sides: Vec<u8>,
    /// The quadrilateral between the hull's bridges (see [`HullParts`]).
    quad: Vec<TablePoint>,
    /// The sample points of phase 4c, on the viewer's outline and the target's.
    fine: (Vec<TablePoint>, Vec<TablePoint>),
    chain: ChainBuffers,
    /// The broad phase's obstacles near the pair.
    near: Vec<usize>,
    /// Fans from a viewer that is not one of the bodies, and the pieces that may span.
    fans: Fans,
    spanning: Vec<(usize, Option<usize>)>,
    /// The blockers whose shadows last covered the target (see [`Query::shadows`]).
    cover: Vec<Blocker>,
    /// A piece scaled for [`low_lines_may_meet`].
    low: Vec<TablePoint>,
}

/// A blocker's part inside the hull, for [`separating_chain`]: a clipped convex footprint, or a
/// trooper's disc.
enum ChainPart {
    Poly(Vec<TablePoint>),
    Disc(TablePoint, f64),
}

/// Buffers [`separating_chain`] reuses from one call to the next.
#[derive(Default)]
struct ChainBuffers {
    clipped: Vec<TablePoint>,
    tmp: Vec<TablePoint>,
    /// Each candidate, the convex part of it when it is a concave piece's, and its box.
    cands: Vec<(Blocker, Option<usize>, Aabb)>,
    parts: Vec<Option<Option<ChainPart>>>,
    reached: Vec<bool>,
    stack: Vec<usize>,
}

thread_local! {
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::new(Buffers::default());
}

#[cfg(test)]
thread_local! {
    /// How many lines [`Query::blocked`] has tested on this thread (for tests that a proof
    /// answered without sampling).
    static LINES_TESTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Which proof gave this thread's last "every line is blocked" from phase 2a or 4b.
    static PROVED_BY: std::cell::Cell<Option<Proof>> = const { std::cell::Cell::new(None) };
}

/// The proofs that every line is blocked without sampling them, for tests.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq)]
enum Proof {
    /// Phase 2a: one tall convex piece (or convex part of a concave one) spans the way.
    Spanning,
    /// Phase 4b: a chain of tall blockers cuts the hull in two.
    Chain,
}

impl Query<'_, '_, '_> {
    /// Whether the 3D segment `a → b` (plan points, heights from `z`) is blocked, and by what
    /// (one blocker: the one that blocked the previous line is tried first, as neighbouring lines
    /// are mostly blocked by the same thing).
    fn blocked(&mut self, a: TablePoint, b: TablePoint, z: Profile) -> Option<Blocker> {
        #[cfg(test)]
        LINES_TESTED.with(|n| n.set(n.get() + 1));
        let seg_box = Aabb::around([a, b]);
        let line = (a, b, z, &seg_box);
        if let Some(k) = self.last_hit
            && blocks(self.obs, k, line, self.scratch)
        {
            return Some(k);
        }
        let candidates = self.terrain.iter().map(|&i| Blocker::Terrain(i));
        let found = candidates
            .chain(self.bodies.iter().map(|&j| Blocker::Trooper(j)))
            .find(|&k| Some(k) != self.last_hit && blocks(self.obs, k, line, self.scratch));
        if found.is_some() {
            self.last_hit = found;
        }
        found
    }
}

/// Whether blocker `k` blocks the 3D segment `a → b` (plan points, heights from `z`; `seg_box`
/// its plan box).
fn blocks(
    obs: &Obstacles,
    k: Blocker,
    (a, b, z, seg_box): (TablePoint, TablePoint, Profile, &Aabb),
    scratch: &mut Vec<f64>,
) -> bool {
    match k {
        Blocker::Terrain(i) => {
            if !obs.work.boxes[i].overlaps(seg_box) {
                return false;
            }
            let t = &obs.terrain[i];
            // The stretch of the line lower than the piece.
            let Some((t0, t1)) = below(z, t.height_in, 0.0, 1.0) else { return false };
            match obs.work.convex[i] {
                Some(ccw) => through_low(&t.polygon, ccw, (a, b), (t0, t1)),
                // Concave: the line passes through the piece where it passes through one of the
                // convex parts that make it up.
                None if !obs.work.parts[i].is_empty() => obs.work.parts[i]
                    .iter()
                    .any(|p| p.bx.overlaps(seg_box) && through_low(&p.poly, true, (a, b), (t0, t1))),
                None => passes_through(&t.polygon, a, b, t0, t1, scratch),
            }
        }
        Blocker::Trooper(j) => {
            let (c, &(r, bottom, top)) = (&obs.bodies[j], &obs.body_dims[j]);
            let Some((t0, t1)) = disc_interval(a, b, c.centre, r) else { return false };
            // Inside the disc, is the line below the body's top and up to its bottom anywhere? (A
            // line that only reaches the bottom face meets it: one along the table, from feet to
            // feet, runs into every trooper standing on it.)
            below(z, top, t0, t1).is_some_and(|(u0, u1)| reaches(z, bottom, u0, u1))
        }
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

/// Whether segment `a b` passes through convex `poly` (`ccw`: its orientation) somewhere in
/// its stretch `(t0, t1)`, the part of it lower than the piece: one clipping pass, the stretch
/// inside overlapping the low one by more than 1e-9 of the segment.
#[inline]
fn through_low(poly: &[TablePoint], ccw: bool, (a, b): (TablePoint, TablePoint), (t0, t1): (f64, f64)) -> bool {
    convex_interval(poly, ccw, a, b).is_some_and(|(u0, u1)| u1.min(t1) - u0.max(t0) > 1e-9)
}

/// Whether the line's height is up to `h` or above somewhere in the open range `(t0, t1)` (to
/// within `EPS`).
fn reaches((za, zb): Profile, h: f64, t0: f64, t1: f64) -> bool {
    let z = |t: f64| za + (zb - za) * t;
    t1 - t0 > 1e-12 && z(t0).max(z(t1)) >= h - EPS
}

/// How far into a 180° arc (past the line through the viewer's base centre, perpendicular to its
/// facing) some of a target's base must reach to count as in it, inches: a zero-area touch is not
/// "partly inside" (N4 "Line of Fire", the front arc).
pub(crate) const ARC_TOUCH_IN: f64 = 1e-6;

/// Line of Fire from `viewer` to `target` (N4 "Line of Fire"); `skip` lists indices in
/// `obstacles.bodies` that do not block (the viewer and the target themselves).
///
/// # Units
/// Bodies and terrain in table inches; the witness is two 3D points in inches.
pub fn line_of_fire(obstacles: &Obstacles, viewer: &Body, target: &Body, skip: &[usize]) -> LofResult {
    // (`line_of_fire_in` never calls back here, so the buffers are never borrowed twice.)
    BUFFERS.with_borrow_mut(|buffers| line_of_fire_in(buffers, obstacles, viewer, target, skip))
}

fn line_of_fire_in(
    buffers: &mut Buffers,
    obstacles: &Obstacles,
    viewer: &Body,
    target: &Body,
    skip: &[usize],
) -> LofResult {
    let (ra, rb) = (viewer.radius(), target.radius());
    // 1. Arc: some part of the target in front of the arc line (strictly: a zero-area touch is not "partly inside").
    // (The viewer's body among the obstacles, if it is one — standing there, facing that way,
    // with that arc: what is worked out for it once serves all its targets.)
    let viewer_body = skip.iter().copied().find(|&k| {
        obstacles
            .bodies
            .get(k)
            .is_some_and(|b| (b.centre, b.facing_deg, b.arc) == (viewer.centre, viewer.facing_deg, viewer.arc))
    });
    // (The facing's unit vector once: `Body::ahead` works it out from the angle on every call.)
    let facing = match viewer_body.and_then(|k| obstacles.facings.get(k)) {
        Some(&(_, unit)) => unit,
        None => viewer.facing_unit(),
    };
    let ahead = match viewer.arc {
        Arc::Front180 => target.centre.sub(viewer.centre).dot(facing),
        Arc::All360 => f64::INFINITY,
    };
    if ahead + rb <= ARC_TOUCH_IN {
        return LofResult { lof: Lof::OutOfArc, witness: None };
    }
    let clip = match viewer.arc {
        Arc::Front180 => Some((viewer.centre, facing)),
        Arc::All360 => None,
    };
    let va = Region { centre: viewer.centre, r: ra, clip };
    let tb = Region { centre: target.centre, r: rb, clip: clip.filter(|_| ahead < rb) };
    let line_lo = viewer.bottom().min(target.bottom());
    let line_hi = viewer.top().max(target.top() - MIN_VISIBLE_IN);
    // (A line may end on the target's side no higher than 3 mm below its top, so that 3 mm of it
    // show: `best.1` bounds every profile's target end — the feet, for a 3 mm tall Prone trooper
    // or S0 marker.)
    let best: Profile = (viewer.top(), (target.top() - MIN_VISIBLE_IN).max(target.bottom()));
    let tops = Tops { viewer: va, viewer_top: viewer.top(), target: tb, target_top: target.top() };
    let ceiling = Ceiling::new(viewer, target, best);

    // 2. Broad phase: what comes within the larger radius (plus the outline polygon's 2%) of the
    // segment joining the centres — a capsule that contains the hull of both bases.
    let reach = broad_reach(ra, rb);
    let bbox = Aabb::around([va.centre, tb.centre]).grown(reach);
    let Buffers {
        terrain,
        bodies,
        scratch,
        shadows,
        clip,
        ring,
        pa,
        pb,
        hull_pts,
        hull,
        hull_sides,
        quad,
        fine,
        chain,
        near,
        fans,
        spanning,
        cover,
        low: scaled_piece,
    } = buffers;
    cover.clear();

    // 2a. One tall convex piece across the hull of both whole bases: every line is blocked. Only
    // a piece whose fan from the viewer's centre holds every direction to the target's disc can
    // (every line from there to the disc crosses it): that cheap test picks the few to check.
    let front = matches!(viewer.arc, Arc::Front180).then_some(facing);
    let fans: &Fans = match viewer_body {
        Some(k) => obstacles.fans[k].get_or_init(|| {
            let mut out = Fans::default();
            out.fill(obstacles, viewer.centre, front);
            out
        }),
        None => {
            fans.fill(obstacles, viewer.centre, front);
            fans
        }
    };
    spanning.clear();
    // (The two directions touching the disc shrunk a little, so rounding cannot drop a piece.)
    if let Some((t0, t1)) = tangent_directions(tb.centre.sub(va.centre), rb * 0.999) {
        // (No line is lower than the lower end of the height bound: a piece no taller than that
        // never spans. The fans come tallest first.)
        let low = ceiling.z.0.min(ceiling.z.1) + 2.0 * EPS;
        fans.holding(t0, t1, low, spanning);
        spanning.sort_unstable();
    }
    if !spanning.is_empty()
        && let Some(by) = spanning_pieces(obstacles, spanning, viewer, target, &ceiling)
    {
        #[cfg(test)]
        PROVED_BY.with(|p| p.set(Some(Proof::Spanning)));
        return LofResult { lof: Lof::Blocked { by }, witness: None };
    }
    terrain.clear();
    bodies.clear();
    let (clip, clip_tmp) = (&mut clip.0, &mut clip.1);
    let mut q = Query { obs: obstacles, terrain, bodies, scratch, shadows, clip, clip_tmp, last_hit: None, cover };
    // (In index order, every obstacle whose circle comes within `reach` of the segment: a
    // superset of those the exact tests below keep.)
    obstacles.near_segment(viewer_body, va.centre, tb.centre, reach, near);
    let n_terrain = obstacles.terrain.len();
    // (A piece's box grown by `reach` meets the segment between the centres unless the x or y
    // axis or the segment's normal parts them: no division, and a hair of slack so that it keeps
    // every piece the exact tests below may keep.)
    let normal = TablePoint::new(va.centre.y - tb.centre.y, tb.centre.x - va.centre.x);
    let (nx, ny) = (normal.x.abs(), normal.y.abs());
    let slack = 1e-9 * (nx + ny) * (1.0 + reach);
    let [cx, cy, hx, hy] = &obstacles.work.soa;
    for &k in near.iter() {
        if k < n_terrain {
            let (i, t) = (k, &obstacles.terrain[k]);
            let b = &obstacles.work.boxes[i];
            let off = (cx[i] - va.centre.x) * normal.x + (cy[i] - va.centre.y) * normal.y;
            let apart_n = off.abs() > (hx[i] + reach) * nx + (hy[i] + reach) * ny + slack;
            if (t.height_in > line_lo + EPS) & b.overlaps(&bbox) & !apart_n {
                q.terrain.push(i);
            }
            continue;
        }
        let j = k - n_terrain;
        let (c, &(r, bottom, top)) = (&obstacles.bodies[j], &obstacles.body_dims[j]);
        // (A marker blocks no line: digest §2, see `Body::marker`.)
        if bottom >= line_hi || top <= line_lo || c.marker || skip.contains(&j) {
            continue;
        }
        // (Outside the box of the centres grown by that much: surely farther from the segment.)
        let (p, m) = (c.centre, reach + r);
        let far = p.x < bbox.min.x - r || p.x > bbox.max.x + r || p.y < bbox.min.y - r || p.y > bbox.max.y + r;
        if !far && point_segment_distance(p, va.centre, tb.centre) < m {
            q.bodies.push(j);
        }
    }
    let centre_line = || {
        let (a, b) = (va.pull_in(va.centre), tb.pull_in(tb.centre));
        [
            Point3::at(a, 0.5 * (viewer.bottom() + viewer.top())),
            Point3::at(b, (0.5 * (target.bottom() + target.top())).min(best.1)),
        ]
    };
    if q.terrain.is_empty() && q.bodies.is_empty() {
        return LofResult { lof: Lof::Clear, witness: Some(centre_line()) };
    }

    // 3. Narrow phase: what really meets the hull of both bases, and can block some line there.
    // (The bodies' outlines are worked out once: the viewer's own, cut to its arc, and the
    // target's whole one when the arc line does not cut it.)
    let target_body = skip.iter().copied().find(|&k| {
        Some(k) != viewer_body
            && obstacles.bodies.get(k).is_some_and(|b| (b.centre, b.radius()) == (target.centre, target.radius()))
    });
    let (pa, box_a): (&[TablePoint], Aabb) = match viewer_body {
        Some(k) => (&obstacles.outlines[k][1].0, obstacles.outlines[k][1].1),
        None => {
            va.outer_polygon(ring, pa);
            (pa, Aabb::around(pa.iter().copied()))
        }
    };
    let (pb, box_b): (&[TablePoint], Aabb) = match target_body.filter(|_| tb.clip.is_none()) {
        Some(k) => (&obstacles.outlines[k][0].0, obstacles.outlines[k][0].1),
        None => {
            tb.outer_polygon(ring, pb);
            (pb, Aabb::around(pb.iter().copied()))
        }
    };
    // (When both are clipped, their straight edges lie on one line: Andrew's chain decides the
    // corners along it by rounding, so only it gives its own answer there.)
    let parts = if tb.clip.is_none() { HullParts::new((pa, box_a), (pb, box_b), quad) } else { None };
    // (The hull's bridges, when the parts found them.)
    let known = parts.as_ref().map(|p| p.bridges);
    // The hull itself, when the tests below need it (built again later if the chain does).
    let hull_now = parts.is_none() || viewer.bottom() != target.bottom();
    if hull_now {
        build_hull(pa, pb, tb.clip.is_none().then_some(known), hull_pts, hull, hull_sides);
    }
    let hull_box = box_a.union(box_b);
    // Both centres lie in the hull (the viewer's on its clipped outline's straight edge) unless the
    // target's centre is behind the arc line.
    let spine = (tb.ahead(tb.centre) >= 1e-9).then_some((va.centre, tb.centre));
    let axis = tb.centre.sub(va.centre);
    let axis_len2 = axis.dot(axis).max(1e-12);
    // Which pieces and troopers some line meets below their top and above their feet: judged by
    // the lines' heights at the axis fraction (assumption LOWEST_LINE, see the README), and,
    // where that names nothing, checked against bounds that hold for every line ([`Ceiling`]).
    let frac = |p: TablePoint| (p.sub(va.centre).dot(axis) / axis_len2).clamp(0.0, 1.0);
    let lowest_z = |p: TablePoint| viewer.bottom() + (target.bottom() - viewer.bottom()) * frac(p);
    let highest_z = |p: TablePoint| best.0 + (best.1 - best.0) * frac(p);
    let mut blockers = Vec::new();
    // (Those only the bounds name: [`confirm_blockers`] looks for a line each blocks.)
    let mut maybe = Vec::new();
    // (Pieces no higher than the target's feet, under part of its base but not holding all of
    // it, that the estimate names: the roof a target hanging over its edge stands on, whose
    // slivers beside the base only lines coming up beneath it may pass low over — assumption
    // UNDERSIDE. When some line is clear, a sampled line must confirm each; when none is, they
    // are named with the rest. A piece that holds the whole base is right in front of it wherever
    // a line enters it, and the lowest line, rising to the feet there, runs into it: it blocks.)
    let mut under_feet = Vec::new();
    // (Pieces level with the target's feet that reach under part of its base, when lines come up
    // to it: named, whatever the estimate says, where lines reaching its rim over them run into
    // them — [`rim_arrival_blocks`] — when some line is clear.)
    let rising = viewer.bottom() < target.bottom() - EPS;
    let mut rim_candidates = Vec::new();
    let (clipped, clip_tmp) = (&mut chain.clipped, &mut chain.tmp);
    q.terrain.retain(|&i| {
        let t = &obstacles.terrain[i];
        // (Where the segment between the centres crosses the piece, when it is in the hull.)
        let mut crossed = None;
        let meets = match obstacles.work.convex[i] {
            // (Crossed by the segment between the centres: surely meets.)
            Some(ccw) => {
                crossed = spine.and_then(|(s0, s1)| {
                    convex_interval(&t.polygon, ccw, s0, s1)
                        .filter(|(u0, u1)| u1 - u0 > 1e-6)
                        .map(|(u0, u1)| (s0.lerp(s1, u0), s0.lerp(s1, u1)))
                });
                crossed.is_some()
                    || match &parts {
                        Some(parts) => parts.meets(&t.polygon, Some(ccw), &obstacles.work.boxes[i]),
                        None => convex_polygons_meet_oriented((&t.polygon, ccw), (hull, true)),
                    }
            }
            // (A concave piece meets the hull where one of its convex parts does: they make it up.)
            None if !obstacles.work.parts[i].is_empty() => obstacles.work.parts[i].iter().any(|p| match &parts {
                Some(parts) => parts.meets(&p.poly, Some(true), &p.bx),
                None => convex_polygons_meet_oriented((&p.poly, true), (hull, true)),
            }),
            None => match &parts {
                Some(parts) => parts.meets(&t.polygon, None, &obstacles.work.boxes[i]),
                None => polygon_meets_convex(&t.polygon, hull),
            },
        };
        if !meets {
            return false;
        }
        // On one level the lowest line is as low everywhere: no need to find where the piece is.
        // Otherwise, where it is in the hull, less the target's disc and the viewer's: no line
        // reaches the target from beneath its base, and none that drops out beneath the viewer's
        // is looked at (assumption UNDERSIDE; over its own disc a line is in the viewer's
        // Silhouette or under its feet — a roof it hangs over the edge of, only beneath its base,
        // blocks only lines from its soles). A piece is named at once only by the
        // estimate outside the disc as large as the outline polygon that stands in for it in the
        // hull; what lies only between that and the true rim (a roof edge just inside a hanging
        // base, say) joins the pieces a sampled line must confirm.
        // (Where the segment crosses it outside that disc and the estimate there is already under
        // the top, it is named whatever the least: no need to clip it.)
        let outline_r = target.radius() * outline_circumradius();
        // (And likewise outside the viewer's: named at once beyond its outline polygon's corners,
        // confirmed by a sampled line between those and its true rim.)
        let viewer_outline = (viewer.centre, viewer.radius() * outline_circumradius());
        let viewer_disc = (viewer.centre, viewer.radius() * (1.0 - 1e-9));
        let on_spine = || {
            let outside =
                |p: TablePoint| p.dist(target.centre) >= outline_r && p.dist(viewer_outline.0) >= viewer_outline.1;
            let at = |p: TablePoint| if outside(p) { lowest_z(p) } else { f64::INFINITY };
            crossed.map(|(p0, p1)| at(p0).min(at(p1))).filter(|&z| t.height_in > z + EPS)
        };
        let (low, floor) = if viewer.bottom() == target.bottom() {
            (viewer.bottom(), viewer.bottom())
        } else if let Some(z) = on_spine() {
            (z, z)
        } else {
            // (A concave piece part by part: clipping its own outline to the hull could leave
            // seams along the hull's edges joining what lies in it, through where the piece is
            // not — the notch of a U round the target — and those seams would count as piece.)
            // (The estimate names at once only within the hull of the true discs: the hull of
            // the outline polygons, each edge moved in by as much as a polygon reaches outside
            // its circle, lies in it. Between that and the polygons' hull, lines pass only
            // beside the discs, and a sampled line must confirm the piece — a roof the viewer
            // hangs over, whose edge the polygons' hull reaches past the lines that really
            // leave the viewer: brute force seed 1076.)
            let dir = ceiling.dir;
            let inset = (outline_circumradius() - 1.0) * viewer.radius().max(target.radius());
            let convex_parts = &obstacles.work.parts[i];
            let each = |f: &mut dyn FnMut(&[TablePoint])| {
                if obstacles.work.convex[i].is_none() && !convex_parts.is_empty() {
                    convex_parts.iter().for_each(|p| f(&p.poly));
                } else {
                    f(&t.polygon);
                }
            };
            let (mut low, mut floor) = (f64::INFINITY, f64::INFINITY);
            each(&mut |poly| {
                clip_to_convex_into(poly, hull, inset, clipped, clip_tmp);
                low = low.min(min_outside_discs(clipped, [(target.centre, outline_r), viewer_outline], dir, &lowest_z));
            });
            // (The bounds matter only for a piece the estimate does not name.)
            if t.height_in <= low + EPS {
                let discs = [(target.centre, target.radius()), viewer_disc];
                each(&mut |poly| {
                    clip_to_convex_into(poly, hull, 0.0, clipped, clip_tmp);
                    floor = floor.min(min_outside_discs(clipped, discs, dir, &|p| ceiling.floor(p)));
                });
            }
            (low, floor)
        };
        let hung_from = || t.height_in <= target.bottom() + EPS && reaches_under(t, target) && !holds(t, target);
        let mut named = false;
        if t.height_in > low + EPS {
            if hung_from() {
                under_feet.push(Blocker::Terrain(i));
            } else {
                blockers.push(Blocker::Terrain(i));
                named = true;
            }
        } else if t.height_in > floor + EPS {
            maybe.push(Blocker::Terrain(i));
        }
        if rising && !named && t.height_in >= target.bottom() - EPS && hung_from() {
            rim_candidates.push(Blocker::Terrain(i));
        }
        true
    });
    q.bodies.retain(|&j| {
        let c = &obstacles.bodies[j];
        // (Far outside the hull's box: surely at least the radius away.)
        let r = c.radius() * (1.0 + 1e-9);
        let p = c.centre;
        let far = p.x < hull_box.min.x - r
            || p.x > hull_box.max.x + r
            || p.y < hull_box.min.y - r
            || p.y > hull_box.max.y + r;
        // (Near the segment between two points of the hull, the centres when they are in it:
        // surely nearer than the radius.)
        let near = spine.is_some_and(|(s0, s1)| point_segment_distance(p, s0, s1) < c.radius() * (1.0 - 1e-9) - 1e-9);
        let apart = || match &parts {
            Some(parts) => parts.at_least(c.centre, c.radius()),
            None => point_convex_distance(c.centre, hull) >= c.radius(),
        };
        if far || (!near && apart()) {
            return false;
        }
        if c.bottom() < highest_z(c.centre) - EPS && c.top() > lowest_z(c.centre) + EPS {
            blockers.push(Blocker::Trooper(j));
        } else {
            // (Over the disc the bounds are monotone along the axis: its two ends along it.)
            let ends = [c.centre.sub(ceiling.dir.scale(c.radius())), c.centre.add(ceiling.dir.scale(c.radius()))];
            let high = ceiling.at(ends[0]).max(ceiling.at(ends[1]));
            let low = ceiling.floor(ends[0]).min(ceiling.floor(ends[1]));
            if c.bottom() < high - EPS && c.top() > low + EPS {
                maybe.push(Blocker::Trooper(j));
            }
        }
        true
    });
    if q.terrain.is_empty() && q.bodies.is_empty() {
        return LofResult { lof: Lof::Clear, witness: Some(centre_line()) };
    }
    let mid = |b: &Body| 0.5 * (b.bottom() + b.top());
    let all_profiles = [
        best,
        (mid(viewer), mid(target).min(best.1)),
        (viewer.bottom(), (target.bottom() + MIN_VISIBLE_IN).min(best.1)),
    ];
    // (Lines lower than the best ones only help to pass beneath a raised body.)
    let under = q.bodies.iter().any(|&j| obstacles.underpass[j] && obstacles.bodies[j].bottom() > line_lo + EPS);
    let profiles: &[Profile] = if under { &all_profiles } else { &all_profiles[..1] };
    let verdict = |witness: Option<[Point3; 2]>, blockers: Vec<Blocker>| match witness {
        Some(_) if blockers.is_empty() => LofResult { lof: Lof::Clear, witness },
        Some(_) => LofResult { lof: Lof::Partial { blocked_by: blockers }, witness },
        None => LofResult { lof: Lof::Blocked { by: blockers }, witness: None },
    };

    // Between levels the estimate may be wrong off the axis: a piece it named, or the bounds
    // flagged, is kept only where some lowest line may really run below its top, in the region
    // those lines sweep from where they really start to where they end ([`low_lines_may_meet`]).
    // (Worked out only where the lists are given: a proof that every line is blocked names its
    // own.)
    let mut met_low = |list: &mut Vec<Blocker>, hull: &[TablePoint]| {
        if viewer.bottom() != target.bottom() {
            list.retain(|&k| match k {
                Blocker::Terrain(i) => low_lines_may_meet(
                    (&obstacles.terrain[i].polygon, obstacles.work.convex[i]),
                    hull,
                    ((viewer.centre, viewer.radius()), (target.centre, target.radius())),
                    (viewer.bottom(), target.bottom(), obstacles.terrain[i].height_in - EPS),
                    scaled_piece,
                ),
                _ => true,
            });
        }
    };

    let len = axis_len2.sqrt();
    let dir = axis.scale(1.0 / len);
    // 4a. A few lines across the middle and both sides (before the chain: when one is clear,
    // the chain cannot exist, and these lines are cheap). Once a viewer point's first line is
    // blocked, its shadows skip the rest that surely are too.
    let perp = TablePoint::new(-dir.y, dir.x);
    let spread = |reg: &Region, k: f64| reg.pull_in(reg.centre.add(perp.scale(k * reg.r)));
    let coarse_a = [0.0, -0.9, 0.9].map(|k| spread(&va, k));
    let coarse_b = [0.0, -0.5, 0.5, -0.9, 0.9].map(|k| spread(&tb, k));
    let coarse = if len > ra + rb {
        search_shadowed(&mut q, &coarse_a, &coarse_b, profiles, &tops, (tb.centre, rb), true)
    } else {
        search(&mut q, &coarse_a, &coarse_b, profiles, &tops)
    };
    let feet = (viewer.bottom(), target.bottom());
    let beneath =
        [(viewer.centre, viewer.radius(), viewer.bottom()), (target.centre, target.radius(), target.bottom())];
    // (Of the pieces under the target's feet, those lines coming up to its rim run into: named,
    // and no longer left to the sampled lines to confirm.)
    let rim_named = |[under_feet, maybe, blockers]: [&mut Vec<Blocker>; 3]| {
        let before = blockers.len();
        for &k in &rim_candidates {
            if let Blocker::Terrain(i) = k
                && rim_arrival_blocks(&obstacles.terrain[i].polygon, &va, &tb)
            {
                under_feet.retain(|&u| u != k);
                maybe.retain(|&u| u != k);
                blockers.push(k);
            }
        }
        if blockers.len() > before {
            blockers.sort_unstable();
        }
    };
    if let Some(w) = coarse {
        rim_named([&mut under_feet, &mut maybe, &mut blockers]);
        maybe.append(&mut under_feet);
        met_low(&mut blockers, hull);
        met_low(&mut maybe, hull);
        if !maybe.is_empty() {
            let (fine_a, fine_b) = (&mut fine.0, &mut fine.1);
            va.facing_outline(tb.centre, rb, SAMPLE_SPACING_IN, false, fine_a);
            tb.facing_outline(va.centre, ra, SAMPLE_SPACING_IN, true, fine_b);
            confirm_blockers(&mut q, &tops, &maybe, (fine_a, fine_b, [&va, &tb]), [feet, best], beneath, &mut blockers);
        }
        return verdict(Some(w), blockers);
    }

    // 4b. A chain of tall blockers, taller than every line, cutting the hull in two.
    if !hull_now {
        build_hull(pa, pb, tb.clip.is_none().then_some(known), hull_pts, hull, hull_sides);
    }
    // (The bound needs the bases apart; overlapping ones only reach here through the API.)
    if len > ra + rb
        && let Some(by) = separating_chain(
            obstacles,
            &q,
            (hull, hull_sides, (pa, box_a), (pb, box_b)),
            chain,
            line_lo,
            (va.centre, dir, (ra, rb), len),
            &ceiling,
        )
    {
        #[cfg(test)]
        PROVED_BY.with(|p| p.set(Some(Proof::Chain)));
        return verdict(None, by);
    }

    // 4c. Every sample, 1.5 mm apart along the facing sides of both outlines (skipping the lines
    // that shadows show blocked; the shadows need the bases apart).
    let (fine_a, fine_b) = fine;
    va.facing_outline(tb.centre, rb, SAMPLE_SPACING_IN, false, fine_a);
    tb.facing_outline(va.centre, ra, SAMPLE_SPACING_IN, true, fine_b);
    ends_first(fine_a, ring);
    let w = if len > ra + rb {
        search_shadowed(&mut q, fine_a, fine_b, profiles, &tops, (tb.centre, rb), false)
    } else {
        search(&mut q, fine_a, fine_b, profiles, &tops)
    };
    // 4d. Beneath a raised trooper that nothing holds, a line may have to run lower than the
    // best lines somewhere and higher than the lower profiles elsewhere (over a wall, under the
    // trooper's feet): for each sampled plan line, every height profile at once.
    let w = match w {
        None if under => search_heights(&mut q, &tops, (fine_a, fine_b), (viewer.bottom(), target.bottom(), best.1)),
        w => w,
    };
    met_low(&mut blockers, hull);
    if w.is_some() {
        rim_named([&mut under_feet, &mut maybe, &mut blockers]);
        maybe.append(&mut under_feet);
        met_low(&mut maybe, hull);
        if !maybe.is_empty() {
            confirm_blockers(&mut q, &tops, &maybe, (fine_a, fine_b, [&va, &tb]), [feet, best], beneath, &mut blockers);
        }
    } else if !under_feet.is_empty() {
        met_low(&mut under_feet, hull);
        blockers.append(&mut under_feet);
        blockers.sort_unstable();
    }
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

/// Whether some lowest line — from the viewer's feet to the target's, over a plan segment from
/// the viewer's disc to the target's — may run below height `h` (inches) over piece `poly`
/// (its orientation when convex, see [`polygons_may_come_within`]), for naming low pieces
/// between levels (assumption "lowest line" in the README). `false` only when none does.
///
/// A feet-to-feet line from `a` to `b`, `za` and `zb` high there, is `za + (zb − za)·s` high at
/// the fraction `s` of the way, and every other line over the same plan segment is at least as
/// high. So the lines run below `h` exactly over the points `(1 − s)·a + s·b` with `s` past
/// `t = (za − h)/(za − zb)` (lines coming down; short of it, going up). With `A` and `B` the
/// discs and `H` the hull of both (`hull`: built from the outline polygons that stand in for
/// the discs, it holds theirs), those points make up `(1 − t)·H ⊕ t·B` coming down — the point
/// `(1 − s)·a + s·b` is `(1 − t)·(λ·a + (1 − λ)·b) + t·b` for `λ = (1 − s)/(1 − t)`, and each
/// point of that sum is such a point — and `(1 − t)·A ⊕ t·H` going up. Scaled about `B`'s
/// centre by `1/(1 − t)` (about `A`'s by `1/t`), that is `H` grown by `t·rb/(1 − t)` (by
/// `(1 − t)·ra/t`): the piece, scaled so too into `scaled`, must come that near `H`.
fn low_lines_may_meet(
    (poly, ccw): (&[TablePoint], Option<bool>),
    hull: &[TablePoint],
    ((ca, ra), (cb, rb)): ((TablePoint, f64), (TablePoint, f64)),
    (za, zb, h): (f64, f64, f64),
    scaled: &mut Vec<TablePoint>,
) -> bool {
    let t = (za - h) / (za - zb);
    if !t.is_finite() {
        return true;
    }
    let coming_down = za > zb;
    let (nowhere, everywhere) = if coming_down { (t >= 1.0, t <= 0.0) } else { (t <= 0.0, t >= 1.0) };
    if nowhere || everywhere {
        return !nowhere;
    }
    let (c, k, gap) =
        if coming_down { (cb, 1.0 / (1.0 - t), t * rb / (1.0 - t)) } else { (ca, 1.0 / t, (1.0 - t) * ra / t) };
    scaled.clear();
    scaled.extend(poly.iter().map(|&p| c.add(p.sub(c).scale(k))));
    polygons_may_come_within((scaled, ccw), (hull, Some(true)), gap)
}

/// How far beyond the true bases [`spanning_pieces`] sets its tangent lines and base margins,
/// inches: a piece that reaches a tangent line set out by this much crosses the true one for a
/// positive width, so no line grazing it along the hull's edge gets by.
const SPAN_MARGIN_IN: f64 = 1e-6;

/// The highest any line from the viewer to the target can be above a plan point (inches), for
/// the proofs that every line is blocked (valid for the whole bases, arc or not; the bases apart).
///
/// A point's position `s` along the axis between the centres bounds the fraction `t` of the way
/// at which a line from A's base to B's passes over it, and no line is higher at `t` than the
/// one from A's top to the highest end on B: B's top face when A's top is higher (lines coming
/// down onto it), otherwise 3 mm below B's top (a line ending higher would see less than 3 mm).
/// The bound is monotone along the axis, so its maximum over a convex piece is at a corner.
#[derive(Debug, Clone, Copy)]
struct Ceiling {
    origin: TablePoint,
    /// Unit vector from A's centre to B's, and the distance between them.
    dir: TablePoint,
    len: f64,
    ra: f64,
    rb: f64,
    /// Heights at A's end and B's end of the highest line.
    z: Profile,
    /// ... and of the lowest: from A's feet to B's (for [`Ceiling::floor`]).
    feet: Profile,
    /// The reciprocals of the spans [`Ceiling::fractions`] divides by (worked out once: the
    /// bound is asked for at many points a pair).
    per_span: (f64, f64),
}

impl Ceiling {
    fn new(viewer: &Body, target: &Body, best: Profile) -> Self {
        let w = target.centre.sub(viewer.centre);
        let len = w.norm().max(1e-12);
        let far = if viewer.top() > target.top() + EPS { target.top() } else { best.1 };
        Ceiling {
            origin: viewer.centre,
            dir: w.scale(1.0 / len),
            len,
            ra: viewer.radius(),
            rb: target.radius(),
            z: (best.0, far),
            feet: (viewer.bottom(), target.bottom()),
            per_span: (
                1.0 / (len + target.radius() - viewer.radius()),
                1.0 / (len - target.radius() + viewer.radius()),
            ),
        }
    }

    /// The range of the fraction `t` of the way at which a line between the bases passes over
    /// `p` (by its position along the axis).
    fn fractions(&self, p: TablePoint) -> (f64, f64) {
        let (ra, (lo, hi)) = (self.ra, self.per_span);
        let s = p.sub(self.origin).dot(self.dir);
        (((s - ra) * lo).clamp(0.0, 1.0), ((s + ra) * hi).clamp(0.0, 1.0))
    }

    fn at(&self, p: TablePoint) -> f64 {
        let (t_lo, t_hi) = self.fractions(p);
        let z = |t: f64| self.z.0 + (self.z.1 - self.z.0) * t;
        z(t_lo).max(z(t_hi))
    }

    /// Where along the axis (inches from A's centre) [`Ceiling::at`] reaches height `h`, when it
    /// is not level: the bound is the line's height at the fraction `t_hi` of the way when it
    /// rises towards B, at `t_lo` when it falls, and each fraction is linear in the position
    /// (see [`Ceiling::fractions`]) where it is between 0 and 1.
    fn crossing(&self, h: f64) -> Option<f64> {
        let (z0, z1) = self.z;
        if z1 == z0 {
            return None;
        }
        let t = (h - z0) / (z1 - z0);
        let (len, ra, rb) = (self.len, self.ra, self.rb);
        Some(if z1 > z0 { t * (len - rb + ra) - ra } else { t * (len + rb - ra) + ra })
    }

    /// The lowest any line can be above `p`, inches: no line runs below the one from A's feet to
    /// B's (monotone along the axis too).
    fn floor(&self, p: TablePoint) -> f64 {
        let (t_lo, t_hi) = self.fractions(p);
        let z = |t: f64| self.feet.0 + (self.feet.1 - self.feet.0) * t;
        z(t_lo).min(z(t_hi))
    }
}

/// Decide "every line blocked" in one step (N4 "Line of Fire", the commonest case on a table
/// with buildings): the convex terrain pieces, among `candidates`, that cross the hull of both
/// *whole* bases from one outer tangent line to the other without touching either base, and
/// are taller at every corner than any line can be there ([`Ceiling`]). One such piece cuts the
/// hull in two, with a base on each side, so every line between the bases — from any part of
/// them, arc or not — passes through it below its height. `None` when no piece does this.
fn spanning_pieces(
    obs: &Obstacles,
    candidates: &[(usize, Option<usize>)],
    viewer: &Body,
    target: &Body,
    ceiling: &Ceiling,
) -> Option<Vec<Blocker>> {
    let (ca, cb) = (viewer.centre, target.centre);
    let (ra, rb) = (viewer.radius() + SPAN_MARGIN_IN, target.radius() + SPAN_MARGIN_IN);
    let w = cb.sub(ca);
    let len = w.norm();
    if len <= ra + rb {
        return None;
    }
    let d = w.scale(1.0 / len);
    let p = TablePoint::new(-d.y, d.x);
    // Outer tangents: unit normals n with n·(cb − ca) = ra − rb, touching at ca + ra·n, cb + rb·n.
    let alpha = (ra - rb) / len;
    let beta = (1.0 - alpha * alpha).max(0.0).sqrt();
    let edges = [1.0, -1.0].map(|s| {
        let n = d.scale(alpha).add(p.scale(s * beta));
        (ca.add(n.scale(ra)), cb.add(n.scale(rb)))
    });
    // (A convex part of a concave piece lies in it: spanning, it blocks every line for the piece.)
    let mut by: Vec<Blocker> = candidates
        .iter()
        .filter(|&&(i, part)| {
            let h = obs.terrain[i].height_in;
            let (poly, ccw, bx) = obs.shape(i, part);
            let Some(ccw) = ccw else { return false };
            poly.iter().all(|&v| ceiling.at(v) + 2.0 * EPS < h)
                && edges.iter().all(|&(a, b)| convex_interval(poly, ccw, a, b).is_some())
                && farther_than(ca, ra, bx, poly)
                && farther_than(cb, rb, bx, poly)
        })
        .map(|&(i, _)| Blocker::Terrain(i))
        .collect();
    by.dedup();
    (!by.is_empty()).then_some(by)
}

/// Whether point `c` is surely farther than `r` from box `bx`: a hair beyond `r`, so that
/// rounding never decides (inches). Anything inside the box is then farther than `r` too.
fn clear_of_box(c: TablePoint, r: f64, bx: &Aabb) -> bool {
    let dx = (bx.min.x - c.x).max(c.x - bx.max.x).max(0.0);
    let dy = (bx.min.y - c.y).max(c.y - bx.max.y).max(0.0);
    let rr = r * (1.0 + 1e-9) + 1e-12;
    dx * dx + dy * dy > rr * rr
}

/// Whether point `c` is farther than `r` from convex polygon `poly` (inside its box `bx`); the
/// box alone settles it when it is that far (inches).
fn farther_than(c: TablePoint, r: f64, bx: &Aabb, poly: &[TablePoint]) -> bool {
    clear_of_box(c, r, bx) || point_convex_distance(c, poly) > r
}

/// Decide "every line blocked" without sampling: tall blockers (covering every line's height)
/// whose parts inside the hull touch one another in a chain from one bridge edge of the hull to
/// the other, without touching either base. Such a chain cuts the hull in two with one base on
/// each side, so every line between the bases crosses it.
///
/// When no such chain exists, a second pass lets the chain bridge gaps that no line can use
/// (two troopers standing staggered across the line, a trooper beside a wall): a line of sight
/// that misses every part leaves each part on one side of it, and a part that touches the first
/// bridge edge on that edge's side (a part joined to one on a side is on that side too). For
/// parts wholly between the two bases, "side" is simply above or below the line, so if no line
/// between the bases has part P on that side and part Q on the other ([`GapFrame::passes`]), Q
/// joins the chain; and if none has P on that side at all, no line misses every part: blocked.
///
/// Sound by construction: the hull and base outlines used are the circumscribed polygons (larger
/// than the truth), troopers enter as their exact discs, and parts count as joined only where
/// they meet inside the hull or where no line passes between them; concave pieces are left to
/// the sampling. Pieces that touch at a single corner count as joined, and a gap counts as
/// closed when the only lines through it graze both sides: a crack of zero width shows no 3 mm
/// of anything.
fn separating_chain(
    obstacles: &Obstacles,
    q: &Query,
    (hull, hull_sides, (pa, box_a), (pb, box_b)): (&[TablePoint], &[u8], Outline, Outline),
    chain: &mut ChainBuffers,
    line_lo: f64,
    (origin, axis_dir, (ra, rb), len): (TablePoint, TablePoint, (f64, f64), f64),
    ceiling: &Ceiling,
) -> Option<Vec<Blocker>> {
    let zmax = |p: TablePoint| ceiling.at(p);
    // (The stretch of the axis the hull spans.)
    let s_range = (-ra, len + rb);
    use ChainPart as Part;
    let ChainBuffers { clipped, tmp, cands, parts, reached, stack } = chain;
    let [(b0, b1), (c0, c1)] = bridge_edges(hull, hull_sides)?;
    let gaps = GapFrame::new(origin, axis_dir, (ra, rb), len);
    let (placed_k, placed_m) = (&mut Vec::new(), &mut Vec::new());
    // Whether the first bridge edge is the left one (each runs from one outline to the other:
    // compare them halfway between the centres).
    let b_left = gaps.as_ref().is_some_and(|g| g.across(b0, b1) > g.across(c0, c1));
    // The candidates, in the order their parts are considered, each with a box around it grown
    // by [`CHAIN_NEAR_IN`]: a part lies in its box, so parts whose boxes are apart never touch,
    // and a part whose box misses a bridge edge does not touch it. The parts themselves (a clip
    // to the hull each) are worked out only when such a cheap test cannot rule them out, in the
    // same order as before, so the chain and the blockers it names are the same.
    // (A concave piece joins as its convex parts: each lies in the piece, so a line crossing one
    // lower than the piece is blocked by it.)
    cands.clear();
    for &i in q.terrain.iter() {
        if obstacles.work.convex[i].is_some() {
            cands.push((Blocker::Terrain(i), None, obstacles.work.boxes[i].grown(CHAIN_NEAR_IN)));
        } else {
            let parts = obstacles.work.parts[i].iter().enumerate();
            cands.extend(parts.map(|(k, part)| (Blocker::Terrain(i), Some(k), part.bx.grown(CHAIN_NEAR_IN))));
        }
    }
    for &j in q.bodies.iter() {
        let c = &obstacles.bodies[j];
        cands.push((Blocker::Trooper(j), None, Aabb::around([c.centre]).grown(c.radius() + CHAIN_NEAR_IN)));
    }
    // Near a bridge edge: `segments_touch` allows `EPS` of area, up to `EPS / length` off the line.
    let near_edge = |bx: &Aabb, a: TablePoint, b: TablePoint| bx.grown(EPS / a.dist(b).max(1e-12)).meets_segment(a, b);
    // No candidate near one of the bridge edges: no chain can start or end there.
    if !cands.iter().any(|(_, _, bx)| near_edge(bx, b0, b1)) || !cands.iter().any(|(_, _, bx)| near_edge(bx, c0, c1)) {
        return None;
    }
    // The highest-line bound is convex along the axis, so its maximum over a convex part is at a
    // corner (or, for a disc, at one of its two ends along the axis).
    let tall_over = |p: &[TablePoint], h: f64| p.iter().all(|&v| zmax(v) + EPS <= h);
    // A trooper's disc is a part when it stands on the lowest level and is taller than every line.
    let disc_part = |c: &Body| {
        let r = c.radius();
        c.bottom() <= line_lo && tall_over(&[c.centre.add(axis_dir.scale(r)), c.centre.sub(axis_dir.scale(r))], c.top())
    };
    // A candidate's part, if it is one.
    let mut part_of = |k: Blocker, convex_part: Option<usize>| -> Option<Part> {
        match k {
            Blocker::Terrain(i) => {
                let t = &obstacles.terrain[i];
                let poly = obstacles.shape(i, convex_part).0;
                // Clipping only lowers the bound: test the whole piece first, the clipped part if needed.
                clip_to_convex_into(poly, hull, 0.0, clipped, tmp);
                if clipped.len() < 3 || signed_area(clipped).abs() <= 1e-12 {
                    return None; // nothing inside, or only a touch along the hull's edge
                }
                let part = if !tall_over(poly, t.height_in) && !tall_over(clipped, t.height_in) {
                    // The bound is monotone along the axis: keep the part beyond the point where the
                    // piece becomes taller than every line (a piece near the lower end of a sloping line).
                    let part = tall_part(clipped, t.height_in, origin, axis_dir, s_range, ceiling)?;
                    if signed_area(&part).abs() <= 1e-12 {
                        return None;
                    }
                    part
                } else {
                    clipped.clone()
                };
                // (A part whose box is clear of an outline's box, by far more than the test's
                // tolerance, does not meet it: some edge of one parts them.)
                let part_box = Aabb::around(part.iter().copied()).grown(1e-6);
                let apart =
                    |poly: &[TablePoint], bx: &Aabb| !part_box.overlaps(bx) || !convex_polygons_meet(&part, poly);
                (apart(pa, &box_a) && apart(pb, &box_b)).then_some(Part::Poly(part))
            }
            Blocker::Trooper(j) => {
                let c = &obstacles.bodies[j];
                let r = c.radius();
                let keep =
                    disc_part(c) && farther_than(c.centre, r, &box_a, pa) && farther_than(c.centre, r, &box_b, pb);
                keep.then_some(Part::Disc(c.centre, r))
            }
        }
    };
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
    let n = cands.len();
    // Per candidate: its part once worked out (`Some(None)`: not a part).
    parts.clear();
    parts.resize_with(n, || None);
    // First parts that touch; then, if that chain fails, parts with gaps no line can pass.
    for gapped in [false, true] {
        let gaps = if gapped {
            match &gaps {
                Some(g) => Some(g),
                None => break,
            }
        } else {
            None
        };
        reached.clear();
        reached.resize(n, false);
        stack.clear();
        for k in 0..n {
            if near_edge(&cands[k].2, b0, b1) {
                let part = parts[k].get_or_insert_with(|| part_of(cands[k].0, cands[k].1));
                if part.as_ref().is_some_and(|p| touches_edge(p, b0, b1)) {
                    reached[k] = true;
                    stack.push(k);
                }
            }
        }
        while let Some(k) = stack.pop() {
            let Some(Some(pk)) = parts[k].take() else { continue };
            // (A part between the outlines: where no line between the bases leaves it on the side
            // it must be on, or leaves it there and another on the other side.)
            let between = gaps.filter(|g| g.place(&pk, placed_k));
            let cornered = between.is_some_and(|g| !g.passes(b_left, placed_k, &[]));
            if cornered || touches_edge(&pk, c0, c1) {
                let mut by: Vec<Blocker> = (0..n).filter(|&m| reached[m]).map(|m| cands[m].0).collect();
                by.sort();
                by.dedup();
                return Some(by);
            }
            for m in 0..n {
                if reached[m] {
                    continue;
                }
                let near = cands[m].2.overlaps(&cands[k].2);
                if near || between.is_some() {
                    let part = parts[m].get_or_insert_with(|| part_of(cands[m].0, cands[m].1));
                    let link = |p: &Part| {
                        (near && joined(p, &pk))
                            || between.is_some_and(|g| g.place(p, placed_m) && !g.passes(b_left, placed_k, placed_m))
                    };
                    if part.as_ref().is_some_and(link) {
                        reached[m] = true;
                        stack.push(m);
                    }
                }
            }
            parts[k] = Some(Some(pk));
        }
    }
    None
}

/// The pair's frame for [`GapFrame::passes`]: `x` along the axis from the viewer's centre,
/// `y` to its left (inches), and the bounds on the lines of sight between the two bases.
struct GapFrame {
    origin: TablePoint,
    dir: TablePoint,
    /// The viewer's base lies within `x ≤ x_a`, the target's within `x ≥ x_b`.
    x_a: f64,
    x_b: f64,
    len: f64,
    /// Every line meeting both bases crosses `x = 0` within `±u_max` and `x = len` within
    /// `±v_max`.
    u_max: f64,
    v_max: f64,
}

impl GapFrame {
    fn new(origin: TablePoint, dir: TablePoint, (ra, rb): (f64, f64), len: f64) -> Option<Self> {
        // (Every line of sight runs between the true discs: a hair more, for rounding.)
        let (ra, rb) = (ra * (1.0 + 1e-9) + 1e-9, rb * (1.0 + 1e-9) + 1e-9);
        let gap2 = len * len - (ra + rb) * (ra + rb);
        if gap2 <= 0.0 {
            return None;
        }
        // A line meeting both discs has slope at most (ra + rb)/√gap2: at that slope a line
        // through a disc crosses its centre's perpendicular within r·√(1 + slope²) = r·len/√gap2.
        let f = len / gap2.sqrt();
        Some(Self { origin, dir, x_a: ra, x_b: len - rb, len, u_max: ra * f, v_max: rb * f })
    }

    /// Point `v` in the frame: `(x, y)`, inches.
    fn frame_point(&self, v: TablePoint) -> (f64, f64) {
        let w = v.sub(self.origin);
        (w.dot(self.dir), self.dir.cross(w))
    }

    /// How far left of the axis the line through `a` and `b` passes halfway between the centres.
    fn across(&self, a: TablePoint, b: TablePoint) -> f64 {
        let ((xa, ya), (xb, yb)) = (self.frame_point(a), self.frame_point(b));
        let t = if (xb - xa).abs() > 1e-12 { (0.5 * self.len - xa) / (xb - xa) } else { 0.5 };
        ya + (yb - ya) * t
    }

    /// A part's corners, or its disc, in the frame, as `(x, y, r)` into `out`; whether it lies
    /// wholly between the bases (`x_a < x < x_b`: every line of sight crosses that stretch).
    fn place(&self, p: &ChainPart, out: &mut Vec<(f64, f64, f64)>) -> bool {
        out.clear();
        match p {
            ChainPart::Poly(poly) => out.extend(poly.iter().map(|&v| {
                let (x, y) = self.frame_point(v);
                (x, y, 0.0)
            })),
            ChainPart::Disc(c, r) => {
                let (x, y) = self.frame_point(*c);
                out.push((x, y, *r));
            }
        }
        out.iter().all(|&(x, _, r)| x - r > self.x_a && x + r < self.x_b)
    }

    /// Whether some line meeting both bases has every placed part of `b_side` on the first
    /// bridge edge's side of it (left when `b_left`) and every one of `c_side` on the other,
    /// touching allowed, with a hair to spare: it errs towards "yes".
    ///
    /// A line is `y = u·(1 − t) + v·t` at `t = x/len`, with `|u| ≤ u_max` and `|v| ≤ v_max`.
    /// A corner above it bounds `v` from above for each `u`, one below bounds it from below, and
    /// so does a disc by its centre less or plus its radius (which lets in more lines than the
    /// exact distance `r·√(1 + slope²)` would). The lines are a 2-variable linear system,
    /// solved exactly by eliminating `v`: some `u` must meet every pair of lower and upper bound.
    fn passes(&self, b_left: bool, b_side: &[(f64, f64, f64)], c_side: &[(f64, f64, f64)]) -> bool {
        let (above, below) = if b_left { (b_side, c_side) } else { (c_side, b_side) };
        let tol = 1e-9;
        // Each bound as v ≤ α + β·u (upper) or v ≥ α + β·u (lower).
        let bound = |&(x, y, r): &(f64, f64, f64), off: f64| {
            let t = x / self.len;
            ((y + off * (r - tol)) / t, -(1.0 - t) / t)
        };
        let (mut lo, mut hi) = (-self.u_max, self.u_max);
        let uppers = above.iter().map(|g| bound(g, -1.0)).chain(std::iter::once((self.v_max, 0.0)));
        for (a_up, b_up) in uppers {
            let lowers = below.iter().map(|g| bound(g, 1.0)).chain(std::iter::once((-self.v_max, 0.0)));
            for (a_lo, b_lo) in lowers {
                // a_lo + b_lo·u ≤ a_up + b_up·u
                let (d, c) = (b_lo - b_up, a_up - a_lo);
                if d > 0.0 {
                    hi = hi.min(c / d);
                } else if d < 0.0 {
                    lo = lo.max(c / d);
                } else if c < 0.0 {
                    return false;
                }
                if lo > hi + 1e-12 {
                    return false;
                }
            }
        }
        true
    }
}

/// How far apart (inches) the boxes around two parts of a separating chain may be and the parts
/// still count as joined by the exact tests (which allow a hair; this allows far more).
const CHAIN_NEAR_IN: f64 = 1e-4;

/// The part of convex `poly` where it is taller than every line, given that the highest-line
/// bound ([`Ceiling::at`]) is monotone along the axis `origin + dir·s`, `s` in `s_range`;
/// `None` if no part.
fn tall_part(
    poly: &[TablePoint],
    height: f64,
    origin: TablePoint,
    dir: TablePoint,
    (lo, hi): (f64, f64),
    ceiling: &Ceiling,
) -> Option<Vec<TablePoint>> {
    let excess = |s: f64| ceiling.at(origin.add(dir.scale(s))) + EPS - height;
    let at_lo = excess(lo);
    if (at_lo > 0.0) == (excess(hi) > 0.0) {
        return None; // tall nowhere (tall everywhere was handled by the caller)
    }
    // Where the bound crosses the piece's height (less `EPS`), found in closed form: the bound
    // is linear there in `s`, between its clamps.
    let crossing = ceiling.crossing(height - EPS)?;
    // Keep the side where the excess is ≤ 0, stepping a hair past the crossing to stay sound.
    let (cut, keep_above) = if at_lo > 0.0 { (crossing + 1e-9, true) } else { (crossing - 1e-9, false) };
    let mut out = Vec::with_capacity(poly.len() + 1);
    clip_half_plane(poly, &mut out, |p| {
        let s = p.sub(origin).dot(dir) - cut;
        if keep_above { s } else { -s }
    });
    (out.len() >= 3).then_some(out)
}

/// The directions from one viewer point in which every line to the target is surely blocked.
struct Shadows {
    /// Unit vector from the viewer point to the target's centre.
    u: TablePoint,
    /// Every target point's direction lies within `±extent` (as the tangent of its angle to `u`).
    #[cfg(test)]
    extent: f64,
    /// Whether the shadows cover every target point's direction (every line is blocked).
    covered: bool,
}

/// What [`Query::shadows`] works out once per viewer point for every candidate's shadow.
struct ShadowFrame {
    a: TablePoint,
    u: TablePoint,
    cos_ext: f64,
    l_min: f64,
    l_max: f64,
    z: Profile,
    z_hi: Profile,
}

impl ShadowFrame {
    /// Heights of the line at distances in `[s_lo, s_hi]` from `a`, over every length, for every
    /// line from profile `z` up to `z_hi` (raised lines: heights grow with both ends').
    fn z_range(&self, s_lo: f64, s_hi: f64) -> (f64, f64) {
        let at = |z: Profile| {
            let h = |rho: f64| z.0 + (z.1 - z.0) * rho;
            let (z0, z1) = (h(s_lo / self.l_max), h(s_hi / self.l_min));
            (z0.min(z1), z0.max(z1))
        };
        let (lo, hi) = (at(self.z), at(self.z_hi));
        (lo.0.min(hi.0), lo.1.max(hi.1))
    }
}

impl Query<'_, '_, '_> {
    /// Fill `self.shadows` with the directions from `a` (each as the tangent of its angle to the
    /// direction of the target's centre) in which a line from `a` to any point of the target's
    /// base (centre `cb`, radius `rb`) at heights from `z` up to `z_hi` is surely blocked: it
    /// passes at least [`SHADOW_MARGIN_IN`] inside one candidate blocker, in front of `a` and
    /// short of the target, at a point where it is inside that blocker's heights for every line
    /// length possible (for a low piece, only its part where every line is below it: see
    /// [`low_stretch`]). Once they cover the target, the rest are left out. `None` when `a` is
    /// too close to the target for this.
    ///
    /// Sound for [`Query::blocked`]: a line whose direction is in a shadow is blocked there.
    fn shadows(&mut self, a: TablePoint, z: Profile, z_hi: Profile, (cb, rb): (TablePoint, f64)) -> Option<Shadows> {
        let to_b = cb.sub(a);
        let d_b = to_b.norm();
        // Target points: within rb (plus the hair sample points are pulled in by) of its centre.
        let rb = rb + 1e-6;
        if d_b <= rb * 1.001 + 1e-6 {
            return None;
        }
        let u = to_b.scale(1.0 / d_b);
        let extent = rb / (d_b * d_b - rb * rb).sqrt();
        // (For directions within the extent, `|w| ≤ w·u / cos_ext`.)
        let cos_ext = 1.0 / (1.0 + extent * extent).sqrt();
        let f = ShadowFrame { a, u, cos_ext, l_min: d_b - rb, l_max: d_b + rb, z, z_hi };
        self.shadows.clear();
        let done = |covered| {
            Some(Shadows {
                u,
                #[cfg(test)]
                extent,
                covered,
            })
        };
        // The blockers whose shadows covered the target from the last point first: from a point
        // beside it, they mostly do again.
        let n_first = self.cover.len();
        for n in 0..n_first {
            match self.shadow(self.cover[n], &f) {
                Some(s) => self.shadows.push(s),
                None if self.has_parts(self.cover[n]) => _ = self.part_shadows(self.cover[n], &f),
                None => {}
            }
        }
        if n_first > 0 && covers(self.shadows, -extent, extent) {
            return done(true);
        }
        // Then the rest, in order (terrain, then troopers), each one that casts a shadow joining
        // the cover.
        let n_terrain = self.terrain.len();
        for n in 0..n_terrain + self.bodies.len() {
            let k = if n < n_terrain {
                Blocker::Terrain(self.terrain[n])
            } else {
                Blocker::Trooper(self.bodies[n - n_terrain])
            };
            if self.cover[..n_first].contains(&k) {
                continue;
            }
            let Some((lo, hi)) = self.shadow(k, &f) else {
                if self.has_parts(k) && self.part_shadows(k, &f) {
                    self.cover.push(k);
                }
                continue;
            };
            self.shadows.push((lo, hi));
            self.cover.push(k);
            if lo <= -extent && hi >= extent {
                // This one alone covers the target: the rest cannot add anything.
                self.cover.clear();
                self.cover.push(k);
                return done(true);
            }
        }
        let covered = covers(self.shadows, -extent, extent);
        if !covered {
            self.cover.truncate(n_first);
        }
        done(covered)
    }

    /// Whether `k` is a concave piece with convex parts.
    fn has_parts(&self, k: Blocker) -> bool {
        matches!(k, Blocker::Terrain(i) if !self.obs.work.parts[i].is_empty())
    }

    /// Add the shadows of concave piece `k`'s convex parts from the viewer point of `f` to
    /// `self.shadows` (each part lies in the piece, so a line in its shadow is blocked by the
    /// piece); whether any casts one.
    fn part_shadows(&mut self, k: Blocker, f: &ShadowFrame) -> bool {
        debug_assert!(self.has_parts(k));
        let Blocker::Terrain(i) = k else { return false };
        let (obs, before) = (self.obs, self.shadows.len());
        for part in &obs.work.parts[i] {
            if let Some(s) = self.piece_shadow(&part.poly, &part.core, obs.terrain[i].height_in, f) {
                self.shadows.push(s);
            }
        }
        self.shadows.len() > before
    }

    /// Candidate `k`'s shadow from the viewer point of `f`, if it casts one (see
    /// [`Query::shadows`]; none for a concave piece, whose parts cast them:
    /// [`Query::part_shadows`]).
    fn shadow(&mut self, k: Blocker, f: &ShadowFrame) -> Option<(f64, f64)> {
        let obs = self.obs;
        match k {
            Blocker::Terrain(i) => {
                self.piece_shadow(&obs.terrain[i].polygon, &obs.work.core[i], obs.terrain[i].height_in, f)
            }
            Blocker::Trooper(j) => {
                let (a, u) = (f.a, f.u);
                let margin = EPS + 1e-7;
                let (c, &(r, bottom, top)) = (&obs.bodies[j], &obs.body_dims[j]);
                let w = c.centre.sub(a);
                let (along, across) = (w.dot(u), u.cross(w));
                let d = w.norm();
                let (s_lo, s_hi) = (d - r, d + r);
                if along - r <= 0.0 || s_hi >= f.l_min {
                    return None;
                }
                let (zl, zh) = f.z_range(s_lo, s_hi);
                if zh >= top - margin || zl <= bottom + margin {
                    return None;
                }
                // The disc shrunk by the margin: tangents at ±β from the centre's direction ψ.
                let rs = r - SHADOW_MARGIN_IN;
                let (tp, tbeta) = (across / along, rs / (d * d - rs * rs).sqrt());
                Some(((tp - tbeta) / (1.0 + tp * tbeta), (tp + tbeta) / (1.0 - tp * tbeta)))
            }
        }
    }

    /// The shadow of convex footprint `poly` (`core`: it shrunk by [`SHADOW_MARGIN_IN`], empty
    /// when too small) raised to `height`, inches, from the viewer point of `f`, if it casts one.
    fn piece_shadow(
        &mut self,
        poly: &[TablePoint],
        core: &[TablePoint],
        height: f64,
        f: &ShadowFrame,
    ) -> Option<(f64, f64)> {
        let (a, u) = (f.a, f.u);
        let margin = EPS + 1e-7;
        if core.is_empty() {
            return None;
        }
        let (mut s_lo, mut s_hi2) = (f64::INFINITY, 0.0f64);
        for &v in poly {
            let w = v.sub(a);
            s_lo = s_lo.min(w.dot(u));
            s_hi2 = s_hi2.max(w.dot(w));
        }
        let s_hi = s_hi2.sqrt();
        let h = height - margin;
        let part: &[TablePoint] = if s_lo > 0.0 && s_hi < f.l_min && f.z_range(s_lo, s_hi).1 < h {
            core // in front of `a`, short of the target, lower than the piece wherever it crosses it
        } else {
            // Only the part of the core in front of `a`, short of the target's nearest point
            // for every direction within the extent, where every line is lower than the piece.
            let (near, far) = low_stretch(f.z, f.z_hi, h, f.l_min, f.l_max, f.cos_ext)?;
            let (near, far) = (near.max(SHADOW_MARGIN_IN), far.min(f.l_min * f.cos_ext));
            if near >= far {
                return None;
            }
            let (cut, tmp) = (&mut *self.clip, &mut *self.clip_tmp);
            cut.clear();
            cut.extend_from_slice(core);
            for (bound, sign) in [(near, 1.0), (far, -1.0)] {
                if cut.iter().any(|&v| sign * (v.sub(a).dot(u) - bound) < 0.0) {
                    std::mem::swap(cut, tmp);
                    cut.clear();
                    clip_half_plane(tmp, cut, |v| sign * (v.sub(a).dot(u) - bound));
                }
            }
            if cut.len() < 3 {
                return None;
            }
            cut
        };
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for &v in part {
            let w = v.sub(a);
            let tau = u.cross(w) / w.dot(u);
            lo = lo.min(tau);
            hi = hi.max(tau);
        }
        Some((lo, hi))
    }
}

/// Where, along the direction `u` of the target's centre (as `w·u` for the offset `w` from the
/// viewer point), every line of the profiles `z` and `z_hi` — any length in `[l_min, l_max]`,
/// any direction whose angle to `u` has cosine at least `cos_ext` — is surely lower than `h`:
/// `w·u` in `[near, far]` (`far` may be infinite); `None` if nowhere.
///
/// A line of length `L` is `z.0 + (z.1 − z.0)·s/L` high at distance `s`: when it comes down,
/// that is below `h` beyond `s* = L·(z.0 − h)/(z.0 − z.1)`, for every length up to `l_max`,
/// and `|w| ≥ w·u`; when it goes up, below `h` short of `s* = L·(h − z.0)/(z.1 − z.0)`, for every
/// length from `l_min` on, and `|w| ≤ w·u / cos_ext` for those directions.
fn low_stretch(z: Profile, z_hi: Profile, h: f64, l_min: f64, l_max: f64, cos_ext: f64) -> Option<(f64, f64)> {
    let (mut near, mut far) = (0.0f64, f64::INFINITY);
    for (z0, z1) in [z, z_hi] {
        if z1 < z0 {
            near = near.max(l_max * (z0 - h) / (z0 - z1));
        } else if z1 > z0 {
            far = far.min(l_min * (h - z0) / (z1 - z0) * cos_ext);
        } else if z0 >= h {
            return None;
        }
    }
    (near < far).then_some((near, far))
}

/// Whether the union of closed intervals `shadows` covers `[lo, hi]` (sorts `shadows`).
fn covers(shadows: &mut [(f64, f64)], lo: f64, hi: f64) -> bool {
    shadows.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
    let mut reach = lo;
    for &(s0, s1) in shadows.iter() {
        if s0 > reach {
            return false;
        }
        reach = reach.max(s1);
        if reach >= hi {
            return true;
        }
    }
    false
}

/// [`search`], skipping lines that lie in a shadow (surely blocked): the same lines are tested
/// in the same order otherwise, so the answer is the same, found with far fewer exact tests.
///
/// With `lazy`, a viewer point's shadows are worked out only once its first line is found
/// blocked (for a few lines, the shadows cost more than the lines when the first is clear).
fn search_shadowed(
    q: &mut Query,
    from: &[TablePoint],
    to: &[TablePoint],
    profiles: &[Profile],
    tops: &Tops,
    target: (TablePoint, f64),
    lazy: bool,
) -> Option<[Point3; 2]> {
    for (k, &z) in profiles.iter().enumerate() {
        // The first profile (the highest lines) runs on over the top faces.
        let raised = k == 0;
        for &a in from {
            let mut to = to;
            if lazy && let Some((&b, rest)) = to.split_first() {
                if let Some(w) = try_line(q, tops, raised, a, b, z) {
                    return Some(w);
                }
                to = rest;
            }
            // (Every sample point of the target is at least this far from `a`.)
            let l_min = a.dist(target.0) - target.1 - 1e-6;
            let z_hi = if raised { tops.ceiling(z, l_min) } else { z };
            let sh = q.shadows(a, z, z_hi, target);
            if sh.as_ref().is_some_and(|sh| sh.covered) {
                continue;
            }
            for &b in to {
                if let Some(sh) = &sh {
                    let w = b.sub(a);
                    let tau = sh.u.cross(w) / w.dot(sh.u);
                    if q.shadows.iter().any(|&(s0, s1)| s0 <= tau && tau <= s1) {
                        continue;
                    }
                }
                if let Some(w) = try_line(q, tops, k == 0, a, b, z) {
                    return Some(w);
                }
            }
        }
    }
    None
}

/// The least of `f` over polygon `poly` less two discs (centre, radius), where `f` is monotone
/// along direction `dir` (the heights of [`Ceiling`] and of the lowest line): it is on the
/// region's boundary at a corner outside both discs, where an edge crosses a circle, where the
/// circles cross, or at a circle's point furthest along or against `dir` — each counted when it
/// is in the polygon and outside the other disc. Infinite when nothing is left.
fn min_outside_discs(
    poly: &[TablePoint],
    discs: [(TablePoint, f64); 2],
    dir: TablePoint,
    f: &dyn Fn(TablePoint) -> f64,
) -> f64 {
    let outside = |p: TablePoint, skip: Option<usize>| {
        discs.iter().enumerate().all(|(k, &(c, r))| Some(k) == skip || p.dist(c) >= r)
    };
    let inside_poly = |p: TablePoint| poly.len() > 2 && locate(poly, p) != Where::Outside;
    let mut m = f64::INFINITY;
    for (a, b) in edges(poly) {
        if outside(a, None) {
            m = m.min(f(a));
        }
        for (k, &(c, r)) in discs.iter().enumerate() {
            // (The interval is clipped to the edge: its ends inside the edge are the crossings.)
            if let Some((t0, t1)) = disc_interval(a, b, c, r) {
                for t in [t0, t1].into_iter().filter(|&t| t > 0.0 && t < 1.0) {
                    let p = a.lerp(b, t);
                    if outside(p, Some(k)) {
                        m = m.min(f(p));
                    }
                }
            }
        }
    }
    for (k, &(c, r)) in discs.iter().enumerate() {
        for e in [c.sub(dir.scale(r)), c.add(dir.scale(r))] {
            if outside(e, Some(k)) && inside_poly(e) {
                m = m.min(f(e));
            }
        }
    }
    // (Where the two circles cross, if they do: bases on two levels may overlap in plan.)
    let [(c0, r0), (c1, r1)] = discs;
    let d = c0.dist(c1);
    if d > 1e-12 && d < r0 + r1 && d > (r0 - r1).abs() {
        let along = (d * d + r0 * r0 - r1 * r1) / (2.0 * d);
        let u = c1.sub(c0).scale(1.0 / d);
        let (mid, h) = (c0.add(u.scale(along)), (r0 * r0 - along * along).max(0.0).sqrt());
        let across = TablePoint::new(-u.y, u.x).scale(h);
        for p in [mid.add(across), mid.sub(across)] {
            if inside_poly(p) {
                m = m.min(f(p));
            }
        }
    }
    m
}

/// The angles φ (radians) where `w·n(φ) = k`, `n(φ)` the unit vector at φ, when there are any:
/// `w`'s direction ± `acos(k/|w|)`.
fn angles_where(w: TablePoint, k: f64) -> Option<[f64; 2]> {
    let len = w.norm();
    (len > 1e-12 && k.abs() <= len).then(|| {
        let (at, spread) = (w.y.atan2(w.x), (k / len).acos());
        [at - spread, at + spread]
    })
}

/// Where the two lines from `p` that graze the disc of `region` touch it, each when it lies in
/// the region (none when `p` is on or inside the disc): the rim points whose radius is square to
/// the line from `p`, `(p − c)·n = r`.
fn grazing_points(p: TablePoint, region: &Region) -> [Option<TablePoint>; 2] {
    let d = p.sub(region.centre);
    match angles_where(d, region.r) {
        Some(angles) if d.norm() > region.r => angles.map(|ang| {
            let q = region.centre.add(TablePoint::new(ang.cos(), ang.sin()).scale(region.r));
            (region.ahead(q) >= 0.0).then_some(q)
        }),
        _ => [None, None],
    }
}

/// Adds to `named` (kept in order: pieces, then troopers, each by index) those of `maybe` —
/// pieces and troopers that only the bounds of [`Ceiling`] say some line may meet between its
/// top and its feet — that a sampled line does meet so (N4 "Line of Fire": a line blocked
/// anywhere makes the LoF partial, not clear, and a partial LoF names what blocks): lines from
/// each point of `from` to each of `to`, lowest (`low`, feet to feet), highest (`high`, run on
/// over the top faces), and the two between that cross from one to the other — leaving out a
/// line that comes up beneath a raised target's base to its rim, or drops out beneath a raised
/// viewer's (assumption UNDERSIDE; `[viewer, target]`: each one's centre, radius and feet).
///
/// The lines that graze one base's disc are tried as well — from each point of `from`, the two
/// that touch the target's disc in its region `tb`; to each point of `to`, the two that touch
/// the viewer's in `va` — for between levels they are the lowest anywhere along their way, and
/// the stretch of rim beside each where a line still clips a trooper's top can be shorter than
/// the 1.5 mm between sampled points (brute force seed 1041: 0.5 mm, where an S7 stands between
/// an S2 on the table and an S5 on a roof, in both directions).
fn confirm_blockers(
    q: &mut Query,
    tops: &Tops,
    maybe: &[Blocker],
    (from, to, [va, tb]): (&[TablePoint], &[TablePoint], [&Region; 2]),
    [low, high]: [Profile; 2],
    [viewer, target]: [(TablePoint, f64, f64); 2],
    named: &mut Vec<Blocker>,
) {
    let ((v_centre, v_r, v_feet), (centre, r, feet)) = (viewer, target);
    let blocks_some = |q: &mut Query, k: Blocker| {
        let pairs = from
            .iter()
            .flat_map(|&a| to.iter().copied().chain(grazing_points(a, tb).into_iter().flatten()).map(move |b| (a, b)));
        let grazing_a = to.iter().flat_map(|&b| grazing_points(b, va).into_iter().flatten().map(move |a| (a, b)));
        pairs.chain(grazing_a).any(|(a, b)| {
            let seg_box = Aabb::around([a, b]);
            // (Where the line's plan enters the target's disc: at `b` for a facing point;
            // and where it leaves the viewer's: at `a` for a facing point of its rim, further
            // on from a point of its straight edge or one that looks back across the base.)
            let enters = disc_interval(a, b, centre, r).map_or(1.0, |(t0, _)| t0);
            let leaves = disc_interval(a, b, v_centre, v_r).map_or(0.0, |(_, t1)| t1.min(enters));
            let z_at = |z: &Profile, t: f64| z.0 + (z.1 - z.0) * t;
            let admissible = |z: &Profile| z_at(z, enters) >= feet - 1e-6 && z_at(z, leaves) >= v_feet - 1e-6;
            if let Blocker::Terrain(i) = k {
                // Terrain stands from the table up, so the lowest line blocked by nothing
                // else decides: feet to feet; or, dropping out beneath a raised viewer's
                // base, the line that leaves it at its feet; or, coming up beneath a raised
                // target's base, the line from there that reaches its feet where it enters.
                let mut lowest = low;
                if z_at(&lowest, leaves) < v_feet - 1e-6 {
                    // z(leaves) = feet with the target end kept: za = (feet − zb·t) / (1 − t).
                    lowest.0 = (v_feet - lowest.1 * leaves) / (1.0 - leaves).max(1e-12);
                }
                if z_at(&lowest, enters) < feet - 1e-6 {
                    lowest.1 = lowest.0 + (feet - lowest.0) / enters;
                }
                if lowest.1 > high.1 + 1e-9 {
                    return false;
                }
                // (The line is below the piece's top only before, or only after, one point
                // along it: the part of it there must come near the piece.)
                let (h, rise) = (q.obs.terrain[i].height_in, lowest.1 - lowest.0);
                let cut = if rise.abs() > 1e-12 { ((h - lowest.0) / rise).clamp(0.0, 1.0) } else { 1.0 };
                let low_part = if rise > 1e-12 {
                    Aabb::around([a, a.lerp(b, (cut + 1e-9).min(1.0))])
                } else if rise < -1e-12 {
                    Aabb::around([a.lerp(b, (cut - 1e-9).max(0.0)), b])
                } else {
                    seg_box
                };
                return low_part.overlaps(&q.obs.work.boxes[i])
                    && blocks(q.obs, k, (a, b, lowest, &seg_box), q.scratch);
            }
            let raised = tops.raise(a, b, high).0;
            [low, raised, (low.0, high.1), (high.0, low.1)]
                .into_iter()
                .filter(admissible)
                .any(|z| blocks(q.obs, k, (a, b, z, &seg_box), q.scratch))
        })
    };
    let before = named.len();
    named.extend(maybe.iter().copied().filter(|&k| blocks_some(q, k)));
    if named.len() > before {
        named.sort_unstable();
    }
}

/// Whether piece `poly` — level with a raised target's feet and reaching under part of its base
/// (the roof it hangs over the edge of) — blocks a line that comes up from lower feet (the
/// caller's to check) and reaches the target's feet at its rim from outside the base (assumption
/// UNDERSIDE): such a line ends at a rim point over the inside of the piece, so just before it
/// runs inside the piece below its top. Exact, where sampling the rim every 1.5 mm can miss a
/// shorter stretch of it over the piece that lines from the viewer reach (session 43, brute
/// force seed 1028: a Prone trooper on a roof corner, 1.2 mm of its rim reachable over the roof).
///
/// The rim points strictly inside the piece, those some point of the viewer's region `va` sees
/// from outside the target's disc (the region's support along the rim's outward normal beyond
/// the rim point), and those in front of the viewer's arc line when `tb` is clipped, are each a
/// union of open arcs. Their ends are angles worked out in closed form: where the rim crosses an
/// edge of the piece or the arc line, where a sinusoid `w·n − k` of the support is zero, and
/// where the support changes form. One angle between each two of these decides for the whole
/// stretch. Angles in radians; lengths in inches.
fn rim_arrival_blocks(poly: &[TablePoint], va: &Region, tb: &Region) -> bool {
    let (cb, rb) = (tb.centre, tb.r);
    let (ca, ra) = (va.centre, va.r);
    let rim = |phi: f64| TablePoint::new(cb.x + rb * phi.cos(), cb.y + rb * phi.sin());
    let mut cuts: Vec<f64> = Vec::new();
    let sinusoid = |w: TablePoint, k: f64, cuts: &mut Vec<f64>| cuts.extend(angles_where(w, k).into_iter().flatten());
    // Where the rim crosses the piece's edges (an edge's end inside the disc adds its own
    // direction too: a cut more only splits a stretch).
    for (a, b) in edges(poly) {
        if let Some((t0, t1)) = disc_interval(a, b, cb, rb) {
            for t in [t0, t1] {
                let v = a.lerp(b, t).sub(cb);
                cuts.push(v.y.atan2(v.x));
            }
        }
    }
    // The viewer region's support along n: its disc's, or (where the disc's extreme point is
    // behind the arc line) the better end of the chord along that line.
    let chord = va
        .clip
        .zip(va.chord())
        .map(|((o, f), (mid, along, half))| (f, o, [mid.add(along.scale(half)), mid.sub(along.scale(half))]));
    let support = |n: TablePoint| match chord {
        Some((f, o, ends)) if ca.add(n.scale(ra)).sub(o).dot(f) < 0.0 => ends[0].dot(n).max(ends[1].dot(n)),
        _ => ca.dot(n) + ra,
    };
    // Seen from outside: support(n) − cb·n − rb > 0, each form of the support a sinusoid.
    sinusoid(ca.sub(cb), rb - ra, &mut cuts);
    if let Some((f, o, ends)) = chord {
        for e in ends {
            sinusoid(e.sub(cb), rb, &mut cuts);
        }
        // (Where the disc's extreme point crosses the arc line.)
        sinusoid(f, -ca.sub(o).dot(f) / ra.max(1e-12), &mut cuts);
    }
    // In front of the target's clip line: (cb + rb·n − o)·f > 0.
    if let Some((o, f)) = tb.clip {
        sinusoid(f, -cb.sub(o).dot(f) / rb.max(1e-12), &mut cuts);
    }
    let tau = std::f64::consts::TAU;
    let mut cuts: Vec<f64> = cuts.into_iter().map(|a| a.rem_euclid(tau)).collect();
    cuts.sort_by(f64::total_cmp);
    let between: Vec<f64> = match cuts.len() {
        0 => vec![0.0],
        k => (0..k)
            .map(|i| if i + 1 < k { 0.5 * (cuts[i] + cuts[i + 1]) } else { 0.5 * (cuts[i] + cuts[0] + tau) })
            .collect(),
    };
    between.into_iter().any(|phi| {
        let (n, p) = (TablePoint::new(phi.cos(), phi.sin()), rim(phi));
        support(n) - cb.dot(n) - rb > 1e-9 && tb.ahead(p) > 1e-9 && locate(poly, p) == Where::Inside
    })
}

/// A line's height constraint `α·za + β·zb ≥ γ` over its end heights `za` (viewer) and `zb`
/// (target), inches.
type HeightBound = (f64, f64, f64);

/// How far a profile of [`search_heights`] keeps above what it must pass over, and below what it
/// must pass under, inches (its witness is then checked exactly, as every other).
const HEIGHT_CLEARANCE_IN: f64 = 1e-6;

/// Phase 4d: for each plan line from a point of `from` to a point of `to`, whether *some* height
/// profile — end heights `za` in `za_range`, `zb` in `zb_range`, inches — clears everything the
/// line crosses: above every piece (N4: terrain blocks up to its height), and above or below
/// every trooper's Silhouette. Each piece and each "above" or "below" choice bounds the profile
/// by two half-planes in (`za`, `zb`) — the line's height is affine along it, so its two ends
/// over a stretch decide — and the profiles left are a convex polygon; with raised troopers
/// crossed, the choices are searched depth first ([`each_choice`]), so only the choices whose
/// profiles are not yet empty are followed, however many raised troopers a line crosses. The
/// polygon's vertex mean is the witness's heights, checked like any sampled line. Only plan
/// lines that cross a raised trooper are tried: over the others the best lines (phase 4c) are
/// the highest everywhere, so nothing else can pass.
fn search_heights(
    q: &mut Query,
    tops: &Tops,
    (from, to): (&[TablePoint], &[TablePoint]),
    (za_lo, zb_lo, zb_side): (f64, f64, f64),
) -> Option<[Point3; 2]> {
    let (mut fixed, mut raised): (Vec<HeightBound>, Vec<[[HeightBound; 2]; 2]>) = (Vec::new(), Vec::new());
    let (mut poly, mut tmp, mut stretches, mut levels) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let m = HEIGHT_CLEARANCE_IN;
    // Above `h` over [t0, t1]; below it (negated).
    let above = |h: f64, t0: f64, t1: f64| [(1.0 - t0, t0, h + m), (1.0 - t1, t1, h + m)];
    let below = |h: f64, t0: f64, t1: f64| [(t0 - 1.0, -t0, -(h - m)), (t1 - 1.0, -t1, -(h - m))];
    for &a in from {
        for &b in to {
            let seg_box = Aabb::around([a, b]);
            fixed.clear();
            raised.clear();
            for &j in q.bodies.iter() {
                let c = &q.obs.bodies[j];
                let Some((t0, t1)) = disc_interval(a, b, c.centre, c.radius()) else { continue };
                if c.bottom() > EPS {
                    raised.push([above(c.top(), t0, t1), below(c.bottom(), t0, t1)]);
                } else {
                    fixed.extend(above(c.top(), t0, t1));
                }
            }
            if raised.is_empty() {
                continue;
            }
            for &i in q.terrain.iter() {
                if !q.obs.work.boxes[i].overlaps(&seg_box) {
                    continue;
                }
                let t = &q.obs.terrain[i];
                match q.obs.work.convex[i] {
                    Some(ccw) => {
                        if let Some((t0, t1)) = convex_interval(&t.polygon, ccw, a, b) {
                            fixed.extend(above(t.height_in, t0, t1));
                        }
                    }
                    // Every stretch of the line inside the footprint.
                    None => {
                        for (t0, t1) in inside_stretches(&t.polygon, a, b, &mut stretches) {
                            fixed.extend(above(t.height_in, t0, t1));
                        }
                    }
                }
            }
            // Where the line may end: on the Silhouettes' sides, or run on over the target's top
            // face coming down, or start on the viewer's top face climbing (see [`Tops`]). Each is
            // a box in (za, zb) and a bound; the run-on lengths set the bounds.
            let (d, u) = (a.dist(b), b.sub(a).scale(1.0 / a.dist(b).max(1e-12)));
            let (e, g) = (tops.run_on(a, u, d), tops.run_back(a, u));
            let (vt, tt) = (tops.viewer_top, tops.target_top);
            let ends: [(_, Option<HeightBound>); 3] = [
                (((za_lo, vt), (zb_lo, zb_side)), None),
                // Coming down onto the target's top within `e` past `b`: za ≥ zb ≥ top, and the
                // line at plan distance d + e no higher than the top.
                (((tt.max(za_lo), vt), (tt, vt)), (e > 0.0).then(|| ((d + e) / d - 1.0, -(d + e) / d, -tt))),
                // Climbing from the viewer's top face within `g` behind `a`.
                (((vt, zb_side), (vt.max(zb_lo), zb_side)), (g > 1e-9).then(|| (-(d + g) / d, g / d, -vt))),
            ];
            for (k, ((za0, za1), (zb0, zb1)), bound) in ends.iter().enumerate().map(|(k, &(r, b))| (k, r, b)) {
                if za1 <= za0 || zb1 <= zb0 || (k > 0 && bound.is_none()) {
                    continue;
                }
                poly.clear();
                poly.extend([(za0, zb0), (za1, zb0), (za1, zb1), (za0, zb1)].map(|(x, y)| TablePoint::new(x, y)));
                if !clip_all(&mut poly, &mut tmp, bound.into_iter().chain(fixed.iter().copied())) {
                    continue;
                }
                let found = each_choice(&poly, &raised, &mut levels, &mut |poly| {
                    let z = vertex_mean(poly);
                    // (Coming down or climbing, not level: the ends on the top faces are finite.)
                    let level = (k == 1 && z.x - z.y <= 1e-9) || (k == 2 && z.y - z.x <= 1e-9);
                    if level || q.blocked(a, b, (z.x, z.y)).is_some() {
                        return None;
                    }
                    // The witness's true ends: where the line comes down onto the target's top,
                    // or where it leaves the viewer's.
                    Some(match k {
                        1 => [Point3::at(a, z.x), Point3::at(a.add(u.scale(d * (z.x - tt) / (z.x - z.y))), tt)],
                        2 => [Point3::at(a.sub(u.scale(d * (z.x - vt) / (z.y - z.x))), vt), Point3::at(b, z.y)],
                        _ => [Point3::at(a, z.x), Point3::at(b, z.y)],
                    })
                });
                if found.is_some() {
                    return found;
                }
            }
        }
    }
    None
}

/// Clip convex `poly` by every bound `α·za + β·zb ≥ γ` in turn (`tmp` is scratch space); whether
/// anything is left.
fn clip_all(poly: &mut Vec<TablePoint>, tmp: &mut Vec<TablePoint>, bounds: impl Iterator<Item = HeightBound>) -> bool {
    for (alpha, beta, gamma) in bounds {
        tmp.clear();
        clip_half_plane(poly, tmp, |p| alpha * p.x + beta * p.y - gamma);
        std::mem::swap(poly, tmp);
        if poly.is_empty() {
            return false;
        }
    }
    true
}

/// Phase 4d's choices: for each raised trooper a line passes, over its top or under its feet
/// (`raised[k]`: the two bounds of each). Visits the profiles of every combination of choices
/// that leaves some, in the order of counting with the first trooper's choice the lowest bit,
/// until `visit` returns something. Depth first from the last trooper: a choice whose profiles
/// are already empty is not followed, so the combinations visited are those the bounds leave
/// open (at most quadratic in the number of troopers), not all 2^n. `levels` is scratch space,
/// two polygons per trooper.
fn each_choice<R>(
    poly: &[TablePoint],
    raised: &[[[HeightBound; 2]; 2]],
    levels: &mut Vec<(Vec<TablePoint>, Vec<TablePoint>)>,
    visit: &mut impl FnMut(&[TablePoint]) -> Option<R>,
) -> Option<R> {
    if levels.len() < raised.len() {
        levels.resize_with(raised.len(), Default::default);
    }
    choose(poly, raised, levels, visit)
}

fn choose<R>(
    poly: &[TablePoint],
    raised: &[[[HeightBound; 2]; 2]],
    levels: &mut [(Vec<TablePoint>, Vec<TablePoint>)],
    visit: &mut impl FnMut(&[TablePoint]) -> Option<R>,
) -> Option<R> {
    let Some((options, rest)) = raised.split_last() else { return visit(poly) };
    let ((out, tmp), deeper) = levels.split_first_mut().expect("a level per raised trooper");
    for option in options {
        out.clear();
        out.extend_from_slice(poly);
        if clip_all(out, tmp, option.iter().copied())
            && let Some(r) = choose(out, rest, deeper, visit)
        {
            return Some(r);
        }
    }
    None
}

/// Reorder sample points from both ends inwards: first, last, second, second to last, ...
/// (the lines that slip past a blocker mostly leave from the outline's ends, where it turns
/// away from the other base; the order changes which witness is found, never whether one is).
fn ends_first(pts: &mut Vec<TablePoint>, tmp: &mut Vec<TablePoint>) {
    let n = pts.len();
    tmp.clear();
    tmp.extend((0..n).map(|i| if i % 2 == 0 { pts[i / 2] } else { pts[n - 1 - i / 2] }));
    std::mem::swap(pts, tmp);
}

/// Test one sampled line (raised over the top faces when `raise`); its witness if it is clear.
fn try_line(q: &mut Query, tops: &Tops, raise: bool, a: TablePoint, b: TablePoint, z: Profile) -> Option<[Point3; 2]> {
    let (z, witness) = if raise { tops.raise(a, b, z) } else { (z, [Point3::at(a, z.0), Point3::at(b, z.1)]) };
    q.blocked(a, b, z).is_none().then_some(witness)
}

fn search(
    q: &mut Query,
    from: &[TablePoint],
    to: &[TablePoint],
    profiles: &[Profile],
    tops: &Tops,
) -> Option<[Point3; 2]> {
    for (k, &z) in profiles.iter().enumerate() {
        for &a in from {
            for &b in to {
                if let Some(w) = try_line(q, tops, k == 0, a, b, z) {
                    return Some(w);
                }
            }
        }
    }
    None
}

/// The two hull edges that run from one base's outline to the other's (`sides`: which outline
/// each hull corner comes from).
fn bridge_edges(hull: &[TablePoint], sides: &[u8]) -> Option<[(TablePoint, TablePoint); 2]> {
    let n = hull.len();
    let mut found = Vec::with_capacity(2);
    for i in 0..n {
        if sides[i] != sides[(i + 1) % n] {
            found.push((hull[i], hull[(i + 1) % n]));
        }
    }
    (found.len() == 2).then(|| [found[0], found[1]])
}

/// Convex hull of outlines `pa` and `pb` into `hull` (counter-clockwise, Andrew's monotone
/// chain as in `segment::convex_hull`), with the outline each corner comes from in `sides`: 0
/// for `pa` (also when the same point is in both), 1 for `pb`. `pts` is scratch space.
fn tagged_hull(
    pa: &[TablePoint],
    pb: &[TablePoint],
    (pts, merged): &mut (Tagged, Tagged),
    hull: &mut Vec<TablePoint>,
    sides: &mut Vec<u8>,
) {
    // The outlines are convex, so each is two chains sorted by x: merging them and then the two
    // outlines leaves the points (nearly) sorted, and an insertion sort finishes the job in
    // linear time. Only equal points can end in another order than a full sort's, and they
    // become one below.
    pts.clear();
    merge_sorted_chains(pa, 0, vertex_mean(pb), pts);
    let mid = pts.len();
    merge_sorted_chains(pb, 1, vertex_mean(pa), pts);
    merged.clear();
    let (mut i, mut j) = (0, mid);
    while i < mid || j < pts.len() {
        if j == pts.len() || (i < mid && key_le(pts[i].0, pts[j].0)) {
            merged.push(pts[i]);
            i += 1;
        } else {
            merged.push(pts[j]);
            j += 1;
        }
    }
    std::mem::swap(pts, merged);
    for k in 1..pts.len() {
        let mut m = k;
        while m > 0 && !key_le(pts[m - 1].0, pts[m].0) {
            pts.swap(m - 1, m);
            m -= 1;
        }
    }
    pts.dedup_by(|a, b| {
        let same = a.0.dist(b.0) < 1e-12;
        if same && a.0 == b.0 {
            b.1 = b.1.min(a.1);
        }
        same
    });
    hull.clear();
    sides.clear();
    if pts.len() < 3 {
        hull.extend(pts.iter().map(|p| p.0));
        sides.extend(pts.iter().map(|p| p.1));
        return;
    }
    for pass in 0..2 {
        let start = hull.len();
        let mut add = |p: (TablePoint, u8)| {
            while hull.len() >= start + 2 && orient(hull[hull.len() - 2], hull[hull.len() - 1], p.0) <= 0.0 {
                hull.pop();
                sides.pop();
            }
            hull.push(p.0);
            sides.push(p.1);
        };
        if pass == 0 {
            pts.iter().for_each(|&p| add(p));
        } else {
            pts.iter().rev().for_each(|&p| add(p));
        }
        hull.pop();
        sides.pop();
    }
}

/// The hull of outlines `pa` and `pb` into `hull`, tagged in `sides` (see [`tagged_hull`]); in
/// linear time when `bridging` and a line parts them (`Some(Some(_))`: their bridges, known).
fn build_hull(
    pa: &[TablePoint],
    pb: &[TablePoint],
    bridging: Option<Option<Bridges>>,
    pts: &mut (Tagged, Tagged),
    hull: &mut Vec<TablePoint>,
    sides: &mut Vec<u8>,
) {
    let bridged = bridging.is_some_and(|known| bridged_hull(pa, pb, known, hull, sides));
    if !bridged {
        tagged_hull(pa, pb, pts, hull, sides);
    }
}

/// [`tagged_hull`] of two outlines that a line strictly separates, in linear time: each
/// outline gives one run of corners, joined by the two bridges (found by walking from the
/// corners farthest out on either side); the same corners, tags and order as `tagged_hull`
/// (starting from the least corner by x, then y; collinear and repeated corners left out).
/// `false` (and nothing written) when the outlines are not clearly apart.
fn bridged_hull(
    pa: &[TablePoint],
    pb: &[TablePoint],
    known: Option<Bridges>,
    hull: &mut Vec<TablePoint>,
    sides: &mut Vec<u8>,
) -> bool {
    let Some(((i, j), (k, l))) = known.or_else(|| bridges(pa, pb)) else { return false };
    let (n, m) = (pa.len(), pb.len());
    hull.clear();
    sides.clear();
    // A's run from where B → A lands (l) round to where A → B leaves (i); then B's, j to k.
    for (poly, len, from, to, tag) in [(pa, n, l, i, 0), (pb, m, j, k, 1)] {
        let mut c = from;
        loop {
            hull.push(poly[c]);
            sides.push(tag);
            if c == to {
                break;
            }
            c = (c + 1) % len;
        }
    }
    // Leave out corners that are not strictly convex (Andrew's chain pops them: `orient ≤ 0`).
    let mut changed = true;
    while changed && hull.len() > 3 {
        changed = false;
        let mut c = 0;
        while c < hull.len() && hull.len() > 3 {
            let len = hull.len();
            if orient(hull[(c + len - 1) % len], hull[c], hull[(c + 1) % len]) <= 0.0 {
                hull.remove(c);
                sides.remove(c);
                changed = true;
            } else {
                c += 1;
            }
        }
    }
    let start =
        (0..hull.len()).fold(0, |best, c| if key_le(hull[c], hull[best]) && hull[c] != hull[best] { c } else { best });
    hull.rotate_left(start);
    sides.rotate_left(start);
    true
}

/// The two bridges of the hull of convex counter-clockwise outlines `pa` and `pb`, when a line
/// clearly parts them: `((i, j), (k, l))` for the hull edges `pa[i] → pb[j]` and `pb[k] → pa[l]`.
fn bridges(pa: &[TablePoint], pb: &[TablePoint]) -> Option<Bridges> {
    let (n, m) = (pa.len(), pb.len());
    if n < 3 || m < 3 {
        return None;
    }
    let d = vertex_mean(pb).sub(vertex_mean(pa));
    let right = TablePoint::new(d.y, -d.x);
    // One pass over each outline: its extent along `d`, and its corners farthest to either side.
    let scan = |poly: &[TablePoint]| {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut r, mut l, mut best_r, mut best_l) = (0, 0, f64::NEG_INFINITY, f64::INFINITY);
        for (k, v) in poly.iter().enumerate() {
            let (along, side) = (v.dot(d), v.dot(right));
            lo = lo.min(along);
            hi = hi.max(along);
            if side > best_r {
                (r, best_r) = (k, side);
            }
            if side < best_l {
                (l, best_l) = (k, side);
            }
        }
        (lo, hi, r, l)
    };
    let ((_, max_a, ra, la), (min_b, _, rb, lb)) = (scan(pa), scan(pb));
    // (NaN compares false: not apart.)
    let apart = max_a + 1e-9 * d.dot(d).max(1e-12) < min_b;
    if !apart {
        return None;
    }
    // A → B on the right of the way from A to B, then B → A on the other side.
    Some((bridge(pa, pb, ra, rb), bridge(pb, pa, lb, la)))
}

/// The hull of two outlines a line parts, as three convex pieces: the outlines and the
/// quadrilateral between the hull's bridges (the gap between the outlines lies inside it). A
/// shape meets the hull exactly when it meets one of them: the hull need not be built.
struct HullParts<'p> {
    parts: [&'p [TablePoint]; 3],
    /// The bridges between the outlines (see [`bridges`]).
    bridges: Bridges,
    /// Their boxes, grown by a hair (so a touch the exact tests allow is never ruled out).
    boxes: [Aabb; 3],
}

impl<'p> HullParts<'p> {
    /// The parts for outlines `pa` and `pb` (with their boxes).
    fn new((pa, box_a): Outline<'p>, (pb, box_b): Outline<'p>, quad: &'p mut Vec<TablePoint>) -> Option<Self> {
        let ((i, j), (k, l)) = bridges(pa, pb)?;
        quad.clear();
        for v in [pa[i], pb[j], pb[k], pa[l]] {
            if quad.last() != Some(&v) && quad.first() != Some(&v) {
                quad.push(v);
            }
        }
        if quad.len() < 3 {
            return None;
        }
        let quad: &'p [TablePoint] = quad;
        let parts = [pa, pb, quad];
        let boxes = [box_a, box_b, Aabb::around(quad.iter().copied())].map(|b| b.grown(1e-9));
        Some(Self { parts, bridges: ((i, j), (k, l)), boxes })
    }

    /// Whether polygon `poly` (box `bx`; `Some(ccw)` when convex) meets the hull.
    fn meets(&self, poly: &[TablePoint], convex: Option<bool>, bx: &Aabb) -> bool {
        (0..3).any(|k| {
            self.boxes[k].overlaps(bx)
                && match convex {
                    Some(ccw) => convex_polygons_meet_oriented((poly, ccw), (self.parts[k], true)),
                    None => polygon_meets_convex(poly, self.parts[k]),
                }
        })
    }

    /// Whether point `c` is at least `r` from the hull (inches).
    fn at_least(&self, c: TablePoint, r: f64) -> bool {
        (0..3).all(|k| clear_of_box(c, r, &self.boxes[k]) || point_convex_distance(c, self.parts[k]) >= r)
    }
}

/// The bridge from convex counter-clockwise `p` to `q` (apart) with both on its left: indices
/// `(i, j)` of the edge `p[i] → q[j]`, walked to from `(i, j)`. Of corners in line with the
/// bridge, the outermost are its ends.
fn bridge(p: &[TablePoint], q: &[TablePoint], mut i: usize, mut j: usize) -> (usize, usize) {
    let (n, m) = (p.len(), q.len());
    // (The corners either side of corner `k` of `len`, without a division.)
    let around = |k: usize, len: usize| [if k == 0 { len - 1 } else { k - 1 }, if k + 1 == len { 0 } else { k + 1 }];
    for _ in 0..2 * (n + m) + 4 {
        let mut moved = false;
        for nb in around(i, n) {
            // Right of the line, or on it behind its start: the start moves there.
            let o = orient(p[i], q[j], p[nb]);
            if o < 0.0 || (o == 0.0 && p[nb].sub(p[i]).dot(q[j].sub(p[i])) < 0.0) {
                i = nb;
                moved = true;
            }
        }
        for nb in around(j, m) {
            // Right of the line, or on it past its end: the end moves there.
            let o = orient(p[i], q[j], q[nb]);
            if o < 0.0 || (o == 0.0 && q[nb].sub(q[j]).dot(q[j].sub(p[i])) > 0.0) {
                j = nb;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    (i, j)
}

/// The two bridges of a hull of two outlines: `((i, j), (k, l))` for the edges `pa[i] → pb[j]`
/// and `pb[k] → pa[l]` (see [`bridges`]).
type Bridges = ((usize, usize), (usize, usize));

/// Twice the triangle area (square inches) by which a corner must be hidden to be left out of
/// [`tagged_hull`]'s input: far above rounding, far below the areas of bases apart on a table.
const HULL_HIDDEN_AREA: f64 = 1e-7;

/// The order of `segment::convex_hull`'s sort: by x, then y (coordinates are finite; unlike
/// `total_cmp`, -0 and +0 compare equal, which only decides which copy of one point is kept).
fn key_le(a: TablePoint, b: TablePoint) -> bool {
    a.x < b.x || (a.x == b.x && a.y <= b.y)
}

/// The mean of `poly`'s corners (inside it when it is convex; the origin when it is empty).
fn vertex_mean(poly: &[TablePoint]) -> TablePoint {
    let sum = poly.iter().fold(TablePoint::new(0.0, 0.0), |s, &p| s.add(p));
    sum.scale(1.0 / poly.len().max(1) as f64)
}

/// Append the corners of convex counter-clockwise polygon `poly`, tagged `tag`, in (nearly)
/// sorted order: from the least one, merging the walks both ways round. Corners surely inside the
/// hull of `poly` and point `inner` (a point of the hull being built) are left out: those beyond
/// both lines of their edges seen from `inner`, by a clear margin (a corner of the hull is never
/// left out, so the hull is the same).
fn merge_sorted_chains(poly: &[TablePoint], tag: u8, inner: TablePoint, out: &mut Vec<(TablePoint, u8)>) {
    let n = poly.len();
    if n == 0 {
        return;
    }
    let hidden = |i: usize| {
        let (p, v, w) = (poly[if i == 0 { n - 1 } else { i - 1 }], poly[i], poly[if i + 1 == n { 0 } else { i + 1 }]);
        n >= 3 && orient(p, v, inner) < -HULL_HIDDEN_AREA && orient(v, w, inner) < -HULL_HIDDEN_AREA
    };
    let mut push = |i: usize| {
        if !hidden(i) {
            out.push((poly[i], tag));
        }
    };
    let mut start = 0;
    for i in 1..n {
        if !key_le(poly[start], poly[i]) {
            start = i;
        }
    }
    push(start);
    // Next corner each way round, and how many are left.
    let (mut f, mut b) = (if start + 1 == n { 0 } else { start + 1 }, if start == 0 { n - 1 } else { start - 1 });
    for _ in 1..n {
        if key_le(poly[f], poly[b]) {
            push(f);
            f = if f + 1 == n { 0 } else { f + 1 };
        } else {
            push(b);
            b = if b == 0 { n - 1 } else { b - 1 };
        }
    }
}

/// Whether polygon `poly` meets segment `a b` (crossing, touching or containing it).
fn meets_outline(poly: &[TablePoint], a: TablePoint, b: TablePoint) -> bool {
    edges(poly).any(|(p, q)| segments_touch(p, q, a, b)) || locate(poly, a) == Where::Inside
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

/// Sutherland–Hodgman: the part of `poly` inside convex counter-clockwise `clip` with each edge
/// moved in by `inset` (inches; 0 for `clip` itself), into `out` (`input` is scratch space).
fn clip_to_convex_into(
    poly: &[TablePoint],
    clip: &[TablePoint],
    inset: f64,
    out: &mut Vec<TablePoint>,
    input: &mut Vec<TablePoint>,
) {
    out.clear();
    out.extend_from_slice(poly);
    let m = clip.len();
    for j in 0..m {
        let (c0, c1) = (clip[j], clip[(j + 1) % m]);
        // (`orient` is the distance from the edge's line times the edge's length.)
        let least = if inset > 0.0 { inset * c0.dist(c1) } else { 0.0 };
        // Nothing to cut off here: the pass would copy the polygon unchanged.
        if out.iter().all(|&p| orient(c0, c1, p) >= least) {
            continue;
        }
        std::mem::swap(input, out);
        out.clear();
        clip_half_plane(input, out, |p| orient(c0, c1, p) - least);
        if out.is_empty() {
            break;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::geometry::Silhouette;

    /// Numbers in `[0, 1)` from a xorshift generator: a fixed sequence for each seed.
    pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// `n` random rectangular pieces on a 48" table, each side up to `0.1 + side` and height
    /// from 0.5 to `0.5 + height` (inches).
    fn random_rects(rnd: &mut impl FnMut() -> f64, n: usize, side: f64, height: f64) -> Vec<Terrain> {
        (0..n)
            .filter_map(|k| {
                let (x, y) = (48.0 * rnd(), 48.0 * rnd());
                let (w, d) = (0.1 + side * rnd(), 0.1 + side * rnd());
                Terrain::rect(format!("t{k}"), x, y, x + w, y + d, 0.5 + height * rnd()).ok()
            })
            .collect()
    }

    /// The box from `(x, y)`, `w` by `d`, less its corner beyond `(nx, ny)`: an L.
    fn l_shape(x: f64, y: f64, w: f64, d: f64, (nx, ny): (f64, f64)) -> Vec<TablePoint> {
        let p = TablePoint::new;
        vec![p(x, y), p(x + w, y), p(x + w, ny), p(nx, ny), p(nx, y + d), p(x, y + d)]
    }

    /// Like [`random_rects`], every other piece an L ([`l_shape`]).
    fn random_pieces(rnd: &mut impl FnMut() -> f64, n: usize, side: f64, height: f64) -> Vec<Terrain> {
        (0..n)
            .filter_map(|k| {
                let (x, y) = (48.0 * rnd(), 48.0 * rnd());
                let (w, d, h) = (0.1 + side * rnd(), 0.1 + side * rnd(), 0.5 + height * rnd());
                if k % 2 == 0 {
                    return Terrain::rect(format!("t{k}"), x, y, x + w, y + d, h).ok();
                }
                let notch = (x + w * (0.2 + 0.6 * rnd()), y + d * (0.2 + 0.6 * rnd()));
                Terrain::new(format!("l{k}"), l_shape(x, y, w, d, notch), h).ok()
            })
            .collect()
    }

    /// The scratch space a test's [`Query`] borrows.
    #[derive(Default)]
    struct TestBuffers {
        scratch: Vec<f64>,
        shadows: Vec<(f64, f64)>,
        clip: Vec<TablePoint>,
        clip_tmp: Vec<TablePoint>,
        cover: Vec<Blocker>,
    }

    impl TestBuffers {
        /// A query among `obs` with these candidate pieces and bodies.
        fn query<'o, 'a, 'b>(
            &'b mut self,
            obs: &'o Obstacles<'a>,
            terrain: &'b mut Vec<usize>,
            bodies: &'b mut Vec<usize>,
        ) -> Query<'o, 'a, 'b> {
            Query {
                obs,
                terrain,
                bodies,
                scratch: &mut self.scratch,
                shadows: &mut self.shadows,
                clip: &mut self.clip,
                clip_tmp: &mut self.clip_tmp,
                last_hit: None,
                cover: &mut self.cover,
            }
        }
    }

    /// How many lines `f` has [`Query::blocked`] test, with what it returns.
    fn lines_tested<R>(f: impl FnOnce() -> R) -> (R, usize) {
        let before = LINES_TESTED.with(|n| n.get());
        let r = f();
        (r, LINES_TESTED.with(|n| n.get()) - before)
    }

    /// A concave ruin, 4" tall (taller than every line between two S2s), across the way: its
    /// convex parts join the proofs that every line is blocked, so the verdict needs a handful
    /// of lines, not the thousands of the sampled search. Its long arm alone spans the way (the
    /// spanning test of phase 2a); the two arms of a chevron together cut the hull (the chain of
    /// phase 4b); and from a point of the viewer's base the parts' shadows cover the target (not
    /// from its centre for the chevron: its parts, each shrunk a hair, leave a sliver along the
    /// diagonal between them, which points at the centre, for the lines there to be tested).
    #[test]
    fn a_concave_ruin_across_the_way_blocks_every_line_without_sampling() {
        let viewer = Body::new(TablePoint::new(10.0, 20.0), Silhouette::S2).facing(0.0);
        let target = Body::new(TablePoint::new(20.0, 20.0), Silhouette::S2);
        let p = TablePoint::new;
        let spanning = vec![p(14.0, 15.0), p(18.0, 15.0), p(18.0, 16.0), p(15.0, 16.0), p(15.0, 25.0), p(14.0, 25.0)];
        // A chevron pointing away from the viewer: neither arm alone reaches across the way (the
        // lower one ends at y = 20, the upper one starts there), together they close it.
        let chained = vec![p(14.0, 18.0), p(15.0, 18.0), p(17.0, 20.0), p(15.0, 22.0), p(14.0, 22.0), p(16.0, 20.0)];
        for (name, polygon) in [("spanning", spanning), ("chained", chained)] {
            let terrain = [Terrain::new(name, polygon, 4.0).expect("a valid piece")];
            assert!(!is_convex(&terrain[0].polygon));
            let bodies = [viewer, target];
            let obs = Obstacles::new(&terrain, &bodies);
            assert!(obs.work.parts[0].len() >= 2, "{name}: {:?}", obs.work.parts[0]);
            PROVED_BY.with(|p| p.set(None));
            let (r, lines) = lines_tested(|| line_of_fire(&obs, &viewer, &target, &[0, 1]));
            assert_eq!(r.lof, Lof::Blocked { by: vec![Blocker::Terrain(0)] }, "{name}");
            assert!(lines <= 20, "{name}: {lines} lines tested");
            let proof = if name == "spanning" { Proof::Spanning } else { Proof::Chain };
            assert_eq!(PROVED_BY.with(|p| p.get()), Some(proof), "{name}");
            // The shadows from a point of the viewer's base, for the best lines: covered.
            let (mut ts, mut bs) = (vec![0], Vec::new());
            let mut bufs = TestBuffers::default();
            let mut q = bufs.query(&obs, &mut ts, &mut bs);
            let z = (viewer.top(), target.top() - MIN_VISIBLE_IN);
            let a = viewer.centre.add(TablePoint::new(0.0, 0.25));
            let sh = q.shadows(a, z, z, (target.centre, target.radius())).expect("bases apart");
            assert!(sh.covered, "{name}: shadows {:?}", q.shadows);
        }
    }

    /// Two tall troopers staggered across the line between two S2s, not touching: where no line
    /// can slip between them the pair is blocked; moved apart so that lines can, it is partly
    /// seen, with a witness through the gap.
    #[test]
    fn staggered_troopers_block_only_where_no_line_slips_between() {
        let viewer = Body::new(TablePoint::new(2.0, 10.0), Silhouette::S2).facing(0.0);
        let target = Body::new(TablePoint::new(22.0, 10.0), Silhouette::S2);
        // (S7 bases are 55 mm across: the upper one's edge is at y = 10, the lower one's at `top`.
        // Lines between the S2s slope by at most about 0.049" per inch: over the 4" between the
        // two, less than 0.2".)
        let r7 = Silhouette::S7.radius_in();
        let upper = Body::new(TablePoint::new(10.0, 10.0 + r7), Silhouette::S7);
        for (top, seen) in [(10.35, false), (10.25, false), (10.1, true), (9.9, true)] {
            let low_y = top - r7;
            let lower = Body::new(TablePoint::new(14.0, low_y), Silhouette::S7);
            let bodies = [viewer, target, upper, lower];
            let obs = Obstacles::new(&[], &bodies);
            let r = line_of_fire(&obs, &viewer, &target, &[0, 1]);
            assert_eq!(r.lof.has_lof(), seen, "lower trooper's edge at y = {top}: {:?}", r.lof);
            if let Some([a, b]) = r.witness {
                // Through the gap: below the upper trooper where it passes it, above the lower one.
                let y_at = |x: f64| a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x);
                assert!(y_at(10.0) < 10.0 && y_at(14.0) > top, "{a:?} {b:?}");
            } else {
                assert_eq!(r.lof, Lof::Blocked { by: vec![Blocker::Trooper(2), Blocker::Trooper(3)] });
            }
        }
    }

    /// Where [`GapFrame::passes`] says no line between two discs leaves one part on the given
    /// side and another on the other, no such line exists: lines through many pairs of points
    /// on both discs' rims, around random parts (discs and turned rectangles) between them.
    #[test]
    fn gap_frame_lets_no_line_through_a_closed_gap() {
        let mut rnd = xorshift(0x9a95_5eed);
        let (mut closed, mut open, mut lines) = (0usize, 0usize, 0usize);
        let rim = |c: TablePoint, r: f64, k: usize, n: usize| {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            c.add(TablePoint::new(a.cos(), a.sin()).scale(r))
        };
        for _ in 0..1500 {
            let len = 3.0 + 20.0 * rnd();
            let (ra, rb) = (0.3 + 0.8 * rnd(), 0.3 + 0.8 * rnd());
            let angle = std::f64::consts::TAU * rnd();
            let dir = TablePoint::new(angle.cos(), angle.sin());
            let origin = TablePoint::new(48.0 * rnd(), 48.0 * rnd());
            let Some(frame) = GapFrame::new(origin, dir, (ra, rb), len) else { continue };
            let left = TablePoint::new(-dir.y, dir.x);
            let at = |x: f64, y: f64| origin.add(dir.scale(x)).add(left.scale(y));
            let part = |rnd: &mut dyn FnMut() -> f64| {
                let (x, y) = (ra + (len - ra - rb) * rnd(), (2.0 * rnd() - 1.0) * (ra + rb));
                if rnd() < 0.4 {
                    ChainPart::Disc(at(x, y), 0.1 + 0.7 * rnd())
                } else {
                    let (w, h, turn) = (0.05 + 0.6 * rnd(), 0.05 + 0.6 * rnd(), std::f64::consts::PI * rnd());
                    let (u, v) = (TablePoint::new(turn.cos(), turn.sin()), TablePoint::new(-turn.sin(), turn.cos()));
                    let c = at(x, y);
                    let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
                    ChainPart::Poly(corners.iter().map(|&(i, j)| c.add(u.scale(i * w)).add(v.scale(j * h))).collect())
                }
            };
            let (p, q) = (part(&mut rnd), part(&mut rnd));
            let b_left = rnd() < 0.5;
            let (mut pp, mut pq) = (Vec::new(), Vec::new());
            if !frame.place(&p, &mut pp) || !frame.place(&q, &mut pq) {
                continue;
            }
            // Alone (the other side empty) or against the other part.
            for (b_side, c_side) in [(&pp, &pq), (&pp, &Vec::new())] {
                if frame.passes(b_left, b_side, c_side) {
                    open += 1;
                    continue;
                }
                closed += 1;
                // How far left of the line a → b a placed corner or disc lies, less its radius
                // (placed back in table space, so the frame itself is tested too).
                let clearance = |a: TablePoint, b: TablePoint, (x, y, r): (f64, f64, f64)| {
                    let d = b.sub(a);
                    d.cross(at(x, y).sub(a)) / d.norm() - r
                };
                let side = |a: TablePoint, b: TablePoint, g: (f64, f64, f64), on_b: bool| {
                    let (x, y, r) = g;
                    let towards_b = if b_left { 1.0 } else { -1.0 } * if on_b { 1.0 } else { -1.0 };
                    // on its side by at least the radius: the far side of the disc or corner
                    if towards_b > 0.0 { clearance(a, b, g) > 1e-7 } else { -clearance(a, b, (x, y, -r)) > 1e-7 }
                };
                let n = 90;
                for i in 0..n {
                    for j in 0..n {
                        let (a, b) = (rim(origin, ra, i, n), rim(at(len, 0.0), rb, j, n));
                        lines += 1;
                        let through =
                            b_side.iter().all(|&g| side(a, b, g, true)) && c_side.iter().all(|&g| side(a, b, g, false));
                        assert!(!through, "line {a:?} -> {b:?} passes a gap said closed: {b_side:?} | {c_side:?}");
                    }
                }
            }
        }
        // Enough of each answer that the check means something.
        assert!(closed > 200 && open > 200, "closed {closed}, open {open}, lines {lines}");
    }

    /// Every line a shadow skips must be blocked by the exact test: many viewer points, target
    /// points and heights among troopers and pieces of mixed heights (a fixed pseudo-random scene).
    #[test]
    fn shadows_only_skip_blocked_lines() {
        let mut rnd = xorshift(0x2545_f491_4f6c_dd1du64);
        let sils = [Silhouette::S1, Silhouette::S2, Silhouette::S5, Silhouette::S7];
        let (mut skipped, mut checked, mut by_parts) = (0, 0, 0);
        for round in 0..80 {
            // Every other round, the pieces are L-shaped: their convex parts cast the shadows.
            let concave = round % 2 == 1;
            let terrain: Vec<Terrain> = (0..8)
                .filter_map(|k| {
                    let (x, y) = (2.0 + 14.0 * rnd(), 2.0 + 14.0 * rnd());
                    let (w, d, h) = (0.2 + 2.0 * rnd(), 0.2 + 2.0 * rnd(), 0.4 + 3.0 * rnd());
                    let notch = (x + w * (0.2 + 0.6 * rnd()), y + d * (0.2 + 0.6 * rnd()));
                    if concave {
                        Terrain::new(format!("l{k}"), l_shape(x, y, w, d, notch), h).ok()
                    } else {
                        Terrain::rect(format!("t{k}"), x, y, x + w, y + d, h).ok()
                    }
                })
                .collect();
            let bodies: Vec<Body> = (0..8)
                .map(|k| {
                    let b = Body::new(TablePoint::new(18.0 * rnd(), 18.0 * rnd()), sils[k % 4]);
                    if k % 3 == 0 { b.elevated(rnd()) } else { b }
                })
                .collect();
            let obs = Obstacles::new(&terrain, &bodies);
            let (v, t) = (bodies[0], bodies[1]);
            let (mut ts, mut bs): (Vec<usize>, Vec<usize>) =
                ((0..terrain.len()).collect(), (2..bodies.len()).collect());
            let mut bufs = TestBuffers::default();
            let mut q = bufs.query(&obs, &mut ts, &mut bs);
            for _ in 0..20 {
                let a = v.centre.add(TablePoint::from_angle_deg(360.0 * rnd()).scale(v.radius() * rnd().sqrt()));
                let z = (v.bottom() + rnd() * (v.top() - v.bottom()), t.bottom() + rnd() * (t.top() - t.bottom()));
                // Half the time, lines raised at either end up to `z_hi` are covered too.
                let raised = rnd() < 0.5;
                let z_hi = if raised { (z.0 + 0.5 * rnd(), z.1 + 0.5 * rnd()) } else { z };
                let Some(sh) = q.shadows(a, z, z_hi, (t.centre, t.radius())) else { continue };
                for _ in 0..50 {
                    let b = t.centre.add(TablePoint::from_angle_deg(360.0 * rnd()).scale(t.radius() * rnd().sqrt()));
                    let w = b.sub(a);
                    let tau = sh.u.cross(w) / w.dot(sh.u);
                    assert!(tau.abs() <= sh.extent);
                    checked += 1;
                    if q.shadows.iter().any(|&(s0, s1)| s0 <= tau && tau <= s1) {
                        skipped += 1;
                        by_parts += usize::from(concave);
                        let k = rnd();
                        let between = (z.0 + k * (z_hi.0 - z.0), z.1 + k * (z_hi.1 - z.1));
                        for z in [z, z_hi, between] {
                            assert!(q.blocked(a, b, z).is_some(), "shadowed line {a:?} -> {b:?} at {z:?} is clear");
                        }
                    }
                }
            }
        }
        assert!(
            skipped > 10_000 && by_parts > 5_000 && checked > 50_000,
            "too few lines: {skipped} of {checked} ({by_parts} among L-shaped pieces)"
        );
    }

    /// The shadows of pieces lower than some lines (only part of such a piece shadows): near
    /// the edge of what they claim, every line they skip is blocked. One piece across the line
    /// at a random place, as high as the lines are somewhere along it, lines going up or down.
    #[test]
    fn partial_shadows_only_skip_blocked_lines() {
        let mut rnd = xorshift(0x9e37_79b9_7f4a_7c15u64);
        let (mut skipped, mut partial) = (0, 0);
        for _ in 0..1500 {
            let a = TablePoint::new(0.0, 0.0);
            let dist = 3.0 + 20.0 * rnd();
            let rb = [0.5, 0.79, 1.08, 1.38][(4.0 * rnd()) as usize % 4];
            let cb = TablePoint::new(dist, 2.0 * rnd() - 1.0);
            let z = (0.2 + 4.0 * rnd(), 0.2 + 4.0 * rnd());
            let z_hi = if rnd() < 0.5 { (z.0 + 0.5 * rnd(), z.1 + 0.5 * rnd()) } else { z };
            let x = 0.5 + (dist - rb - 1.5) * rnd();
            let (w, half) = (0.1 + 5.0 * rnd(), 0.05 + 0.6 * rnd());
            let h = z.0.min(z.1) + (z.0.max(z.1) - z.0.min(z.1) + 0.3) * rnd();
            let y = (cb.y + (2.0 * rnd() - 1.0) * rb) * x / dist;
            let Ok(piece) = Terrain::rect("t", x, y - half, x + w, y + half, h) else {
                continue;
            };
            let terrain = [piece];
            let obs = Obstacles::new(&terrain, &[]);
            let (mut ts, mut bs) = (vec![0], Vec::new());
            let mut bufs = TestBuffers::default();
            let mut q = bufs.query(&obs, &mut ts, &mut bs);
            let Some(sh) = q.shadows(a, z, z_hi, (cb, rb)) else { continue };
            let shadows = q.shadows.clone();
            // (Partial: some line crossing the piece in plan passes over it.)
            let mut over = false;
            // Target points on rings and spokes, out to the rim.
            for i in 0..=12 {
                for k in 0..48 {
                    let b = cb.add(TablePoint::from_angle_deg(7.5 * k as f64).scale(rb * i as f64 / 12.0));
                    let tau = sh.u.cross(b.sub(a)) / b.sub(a).dot(sh.u);
                    if !shadows.iter().any(|&(s0, s1)| s0 <= tau && tau <= s1) {
                        over |=
                            convex_interval(&terrain[0].polygon, true, a, b).is_some() && q.blocked(a, b, z).is_none();
                        continue;
                    }
                    skipped += 1;
                    let between = (0.5 * (z.0 + z_hi.0), 0.5 * (z.1 + z_hi.1));
                    for z in [z, z_hi, between] {
                        assert!(q.blocked(a, b, z).is_some(), "shadowed line {a:?} -> {b:?} at {z:?} is clear");
                    }
                }
            }
            partial += usize::from(over && !shadows.is_empty());
        }
        assert!(partial > 20 && skipped > 50_000, "too few partial shadows: {partial}, lines {skipped}");
    }

    /// No raised line ends higher than [`Tops::ceiling`] says, and the bound is nearly reached.
    #[test]
    fn raised_lines_stay_under_the_ceiling() {
        let mut rnd = xorshift(0x1234_5678_9abc_def1u64);
        let sils = [Silhouette::S1, Silhouette::S2, Silhouette::S3, Silhouette::S5, Silhouette::S7, Silhouette::S8];
        let (mut raised, mut worst) = (0, 1.0f64);
        for _ in 0..4000 {
            let v = Body::new(TablePoint::new(0.0, 0.0), sils[(6.0 * rnd()) as usize % 6]).elevated(2.0 * rnd());
            let t = Body::new(TablePoint::new(1.0 + 10.0 * rnd(), 4.0 * rnd() - 2.0), sils[(6.0 * rnd()) as usize % 6])
                .elevated(2.0 * rnd());
            if v.centre.dist(t.centre) <= v.radius() + t.radius() {
                continue;
            }
            let region = |b: &Body| Region { centre: b.centre, r: b.radius(), clip: None };
            let tops = Tops { viewer: region(&v), viewer_top: v.top(), target: region(&t), target_top: t.top() };
            let mut on = |b: &Body| b.centre.add(TablePoint::from_angle_deg(360.0 * rnd()).scale(b.radius()));
            let (a, b) = (on(&v), on(&t));
            let z = (v.bottom() + rnd() * (v.top() - v.bottom()), t.bottom() + rnd() * (t.top() - t.bottom()));
            let (got, _) = tops.raise(a, b, z);
            let ceiling = tops.ceiling(z, a.dist(b));
            assert!(got.0 <= ceiling.0 + 1e-12 && got.1 <= ceiling.1 + 1e-12, "{got:?} above {ceiling:?}");
            if got != z {
                raised += 1;
                let gap = (ceiling.0 - got.0).max(ceiling.1 - got.1) / (v.top() - t.top()).abs();
                worst = worst.min(gap);
            }
        }
        // Some raised line comes within 2% of the bound (the bound is tight, not just safe).
        assert!(raised > 200 && worst < 0.02, "{raised} raised lines, nearest {worst}");
    }

    /// [`Ceiling::crossing`] is where the bound reaches the height: within rounding of it there,
    /// below it on one side and above on the other, for bounds rising and falling between bases
    /// of every size and level (the chain cuts a piece there, [`tall_part`]).
    #[test]
    fn the_ceiling_crosses_a_height_where_crossing_says() {
        let mut rnd = xorshift(0x0bad_cafe_f00d_1234u64);
        let sils = [Silhouette::S1, Silhouette::S2, Silhouette::S3, Silhouette::S5, Silhouette::S7, Silhouette::S8];
        let mut checked = 0;
        for _ in 0..4000 {
            let v = Body::new(TablePoint::new(0.0, 0.0), sils[(6.0 * rnd()) as usize % 6]).elevated(3.0 * rnd());
            let t = Body::new(TablePoint::new(2.0 + 20.0 * rnd(), 6.0 * rnd() - 3.0), sils[(6.0 * rnd()) as usize % 6])
                .elevated(3.0 * rnd());
            let best = (v.top(), (t.top() - MIN_VISIBLE_IN).max(t.bottom()));
            let c = Ceiling::new(&v, &t, best);
            let (lo, hi) = (-c.ra, c.len + c.rb);
            let at = |s: f64| c.at(c.origin.add(c.dir.scale(s)));
            let (z_lo, z_hi) = (at(lo), at(hi));
            if (z_hi - z_lo).abs() < 1e-6 {
                assert!(c.crossing(z_lo).is_none() || c.z.0 != c.z.1);
                continue;
            }
            let h = z_lo + (z_hi - z_lo) * (0.01 + 0.98 * rnd());
            let s = c.crossing(h).expect("a bound that is not level crosses");
            assert!(s > lo && s < hi, "{s} outside {lo}..{hi}");
            assert!((at(s) - h).abs() < 1e-9, "{} at the crossing, not {h}", at(s));
            let rising = z_hi > z_lo;
            assert_eq!(at(s - 1e-6) < h, rising);
            assert_eq!(at(s + 1e-6) > h, rising);
            checked += 1;
        }
        assert!(checked > 3000, "{checked}");
    }

    /// [`bridged_hull`] gives exactly [`tagged_hull`]'s corners, tags and order, for base outlines
    /// (clipped or not) of every size, near and far apart, at random angles.
    #[test]
    fn bridged_hull_is_tagged_hull() {
        let mut rnd = xorshift(0x0005_eed0_fb41_d6e5_u64);
        let (mut ring, mut pa, mut pb) = (Vec::new(), Vec::new(), Vec::new());
        let (mut pts, mut hull, mut sides) = ((Vec::new(), Vec::new()), Vec::new(), Vec::new());
        let (mut hull2, mut sides2) = (Vec::new(), Vec::new());
        let mut fast = 0;
        for k in 0..20_000 {
            let radii = [0.49, 0.79, 1.08, 1.38];
            let (ra, rb) = (radii[(4.0 * rnd()) as usize % 4], radii[(4.0 * rnd()) as usize % 4]);
            let ca = TablePoint::new(48.0 * rnd(), 48.0 * rnd());
            // Mostly apart, sometimes barely or not at all.
            let dist = if k % 10 == 0 { (ra + rb) * (0.9 + 0.2 * rnd()) } else { ra + rb + 20.0 * rnd() };
            let cb = ca.add(TablePoint::from_angle_deg(360.0 * rnd()).scale(dist));
            let facing = TablePoint::from_angle_deg(360.0 * rnd());
            let va = Region { centre: ca, r: ra, clip: (k % 3 != 0).then_some((ca, facing)) };
            let ahead = cb.sub(ca).dot(facing);
            let tb = Region { centre: cb, r: rb, clip: (k % 3 != 0 && ahead < rb).then_some((ca, facing)) };
            va.outer_polygon(&mut ring, &mut pa);
            tb.outer_polygon(&mut ring, &mut pb);
            tagged_hull(&pa, &pb, &mut pts, &mut hull, &mut sides);
            if tb.clip.is_none() && bridged_hull(&pa, &pb, None, &mut hull2, &mut sides2) {
                fast += 1;
                assert_eq!((&hull, &sides), (&hull2, &sides2), "outlines {pa:?} and {pb:?}");
            }
        }
        assert!(fast > 10_000, "only {fast} pairs took the linear path");
    }

    /// [`slice_range`] and [`slice_bits`] give exactly the slices from the first direction's to
    /// the last's, going counter-clockwise (wrapping past slice 63, or all of them for `None`),
    /// and [`slice_rows`] puts bit `k` of row `s` where obstacle `k`'s range holds slice `s` —
    /// checked slice by slice against the plain definition for random spans (some in no slice)
    /// and obstacle counts that fill one word, part of one, and more than one.
    #[test]
    fn slice_rows_hold_each_obstacle_in_the_slices_its_span_reaches() {
        let mut rnd = xorshift(0x51_1ce5_u64.wrapping_mul(0x9e37_79b9));
        let dir = |a: f64| TablePoint::new(a.cos(), a.sin());
        for n in [1usize, 5, 63, 64, 65, 99, 130] {
            let spans: Vec<Option<(TablePoint, TablePoint)>> = (0..n)
                .map(|k| {
                    let a = std::f64::consts::TAU * rnd();
                    // (Some narrow, some wide, some wrapping past +x, some all round.)
                    let w = [0.01, 0.3, 1.5, 3.0][k % 4] * rnd();
                    (k % 7 != 3).then(|| (dir(a), dir(a + w)))
                })
                .collect();
            // (Some obstacles in no slice at all: behind the arc line.)
            let ranges: Vec<Option<(usize, usize)>> =
                spans.iter().enumerate().map(|(k, &s)| (k % 11 != 5).then(|| slice_range(s))).collect();
            let bits: Vec<u64> = ranges.iter().map(|r| r.map_or(0, slice_bits)).collect();
            for ((&span, &b), r) in spans.iter().zip(&bits).zip(&ranges) {
                if r.is_none() {
                    assert_eq!(b, 0, "in no slice");
                    continue;
                }
                let Some((lo, hi)) = span else {
                    assert_eq!(b, u64::MAX, "no span: every slice");
                    continue;
                };
                let (first, last) = (sector(lo), sector(hi));
                for s in 0..SECTORS {
                    let inside = if first <= last { (first..=last).contains(&s) } else { s >= first || s <= last };
                    assert_eq!(b >> s & 1 == 1, inside, "slice {s} of span {first}..={last}");
                }
            }
            let mut rows = Vec::new();
            let words = slice_rows(&ranges, &mut rows);
            assert_eq!(words, n.div_ceil(64));
            assert_eq!(rows.len(), SECTORS * words);
            for s in 0..SECTORS {
                for (k, &b) in bits.iter().enumerate() {
                    assert_eq!(rows[s * words + k / 64] >> (k % 64) & 1, b >> s & 1, "row {s}, obstacle {k} of {n}");
                }
                // (Nothing beyond the last obstacle.)
                let spare = words * 64 - n;
                if spare > 0 {
                    assert_eq!(rows[s * words + words - 1] >> (64 - spare), 0, "row {s} past obstacle {n}");
                }
            }
        }
    }

    /// The broad phase by [`Sectors`] misses nothing the exact tests keep: every terrain piece
    /// whose box grown by the reach meets the segment, every body within the reach of it, from
    /// bodies' centres to random points, among pieces and bodies of every size, some close enough
    /// to surround the viewer.
    #[test]
    fn sectors_miss_nothing_near_the_segment() {
        let mut rnd = xorshift(0x0bad_5eed_1234_5678_u64);
        let sils = [Silhouette::S1, Silhouette::S2, Silhouette::S5, Silhouette::S7, Silhouette::S8];
        let (mut kept, mut listed) = (0, 0);
        for _ in 0..30 {
            let terrain = random_rects(&mut rnd, 40, 6.0, 4.0);
            let bodies: Vec<Body> = (0..60)
                .map(|k| {
                    let b = Body::new(TablePoint::new(48.0 * rnd(), 48.0 * rnd()), sils[k % 5]).facing(360.0 * rnd());
                    if k % 4 == 0 { b.with_arc(Arc::All360) } else { b }
                })
                .collect();
            let obs = Obstacles::new(&terrain, &bodies);
            let r_max = bodies.iter().map(|b| b.radius()).fold(0.0, f64::max);
            let mut out = Vec::new();
            for v in 0..bodies.len() {
                let a = bodies[v].centre;
                for _ in 0..40 {
                    let b = if rnd() < 0.5 {
                        bodies[(60.0 * rnd()) as usize % 60].centre
                    } else {
                        a.add(TablePoint::from_angle_deg(360.0 * rnd()).scale(0.01 + 30.0 * rnd()))
                    };
                    // (For a 180° arc, only targets in it: centres less than a radius behind its line.)
                    if bodies[v].arc == Arc::Front180 && b.sub(a).dot(bodies[v].facing_unit()) <= -r_max {
                        continue;
                    }
                    let reach = obs.reach_max * rnd();
                    obs.near_segment(Some(v), a, b, reach, &mut out);
                    listed += out.len();
                    for (i, bx) in obs.work.boxes.iter().enumerate() {
                        if bx.grown(reach).meets_segment(a, b) {
                            kept += 1;
                            assert!(out.contains(&i), "piece {i} near {a:?} → {b:?} not listed");
                        }
                    }
                    for (j, body) in bodies.iter().enumerate() {
                        if point_segment_distance(body.centre, a, b) < reach + body.radius() {
                            kept += 1;
                            assert!(out.contains(&(terrain.len() + j)), "body {j} near {a:?} → {b:?} not listed");
                        }
                    }
                }
            }
        }
        // (And the slices do cut the list: far fewer than every obstacle for every segment.)
        assert!(kept > 10_000 && listed < 30 * 60 * 40 * 100 / 3, "{kept} kept, {listed} listed");
    }

    /// The fans' slices drop no piece, or convex part of an L-shaped one, whose fan holds both
    /// directions: the same as testing every fan taller than the bound.
    #[test]
    fn fan_slices_drop_no_piece_that_may_span() {
        let mut rnd = xorshift(0x5eed_fa25_0000_0001_u64);
        let (mut found, mut parts, mut queries) = (0, 0, 0);
        for _ in 0..30 {
            let terrain = random_pieces(&mut rnd, 70, 8.0, 4.0);
            let obs = Obstacles::new(&terrain, &[]);
            let mut fans = Fans::default();
            let mut got = Vec::new();
            for _ in 0..40 {
                let c = TablePoint::new(48.0 * rnd(), 48.0 * rnd());
                fans.fill(&obs, c, None);
                for _ in 0..40 {
                    let w = TablePoint::from_angle_deg(360.0 * rnd()).scale(1.0 + 30.0 * rnd());
                    let Some((t0, t1)) = tangent_directions(w, 0.1 + rnd()) else { continue };
                    let low = 4.5 * rnd();
                    got.clear();
                    fans.holding(t0, t1, low, &mut got);
                    let want: Vec<(usize, Option<usize>)> = fans
                        .list
                        .iter()
                        .filter(|f| f.height > low && f.holds(t0) && f.holds(t1))
                        .map(|f| (f.piece, f.part))
                        .collect();
                    assert_eq!(got, want, "from {c:?} towards {w:?}");
                    found += want.len();
                    parts += want.iter().filter(|(_, part)| part.is_some()).count();
                    queries += 1;
                }
            }
        }
        assert!(
            found > 20_000 && parts > 10_000 && queries > 40_000,
            "{found} found ({parts} parts) in {queries} queries"
        );
    }

    /// A viewer given with another facing or arc than its body among the obstacles gets the
    /// answers of obstacles where its body faces that way (the work kept per viewer is for the
    /// body's own facing and arc).
    #[test]
    fn a_viewer_turned_from_its_body_is_answered_as_turned() {
        let mut rnd = xorshift(0x7e57_0f7a_2e00_0001_u64);
        let terrain: Vec<Terrain> = (0..30)
            .filter_map(|k| {
                let (x, y) = (30.0 * rnd(), 30.0 * rnd());
                Terrain::rect(format!("t{k}"), x, y, x + 0.3 + 4.0 * rnd(), y + 0.3 + 4.0 * rnd(), 0.5 + 4.0 * rnd())
                    .ok()
            })
            .filter(|t| t.polygon[0].x > 16.0 || t.polygon[0].y > 16.0 || t.polygon[2].x < 14.0)
            .collect();
        let mut bodies: Vec<Body> = (0..20)
            .map(|k| {
                Body::new(TablePoint::new(1.0 + 28.0 * rnd(), 1.0 + 28.0 * rnd()), Silhouette::S2)
                    .facing(18.0 * k as f64)
            })
            .collect();
        bodies[0] = Body::new(TablePoint::new(15.0, 15.0), Silhouette::S2).facing(0.0);
        let obs = Obstacles::new(&terrain, &bodies);
        let mut differ = 0;
        for (facing, arc) in [(180.0, Arc::Front180), (90.0, Arc::Front180), (0.0, Arc::All360)] {
            let turned = bodies[0].facing(facing).with_arc(arc);
            let mut as_turned = bodies.clone();
            as_turned[0] = turned;
            let fresh = Obstacles::new(&terrain, &as_turned);
            for j in 1..bodies.len() {
                let (before, got) = (
                    line_of_fire(&obs, &bodies[0], &bodies[j], &[0, j]),
                    line_of_fire(&obs, &turned, &bodies[j], &[0, j]),
                );
                assert_eq!(got, line_of_fire(&fresh, &turned, &bodies[j], &[0, j]), "target {j}, facing {facing}");
                differ += usize::from(got != before);
            }
        }
        // (The turns do change answers: targets come into and out of the arc.)
        assert!(differ > 5, "{differ}");
    }

    /// A raised trooper is passed beneath unless a piece at least as high as its feet holds its
    /// whole base; where nothing holds it, the lines beneath it are found.
    #[test]
    fn a_raised_trooper_is_seen_beneath_only_where_nothing_holds_it() {
        let at = TablePoint::new;
        let viewer = Body::new(at(5.0, 10.0), Silhouette::S2).facing(0.0);
        let target = Body::new(at(15.0, 10.0), Silhouette::S2);
        // (An S5 with its feet 1" up: its 40 mm base is wider than the S2s' 25 mm, so every plan
        // line between them crosses it, and the S2s' best lines, 1.5" up, run into it.)
        let raised = Body::new(at(10.0, 10.0), Silhouette::S5).elevated(1.0);
        let bodies = [viewer, target, raised];
        let rect = |x0, y0, x1, y1, h| Terrain::rect("p", x0, y0, x1, y1, h).expect("a valid piece");
        let p = |pts: &[(f64, f64)]| {
            Terrain::new("l", pts.iter().map(|&(x, y)| at(x, y)).collect(), 1.0).expect("a valid piece")
        };
        let pillar = rect(9.9, 9.9, 10.1, 10.1, 1.0);
        let roof = rect(9.0, 9.0, 11.0, 11.0, 1.0);
        assert!(stands_on_terrain(&raised, std::slice::from_ref(&roof)));
        assert!(!stands_on_terrain(&raised, std::slice::from_ref(&pillar)));
        assert!(!stands_on_terrain(&raised, &[rect(9.0, 9.0, 11.0, 11.0, 0.9)]), "lower than its feet");
        assert!(!stands_on_terrain(&raised, &[rect(9.5, 9.0, 11.0, 11.0, 1.0)]), "an edge overhangs");
        // Concave: an L holding the base in its corner square, and one with the notch under it.
        let l_holds = p(&[(9.0, 9.0), (13.0, 9.0), (13.0, 11.0), (11.0, 11.0), (11.0, 13.0), (9.0, 13.0)]);
        let l_notch = p(&[(9.0, 9.0), (10.2, 9.0), (10.2, 10.2), (13.0, 10.2), (13.0, 13.0), (9.0, 13.0)]);
        assert!(stands_on_terrain(&raised, &[l_holds]));
        assert!(!stands_on_terrain(&raised, &[l_notch]));
        // Beside the pillar, lines pass beneath it: partly seen, the witness under its feet.
        let terrain = [pillar];
        let obs = Obstacles::new(&terrain, &bodies);
        let r = line_of_fire(&obs, &viewer, &target, &[0, 1]);
        assert!(matches!(r.lof, Lof::Partial { .. }), "{:?}", r.lof);
        let [a, b] = r.witness.expect("a witness");
        let z = a.z + (b.z - a.z) * (10.0 - a.x) / (b.x - a.x);
        assert!(z < raised.bottom(), "{a:?} -> {b:?}");
        // On the roof: the lines beneath run into the roof, those above into the trooper.
        let terrain = [roof];
        let obs = Obstacles::new(&terrain, &bodies);
        let r = line_of_fire(&obs, &viewer, &target, &[0, 1]);
        assert!(matches!(r.lof, Lof::Blocked { .. }), "{:?}", r.lof);
    }

    /// The LoF of `bodies[0]` to `bodies[1]` among `terrain` and the rest, which must be
    /// partial: its witness, and the witness's height over each `x`, inches.
    fn partial_along_x(terrain: &[Terrain], bodies: &[Body]) -> (impl Fn(f64) -> f64, [Point3; 2]) {
        let obs = Obstacles::new(terrain, bodies);
        let r = line_of_fire(&obs, &bodies[0], &bodies[1], &[0, 1]);
        assert!(matches!(r.lof, Lof::Partial { .. }), "{:?}", r.lof);
        let [a, b] = r.witness.expect("a witness");
        (move |x: f64| a.z + (b.z - a.z) * (x - a.x) / (b.x - a.x), [a, b])
    }

    /// Phase 4d follows a line however many raised troopers it passes beneath: a row of seven
    /// S5s up on a ledge, their bases hanging over the line between two S2s, and a 1" wall in
    /// front of the viewer. The best lines run into the S5s' feet, the middle and low lines
    /// into the wall; a line about 1.15" up passes over the wall and beneath all seven.
    #[test]
    fn a_line_is_found_beneath_a_row_of_raised_troopers() {
        let at = TablePoint::new;
        let feet = 1.3;
        let viewer = Body::new(at(2.0, 10.0), Silhouette::S2).facing(0.0);
        let target = Body::new(at(18.0, 10.0), Silhouette::S2).facing(180.0);
        let row: Vec<Body> =
            (0..7).map(|k| Body::new(at(6.0 + 1.6 * f64::from(k), 10.0), Silhouette::S5).elevated(feet)).collect();
        let bodies: Vec<Body> = [viewer, target].into_iter().chain(row.iter().copied()).collect();
        // (The ledge holds the far edge of each 40 mm base, clear of every line between the S2s.)
        let terrain = [
            Terrain::rect("wall", 3.5, 7.0, 4.0, 13.0, 1.0).expect("a valid piece"),
            Terrain::rect("ledge", 5.0, 10.6, 17.0, 11.2, feet).expect("a valid piece"),
        ];
        let (z_at, [a, b]) = partial_along_x(&terrain, &bodies);
        assert!(z_at(3.5) >= 1.0 && z_at(4.0) >= 1.0, "over the wall: {a:?} -> {b:?}");
        for s in &row {
            let (x0, x1) = (s.centre.x - s.radius(), s.centre.x + s.radius());
            assert!(z_at(x0.max(a.x)) <= feet && z_at(x1.min(b.x)) <= feet, "beneath {s:?}: {a:?} -> {b:?}");
        }
        // With the wall 1.5" high, a line over it falls at least 0.2" by the row's first feet,
        // 1.2" on, and so would reach the target's far side 2" lower: below its feet. Blocked.
        let terrain = [Terrain::rect("wall", 3.5, 7.0, 4.0, 13.0, 1.5).expect("a valid piece"), terrain[1].clone()];
        let obs = Obstacles::new(&terrain, &bodies);
        assert!(matches!(line_of_fire(&obs, &viewer, &target, &[0, 1]).lof, Lof::Blocked { .. }));
    }

    /// Phase 4d bounds a line over every stretch of a concave piece it crosses: a viewer up on a
    /// tower looks down over both arms of a 1.5" U-shaped wall and under the feet of an S5 on a
    /// ledge (1.5" up) at a trooper on the ground. Its lines come down, so the far arm, just
    /// before the S5, is where they are lowest: only lines that keep above 1.5" there and fall
    /// below 1.5" within the next 0.11" pass. (Bounding the lines over the near arm alone leaves
    /// profiles that run into the far arm, and finds none.)
    #[test]
    fn a_line_over_both_arms_of_a_u_shaped_wall_and_under_a_raised_trooper_is_found() {
        let at = TablePoint::new;
        let viewer = Body::new(at(2.0, 10.0), Silhouette::S2).facing(0.0).elevated(1.0);
        let target = Body::new(at(18.0, 10.0), Silhouette::S2).facing(180.0);
        let raised = Body::new(at(9.4, 10.0), Silhouette::S5).elevated(1.5);
        let bodies = [viewer, target, raised];
        let arms = [(3.5, 7.0), (4.0, 7.0), (4.0, 12.5), (8.0, 12.5), (8.0, 7.0), (8.5, 7.0), (8.5, 13.0), (3.5, 13.0)];
        let terrain = [
            Terrain::new("u wall", arms.iter().map(|&(x, y)| at(x, y)).collect(), 1.5).expect("a valid piece"),
            Terrain::rect("ledge", 8.8, 10.6, 10.0, 11.3, 1.5).expect("a valid piece"),
            Terrain::rect("tower", 1.0, 9.0, 3.0, 11.0, 1.0).expect("a valid piece"),
        ];
        let (z_at, [a, b]) = partial_along_x(&terrain, &bodies);
        assert!(z_at(8.5) >= 1.5 && z_at(4.0) >= 1.5, "over both arms: {a:?} -> {b:?}");
        assert!(z_at(9.4 - raised.radius()) <= 1.5, "beneath the S5: {a:?} -> {b:?}");
    }

    /// A target on a roof, mostly behind the viewer's arc line (a case the brute force found).
    /// The line from the viewer's feet to the far end of the sliver in front clips the roof's
    /// corner, but it comes up beneath the target's base, which hangs over the roof's edge, and
    /// shows only the rim (assumption UNDERSIDE): the lines that reach the sliver's facing side
    /// pass clear of the roof, so the LoF is clear. With the roof reaching out beyond the base
    /// towards the viewer, the lines that come up to the target's feet run into it: partial.
    #[test]
    fn a_roof_under_the_target_blocks_only_lines_that_reach_it_from_outside_its_base() {
        let at = TablePoint::new;
        let viewer = Body::new(at(15.067, 15.976), Silhouette::S2).facing(138.079).elevated(1.7708);
        let target = Body::new(at(18.762, 19.095), Silhouette::S5).facing(335.117).elevated(2.3155);
        let viewers_roof =
            Terrain::rect("viewer's roof", 13.217, 12.720, 15.939, 17.826, 1.7708).expect("a valid piece");
        let terrain = [
            viewers_roof.clone(),
            Terrain::rect("target's roof", 18.451, 18.408, 21.650, 21.527, 2.3155).expect("a valid piece"),
        ];
        let bodies = [viewer, target];
        let obs = Obstacles::new(&terrain, &bodies);
        assert_eq!(line_of_fire(&obs, &viewer, &target, &[0, 1]).lof, Lof::Clear);
        // The line the brute force found, from the viewer's feet to the target's rim, is blocked
        // by the roof, and enters the target's disc well before its end, below its feet.
        let (a, b) = (at(15.067, 15.976), at(18.5486, 19.8532));
        let seg_box = Aabb::around([a, b]);
        let mut scratch = Vec::new();
        assert!(blocks(&obs, Blocker::Terrain(1), (a, b, (1.7708, 2.3155), &seg_box), &mut scratch));
        let (t0, _) = disc_interval(a, b, target.centre, target.radius()).expect("it crosses the base");
        assert!(t0 < 0.99 && 1.7708 + (2.3155 - 1.7708) * t0 < target.bottom(), "{t0}");
        // The roof reaching out beyond the base towards the viewer.
        let wide =
            [viewers_roof, Terrain::rect("target's roof", 17.5, 17.5, 21.650, 21.527, 2.3155).expect("a valid piece")];
        let obs = Obstacles::new(&wide, &bodies);
        let r = line_of_fire(&obs, &viewer, &target, &[0, 1]);
        assert_eq!(r.lof, Lof::Partial { blocked_by: vec![Blocker::Terrain(1)] });
    }

    /// A TAG up on a roof, its base hanging 1" over the roof's edge towards an S1 on the table
    /// (a case the brute force found). Beside the base, near the lines tangent to it, two slivers
    /// of the roof lie in the hull, where the lowest line's estimate is just under the roof; but
    /// every line through them comes up beneath the base to its rim (assumption UNDERSIDE), so
    /// the roof blocks none of the lines that count and is not named. With the roof reaching out
    /// beyond the base towards the S1, the lines to the TAG's feet run into it: it is named.
    #[test]
    fn the_roof_a_hanging_target_stands_on_is_named_only_where_lines_pass_low_over_it() {
        let at = TablePoint::new;
        let viewer = Body::new(at(10.181, 14.523), Silhouette::S1).facing(300.816);
        let target = Body::new(at(21.592, 14.461), Silhouette::S7).facing(315.613).elevated(2.433);
        let bodies = [viewer, target];
        let roof = |x0: f64| Terrain::rect("roof", x0, 13.717, 26.264, 16.643, 2.433).expect("a valid piece");
        let terrain = [roof(21.539)];
        let obs = Obstacles::new(&terrain, &bodies);
        let r = line_of_fire(&obs, &viewer, &target, &[0, 1]);
        assert!(r.witness.is_some() && !r.lof.blockers().contains(&Blocker::Terrain(0)), "{:?}", r.lof);
        let terrain = [roof(20.0)];
        let obs = Obstacles::new(&terrain, &bodies);
        let r = line_of_fire(&obs, &viewer, &target, &[0, 1]);
        assert_eq!(r.lof, Lof::Partial { blocked_by: vec![Blocker::Terrain(0)] });
    }

    /// An S7 up on a roof 2.65" high looking down at an S7 on the table (rooftops seed 28 of the
    /// brute force): a 1.68" piece beside the lines lies where the lowest line's estimate at the
    /// axis fraction is under its top, but no real line from the viewer's front half to the
    /// target passes that low over it, so it is not named. Moved onto the axis, 60% of the way,
    /// where the lowest line is 1.06" high, it is.
    #[test]
    fn a_piece_beside_lines_coming_down_is_named_only_where_one_passes_below_its_top() {
        let at = TablePoint::new;
        let viewer = Body::new(at(17.412016, 4.937033), Silhouette::S7).facing(174.998005).elevated(2.648499);
        let target = Body::new(at(10.597794, 19.812685), Silhouette::S7).facing(270.579980);
        let bodies = [target, viewer];
        let piece = |id: &str, (x0, y0, x1, y1): (f64, f64, f64, f64), h: f64| {
            Terrain::rect(id, x0, y0, x1, y1, h).expect("a valid piece")
        };
        let roof = piece("roof", (16.448253, 4.628937, 19.954159, 8.404282), 2.648499);
        let beside = piece("beside", (15.531509, 9.001112, 17.937686, 10.742489), 1.680667);
        let terrain = [roof.clone(), beside];
        let obs = Obstacles::new(&terrain, &bodies);
        let r = line_of_fire(&obs, &viewer, &target, &[1, 0]);
        assert_eq!(r.lof, Lof::Partial { blocked_by: vec![Blocker::Terrain(0)] });
        let on_axis = piece("on the axis", (12.8, 13.3, 13.8, 14.3), 1.680667);
        let terrain = [roof, on_axis];
        let obs = Obstacles::new(&terrain, &bodies);
        let r = line_of_fire(&obs, &viewer, &target, &[1, 0]);
        assert!(r.witness.is_some() && r.lof.blockers().contains(&Blocker::Terrain(1)), "{:?}", r.lof);
    }

    /// [`low_lines_may_meet`] against sampled feet-to-feet lines, from the viewer's front half
    /// (its rim, its straight edge and points inside) to the target's base, over random pieces —
    /// rectangles turned either way round and L shapes — near the lines, between random levels:
    /// whenever one of those lines runs below a piece's top over it, the piece is said to meet
    /// them; and of the pieces in the hull that none does, more than nine in ten are said not to.
    #[test]
    fn low_lines_may_meet_misses_no_line_below_a_piece() {
        let mut rnd = xorshift(0x10e5_11e5_0b1e_c7ed_u64);
        let (mut ring, mut pa, mut pb) = (Vec::new(), Vec::new(), Vec::new());
        let (mut pts, mut hull, mut sides) = ((Vec::new(), Vec::new()), Vec::new(), Vec::new());
        let (mut scaled, mut scratch) = (Vec::new(), Vec::new());
        let (mut met, mut dropped, mut kept) = (0, 0, 0);
        for k in 0..3000 {
            let radii = [0.49, 0.79, 1.08, 1.38];
            let (ra, rb) = (radii[(4.0 * rnd()) as usize % 4], radii[(4.0 * rnd()) as usize % 4]);
            let ca = TablePoint::new(10.0 + 28.0 * rnd(), 10.0 + 28.0 * rnd());
            let dir = TablePoint::from_angle_deg(360.0 * rnd());
            let cb = ca.add(dir.scale(ra + rb + 0.5 + 12.0 * rnd()));
            // (Facing the target, give or take 80°.)
            let facing = TablePoint::from_angle_deg(dir.y.atan2(dir.x).to_degrees() + 160.0 * rnd() - 80.0);
            let va = Region { centre: ca, r: ra, clip: Some((ca, facing)) };
            let ahead = cb.sub(ca).dot(facing);
            let tb = Region { centre: cb, r: rb, clip: (ahead < rb).then_some((ca, facing)) };
            va.outer_polygon(&mut ring, &mut pa);
            tb.outer_polygon(&mut ring, &mut pb);
            tagged_hull(&pa, &pb, &mut pts, &mut hull, &mut sides);
            let levels: [f64; 5] = [0.0, 0.8, 1.5, 2.6, 4.0];
            let (za, zb) = (levels[(5.0 * rnd()) as usize % 5], levels[(5.0 * rnd()) as usize % 5]);
            if za == zb {
                continue;
            }
            let h = za.min(zb) + (za - zb).abs() * (1.2 * rnd() - 0.1);
            // A piece near the lines: its middle somewhere along the axis, off it by up to the
            // larger radius and a half.
            let perp = TablePoint::new(-dir.y, dir.x);
            let mid = ca.lerp(cb, rnd()).add(perp.scale((2.0 * rnd() - 1.0) * (ra.max(rb) + 0.5)));
            let (w, d) = (0.1 + 1.5 * rnd(), 0.1 + 1.5 * rnd());
            let u = TablePoint::from_angle_deg(180.0 * rnd());
            let v = TablePoint::new(-u.y, u.x);
            let corner = |x: f64, y: f64| mid.add(u.scale(x * w)).add(v.scale(y * d));
            let (poly, ccw): (Vec<TablePoint>, Option<bool>) = match k % 3 {
                0 => {
                    ([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)].map(|(x, y)| corner(x, y)).into(), Some(true))
                }
                1 => (
                    [(-0.5, 0.5), (0.5, 0.5), (0.5, -0.5), (-0.5, -0.5)].map(|(x, y)| corner(x, y)).into(),
                    Some(false),
                ),
                _ => (
                    [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.0), (0.0, 0.0), (0.0, 0.5), (-0.5, 0.5)]
                        .map(|(x, y)| corner(x, y))
                        .into(),
                    None,
                ),
            };
            let says = low_lines_may_meet((&poly, ccw), &hull, ((ca, ra), (cb, rb)), (za, zb, h), &mut scaled);
            // The sampled lines: from the front half's rim and straight edge and a few points
            // inside it, to the target's rim and centre, where they are in front.
            let side = TablePoint::new(-facing.y, facing.x);
            let mut from: Vec<TablePoint> = (0..=24)
                .map(|j| {
                    ca.add(
                        TablePoint::from_angle_deg(facing.y.atan2(facing.x).to_degrees() - 90.0 + 7.5 * j as f64)
                            .scale(ra),
                    )
                })
                .chain((0..=8).map(|j| ca.add(side.scale(ra * (j as f64 / 4.0 - 1.0)))))
                .collect();
            from.extend((0..6).map(|_| ca.add(facing.scale(ra * rnd())).add(side.scale(ra * (rnd() - 0.5)))));
            let to: Vec<TablePoint> = (0..48)
                .map(|j| cb.add(TablePoint::from_angle_deg(7.5 * j as f64).scale(rb)))
                .chain([cb])
                .filter(|&p| p.sub(ca).dot(facing) >= 0.0)
                .collect();
            let below = from.iter().any(|&a| {
                to.iter().any(|&b| {
                    // (Lowest where the line leaves the piece coming down, enters it going up.)
                    inside_stretches(&poly, a, b, &mut scratch)
                        .any(|(s0, s1)| za + (zb - za) * if za > zb { s1 } else { s0 } < h - 1e-9)
                })
            });
            if below {
                met += 1;
                assert!(says, "piece {poly:?} {h}\" high, lines from {ca:?} ({ra}, {za}) to {cb:?} ({rb}, {zb})");
            }
            // (Pieces in the hull that no line passes below: most are said not to meet them.)
            if !below && polygon_meets_convex(&poly, &hull) {
                if says { kept += 1 } else { dropped += 1 }
            }
        }
        assert!(met > 300 && dropped > 300 && kept < dropped / 10, "{met} met, {dropped} dropped, {kept} kept");
    }

    /// An S1 looking at a Prone S1 (3 mm tall, so only lines to its feet count), an S2 standing
    /// on the table right across the line between them, and a Prone S7 up on a low roof beside
    /// it, its base hanging over the edge (rooftops seed 53 of the brute force: the raised S7
    /// calls for lines from feet to feet). The line from the S1's feet along the table to the
    /// target's runs into the S2's base: it is no witness, and the witness given clears the S2.
    #[test]
    fn a_line_along_the_table_runs_into_a_trooper_standing_on_it() {
        let at = TablePoint::new;
        let target = Body::new(at(15.856947, 1.599250), Silhouette::S1).facing(252.700181).lying(true);
        let viewer = Body::new(at(22.109419, 18.055584), Silhouette::S1).facing(214.718345);
        let across = Body::new(at(17.745270, 6.489160), Silhouette::S2).facing(247.788910).with_arc(Arc::All360);
        let raised =
            Body::new(at(21.242099, 13.312234), Silhouette::S7).facing(20.874600).elevated(0.907874).lying(true);
        let roof = Terrain::rect("roof", 20.553587, 12.642750, 23.101504, 13.621006, 0.907874).expect("a valid piece");
        let bodies = [target, viewer, across, raised];
        let terrain = [roof];
        let obs = Obstacles::new(&terrain, &bodies);
        // (Nothing can pass beneath a trooper standing on the table.)
        let (a, b) = (viewer.centre, target.centre);
        let seg_box = Aabb::around([a, b]);
        assert!(blocks(&obs, Blocker::Trooper(2), (a, b, (0.0, 0.0), &seg_box), &mut Vec::new()));
        let r = line_of_fire(&obs, &viewer, &target, &[1, 0]);
        let [p, q] = r.witness.expect("the S1 sees the target past the S2");
        // Checked point by point along the witness: over the S2's base, it is above its head.
        for k in 0..=2000 {
            let u = f64::from(k) / 2000.0;
            let (plan, z) = (p.plan().lerp(q.plan(), u), p.z + (q.z - p.z) * u);
            assert!(plan.dist(across.centre) >= across.radius() || z > across.top(), "{p:?} -> {q:?} at {u}");
        }
        assert!(r.lof.blockers().contains(&Blocker::Trooper(2)), "{:?}", r.lof);
    }

    /// A target just straddling the viewer's arc line, only a cap 0.024" deep of its base in
    /// front (a case the brute force found): the witness ends on that cap, not on the arc line
    /// beyond it, where a point across the target's centre moved straight onto the line landed.
    #[test]
    fn a_witness_to_a_target_straddling_the_arc_line_ends_on_it() {
        let at = TablePoint::new;
        let rect = |id: &str, x0: f64, y0: f64, x1: f64, y1: f64, h: f64| {
            Terrain::rect(id, x0, y0, x1, y1, h).expect("a valid piece")
        };
        let bodies = [
            Body::new(at(21.994292, 19.240258), Silhouette::S5).facing(186.504712).lying(true),
            Body::new(at(1.852661, 22.205607), Silhouette::S2).facing(205.875811),
            Body::new(at(12.662807, 12.015351), Silhouette::S1).facing(71.457197).lying(true),
            Body::new(at(3.187394, 12.687223), Silhouette::S5).facing(259.203352),
            Body::new(at(22.562690, 20.990725), Silhouette::S5).facing(160.762181).elevated(3.543530).lying(true),
            Body::new(at(5.791669, 14.033658), Silhouette::S1).facing(311.682601).elevated(2.238254).lying(true),
        ];
        let terrain = [
            rect("t0", 14.230436, 16.770598, 17.832281, 21.228087, 3.891210),
            rect("t1", 14.602107, 7.213677, 17.687011, 12.492436, 1.530072),
            rect("t2", 16.329939, 20.239938, 19.869554, 25.340943, 0.728006),
            rect("t3", 3.669756, 13.895852, 7.467635, 16.021408, 2.238254),
            rect("t4", 19.615196, 20.718256, 24.702703, 21.437864, 3.543530),
        ];
        let obs = Obstacles::new(&terrain, &bodies);
        let (viewer, target) = (bodies[0], bodies[4]);
        assert!(target.centre.sub(viewer.centre).dot(viewer.facing_unit()) + target.radius() < 0.03);
        let r = line_of_fire(&obs, &viewer, &target, &[0, 4]);
        let [_, b] = r.witness.expect("LoF to the cap");
        assert!(b.plan().dist(target.centre) <= target.radius() + 1e-6, "{b:?}");
        assert!(b.plan().sub(viewer.centre).dot(viewer.facing_unit()) >= 0.0, "{b:?}");
    }

    /// The spanning prefilter (fans from the viewer's centre, in front of its arc line, taller
    /// than the lowest line, holding both directions to the target) keeps every piece, and every
    /// convex part of an L-shaped one, that the exact spanning test accepts.
    #[test]
    fn spanning_prefilter_keeps_every_spanning_piece() {
        let mut rnd = xorshift(0x0005_9a11_7e57_0001_u64);
        let sils = [Silhouette::S1, Silhouette::S2, Silhouette::S5, Silhouette::S7];
        let (mut spanning, mut parts, mut pairs) = (0, 0, 0);
        for _ in 0..20 {
            let terrain = random_pieces(&mut rnd, 40, 8.0, 5.0);
            let obs = Obstacles::new(&terrain, &[]);
            // (Every convex piece and every convex part of an L.)
            let all = obs.work.convex_by_height.clone();
            let (mut fans, mut kept) = (Fans::default(), Vec::new());
            for _ in 0..200 {
                let at = |rnd: &mut dyn FnMut() -> f64| TablePoint::new(48.0 * rnd(), 48.0 * rnd());
                let viewer = Body::new(at(&mut rnd), sils[(4.0 * rnd()) as usize % 4]).facing(360.0 * rnd());
                let target = Body::new(at(&mut rnd), sils[(4.0 * rnd()) as usize % 4]);
                let f = viewer.facing_unit();
                if target.centre.sub(viewer.centre).dot(f) + target.radius() <= 1e-6 {
                    continue; // out of arc: never asked
                }
                let best = (viewer.top(), (target.top() - MIN_VISIBLE_IN).max(target.bottom()));
                let ceiling = Ceiling::new(&viewer, &target, best);
                let by: Vec<(usize, Option<usize>)> = all
                    .iter()
                    .copied()
                    .filter(|&c| spanning_pieces(&obs, &[c], &viewer, &target, &ceiling).is_some())
                    .collect();
                if by.is_empty() {
                    continue;
                }
                let (t0, t1) = tangent_directions(target.centre.sub(viewer.centre), target.radius() * 0.999)
                    .expect("bases apart when a piece spans");
                fans.fill(&obs, viewer.centre, Some(f));
                kept.clear();
                fans.holding(t0, t1, ceiling.z.0.min(ceiling.z.1) + 2.0 * EPS, &mut kept);
                for c in &by {
                    assert!(kept.contains(c), "{c:?} spans {viewer:?} → {target:?} but was left out");
                }
                spanning += by.len();
                parts += by.iter().filter(|(_, part)| part.is_some()).count();
                pairs += 1;
            }
        }
        assert!(
            spanning > 1_000 && parts > 500 && pairs > 500,
            "{spanning} spanning ({parts} parts) over {pairs} pairs"
        );
    }

    /// Brute force seed 1028 (session 43): a Prone trooper lying on a roof's corner, its base
    /// hanging over two edges, seen from a Prone S5 on the table. Lines coming up to the 1.2 mm
    /// of its rim over the roof that the viewer reaches run into the roof just before: the roof
    /// blocks them, so the LoF is partial, not clear. The rim there is shorter than the 1.5 mm
    /// sampling step, which missed it; `rim_arrival_blocks` decides it exactly.
    #[test]
    fn a_roof_is_named_where_lines_come_up_to_a_prone_trooper_s_rim_over_it() {
        let p = TablePoint::new;
        let roof = Terrain::new(
            "t3",
            vec![
                p(12.44090212336567, 11.92741121289722),
                p(15.394334918364052, 11.92741121289722),
                p(15.394334918364052, 15.546908661691951),
                p(12.44090212336567, 15.546908661691951),
            ],
            2.4846401413435117,
        )
        .expect("a valid piece");
        let viewer = Body::new(p(6.645435838699031, 11.299374419361996), Silhouette::S5)
            .lying(true)
            .with_arc(Arc::All360)
            .facing(303.8538086050215);
        let target = Body::new(p(12.5361425717688, 12.169266541475745), Silhouette::S2)
            .lying(true)
            .elevated(2.4846401413435117)
            .facing(181.74132142736872);
        let (terrain, bodies) = ([roof], [viewer, target]);
        let obs = Obstacles::new(&terrain, &bodies);
        let lof = line_of_fire(&obs, &viewer, &target, &[0, 1]);
        // The rim over the roof that the viewer reaches lies between the outer tangent's touching
        // point (about 95.6° round the target) and the roof's edge (101.2°). With the target
        // 0.1" further east, more of it is over the roof; 0.15" further west, none of it.
        let region = |b: &Body| Region { centre: b.centre, r: b.radius(), clip: None };
        let moved = |dx: f64| target.at(p(target.centre.x + dx, target.centre.y));
        let roof = &terrain[0].polygon;
        assert!(rim_arrival_blocks(roof, &region(&viewer), &region(&target)));
        assert!(rim_arrival_blocks(roof, &region(&viewer), &region(&moved(0.1))));
        assert!(!rim_arrival_blocks(roof, &region(&viewer), &region(&moved(-0.15))));
        // From only the south half of the viewer's base (its arc facing -y), the rim it reaches
        // starts past the roof's edge, at about 101.6° (seen from its straight edge's east end).
        let south = Region { clip: Some((viewer.centre, TablePoint::new(0.0, -1.0))), ..region(&viewer) };
        assert!(!rim_arrival_blocks(roof, &south, &region(&target)));
        assert!(rim_arrival_blocks(roof, &south, &region(&moved(0.1))));
        assert_eq!(lof.lof, Lof::Partial { blocked_by: vec![Blocker::Terrain(0)] }, "{lof:?}");
    }

    /// Brute force seed 1041: an S2 on the table and an S5 on a roof, its base over the roof's
    /// corner; between them an S7 whose top only lines grazing a base's disc clip (they come up
    /// from the S2's feet to the S5's rim at about 83° round it, over the roof; 0.5 mm of rim, so
    /// the 1.5 mm samples stepped over it). It is named in both directions, as the roof is.
    #[test]
    fn a_trooper_only_lines_grazing_a_base_clip_is_named_between_levels() {
        let p = TablePoint::new;
        let roof = Terrain::new(
            "t0",
            vec![
                p(17.26470142148483, 10.460323590388327),
                p(19.17269800230691, 10.460323590388327),
                p(19.17269800230691, 12.701020950033453),
                p(17.26470142148483, 12.701020950033453),
            ],
            3.369156984099574,
        )
        .expect("a valid piece");
        let low = Body::new(p(4.498689634609408, 13.163257097354874), Silhouette::S2).facing(54.84857318622025);
        let tag = Body::new(p(15.929010570385032, 10.916539385653024), Silhouette::S7).facing(321.06460027050554);
        let high = Body::new(p(17.85079386746012, 10.46110055948765), Silhouette::S5)
            .elevated(3.369156984099574)
            .facing(169.74085950876795);
        let (terrain, bodies) = ([roof], [low, tag, high]);
        let obs = Obstacles::new(&terrain, &bodies);
        let both = vec![Blocker::Terrain(0), Blocker::Trooper(1)];
        let up = line_of_fire(&obs, &low, &high, &[0, 2]);
        assert_eq!(up.lof, Lof::Partial { blocked_by: both.clone() }, "{up:?}");
        let down = line_of_fire(&obs, &high, &low, &[2, 0]);
        assert_eq!(down.lof, Lof::Partial { blocked_by: both }, "{down:?}");
        // The S7's top 0.1" lower (sunk into the table): no line clips it; the roof still blocks some.
        let shorter = [low, tag.elevated(-0.1), high];
        let obs = Obstacles::new(&terrain, &shorter);
        let up = line_of_fire(&obs, &low, &high, &[0, 2]);
        assert_eq!(up.lof, Lof::Partial { blocked_by: vec![Blocker::Terrain(0)] }, "{up:?}");
    }

    #[test]
    fn grazing_lines_touch_a_disc_where_the_radius_is_square_to_them() {
        let p = TablePoint::new;
        let disc = Region { centre: p(0.0, 0.0), r: 1.0, clip: None };
        let from = p(2.0, 0.0);
        let touch = grazing_points(from, &disc);
        for q in touch.iter().map(|q| q.expect("both, unclipped")) {
            assert!((q.dist(disc.centre) - 1.0).abs() < 1e-12);
            assert!(q.sub(disc.centre).dot(from.sub(q)).abs() < 1e-12, "{q:?}");
        }
        // Only the one in front of the clip line (y ≥ 0); none from inside the disc.
        let half = Region { clip: Some((p(0.0, 0.0), p(0.0, 1.0))), ..disc };
        let [a, b] = grazing_points(from, &half);
        assert_eq!(usize::from(a.is_some()) + usize::from(b.is_some()), 1);
        assert_eq!(grazing_points(p(0.5, 0.0), &disc), [None, None]);
    }
}
