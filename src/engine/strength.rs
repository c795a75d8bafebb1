//! Playing below full strength (`UCI_LimitStrength`, `UCI_Elo`), the way weaker people
//! play: they see less far ahead, misjudge positions a little, do not always choose the
//! best of the moves they considered, and take their time without using all of it.
//!
//! One internal knob, the *skill* (higher is stronger), sets all of it ([`Level::at_skill`]):
//! - **Nodes per move** `32 * 2^(skill/8)`: the search is the engine's own, only shorter
//!   (about one ply plus captures at the bottom, close to full strength at the top).
//! - **Several lines, a noisy choice**: the root is searched for a few lines (an internal
//!   MultiPV) and the move is drawn among them with probability proportional to
//!   `exp(score / T)`. That is the same as adding random noise of scale `T` (Gumbel) to
//!   each line's score and playing the best: evaluation noise at the root. `T` shrinks
//!   with skill and is 0 (always the best line) from [`SKILL_EXACT`] up.
//! - **Never a wild blunder for a good player**: a line more than `max_loss` (about 4·T)
//!   below the best is never played. A strong level never gives a piece away that its
//!   search saw; the weakest hang one now and then, as beginners do.
//! - **Time like a person's**: the move comes after a share of the normal time budget,
//!   jittered, quickly when there is a single reply ([`Level::think_time`]); never
//!   instantly, never the whole clock.
//!
//! Which skill a `UCI_Elo` gets is measured, not guessed: `scripts/calibrate_levels.py` plays
//! the levels against engines with published CCRL Blitz ratings and writes the measured
//! (skill, Elo) points to `strength_fit.rs`; [`skill_for_elo`] interpolates between them.
//! With the option off none of this runs (the search is the normal one).

use super::strength_fit::POINTS;
use super::time::TimeBudget;
use super::Limits;
use crate::chess::Position;
use crate::rng::{self, Rng};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The weakest and strongest skill a level can have.
const SKILL_MIN: f64 = -40.0;
const SKILL_MAX: f64 = 120.0;
/// From this skill up the best line is always played (no noise).
const SKILL_EXACT: f64 = 80.0;
/// Noise scale (centipawns) at skill 0.
const T_AT_ZERO: f64 = 250.0;
/// At most this many lines are considered.
const MAX_LINES: usize = 8;

/// What one strength level does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    pub skill: f64,
    /// Node budget of a move's search.
    pub nodes: u64,
    /// Root lines searched and chosen among.
    pub lines: usize,
    /// Noise scale of the choice, in centipawns (0: always the best line).
    pub temperature: f64,
    /// A line this many centipawns below the best is never chosen.
    pub max_loss: i32,
}

impl Level {
    /// The level whose measured strength is `elo` (CCRL Blitz scale; see [`skill_for_elo`]).
    pub fn for_elo(elo: u32) -> Level {
        Level::at_skill(skill_for_elo(f64::from(elo)))
    }

    /// The settings of one skill (clamped to [`SKILL_MIN`]..=[`SKILL_MAX`]).
    fn at_skill(skill: f64) -> Level {
        let s = skill.clamp(SKILL_MIN, SKILL_MAX);
        let nodes = (32.0 * (s / 8.0).exp2()).round().max(1.0) as u64;
        let temperature = if s >= SKILL_EXACT { 0.0 } else { T_AT_ZERO * ((SKILL_EXACT - s) / SKILL_EXACT).powi(2) };
        let lines = (1 + (temperature / 40.0).ceil() as usize).min(MAX_LINES);
        let lines = if temperature > 0.0 { lines } else { 1 };
        Level { skill: s, nodes, lines, temperature, max_loss: (4.0 * temperature).round() as i32 }
    }

    /// Which of the searched lines to play: `scores` are the lines' scores (centipawns
    /// from the side to move), best first; `u` is uniform in [0, 1). Always 0 without
    /// noise; never a line more than `max_loss` below the best.
    pub fn pick(&self, scores: &[i32], u: f64) -> usize {
        let Some(&best) = scores.first() else { return 0 };
        if self.temperature <= 0.0 {
            return 0;
        }
        let weights: Vec<f64> = scores
            .iter()
            .take_while(|&&s| best.saturating_sub(s) <= self.max_loss)
            .map(|&s| (f64::from(s.saturating_sub(best)) / self.temperature).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut target = u.clamp(0.0, 1.0) * total;
        for (i, w) in weights.iter().enumerate() {
            if target < *w {
                return i;
            }
            target -= w;
        }
        0
    }

    /// How long to take over a move whose normal time budget is `soft` (and may never
    /// exceed `hard`): 35% of it at the weakest level to 60% at the strongest, times a
    /// jitter from `u` (0.5x..1.5x), a quarter of that with a single legal reply.
    pub fn think_time(&self, soft: Duration, hard: Duration, single_reply: bool, u: f64) -> Duration {
        let share = 0.35 + 0.25 * (self.skill - SKILL_MIN) / (SKILL_MAX - SKILL_MIN);
        let jitter = 0.5 + u.clamp(0.0, 1.0);
        let reply = if single_reply { 0.25 } else { 1.0 };
        soft.mul_f64(share * jitter * reply).min(hard)
    }
}

/// A level applied to one search: what the search is told (fewer nodes, more lines, a
/// shorter time budget), the choice among its lines, and when to answer.
#[derive(Clone, Copy, Debug)]
pub struct Handicap {
    pub level: Level,
    dice: Dice,
    /// Do not answer before this much of our clock has passed (clock-limited searches).
    think: Option<Duration>,
}

impl Handicap {
    /// Applies `level` to a search of `pos`: caps `limits.nodes` at the level's budget
    /// and shortens the time `budget` to the level's thinking time.
    pub fn new(level: Level, pos: &Position, limits: &mut Limits, budget: &mut Option<TimeBudget>) -> Handicap {
        let dice = Dice::new(pos.key());
        limits.nodes = Some(limits.nodes.map_or(level.nodes, |n| n.min(level.nodes)));
        let think = budget.as_mut().map(|b| {
            let single_reply = crate::chess::legal_moves(pos).len() == 1;
            let t = level.think_time(b.soft, b.hard, single_reply, dice.uniform(0));
            b.soft = t;
            b.fixed = false;
            t
        });
        Handicap { level, dice, think }
    }

    /// How many root lines the search must score.
    pub fn lines(&self) -> usize {
        self.level.lines
    }

    /// Which line to play, given the lines' scores, best first.
    pub fn choose(&self, scores: &[i32]) -> usize {
        self.level.pick(scores, self.dice.uniform(1))
    }

    /// The answer waits until this much time has counted against our clock.
    pub fn think_time(&self) -> Option<Duration> {
        self.think
    }
}

/// The skill whose measured strength is `elo`: linear between the calibration points
/// (`strength_fit::POINTS`, strength rising with skill), extended along the end segments,
/// clamped to the skill range.
fn skill_for_elo(elo: f64) -> f64 {
    let n = POINTS.len();
    let seg = match POINTS.windows(2).position(|w| elo <= w[1].1) {
        Some(i) => i,
        None => n.saturating_sub(2),
    };
    let ((s0, e0), (s1, e1)) = (POINTS[seg], POINTS[(seg + 1).min(n - 1)]);
    let skill = if e1 > e0 { s0 + (elo - e0) * (s1 - s0) / (e1 - e0) } else { s0 };
    skill.clamp(SKILL_MIN, SKILL_MAX)
}

/// Random numbers for one search's choices: different in every search (a global counter
/// mixed with the clock at start-up and the position), reproducible from the seed.
#[derive(Clone, Copy, Debug)]
struct Dice(u64);

impl Dice {
    pub fn new(position_key: u64) -> Dice {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let start = *START_SEED;
        Dice(start ^ position_key ^ COUNTER.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed))
    }

    #[cfg(test)]
    fn from_seed(seed: u64) -> Dice {
        Dice(seed)
    }

    /// Uniform in [0, 1), the `n`-th number of this search's stream.
    pub fn uniform(&self, n: u64) -> f64 {
        rng::unit(Rng::nth(self.0, n))
    }
}

static START_SEED: once_cell::sync::Lazy<u64> = once_cell::sync::Lazy::new(|| {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stronger_levels_search_more_and_choose_better() {
        let mut prev = Level::at_skill(SKILL_MIN);
        for s in (SKILL_MIN as i32..=SKILL_MAX as i32).step_by(5) {
            let l = Level::at_skill(f64::from(s));
            assert!(l.nodes >= prev.nodes && l.temperature <= prev.temperature && l.max_loss <= prev.max_loss, "{l:?}");
            assert!((1..=MAX_LINES).contains(&l.lines));
            prev = l;
        }
        let top = Level::at_skill(SKILL_MAX);
        assert_eq!((top.lines, top.temperature, top.max_loss), (1, 0.0, 0));
        assert!(top.nodes >= 1_000_000);
    }

    #[test]
    fn the_elo_map_is_monotone_and_covers_the_option_range() {
        assert!(POINTS.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1), "{POINTS:?}");
        let mut prev = f64::NEG_INFINITY;
        for elo in (1000..=2800).step_by(50) {
            let s = skill_for_elo(f64::from(elo));
            assert!(s >= prev && (SKILL_MIN..=SKILL_MAX).contains(&s), "{elo} -> {s}");
            prev = s;
        }
        // The calibration points themselves map back to their skills.
        for &(s, e) in POINTS {
            if (SKILL_MIN..=SKILL_MAX).contains(&s) {
                assert!((skill_for_elo(e) - s).abs() < 1e-6 || POINTS.iter().filter(|p| p.1 == e).count() > 1);
            }
        }
    }

    #[test]
    fn the_choice_follows_the_scores() {
        let weak = Level::at_skill(0.0);
        let strong = Level::at_skill(60.0);
        let scores = [50, 30, -250, -900];
        let dice = Dice::from_seed(7);
        let mut weak_counts = [0; 4];
        let mut strong_counts = [0; 4];
        for n in 0..20_000 {
            weak_counts[weak.pick(&scores, dice.uniform(n))] += 1;
            strong_counts[strong.pick(&scores, dice.uniform(n))] += 1;
        }
        // The best line is the most frequent; a weak player sometimes drops a piece...
        assert!(weak_counts[0] > weak_counts[1] && weak_counts[1] > weak_counts[2], "{weak_counts:?}");
        assert!(weak_counts[2] > 0, "{weak_counts:?}");
        // ...a strong one never, and never the queen.
        assert_eq!(strong_counts[2] + strong_counts[3], 0, "{strong_counts:?}");
        assert!(strong_counts[1] > 0 && strong_counts[0] > strong_counts[1], "{strong_counts:?}");
        assert_eq!(Level::at_skill(SKILL_EXACT).pick(&scores, 0.99), 0);
        assert_eq!(weak.pick(&[], 0.5), 0);
    }

    #[test]
    fn thinking_takes_part_of_the_budget() {
        let (soft, hard) = (Duration::from_secs(4), Duration::from_secs(10));
        for s in [SKILL_MIN, 0.0, 60.0, SKILL_MAX] {
            let l = Level::at_skill(s);
            for u in [0.0, 0.5, 0.999] {
                let t = l.think_time(soft, hard, false, u);
                assert!(t >= Duration::from_millis(600) && t <= soft, "{s} {u} {t:?}");
                assert!(l.think_time(soft, hard, true, u) < t);
            }
        }
        assert_eq!(
            Level::at_skill(0.0).think_time(soft, Duration::from_millis(5), false, 0.9),
            Duration::from_millis(5)
        );
    }

    #[test]
    fn dice_are_uniform_and_differ_between_searches() {
        let d = Dice::from_seed(1);
        let mean = (0..10_000).map(|n| d.uniform(n)).sum::<f64>() / 10_000.0;
        assert!((mean - 0.5).abs() < 0.02, "{mean}");
        assert!((0..1000).all(|n| (0.0..1.0).contains(&d.uniform(n))));
        assert_ne!(Dice::new(5).uniform(0), Dice::new(5).uniform(0));
    }
}
