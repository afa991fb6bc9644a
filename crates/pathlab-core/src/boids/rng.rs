//! Seeded randomness, so that every scenario replays exactly.
//!
//! Two tools:
//! - [`Pcg32`], a small permuted congruential generator (64-bit state, 32-bit output, the
//!   XSH-RR output function) that scenarios use to place agents;
//! - [`hash3`], a stateless mix of (seed, step, agent) that the per-agent update uses for
//!   wander jitter. Being stateless, it gives the same numbers whatever order the agents are
//!   updated in, which keeps the two-phase update free of shared mutable state.

/// Multiplier of the 64-bit linear congruential step (Knuth's MMIX constant).
const MULTIPLIER: u64 = 6_364_136_223_846_793_005;

/// A seeded pseudo-random generator: permuted congruential, 64-bit state, 32-bit output.
///
/// ```
/// use pathlab_core::boids::Pcg32;
/// let mut a = Pcg32::new(7);
/// let mut b = Pcg32::new(7);
/// assert_eq!(a.next_u32(), b.next_u32());
/// let x = a.range(2.0, 3.0);
/// assert!((2.0..3.0).contains(&x));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pcg32 {
    state: u64,
    increment: u64,
}

impl Pcg32 {
    /// A generator seeded with `seed`; different seeds give unrelated sequences.
    pub fn new(seed: u64) -> Self {
        // The increment must be odd; deriving it from the seed too decorrelates nearby seeds.
        let mut rng = Self { state: 0, increment: (mix64(seed ^ 0x9e37_79b9_7f4a_7c15) << 1) | 1 };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(mix64(seed));
        rng.next_u32();
        rng
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(MULTIPLIER).wrapping_add(self.increment);
        // Xor the high bits down, keep 32 of them, and rotate by the top five bits.
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// A uniform number in [0, 1).
    pub fn unit(&mut self) -> f32 {
        // 24 bits fill an f32 mantissa exactly.
        (self.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
    }

    /// A uniform number in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let x = lo + (hi - lo) * self.unit();
        // Rounding can land exactly on `hi`; keep the interval half-open.
        if x >= hi {
            lo
        } else {
            x
        }
    }

    /// A uniform whole number in 0..n (0 when n is 0).
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        ((u64::from(self.next_u32()) * u64::from(n)) >> 32) as u32
    }
}

/// The SplitMix64 finaliser: a bijective mix of 64 bits in which every input bit affects
/// every output bit.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A uniform number in [-1, 1) that depends only on `(seed, step, agent)`.
///
/// ```
/// use pathlab_core::boids::rng::hash3;
/// assert_eq!(hash3(1, 2, 3), hash3(1, 2, 3));
/// assert_ne!(hash3(1, 2, 3), hash3(1, 2, 4));
/// assert!((-1.0..1.0).contains(&hash3(9, 9, 9)));
/// ```
#[inline]
pub fn hash3(seed: u64, step: u64, agent: u32) -> f32 {
    let h = mix64(seed ^ mix64(step.wrapping_mul(0xd6e8_feb8_6659_fd93) ^ u64::from(agent)));
    ((h >> 40) as f32) * (2.0 / 16_777_216.0) - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_other_seed_other_sequence() {
        let a: Vec<u32> = {
            let mut r = Pcg32::new(42);
            (0..8).map(|_| r.next_u32()).collect()
        };
        let b: Vec<u32> = {
            let mut r = Pcg32::new(42);
            (0..8).map(|_| r.next_u32()).collect()
        };
        let c: Vec<u32> = {
            let mut r = Pcg32::new(43);
            (0..8).map(|_| r.next_u32()).collect()
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn unit_numbers_fill_the_interval_evenly() {
        let mut r = Pcg32::new(1);
        let mut buckets = [0u32; 10];
        for _ in 0..100_000 {
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
            buckets[(u * 10.0) as usize] += 1;
        }
        for b in buckets {
            assert!((9_000..11_000).contains(&b), "{buckets:?}");
        }
        let mut sum = 0.0f64;
        for i in 0..100_000u32 {
            let h = hash3(5, 77, i);
            assert!((-1.0..1.0).contains(&h));
            sum += f64::from(h);
        }
        assert!(sum.abs() / 100_000.0 < 0.01);
    }

    #[test]
    fn below_stays_below() {
        let mut r = Pcg32::new(3);
        assert_eq!(r.below(0), 0);
        for _ in 0..1000 {
            assert!(r.below(7) < 7);
        }
    }
}
