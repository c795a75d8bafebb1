//! `arbiter train --factorise`: king-bucketed feature weights trained as a part every bucket
//! shares plus each bucket's own part.
//!
//! With king buckets a feature's weights are trained only by the positions of its bucket, and a
//! bucket whose kings are rare (an endgame king on the fifth rank) learns little: on 60 M
//! positions `mirror4` from scratch trained worse than one bucket (docs/nnue.md). Factorised,
//! the weight the network evaluates with is `own[b][f] + shared[f]` (`f` the 768-feature,
//! mirrored as the layout says): every position trains `shared`, the bucket's own part learns
//! only what differs, and AdamW's weight decay pulls that difference
//! towards zero, that is towards what all buckets agree on. The sum is what gets clipped,
//! checkpointed and written: the engine never sees the parts.

use super::model::{Model, CLIP, FT_WEIGHTS};
use super::optim::{AdamW, BLOCK};
use crate::engine::nnue::{HIDDEN, INPUTS};
use rayon::prelude::*;

/// The shared part's size: one bucket's feature weights.
const SHARED: usize = INPUTS * HIDDEN;

/// A factorised run's trainable weights: the model's parameters with each bucket's own part in
/// place of its feature weights, then the shared part.
pub struct Factorised {
    theta: Vec<f32>,
    grad: Vec<f32>,
    /// Where the model's feature weights end (and its other parameters begin).
    ft_end: usize,
    opt: AdamW,
}

impl Factorised {
    /// Splits `model`'s feature weights into their mean over the buckets (the shared part) and
    /// each bucket's difference from it, so the model evaluates as it did; buckets that start
    /// equal ([`Model::random`]) start with no part of their own.
    pub fn new(model: &Model, weight_decay: f32) -> Factorised {
        let (ft_end, params) = (model.blocks.ft_bias, model.params.len());
        let buckets = (ft_end - FT_WEIGHTS) / SHARED;
        let mut theta = model.params.clone();
        let mut shared = vec![0.0f32; SHARED];
        for (i, s) in shared.iter_mut().enumerate() {
            // In f64 the sum of a few f32 is exact: equal weights give exactly their value.
            let sum: f64 = (0..buckets).map(|b| f64::from(model.params[FT_WEIGHTS + b * SHARED + i])).sum();
            *s = (sum / buckets as f64) as f32;
            for b in 0..buckets {
                theta[FT_WEIGHTS + b * SHARED + i] -= *s;
            }
        }
        theta.extend_from_slice(&shared);
        let n = theta.len();
        debug_assert_eq!(n, params + SHARED);
        Factorised { theta, grad: vec![0.0; n], ft_end, opt: AdamW::new(n, weight_decay) }
    }

    /// One AdamW step on the parts from the model's gradient `shards` (summed in their order);
    /// the shared part's gradient is the sum of every bucket's. Then `model` gets the clipped
    /// sums.
    pub fn step(&mut self, model: &mut Model, shards: &[Vec<f32>], lr: f32) {
        let params = model.params.len();
        let (own, shared) = self.grad.split_at_mut(params);
        own.par_chunks_mut(BLOCK).enumerate().for_each(|(b, g)| {
            let at = b * BLOCK;
            for (i, g) in g.iter_mut().enumerate() {
                *g = shards.iter().fold(0.0f32, |s, sh| s + sh[at + i]);
            }
        });
        let (own, ft_end) = (&*own, self.ft_end);
        shared.par_chunks_mut(BLOCK).enumerate().for_each(|(b, g)| {
            let at = b * BLOCK;
            for (i, g) in g.iter_mut().enumerate() {
                *g = (FT_WEIGHTS + at + i..ft_end).step_by(SHARED).fold(0.0f32, |s, k| s + own[k]);
            }
        });
        self.opt.step(&mut self.theta, std::slice::from_ref(&self.grad), lr);
        let (model_part, shared) = self.theta.split_at_mut(params);
        for w in model_part[..model.blocks.out_bias].iter_mut().chain(shared) {
            *w = w.clamp(-CLIP, CLIP);
        }
        self.merge(model);
    }

    /// Writes the parts' sums into `model`'s feature weights and copies the rest.
    fn merge(&self, model: &mut Model) {
        let (theta, shared) = self.theta.split_at(model.params.len());
        let ft_end = self.ft_end;
        model.params.par_chunks_mut(BLOCK).enumerate().for_each(|(b, p)| {
            let at = b * BLOCK;
            for (i, w) in p.iter_mut().enumerate() {
                let k = at + i;
                *w = if (FT_WEIGHTS..ft_end).contains(&k) {
                    (theta[k] + shared[(k - FT_WEIGHTS) % SHARED]).clamp(-CLIP, CLIP)
                } else {
                    theta[k]
                };
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::nnue::layout;

    #[test]
    fn the_shared_part_gets_every_buckets_gradient_and_the_model_the_sums() {
        let mut model = Model::random(3, layout::MIRROR4);
        let before = model.clone();
        let mut f = Factorised::new(&model, 0.0);
        let params = model.params.len();
        // Every bucket starts with the same weights: all of them shared.
        assert!(f.theta[..model.blocks.ft_bias].iter().all(|&w| w == 0.0));
        assert_eq!(f.theta[params..], model.params[..SHARED]);
        // A gradient on feature 100's weight j in bucket 0 and the same in bucket 2; nothing else.
        let (j, feature) = (7, 100);
        let mut grad = vec![0.0f32; params];
        grad[feature * HIDDEN + j] = 1.0;
        grad[(2 * INPUTS + feature) * HIDDEN + j] = 1.0;
        let shared = |f: &Factorised| f.theta[params + feature * HIDDEN + j];
        let start = shared(&f);
        f.step(&mut model, &[grad], 0.01);
        // Adam's first step moves every parameter with a gradient by the learning rate.
        assert!((shared(&f) - start + 0.01).abs() < 1e-6, "{start} -> {}", shared(&f));
        let moved = |k: usize| model.params[k] - before.params[k];
        for bucket in 0..4 {
            let k = (bucket * INPUTS + feature) * HIDDEN + j;
            let own = if bucket % 2 == 0 { -0.01 } else { 0.0 };
            assert!((moved(k) - (own - 0.01)).abs() < 1e-5, "bucket {bucket}: {}", moved(k));
        }
        // Nothing else moves: no other feature weight, bias or output weight.
        let touched: Vec<usize> = (0..4).map(|bucket| (bucket * INPUTS + feature) * HIDDEN + j).collect();
        assert!((0..params).filter(|k| !touched.contains(k)).all(|k| moved(k) == 0.0));
    }
}
