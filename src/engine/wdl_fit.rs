//! The fitted win/draw/loss model: written by `scripts/fit_wdl.py`, do not edit by hand
//! (see docs/engine.md#win-draw-loss). `a` and `b` are quadratic in material / 58.
//!
//! Fitted 2026-12-05 at commit 833b8a6 on 85094 positions from 998 games:
//! `arbiter selfplay --nodes 10000 --games 1000 --repeat --openings tests/data/openings.epd --seed 1 --concurrency 1 --datagen target/wdl/data.txt`

pub const A: [f64; 3] = [241.558, -332.714, 162.164];
pub const B: [f64; 3] = [82.261, -70.819, 73.845];
