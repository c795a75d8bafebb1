//! `arbiter train`: trains the neural evaluation ([`crate::engine::nnue`]) on the positions
//! `selfplay --datagen` writes, and writes it as a network file the engine reads.
//!
//! The prediction for a position is `p = sigmoid(cp / S)` with `cp` the float network's
//! output times SCALE; the target `t = lambda * result + (1 - lambda) * sigmoid(score / S)`
//! (result and search score from the side to move's view; `S` fitted so that the search score
//! predicts the results best, [`model::fit_sigmoid_cp`]); the loss `|p - t|^power`, averaged
//! over a mini-batch. AdamW with a cosine learning-rate schedule; weights clipped so that
//! quantisation cannot overflow ([`model::CLIP`]). The batch is split into [`SHARDS`] fixed
//! parts, each with its own gradient buffer, summed in order: a run is the same bits for a
//! given seed and data whatever `--threads` is. The last `--qat-epochs` (none by default) train
//! on the quantisation grid (straight-through), so the written network evaluates as the float
//! one; otherwise [`quantise`] fits the output layer to the rounded feature transformer.
//!
//! docs/nnue.md: the data and training commands, reproduction, and the measured speed.

pub mod data;
pub mod factorise;
pub mod model;
pub mod optim;
pub mod quantise;

use crate::engine::nnue::{layout, InputLayout, Network, SCALE};
use crate::rng::Rng;
use clap::{Args, ValueEnum};
use data::{DataError, Dataset, LoadOptions, Sample};
use factorise::Factorised;
use model::{Activations, CheckpointError, LossSpec, Model};
use optim::AdamW;
use rayon::prelude::*;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Parts of a mini-batch with their own gradient buffer (the work units of the threads).
const SHARDS: usize = 8;

#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// Training data files (`selfplay --datagen` output, or `selfplay --records` files named
    /// `*.games`, expanded to the same lines); lines that do not parse are skipped and counted.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Write the quantised network here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Share of positions held out to report the validation loss (whole games).
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Validate on these files instead (every position; --validation is then ignored and all
    /// of --data trains): the same positions for networks trained on different data, so their
    /// losses compare. Use games no network trained on.
    #[arg(long, num_args = 1..)]
    pub valid_data: Vec<PathBuf>,
    /// Skip positions whose search score is beyond ± this many centipawns.
    #[arg(long)]
    pub max_score: Option<f32>,
    /// Do not add the mirror image (a-file <-> h-file) of training positions without castling
    /// rights (an exact symmetry of the Laws there, so by default it doubles those positions).
    /// A mirrored --input-layout never adds them: there a position and its image have the same
    /// inputs.
    #[arg(long)]
    pub no_mirror: bool,
    /// How the king squares choose the network's inputs: flat (768 inputs, format version 1),
    /// mirror (the king mirrored onto files a-d), mirror4 (mirrored, 4 king buckets by rank:
    /// 1, 2, 3-4, 5-8). docs/nnue.md.
    #[arg(long, default_value = "flat", value_parser = parse_layout)]
    pub input_layout: InputLayout,
    /// With king buckets: train every feature's weights as a part shared by all buckets plus
    /// each bucket's own part (summed into the written network), so what one bucket's
    /// positions teach reaches the others. docs/nnue.md.
    #[arg(long)]
    pub factorise: bool,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Learning rate at the start (AdamW).
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Learning rate at the end of the cosine schedule (default: lr / 100).
    #[arg(long)]
    pub lr_end: Option<f32>,
    /// AdamW's decoupled weight decay.
    #[arg(long, default_value_t = 0.01)]
    pub weight_decay: f32,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.4)]
    pub lambda: f32,
    /// The loss's power: |p - t|^power.
    #[arg(long, default_value_t = 2.0)]
    pub power: f32,
    /// Centipawns per unit of the win-probability sigmoid, sigmoid(cp / S), for the search score
    /// and the network alike (default: fitted to the training positions' game results, so
    /// that result and score agree and the network's centipawns are the search's own)
    #[arg(long)]
    pub sigmoid_cp: Option<f32>,
    /// Seed of the initial weights, the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (the result does not depend on them).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Write the float weights here after every epoch (for --resume).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Start from these float weights (a --checkpoint file) instead of random ones; the
    /// optimiser's state starts afresh. A checkpoint without king buckets grows into
    /// --input-layout's buckets if it has the same mirroring (every bucket starts as it).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Train the last N epochs quantisation-aware: the forward and backward passes see the
    /// weights on their integer grid, the steps go to the float weights behind them
    /// (straight-through), so the network learns to work with its rounded weights. None by
    /// default: on 49 M positions two such epochs cost 14 Elo against the fitted output layer
    /// (docs/nnue.md, N11).
    #[arg(long, default_value_t = 0)]
    pub qat_epochs: usize,
    /// How the output layer is put on the integer grid.
    #[arg(long, value_enum, default_value_t = Quantisation::Fitted)]
    pub quantise: Quantisation,
}

/// A named input layout ([`layout::NAMED`]).
fn parse_layout(name: &str) -> Result<InputLayout, String> {
    InputLayout::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = layout::NAMED.iter().map(|(n, _)| *n).collect();
        format!("unknown input layout '{name}' (one of: {})", names.join(", "))
    })
}

/// How the float network becomes a [`Network`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Quantisation {
    /// Every weight rounded to nearest.
    Nearest,
    /// The feature transformer rounded to nearest, the output layer fitted to reproduce the
    /// float network on training positions ([`quantise`]).
    Fitted,
}

/// Why a training run could not be done.
#[derive(Debug)]
enum TrainError {
    /// An option out of its range.
    BadArgument(String),
    Data(DataError),
    NoPositions,
    Resume {
        path: PathBuf,
        error: String,
    },
    Threads(String),
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::BadArgument(s) => write!(f, "{s}"),
            TrainError::Data(e) => write!(f, "{e}"),
            TrainError::NoPositions => write!(f, "no usable training positions in the data"),
            TrainError::Resume { path, error } => write!(f, "cannot resume from {}: {error}", path.display()),
            TrainError::Threads(e) => write!(f, "cannot start threads: {e}"),
            TrainError::Write { path, error } => write!(f, "cannot write {}: {error}", path.display()),
        }
    }
}

impl std::error::Error for TrainError {}

impl TrainError {
    /// 2 for what the command line asked for, 1 when the result cannot be written.
    fn exit_code(&self) -> ExitCode {
        match self {
            TrainError::Write { .. } => ExitCode::from(1),
            _ => ExitCode::from(2),
        }
    }
}

/// The optimisation, apart from the data.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    pub lr_end: f32,
    pub weight_decay: f32,
    pub loss: LossSpec,
    pub seed: u64,
    /// The last epochs trained on the quantisation grid.
    pub qat_epochs: usize,
    /// Feature weights as a shared part plus each king bucket's own ([`Factorised`]).
    pub factorise: bool,
}

impl Config {
    /// Whether epoch `epoch` (from 1) trains on the quantisation grid.
    pub fn on_grid(&self, epoch: usize) -> bool {
        epoch + self.qat_epochs > self.epochs
    }
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    /// Mean loss over the epoch's batches (each before its step).
    pub train_loss: f64,
    /// Loss on the validation positions after the epoch.
    pub valid_loss: Option<f64>,
    /// Mean squared error of the prediction against the results alone (comparable across
    /// `--lambda`).
    pub valid_results: Option<f64>,
    /// Learning rate of the epoch's last step.
    pub lr: f32,
    pub positions_per_second: f64,
}

impl TrainArgs {
    fn lr_end(&self) -> f32 {
        self.lr_end.unwrap_or(self.lr / 100.0)
    }

    /// Refuses bad options before any data is read.
    fn check(&self) -> Result<(), TrainError> {
        let bad = |s: String| Err(TrainError::BadArgument(s));
        let lr_end = self.lr_end();
        if self.epochs == 0 || self.batch == 0 || self.threads == 0 {
            return bad("--epochs, --batch and --threads must be at least 1".into());
        }
        if !(self.lr > 0.0 && self.lr.is_finite() && lr_end >= 0.0 && lr_end.is_finite()) {
            return bad(format!("--lr must be > 0 and --lr-end >= 0 (got {} and {lr_end})", self.lr));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return bad(format!("--lambda must be within 0..1 (got {})", self.lambda));
        }
        if !(1.0..=4.0).contains(&self.power) {
            return bad(format!("--power must be within 1..4 (got {})", self.power));
        }
        if !(0.0..=0.5).contains(&self.validation) {
            return bad(format!("--validation must be within 0..0.5 (got {})", self.validation));
        }
        if !(self.weight_decay >= 0.0 && self.weight_decay.is_finite()) {
            return bad(format!("--weight-decay must be >= 0 (got {})", self.weight_decay));
        }
        if self.sigmoid_cp.is_some_and(|s| !(10.0..=10_000.0).contains(&s)) {
            return bad("--sigmoid-cp must be within 10..10000".into());
        }
        if self.max_score.is_some_and(|m| m.is_nan() || m <= 0.0) {
            return bad("--max-score must be > 0".into());
        }
        if self.factorise && self.input_layout.bucket_count() == 1 {
            return bad(format!(
                "--factorise needs king buckets (--input-layout {} has one)",
                self.input_layout.name()
            ));
        }
        if self.factorise && self.qat_epochs > 0 {
            return bad("--factorise does not combine with --qat-epochs".into());
        }
        if let Some(both) = self.valid_data.iter().find(|p| self.data.contains(p)) {
            return bad(format!("{} is both --data and --valid-data", both.display()));
        }
        for path in self.out.iter().chain(&self.checkpoint) {
            let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            if !dir.is_dir() {
                return bad(format!("cannot write {}: no directory {}", path.display(), dir.display()));
            }
        }
        Ok(())
    }

    /// The training configuration, with the win-probability scale (`--sigmoid-cp`, or fitted
    /// to the loaded data).
    fn config(&self, sigmoid_cp: f32) -> Config {
        Config {
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            lr_end: self.lr_end(),
            weight_decay: self.weight_decay,
            loss: LossSpec { lambda: self.lambda, power: self.power, sigmoid_cp },
            seed: self.seed,
            qat_epochs: self.qat_epochs,
            factorise: self.factorise,
        }
    }
}

/// Mean loss over a dataset (and the squared error against the results alone), summed in a
/// fixed order.
pub fn evaluate(model: &Model, data: &Dataset, spec: &LossSpec) -> (f64, f64) {
    mean_losses(data, spec, |s, act| model.forward(s, act))
}

/// [`evaluate`] for the search score itself as the prediction: what the network is to beat.
fn score_baseline(data: &Dataset, spec: &LossSpec) -> (f64, f64) {
    mean_losses(data, spec, |s, _| s.score / SCALE as f32)
}

/// [`evaluate`] for a quantised network in its own integer arithmetic: the loss of the file
/// the engine reads, whichever way it was quantised.
fn evaluate_network(net: &Network, data: &Dataset, spec: &LossSpec) -> (f64, f64) {
    mean_losses(data, spec, |s, _| {
        let [us, them] = [s.us(), s.them()].map(|inputs| net.accumulate_inputs(inputs.iter().map(|&f| usize::from(f))));
        net.output(&us, &them, s.bucket) as f32 / SCALE as f32
    })
}

/// Mean losses of a prediction (network output units) against `spec`'s target and against
/// the results alone.
fn mean_losses(
    data: &Dataset,
    spec: &LossSpec,
    predict: impl Fn(&Sample, &mut Activations) -> f32 + Sync,
) -> (f64, f64) {
    let results = LossSpec { lambda: 1.0, power: 2.0, ..*spec };
    let idx: Vec<usize> = (0..data.len()).collect();
    let parts: Vec<(f64, f64)> = idx
        .par_chunks(4096)
        .map(|chunk| {
            let mut act = Activations::default();
            chunk.iter().fold((0.0, 0.0), |(a, b), &i| {
                let s = data.sample(i);
                let y = predict(&s, &mut act);
                (a + f64::from(spec.loss_and_slope(y, &s).0), b + f64::from(results.loss_and_slope(y, &s).0))
            })
        })
        .collect();
    let n = data.len().max(1) as f64;
    let (a, b) = parts.iter().fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
    (a / n, b / n)
}

/// What takes the gradient steps.
enum Optimiser {
    /// AdamW on the model's parameters.
    Plain(AdamW),
    /// AdamW on a shared and a per-bucket part of the feature weights (`--factorise`).
    Factorised(Box<Factorised>),
}

/// Trains `model` on `train`, reporting each epoch (with the model after it) to `progress`.
pub fn train(
    model: &mut Model,
    train: &Dataset,
    valid: &Dataset,
    cfg: &Config,
    progress: &mut dyn FnMut(&EpochReport, &Model),
) {
    let n = train.len();
    if n == 0 {
        return;
    }
    let (params, out_bias) = (model.blocks.params, model.blocks.out_bias);
    // Quantisation-aware epochs step the latent weights of a plain run (refused with
    // --factorise).
    debug_assert!(!(cfg.factorise && cfg.qat_epochs > 0));
    let mut opt = if cfg.factorise {
        Optimiser::Factorised(Box::new(Factorised::new(model, cfg.weight_decay)))
    } else {
        Optimiser::Plain(AdamW::new(params, cfg.weight_decay))
    };
    let mut shards: Vec<Vec<f32>> = vec![vec![0.0; params]; SHARDS];
    let mut order: Vec<u32> = (0..n as u32).collect();
    let steps_per_epoch = n.div_ceil(cfg.batch);
    let total_steps = steps_per_epoch * cfg.epochs;
    let mut lr = cfg.lr;
    // The float weights behind the rounded ones while training quantisation-aware.
    let mut latent: Option<Vec<f32>> = None;
    for epoch in 1..=cfg.epochs {
        if cfg.on_grid(epoch) && latent.is_none() {
            latent = Some(model.params[..out_bias].to_vec());
            model.round_to_grid();
        }
        Rng::new(cfg.seed ^ (epoch as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)).shuffle(&mut order);
        let start = Instant::now();
        let mut loss_sum = 0.0f64;
        for (k, batch) in order.chunks(cfg.batch).enumerate() {
            lr = optim::cosine(cfg.lr, cfg.lr_end, (epoch - 1) * steps_per_epoch + k, total_steps);
            let per_shard = batch.len().div_ceil(SHARDS);
            let scale = 1.0 / batch.len() as f32;
            let m: &Model = model;
            let losses: Vec<f64> = shards
                .par_iter_mut()
                .enumerate()
                .map(|(s, grad)| {
                    grad.fill(0.0);
                    let part = &batch[(s * per_shard).min(batch.len())..((s + 1) * per_shard).min(batch.len())];
                    let mut act = Activations::default();
                    let mut loss = 0.0f64;
                    for &i in part {
                        let smp = train.sample(i as usize);
                        let y = m.forward(&smp, &mut act);
                        let (l, slope) = cfg.loss.loss_and_slope(y, &smp);
                        loss += f64::from(l);
                        m.backward(&smp, &act, slope * scale, grad);
                    }
                    loss
                })
                .collect();
            loss_sum += losses.iter().sum::<f64>();
            if let Some(latent) = &latent {
                model.params[..out_bias].copy_from_slice(latent);
            }
            match &mut opt {
                Optimiser::Plain(opt) => {
                    opt.step(&mut model.params, &shards, lr);
                    model.clip();
                }
                Optimiser::Factorised(f) => f.step(model, &shards, lr),
            }
            if let Some(latent) = &mut latent {
                latent.copy_from_slice(&model.params[..out_bias]);
                model.round_to_grid();
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        let (valid_loss, valid_results) = if valid.is_empty() {
            (None, None)
        } else {
            let (l, r) = evaluate(model, valid, &cfg.loss);
            (Some(l), Some(r))
        };
        let report = EpochReport {
            epoch,
            train_loss: loss_sum / n as f64,
            valid_loss,
            valid_results,
            lr,
            positions_per_second: n as f64 / seconds.max(1e-9),
        };
        progress(&report, model);
    }
}

/// How far the quantised network's evaluations are from the float model's: mean and largest
/// absolute difference in centipawns.
fn quantisation_error(model: &Model, net: &Network, positions: &[crate::chess::Position]) -> (f64, f64) {
    let diffs: Vec<f64> =
        positions.iter().map(|p| (f64::from(model.evaluate(p)) - f64::from(net.evaluate(p))).abs()).collect();
    let max = diffs.iter().copied().fold(0.0, f64::max);
    (diffs.iter().sum::<f64>() / diffs.len().max(1) as f64, max)
}

pub fn run(args: TrainArgs) -> ExitCode {
    crate::chess::attacks::init();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads.max(1)).build();
    let result = match pool {
        Ok(pool) => pool.install(|| run_with(&args)),
        Err(e) => Err(TrainError::Threads(e.to_string())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

fn run_with(args: &TrainArgs) -> Result<(), TrainError> {
    args.check()?;
    let mut model = match &args.resume {
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| TrainError::Resume { path: path.clone(), error: e.to_string() })?;
            Model::from_bytes(&bytes, args.input_layout)
                .map_err(|e: CheckpointError| TrainError::Resume { path: path.clone(), error: e.to_string() })?
        }
        None => Model::random(args.seed, args.input_layout),
    };
    let start = Instant::now();
    let opts = LoadOptions {
        validation: args.validation,
        max_score: args.max_score,
        seed: args.seed,
        // A mirrored layout gives a position and its mirror image the same inputs: the images
        // would only count those positions twice.
        mirror: !args.no_mirror && !args.input_layout.mirror,
        layout: args.input_layout,
    };
    if args.input_layout.mirror && !args.no_mirror {
        eprintln!(
            "input layout {}: no mirror images of positions added (the layout mirrors every position already)",
            args.input_layout.name()
        );
    }
    if args.factorise {
        eprintln!(
            "factorised: each feature's weights are a part shared by the {} king buckets plus each bucket's own",
            args.input_layout.bucket_count()
        );
    }
    let loaded = data::load(&args.data, &args.valid_data, &opts).map_err(TrainError::Data)?;
    eprintln!(
        "{} positions: {} training ({} games), {} validation ({} games{}); skipped {} malformed lines, {} over --max-score; loaded in {:.1} s",
        loaded.train.len() + loaded.valid.len(),
        loaded.train.len(),
        loaded.train_games,
        loaded.valid.len(),
        loaded.valid_games,
        if args.valid_data.is_empty() { "" } else { ", --valid-data" },
        loaded.malformed,
        loaded.over_max_score,
        start.elapsed().as_secs_f64()
    );
    if loaded.train.is_empty() {
        return Err(TrainError::NoPositions);
    }
    let cfg = args.config(args.sigmoid_cp.unwrap_or_else(|| model::fit_sigmoid_cp(&loaded.train)));
    eprintln!(
        "win probability sigmoid(cp / {:.1}){}",
        cfg.loss.sigmoid_cp,
        if args.sigmoid_cp.is_some() { " (--sigmoid-cp)" } else { ": fitted to the training positions' results" }
    );
    if !loaded.valid.is_empty() {
        let (l, r) = score_baseline(&loaded.valid, &cfg.loss);
        eprintln!("the search score as the prediction: validation {l:.6} (vs results {r:.6})");
    }
    let mut write_error = None;
    train(&mut model, &loaded.train, &loaded.valid, &cfg, &mut |r, m| {
        let valid = match (r.valid_loss, r.valid_results) {
            (Some(l), Some(res)) => format!("validation {l:.6} (vs results {res:.6})"),
            _ => "no validation".to_string(),
        };
        let grid = if cfg.on_grid(r.epoch) { " (on the quantisation grid)" } else { "" };
        eprintln!(
            "epoch {:3}/{}{grid}: training {:.6}, {valid}, lr {:.2e}, {:.0} positions/s, {:.0} s",
            r.epoch,
            cfg.epochs,
            r.train_loss,
            r.lr,
            r.positions_per_second,
            start.elapsed().as_secs_f64()
        );
        if let Some(path) = &args.checkpoint {
            if let Err(error) = std::fs::write(path, m.to_bytes()) {
                write_error.get_or_insert(TrainError::Write { path: path.clone(), error });
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    let nearest = model.quantise();
    let fitted = quantise::fit_output(&model, &loaded.calibration);
    for (name, net) in [("nearest", &nearest), ("fitted", &fitted)] {
        let (mean, max) = quantisation_error(&model, net, &loaded.check);
        let valid = if loaded.valid.is_empty() {
            String::new()
        } else {
            let (l, r) = evaluate_network(net, &loaded.valid, &cfg.loss);
            format!("; validation {l:.6} (vs results {r:.6})")
        };
        eprintln!(
            "quantised ({name}): |float - quantised| mean {mean:.2} cp, max {max:.0} cp over {} held-out positions{valid}",
            loaded.check.len()
        );
    }
    let net = match args.quantise {
        Quantisation::Nearest => nearest,
        Quantisation::Fitted => fitted,
    };
    if let Some(path) = &args.out {
        net.write(path).map_err(|error| TrainError::Write { path: path.clone(), error })?;
        eprintln!("wrote {} ({:?})", path.display(), net);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    /// A FEN board with every empty square as a '1' (the '/' kept).
    fn unpack(board: &str) -> Vec<char> {
        board
            .chars()
            .flat_map(|c| match c.to_digit(10) {
                Some(n) => vec!['1'; n as usize],
                None => vec![c],
            })
            .collect()
    }

    /// [`unpack`]'s inverse: runs of '1' as their length.
    fn pack(squares: &[char]) -> String {
        let mut packed = String::new();
        let mut run = 0;
        for &c in squares {
            if c == '1' {
                run += 1;
                continue;
            }
            if run > 0 {
                packed.push_str(&run.to_string());
                run = 0;
            }
            packed.push(c);
        }
        if run > 0 {
            packed.push_str(&run.to_string());
        }
        packed
    }

    /// Positions with material imbalances (opening positions with pieces taken off at random),
    /// with their material balance for White: a signal the network can learn in a few epochs.
    fn material_positions(seed: u64) -> Vec<(Position, f32)> {
        crate::chess::attacks::init();
        let mut rng = Rng::new(seed);
        let value = |c: char| match c.to_ascii_lowercase() {
            'p' => 100.0,
            'n' | 'b' => 300.0,
            'r' => 500.0,
            'q' => 900.0,
            _ => 0.0,
        };
        let mut out = Vec::new();
        for line in include_str!("../../../tests/data/openings.epd").lines() {
            for _ in 0..4 {
                let mut fields = line.split_whitespace();
                let (Some(board), Some(stm)) = (fields.next(), fields.next()) else { continue };
                let mut squares = unpack(board);
                for sq in squares.iter_mut() {
                    if *sq != '/' && *sq != '1' && !"kK".contains(*sq) && rng.next_u64().is_multiple_of(4) {
                        *sq = '1';
                    }
                }
                let Ok(pos) = Position::from_fen(&format!("{} {stm} - - 0 1", pack(&squares))) else { continue };
                let white: f32 =
                    squares.iter().map(|&c| if c.is_ascii_uppercase() { value(c) } else { -value(c) }).sum();
                out.push((pos, white));
            }
        }
        out
    }

    fn material_data(positions: &[(Position, f32)]) -> Dataset {
        let mut d = Dataset::default();
        for (pos, white) in positions {
            let result = if *white > 150.0 {
                1.0
            } else if *white < -150.0 {
                0.0
            } else {
                0.5
            };
            d.push(pos, *white, result);
        }
        d
    }

    /// The optimisation the material tests train with.
    fn material_config(epochs: usize) -> Config {
        Config {
            epochs,
            batch: 128,
            lr: 0.003,
            lr_end: 0.0001,
            weight_decay: 0.01,
            loss: LossSpec { lambda: 0.2, power: 2.0, sigmoid_cp: 400.0 },
            seed: 1,
            qat_epochs: 0,
            factorise: false,
        }
    }

    #[test]
    fn the_loss_falls_and_the_quantised_network_follows() {
        let (train_positions, valid_positions) = (material_positions(1), material_positions(2));
        let (train_set, valid) = (material_data(&train_positions), material_data(&valid_positions));
        assert!(train_set.len() > 1500 && valid.len() > 1500, "{} {}", train_set.len(), valid.len());
        let cfg = material_config(12);
        let mut model = Model::random(cfg.seed, layout::FLAT);
        let before = evaluate(&model, &valid, &cfg.loss).0;
        let mut reports = Vec::new();
        train(&mut model, &train_set, &valid, &cfg, &mut |r, _| reports.push(*r));
        let after = evaluate(&model, &valid, &cfg.loss).0;
        assert_eq!(reports.len(), cfg.epochs);
        assert!(after < 0.3 * before, "validation loss {before} -> {after}");
        assert!(reports[cfg.epochs - 1].train_loss < reports[0].train_loss);
        // It has learnt material: a queen up is a large advantage, for either side to move
        // (25 pieces, as many as the data's positions have).
        let up = Position::from_fen("r1b1kb1r/pp3ppp/2n2n2/8/8/2N2N2/PP3PPP/R1BQKB1R w - - 0 1").unwrap();
        let down = Position::from_fen("r1b1kb1r/pp3ppp/2n2n2/8/8/2N2N2/PP3PPP/R1BQKB1R b - - 0 1").unwrap();
        let (u, d) = (model.evaluate(&up), model.evaluate(&down));
        assert!(u > 300.0 && d < -300.0, "a queen up: {u} to move, {d} the other to move");
        // Quantised, fitted on the training positions, checked on the others.
        let calibration: Vec<Position> = train_positions.iter().map(|p| p.0).collect();
        let held_out: Vec<Position> = valid_positions.iter().map(|p| p.0).collect();
        let nearest = quantisation_error(&model, &model.quantise(), &held_out);
        let fitted = quantisation_error(&model, &quantise::fit_output(&model, &calibration), &held_out);
        assert!(fitted.0 < 0.5 * nearest.0 && fitted.0 < 3.0, "mean error: nearest {nearest:?}, fitted {fitted:?}");
        // Two more epochs quantisation-aware: rounding then changes only the arithmetic, and
        // the network is as good as before.
        let qat = Config { epochs: 2, lr: 0.0003, lr_end: 0.0001, qat_epochs: 2, ..cfg };
        train(&mut model, &train_set, &valid, &qat, &mut |_, _| {});
        let (mean, max) = quantisation_error(&model, &model.quantise(), &held_out);
        assert!(mean < 1.0 && max < 3.0, "after quantisation-aware epochs: mean {mean} cp, max {max} cp");
        let rounded = evaluate(&model, &valid, &cfg.loss).0;
        assert!(rounded < 1.1 * after, "validation loss {after} -> {rounded} on the grid");
        // The file's own loss, in integer arithmetic, is the grid model's within truncation.
        let file = evaluate_network(&model.quantise(), &valid, &cfg.loss).0;
        assert!((file - rounded).abs() < 0.02 * rounded, "validation loss {rounded} on the grid, {file} in the file");
    }

    /// The positions with White's king moved to the first free square of the fifth rank and
    /// Black's to the last of the fourth: both kings in `mirror4`'s last bucket (ranks 5-8 from
    /// their own side), which home-rank positions never train.
    fn kings_forward(positions: &[(Position, f32)]) -> Vec<(Position, f32)> {
        let mut out = Vec::new();
        for (pos, white) in positions {
            let fen = pos.to_fen();
            let mut fields = fen.split(' ');
            let (Some(board), Some(stm)) = (fields.next(), fields.next()) else { continue };
            let mut squares: Vec<char> =
                unpack(board).into_iter().map(|c| if "Kk".contains(c) { '1' } else { c }).collect();
            // Nine characters a rank from the eighth down (its squares and a '/'): the fifth
            // rank starts at 27, the fourth at 36.
            let (Some(w), Some(b)) =
                (squares[27..35].iter().position(|&c| c == '1'), squares[36..44].iter().rposition(|&c| c == '1'))
            else {
                continue;
            };
            squares[27 + w] = 'K';
            squares[36 + b] = 'k';
            if let Ok(moved) = Position::from_fen(&format!("{} {stm} - - 0 1", pack(&squares))) {
                out.push((moved, *white));
            }
        }
        out
    }

    /// Trained on home-rank kings only, a factorised `mirror4` network knows material with
    /// its kings up the board; without the factoriser those buckets are untrained.
    #[test]
    fn factorised_king_buckets_pass_what_one_bucket_learnt_to_the_others() {
        let (mut train_set, mut valid) =
            (material_data(&material_positions(1)), material_data(&kings_forward(&material_positions(2))));
        train_set.set_layout(layout::MIRROR4);
        valid.set_layout(layout::MIRROR4);
        assert!(valid.len() > 500, "{}", valid.len());
        let run = |factorise: bool| {
            let cfg = Config { factorise, ..material_config(8) };
            let mut model = Model::random(cfg.seed, layout::MIRROR4);
            let before = evaluate(&model, &valid, &cfg.loss).0;
            train(&mut model, &train_set, &Dataset::default(), &cfg, &mut |_, _| {});
            (before, evaluate(&model, &valid, &cfg.loss).0, model)
        };
        let (before, plain, _) = run(false);
        let (_, factorised, model) = run(true);
        // Measured: 0.111 untrained, plain 0.108, factorised 0.050 (the shared part carries
        // about half of what was learnt: bucket 0's own part learnt the rest).
        assert!(factorised < 0.6 * plain, "{before} -> plain {plain}, factorised {factorised}");
        // A queen up with the kings on the fifth and fourth ranks (measured: 310 cp).
        let up = Position::from_fen("r1b2b1r/pp3ppp/2n2n2/1K6/6k1/2N2N2/PP3PPP/R1BQ1B1R w - - 0 1").unwrap();
        let u = model.evaluate(&up);
        assert!(u > 200.0, "a queen up: {u}");
    }

    #[test]
    fn a_run_is_the_same_for_any_thread_count() {
        let mut data = material_data(&material_positions(3));
        let cfg = Config {
            epochs: 2,
            batch: 100,
            lr: 0.002,
            lr_end: 0.0,
            weight_decay: 0.01,
            loss: LossSpec { lambda: 0.5, power: 2.5, sigmoid_cp: 300.0 },
            seed: 4,
            qat_epochs: 1,
            factorise: false,
        };
        // Plain with quantisation-aware epochs, and factorised king buckets.
        for (cfg, layout) in [(cfg, layout::FLAT), (Config { qat_epochs: 0, factorise: true, ..cfg }, layout::MIRROR4)]
        {
            data.set_layout(layout);
            let run = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                pool.install(|| {
                    let mut m = Model::random(cfg.seed, layout);
                    train(&mut m, &data, &Dataset::default(), &cfg, &mut |_, _| {});
                    m
                })
            };
            let one = run(1);
            assert_ne!(one, Model::random(cfg.seed, layout));
            assert!(one == run(2) && one == run(3));
        }
    }
}
