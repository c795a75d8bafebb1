//! The fitted win/draw/loss model: written by `scripts/fit_wdl.py`, do not edit by hand
//! (see docs/engine.md#win-draw-loss). `a` and `b` are quadratic in material / 58.
//!
//! Fitted 2026-12-06 at commit 0717bfb on 86250 positions from 998 games:
//! `arbiter selfplay --nodes 10000 --games 1000 --repeat --openings tests/data/openings.epd --seed 1 --concurrency 1 --datagen target/wdl/data.txt`

pub const A: [f64; 3] = [241.347, -242.149, 74.774];
pub const B: [f64; 3] = [25.201, 138.691, -86.658];
