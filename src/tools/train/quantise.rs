//! The output layer's quantisation, fitted to data (for networks not trained
//! quantisation-aware, `--qat-epochs 0`; on one that was, it gives the rounded weights back).
//!
//! Rounding every weight to nearest ([`Model::quantise`]) leaves the output layer's error at
//! about `SCALE / QB / sqrt(12)` = 1.8 cp times the root of the sum of the squared
//! activations, which on our networks is 5 to 10 (8 to 13 cp mean, measured): the output weights
//! are small beside their grid step `1 / QB`. So the output layer is fitted instead, bucket by
//! bucket, on positions the network will see:
//! 1. the activations are the quantised feature transformer's (as the engine computes them),
//!    the target the float network's output: a least-squares refit (ridge towards the float
//!    weights) that also absorbs the feature transformer's rounding;
//! 2. the weights are put on the grid one by one, each rounding error fed to the weights not
//!    yet rounded through the inverse of the activations' second-moment matrix (GPTQ,
//!    Frantar et al. 2022), the bias last (its grid `1 / (QA * QB)` is fine enough to take the
//!    remainder).
//!
//! All in `f64`, summed in a fixed order: the same result for any thread count.

use super::model::{Model, CLIP};
use crate::chess::Position;
use crate::engine::nnue::{output_bucket, Network, BUCKETS, HIDDEN, QA, QB, SCALE};
use rayon::prelude::*;

/// Inputs of one bucket's output layer: both halves' activations and the bias's constant 1.
const N: usize = 2 * HIDDEN + 1;

/// Ridge strength, relative to the mean diagonal of the activations' second moments.
const DAMP: f64 = 0.01;

/// One position's inputs to the output layer as the quantised network computes them, in
/// units of 1.0 (`clamp(acc, 0, QA)^2 / QA^2`), and the bias's 1.
fn inputs(net: &Network, pos: &Position) -> Vec<f64> {
    let stm = pos.side_to_move();
    let mut x = Vec::with_capacity(N);
    for acc in [net.accumulate(pos, stm), net.accumulate(pos, stm.flip())] {
        x.extend(acc.iter().map(|&a| {
            let c = f64::from(a).clamp(0.0, f64::from(QA)) / f64::from(QA);
            c * c
        }));
    }
    x.push(1.0);
    x
}

/// `net` with its output layer fitted so that it reproduces `model` on `positions` (the
/// feature transformer as [`Model::quantise`] rounds it).
pub fn fit_output(model: &Model, positions: &[Position]) -> Network {
    let mut net = model.quantise();
    let buckets: Vec<(Vec<i16>, i32)> = (0..BUCKETS)
        .into_par_iter()
        .map(|b| {
            let mine: Vec<&Position> = positions.iter().filter(|p| output_bucket(p.occupied()) == b).collect();
            fit_bucket(model, &net, b, &mine)
        })
        .collect();
    for (b, (w, bias)) in buckets.into_iter().enumerate() {
        net.out_weights[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN].copy_from_slice(&w);
        net.out_bias[b] = bias;
    }
    net
}

/// One bucket's fitted weights (units of `1 / QB`) and bias (units of `1 / (QA * QB)`).
fn fit_bucket(model: &Model, net: &Network, bucket: usize, positions: &[&Position]) -> (Vec<i16>, i32) {
    let base = model.blocks.out_weights + bucket * 2 * HIDDEN;
    let mut prior: Vec<f64> = model.params[base..base + 2 * HIDDEN].iter().map(|&w| f64::from(w)).collect();
    prior.push(f64::from(model.params[model.blocks.out_bias + bucket]));
    // Second moments H = sum x x^T and g = sum x y.
    let mut h = vec![0.0f64; N * N];
    let mut g = vec![0.0f64; N];
    for pos in positions {
        let x = inputs(net, pos);
        let y = f64::from(model.evaluate(pos)) / f64::from(SCALE);
        for i in 0..N {
            if x[i] == 0.0 {
                continue;
            }
            g[i] += x[i] * y;
            let row = &mut h[i * N..(i + 1) * N];
            for j in 0..=i {
                row[j] += x[i] * x[j];
            }
        }
    }
    for i in 0..N {
        for j in 0..i {
            h[j * N + i] = h[i * N + j];
        }
    }
    let mean_diag = (0..N).map(|i| h[i * N + i]).sum::<f64>() / N as f64;
    let lambda = DAMP * mean_diag + 1e-9;
    for i in 0..N {
        h[i * N + i] += lambda;
        g[i] += lambda * prior[i];
    }
    // Ridge solution w = H^-1 g, then GPTQ's rounding with the upper Cholesky factor of H^-1.
    let hinv = inverse_spd(&h);
    let mut w: Vec<f64> = (0..N).map(|i| (0..N).map(|j| hinv[i * N + j] * g[j]).sum()).collect();
    let u = cholesky_upper(&hinv);
    let grid = |i: usize| if i < 2 * HIDDEN { f64::from(QB) } else { f64::from(QA * QB) };
    let mut q = vec![0.0f64; N];
    for i in 0..N {
        let k = grid(i);
        let limit = if i < 2 * HIDDEN { (f64::from(CLIP) * k).floor() } else { f64::from(i32::MAX) };
        q[i] = (w[i] * k).round().clamp(-limit, limit);
        let err = (w[i] - q[i] / k) / u[i * N + i];
        for j in i + 1..N {
            w[j] -= err * u[i * N + j];
        }
    }
    let weights = q[..2 * HIDDEN].iter().map(|&v| v as i16).collect();
    (weights, q[2 * HIDDEN] as i32)
}

/// The lower Cholesky factor `L` of a symmetric positive definite matrix (`A = L L^T`).
fn cholesky_lower(a: &[f64]) -> Vec<f64> {
    let n = (a.len() as f64).sqrt() as usize;
    let mut l = vec![0.0f64; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = l[i * n..i * n + j].iter().zip(&l[j * n..j * n + j]).map(|(x, y)| x * y).sum();
            if i == j {
                l[i * n + i] = (a[i * n + i] - s).max(1e-300).sqrt();
            } else {
                l[i * n + j] = (a[i * n + j] - s) / l[j * n + j];
            }
        }
    }
    l
}

/// The inverse of a symmetric positive definite matrix, through its Cholesky factor.
fn inverse_spd(a: &[f64]) -> Vec<f64> {
    let n = (a.len() as f64).sqrt() as usize;
    let l = cholesky_lower(a);
    // L^-1 by forward substitution, stored transposed (row c is column c of L^-1) so that
    // every sum runs over contiguous memory.
    let mut lit = vec![0.0f64; n * n];
    for c in 0..n {
        for i in c..n {
            let s: f64 = l[i * n + c..i * n + i].iter().zip(&lit[c * n + c..c * n + i]).map(|(x, y)| x * y).sum();
            let e = if i == c { 1.0 } else { 0.0 };
            lit[c * n + i] = (e - s) / l[i * n + i];
        }
    }
    // A^-1 = L^-T L^-1: entry (i, j) is the dot product of columns i and j of L^-1.
    let mut inv = vec![0.0f64; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = lit[i * n + i..(i + 1) * n].iter().zip(&lit[j * n + i..(j + 1) * n]).map(|(x, y)| x * y).sum();
            inv[i * n + j] = s;
            inv[j * n + i] = s;
        }
    }
    inv
}

/// The upper Cholesky factor `U` of a symmetric positive definite matrix (`A = U^T U`).
fn cholesky_upper(a: &[f64]) -> Vec<f64> {
    let n = (a.len() as f64).sqrt() as usize;
    let l = cholesky_lower(a);
    let mut u = vec![0.0f64; n * n];
    for i in 0..n {
        for j in 0..=i {
            u[j * n + i] = l[i * n + j];
        }
    }
    u
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_matrix_helpers_invert() {
        // A = B B^T + I for a fixed B: symmetric positive definite.
        let n = 7;
        let b: Vec<f64> = (0..n * n).map(|k| ((k * 37 % 11) as f64 - 5.0) / 3.0).collect();
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                a[i * n + j] =
                    (0..n).map(|k| b[i * n + k] * b[j * n + k]).sum::<f64>() + if i == j { 1.0 } else { 0.0 };
            }
        }
        let inv = inverse_spd(&a);
        for i in 0..n {
            for j in 0..n {
                let p: f64 = (0..n).map(|k| a[i * n + k] * inv[k * n + j]).sum();
                assert!((p - if i == j { 1.0 } else { 0.0 }).abs() < 1e-9, "({i}, {j}): {p}");
            }
        }
        let u = cholesky_upper(&a);
        for i in 0..n {
            for j in 0..n {
                let p: f64 = (0..n).map(|k| u[k * n + i] * u[k * n + j]).sum();
                assert!((p - a[i * n + j]).abs() < 1e-9);
            }
        }
    }
}
