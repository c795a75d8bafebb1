//! The subcommands built on the library: explain, perft, bench and self-play.

pub mod bench;
pub mod explain;
pub mod perft;
pub mod selfplay;
