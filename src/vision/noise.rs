//! A tiny deterministic random source: xorshift64* for uniforms, Box–Muller for Gaussians.

/// A seeded pseudo-random generator with Gaussian samples (xorshift64* + Box–Muller).
///
/// Deterministic for a given seed on every platform, so error estimates and tests repeat exactly. Not for anything that
/// needs unpredictability.
#[derive(Debug, Clone)]
pub struct NormalRng {
    state: u64,
    spare: Option<f64>,
}

impl NormalRng {
    /// A generator started from `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Self {
        // Mix the seed (splitmix64 finaliser) so nearby seeds give unrelated streams; xorshift needs a non-zero state.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Self { state: if z == 0 { 0x2545_F491_4F6C_DD1D } else { z }, spare: None }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform sample in `[0, 1)`.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform sample in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// A standard normal sample (mean 0, standard deviation 1).
    pub fn normal(&mut self) -> f64 {
        if let Some(s) = self.spare.take() {
            return s;
        }
        let u1 = 1.0 - self.uniform(); // (0, 1]: ln is finite
        let u2 = self.uniform();
        let r = (-2.0 * u1.ln()).sqrt();
        let (s, c) = (std::f64::consts::TAU * u2).sin_cos();
        self.spare = Some(r * s);
        r * c
    }
}

#[cfg(test)]
mod tests {
    use super::NormalRng;

    #[test]
    fn normal_samples_have_unit_variance_and_repeat() {
        let mut a = NormalRng::new(7);
        let xs: Vec<f64> = (0..20_000).map(|_| a.normal()).collect();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64;
        assert!(mean.abs() < 0.03, "{mean}");
        assert!((var - 1.0).abs() < 0.04, "{var}");
        let mut b = NormalRng::new(7);
        assert_eq!(b.normal(), xs[0]);
    }
}
