//! Arbiter's integration tests: one crate, so the release build is linked once, with a module per
//! subject. Run one subject with `cargo test --release --test it <subject>::`.

mod common;

mod cli_hostile;
mod differential;
mod endgames;
mod explain;
mod explain_reading;
mod fen;
mod fuzz_parsers;
mod gauntlet_diff;
mod gauntlet_evals;
mod levels;
mod nnue;
mod notation;
mod openbench;
mod oracle;
mod oracle960;
mod perft;
mod pgn;
mod python_client;
mod referee;
mod referee_cli;
mod repo_hygiene;
mod rescore;
mod resource_limits;
mod search_api;
mod selfplay;
mod selfplay_data;
mod serve;
mod spsa;
mod syzygy;
mod train;
mod uci_behaviour;
mod uci_hostile;
mod uci_scripts;
mod uci_torture;
mod unwinnable;
