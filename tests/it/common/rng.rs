//! The one deterministic generator of the tests (differential move generation, fuzzing,
//! UCI torture): a failure names its seed and replays exactly.

/// xorshift64: fast, deterministic, good enough to drive generators.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform-ish in 0..n (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.below_u64(n as u64) as usize
    }
    pub fn below_u64(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    /// True with probability 1/n.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}
