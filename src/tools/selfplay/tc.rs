//! Time controls and per-move limits: `--tc` in Cute Chess syntax (`[moves/]time[+increment]`,
//! seconds, `inf` for none), or fixed `--nodes`, `--depth`, `--movetime` (as `engine::Limits`).

use crate::engine::Limits;
use std::fmt;
use std::time::Duration;

/// A clock: `moves` moves in `base`, repeating, plus `increment` after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`40/60` = 40 moves in 60 s, then another 60 s); `None` = sudden death.
    pub moves: Option<u32>,
    pub base: Duration,
    pub increment: Duration,
}

/// What each player gets for a move: a clock, or the same fixed limits (nodes, depth, move
/// time) every move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    Clock(TimeControl),
    Fixed(Limits),
}

/// A `--tc` that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TcError {
    Empty,
    BadNumber { text: String, what: &'static str },
    ZeroTime(String),
}

impl fmt::Display for TcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TcError::Empty => write!(f, "empty time control (expected e.g. 10+0.1 or 40/60+0.5)"),
            TcError::BadNumber { text, what } => {
                write!(f, "bad {what} '{text}' in time control (expected [moves/]seconds[+increment], e.g. 10+0.1)")
            }
            TcError::ZeroTime(s) => write!(f, "time control '{s}' gives no time at all"),
        }
    }
}

impl std::error::Error for TcError {}

fn parse_seconds(text: &str, what: &'static str) -> Result<Duration, TcError> {
    let bad = || TcError::BadNumber { text: text.to_string(), what };
    // Cute Chess also accepts minutes:seconds for the base time.
    let secs = if let Some((m, s)) = text.split_once(':') {
        let m: f64 = m.trim().parse().map_err(|_| bad())?;
        let s: f64 = s.trim().parse().map_err(|_| bad())?;
        m * 60.0 + s
    } else {
        text.trim().parse::<f64>().map_err(|_| bad())?
    };
    if !secs.is_finite() || !(0.0..=1.0e7).contains(&secs) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(secs))
}

impl TimeControl {
    /// Parses `[moves/]time[+increment]` with times in seconds (`10+0.1`, `40/60`, `0:30+1`).
    pub fn parse(text: &str) -> Result<TimeControl, TcError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(TcError::Empty);
        }
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let n: u32 =
                    m.trim().parse().map_err(|_| TcError::BadNumber { text: m.to_string(), what: "move count" })?;
                if n == 0 {
                    return Err(TcError::BadNumber { text: m.to_string(), what: "move count" });
                }
                (Some(n), rest)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (parse_seconds(b, "base time")?, parse_seconds(i, "increment")?),
            None => (parse_seconds(rest, "base time")?, Duration::ZERO),
        };
        if base.is_zero() && inc.is_zero() {
            return Err(TcError::ZeroTime(text.to_string()));
        }
        Ok(TimeControl { moves, base, increment: inc })
    }

    /// The PGN `TimeControl` tag value (seconds): `600+0.1`... as PGN spec's `moves/seconds` or `seconds+inc`.
    pub fn pgn_tag(&self) -> String {
        let secs = |d: Duration| {
            let s = format!("{:.3}", d.as_secs_f64());
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        let mut out = String::new();
        if let Some(m) = self.moves {
            out.push_str(&format!("{m}/"));
        }
        out.push_str(&secs(self.base));
        if !self.increment.is_zero() {
            out.push('+');
            out.push_str(&secs(self.increment));
        }
        out
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pgn_tag())
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub tc: TimeControl,
    pub remaining: Duration,
    /// Moves this side has completed.
    pub moves_made: u32,
}

impl Clock {
    pub fn new(tc: TimeControl) -> Clock {
        Clock { tc, remaining: tc.base, moves_made: 0 }
    }

    /// Moves left until the next time control (the UCI `movestogo`), if the control has periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves_made % m)
    }

    /// Charges `used` for one move. Returns false when the flag fell (used more than remaining).
    pub fn charge(&mut self, used: Duration) -> bool {
        if used > self.remaining {
            self.remaining = Duration::ZERO;
            return false;
        }
        self.remaining = self.remaining - used + self.tc.increment;
        self.moves_made += 1;
        if let Some(m) = self.tc.moves {
            if self.moves_made.is_multiple_of(m) {
                self.remaining += self.tc.base;
            }
        }
        true
    }
}

impl MoveLimit {
    /// A description for logs and the PGN `TimeControl` tag (`-` when there is no clock, per the PGN standard).
    pub fn pgn_tag(&self) -> String {
        match self {
            MoveLimit::Clock(tc) => tc.pgn_tag(),
            MoveLimit::Fixed(_) => "-".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cutechess_syntax() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(
            tc,
            TimeControl { moves: None, base: Duration::from_secs(10), increment: Duration::from_millis(100) }
        );
        let tc = TimeControl::parse("40/60+0.5").unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.base, Duration::from_secs(60));
        assert_eq!(TimeControl::parse("0:30").unwrap().base, Duration::from_secs(30));
        assert_eq!(TimeControl::parse("1:30+1").unwrap().base, Duration::from_secs(90));
        assert_eq!(TimeControl::parse("1+0.01").unwrap().pgn_tag(), "1+0.01");
        assert_eq!(TimeControl::parse("40/60").unwrap().pgn_tag(), "40/60");
    }

    #[test]
    fn rejects_garbage() {
        for bad in ["", "abc", "10+", "+1", "/10", "0/10", "-5", "0+0", "10+x", "nan", "inf"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn clock_periods_and_flag() {
        let mut c = Clock::new(TimeControl::parse("2/10+1").unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_secs(4)));
        assert_eq!(c.remaining, Duration::from_secs(7));
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(Duration::from_secs(4)));
        assert_eq!(c.remaining, Duration::from_secs(14));
        assert!(!c.charge(Duration::from_secs(15)));
    }
}
