//! The tests' generator (differential move generation, fuzzing, UCI torture): the crate's own
//! seeded SplitMix64 ([`arbiter::rng::Rng`]) with the helpers the generators use. A failure
//! names its seed and replays exactly.

pub struct Rng(arbiter::rng::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(arbiter::rng::Rng::new(seed))
    }
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in 0..n (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.below_u64(n as u64) as usize
    }
    pub fn below_u64(&mut self, n: u64) -> u64 {
        self.0.below(n.max(1))
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    /// True with probability 1/n.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}
