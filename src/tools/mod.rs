//! Command-line tools built on the library: perft (and later bench, self-play).

pub mod perft;
pub mod selfplay;
