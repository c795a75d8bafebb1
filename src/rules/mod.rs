//! The Laws beyond movement.

pub mod mating;
