//! A trooper's body on the table: its Silhouette cylinder, where it stands and where it faces.

use super::{Silhouette, TablePoint};
use serde::{Deserialize, Serialize};
use std::ops::Sub as _;

/// The arc in which a trooper can draw Line of Fire.
///
/// N4 "Line of Fire" (digest §2): a trooper has a 180° front arc, the front half of its base;
/// Camouflage markers (and answering Attacks with Sixth Sense) have 360°.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Arc {
    /// The front 180°: the half-plane in front of the line through the base centre
    /// perpendicular to the facing.
    #[default]
    Front180,
    /// All around (360°).
    All360,
}

/// A trooper's Silhouette cylinder placed on the table.
///
/// # Units
/// Inches; `facing_deg` in degrees counter-clockwise from `+x`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// Centre of the base on the table plane, inches.
    pub centre: TablePoint,
    /// Height of the base's underside above the table (a trooper on a rooftop), inches.
    pub elevation_in: f64,
    /// The trooper's Silhouette value.
    pub silhouette: Silhouette,
    /// Facing, degrees counter-clockwise from `+x`.
    pub facing_deg: f64,
    /// Front arc or all around.
    pub arc: Arc,
    /// Prone (N4 state): the cylinder keeps the trooper's own base and drops to S0's height
    /// (see [`Silhouette::prone`]; assumption PRONE_SILHOUETTE in the README).
    pub prone: bool,
    /// A marker (a Camouflage marker and the like): it sees and is seen as its Silhouette, but
    /// blocks no line between others — digest §2 "Markers do not block LoF unless a rule says
    /// so" (⚠️ N3 page; assumption MARKERS_DO_NOT_BLOCK in the README).
    pub marker: bool,
}

impl Body {
    /// A trooper of Silhouette `s` at `centre`, on the table, facing `+x` with a 180° arc.
    pub fn new(centre: TablePoint, s: Silhouette) -> Self {
        Self {
            centre,
            elevation_in: 0.0,
            silhouette: s,
            facing_deg: 0.0,
            arc: Arc::Front180,
            prone: false,
            marker: false,
        }
    }

    /// This body a marker (`true`: it blocks no line between others) or a model.
    pub fn marked(mut self, marker: bool) -> Self {
        self.marker = marker;
        self
    }

    /// This body Prone (`true`) or standing.
    pub fn lying(mut self, prone: bool) -> Self {
        self.prone = prone;
        self
    }

    /// This body facing `deg` degrees.
    pub fn facing(mut self, deg: f64) -> Self {
        self.facing_deg = deg;
        self
    }

    /// This body standing `z` inches above the table.
    pub fn elevated(mut self, z: f64) -> Self {
        self.elevation_in = z;
        self
    }

    /// This body with arc `arc`.
    pub fn with_arc(mut self, arc: Arc) -> Self {
        self.arc = arc;
        self
    }

    /// This body moved to `p` (same Silhouette, elevation, facing and arc).
    pub fn at(mut self, p: TablePoint) -> Self {
        self.centre = p;
        self
    }

    /// Base radius, inches (a Prone trooper keeps its own base).
    pub fn radius(&self) -> f64 {
        self.silhouette.radius_in()
    }

    /// Height of the cylinder, inches: the Silhouette's, or S0's when Prone.
    pub fn height(&self) -> f64 {
        // (The Silhouette whose height it has now, then one lookup in the chart's table.)
        let now = if self.prone { self.silhouette.prone().0 } else { self.silhouette };
        now.height_in()
    }

    /// Whether `other` is the same cylinder in the same place, blocking lines alike (all that
    /// blocking lines, distances and Zones of Control depend on, besides facing and arc).
    pub fn same_volume(&self, other: &Body) -> bool {
        (self.centre, self.radius(), self.bottom(), self.top(), self.marker)
            == (other.centre, other.radius(), other.bottom(), other.top(), other.marker)
    }

    /// Height of the underside above the table, inches.
    pub fn bottom(&self) -> f64 {
        self.elevation_in
    }

    /// Height of the top above the table, inches.
    pub fn top(&self) -> f64 {
        self.elevation_in + self.height()
    }

    /// Unit vector of the facing.
    pub fn facing_unit(&self) -> TablePoint {
        TablePoint::from_angle_deg(self.facing_deg)
    }

    /// Signed distance of `p` in front of the arc line (positive = in front), inches.
    /// Always positive for a 360° arc.
    pub fn ahead(&self, p: TablePoint) -> f64 {
        match self.arc {
            Arc::Front180 => p.sub(self.centre).dot(self.facing_unit()),
            Arc::All360 => f64::INFINITY,
        }
    }

    /// Whether every number in the body is finite.
    pub fn is_finite(&self) -> bool {
        self.centre.is_finite() && self.elevation_in.is_finite() && self.facing_deg.is_finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::MM_PER_INCH;

    #[test]
    fn a_prone_trooper_keeps_its_base_and_is_as_tall_as_s0() {
        let standing = Body::new(TablePoint::new(5.0, 5.0), Silhouette::S5).elevated(1.0);
        let prone = standing.lying(true);
        // S5: 40 mm base, 45 mm tall; prone: the same base, 3 mm tall (digest §2, S0 row).
        assert!((prone.radius() * 2.0 * MM_PER_INCH - 40.0).abs() < 1e-9);
        assert!((standing.height() * MM_PER_INCH - 45.0).abs() < 1e-9);
        assert!((prone.height() * MM_PER_INCH - 3.0).abs() < 1e-9);
        assert!((prone.top() - 1.0 - 3.0 / MM_PER_INCH).abs() < 1e-12);
        assert_eq!(prone.bottom(), standing.bottom());
        // Going prone changes the volume; turning does not.
        assert!(!standing.same_volume(&prone));
        assert!(standing.same_volume(&standing.facing(90.0)));
        assert!(prone.same_volume(&standing.lying(true)));
        // A marker blocks nothing: becoming one changes what the body blocks.
        assert!(!standing.same_volume(&standing.marked(true)));
    }
}
