//! Command-line tools built on the library: perft, bench (and later self-play).

pub mod bench;
pub mod perft;
pub mod selfplay;
