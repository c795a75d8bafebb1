//! The subcommands built on the library: explain, perft, self-play, the evaluation
//! tuner, the network trainer and its rescorer, levels, unwinnable and referee. Every module
//! here is one subcommand, and none imports another: what they share is in `crate::data`
//! (`tests/it/repo_hygiene.rs` holds the layers to that).

pub mod explain;
pub mod levels;
pub mod perft;
pub mod referee;
pub mod rescore;
pub mod selfplay;
pub mod texel;
pub mod train;
pub mod unwinnable;
