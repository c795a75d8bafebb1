//! The measured strength of the levels: written by `scripts/calibrate_levels.py`, do not
//! edit by hand (see docs/levels.md). Each point is (skill, Elo on the CCRL Blitz scale).
//!
//! Source: `scripts/calibrate_levels.py --refit target/levels-p3/results-pass1.json`,
//! 2026-11-30: the line fitted to the measured points of those runs.

pub const POINTS: &[(f64, f64)] = &[(40.62, 1581.5), (67.30, 2404.7)];
