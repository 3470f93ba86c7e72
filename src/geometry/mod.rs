//! Pure table geometry for Infinity N4, in **inches**.
//!
//! Table space: origin at one table corner, `x` along the width, `y` along the depth, `z` up from
//! the table surface; all lengths in inches (`f64`). Facings are degrees counter-clockwise from
//! `+x`. Millimetres appear only where the rulebook states them (Silhouette bases and heights) and
//! are converted once, in [`silhouette`], with 25.4 mm = 1".
//!
//! This module never imports egui, eframe, nokhwa or threads: the CLI, the tests and the app all
//! call it the same way.
//!
//! ```
//! use sightline::geometry::{Body, Silhouette, TablePoint, distance, zoc};
//!
//! // Two S2 infantry troopers, centres 8.9" apart: base edges 7.916" apart, inside each other's ZoC.
//! let a = Body::new(TablePoint::new(10.0, 10.0), Silhouette::S2);
//! let b = Body::new(TablePoint::new(18.9, 10.0), Silhouette::S2);
//! assert!((distance(&a, &b) - 7.916).abs() < 1e-3);
//! assert!(zoc(&a, &b).is_inside());
//! ```

mod body;
mod json;
mod levels;
mod lof;
mod measure;
mod movement;
mod route;
mod scene;
mod segment;
pub mod silhouette;
mod terrain;
mod visibility;

pub use body::{Arc, Body};

pub(crate) use json::{from_json_at, read_json_at};
pub use levels::{
    CLIMB_ACROSS_SLACK_IN, ClimbProblem, LADDER_REACH_BASE_WIDTHS, LEVEL_EPS_IN, LEVEL_STEP_IN, LandingProblem,
    LevelStep, MAX_LEVEL_STEPS, RoutePoint, Surface, Walk, WalkProblem, climb_problem, landing_problem, leap,
    leap_length, route_events_with_levels, surface_at, walk, walk_crossings, walk_problems, walk_problems_stepping,
    walk_stepping,
};
pub use lof::{
    Blocker, Lof, LofResult, MIN_VISIBLE_IN, Obstacles, SAMPLE_SPACING_IN, ViewerCaches, line_of_fire, may_block,
};
pub use measure::{ZOC_RANGE_IN, ZocVerdict, distance, distance_to_point, zoc};
pub use movement::{
    BaseCrossing, MOVE_CONTACT_SLACK_IN, TerrainCrossing, base_crossings, may_pass_through, terrain_crossings,
};
pub use route::{ROUTE_PRECISION_IN, ROUTE_STEP_IN, RouteEvents, Stretch, path_length, route_events, route_part};
pub use scene::{
    DEFAULT_TABLE_IN, MAX_OVERLAP_IN, MAX_TABLE_SIDE_IN, PairMeasure, PairTable, Scene, SceneError, SceneTrooper, Side,
    StandingProblem, Table, standing_problem, table_side_problem,
};
pub use segment::closest_on_segment;
pub use silhouette::Silhouette;
pub use terrain::{
    LADDER_ON_EDGE_IN, MAX_TERRAIN_COORD_IN, Terrain, TerrainError, area_grown_outline, base_outside_area,
    base_overlaps_area, surface_height,
};
pub use visibility::visibility_polygon;

use serde::{Deserialize, Serialize};

/// Millimetres in one inch, exactly (the rulebook's base sizes are in millimetres).
pub const MM_PER_INCH: f64 = 25.4;

/// A point on the table plane.
///
/// # Units
/// Inches from the table's origin corner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub struct TablePoint {
    /// Inches along the table's width.
    pub x: f64,
    /// Inches along the table's depth.
    pub y: f64,
}

impl TablePoint {
    /// A point at `(x, y)` inches.
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// Scaled by `k`.
    pub fn scale(self, k: f64) -> Self {
        Self::new(self.x * k, self.y * k)
    }

    /// Dot product, square inches.
    pub fn dot(self, o: Self) -> f64 {
        self.x * o.x + self.y * o.y
    }

    /// 2D cross product (z of the 3D cross product), square inches.
    pub fn cross(self, o: Self) -> f64 {
        self.x * o.y - self.y * o.x
    }

    /// Length of this vector, inches. (A plain square root: table coordinates are far from
    /// overflow, and `hypot` is several times slower in the LoF inner loops.)
    pub fn norm(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }

    /// Distance to `o`, inches.
    pub fn dist(self, o: Self) -> f64 {
        (self - o).norm()
    }

    /// Whether both coordinates are finite.
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// Linear interpolation from `self` (t = 0) to `o` (t = 1).
    pub fn lerp(self, o: Self, t: f64) -> Self {
        Self::new(self.x + (o.x - self.x) * t, self.y + (o.y - self.y) * t)
    }

    /// The unit vector at `deg` degrees counter-clockwise from `+x`.
    pub fn from_angle_deg(deg: f64) -> Self {
        let r = deg.to_radians();
        Self::new(r.cos(), r.sin())
    }

    /// The direction from `self` to `to`, degrees counter-clockwise from `+x`, in 0–360 (a
    /// facing, as a player gives one; 0 when the two are one point).
    pub fn angle_deg_to(self, to: Self) -> f64 {
        (to.y - self.y).atan2(to.x - self.x).to_degrees().rem_euclid(360.0)
    }
}

/// Vector difference, inches.
impl std::ops::Sub for TablePoint {
    type Output = TablePoint;
    fn sub(self, o: Self) -> Self {
        Self::new(self.x - o.x, self.y - o.y)
    }
}

/// Vector sum, inches.
impl std::ops::Add for TablePoint {
    type Output = TablePoint;
    fn add(self, o: Self) -> Self {
        Self::new(self.x + o.x, self.y + o.y)
    }
}

/// A point in table space with height.
///
/// # Units
/// Inches; `z` is the height above the table surface.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Point3 {
    /// Inches along the width.
    pub x: f64,
    /// Inches along the depth.
    pub y: f64,
    /// Inches above the table.
    pub z: f64,
}

impl Point3 {
    /// A point at `p` on the plane, `z` inches up.
    pub const fn at(p: TablePoint, z: f64) -> Self {
        Self { x: p.x, y: p.y, z }
    }

    /// The point on the table plane below this one.
    pub const fn plan(self) -> TablePoint {
        TablePoint::new(self.x, self.y)
    }
}
