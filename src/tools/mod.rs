//! The subcommands built on the library: explain, perft, bench, self-play and the
//! evaluation tuner.

pub mod bench;
pub mod explain;
pub mod perft;
pub mod selfplay;
pub mod texel;
