//! The measured strength of the levels: written by `scripts/calibrate_levels.py`, do not
//! edit by hand (see docs/levels.md). Each point is (skill, Elo on the CCRL Blitz scale).
//!
//! Source: pass 1 of `scripts/calibrate_levels.py --binary target/cal/arbiter --levels 1400,1700,2000,2300,2600 --games 50 --tc 4+0.04 --concurrency 1 --passes 1 --derived-games 0 --write --out target/levels-p1`,
//! 2026-11-30, commit d23f993, tc 4+0.04, 50 games per level.

pub const POINTS: &[(f64, f64)] = &[(17.50, 1458.9), (40.00, 1643.1), (57.14, 2019.9), (80.00, 2767.0)];
