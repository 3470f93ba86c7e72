//! Terrain pieces: a polygon footprint raised to a height (2.5D).
//!
//! A building is a tall piece; a crate a low one. A piece blocks a line where the line passes
//! over its footprint's interior lower than its height (N4 "Line of Fire": scenery blocks LoF).
//! A piece may reach past the table edge; the part outside is kept (it can still block lines
//! between troopers near the edge) and the visibility polygon is clipped to the table.

use super::TablePoint;
use super::segment::{Aabb, segments_touch, signed_area};
use serde::{Deserialize, Serialize};
use std::ops::Sub as _;

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
    /// Two non-adjacent edges cross or touch.
    #[error("its polygon crosses itself: edge {0} (from point {0}) meets edge {1} (from point {1})")]
    SelfIntersecting(usize, usize),
}

impl Terrain {
    /// A piece named `id` with footprint `polygon` and height `height_in`, validated.
    pub fn new(id: impl Into<String>, polygon: Vec<TablePoint>, height_in: f64) -> Result<Self, TerrainError> {
        let t = Self { id: id.into(), polygon, height_in };
        t.validate()?;
        Ok(t)
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
        Ok(())
    }

    pub(crate) fn aabb(&self) -> Aabb {
        Aabb::around(self.polygon.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
