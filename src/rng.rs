//! The crate's one pseudo-random generator: SplitMix64 (Steele, Lea and Flood, 2014). Seeded and
//! deterministic, so Zobrist keys, magic tables, shuffled books, training runs and strength
//! levels are reproducible from their seeds; `const`, so the Zobrist keys are made at compile
//! time. Not for cryptography.

/// The increment of the generator's state (2^64 divided by the golden ratio, made odd).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a bijection of 64-bit words whose every output bit depends on
/// every input bit.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A SplitMix64 stream. The same seed gives the same numbers on every machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The `n`-th number (from 0) of the stream seeded with `seed`, without stepping through the
    /// ones before it: `Rng::nth(s, n)` is the `n + 1`-th `next_u64` of `Rng::new(s)`.
    pub const fn nth(seed: u64, n: u64) -> u64 {
        mix(seed.wrapping_add(n.wrapping_add(1).wrapping_mul(GAMMA)))
    }

    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix(self.0)
    }

    /// Uniform in `0..n` (`n` > 0; the modulo bias, below n / 2^64, does not matter here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Uniform in `[0, 1)`, from the top 53 bits.
    pub fn uniform(&mut self) -> f64 {
        unit(self.next_u64())
    }

    /// A Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

/// A 64-bit random word as a number in `[0, 1)` (its top 53 bits).
pub fn unit(word: u64) -> f64 {
    (word >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_splitmix64_sequence() {
        // The reference outputs of SplitMix64 seeded with 1234567 (Vigna's splitmix64.c).
        let mut r = Rng::new(1234567);
        let want = [6457827717110365317u64, 3203168211198807973, 9817491932198370423, 4593380528125082431];
        for w in want {
            assert_eq!(r.next_u64(), w);
        }
        assert_eq!(Rng::nth(1234567, 3), want[3]);
    }

    #[test]
    fn shuffles_are_permutations_and_depend_on_the_seed() {
        let mut a: Vec<u32> = (0..100).collect();
        let mut b = a.clone();
        Rng::new(1).shuffle(&mut a);
        Rng::new(2).shuffle(&mut b);
        assert_ne!(a, b);
        a.sort_unstable();
        assert_eq!(a, (0..100).collect::<Vec<_>>());
        let u = Rng::new(3).uniform();
        assert!((0.0..1.0).contains(&u));
    }
}
