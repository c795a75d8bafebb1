//! The measured strength of the levels: written by `scripts/calibrate_levels.py`, do not
//! edit by hand (see docs/levels.md). Each point is (skill, Elo on the CCRL Blitz scale).
//!
//! Source: placeholder guesses before the first calibration run.

pub const POINTS: &[(f64, f64)] =
    &[(-40.0, 800.0), (0.0, 1200.0), (20.0, 1600.0), (40.0, 2000.0), (60.0, 2350.0), (80.0, 2600.0), (120.0, 2950.0)];
