//! Terrain pieces: a polygon footprint raised to a height (2.5D).
//!
//! A building is a tall piece; a crate a low one. A piece blocks a line where the line passes
//! over its footprint's interior lower than its height (N4 "Line of Fire": scenery blocks LoF).
//! A piece may reach past the table edge; the part outside is kept (it can still block lines
//! between troopers near the edge) and the visibility polygon is clipped to the table.

use super::TablePoint;
use super::segment::{Aabb, orient, segments_touch, signed_area};
use serde::{Deserialize, Serialize};
use std::ops::Sub as _;

/// The farthest a terrain corner may lie from the table's origin along x or y, either way, inches:
/// twice the longest table side accepted ([`crate::geometry::MAX_TABLE_SIDE_IN`]), room for any piece past a
/// table's edge, and small enough that the products of coordinates the geometry forms stay finite
/// and far finer than its 10⁻⁹" tolerances.
pub const MAX_TERRAIN_COORD_IN: f64 = 2.0 * super::scene::MAX_TABLE_SIDE_IN;

/// A terrain piece.
///
/// # Units
/// Footprint vertices in table inches, height in inches above the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Terrain {
    /// Name shown in verdicts ("blocked by wall1").
    pub id: String,
    /// Footprint, vertices in order (either orientation), closing edge implied.
    pub polygon: Vec<TablePoint>,
    /// Height above the table, inches.
    pub height_in: f64,
    /// Where ladders or stairs go up its sides: stretches of its outline, each from one point to
    /// another on the same edge, table inches. A plain move goes up or down the piece there,
    /// whatever its height, measured along the surface (N4 General Movement Rules, "Ladders and
    /// Stairs"). They block no LoF.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ladders: Vec<[TablePoint; 2]>,
}

/// Why a terrain piece is unusable.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TerrainError {
    /// Fewer than three vertices.
    #[error("its polygon has {0} points; a footprint needs at least 3")]
    TooFewPoints(usize),
    /// A coordinate or the height is NaN or infinite.
    #[error("{0} is not a finite number")]
    NotFinite(String),
    /// The height is zero or negative.
    #[error("its height {0} is not above the table (must be > 0 inches)")]
    BadHeight(f64),
    /// The footprint encloses no area (all points on a line, or repeated).
    #[error("its polygon encloses no area (points repeated or all on one line)")]
    ZeroArea,
    /// A corner lies farther from the table's origin than [`MAX_TERRAIN_COORD_IN`] along x or y.
    #[error("polygon point {0} lies more than {MAX_TERRAIN_COORD_IN}\" from the table's corner")]
    TooFar(usize),
    /// Two non-adjacent edges cross or touch.
    #[error("its polygon crosses itself: edge {0} (from point {0}) meets edge {1} (from point {1})")]
    SelfIntersecting(usize, usize),
    /// A ladder's ends are not on one edge of the footprint, or are one point.
    #[error(
        "ladder {0} does not lie along one edge of its polygon (both ends within {LADDER_ON_EDGE_IN}\" of the same edge, and apart)"
    )]
    LadderOffEdge(usize),
}

/// How far a ladder's ends may lie from the edge of the footprint they stand against, inches.
pub const LADDER_ON_EDGE_IN: f64 = 0.05;

impl Terrain {
    /// A piece named `id` with footprint `polygon` and height `height_in`, validated.
    pub fn new(id: impl Into<String>, polygon: Vec<TablePoint>, height_in: f64) -> Result<Self, TerrainError> {
        let t = Self { id: id.into(), polygon, height_in, ladders: Vec::new() };
        t.validate()?;
        Ok(t)
    }

    /// A piece as files write it: footprint corners and ladders' ends as `(x, y)` pairs, inches;
    /// validated ([`Terrain::new`], [`Terrain::with_ladders`]).
    pub fn from_pairs(
        id: impl Into<String>,
        polygon: &[(f64, f64)],
        height_in: f64,
        ladders: &[[(f64, f64); 2]],
    ) -> Result<Self, TerrainError> {
        let p = |(x, y): (f64, f64)| TablePoint::new(x, y);
        Self::new(id, polygon.iter().copied().map(p).collect(), height_in)?
            .with_ladders(ladders.iter().map(|&[a, b]| [p(a), p(b)]).collect())
    }

    /// A ladder up this piece between the places `a` and `b` (table inches, as clicked): both
    /// put on the edge of the footprint nearest to them together, each at its closest point
    /// there.
    pub fn ladder_between(&self, a: TablePoint, b: TablePoint) -> [TablePoint; 2] {
        let n = self.polygon.len();
        let closest = super::segment::closest_on_segment;
        (0..n)
            .map(|i| (self.polygon[i], self.polygon[(i + 1) % n]))
            .map(|(e0, e1)| [closest(a, e0, e1), closest(b, e0, e1)])
            .min_by(|x, y| (x[0].dist(a) + x[1].dist(b)).total_cmp(&(y[0].dist(a) + y[1].dist(b))))
            .unwrap_or([a, b])
    }

    /// The piece with ladders or stairs up its sides at `ladders` (see [`Terrain::ladders`]),
    /// validated: each must lie along one edge of the footprint.
    pub fn with_ladders(mut self, ladders: Vec<[TablePoint; 2]>) -> Result<Self, TerrainError> {
        self.ladders = ladders;
        self.validate()?;
        Ok(self)
    }

    /// An axis-aligned box piece from `(x0, y0)` to `(x1, y1)`, validated.
    pub fn rect(
        id: impl Into<String>,
        x0: f64,
        y0: f64,
        x1: f64,
        y1: f64,
        height_in: f64,
    ) -> Result<Self, TerrainError> {
        let p = TablePoint::new;
        Self::new(id, vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)], height_in)
    }

    /// Check the piece: at least 3 finite points, positive height, some area, no self-crossing.
    pub fn validate(&self) -> Result<(), TerrainError> {
        let n = self.polygon.len();
        if n < 3 {
            return Err(TerrainError::TooFewPoints(n));
        }
        if let Some(i) = self.polygon.iter().position(|p| !p.is_finite()) {
            return Err(TerrainError::NotFinite(format!("polygon point {i}")));
        }
        if let Some(i) = self.polygon.iter().position(|p| p.x.abs().max(p.y.abs()) > MAX_TERRAIN_COORD_IN) {
            return Err(TerrainError::TooFar(i));
        }
        if !self.height_in.is_finite() {
            return Err(TerrainError::NotFinite("height".into()));
        }
        if self.height_in <= 0.0 {
            return Err(TerrainError::BadHeight(self.height_in));
        }
        for i in 0..n {
            let (a, b) = (self.polygon[i], self.polygon[(i + 1) % n]);
            if a.dist(b) <= 1e-12 {
                return Err(TerrainError::ZeroArea);
            }
            for j in i + 1..n {
                let adjacent = j == i + 1 || (i == 0 && j == n - 1);
                if adjacent {
                    continue;
                }
                if segments_touch(a, b, self.polygon[j], self.polygon[(j + 1) % n]) {
                    return Err(TerrainError::SelfIntersecting(i, j));
                }
            }
        }
        let scale = Aabb::around(self.polygon.iter().copied());
        let size = (scale.max.x - scale.min.x).max(scale.max.y - scale.min.y);
        if signed_area(&self.polygon).abs() <= 1e-9 * size.max(1.0) * size.max(1.0) {
            return Err(TerrainError::ZeroArea);
        }
        // Adjacent edges folding back onto each other also cross.
        for i in 0..n {
            let (a, b, c) = (self.polygon[i], self.polygon[(i + 1) % n], self.polygon[(i + 2) % n]);
            let (u, v) = (b.sub(a), c.sub(b));
            if u.cross(v).abs() <= 1e-12 * u.norm() * v.norm() && u.dot(v) < 0.0 {
                return Err(TerrainError::SelfIntersecting(i, (i + 1) % n));
            }
        }
        for (k, [a, b]) in self.ladders.iter().enumerate() {
            if !a.is_finite() || !b.is_finite() {
                return Err(TerrainError::NotFinite(format!("ladder {k}")));
            }
            let on_one_edge = (0..n).any(|i| {
                let (e0, e1) = (self.polygon[i], self.polygon[(i + 1) % n]);
                super::segment::point_segment_distance(*a, e0, e1) <= LADDER_ON_EDGE_IN
                    && super::segment::point_segment_distance(*b, e0, e1) <= LADDER_ON_EDGE_IN
            });
            if !on_one_edge || a.dist(*b) <= 1e-9 {
                return Err(TerrainError::LadderOffEdge(k));
            }
        }
        Ok(())
    }

    pub(crate) fn aabb(&self) -> Aabb {
        Aabb::around(self.polygon.iter().copied())
    }
}

/// A footprint cut into convex parts, each counter-clockwise with its corners among the
/// footprint's: earcut's triangles, merged across every diagonal whose removal leaves both its
/// ends convex (Hertel–Mehlhorn: at most four times as many parts as the fewest possible; an
/// L-shaped ruin gives two). Every part lies in the footprint and together they make it up; for
/// a footprint earcut cannot cut exactly (their areas would not add up) no parts are given, so a
/// caller that treats each part as a piece of the footprint stays sound either way.
pub(crate) fn convex_parts(polygon: &[TablePoint]) -> Vec<Vec<TablePoint>> {
    let mut tris: Vec<u32> = Vec::new();
    earcut::Earcut::new().earcut(polygon.iter().map(|p| [p.x, p.y]), &[] as &[u32], &mut tris);
    let n = polygon.len();
    // Each part as a counter-clockwise cycle of corner indices.
    let mut parts: Vec<Vec<usize>> = Vec::with_capacity(tris.len() / 3);
    let mut total = 0.0;
    for t in tris.chunks_exact(3) {
        let (a, b, c) = (t[0] as usize, t[1] as usize, t[2] as usize);
        if a.max(b).max(c) >= n {
            return Vec::new();
        }
        let twice = orient(polygon[a], polygon[b], polygon[c]);
        total += 0.5 * twice.abs();
        parts.push(if twice >= 0.0 { vec![a, b, c] } else { vec![a, c, b] });
    }
    let whole = signed_area(polygon).abs();
    if (total - whole).abs() > 1e-9 * whole.max(1e-300) {
        return Vec::new();
    }
    // Which part each directed edge `(from, to)` belongs to (a few dozen edges: a list will do).
    let mut owner: Vec<((usize, usize), usize)> = Vec::with_capacity(3 * parts.len());
    for (k, t) in parts.iter().enumerate() {
        owner.extend((0..3).map(|e| ((t[e], t[(e + 1) % 3]), k)));
    }
    let find =
        |owner: &[((usize, usize), usize)], e: (usize, usize)| owner.iter().find(|(f, _)| *f == e).map(|&(_, k)| k);
    // The diagonals, each once, in order (so the parts are the same on every run).
    let mut diagonals: Vec<(usize, usize)> =
        owner.iter().map(|&(e, _)| e).filter(|&(u, v)| u < v && find(&owner, (v, u)).is_some()).collect();
    diagonals.sort_unstable();
    let mut alive = vec![true; parts.len()];
    for (u, v) in diagonals {
        let (Some(a), Some(b)) = (find(&owner, (u, v)), find(&owner, (v, u))) else { continue };
        if a == b {
            continue;
        }
        // Part `a` from v round to u, then part `b` from u round to v, the two ends shared.
        let from = |cycle: &[usize], start: usize| -> Vec<usize> {
            let at = cycle.iter().position(|&k| k == start).unwrap_or(0);
            cycle[at..].iter().chain(&cycle[..at]).copied().collect()
        };
        let (pa, pb) = (from(&parts[a], v), from(&parts[b], u));
        let (la, lb) = (pa.len(), pb.len());
        // Still convex at u (between a's corner before it and b's after it) and at v.
        let convex_at =
            |before: usize, at: usize, after: usize| orient(polygon[before], polygon[at], polygon[after]) >= 0.0;
        if !(convex_at(pa[la - 2], u, pb[1]) && convex_at(pb[lb - 2], v, pa[1])) {
            continue;
        }
        let merged: Vec<usize> = pa.iter().chain(&pb[1..lb - 1]).copied().collect();
        owner.retain(|&(e, k)| k != a && k != b && e != (u, v) && e != (v, u));
        owner.extend((0..merged.len()).map(|e| ((merged[e], merged[(e + 1) % merged.len()]), a)));
        parts[a] = merged;
        parts[b].clear();
        alive[b] = false;
    }
    parts
        .into_iter()
        .zip(alive)
        .filter(|(_, alive)| *alive)
        .map(|(cycle, _)| cycle.into_iter().map(|k| polygon[k]).collect())
        .collect()
}

/// The height a trooper whose base centre is at `p` stands at when it stands on the terrain there:
/// the top of the highest piece whose footprint has `p` inside, else the table (0), inches. (The
/// standing rule a scene and the rules engine apply: a base centre inside a piece is on top of it.)
pub fn surface_height(terrain: &[Terrain], p: TablePoint) -> f64 {
    super::surface_at(terrain, p).height_in
}

/// How far a base of radius `r` centred at `centre` reaches outside the area `polygon` (a zone
/// on the table, such as a Deployment Zone), inches: 0 when the base is totally inside it (N4
/// "Totally Inside": the whole Silhouette inside the area; a base touching the edge from within
/// is inside). Otherwise the distance from the area's edge to the base's farthest point out: the
/// base's radius less the centre's distance to the edge for a centre inside, plus it for a
/// centre outside.
pub fn base_outside_area(polygon: &[TablePoint], centre: TablePoint, r: f64) -> f64 {
    let to_edge = super::segment::distance_to_outline(polygon, centre);
    match super::segment::locate(polygon, centre) {
        super::segment::Where::Inside => (r - to_edge).max(0.0),
        _ => r + to_edge,
    }
}

/// Whether some part of a base of radius `r` centred at `centre` lies inside the area `polygon`
/// (inches): its centre is inside, or the area's edge comes nearer the centre than `r` less
/// `slack`. A base touching the edge from outside is not inside.
pub fn base_overlaps_area(polygon: &[TablePoint], centre: TablePoint, r: f64, slack: f64) -> bool {
    matches!(super::segment::locate(polygon, centre), super::segment::Where::Inside)
        || super::segment::distance_to_outline(polygon, centre) < r - slack
}

/// The outline of the area within `by_in` inches of the area `polygon` (its Minkowski sum with a
/// disc; N4 Forward Deployment's "beyond the limit of their Deployment Zone"), for drawing: each
/// edge moved out by `by_in`, joined round each convex corner by an arc (a point every 10° at
/// most) and at each reflex corner where the two moved edges meet. Exact for a convex area; for a
/// concave one, right wherever the moved edges do not reach across one another. Points in the
/// polygon's own turning order; empty for fewer than 3 corners.
pub fn area_grown_outline(polygon: &[TablePoint], by_in: f64) -> Vec<TablePoint> {
    let n = polygon.len();
    if n < 3 {
        return Vec::new();
    }
    let twice_area: f64 = (0..n)
        .map(|i| {
            let (a, b) = (polygon[i], polygon[(i + 1) % n]);
            a.x * b.y - b.x * a.y
        })
        .sum();
    // The outward normal of the edge from `a` to `b`: to its right when the corners turn
    // counter-clockwise, to its left when they turn clockwise.
    let turn = if twice_area >= 0.0 { 1.0 } else { -1.0 };
    let normal = |a: TablePoint, b: TablePoint| {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len = dx.hypot(dy).max(f64::MIN_POSITIVE);
        (turn * dy / len, -turn * dx / len)
    };
    let mut out = Vec::new();
    for i in 0..n {
        let (prev, v, next) = (polygon[(i + n - 1) % n], polygon[i], polygon[(i + 1) % n]);
        let (n0, n1) = (normal(prev, v), normal(v, next));
        let cross = (n0.0 * n1.1 - n0.1 * n1.0) * turn;
        let (a0, a1) = (n0.1.atan2(n0.0), n1.1.atan2(n1.0));
        if cross >= 0.0 {
            // A convex corner (or none): the arc from one moved edge's end to the next's start.
            let mut sweep = (a1 - a0) * turn;
            if sweep < 0.0 {
                sweep += std::f64::consts::TAU;
            }
            let steps = ((sweep.to_degrees() / 10.0).ceil() as usize).max(1);
            for k in 0..=steps {
                let a = a0 + turn * sweep * k as f64 / steps as f64;
                out.push(TablePoint::new(v.x + by_in * a.cos(), v.y + by_in * a.sin()));
            }
        } else {
            // A reflex corner: the moved edges cross along the corner's bisector.
            let (bx, by) = (n0.0 + n1.0, n0.1 + n1.1);
            let half = 1.0 + n0.0 * n1.0 + n0.1 * n1.1; // 2 cos²(θ/2), θ the turn between normals
            let k = by_in / half.max(1e-9);
            out.push(TablePoint::new(v.x + k * bx, v.y + k * by));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ladder_between_two_clicks_goes_on_the_side_nearest_both() {
        let piece = Terrain::rect("b", 10.0, 20.0, 16.0, 26.0, 3.0).expect("a piece");
        // Either side of the west edge, near the corner at (10, 26): the west edge, not the north.
        assert_eq!(piece.ladder_between(p(9.8, 24.5), p(10.3, 25.8)), [p(10.0, 24.5), p(10.0, 25.8)]);
        // Past the corner along the north edge: clamped to it.
        assert_eq!(piece.ladder_between(p(11.0, 26.2), p(9.0, 26.1)), [p(11.0, 26.0), p(10.0, 26.0)]);
        let with = piece.clone().with_ladders(vec![piece.ladder_between(p(9.8, 24.5), p(10.3, 25.8))]);
        assert!(with.is_ok(), "{with:?}");
    }

    #[test]
    fn an_area_grown_by_4_inches_is_outlined_4_inches_from_it_all_round() {
        let dist = |zone: &[TablePoint], q: TablePoint| super::super::segment::distance_to_outline(zone, q);
        // A zone along the table's edge, either way round, and an L with one reflex corner.
        let strip = vec![p(0.0, 0.0), p(48.0, 0.0), p(48.0, 12.0), p(0.0, 12.0)];
        let clockwise: Vec<TablePoint> = strip.iter().rev().copied().collect();
        let l = vec![p(0.0, 0.0), p(20.0, 0.0), p(20.0, 8.0), p(8.0, 8.0), p(8.0, 20.0), p(0.0, 20.0)];
        for zone in [&strip, &clockwise, &l] {
            let outline = area_grown_outline(zone, 4.0);
            assert!(outline.len() > zone.len(), "{outline:?}");
            for q in &outline {
                assert!((dist(zone, *q) - 4.0).abs() < 1e-9, "{q:?} is {} from {zone:?}", dist(zone, *q));
                assert!(base_outside_area(zone, *q, 0.0) > 3.9, "{q:?} is outside");
            }
            // Round the corner at (0, 0): from 4" left of it to 4" below it.
            for end in [p(-4.0, 0.0), p(0.0, -4.0)] {
                assert!(outline.iter().any(|q| (q.x - end.x).hypot(q.y - end.y) < 1e-9), "{end:?} in {outline:?}");
            }
        }
        // The L's reflex corner (8, 8): its moved edges meet at (12, 12).
        let outline = area_grown_outline(&l, 4.0);
        assert!(outline.iter().any(|q| (q.x - 12.0).abs() < 1e-9 && (q.y - 12.0).abs() < 1e-9), "{outline:?}");
        assert!(area_grown_outline(&l[..2], 4.0).is_empty());
    }

    #[test]
    fn a_base_is_totally_inside_an_area_only_when_no_part_of_it_is_out() {
        // A 12" deep zone along the table's near edge; a 40 mm base (r = 0.787").
        let zone = [p(0.0, 0.0), p(48.0, 0.0), p(48.0, 12.0), p(0.0, 12.0)];
        let r = 20.0 / 25.4;
        assert_eq!(base_outside_area(&zone, p(10.0, 6.0), r), 0.0);
        assert_eq!(base_outside_area(&zone, p(10.0, 12.0 - r), r), 0.0, "touching the edge from within");
        assert!((base_outside_area(&zone, p(10.0, 11.5), r) - (r - 0.5)).abs() < 1e-12);
        // Some of it inside: only when it is more than touching the edge from outside.
        assert!(base_overlaps_area(&zone, p(10.0, 11.5), r, 1e-9));
        assert!(base_overlaps_area(&zone, p(10.0, 12.0 + r - 0.01), r, 1e-9));
        assert!(!base_overlaps_area(&zone, p(10.0, 12.0 + r), r, 1e-9), "touching from outside");
        assert!(!base_overlaps_area(&zone, p(10.0, 20.0), r, 1e-9));
        assert!((base_outside_area(&zone, p(10.0, 13.0), r) - (r + 1.0)).abs() < 1e-12);
        // A concave zone, an L: a centre in the notch, one past an outer corner, and one inside
        // whose nearest edge point is the notch's corner.
        let l = [p(0.0, 0.0), p(10.0, 0.0), p(10.0, 4.0), p(4.0, 4.0), p(4.0, 10.0), p(0.0, 10.0)];
        assert!((base_outside_area(&l, p(5.0, 5.0), r) - (r + 1.0)).abs() < 1e-12);
        assert!((base_outside_area(&l, p(11.0, 5.0), r) - (r + 2f64.sqrt())).abs() < 1e-12);
        assert!((base_outside_area(&l, p(3.5, 3.5), r) - (r - 0.5f64.sqrt())).abs() < 1e-12);
    }

    fn p(x: f64, y: f64) -> TablePoint {
        TablePoint::new(x, y)
    }

    #[test]
    fn degenerate_pieces_are_refused_with_the_reason() {
        assert_eq!(Terrain::new("a", vec![p(0.0, 0.0), p(1.0, 0.0)], 1.0), Err(TerrainError::TooFewPoints(2)));
        assert_eq!(Terrain::new("a", vec![p(0.0, 0.0), p(1.0, 0.0), p(2.0, 0.0)], 1.0), Err(TerrainError::ZeroArea));
        assert_eq!(
            Terrain::new("bowtie", vec![p(0.0, 0.0), p(1.0, 1.0), p(1.0, 0.0), p(0.0, 1.0)], 1.0),
            Err(TerrainError::SelfIntersecting(0, 2))
        );
        assert_eq!(Terrain::rect("a", 0.0, 0.0, 1.0, 1.0, 0.0), Err(TerrainError::BadHeight(0.0)));
        assert!(matches!(Terrain::rect("a", 0.0, 0.0, f64::NAN, 1.0, 1.0), Err(TerrainError::NotFinite(_))));
        assert!(Terrain::rect("ok", 0.0, 0.0, 1.0, 1.0, 2.0).is_ok());
        // An L-shaped (concave) piece is fine.
        let l = vec![p(0.0, 0.0), p(2.0, 0.0), p(2.0, 1.0), p(1.0, 1.0), p(1.0, 2.0), p(0.0, 2.0)];
        assert!(Terrain::new("L", l, 3.0).is_ok());
    }

    fn assert_cut_exactly(polygon: &[TablePoint], parts: &[Vec<TablePoint>]) {
        let total: f64 = parts.iter().map(|q| signed_area(q)).sum();
        assert!((total - signed_area(polygon).abs()).abs() < 1e-9, "areas {total} vs {}", signed_area(polygon));
        for q in parts {
            assert!(q.len() >= 3 && signed_area(q) > 0.0, "a counter-clockwise part: {q:?}");
            for i in 0..q.len() {
                let turn = orient(q[i], q[(i + 1) % q.len()], q[(i + 2) % q.len()]);
                assert!(turn >= 0.0, "part {q:?} turns right at corner {}", (i + 1) % q.len());
            }
            assert!(q.iter().all(|c| polygon.contains(c)), "corners among the footprint's: {q:?}");
        }
    }

    #[test]
    fn an_l_shaped_ruin_is_cut_into_two_convex_parts_and_a_u_into_three() {
        let l = vec![p(0.0, 0.0), p(2.0, 0.0), p(2.0, 1.0), p(1.0, 1.0), p(1.0, 2.0), p(0.0, 2.0)];
        let parts = convex_parts(&l);
        assert_cut_exactly(&l, &parts);
        assert_eq!(parts.len(), 2, "{parts:?}");
        // Clockwise, a U open to the north: the two arms and the base between them.
        let mut u = vec![
            p(0.0, 0.0),
            p(3.0, 0.0),
            p(3.0, 3.0),
            p(2.0, 3.0),
            p(2.0, 1.0),
            p(1.0, 1.0),
            p(1.0, 3.0),
            p(0.0, 3.0),
        ];
        u.reverse();
        let parts = convex_parts(&u);
        assert_cut_exactly(&u, &parts);
        assert_eq!(parts.len(), 3, "{parts:?}");
        // A convex piece stays whole.
        let sq = vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)];
        assert_eq!(convex_parts(&sq).len(), 1);
    }

    #[test]
    fn star_shaped_footprints_are_cut_exactly_into_convex_parts() {
        // Random star-shaped footprints (radii 0.3–1 of 5" about a centre, 3–40 corners).
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..300 {
            let n = 3 + (next() * 38.0) as usize;
            let poly: Vec<TablePoint> = (0..n)
                .map(|k| {
                    let (a, r) =
                        (std::f64::consts::TAU * (k as f64 + 0.8 * next()) / n as f64, 5.0 * (0.3 + 0.7 * next()));
                    p(20.0 + r * a.cos(), 20.0 + r * a.sin())
                })
                .collect();
            if Terrain::new("s", poly.clone(), 1.0).is_err() {
                continue;
            }
            let parts = convex_parts(&poly);
            assert_cut_exactly(&poly, &parts);
            assert!(parts.len() <= n - 2);
        }
    }
}
