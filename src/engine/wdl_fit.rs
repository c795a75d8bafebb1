//! The fitted win/draw/loss model: written by `scripts/fit_wdl.py`, do not edit by hand
//! (see docs/engine.md#win-draw-loss). `a` and `b` are quadratic in material / 58.
//!
//! Source: placeholder before the first fit.

pub const A: [f64; 3] = [150.0, 0.0, 0.0];
pub const B: [f64; 3] = [70.0, 0.0, 0.0];
