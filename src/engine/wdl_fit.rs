//! The fitted win/draw/loss model: written by `scripts/fit_wdl.py`, do not edit by hand
//! (see docs/engine.md#win-draw-loss). `a` and `b` are quadratic in material / 58.
//!
//! Fitted 2026-12-06 at commit 192df44 on 83968 positions from 1000 games:
//! `arbiter selfplay --nodes 10000 --games 1000 --repeat --openings tests/data/openings.epd --seed 1 --concurrency 1 --datagen target/wdl/data.txt`

pub const A: [f64; 3] = [233.378, -280.031, 119.220];
pub const B: [f64; 3] = [33.906, 94.064, -44.171];
