//! N4 Silhouettes: the cylinder each trooper occupies for contact, distances, ZoC and LoF.
//!
//! Values from the Silhouette chart (rules digest §2, "Silhouettes"): base diameter and height in
//! millimetres as printed, converted to inches here and nowhere else (25.4 mm = 1").
//!
//! **Assumption `SILHOUETTE_CHART`** (digest marks S2–S8 heights ⚠️, seen in the N3 chart and
//! carried into N5): the heights below are the N3/N5 chart's. Change [`Silhouette::height_mm`] if
//! the N4 PDF says otherwise. S0 (Prone) uses a 25 mm base here; a prone trooper keeps its own base,
//! which callers model by keeping the original Silhouette's base (see [`Silhouette::prone`]).

use super::MM_PER_INCH;
use serde::{Deserialize, Serialize};

/// An N4 Silhouette value, S0 to S8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum Silhouette {
    /// S0: Prone troopers and small markers, 3 mm tall.
    S0,
    /// S1: small remotes and drones.
    S1,
    /// S2: infantry.
    S2,
    /// S3: bikes, some remotes.
    S3,
    /// S4: large bikes.
    S4,
    /// S5: heavy infantry.
    S5,
    /// S6: large heavy infantry, bipeds.
    S6,
    /// S7: TAGs.
    S7,
    /// S8: large TAGs.
    S8,
}

/// A Silhouette value outside S0–S8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not an N4 Silhouette (expected 0 to 8)")]
pub struct BadSilhouette(pub u8);

impl TryFrom<u8> for Silhouette {
    type Error = BadSilhouette;
    fn try_from(v: u8) -> Result<Self, BadSilhouette> {
        use Silhouette::*;
        Ok(match v {
            0 => S0,
            1 => S1,
            2 => S2,
            3 => S3,
            4 => S4,
            5 => S5,
            6 => S6,
            7 => S7,
            8 => S8,
            _ => return Err(BadSilhouette(v)),
        })
    }
}

impl From<Silhouette> for u8 {
    fn from(s: Silhouette) -> u8 {
        s as u8
    }
}

/// Per Silhouette, S0 to S8: base radius (`heights` false) or height in inches, converted from
/// the chart's millimetres once, at compile time (LoF asks for them in its hottest loops).
const fn chart_in(heights: bool) -> [f64; 9] {
    let mut t = [0.0; 9];
    let mut i = 0;
    while i < 9 {
        let s = Silhouette::ALL[i];
        t[i] = if heights { s.height_mm() / MM_PER_INCH } else { s.base_diameter_mm() / 2.0 / MM_PER_INCH };
        i += 1;
    }
    t
}
const RADIUS_IN: [f64; 9] = chart_in(false);
const HEIGHT_IN: [f64; 9] = chart_in(true);

impl Silhouette {
    /// Every Silhouette, S0 to S8.
    pub const ALL: [Silhouette; 9] = {
        use Silhouette::*;
        [S0, S1, S2, S3, S4, S5, S6, S7, S8]
    };

    /// The number after the S.
    pub fn value(self) -> u8 {
        self as u8
    }

    /// Base diameter in millimetres, as the rulebook gives it (25 / 40 / 55 / 70 mm).
    pub const fn base_diameter_mm(self) -> f64 {
        use Silhouette::*;
        match self {
            S0 | S1 | S2 => 25.0,
            S3 | S5 | S6 => 40.0,
            S4 | S7 => 55.0,
            S8 => 70.0,
        }
    }

    /// Silhouette height in millimetres (assumption `SILHOUETTE_CHART`, see the module docs).
    pub const fn height_mm(self) -> f64 {
        use Silhouette::*;
        match self {
            S0 => 3.0,
            S1 => 25.0,
            S2 => 40.0,
            S3 | S4 => 32.0,
            S5 => 45.0,
            S6 => 55.0,
            S7 => 67.0,
            S8 => 70.0,
        }
    }

    /// Base radius in inches.
    pub fn radius_in(self) -> f64 {
        RADIUS_IN[self as usize]
    }

    /// Height in inches.
    pub fn height_in(self) -> f64 {
        HEIGHT_IN[self as usize]
    }

    /// The Silhouette a trooper of this one has when Prone: S0 height on its own base
    /// (digest §2: "S0 … prone: original base"). Returns the base radius to keep, in inches.
    pub fn prone(self) -> (Silhouette, f64) {
        (Silhouette::S0, self.radius_in())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_sizes_follow_the_chart_in_inches() {
        assert!((Silhouette::S2.radius_in() - 12.5 / 25.4).abs() < 1e-12);
        assert!((Silhouette::S8.radius_in() * 2.0 * 25.4 - 70.0).abs() < 1e-9);
        assert!((Silhouette::S5.height_in() * 25.4 - 45.0).abs() < 1e-9);
    }

    #[test]
    fn silhouette_values_round_trip_and_reject_out_of_range() {
        for s in Silhouette::ALL {
            assert_eq!(Silhouette::try_from(s.value()), Ok(s));
        }
        assert_eq!(Silhouette::try_from(9), Err(BadSilhouette(9)));
    }
}
