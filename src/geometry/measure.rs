//! Distances and Zones of Control between Silhouette cylinders.
//!
//! N4 "Distances and Measurements" (digest §3): the distance between two troopers runs between the
//! closest points of their Silhouettes. N4 "Zone of Control" (digest §1): a cylinder 8" out from
//! the edge of the Silhouette, reaching 8" above its top and 8" below its bottom; a trooper is
//! inside when its Silhouette touches or enters the zone, totally inside when all of it is in.

use super::{Body, TablePoint};

/// Zone of Control reach beyond the Silhouette edge, and above and below it, in inches.
pub const ZOC_RANGE_IN: f64 = 8.0;

/// Tolerance for touching, inches (about 0.00003 mm): absorbs floating-point noise only.
pub(crate) const EPS: f64 = 1e-9;

/// Horizontal gap between the two base edges (0 when they touch or overlap), inches.
pub(crate) fn plan_gap(a: &Body, b: &Body) -> f64 {
    (a.centre.dist(b.centre) - a.radius() - b.radius()).max(0.0)
}

/// Vertical gap between the two cylinders' height ranges (0 when they overlap), inches.
pub(crate) fn height_gap(a: &Body, b: &Body) -> f64 {
    (a.bottom().max(b.bottom()) - a.top().min(b.top())).max(0.0)
}

/// Distance between the closest points of two Silhouette cylinders, inches.
///
/// Base edge to base edge when both stand on one level; in 3D when their heights differ
/// (the cylinders are a disc times a height range, so the plan gap and the height gap combine
/// by Pythagoras exactly).
pub fn distance(a: &Body, b: &Body) -> f64 {
    plan_gap(a, b).hypot(height_gap(a, b))
}

/// Distance from a Silhouette cylinder to a point on the table at height `z`, inches.
pub fn distance_to_point(a: &Body, p: TablePoint, z: f64) -> f64 {
    let plan = (a.centre.dist(p) - a.radius()).max(0.0);
    let up = (z - a.top()).max(a.bottom() - z).max(0.0);
    plan.hypot(up)
}

/// Where one Silhouette stands relative to another's Zone of Control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZocVerdict {
    /// No part of the Silhouette touches the zone.
    Outside,
    /// The Silhouette touches or partly enters the zone.
    Inside,
    /// The whole Silhouette is inside the zone.
    TotallyInside,
}

impl ZocVerdict {
    /// Inside or totally inside.
    pub fn is_inside(self) -> bool {
        !matches!(self, ZocVerdict::Outside)
    }
}

/// Whether `target` is inside `owner`'s Zone of Control (N4 "Zone of Control").
pub fn zoc(owner: &Body, target: &Body) -> ZocVerdict {
    let reach = owner.radius() + ZOC_RANGE_IN;
    let d = owner.centre.dist(target.centre);
    let (lo, hi) = (owner.bottom() - ZOC_RANGE_IN, owner.top() + ZOC_RANGE_IN);
    let touches = d - target.radius() <= reach + EPS && target.top() >= lo - EPS && target.bottom() <= hi + EPS;
    if !touches {
        return ZocVerdict::Outside;
    }
    let whole = d + target.radius() <= reach + EPS && target.bottom() >= lo - EPS && target.top() <= hi + EPS;
    if whole { ZocVerdict::TotallyInside } else { ZocVerdict::Inside }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Silhouette;

    fn s2(x: f64, y: f64) -> Body {
        Body::new(TablePoint::new(x, y), Silhouette::S2)
    }

    #[test]
    fn zoc_s2_centres_8_9_apart_inside_9_1_apart_outside() {
        assert!(zoc(&s2(0.0, 0.0), &s2(8.9, 0.0)).is_inside());
        assert!(zoc(&s2(8.9, 0.0), &s2(0.0, 0.0)).is_inside());
        assert_eq!(zoc(&s2(0.0, 0.0), &s2(9.1, 0.0)), ZocVerdict::Outside);
        assert_eq!(zoc(&s2(9.1, 0.0), &s2(0.0, 0.0)), ZocVerdict::Outside);
    }

    #[test]
    fn zoc_totally_inside_needs_the_whole_base_in() {
        // Edge of the zone at 8" + r from the owner's centre; the target's far edge must be inside.
        let r = Silhouette::S2.radius_in();
        assert_eq!(zoc(&s2(0.0, 0.0), &s2(8.0, 0.0)), ZocVerdict::TotallyInside);
        assert_eq!(zoc(&s2(0.0, 0.0), &s2(8.0 + r + 0.01 - r, 0.0)), ZocVerdict::Inside);
    }

    #[test]
    fn zoc_reaches_8_inches_above_and_below() {
        let low = s2(0.0, 0.0);
        let h = Silhouette::S2.height_in();
        assert!(zoc(&low, &s2(1.0, 0.0).elevated(h + 7.99)).is_inside());
        assert!(!zoc(&low, &s2(1.0, 0.0).elevated(h + 8.01)).is_inside());
        // and symmetric from above
        assert!(zoc(&s2(1.0, 0.0).elevated(h + 7.99), &low).is_inside());
    }

    #[test]
    fn distance_is_edge_to_edge_and_three_dimensional() {
        let d = distance(&s2(0.0, 0.0), &s2(8.9, 0.0));
        assert!((d - (8.9 - 25.0 / 25.4)).abs() < 1e-12);
        // 3" plan gap, 4" height gap → 5".
        let r2 = 2.0 * Silhouette::S2.radius_in();
        let up = s2(3.0 + r2, 0.0).elevated(Silhouette::S2.height_in() + 4.0);
        assert!((distance(&s2(0.0, 0.0), &up) - 5.0).abs() < 1e-9);
        assert_eq!(distance(&s2(0.0, 0.0), &s2(0.5, 0.0)), 0.0);
    }

    #[test]
    fn distance_to_point_measures_from_the_silhouette() {
        let a = s2(0.0, 0.0);
        assert!((distance_to_point(&a, TablePoint::new(5.0, 0.0), 0.5) - (5.0 - a.radius())).abs() < 1e-12);
        assert_eq!(distance_to_point(&a, TablePoint::new(0.1, 0.0), 0.5), 0.0);
    }
}
