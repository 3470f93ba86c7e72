//! A uniform grid over obstacle boxes: which obstacles may lie near a segment, for the Line of
//! Fire broad phase (so a pair's query looks at the few obstacles near the line between the two
//! troopers instead of every obstacle on the table).
//!
//! # Units
//! Inches, like the rest of the table geometry.

use super::TablePoint;
use super::segment::Aabb;

/// Cells per side at most (a 48" table gets 3" cells with 100 obstacles).
const MAX_CELLS_PER_SIDE: usize = 32;

/// Obstacle boxes binned into square cells; each cell holds a bit set of the obstacles whose box
/// overlaps it.
#[derive(Debug, Clone)]
pub(crate) struct Grid {
    origin: TablePoint,
    cell: f64,
    inv_cell: f64,
    nx: usize,
    ny: usize,
    /// `u64` words per cell (one bit per obstacle).
    words: usize,
    /// `nx · ny · words` words, row by row.
    bits: Vec<u64>,
    /// Obstacles registered everywhere (a box with a non-finite coordinate): always near.
    everywhere: Vec<u64>,
    /// Every obstacle's bit.
    all: Vec<u64>,
}

impl Grid {
    /// A grid over `boxes` (obstacle `k` is bit `k`).
    pub fn new(boxes: &[Aabb]) -> Self {
        let n = boxes.len();
        let words = n.div_ceil(64).max(1);
        let finite =
            |b: &Aabb| b.min.x.is_finite() && b.min.y.is_finite() && b.max.x.is_finite() && b.max.y.is_finite();
        let extent = Aabb::around(boxes.iter().filter(|b| finite(b)).flat_map(|b| [b.min, b.max]));
        let (w, d) = (extent.max.x - extent.min.x, extent.max.y - extent.min.y);
        let side = ((n as f64).sqrt().ceil() as usize * 2).clamp(1, MAX_CELLS_PER_SIDE);
        // (No finite box: one cell, which nothing is binned into.)
        let cell = if w.is_finite() && d.is_finite() { (w.max(d) / side as f64).max(1e-3) } else { 1.0 };
        let origin = if extent.min.x.is_finite() { extent.min } else { TablePoint::new(0.0, 0.0) };
        let count = |len: f64| ((len / cell).floor() as usize + 1).clamp(1, MAX_CELLS_PER_SIDE + 1);
        let (nx, ny) = if w.is_finite() { (count(w), count(d)) } else { (1, 1) };
        let mut grid = Grid {
            origin,
            cell,
            inv_cell: 1.0 / cell,
            nx,
            ny,
            words,
            bits: vec![0; nx * ny * words],
            everywhere: vec![0; words],
            all: vec![0; words],
        };
        for (k, b) in boxes.iter().enumerate() {
            let (word, bit) = (k / 64, 1u64 << (k % 64));
            grid.all[word] |= bit;
            if !finite(b) {
                grid.everywhere[word] |= bit;
                continue;
            }
            let (x0, x1) = (grid.col(b.min.x), grid.col(b.max.x));
            let (y0, y1) = (grid.row(b.min.y), grid.row(b.max.y));
            for iy in y0..=y1 {
                for ix in x0..=x1 {
                    grid.bits[(iy * nx + ix) * words + word] |= bit;
                }
            }
        }
        grid
    }

    /// The column of `x` (clamped to the grid; truncation is the floor here, as the argument is
    /// made non-negative first, and a NaN goes to column 0).
    fn col(&self, x: f64) -> usize {
        (((x - self.origin.x) * self.inv_cell).max(0.0) as usize).min(self.nx - 1)
    }

    fn row(&self, y: f64) -> usize {
        (((y - self.origin.y) * self.inv_cell).max(0.0) as usize).min(self.ny - 1)
    }

    /// Into `out`: the obstacles whose box overlaps a cell that meets segment `a b` grown by `r`
    /// on every side (the segment swept by a square of half-side `r`). Every obstacle whose box
    /// comes within `r` of the segment (in either axis) is included; a non-finite query includes
    /// every obstacle.
    pub fn near_segment(&self, a: TablePoint, b: TablePoint, r: f64, out: &mut Vec<u64>) {
        out.clear();
        out.extend_from_slice(&self.everywhere);
        if !(a.x.is_finite() && a.y.is_finite() && b.x.is_finite() && b.y.is_finite() && r.is_finite()) {
            out.copy_from_slice(&self.all);
            return;
        }
        // A hair wider than asked, so rounding never drops a cell the swept square touches.
        let r = r.max(0.0) + 1e-6 * (1.0 + r.abs());
        let (ylo, yhi) = (a.y.min(b.y) - r, a.y.max(b.y) + r);
        let (xlo, xhi) = (a.x.min(b.x) - r, a.x.max(b.x) + r);
        let (gx1, gy1) = (self.origin.x + self.cell * self.nx as f64, self.origin.y + self.cell * self.ny as f64);
        if xhi < self.origin.x || xlo > gx1 || yhi < self.origin.y || ylo > gy1 {
            return;
        }
        let words = self.words;
        let mut or_cell = |ix: usize, iy: usize| {
            let cell = &self.bits[(iy * self.nx + ix) * words..][..words];
            for (o, c) in out.iter_mut().zip(cell) {
                *o |= c;
            }
        };
        // Step across the segment's shorter extent: band by band (rows, or columns), the cells
        // along the other axis that the swept square reaches within the band.
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let by_rows = dx.abs() >= dy.abs();
        let (lo, hi) = if by_rows { (self.row(ylo), self.row(yhi)) } else { (self.col(xlo), self.col(xhi)) };
        // Along the band axis: start `s0`, change `ds`; across: start `c0`, change `dc`.
        let (s0, ds, c0, dc, origin_s) =
            if by_rows { (a.y, dy, a.x, dx, self.origin.y) } else { (a.x, dx, a.y, dy, self.origin.x) };
        for band in lo..=hi {
            // The stretch of the segment whose points lie within `r` of this band.
            let band0 = origin_s + self.cell * band as f64 - r;
            let band1 = band0 + self.cell + 2.0 * r;
            let (t0, t1) = if ds.abs() <= 1e-12 {
                (0.0, 1.0)
            } else {
                let (u, v) = ((band0 - s0) / ds, (band1 - s0) / ds);
                (u.min(v).max(0.0), u.max(v).min(1.0))
            };
            if t0 > t1 {
                continue;
            }
            let (p, q) = (c0 + dc * t0, c0 + dc * t1);
            let (c_lo, c_hi) = (p.min(q) - r, p.max(q) + r);
            if by_rows {
                for ix in self.col(c_lo)..=self.col(c_hi) {
                    or_cell(ix, band);
                }
            } else {
                for iy in self.row(c_lo)..=self.row(c_hi) {
                    or_cell(band, iy);
                }
            }
        }
    }
}

/// The set bits of `words`, in increasing order.
pub(crate) fn set_bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let k = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 64 + k
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> TablePoint {
        TablePoint::new(x, y)
    }

    /// The L∞ distance from a box to a segment is at most `r` (by dense sampling of the segment).
    fn near(b: &Aabb, a: TablePoint, c: TablePoint, r: f64) -> bool {
        (0..=2000).any(|i| {
            let s = a.lerp(c, i as f64 / 2000.0);
            let dx = (b.min.x - s.x).max(s.x - b.max.x).max(0.0);
            let dy = (b.min.y - s.y).max(s.y - b.max.y).max(0.0);
            dx.max(dy) <= r
        })
    }

    #[test]
    fn every_box_near_the_segment_is_returned() {
        // 150 small boxes scattered over a 48" table (more than two words of bits).
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let boxes: Vec<Aabb> = (0..150)
            .map(|_| {
                let (x, y, w, d) = (rnd() * 48.0 - 2.0, rnd() * 48.0 - 2.0, rnd() * 6.0, rnd() * 6.0);
                Aabb { min: p(x, y), max: p(x + w, y + d) }
            })
            .collect();
        let grid = Grid::new(&boxes);
        let mut out = Vec::new();
        let (mut hits, mut returned) = (0, 0);
        for _ in 0..300 {
            let (a, b, r) =
                (p(rnd() * 60.0 - 6.0, rnd() * 60.0 - 6.0), p(rnd() * 60.0 - 6.0, rnd() * 60.0 - 6.0), rnd());
            grid.near_segment(a, b, r, &mut out);
            let got: Vec<usize> = set_bits(&out).collect();
            for (k, bx) in boxes.iter().enumerate() {
                if near(bx, a, b, r) {
                    hits += 1;
                    assert!(got.contains(&k), "box {k} {bx:?} is within {r} of {a:?}–{b:?}");
                }
            }
            returned += got.len();
        }
        assert!(hits > 300, "the check saw few near boxes: {hits}");
        // And it is a real filter: it returns far fewer than all the boxes.
        assert!(returned < 300 * boxes.len() / 2, "{returned} of {}", 300 * boxes.len());
    }

    #[test]
    fn degenerate_queries_and_boxes_never_panic() {
        let boxes = [
            Aabb { min: p(0.0, 0.0), max: p(1.0, 1.0) },
            Aabb { min: p(f64::NAN, 0.0), max: p(1.0, 1.0) },
            Aabb { min: p(5.0, 5.0), max: p(5.0, 5.0) },
        ];
        let grid = Grid::new(&boxes);
        let mut out = Vec::new();
        grid.near_segment(p(f64::NAN, 0.0), p(1.0, 1.0), 0.5, &mut out);
        assert_eq!(set_bits(&out).collect::<Vec<_>>(), vec![0, 1, 2]);
        grid.near_segment(p(100.0, 100.0), p(101.0, 100.0), 0.5, &mut out);
        assert_eq!(set_bits(&out).collect::<Vec<_>>(), vec![1], "only the box registered everywhere");
        grid.near_segment(p(5.0, 5.0), p(5.0, 5.0), 0.0, &mut out);
        assert!(set_bits(&out).any(|k| k == 2));
        let empty = Grid::new(&[]);
        empty.near_segment(p(0.0, 0.0), p(1.0, 1.0), 1.0, &mut out);
        assert_eq!(set_bits(&out).count(), 0);
    }
}
