//! The measured strength of the levels: written by `scripts/calibrate_levels.py`, do not
//! edit by hand (see docs/levels.md). Each point is (skill, Elo on the CCRL Blitz scale).
//!
//! Source: `scripts/calibrate_levels.py --refit target/levels-p1/results-pass1.json target/levels-p2/results-pass1.json`,
//! 2026-11-30: the measured points of those runs, made monotone.

pub const POINTS: &[(f64, f64)] = &[
    (10.16, 1369.6),
    (25.00, 1450.0),
    (40.00, 1643.1),
    (42.59, 1881.9),
    (56.69, 2148.3),
    (65.71, 2570.5),
    (77.44, 2787.5),
];
