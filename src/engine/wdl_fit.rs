//! The fitted win/draw/loss model: written by `scripts/fit_wdl.py`, do not edit by hand
//! (see docs/engine.md#win-draw-loss). `a` and `b` are quadratic in material / 58.
//!
//! Fitted 2026-12-05 at commit 3eb0992 on 84154 positions from 1000 games:
//! `arbiter selfplay --nodes 10000 --games 1000 --repeat --openings tests/data/openings.epd --seed 1 --concurrency 1 --datagen target/wdl/data.txt`

pub const A: [f64; 3] = [245.379, -310.813, 138.421];
pub const B: [f64; 3] = [67.548, -16.746, 36.818];
