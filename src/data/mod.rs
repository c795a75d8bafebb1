//! What the tools share, so that no subcommand imports another: the formats of game records
//! (`selfplay --records`), opening books and training-data lines, the one-dimensional
//! minimiser the tuners fit their scales with, the batch commands' work on all cores in input
//! order, and the arguments of the subcommands that read one position.

pub mod in_order;
pub mod lines;
pub mod minimise;
pub mod openings;
pub mod position_args;
pub mod records;
