//! The fitted win/draw/loss model: written by `scripts/fit_wdl.py`, do not edit by hand
//! (see docs/engine.md#win-draw-loss). `a` and `b` are quadratic in material / 58.
//!
//! Fitted 2026-11-30 at commit d23f993 on 57871 positions from 625 games:
//! `arbiter selfplay --nodes 10000 --games 800 --repeat --openings tests/data/openings.epd --seed 1 --concurrency 1 --datagen target/wdl/data.txt (stopped by SIGTERM after 625 games)`

pub const A: [f64; 3] = [603.038, -1237.607, 726.353];
pub const B: [f64; 3] = [325.724, -698.309, 455.561];
