//! Levels along a move: which surface a trooper stands on as it moves, where it goes up or down,
//! where it lands, and what other troopers see of it on the way.
//!
//! Terrain pieces are solid prisms (a footprint and a height), so the surface under a base
//! centre is the top of the highest piece whose footprint holds it, or the table
//! ([`surface_at`]). The rules behind this module:
//!
//! - **N4 Move** (Requirements, <https://infinitythewiki.com/index.php?oldid=1160&title=Move>):
//!   the base stays in contact with the surface it moves on, any surface it moves on is at least
//!   half as wide as the base ([`walk_problems`]), and the move ends on a surface equal to or
//!   larger than the base ([`landing_problem`]).
//! - **N4 General Movement Rules** (PDF 2.1): a trooper moves over any scenery item no taller
//!   than its Silhouette without declaring Climb or Jump; that vertical movement is not counted
//!   in the distance moved, but the trooper counts as moving up and over the obstacle for LoF. So
//!   a plain move ([`walk`]) follows the surfaces under its base centre, stepping up or down by no
//!   more than its Silhouette's height at a time ([`walk_problems`]; down: assumption
//!   `STEP_DOWN_UP_TO_SILHOUETTE`, as the rule names only going up and over).
//! - **N4 Climb and Jump** (Entire Orders; <https://infinitythewiki.com/index.php?title=Climb&oldid=1246>,
//!   <https://infinitythewiki.com/index.php?oldid=203&title=Jump>): from one level to another, up
//!   to the first MOV value, measured (N4 FAQ 1.3) from any point of the Silhouette at the start
//!   to the base's outer edge and underside at the end ([`leap_length`]). On the way, the
//!   trooper's level changes evenly with the distance it travels over the table ([`leap`];
//!   assumption `LEAP_PATH`: a diagonal, one of the paths the Jump rule names).
//!
//! # Units
//! Table inches. A level is the height of the base's underside above the table; distances along
//! a route are inches travelled over the table (a change of level adds none).

use super::lof::Obstacles;
use super::movement::{MOVE_CONTACT_SLACK_IN, terrain_crossings};
use super::route::{RouteEvents, Stretch, route_events};
use super::segment::{Where, crossing_params, distance_to_outline, edges, locate};
use super::{Body, TablePoint, Terrain, base_outside_area};

/// Levels closer than this are the same level, inches.
pub const LEVEL_EPS_IN: f64 = 1e-6;

/// Greatest change of level between two LoF and ZoC checks where a trooper goes up or down
/// (a step onto a crate, a climb, a jump), inches: the same as [`super::ROUTE_STEP_IN`] along the
/// table.
pub const LEVEL_STEP_IN: f64 = 0.1;

/// Most pieces a change of level is cut into for LoF and ZoC (a 20" climb at [`LEVEL_STEP_IN`]);
/// a larger change — a hand-made setup's trooper 1,000" up — is cut into this many, coarser,
/// rather than without bound.
pub const MAX_LEVEL_STEPS: usize = 200;

/// Number of points around a base's edge checked against neighbouring tops of the same height
/// when it reaches past the edge of the top it stands on (see [`landing_problem`]).
const LANDING_RIM_POINTS: usize = 64;

/// A point of a route with the level the trooper is at there.
///
/// # Units
/// Table inches; `level_in` is the height of the base's underside.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoutePoint {
    /// Where the base centre is.
    pub at: TablePoint,
    /// The level of the base's underside, inches.
    pub level_in: f64,
}

/// The surface under a point: the top of the highest piece whose footprint holds it, or the
/// table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Surface {
    /// Its height above the table, inches (0 for the table).
    pub height_in: f64,
    /// The piece whose top it is (the first of equally high ones), `None` for the table.
    pub piece: Option<usize>,
}

/// The surface under table point `p` (a point on a footprint's edge is beside the piece).
pub fn surface_at(terrain: &[Terrain], p: TablePoint) -> Surface {
    let mut best = Surface { height_in: 0.0, piece: None };
    for (k, t) in terrain.iter().enumerate() {
        if t.height_in > best.height_in && locate(&t.polygon, p) == Where::Inside {
            best = Surface { height_in: t.height_in, piece: Some(k) };
        }
    }
    best
}

/// Where a plain move changes level: the base centre passes onto a higher surface or off onto a
/// lower one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LevelStep {
    /// Distance along the route, inches.
    pub along_in: f64,
    /// Where, on the table.
    pub at: TablePoint,
    /// The level before, inches.
    pub from_level_in: f64,
    /// The level after, inches.
    pub to_level_in: f64,
    /// The piece whose top is the higher of the two levels (stepped onto, or off), `None` when
    /// that is the table (a trooper standing above the table on nothing, as a hand-made setup may
    /// put it, stepping down).
    pub piece: Option<usize>,
    /// Whether the trooper goes up or down to it: a change of no more than its Silhouette's
    /// height. A larger one is not taken — the walk stays at its level, and [`walk_problems`]
    /// says why it may not go on.
    pub taken: bool,
    /// Taken up or down a ladder or stairs of the higher piece ([`Terrain::ladders`]), which
    /// the move may use whatever the height: the base touches the ladder where the centre
    /// crosses the piece's edge.
    pub ladder: bool,
}

/// A plain move over the surfaces: the route with the level at each point, and where the level
/// changes.
#[derive(Debug, Clone, PartialEq)]
pub struct Walk {
    /// The route from where the trooper stands, with the levels; a change of level is two
    /// points at the same place (a vertical leg).
    pub path: Vec<RoutePoint>,
    /// Each place where the surface under the base centre changes to one at another level than
    /// the trooper's, in order along the route, taken or not.
    pub steps: Vec<LevelStep>,
}

impl Walk {
    /// The level the move ends at, inches.
    pub fn end_level(&self) -> f64 {
        self.path.last().map_or(0.0, |p| p.level_in)
    }

    /// How far the walk went up and down faces taller than `vault_in` (the Silhouette's height),
    /// in all, inches: the height of every step taken that a plain move could not vault.
    pub fn climbed_in(&self, vault_in: f64) -> f64 {
        let big = |s: &&LevelStep| s.taken && (s.to_level_in - s.from_level_in).abs() > vault_in + 1e-9;
        self.steps.iter().filter(big).map(|s| (s.to_level_in - s.from_level_in).abs()).sum()
    }
}

/// `mover`'s plain move (Move, Cautious Movement, Dodge) from where it stands through `route`,
/// following the surfaces under its base centre: it starts at its own level, and wherever the
/// centre passes onto another surface it goes up or down to it (N4 General Movement Rules:
/// "moving up and over" an obstacle) — by no more than its Silhouette's height (the standing
/// one, Prone or not, as for vaulting); a larger change it does not take, staying at its level
/// (a wall it walks into is not stood on top of; off a roof's edge it does not fall), and
/// [`walk_problems`] says why it may not go on. Exact: the surface can only change where the
/// route crosses a footprint's edge.
pub fn walk(mover: &Body, route: &[TablePoint], terrain: &[Terrain]) -> Walk {
    walk_stepping(mover, route, terrain, mover.silhouette.height_in())
}

/// [`walk`], going up or down at most `max_step_in` inches at a time instead of the Silhouette's
/// height: `f64::INFINITY` for a trooper that moves up and down vertical surfaces as over level
/// ground (Climbing Plus).
pub fn walk_stepping(mover: &Body, route: &[TablePoint], terrain: &[Terrain], max_step_in: f64) -> Walk {
    let mut level = mover.elevation_in;
    let under = surface_at(terrain, mover.centre);
    let mut surface = under.height_in;
    let mut on = if (under.height_in - level).abs() <= LEVEL_EPS_IN { under.piece } else { None };
    let mut path = vec![RoutePoint { at: mover.centre, level_in: level }];
    let mut steps = Vec::new();
    let (mut prev, mut along) = (mover.centre, 0.0);
    let mut cuts: Vec<f64> = Vec::new();
    for &next in route {
        let len = prev.dist(next);
        if len <= 0.0 {
            continue;
        }
        cuts.clear();
        cuts.extend([0.0, 1.0]);
        for t in terrain.iter().filter(|t| t.aabb().meets_segment(prev, next)) {
            for (e0, e1) in edges(&t.polygon) {
                crossing_params(prev, next, e0, e1, &mut cuts);
            }
        }
        cuts.sort_by(f64::total_cmp);
        for w in cuts.windows(2) {
            let (t0, t1) = (w[0], w[1]);
            if t1 - t0 <= 1e-12 {
                continue;
            }
            // (The leg's own ends exactly, not as `lerp` rounds them: the route's points stay in
            // the path as given.)
            let at = |t: f64| {
                if t <= 0.0 {
                    prev
                } else if t >= 1.0 {
                    next
                } else {
                    prev.lerp(next, t)
                }
            };
            let (a, b) = (at(t0), at(t1));
            let here = surface_at(terrain, a.lerp(b, 0.5));
            let changed = (here.height_in - surface).abs() > LEVEL_EPS_IN;
            surface = here.height_in;
            if changed && (here.height_in - level).abs() > LEVEL_EPS_IN {
                let piece = if here.height_in > level { here.piece } else { on };
                let small = (here.height_in - level).abs() <= max_step_in + 1e-9;
                // N4 General Movement Rules, "Ladders and Stairs": up or down them whatever the
                // height (assumption `LADDER_USE`: the base touches the ladder there).
                let ladder = !small && piece.is_some_and(|k| at_ladder(&terrain[k], a, mover.radius()));
                let taken = small || ladder;
                steps.push(LevelStep {
                    along_in: along + len * t0,
                    at: a,
                    from_level_in: level,
                    to_level_in: here.height_in,
                    piece,
                    taken,
                    ladder,
                });
                if taken {
                    level = here.height_in;
                    on = here.piece;
                    path.push(RoutePoint { at: a, level_in: level });
                }
            } else if (here.height_in - level).abs() <= LEVEL_EPS_IN {
                on = here.piece;
            }
            path.push(RoutePoint { at: b, level_in: level });
        }
        along += len;
        prev = next;
    }
    Walk { path, steps }
}

/// How far along a route from where it goes up or down a ladder its base may be over the piece's
/// footprint, in base widths (assumption `LADDER_USE`, N4 General Movement Rules, "Ladders and
/// Stairs", <https://infinitythewiki.com/index.php?title=General_Movement_Rules&diff=692&oldid=191>:
/// they "allow Troopers to treat those vertical or diagonal surfaces as a horizontal surface …
/// Movement distances are measured along the surface"; where a move uses one is the assumption):
/// a plain move goes up or down a piece at one of its ladders where its base centre crosses the
/// piece's edge with the base touching the ladder, and within one base's width of that place its
/// base may be over the footprint, climbing on or off.
pub const LADDER_REACH_BASE_WIDTHS: f64 = 1.0;

/// Whether a base of radius `r` centred at `c` touches one of `piece`'s ladders, inches.
fn at_ladder(piece: &Terrain, c: TablePoint, r: f64) -> bool {
    piece.ladders.iter().any(|&[a, b]| super::segment::point_segment_distance(c, a, b) <= r + 1e-9)
}

/// Why a plain move may not go where its route goes (N4 General Movement Rules).
#[derive(Debug, Clone, PartialEq)]
pub enum WalkProblem {
    /// Its base passes into a piece rising more than its Silhouette's height above the level it
    /// walks at there (Climb or Jump would be needed).
    Into {
        /// The piece.
        piece: usize,
        /// How far the piece rises above the base there, inches.
        rise_in: f64,
        /// Where along the route the base is in the piece's footprint.
        stretch: Stretch,
    },
    /// It steps down more than its Silhouette's height (off a roof's edge: Climb or Jump would be
    /// needed; assumption `STEP_DOWN_UP_TO_SILHOUETTE`).
    Down {
        /// The piece it steps off (`None`: it stood above the table on nothing).
        piece: Option<usize>,
        /// How far down, inches.
        drop_in: f64,
        /// Distance along the route, inches.
        along_in: f64,
        /// Where, on the table.
        at: TablePoint,
    },
    /// Up on a top, the surface it moves along is narrower there than half its base is wide (N4
    /// Move: "Any surface they move on must be at least half as wide as their base").
    Narrow {
        /// The piece whose top it is.
        piece: Option<usize>,
        /// How wide the top is there, across the way the trooper goes, inches.
        width_in: f64,
        /// Distance along the route, inches.
        along_in: f64,
        /// Where, on the table.
        at: TablePoint,
    },
}

impl WalkProblem {
    /// Distance along the route where it starts, inches.
    pub fn along_in(&self) -> f64 {
        match self {
            WalkProblem::Into { stretch, .. } => stretch.from_in,
            WalkProblem::Down { along_in, .. } | WalkProblem::Narrow { along_in, .. } => *along_in,
        }
    }
}

/// [`walk`], and everywhere along it a plain move may not go, in order along the route: a piece
/// its base passes into that rises more than its Silhouette above the level it walks at there
/// ([`terrain_crossings`] at each level of the walk: what is low enough to step onto from the
/// table may be too high from a crate, and a roof's parapet is judged from the roof), and each
/// step down of more than its Silhouette's height. The standing Silhouette counts, Prone or not,
/// as for vaulting. Up on a top, also each leg's first place where the top is narrower across the
/// way it goes than half the base is wide (N4 Move).
pub fn walk_problems(mover: &Body, route: &[TablePoint], terrain: &[Terrain]) -> (Walk, Vec<WalkProblem>) {
    walk_problems_stepping(mover, route, terrain, mover.silhouette.height_in())
}

/// [`walk_problems`] for [`walk_stepping`]: a piece is in the way only where it rises more than
/// `max_step_in` (and the Silhouette) above the level walked at, a step down only when deeper
/// than `max_step_in`.
pub fn walk_problems_stepping(
    mover: &Body,
    route: &[TablePoint],
    terrain: &[Terrain],
    max_step_in: f64,
) -> (Walk, Vec<WalkProblem>) {
    let (walk, crossings) = walk_crossings_stepping(mover, route, terrain, max_step_in);
    let mut out = Vec::new();
    // Going up or down a ladder, the base is over the piece's footprint for a moment before or
    // after its centre crosses the edge: within a base's width of the ladder step along the
    // route, that is no problem (assumption `LADDER_USE`).
    let full_path: Vec<TablePoint> = std::iter::once(mover.centre).chain(route.iter().copied()).collect();
    let line = super::route::Polyline::new(&full_path);
    let reach = LADDER_REACH_BASE_WIDTHS * 2.0 * mover.radius();
    for (_, c) in crossings.into_iter().filter(|(_, c)| !c.vaultable && c.rise_in > max_step_in + 1e-9) {
        let ladder_steps: Vec<f64> =
            walk.steps.iter().filter(|s| s.ladder && s.piece == Some(c.piece)).map(|s| s.along_in).collect();
        for stretch in c.stretches {
            let mut parts = vec![(stretch.from_in, stretch.to_in)];
            for &at in &ladder_steps {
                parts = parts
                    .into_iter()
                    .flat_map(|(a, b)| {
                        let (lo, hi) = (at - reach, at + reach);
                        [(a, b.min(lo)), (a.max(hi), b)]
                    })
                    .filter(|(a, b)| b - a > 1e-9)
                    .collect();
            }
            for (from_in, to_in) in parts {
                let whole = (from_in, to_in) == (stretch.from_in, stretch.to_in);
                let stretch = if whole { stretch } else { line.stretch(from_in, to_in) };
                out.push(WalkProblem::Into { piece: c.piece, rise_in: c.rise_in, stretch });
            }
        }
    }
    for s in walk.steps.iter().filter(|s| !s.taken && s.to_level_in < s.from_level_in) {
        let drop_in = s.from_level_in - s.to_level_in;
        out.push(WalkProblem::Down { piece: s.piece, drop_in, along_in: s.along_in, at: s.at });
    }
    out.extend(narrow_places(mover.radius(), &walk.path, terrain));
    out.sort_by(|a, b| a.along_in().total_cmp(&b.along_in()));
    (walk, out)
}

/// [`walk`], and the terrain pieces its base passes into at each level it walks at
/// ([`terrain_crossings`] from each stretch of the walk at one level, its stretches by distance
/// along the whole route), each with that level (inches), in order of level stretch and then of
/// terrain. A route that goes nowhere: the pieces the base is in where it stands.
pub fn walk_crossings(
    mover: &Body,
    route: &[TablePoint],
    terrain: &[Terrain],
) -> (Walk, Vec<(f64, super::TerrainCrossing)>) {
    walk_crossings_stepping(mover, route, terrain, mover.silhouette.height_in())
}

/// [`walk_crossings`] for [`walk_stepping`].
fn walk_crossings_stepping(
    mover: &Body,
    route: &[TablePoint],
    terrain: &[Terrain],
    max_step_in: f64,
) -> (Walk, Vec<(f64, super::TerrainCrossing)>) {
    let walk = walk_stepping(mover, route, terrain, max_step_in);
    let mut out = Vec::new();
    for run in flat_runs(&walk.path) {
        if run.points.len() < 2 && !route.is_empty() {
            continue;
        }
        let body = mover.at(run.points[0]).elevated(run.level_in);
        for mut c in terrain_crossings(&body, &run.points[1..], terrain) {
            for s in &mut c.stretches {
                s.from_in += run.along_in;
                s.to_in += run.along_in;
            }
            out.push((run.level_in, c));
        }
    }
    (walk, out)
}

/// Spacing of the points along a route up on a top where the top's width is measured, inches.
pub const WIDTH_STEP_IN: f64 = 0.05;

/// Where a walk up on a top goes along a surface narrower than half the base is wide (`r`, the
/// base's radius): at points [`WIDTH_STEP_IN`] apart along each leg at a level above the table,
/// the width of the tops at that level (neighbouring tops of one height together) along the line
/// across the leg through the base centre, where the centre is on one. The first such point of
/// each leg, in order.
fn narrow_places(r: f64, path: &[RoutePoint], terrain: &[Terrain]) -> Vec<WalkProblem> {
    let mut out = Vec::new();
    let mut along = 0.0;
    let mut scratch = Vec::new();
    let mut spans: Vec<(f64, f64)> = Vec::new();
    for w in path.windows(2) {
        let (p, q) = (w[0], w[1]);
        let len = p.at.dist(q.at);
        let flat = (p.level_in - q.level_in).abs() <= LEVEL_EPS_IN;
        if len <= 0.0 || !flat || p.level_in <= LEVEL_EPS_IN {
            along += len;
            continue;
        }
        let u = (q.at - p.at).scale(1.0 / len);
        let across = TablePoint::new(-u.y, u.x).scale(r);
        let tops: Vec<&Terrain> = terrain.iter().filter(|t| (t.height_in - p.level_in).abs() <= LEVEL_EPS_IN).collect();
        let n = ((len / WIDTH_STEP_IN).ceil() as usize).clamp(1, super::route::MAX_ROUTE_SAMPLES);
        for k in 0..=n {
            let c = p.at.lerp(q.at, k as f64 / n as f64);
            // (Off the top — past a step down the walk did not take — is another problem.)
            let under = surface_at(terrain, c);
            if (under.height_in - p.level_in).abs() > LEVEL_EPS_IN {
                continue;
            }
            let (a, b) = (c - across, c + across);
            spans.clear();
            for t in &tops {
                spans.extend(super::segment::inside_stretches(&t.polygon, a, b, &mut scratch));
            }
            spans.sort_by(|x, y| x.0.total_cmp(&y.0));
            // The stretch of the line across that holds the centre (t = 1/2), joined over tops
            // that meet.
            let (mut lo, mut hi) = (f64::NAN, f64::NAN);
            for &(t0, t1) in &spans {
                if hi.is_nan() || t0 > hi + 1e-9 {
                    if lo <= 0.5 + 1e-9 && hi >= 0.5 - 1e-9 {
                        break;
                    }
                    (lo, hi) = (t0, t1);
                } else {
                    hi = hi.max(t1);
                }
            }
            let width_in = if lo <= 0.5 + 1e-9 && hi >= 0.5 - 1e-9 { (hi - lo) * 2.0 * r } else { 0.0 };
            if width_in < r - 1e-9 {
                let piece = under.piece;
                out.push(WalkProblem::Narrow { piece, width_in, along_in: along + len * k as f64 / n as f64, at: c });
                break;
            }
        }
        along += len;
    }
    out
}

/// `mover`'s Climb or Jump from where it stands through `route` to the surface under the route's
/// end: the route with its level rising or falling evenly with the distance travelled over the
/// table (assumption `LEAP_PATH`). With no distance over the table, straight up or down.
pub fn leap(mover: &Body, route: &[TablePoint], terrain: &[Terrain]) -> Vec<RoutePoint> {
    let end = route.last().copied().unwrap_or(mover.centre);
    let (l0, l1) = (mover.elevation_in, surface_at(terrain, end).height_in);
    let mut pts = vec![mover.centre];
    pts.extend_from_slice(route);
    let total = super::path_length(&pts);
    let mut out = vec![RoutePoint { at: mover.centre, level_in: l0 }];
    if total <= 0.0 {
        if (l1 - l0).abs() > LEVEL_EPS_IN {
            out.push(RoutePoint { at: end, level_in: l1 });
        }
        return out;
    }
    let mut along = 0.0;
    for w in pts.windows(2) {
        along += w[0].dist(w[1]);
        out.push(RoutePoint { at: w[1], level_in: l0 + (l1 - l0) * (along / total).min(1.0) });
    }
    out
}

/// How far a Climb or Jump from where `mover` stands through `route` to level `end_level_in`
/// goes (N4 Jump: "the horizontal, vertical, diagonal or parabolic distance between the starting
/// location and the landing spot"; N4 FAQ 1.3: from any point of the Silhouette at the start to
/// the base's outer edge and underside at the end), inches: the route's length over the table
/// (as a Move measures it, from the same point of the base) and the change of level — up, from
/// the top of the Silhouette to the underside of the base at the end (nothing while the landing
/// is no higher than the top of the Silhouette); down, from the base's underside at the start —
/// taken together as one straight slope.
pub fn leap_length(mover: &Body, route: &[TablePoint], end_level_in: f64) -> f64 {
    let mut pts = vec![mover.centre];
    pts.extend_from_slice(route);
    let across = super::path_length(&pts);
    let start = mover.elevation_in;
    let up_down =
        if end_level_in > start { (end_level_in - (start + mover.height())).max(0.0) } else { start - end_level_in };
    across.hypot(up_down)
}

/// How much further than a base's width a Climb may go across the table, inches (assumption
/// `CLIMB_ACROSS`): the tag's precision at each end ([`MOVE_CONTACT_SLACK_IN`] twice) and a little.
pub const CLIMB_ACROSS_SLACK_IN: f64 = 0.25;

/// Why a Climb may not go as declared (N4 Climb, Requirements and Effects:
/// <https://infinitythewiki.com/index.php?title=Climb&oldid=1246>).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ClimbProblem {
    /// It neither goes up nor down ("Climb only allows movement on vertical surfaces").
    Level,
    /// Where it starts, its base is not in contact with a vertical surface: the side of a piece
    /// rising above it (going up), or the edge of the top it stands on (going down).
    NoWall,
    /// It goes further across the table than getting onto the top or off it takes (a base's
    /// width: from against the wall to standing on the top, or back): "once the Trooper reaches a
    /// level surface, his movement ends".
    Across {
        /// How far it goes across, inches.
        across_in: f64,
        /// The most a Climb may, inches.
        most_in: f64,
    },
}

/// Whether `mover`'s Climb from where it stands through `route` is one (N4 Climb): it goes up
/// or down, from where its base is in contact (within [`MOVE_CONTACT_SLACK_IN`]) with a vertical
/// surface — the side of a piece rising above its level, to go up; the edge of the top it stands
/// on, to go down — and across the table no further than its base is wide (plus
/// [`CLIMB_ACROSS_SLACK_IN`], assumption `CLIMB_ACROSS`). `None`: it may.
pub fn climb_problem(mover: &Body, route: &[TablePoint], terrain: &[Terrain]) -> Option<ClimbProblem> {
    let (c, r, level) = (mover.centre, mover.radius(), mover.elevation_in);
    let end = route.last().copied().unwrap_or(c);
    let end_level = surface_at(terrain, end).height_in;
    if (end_level - level).abs() <= LEVEL_EPS_IN {
        return Some(ClimbProblem::Level);
    }
    let to_edge = |t: &Terrain| distance_to_outline(&t.polygon, c);
    let reach = r + MOVE_CONTACT_SLACK_IN;
    let touches = if end_level > level {
        terrain.iter().any(|t| t.height_in > level + LEVEL_EPS_IN && to_edge(t) <= reach)
    } else {
        surface_at(terrain, c).piece.is_some_and(|k| to_edge(&terrain[k]) <= reach)
    };
    if !touches {
        return Some(ClimbProblem::NoWall);
    }
    let mut pts = vec![c];
    pts.extend_from_slice(route);
    let across_in = super::path_length(&pts);
    let most_in = 2.0 * r + CLIMB_ACROSS_SLACK_IN;
    (across_in > most_in).then_some(ClimbProblem::Across { across_in, most_in })
}

/// Why a move may not end where it does (N4 Move: the move ends on a surface equal to or larger
/// than the base).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LandingProblem {
    /// Part of the base would rest over a piece rising above its level.
    OverHigher {
        /// The piece.
        piece: usize,
        /// How far the base reaches into its footprint, inches.
        by_in: f64,
    },
    /// Standing on a piece's top, the base would reach past the top's edge (and past every
    /// neighbouring top of the same height).
    OffTheTop {
        /// The piece.
        piece: usize,
        /// How far the base reaches past its edge, inches.
        by_in: f64,
    },
}

/// Whether `body` (where a move ends, at its level) stands on a surface as large as its base
/// (N4 Move, Climb and Jump Requirements). Allowing [`MOVE_CONTACT_SLACK_IN`] for where a
/// base is tagged on the picture, it must not reach into the footprint of any piece rising above
/// its level, and, standing on a piece's top, it must not reach past that top's edge — unless
/// what it reaches over is the top of a neighbouring piece of the same height (two slabs of one
/// roof; checked at `LANDING_RIM_POINTS` points round the base). A base on the table is judged
/// by the first test only. `None`: it may end there.
pub fn landing_problem(body: &Body, terrain: &[Terrain]) -> Option<LandingProblem> {
    let (c, r, level) = (body.centre, body.radius(), body.bottom());
    for (piece, t) in terrain.iter().enumerate() {
        if t.height_in <= level + LEVEL_EPS_IN || !t.aabb().grown(r).meets_segment(c, c) {
            continue;
        }
        let to_edge = distance_to_outline(&t.polygon, c);
        let by_in = if locate(&t.polygon, c) == Where::Inside { r + to_edge } else { r - to_edge };
        if by_in > MOVE_CONTACT_SLACK_IN {
            return Some(LandingProblem::OverHigher { piece, by_in });
        }
    }
    if level <= LEVEL_EPS_IN {
        return None;
    }
    let under = surface_at(terrain, c);
    let piece = under.piece?;
    let by_in = base_outside_area(&terrain[piece].polygon, c, r);
    if by_in <= MOVE_CONTACT_SLACK_IN {
        return None;
    }
    let same_level = |p: TablePoint| {
        terrain.iter().any(|t| (t.height_in - level).abs() <= LEVEL_EPS_IN && locate(&t.polygon, p) != Where::Outside)
    };
    let rim = r - MOVE_CONTACT_SLACK_IN;
    let covered = (0..LANDING_RIM_POINTS).all(|k| {
        let a = std::f64::consts::TAU * k as f64 / LANDING_RIM_POINTS as f64;
        same_level(TablePoint::new(c.x + rim * a.cos(), c.y + rim * a.sin()))
    });
    (!covered).then_some(LandingProblem::OffTheTop { piece, by_in })
}

/// A stretch of a route at one level: its points, the level, and how far along the route it
/// starts.
struct FlatRun {
    points: Vec<TablePoint>,
    level_in: f64,
    along_in: f64,
}

/// `path` cut into stretches at one level each, in order: a leg that keeps its level joins the
/// stretch before; a leg that changes level (a step, a climb, a jump) is cut into pieces of at
/// most [`LEVEL_STEP_IN`] of change, each taken at its middle level (a vertical leg, into single
/// points). Consecutive stretches share their end points.
fn flat_runs(path: &[RoutePoint]) -> Vec<FlatRun> {
    let Some(first) = path.first() else { return Vec::new() };
    let mut runs = vec![FlatRun { points: vec![first.at], level_in: first.level_in, along_in: 0.0 }];
    let mut along = 0.0;
    for w in path.windows(2) {
        let (p, q) = (w[0], w[1]);
        let len = p.at.dist(q.at);
        let rise = q.level_in - p.level_in;
        if rise.abs() <= LEVEL_EPS_IN {
            match runs.last_mut() {
                Some(run) if (run.level_in - p.level_in).abs() <= LEVEL_EPS_IN => run.points.push(q.at),
                _ => runs.push(FlatRun { points: vec![p.at, q.at], level_in: p.level_in, along_in: along }),
            }
        } else {
            let n = ((rise.abs() / LEVEL_STEP_IN).ceil() as usize).clamp(1, MAX_LEVEL_STEPS);
            for k in 0..n {
                let (f0, f1) = (k as f64 / n as f64, (k + 1) as f64 / n as f64);
                let level_in = p.level_in + rise * 0.5 * (f0 + f1);
                let (a, b) = (p.at.lerp(q.at, f0), p.at.lerp(q.at, f1));
                let points = if len > 0.0 { vec![a, b] } else { vec![a] };
                runs.push(FlatRun { points, level_in, along_in: along + len * f0 });
            }
            runs.push(FlatRun { points: vec![q.at], level_in: q.level_in, along_in: along + len });
        }
        along += len;
    }
    // A stretch of one point followed by a stretch at its level starting there says nothing new.
    let mut out: Vec<FlatRun> = Vec::with_capacity(runs.len());
    for run in runs {
        if let Some(last) = out.last()
            && last.points.len() == 1
            && (last.level_in - run.level_in).abs() <= LEVEL_EPS_IN
            && last.points[0] == run.points[0]
        {
            out.pop();
        }
        out.push(run);
    }
    out
}

/// [`route_events`] for a route with levels (from [`walk`] or [`leap`]): for every other trooper,
/// where along it that trooper has LoF to the mover and where the mover is inside its ZoC, with
/// the mover at the level the route gives at each point — where it goes up or down, at every
/// [`LEVEL_STEP_IN`] of the change (N4 General Movement Rules: a trooper vaulting an obstacle
/// counts as moving up and over it for LoF). `bodies[mover]` gives the mover's Silhouette; where
/// it stands blocks nothing while it moves. Stretches are by distance over the table, as
/// [`route_events`] gives them; those meeting where the level changes are joined.
///
/// # Units
/// Table inches.
pub fn route_events_with_levels(
    terrain: &[Terrain],
    bodies: &[Body],
    mover: usize,
    path: &[RoutePoint],
) -> Vec<RouteEvents> {
    let Some(&me) = bodies.get(mover) else { return Vec::new() };
    let obstacles = Obstacles::new(terrain, bodies);
    let mut moved = bodies.to_vec();
    let mut merged: Vec<RouteEvents> = Vec::new();
    for run in flat_runs(path) {
        moved[mover] = me.at(run.points[0]).elevated(run.level_in);
        let events = route_events(&obstacles, &moved, mover, &run.points[1..]);
        if merged.is_empty() {
            merged = events.iter().map(|e| RouteEvents { observer: e.observer, lof: vec![], zoc: vec![] }).collect();
        }
        for (all, e) in merged.iter_mut().zip(events) {
            for (into, part) in [(&mut all.lof, e.lof), (&mut all.zoc, e.zoc)] {
                for s in part {
                    join(into, Stretch { from_in: s.from_in + run.along_in, to_in: s.to_in + run.along_in, ..s });
                }
            }
        }
    }
    merged
}

/// Add stretch `s` (starting no earlier than those in `into`) to `into`, joined to the last one
/// when they meet.
fn join(into: &mut Vec<Stretch>, s: Stretch) {
    if let Some(last) = into.last_mut()
        && s.from_in <= last.to_in + LEVEL_EPS_IN
    {
        if s.to_in > last.to_in {
            last.to_in = s.to_in;
            last.end = s.end;
        }
    } else {
        into.push(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Silhouette, TerrainError, path_length};

    fn p(x: f64, y: f64) -> TablePoint {
        TablePoint::new(x, y)
    }

    fn s2(x: f64, y: f64) -> Body {
        Body::new(p(x, y), Silhouette::S2)
    }

    fn rect(id: &str, x0: f64, y0: f64, x1: f64, y1: f64, h: f64) -> Terrain {
        Terrain::rect(id, x0, y0, x1, y1, h).expect("a valid piece")
    }

    #[test]
    fn the_surface_is_the_highest_top_holding_the_point() {
        let terrain = [rect("roof", 10.0, 10.0, 20.0, 20.0, 3.0), rect("chimney", 12.0, 12.0, 13.0, 13.0, 4.0)];
        assert_eq!(surface_at(&terrain, p(5.0, 5.0)), Surface { height_in: 0.0, piece: None });
        assert_eq!(surface_at(&terrain, p(15.0, 15.0)), Surface { height_in: 3.0, piece: Some(0) });
        assert_eq!(surface_at(&terrain, p(12.5, 12.5)), Surface { height_in: 4.0, piece: Some(1) });
        assert_eq!(surface_at(&terrain, p(10.0, 15.0)).piece, None, "an edge is beside the piece");
    }

    #[test]
    fn a_walk_with_unlimited_steps_goes_up_and_over_a_tower_and_counts_only_the_faces_too_tall_to_vault() {
        // A 1" crate, then a 6" tower: a plain walk vaults the crate and is stopped by the tower;
        // one taking any step (Climbing Plus) goes up the tower's side, over it and down again.
        let terrain = [rect("crate", 12.0, 0.0, 13.0, 20.0, 1.0), rect("tower", 15.0, 0.0, 17.0, 20.0, 6.0)];
        let (plain, problems) = walk_problems(&s2(10.0, 5.0), &[p(20.0, 5.0)], &terrain);
        assert!(problems.iter().any(|q| matches!(q, WalkProblem::Into { piece: 1, .. })), "{problems:?}");
        assert_eq!(plain.end_level(), 0.0);
        assert_eq!(plain.climbed_in(Silhouette::S2.height_in()), 0.0, "the crate is vaulted");
        let (w, problems) = walk_problems_stepping(&s2(10.0, 5.0), &[p(20.0, 5.0)], &terrain, f64::INFINITY);
        assert!(problems.is_empty(), "{problems:?}");
        let levels: Vec<f64> = w.steps.iter().map(|s| s.to_level_in).collect();
        assert_eq!(levels, vec![1.0, 0.0, 6.0, 0.0]);
        assert!(w.steps.iter().all(|s| s.taken));
        assert_eq!(w.climbed_in(Silhouette::S2.height_in()), 12.0, "6\" up and 6\" down; the crate adds nothing");
        assert_eq!(w.steps[2].at, p(15.0, 5.0), "up where the centre reaches the tower's side");
    }

    #[test]
    fn a_walk_goes_up_and_down_a_ladder_whatever_the_height_measured_along_it_and_not_beside_it() {
        // A 3" building from x = 10 to 16 with a ladder on its west side from y = 22 to 23.
        let ladder = [p(10.0, 22.0), p(10.0, 23.0)];
        let building = rect("building", 10.0, 20.0, 16.0, 26.0, 3.0).with_ladders(vec![ladder]).expect("on its edge");
        let terrain = [building];
        // Up the ladder from 9.5" to 11.5": the step is taken at the edge, and counted.
        let (w, problems) = walk_problems(&s2(9.5, 22.5), &[p(11.5, 22.5)], &terrain);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(w.end_level(), 3.0);
        assert!(w.steps.len() == 1 && w.steps[0].ladder && w.steps[0].taken, "{:?}", w.steps);
        assert_eq!(w.climbed_in(Silhouette::S2.height_in()), 3.0);
        // Down it again, off the roof.
        let (w, problems) = walk_problems(&s2(11.5, 22.5).elevated(3.0), &[p(9.0, 22.5)], &terrain);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(w.end_level(), 0.0);
        // 2" along the wall from the ladder, the wall is a wall.
        let (w, problems) = walk_problems(&s2(9.5, 25.0), &[p(11.5, 25.0)], &terrain);
        assert!(matches!(problems.as_slice(), [WalkProblem::Into { piece: 0, .. }]), "{problems:?}");
        assert!(!w.steps[0].taken && !w.steps[0].ladder);
        // A route that slides along the wall with its base over the footprint and then takes the
        // ladder is still refused for the sliding, short of the ladder.
        let (_, problems) = walk_problems(&s2(9.7, 26.6), &[p(9.7, 22.5), p(11.5, 22.5)], &terrain);
        let into: Vec<f64> = problems
            .iter()
            .filter_map(|q| match q {
                WalkProblem::Into { stretch, .. } => Some(stretch.to_in),
                _ => None,
            })
            .collect();
        assert!(matches!(into.as_slice(), [to] if *to > 1.0 && *to < 3.5), "{problems:?}");
        // A ladder must lie along one edge of the piece.
        let off = rect("b", 10.0, 20.0, 16.0, 26.0, 3.0).with_ladders(vec![[p(10.0, 22.0), p(12.0, 24.0)]]);
        assert_eq!(off, Err(TerrainError::LadderOffEdge(0)));
    }

    #[test]
    fn a_walk_goes_up_onto_a_crate_and_down_again_where_the_centre_crosses_its_edges() {
        // A 1" crate from x = 14 to 16: an S2 (1.57" tall) walks over it without Climb or Jump.
        let terrain = [rect("crate", 14.0, 0.0, 16.0, 20.0, 1.0)];
        let (w, problems) = walk_problems(&s2(10.0, 5.0), &[p(20.0, 5.0)], &terrain);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(w.steps.len(), 2, "{:?}", w.steps);
        let (up, down) = (w.steps[0], w.steps[1]);
        assert!((up.along_in - 4.0).abs() < 1e-9 && (up.to_level_in - 1.0).abs() < 1e-12 && up.piece == Some(0));
        assert!((down.along_in - 6.0).abs() < 1e-9 && down.to_level_in == 0.0 && down.piece == Some(0));
        assert_eq!(w.end_level(), 0.0);
        // The path: a vertical leg at each edge, and the crossing counted once over the table.
        let flat: Vec<TablePoint> = w.path.iter().map(|q| q.at).collect();
        assert!((path_length(&flat) - 10.0).abs() < 1e-9);
        assert!(w.path.iter().any(|q| q.level_in == 1.0 && (q.at.x - 16.0).abs() < 1e-9));
        // Ending on it: the level is its top.
        let (w, problems) = walk_problems(&s2(10.0, 5.0), &[p(15.0, 5.0)], &terrain);
        assert!(problems.is_empty());
        assert_eq!(w.end_level(), 1.0);
    }

    #[test]
    fn a_walk_off_a_roof_drops_further_than_a_silhouette_and_is_a_problem() {
        let terrain = [rect("roof", 10.0, 0.0, 20.0, 20.0, 3.0)];
        let on_roof = s2(15.0, 5.0).elevated(3.0);
        // Along the roof: nothing in the way, still at 3".
        let (w, problems) = walk_problems(&on_roof, &[p(18.0, 5.0), p(18.0, 15.0)], &terrain);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(w.end_level(), 3.0);
        // Off its edge at x = 20: 3" down, more than the S2's 1.57" (a step it does not take).
        let (w, problems) = walk_problems(&on_roof, &[p(25.0, 5.0)], &terrain);
        assert_eq!(w.end_level(), 3.0);
        assert!(!w.steps[0].taken);
        match problems.as_slice() {
            [WalkProblem::Down { piece: Some(0), drop_in, along_in, at }] => {
                assert!((drop_in - 3.0).abs() < 1e-12 && (along_in - 5.0).abs() < 1e-9 && (at.x - 20.0).abs() < 1e-9);
            }
            other => panic!("{other:?}"),
        }
        // From the table through the roof's 10" footprint: one problem, all the way through (a
        // step up it does not take leaves it at the table's level, not on the roof).
        let r = Silhouette::S2.radius_in() - MOVE_CONTACT_SLACK_IN;
        let (w, problems) = walk_problems(&s2(5.0, 5.0), &[p(25.0, 5.0)], &terrain);
        assert_eq!(w.end_level(), 0.0);
        match problems.as_slice() {
            [WalkProblem::Into { piece: 0, rise_in, stretch }] => {
                assert!((rise_in - 3.0).abs() < 1e-12);
                assert!((stretch.from_in - (5.0 - r)).abs() < 1e-9 && (stretch.to_in - (15.0 + r)).abs() < 1e-9);
            }
            other => panic!("{other:?}"),
        }
        // A 1" ledge is stepped down from.
        let ledge = [rect("ledge", 10.0, 0.0, 20.0, 20.0, 1.0)];
        assert!(walk_problems(&s2(15.0, 5.0).elevated(1.0), &[p(25.0, 5.0)], &ledge).1.is_empty());
    }

    #[test]
    fn up_on_a_top_the_surface_moved_along_is_at_least_half_as_wide_as_the_base() {
        let r = Silhouette::S2.radius_in();
        // A 1" wide wall top (an S2 base is 0.98" across) may be walked along; a 0.4" one not.
        let wide = [rect("wall", 10.0, 0.0, 11.0, 20.0, 2.0)];
        let (_, problems) = walk_problems(&s2(10.5, 5.0).elevated(2.0), &[p(10.5, 15.0)], &wide);
        assert!(problems.is_empty(), "{problems:?}");
        let thin = [rect("ledge", 10.0, 0.0, 10.4, 20.0, 2.0)];
        let (_, problems) = walk_problems(&s2(10.2, 5.0).elevated(2.0), &[p(10.2, 15.0)], &thin);
        match problems.as_slice() {
            [WalkProblem::Narrow { piece: Some(0), width_in, along_in, .. }] => {
                assert!((width_in - 0.4).abs() < 1e-9 && *along_in == 0.0, "{width_in} at {along_in}");
                assert!(0.4 < r);
            }
            other => panic!("{other:?}"),
        }
        // Two 0.3" slabs side by side make one 0.6" top; across a 4" roof, no problem.
        let slabs = [rect("west", 10.0, 0.0, 10.3, 20.0, 2.0), rect("east", 10.3, 0.0, 10.6, 20.0, 2.0)];
        assert!(walk_problems(&s2(10.3, 5.0).elevated(2.0), &[p(10.3, 15.0)], &slabs).1.is_empty());
        let roof = [rect("roof", 10.0, 0.0, 14.0, 20.0, 2.0)];
        assert!(walk_problems(&s2(12.0, 5.0).elevated(2.0), &[p(12.0, 15.0), p(13.0, 16.0)], &roof).1.is_empty());
        // On the table nothing is measured.
        assert!(walk_problems(&s2(5.0, 5.0), &[p(5.0, 15.0)], &thin).1.is_empty());
    }

    #[test]
    fn a_rise_is_judged_from_the_level_the_trooper_walks_at() {
        // A 1" crate, then a 2.5" box beside it: from the crate the box rises 1.5" (an S2 steps
        // up); straight from the table it rises 2.5" (it cannot).
        let terrain = [rect("crate", 14.0, 0.0, 16.0, 20.0, 1.0), rect("box", 16.0, 0.0, 18.0, 20.0, 2.5)];
        let (w, problems) = walk_problems(&s2(10.0, 5.0), &[p(17.0, 5.0)], &terrain);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(w.end_level(), 2.5);
        let (_, problems) = walk_problems(&s2(17.0, 12.0 + 10.0), &[p(17.0, 19.0)], &terrain);
        match problems.as_slice() {
            [WalkProblem::Into { piece: 1, rise_in, .. }, ..] => assert!((rise_in - 2.5).abs() < 1e-12),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_leap_changes_level_evenly_and_is_measured_from_the_top_of_the_silhouette_going_up() {
        let terrain = [rect("roof", 10.0, 0.0, 20.0, 20.0, 3.0)];
        let foot = s2(9.5, 5.0);
        let route = [p(10.5, 5.0)];
        let path = leap(&foot, &route, &terrain);
        assert_eq!(path.len(), 2);
        assert_eq!((path[0].level_in, path[1].level_in), (0.0, 3.0));
        // Up 3" from an S2 (1.575" tall): 1.425" above its top, 1" across.
        let tall = Silhouette::S2.height_in();
        let up = leap_length(&foot, &route, 3.0);
        assert!((up - 1.0f64.hypot(3.0 - tall)).abs() < 1e-12, "{up}");
        // Down from the roof: the full 3" from the base's underside.
        let down = leap_length(&s2(10.5, 5.0).elevated(3.0), &[p(9.5, 5.0)], 0.0);
        assert!((down - 1.0f64.hypot(3.0)).abs() < 1e-12, "{down}");
        // A landing no higher than the top of the Silhouette costs only the distance across.
        assert!((leap_length(&foot, &route, 1.0) - 1.0).abs() < 1e-12);
        // Halfway along a longer jump, halfway up.
        let path = leap(&s2(6.0, 5.0), &[p(8.0, 5.0), p(12.0, 5.0)], &terrain);
        assert!((path[1].level_in - 1.0).abs() < 1e-12, "{path:?}");
        // Straight up, going nowhere over the table: two points at one place.
        let path = leap(&s2(15.0, 5.0), &[], &terrain);
        assert_eq!(path.len(), 2);
        assert_eq!(path[0].at, path[1].at);
    }

    #[test]
    fn a_climb_starts_against_a_wall_or_at_a_tops_edge_and_goes_little_across() {
        let r = Silhouette::S2.radius_in();
        let terrain = [rect("roof", 10.0, 0.0, 20.0, 20.0, 3.0)];
        // Against the west wall, up onto the top: a base's width across.
        let foot = s2(10.0 - r, 5.0);
        assert_eq!(climb_problem(&foot, &[p(10.0 + r, 5.0)], &terrain), None);
        // Two bases' widths across is a walk on the roof as well.
        match climb_problem(&foot, &[p(10.0 + 3.0 * r, 5.0)], &terrain) {
            Some(ClimbProblem::Across { across_in, most_in }) => {
                assert!(
                    (across_in - 4.0 * r).abs() < 1e-9 && (most_in - (2.0 * r + CLIMB_ACROSS_SLACK_IN)).abs() < 1e-12
                );
            }
            other => panic!("{other:?}"),
        }
        // From 1" away from the wall, no wall to climb.
        assert_eq!(climb_problem(&s2(9.0 - r, 5.0), &[p(10.0 + r, 5.0)], &terrain), Some(ClimbProblem::NoWall));
        // Down from the edge of the top, not from its middle; and never level.
        let edge = s2(10.0 + r, 5.0).elevated(3.0);
        assert_eq!(climb_problem(&edge, &[p(10.0 - r, 5.0)], &terrain), None);
        let middle = s2(15.0, 5.0).elevated(3.0);
        assert_eq!(climb_problem(&middle, &[p(15.5, 5.0)], &terrain), Some(ClimbProblem::Level));
        assert_eq!(climb_problem(&middle, &[p(9.0, 5.0)], &terrain), Some(ClimbProblem::NoWall));
    }

    #[test]
    fn a_move_ends_only_on_a_surface_as_large_as_the_base() {
        let r = Silhouette::S2.radius_in();
        let terrain = [rect("roof", 10.0, 0.0, 20.0, 20.0, 3.0), rect("crate", 30.0, 0.0, 32.0, 2.0, 1.0)];
        assert_eq!(landing_problem(&s2(15.0, 5.0).elevated(3.0), &terrain), None);
        // 0.3" from the roof's edge: the base reaches r - 0.3 past it.
        match landing_problem(&s2(19.7, 5.0).elevated(3.0), &terrain) {
            Some(LandingProblem::OffTheTop { piece: 0, by_in }) => assert!((by_in - (r - 0.3)).abs() < 1e-9),
            other => panic!("{other:?}"),
        }
        // Touching the edge from within is fine; so is a tag a hair over it.
        assert_eq!(landing_problem(&s2(20.0 - r + 0.05, 5.0).elevated(3.0), &terrain), None);
        // On the table beside the crate, its base 0.3" into the crate's footprint: not on the table.
        match landing_problem(&s2(30.0 - r + 0.3, 1.0), &terrain) {
            Some(LandingProblem::OverHigher { piece: 1, by_in }) => assert!((by_in - 0.3).abs() < 1e-9),
            other => panic!("{other:?}"),
        }
        assert_eq!(landing_problem(&s2(30.0 - r + 0.05, 1.0), &terrain), None);
        // Two slabs of one roof: a base across their join stands on both.
        let slabs = [rect("west", 10.0, 0.0, 15.0, 20.0, 3.0), rect("east", 15.0, 0.0, 20.0, 20.0, 3.0)];
        assert_eq!(landing_problem(&s2(15.1, 5.0).elevated(3.0), &slabs), None);
        // A 40 mm base (1.57" across) fits on the 2" crate's top, not on a 1" stool's.
        let big = |x: f64, y: f64| Body::new(p(x, y), Silhouette::S5).elevated(1.0);
        assert_eq!(landing_problem(&big(31.0, 1.0), &terrain), None);
        let stool = [rect("stool", 40.0, 0.0, 41.0, 1.0, 1.0)];
        assert!(matches!(landing_problem(&big(40.5, 0.5), &stool), Some(LandingProblem::OffTheTop { piece: 0, .. })));
    }

    #[test]
    fn a_change_of_level_is_cut_into_bounded_pieces() {
        let up = [RoutePoint { at: p(1.0, 1.0), level_in: 0.0 }, RoutePoint { at: p(1.0, 1.0), level_in: 1.0 }];
        assert_eq!(flat_runs(&up).len(), 1 + 10 + 1, "the foot, ten 0.1\" apart, and the top");
        let far = [RoutePoint { at: p(1.0, 1.0), level_in: 0.0 }, RoutePoint { at: p(1.0, 1.0), level_in: 1e9 }];
        assert_eq!(flat_runs(&far).len(), 1 + MAX_LEVEL_STEPS + 1);
    }

    #[test]
    fn route_events_see_the_mover_at_the_level_it_climbs_to() {
        // A 2.5" wall between an S2 observer and a box 2" high: the observer cannot see an S2 on
        // the table behind the wall, but sees it standing on the box's top.
        let terrain = [rect("wall", 20.0, 0.0, 21.0, 20.0, 2.5), rect("box", 12.0, 8.0, 16.0, 12.0, 2.0)];
        let bodies = [s2(10.0, 10.0), s2(30.0, 10.0).with_arc(crate::geometry::Arc::All360)];
        let route = [p(14.0, 10.0)];
        let path = leap(&bodies[0], &route, &terrain);
        assert_eq!(path.last().map(|q| q.level_in), Some(2.0));
        let with_levels = route_events_with_levels(&terrain, &bodies, 0, &path);
        let flat = route_events(&Obstacles::new(&terrain, &bodies), &bodies, 0, &route);
        assert!(flat[0].lof.is_empty(), "at table level the wall hides it: {:?}", flat[0].lof);
        let seen = &with_levels[0].lof;
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert!(seen[0].to_in > 3.99 && seen[0].from_in > 0.5, "seen once high enough: {seen:?}");
        // Walking the same way on a 1" step up and down (no LoF over the wall from 1" up? the
        // top reaches 2.575": a line to the observer's top clears the wall's 2.5" near it).
        let low = [rect("wall", 20.0, 0.0, 21.0, 20.0, 2.5), rect("step", 12.0, 8.0, 16.0, 12.0, 1.0)];
        let (w, _) = walk_problems(&bodies[0], &[p(18.0, 10.0)], &low);
        let events = route_events_with_levels(&low, &bodies, 0, &w.path);
        let flat = route_events(&Obstacles::new(&low, &bodies), &bodies, 0, &[p(18.0, 10.0)]);
        for s in &events[0].lof {
            assert!(s.from_in >= 2.0 - 1e-6 && s.to_in <= 6.0 + 1e-6, "seen only while on the step: {s:?}");
        }
        assert!(flat[0].lof.iter().all(|s| s.from_in >= 6.0), "{:?}", flat[0].lof);
    }
}
