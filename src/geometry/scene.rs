//! A scene: a table, troopers on it and terrain — what `sightline measure` reads.
//!
//! The JSON form (documented in the README) is read through [`Scene::from_json`], which names
//! the field at fault in every error.

use super::json::read_json_at;
use super::lof::{LofResult, Obstacles, ViewerCaches, line_of_fire, may_block};
use super::measure::{ZocVerdict, distance, height_gap, zoc};
use super::segment::{Where, locate};
use super::{Arc, Body, Silhouette, TablePoint, Terrain};
use serde::{Deserialize, Serialize};

/// The default table side, inches (assumption `TABLE_SIZE`: digest §3 marks 48"×48" unconfirmed).
pub const DEFAULT_TABLE_IN: f64 = 48.0;

/// The longest table side accepted, inches (about 25 km: no table comes near it). Far larger, the
/// squared distances the geometry works with overflow (a 10³⁰⁰" table gave `null` distances), and
/// the 10⁻⁹" tolerances it judges touches by fall below a coordinate's rounding.
pub const MAX_TABLE_SIDE_IN: f64 = 1e6;

/// Why `v` is not a table side (width or depth, inches), if it is not: finite, above 0, at most
/// [`MAX_TABLE_SIDE_IN`].
pub fn table_side_problem(v: f64) -> Option<String> {
    (!(v > 0.0 && v <= MAX_TABLE_SIDE_IN)).then(|| {
        // (Huge numbers in exponent form, not 300 digits.)
        let shown = if v.abs() < 1e7 { format!("{v}") } else { format!("{v:e}") };
        format!("{shown} is not a table size (inches, more than 0 and at most {MAX_TABLE_SIDE_IN})")
    })
}

/// Largest overlap of two Silhouettes accepted as "in base contact", inches (0.5 mm): tagging
/// from a camera is never exact, but more than this is two troopers in one place.
pub const MAX_OVERLAP_IN: f64 = 0.5 / super::MM_PER_INCH;

/// Why a trooper cannot stand where its body is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StandingProblem {
    /// Its base centre is on terrain piece `piece`'s footprint, below the piece's top.
    InsideTerrain {
        /// The piece (index into the terrain).
        piece: usize,
    },
    /// Its Silhouette overlaps another's (index into the others) by more than [`MAX_OVERLAP_IN`].
    Overlaps {
        /// The other trooper.
        other: usize,
        /// By how much the bases overlap, inches.
        by_in: f64,
    },
}

/// Why `body` cannot stand where it is among `terrain` and the `others`' bodies — the checks a
/// scene makes of every trooper, and the rules engine of every trooper an event puts somewhere:
/// its base centre inside a piece below the piece's top (standing on top needs an elevation at
/// least the piece's height), or its Silhouette sharing a place with another's (bases
/// overlapping by more than [`MAX_OVERLAP_IN`] at heights that meet). `None`: it may stand there.
pub fn standing_problem<'a>(
    body: &Body,
    terrain: &[Terrain],
    others: impl IntoIterator<Item = &'a Body>,
) -> Option<StandingProblem> {
    let b = body;
    if let Some(piece) = terrain
        .iter()
        .position(|t| locate(&t.polygon, b.centre) == Where::Inside && b.elevation_in < t.height_in - 1e-9)
    {
        return Some(StandingProblem::InsideTerrain { piece });
    }
    others.into_iter().enumerate().find_map(|(other, o)| {
        let by_in = b.radius() + o.radius() - b.centre.dist(o.centre);
        (by_in > MAX_OVERLAP_IN && height_gap(b, o) <= 0.0 && b.top() > o.bottom() && o.top() > b.bottom())
            .then_some(StandingProblem::Overlaps { other, by_in })
    })
}

/// The table.
///
/// # Units
/// Inches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// Width (along x), inches.
    pub width: f64,
    /// Depth (along y), inches.
    pub depth: f64,
}

impl Table {
    /// The middle of the table, inches.
    pub fn middle(&self) -> TablePoint {
        TablePoint::new(self.width / 2.0, self.depth / 2.0)
    }
}

impl Default for Table {
    fn default() -> Self {
        Self { width: DEFAULT_TABLE_IN, depth: DEFAULT_TABLE_IN }
    }
}

/// The two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// Player A.
    A,
    /// Player B.
    B,
}

/// A trooper in a scene.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneTrooper {
    /// Unique id ("a1").
    pub id: String,
    /// Whose trooper.
    pub side: Side,
    /// Its Silhouette cylinder on the table.
    pub body: Body,
    /// Points it moves through after its position, inches (empty when it does not move).
    pub route: Vec<TablePoint>,
}

impl SceneTrooper {
    /// Where it stands, then its route's points: the path its base centre follows, inches.
    pub fn path(&self) -> Vec<TablePoint> {
        let mut path = vec![self.body.centre];
        path.extend_from_slice(&self.route);
        path
    }
}

/// A validated scene.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// The table.
    pub table: Table,
    /// The troopers.
    pub troopers: Vec<SceneTrooper>,
    /// The terrain.
    pub terrain: Vec<Terrain>,
}

/// What is wrong with a scene: the field at fault and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SceneError {
    /// The text is not JSON of the scene's shape.
    #[error("{0}")]
    Json(String),
    /// A field has a bad value.
    #[error("{field}: {reason}")]
    Field {
        /// Path to the field, e.g. `troopers[1] ("b1").arc`.
        field: String,
        /// What is wrong.
        reason: String,
    },
}

fn bad(field: impl Into<String>, reason: impl Into<String>) -> SceneError {
    SceneError::Field { field: field.into(), reason: reason.into() }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScene {
    #[serde(default)]
    table: Table,
    troopers: Vec<RawTrooper>,
    #[serde(default)]
    terrain: Vec<RawTerrain>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTrooper {
    id: String,
    side: Side,
    silhouette: u8,
    x: f64,
    y: f64,
    #[serde(default)]
    facing: f64,
    #[serde(default)]
    elevation: f64,
    #[serde(default = "default_arc")]
    arc: u16,
    #[serde(default)]
    prone: bool,
    #[serde(default)]
    marker: bool,
    #[serde(default)]
    route: Vec<(f64, f64)>,
}

fn default_arc() -> u16 {
    180
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerrain {
    id: String,
    polygon: Vec<(f64, f64)>,
    height: f64,
    #[serde(default)]
    ladders: Vec<[(f64, f64); 2]>,
}

impl Scene {
    /// Read and validate a scene from its JSON text.
    pub fn from_json(text: &str) -> Result<Self, SceneError> {
        let raw: RawScene = read_json_at(text).map_err(|e| SceneError::Json(e.described(false)))?;
        let terrain = raw
            .terrain
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                Terrain::from_pairs(t.id.clone(), &t.polygon, t.height, &t.ladders)
                    .map_err(|e| bad(format!("terrain[{i}] (\"{}\")", t.id), e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let troopers = raw
            .troopers
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                let at = |f: &str| format!("troopers[{i}] (\"{}\").{f}", t.id);
                let silhouette =
                    Silhouette::try_from(t.silhouette).map_err(|e| bad(at("silhouette"), e.to_string()))?;
                let arc = match t.arc {
                    180 => Arc::Front180,
                    360 => Arc::All360,
                    other => return Err(bad(at("arc"), format!("{other} is not an arc: use 180 or 360"))),
                };
                let body = Body {
                    centre: TablePoint::new(t.x, t.y),
                    elevation_in: t.elevation,
                    silhouette,
                    facing_deg: t.facing,
                    arc,
                    prone: t.prone,
                    marker: t.marker,
                };
                let route = t.route.into_iter().map(|(x, y)| TablePoint::new(x, y)).collect();
                Ok(SceneTrooper { id: t.id, side: t.side, body, route })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Scene::new(raw.table, troopers, terrain)
    }

    /// A scene from its parts, validated: sizes, ids, positions on the table, nobody standing
    /// inside terrain, no two Silhouettes in one place.
    pub fn new(table: Table, troopers: Vec<SceneTrooper>, terrain: Vec<Terrain>) -> Result<Self, SceneError> {
        for (name, v) in [("table.width", table.width), ("table.depth", table.depth)] {
            if let Some(why) = table_side_problem(v) {
                return Err(bad(name, why));
            }
        }
        let on_table = |p: TablePoint| (0.0..=table.width).contains(&p.x) && (0.0..=table.depth).contains(&p.y);
        let mut ids = std::collections::HashSet::new();
        for (i, t) in terrain.iter().enumerate() {
            let at = format!("terrain[{i}] (\"{}\")", t.id);
            t.validate().map_err(|e| bad(&at, e.to_string()))?;
            if t.id.is_empty() || !ids.insert(t.id.as_str()) {
                return Err(bad(at + ".id", "ids must be non-empty and unique"));
            }
        }
        for (i, tr) in troopers.iter().enumerate() {
            let at = |f: &str| format!("troopers[{i}] (\"{}\").{f}", tr.id);
            if tr.id.is_empty() || !ids.insert(tr.id.as_str()) {
                return Err(bad(at("id"), "ids must be non-empty and unique (troopers and terrain share one set)"));
            }
            let b = &tr.body;
            for (f, v) in
                [("x", b.centre.x), ("y", b.centre.y), ("facing", b.facing_deg), ("elevation", b.elevation_in)]
            {
                if !v.is_finite() {
                    return Err(bad(at(f), format!("{v} is not a finite number")));
                }
            }
            if b.elevation_in < 0.0 {
                return Err(bad(at("elevation"), format!("{} is below the table (inches, ≥ 0)", b.elevation_in)));
            }
            if !on_table(b.centre) {
                return Err(bad(
                    at("x"),
                    format!("({}, {}) is off the {}\"×{}\" table", b.centre.x, b.centre.y, table.width, table.depth),
                ));
            }
            for (k, p) in tr.route.iter().enumerate() {
                if !p.is_finite() || !on_table(*p) {
                    return Err(bad(
                        at(&format!("route[{k}]")),
                        format!("({}, {}) is not a point on the table", p.x, p.y),
                    ));
                }
            }
            match standing_problem(b, &terrain, troopers[..i].iter().map(|o| &o.body)) {
                Some(StandingProblem::InsideTerrain { piece }) => {
                    let t = &terrain[piece];
                    return Err(bad(
                        at("elevation"),
                        format!(
                            "the trooper stands inside terrain \"{}\" ({}\" tall) at elevation {}\"; set elevation to {} if it stands on top",
                            t.id, t.height_in, b.elevation_in, t.height_in
                        ),
                    ));
                }
                Some(StandingProblem::Overlaps { other, by_in }) => {
                    return Err(bad(
                        at("x"),
                        format!(
                            "its base overlaps \"{}\" by {by_in:.3}\"; two Silhouettes cannot share a place",
                            troopers[other].id
                        ),
                    ));
                }
                None => {}
            }
        }
        Ok(Scene { table, troopers, terrain })
    }

    /// Every trooper's body, in scene order.
    pub fn bodies(&self) -> Vec<Body> {
        self.troopers.iter().map(|t| t.body).collect()
    }

    /// This scene with trooper `k`'s body replaced by `body` (moved, turned, changed), checked as
    /// [`Scene::new`] checks a scene.
    pub fn with_body(&self, k: usize, body: Body) -> Result<Scene, SceneError> {
        let mut troopers = self.troopers.clone();
        let t = troopers
            .get_mut(k)
            .ok_or_else(|| bad(format!("troopers[{k}]"), format!("there are {} troopers", self.troopers.len())))?;
        t.body = body;
        Scene::new(self.table, troopers, self.terrain.clone())
    }

    /// This scene with `terrain` in place of its own (a piece traced on the table, or taken
    /// away), checked as [`Scene::new`] checks a scene: a piece may not stand where a trooper
    /// does, below its top.
    pub fn with_terrain(&self, terrain: Vec<Terrain>) -> Result<Scene, SceneError> {
        Scene::new(self.table, self.troopers.clone(), terrain)
    }

    /// The scene as a scene file's JSON (what [`Scene::from_json`] reads, the input of
    /// `sightline measure`): table, troopers (optional fields written only when not their
    /// defaults) and terrain.
    pub fn to_json(&self) -> serde_json::Value {
        let pt = |p: TablePoint| serde_json::json!([p.x, p.y]);
        let troopers: Vec<serde_json::Value> = self
            .troopers
            .iter()
            .map(|t| {
                let b = &t.body;
                let mut v = serde_json::json!({"id": t.id, "side": t.side, "silhouette": b.silhouette.value(),
                                               "x": b.centre.x, "y": b.centre.y, "facing": b.facing_deg});
                if b.elevation_in != 0.0 {
                    v["elevation"] = serde_json::json!(b.elevation_in);
                }
                if b.arc == Arc::All360 {
                    v["arc"] = serde_json::json!(360);
                }
                if b.prone {
                    v["prone"] = serde_json::json!(true);
                }
                if b.marker {
                    v["marker"] = serde_json::json!(true);
                }
                if !t.route.is_empty() {
                    v["route"] = t.route.iter().map(|&p| pt(p)).collect();
                }
                v
            })
            .collect();
        let terrain: Vec<serde_json::Value> = self
            .terrain
            .iter()
            .map(|t| {
                let mut v = serde_json::json!({"id": t.id, "polygon": t.polygon.iter().map(|&p| pt(p)).collect::<Vec<_>>(),
                                               "height": t.height_in});
                if !t.ladders.is_empty() {
                    v["ladders"] = t.ladders.iter().map(|&[a, b]| serde_json::json!([pt(a), pt(b)])).collect();
                }
                v
            })
            .collect();
        serde_json::json!({"table": {"width": self.table.width, "depth": self.table.depth},
                           "troopers": troopers, "terrain": terrain})
    }

    /// Index of the trooper with id `id`.
    pub fn trooper_index(&self, id: &str) -> Option<usize> {
        self.troopers.iter().position(|t| t.id == id)
    }

    /// Name of a blocker, for messages and output.
    pub fn blocker_id(&self, b: super::Blocker) -> &str {
        match b {
            super::Blocker::Terrain(i) => &self.terrain[i].id,
            super::Blocker::Trooper(j) => &self.troopers[j].id,
        }
    }

    /// Distance, ZoC and LoF for every ordered pair `(from, to)`, `from != to`, in scene order.
    pub fn all_pairs(&self) -> Vec<PairMeasure> {
        PairTable::new(self).pairs
    }
}

/// Distance, ZoC and LoF for every ordered pair of a scene's troopers, kept up to date as they
/// move: [`PairTable::refresh`] measures again only the pairs a change can alter, and the table
/// then holds exactly what [`Scene::all_pairs`] gives for the changed scene.
///
/// A pair is measured again when one of its two troopers changed in any way, or when a trooper
/// that changed place or Silhouette could block a line between them before or after the change
/// ([`may_block`]). Nothing else enters a pair's answers.
#[derive(Debug)]
pub struct PairTable {
    pairs: Vec<PairMeasure>,
    /// What the LoF queries worked out per viewer, with the terrain and bodies they were for.
    caches: ViewerCaches,
}

impl PairTable {
    /// Every pair of `scene` measured.
    pub fn new(scene: &Scene) -> Self {
        let bodies = scene.bodies();
        let obstacles = Obstacles::new(&scene.terrain, &bodies);
        let n = bodies.len();
        let mut pairs = Vec::with_capacity(n * n.saturating_sub(1));
        for i in 0..n {
            for j in 0..n {
                if i != j {
                    pairs.push(measure_pair(&obstacles, &bodies, i, j));
                }
            }
        }
        Self { pairs, caches: obstacles.into_caches() }
    }

    /// Every ordered pair `(from, to)`, `from != to`, in scene order.
    pub fn pairs(&self) -> &[PairMeasure] {
        &self.pairs
    }

    /// Bring the table up to date with `scene` (the same scene with troopers moved, turned or
    /// changed; any other change — terrain, or troopers added or removed — measures everything
    /// again). Returns how many pairs were measured again.
    pub fn refresh(&mut self, scene: &Scene) -> usize {
        let bodies = scene.bodies();
        let before = self.caches.bodies();
        if before.len() != bodies.len() || !self.caches.same_terrain(&scene.terrain) {
            *self = Self::new(scene);
            return self.pairs.len();
        }
        let changed: Vec<usize> = (0..bodies.len()).filter(|&k| before[k] != bodies[k]).collect();
        if changed.is_empty() {
            return 0;
        }
        // The changed troopers that may block other pairs' lines: as they were, and as they are.
        let in_the_way: Vec<Body> = changed
            .iter()
            .filter(|&&k| !before[k].same_volume(&bodies[k]))
            .flat_map(|&k| [before[k], bodies[k]])
            .collect();
        let caches = std::mem::take(&mut self.caches);
        let obstacles = Obstacles::with_caches(&scene.terrain, &bodies, caches);
        let mut measured = 0;
        for m in self.pairs.iter_mut() {
            let (i, j) = (m.from, m.to);
            let again = changed.contains(&i)
                || changed.contains(&j)
                || in_the_way.iter().any(|o| may_block(&bodies[i], &bodies[j], o));
            if again {
                *m = measure_pair(&obstacles, &bodies, i, j);
                measured += 1;
            }
        }
        self.caches = obstacles.into_caches();
        measured
    }
}

/// Distance, ZoC and LoF from body `i` to body `j` among `bodies`.
fn measure_pair(obstacles: &Obstacles, bodies: &[Body], i: usize, j: usize) -> PairMeasure {
    PairMeasure {
        from: i,
        to: j,
        distance_in: distance(&bodies[i], &bodies[j]),
        zoc: zoc(&bodies[i], &bodies[j]),
        lof: line_of_fire(obstacles, &bodies[i], &bodies[j], &[i, j]),
    }
}

/// Distance, ZoC and LoF from one trooper to another.
#[derive(Debug, Clone, PartialEq)]
pub struct PairMeasure {
    /// Index of the measuring trooper.
    pub from: usize,
    /// Index of the measured trooper.
    pub to: usize,
    /// Closest-point distance between the Silhouettes, inches.
    pub distance_in: f64,
    /// Whether `to` is inside `from`'s ZoC.
    pub zoc: ZocVerdict,
    /// LoF from `from` to `to`.
    pub lof: LofResult,
}
