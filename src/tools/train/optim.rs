//! AdamW and the learning-rate schedule for `arbiter train`.

use rayon::prelude::*;

/// Parameters per parallel block of the update (the same result for any thread count).
pub const BLOCK: usize = 8192;

/// AdamW (Loshchilov and Hutter): Adam's step plus a weight decay decoupled from the
/// gradient.
pub struct AdamW {
    m: Vec<f32>,
    v: Vec<f32>,
    steps: u32,
    weight_decay: f32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl AdamW {
    pub fn new(params: usize, weight_decay: f32) -> AdamW {
        AdamW { m: vec![0.0; params], v: vec![0.0; params], steps: 0, weight_decay }
    }

    /// One step at learning rate `lr`; the gradient is the sum of `shards` (added in their
    /// order, so the result does not depend on how the work was spread over threads).
    pub fn step(&mut self, params: &mut [f32], shards: &[Vec<f32>], lr: f32) {
        self.steps = self.steps.saturating_add(1);
        let t = i32::try_from(self.steps).unwrap_or(i32::MAX);
        let c1 = (1.0 - f64::from(BETA1).powi(t)) as f32;
        let c2 = (1.0 - f64::from(BETA2).powi(t)) as f32;
        let decay = self.weight_decay;
        params
            .par_chunks_mut(BLOCK)
            .zip(self.m.par_chunks_mut(BLOCK))
            .zip(self.v.par_chunks_mut(BLOCK))
            .enumerate()
            .for_each(|(b, ((p, m), v))| {
                let at = b * BLOCK;
                for i in 0..p.len() {
                    let g = shards.iter().fold(0.0f32, |s, sh| s + sh[at + i]);
                    m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
                    v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
                    let update = (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
                    p[i] -= lr * (update + decay * p[i]);
                }
            });
    }
}

/// The learning rate at `step` of `total`: a cosine from `start` down to `end`.
pub fn cosine(start: f32, end: f32, step: usize, total: usize) -> f32 {
    let x = step as f64 / total.max(1) as f64;
    let c = 0.5 * (1.0 + (std::f64::consts::PI * x.min(1.0)).cos());
    (f64::from(end) + (f64::from(start) - f64::from(end)) * c) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_runs_from_start_to_end() {
        assert_eq!(cosine(1e-3, 1e-5, 0, 100), 1e-3);
        assert!((cosine(1e-3, 1e-5, 50, 100) - 5.05e-4).abs() < 1e-9);
        assert!((cosine(1e-3, 1e-5, 100, 100) - 1e-5).abs() < 1e-9);
    }

    #[test]
    fn adamw_minimises_a_quadratic() {
        // f(p) = sum (p_i - i)^2 over more than one block; gradient split over two shards.
        let n = BLOCK + 100;
        let mut p = vec![0.0f32; n];
        let mut opt = AdamW::new(n, 0.0);
        for _ in 0..3000 {
            let g: Vec<f32> = p.iter().enumerate().map(|(i, &x)| x - (i % 7) as f32).collect();
            opt.step(&mut p, &[g.clone(), g], 0.02);
        }
        assert!(p.iter().enumerate().all(|(i, &x)| (x - (i % 7) as f32).abs() < 0.05));
    }
}
