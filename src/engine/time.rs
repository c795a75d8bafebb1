//! Time management: turns the clock from `go` into a soft limit (do not start another
//! iteration after it, scaled by how stable the best move is) and a hard limit (abort
//! the search; never exceeded by more than one node-check interval).

use super::{params, Limits};
use crate::chess::Color;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Target time for this move; iterations stop early when the best move is stable.
    pub soft: Duration,
    /// Absolute limit for this move.
    pub hard: Duration,
    /// `movetime`: use all of it (no early stop for a stable best move).
    pub fixed: bool,
}

/// The budget for `us`, or `None` when the search is not limited by time.
pub fn budget(limits: &Limits, us: Color, move_overhead: Duration) -> Option<TimeBudget> {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(move_overhead).max(Duration::from_millis(1));
        return Some(TimeBudget { soft: t, hard: t, fixed: true });
    }
    let (time, inc) = match us {
        Color::White => (limits.wtime?, limits.winc.unwrap_or_default()),
        Color::Black => (limits.btime?, limits.binc.unwrap_or_default()),
    };
    // Every move also costs `move_overhead` of GUI/transport lag that our clock pays
    // but we cannot see. Plan never to dip below a reserve of two such lags (plus
    // 10 ms), and count only the part of the increment that the lag does not eat:
    // with a low clock the engine then moves almost instantly and the increment
    // rebuilds the clock instead of the clock draining to a time loss.
    let reserve = move_overhead * 2 + Duration::from_millis(10);
    let avail = time.saturating_sub(reserve);
    let inc = inc.saturating_sub(move_overhead);
    let mtg = limits.movestogo.map_or(params::tm_moves_to_go() as u32, |m| m.clamp(1, 50));
    let soft = avail / mtg + inc * 3 / 4;
    // The hard limit: several soft budgets, but never more than a fraction of what
    // is available (with one move to go, most of it).
    let cap = if mtg == 1 { avail * 9 / 10 } else { avail / 3 + inc / 2 };
    // And whatever the increment, never plan to use more than the clock itself holds.
    let ceiling = time.saturating_sub(move_overhead);
    let ceiling = if mtg == 1 { ceiling * 9 / 10 } else { ceiling / 2 };
    let hard = (soft * 4).min(cap).min(ceiling).max(Duration::from_millis(1));
    let soft = soft.min(hard);
    Some(TimeBudget { soft, hard, fixed: false })
}

/// How much of the soft limit to use given how many iterations in a row the best move
/// stayed the same (a changing best move deserves more time).
pub fn stability_scale(stable_iterations: u32) -> f64 {
    match stable_iterations {
        0 => 1.4,
        1 => 1.1,
        2 => 0.9,
        3 => 0.75,
        _ => 0.6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        let ms = Duration::from_millis;
        let l = Limits { wtime: Some(ms(1000)), winc: Some(ms(10)), ..Limits::default() };
        let b = budget(&l, Color::White, ms(10)).unwrap();
        assert!(b.soft <= b.hard && b.hard < ms(400), "{b:?}");
        let l = Limits { btime: Some(ms(30)), ..Limits::default() };
        let b = budget(&l, Color::Black, ms(50)).unwrap();
        assert!(b.hard <= ms(1), "{b:?}");
        // Low clock, small increment: move at once so the increment rebuilds the clock.
        let l = Limits { wtime: Some(ms(60)), winc: Some(ms(10)), ..Limits::default() };
        let b = budget(&l, Color::White, ms(30)).unwrap();
        assert_eq!(b.hard, ms(1), "{b:?}");
        // A big increment does not tempt it to spend more than the clock holds.
        let l = Limits { wtime: Some(ms(20)), winc: Some(ms(100)), ..Limits::default() };
        let b = budget(&l, Color::White, ms(10)).unwrap();
        assert!(b.hard <= ms(5), "{b:?}");
        let l = Limits { wtime: Some(ms(10_000)), movestogo: Some(1), ..Limits::default() };
        let b = budget(&l, Color::White, ms(10)).unwrap();
        assert!(b.hard < ms(10_000) && b.hard > ms(5_000), "{b:?}");
        assert!(budget(&Limits::default(), Color::White, ms(10)).is_none());
        let l = Limits { movetime: Some(ms(100)), ..Limits::default() };
        assert_eq!(budget(&l, Color::White, ms(10)).unwrap().hard, ms(90));
    }
}
