//! Match statistics: score, logistic Elo difference with a 95 % interval, likelihood of
//! superiority (LOS), and a sequential probability ratio test (SPRT).
//!
//! The SPRT is Michel Van den Bergh's generalised SPRT for a multinomial sample (as fishtest,
//! OpenBench and fastchess run it; logistic Elo as fastchess's `model=logistic`): the LLR compares
//! the maximum-likelihood outcome distributions whose expected scores are `s0`, `s1` (the
//! logistic scores of `elo0`, `elo1`). A sample is one game (trinomial W/D/L) or, when every
//! opening is played twice with colours reversed, one game pair (pentanomial: pair scores 0, ½,
//! 1, 1½, 2). The pentanomial model is used whenever complete pairs exist, because it removes the
//! opening's bias from the variance. `scripts/sprt_llr.py` recomputes an LLR independently.

use std::fmt;

/// `1 - alpha/2` quantile of the normal distribution for a 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The error function (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Logistic Elo difference for an expected score in (0, 1); ±infinity at the ends.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Likelihood of superiority from wins and losses (draws carry no information):
/// `½ (1 + erf((W - L) / √(2 (W + L))))`.
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * (wins + losses) as f64).sqrt()))
}

/// Game results from player A's point of view, plus pair results when games come in pairs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// `penta[k]` = number of game pairs in which A scored `k/2` points (k = 0..4).
    pub penta: [u64; 5],
}

/// An Elo estimate with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |x| signed_elo(x, 1);
        write!(f, "{} [{}, {}]", show(self.elo), show(self.low), show(self.high))
    }
}

/// An Elo figure with its sign and `decimals` places (`+58`, `-3.2`, `+inf` for a perfect
/// score); `-0` is written `+0`.
pub fn signed_elo(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{:+.*}", decimals, x + 0.0)
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

impl Tally {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Records one game: `points` for A is 1.0, 0.5 or 0.0.
    pub fn add_game(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Records a completed pair (A's points over its two games, 0.0..=2.0).
    pub fn add_pair(&mut self, points: f64) {
        let k = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.penta[k] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// A's mean score per game.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        self.draws as f64 / n as f64
    }

    /// The outcome counts the SPRT models and the score of each outcome: pairs scoring 0, ½, 1,
    /// 1½, 2 (scaled to 0..1) when complete pairs exist, else games lost, drawn, won.
    fn sprt_sample(&self) -> (SprtModel, Vec<u64>, Vec<f64>) {
        if self.pairs() > 0 {
            (SprtModel::Pentanomial, self.penta.to_vec(), vec![0.0, 0.25, 0.5, 0.75, 1.0])
        } else {
            (SprtModel::Trinomial, vec![self.losses, self.draws, self.wins], vec![0.0, 0.5, 1.0])
        }
    }

    /// (samples, mean, variance) of the per-game score (trinomial).
    fn trinomial_moments(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 0.5, 0.0);
        }
        let mu = self.score();
        let var = (self.wins as f64 * (1.0 - mu).powi(2)
            + self.draws as f64 * (0.5 - mu).powi(2)
            + self.losses as f64 * mu.powi(2))
            / n;
        (n, mu, var)
    }

    /// Elo difference (A minus B) with a 95 % interval from the per-game (trinomial) variance.
    pub fn elo(&self) -> EloEstimate {
        let (n, mu, var) = self.trinomial_moments();
        let elo = elo_from_score(mu);
        if n == 0.0 {
            return EloEstimate { elo: 0.0, low: f64::NEG_INFINITY, high: f64::INFINITY };
        }
        let se = (var / n).sqrt();
        EloEstimate { elo, low: elo_from_score(mu - Z95 * se), high: elo_from_score(mu + Z95 * se) }
    }

    pub fn los(&self) -> f64 {
        los(self.wins, self.losses)
    }
}

/// SPRT parameters: H0 "Elo = elo0" against H1 "Elo = elo1", error rates alpha and beta.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Which likelihood model an SPRT value was computed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    Trinomial,
    Pentanomial,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    Continue,
    /// LLR reached the lower bound: accept H0 (the change is not better by elo1).
    AcceptH0,
    /// LLR reached the upper bound: accept H1.
    AcceptH1,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SprtParseError(pub String);

impl fmt::Display for SprtParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad --sprt '{}' (expected e.g. \"elo0=0 elo1=5 alpha=0.05 beta=0.05\")", self.0)
    }
}

impl std::error::Error for SprtParseError {}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (spaces or commas; alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, SprtParseError> {
        let err = || SprtParseError(text.to_string());
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for part in text.split([' ', ',']).filter(|s| !s.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(err)?;
            let v: f64 = v.parse().map_err(|_| err())?;
            if !v.is_finite() {
                return Err(err());
            }
            match k {
                "elo0" => elo0 = Some(v),
                "elo1" => elo1 = Some(v),
                "alpha" => alpha = v,
                "beta" => beta = v,
                _ => return Err(err()),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else { return Err(err()) };
        if elo0 >= elo1 || !(0.0 < alpha && alpha < 0.5) || !(0.0 < beta && beta < 0.5) {
            return Err(err());
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// (lower, upper) LLR bounds: `ln(β/(1-α))`, `ln((1-β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the results, and the model used (pentanomial when pairs exist).
    pub fn llr(&self, t: &Tally) -> (f64, SprtModel) {
        let (model, counts, values) = t.sprt_sample();
        (gsprt_llr(&counts, &values, score_from_elo(self.elo0), score_from_elo(self.elo1)), model)
    }

    /// Accept a hypothesis when the LLR reaches its bound (pairs with `--repeat`, games without).
    pub fn decision(&self, t: &Tally) -> SprtDecision {
        let (llr, _) = self.llr(t);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Weight of an outcome never observed, so that every outcome stays possible under both
/// hypotheses (fishtest, OpenBench and fastchess regularise with the same 1e-3).
const EMPTY_CATEGORY: f64 = 1e-3;

/// The generalised SPRT's log-likelihood ratio for `counts[i]` samples of score `values[i]`
/// (ascending, spanning 0..1): `N` times the mean log-ratio of the maximum-likelihood
/// distributions with expected score `s1` and `s0` (Van den Bergh, "Comments on Normalized Elo",
/// proposition 1.1: `p_i = q_i / (1 + θ (a_i - s))`, `q` the regularised empirical distribution).
///
/// Exact, not the normal approximation `N (s1 - s0) (2 m - s0 - s1) / (2 v)` this replaced: that
/// one divides by the sample variance, which over one or two pairs is only the regularising
/// fractions, so a single 1.5-0.5 pair scored LLR 3.73 at elo1 = 10 and decided the test. A few
/// samples are explained almost equally well under either hypothesis, so here that pair scores
/// 0.028; for large samples the two agree.
fn gsprt_llr(counts: &[u64], values: &[f64], s0: f64, s1: f64) -> f64 {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return 0.0;
    }
    let weights: Vec<f64> = counts.iter().map(|&c| if c == 0 { EMPTY_CATEGORY } else { c as f64 }).collect();
    let total: f64 = weights.iter().sum();
    let q: Vec<f64> = weights.iter().map(|w| w / total).collect();
    let p0 = mle_with_mean(&q, values, s0);
    let p1 = mle_with_mean(&q, values, s1);
    let mean_log_ratio: f64 = (0..q.len()).map(|i| q[i] * (p1[i] / p0[i]).ln()).sum();
    n as f64 * mean_log_ratio
}

/// The distribution closest to `q` (maximum likelihood) over `values` whose mean is `s`: `θ` is the
/// root of `Σ q_i (a_i - s) / (1 + θ (a_i - s)) = 0`, strictly decreasing in `θ` on the interval where
/// every `1 + θ (a_i - s)` is positive; bisection finds it to the last bit.
fn mle_with_mean(q: &[f64], values: &[f64], s: f64) -> Vec<f64> {
    let (lowest, highest) = (values[0], values[values.len() - 1]);
    let stationarity =
        |theta: f64| -> f64 { q.iter().zip(values).map(|(qi, a)| qi * (a - s) / (1.0 + theta * (a - s))).sum() };
    let (mut lo, mut hi) = (-1.0 / (highest - s), -1.0 / (lowest - s));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if stationarity(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    q.iter().zip(values).map(|(qi, a)| qi / (1.0 + theta * (a - s))).collect()
}
