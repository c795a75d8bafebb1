//! The subcommands built on the library: explain, perft, bench, self-play, the evaluation
//! tuner, levels, unwinnable and referee.

pub mod bench;
pub mod explain;
pub mod levels;
pub mod perft;
pub mod referee;
pub mod selfplay;
pub mod texel;
pub mod unwinnable;
