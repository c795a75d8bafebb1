//! The subcommands built on the library: explain, perft, self-play, the evaluation
//! tuner, the network trainer and its rescorer, levels, unwinnable and referee.

pub mod explain;
pub mod in_order;
pub mod levels;
pub mod perft;
pub mod position_args;
pub mod referee;
pub mod rescore;
pub mod selfplay;
pub mod texel;
pub mod train;
pub mod unwinnable;
