//! The subcommands built on the library: explain, perft, bench, self-play, the
//! evaluation tuner and levels.

pub mod bench;
pub mod explain;
pub mod levels;
pub mod perft;
pub mod selfplay;
pub mod texel;
