//! What the tools share, so that no subcommand imports another: the formats of game records
//! (`selfplay --records`), opening books and training-data lines, and the one-dimensional
//! minimiser the tuners fit their scales with.

pub mod lines;
pub mod minimise;
pub mod openings;
pub mod records;
