//! `arbiter texel`: fits every evaluation weight to game results (Texel's tuning method,
//! by gradient descent).
//!
//! The data are the lines `selfplay --datagen` writes: `FEN | score-cp-from-white |
//! result` (1.0 / 0.5 / 0.0, White's view). For each position the evaluation is traced
//! once ([`eval::traced`]): which weights it used, how often for each side, the game
//! phase and the endgame scale. The evaluation is linear in the weights given those, so
//! the model is `eval = (mg * phase + eg * scale/64 * (24 - phase)) / 24` with `mg`, `eg`
//! sums of coefficient x weight. The loss is the mean squared difference between the
//! target and `sigmoid(K * eval)`, the target being `lambda * result + (1 - lambda) *
//! sigmoid(K * score)`; K is fitted first, to the results alone (so that the current
//! weights' scale is kept). `--reg` pulls each weight towards its current value.
//! Validation positions are whole games held out.
//! Adam minimises the loss over all weights at once (full batch, threads with rayon);
//! `--out FILE` writes the result as `eval_weights.rs`.

use crate::chess::{Color, Position};
use crate::data::in_order;
use crate::data::minimise::golden_section;
use crate::data::{lines, records};
use crate::engine::eval::{self, Block, Trace, NUM_WEIGHTS, S};
use crate::rng::Rng;
use clap::Args;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug, Clone)]
pub struct TexelArgs {
    /// Training data files (`selfplay --datagen` output, or `selfplay --records` files named `*.games`).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Use at most this many positions (a seeded random sample of whole games).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Seed for the sample and the validation split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Share of positions held out to report the validation loss (whole games: positions
    /// of one game are too alike to test each other).
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// L2 penalty on each weight's distance from its current value (per cp², added to the
    /// mean squared error): keeps weights the data hardly see (rare king-danger or mobility
    /// entries) and the directions the data cannot tell apart (material vs. tables) where
    /// they are. Without it the fit overfits those and loses games (docs/strength.md).
    #[arg(long, default_value_t = 1e-9)]
    pub reg: f64,
    /// Gradient steps (one per pass over all positions).
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Adam learning rate, in centipawns per step.
    #[arg(long, default_value_t = 4.0)]
    pub lr: f64,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// The sigmoid's scale (default: fitted to the current weights).
    #[arg(long)]
    pub k: Option<f64>,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Write the tuned weights here (in the form of src/engine/eval_weights.rs).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// One training position: its non-zero (weight index, White-minus-Black count) pairs live
/// in [`Dataset::coefs`] from `start` to the next position's `start`.
#[derive(Clone, Copy, Debug)]
struct Entry {
    start: u32,
    /// Middlegame share, phase / 24.
    mg: f32,
    /// Endgame share, scale/64 * (24 - phase) / 24.
    eg: f32,
    result: f32,
    score: f32,
}

#[derive(Default)]
struct Dataset {
    entries: Vec<Entry>,
    coefs: Vec<(u16, i16)>,
}

impl Dataset {
    fn coefs_of(&self, i: usize) -> &[(u16, i16)] {
        let start = self.entries[i].start as usize;
        let end = self.entries.get(i + 1).map_or(self.coefs.len(), |e| e.start as usize);
        &self.coefs[start..end]
    }

    fn len(&self) -> usize {
        self.entries.len()
    }
}

/// Collects the weights an evaluation uses, as White-minus-Black counts.
struct Counts {
    counts: Vec<i32>,
    touched: Vec<u16>,
}

impl Trace for Counts {
    fn add(&mut self, index: usize, color: Color, count: i32) {
        if count == 0 {
            return;
        }
        if self.counts[index] == 0 && !self.touched.contains(&(index as u16)) {
            self.touched.push(index as u16);
        }
        self.counts[index] += color.sign() * count;
    }
}

/// One traced position before it joins the dataset.
struct Traced {
    mg: f32,
    eg: f32,
    coefs: Vec<(u16, i16)>,
}

/// Traces one position: the model's inputs.
fn trace(pos: &Position, counts: &mut Counts) -> Traced {
    counts.touched.clear();
    let b = eval::traced(pos, counts);
    let mut out = Vec::with_capacity(counts.touched.len());
    for &i in &counts.touched {
        let c = counts.counts[i as usize];
        counts.counts[i as usize] = 0;
        if c != 0 {
            out.push((i, c.clamp(i16::MIN as i32, i16::MAX as i32) as i16));
        }
    }
    out.sort_unstable();
    let mg = b.phase as f32 / 24.0;
    let eg = b.eg_scale as f32 / 64.0 * (24 - b.phase) as f32 / 24.0;
    Traced { mg, eg, coefs: out }
}

fn load(args: &TexelArgs) -> Result<Dataset, String> {
    let mut all = Vec::new();
    for path in &args.data {
        let text = records::read_data_file(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        all.extend(lines::games(text.lines().map(str::to_string)));
    }
    // Shuffled by game, so the validation positions (the first ones) and a `--limit`
    // sample are whole games (but for the one game cut at the boundary).
    let mut rng = Rng::new(args.seed);
    rng.shuffle(&mut all);
    let mut lines: Vec<String> = all.into_iter().flatten().collect();
    if let Some(n) = args.limit {
        lines.truncate(n);
    }
    let parsed: Vec<Option<(Traced, f32, f32)>> = lines
        .par_chunks(4096)
        .flat_map_iter(|chunk| {
            let mut counts = Counts { counts: vec![0; NUM_WEIGHTS], touched: Vec::new() };
            chunk
                .iter()
                .map(|l| {
                    let (pos, score, result) = lines::parse(l)?;
                    Some((trace(&pos, &mut counts), score, result))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let mut data = Dataset::default();
    let mut bad = 0;
    for p in parsed {
        match p {
            Some((t, score, result)) => {
                data.entries.push(Entry { start: data.coefs.len() as u32, mg: t.mg, eg: t.eg, result, score });
                data.coefs.extend_from_slice(&t.coefs);
            }
            None => bad += 1,
        }
    }
    if bad > 0 {
        eprintln!("skipped {bad} malformed lines");
    }
    Ok(data)
}

/// Weights as f64 pairs: `[mg0, eg0, mg1, eg1, ...]`.
fn to_params(w: &[S]) -> Vec<f64> {
    w.iter().flat_map(|s| [s.0 as f64, s.1 as f64]).collect()
}

fn model(data: &Dataset, i: usize, params: &[f64]) -> f64 {
    let e = &data.entries[i];
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(idx, c) in data.coefs_of(i) {
        mg += c as f64 * params[2 * idx as usize];
        eg += c as f64 * params[2 * idx as usize + 1];
    }
    mg * e.mg as f64 + eg * e.eg as f64
}

/// Win probability of a centipawn score (the usual logistic with base 10).
fn sigmoid(k: f64, cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * cp / 400.0))
}

fn target(e: &Entry, k: f64, lambda: f64) -> f64 {
    lambda * e.result as f64 + (1.0 - lambda) * sigmoid(k, e.score as f64)
}

/// Mean squared error over `range` of the data.
fn loss(data: &Dataset, idx: &[usize], params: &[f64], k: f64, lambda: f64) -> f64 {
    let sum: f64 = idx
        .par_iter()
        .map(|&i| {
            let p = sigmoid(k, model(data, i, params));
            let t = target(&data.entries[i], k, lambda);
            (t - p) * (t - p)
        })
        .sum();
    sum / idx.len().max(1) as f64
}

/// The K that minimises the loss against `lambda`'s target for fixed weights
/// (golden-section search).
fn fit_k(data: &Dataset, idx: &[usize], params: &[f64], lambda: f64) -> f64 {
    golden_section(0.2, 4.0, 40, |k| loss(data, idx, params, k, lambda))
}

/// The training objective: [`loss`] plus the `--reg` penalty on the distance from `prior`.
fn objective(data: &Dataset, idx: &[usize], params: &[f64], prior: &[f64], k: f64, args: &TexelArgs) -> f64 {
    loss(data, idx, params, k, args.lambda)
        + args.reg * params.iter().zip(prior).map(|(p, q)| (p - q) * (p - q)).sum::<f64>()
}

/// The gradient of [`objective`].
fn gradient(data: &Dataset, idx: &[usize], params: &[f64], prior: &[f64], k: f64, args: &TexelArgs) -> Vec<f64> {
    let mut g = loss_gradient(data, idx, params, k, args.lambda);
    for ((g, p), q) in g.iter_mut().zip(params).zip(prior) {
        *g += 2.0 * args.reg * (p - q);
    }
    g
}

/// The gradient of [`loss`].
fn loss_gradient(data: &Dataset, idx: &[usize], params: &[f64], k: f64, lambda: f64) -> Vec<f64> {
    let n = params.len();
    let ln10 = std::f64::consts::LN_10;
    let mut g = idx
        .par_chunks(8192)
        .map(|chunk| {
            let mut g = vec![0.0; n];
            for &i in chunk {
                let e = &data.entries[i];
                let p = sigmoid(k, model(data, i, params));
                let t = target(e, k, lambda);
                // d/dq (t - p)^2 = -2 (t - p) p (1 - p) k ln10 / 400
                let d = -2.0 * (t - p) * p * (1.0 - p) * k * ln10 / 400.0;
                for &(idx, c) in data.coefs_of(i) {
                    g[2 * idx as usize] += d * c as f64 * e.mg as f64;
                    g[2 * idx as usize + 1] += d * c as f64 * e.eg as f64;
                }
            }
            g
        })
        .reduce(
            || vec![0.0; n],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let m = idx.len().max(1) as f64;
    g.iter_mut().for_each(|x| *x /= m);
    g
}

pub fn run(args: TexelArgs) -> ExitCode {
    crate::chess::attacks::init();
    let pool = match in_order::pool(Some(args.threads)) {
        Ok(p) => p,
        Err(code) => return code,
    };
    pool.install(|| match tune(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    })
}

fn tune(args: &TexelArgs) -> Result<(), String> {
    let start = Instant::now();
    let data = load(args)?;
    if data.len() < 100 {
        return Err(format!("only {} usable positions; need at least 100", data.len()));
    }
    let n_valid = ((data.len() as f64 * args.validation.clamp(0.0, 0.5)) as usize).max(1);
    let valid: Vec<usize> = (0..n_valid).collect();
    let train: Vec<usize> = (n_valid..data.len()).collect();
    eprintln!(
        "{} positions ({} training, {} validation), {} weights, {:.1} coefficients per position; loaded in {:.1} s",
        data.len(),
        train.len(),
        valid.len(),
        NUM_WEIGHTS,
        data.coefs.len() as f64 / data.len() as f64,
        start.elapsed().as_secs_f64()
    );

    let prior = to_params(&eval::flat_weights());
    let mut params = prior.clone();
    // Fitted to the results alone: with the search score in the target, a smaller K
    // flattens both sides of the difference and always looks better.
    let k = args.k.unwrap_or_else(|| fit_k(&data, &train, &params, 1.0));
    eprintln!(
        "K = {k:.4}; loss before: training {:.6}, validation {:.6} (results alone {:.6})",
        loss(&data, &train, &params, k, args.lambda),
        loss(&data, &valid, &params, k, args.lambda),
        loss(&data, &valid, &params, k, 1.0)
    );

    // Adam.
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; params.len()];
    let mut v = vec![0.0; params.len()];
    for epoch in 1..=args.epochs {
        let g = gradient(&data, &train, &params, &prior, k, args);
        let (b1t, b2t) = (1.0 - pow_t(beta1, epoch), 1.0 - pow_t(beta2, epoch));
        for j in 0..params.len() {
            m[j] = beta1 * m[j] + (1.0 - beta1) * g[j];
            v[j] = beta2 * v[j] + (1.0 - beta2) * g[j] * g[j];
            params[j] -= args.lr * (m[j] / b1t) / ((v[j] / b2t).sqrt() + eps);
        }
        if epoch % 100 == 0 || epoch == args.epochs {
            eprintln!(
                "epoch {epoch:5}: training {:.6}, validation {:.6} (results alone {:.6}), objective {:.6} ({:.0} s)",
                loss(&data, &train, &params, k, args.lambda),
                loss(&data, &valid, &params, k, args.lambda),
                loss(&data, &valid, &params, k, 1.0),
                objective(&data, &train, &params, &prior, k, args),
                start.elapsed().as_secs_f64()
            );
        }
    }
    let tuned: Vec<S> = params.chunks(2).map(|p| S(p[0].round() as i32, p[1].round() as i32)).collect();
    let rounded = to_params(&tuned);
    eprintln!(
        "rounded weights: training {:.6}, validation {:.6} (results alone {:.6})",
        loss(&data, &train, &rounded, k, args.lambda),
        loss(&data, &valid, &rounded, k, args.lambda),
        loss(&data, &valid, &rounded, k, 1.0)
    );
    if let Some(path) = &args.out {
        std::fs::write(path, weights_source(&tuned)).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// `base^t` (Adam's bias correction).
fn pow_t(base: f64, t: usize) -> f64 {
    base.powi(t.min(i32::MAX as usize) as i32)
}

const PIECE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The text of `src/engine/eval_weights.rs` for these weights (in [`Block::ALL`] order).
fn weights_source(w: &[S]) -> String {
    let mut s = String::from(
        "//! The evaluation's weights: (middlegame, endgame) pairs in centipawns, White's view.\n\
         //!\n\
         //! Written by `arbiter texel --out` (src/tools/texel.rs), which fits them to game results;\n\
         //! docs/strength.md records the data and the command behind the current values.\n\
         //! Piece-square tables are laid out as a board seen by White: index 0 is a8, 63 is h1.\n\
         \n\
         use super::eval::S;\n",
    );
    let pair = |v: &S| format!("S({}, {}),", v.0, v.1);
    for b in Block::ALL {
        let vals = &w[b.offset()..b.offset() + b.values().len()];
        let _ = write!(s, "\n/// {}\n", b.doc());
        match b {
            Block::Pst => {
                let _ = writeln!(s, "#[rustfmt::skip]\npub const {}: [[S; 64]; 6] = [", b.name());
                for (p, table) in vals.chunks(64).enumerate() {
                    let _ = writeln!(s, "    // {}\n    [", PIECE_NAMES[p]);
                    for row in table.chunks(8) {
                        let _ = writeln!(s, "        {}", row.iter().map(pair).collect::<Vec<_>>().join(" "));
                    }
                    s.push_str("    ],\n");
                }
                s.push_str("];\n");
            }
            _ if vals.len() == 1 => {
                let _ = writeln!(s, "pub const {}: S = S({}, {});", b.name(), vals[0].0, vals[0].1);
            }
            _ => {
                let per_line = match vals.len() {
                    6 | 8 => vals.len(),
                    n if n > 28 => 8,
                    _ => 7,
                };
                let _ = writeln!(s, "#[rustfmt::skip]\npub const {}: [S; {}] = [", b.name(), vals.len());
                for row in vals.chunks(per_line) {
                    let _ = writeln!(s, "    {}", row.iter().map(pair).collect::<Vec<_>>().join(" "));
                }
                s.push_str("];\n");
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weights_file_is_what_the_tuner_writes() {
        assert_eq!(weights_source(&eval::flat_weights()), include_str!("../engine/eval_weights.rs"));
    }

    #[test]
    fn the_linear_model_is_the_evaluation() {
        crate::chess::attacks::init();
        let params = to_params(&eval::flat_weights());
        let mut counts = Counts { counts: vec![0; NUM_WEIGHTS], touched: Vec::new() };
        let mut data = Dataset::default();
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
            "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
            "8/8/8/5k2/8/8/4K3/3R4 w - - 0 1",
        ];
        for (i, fen) in fens.iter().enumerate() {
            let pos = Position::from_fen(fen).unwrap();
            let t = trace(&pos, &mut counts);
            data.entries.push(Entry { start: data.coefs.len() as u32, mg: t.mg, eg: t.eg, result: 0.5, score: 0.0 });
            data.coefs.extend_from_slice(&t.coefs);
            let white = eval::breakdown(&pos).white as f64;
            // The evaluation rounds twice (endgame scale, phase blend); the model does not.
            assert!((model(&data, i, &params) - white).abs() <= 2.0, "{fen}: {} vs {white}", model(&data, i, &params));
        }
        assert!(counts.counts.iter().all(|&c| c == 0));
    }

    /// A small dataset traced from real positions, with made-up results.
    fn sample() -> (Dataset, Vec<usize>) {
        crate::chess::attacks::init();
        let mut counts = Counts { counts: vec![0; NUM_WEIGHTS], touched: Vec::new() };
        let mut data = Dataset::default();
        let fens = [
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10", 1.0),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11", 0.5),
            ("2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1", 0.0),
        ];
        for (fen, result) in fens {
            let t = trace(&Position::from_fen(fen).unwrap(), &mut counts);
            data.entries.push(Entry { start: data.coefs.len() as u32, mg: t.mg, eg: t.eg, result, score: 0.0 });
            data.coefs.extend_from_slice(&t.coefs);
        }
        (data, vec![0, 1, 2])
    }

    #[test]
    fn the_gradient_is_the_objectives_slope() {
        let (data, idx) = sample();
        let prior = to_params(&eval::flat_weights());
        let mut params = prior.clone();
        params[2 * Block::Tempo.offset()] += 30.0;
        params[2 * Block::Material.offset() + 3] -= 20.0;
        let args = TexelArgs {
            data: Vec::new(),
            limit: None,
            seed: 1,
            validation: 0.05,
            reg: 1e-5,
            epochs: 1,
            lr: 1.0,
            lambda: 1.0,
            k: None,
            threads: 1,
            out: None,
        };
        let g = gradient(&data, &idx, &params, &prior, 1.0, &args);
        for j in [2 * Block::Tempo.offset(), 2 * Block::Material.offset() + 3, 2 * Block::Pst.offset() + 100] {
            let (mut up, mut down) = (params.clone(), params.clone());
            up[j] += 0.01;
            down[j] -= 0.01;
            let slope = (objective(&data, &idx, &up, &prior, 1.0, &args)
                - objective(&data, &idx, &down, &prior, 1.0, &args))
                / 0.02;
            assert!((slope - g[j]).abs() <= 1e-3 * slope.abs().max(1e-6), "weight {j}: {slope} vs {}", g[j]);
        }
    }

    #[test]
    fn k_is_the_scale_that_the_results_follow() {
        let (mut data, idx) = sample();
        let params = to_params(&eval::flat_weights());
        for i in 0..data.len() {
            let eval = model(&data, i, &params);
            data.entries[i].result = sigmoid(1.3, eval) as f32;
            data.entries[i].score = eval as f32;
        }
        assert!((fit_k(&data, &idx, &params, 1.0) - 1.3).abs() < 1e-3);
        // Against the search score a flatter sigmoid always fits better: why K is fitted
        // to the results alone.
        assert!(fit_k(&data, &idx, &params, 0.0) < 0.21);
    }
}
