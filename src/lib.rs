//! Arbiter: a UCI chess engine that can explain, citing the FIDE Laws of Chess,
//! why any move is legal or illegal.
//!
//! Layers, bottom-up: [`rng`] (the one seeded random generator) → [`chess`] (board, moves,
//! notation, perft) → [`rules`] (the Laws: referee, dead positions, PGN) and [`syzygy`]
//! (endgame tablebases) → [`explain`] (why a move is legal or illegal, in words) →
//! [`engine`] (search, evaluation, bench) → [`protocol`] (the UCI text both ends of the pipe
//! speak) and [`data`] (game records, openings, training lines) → [`uci`], [`tools`] and [`serve`]
//! (the front ends, independent of each other; no subcommand imports another). A module uses only
//! the layers below it.

pub mod chess;
pub mod data;
pub mod engine;
pub mod explain;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod serve;
pub mod syzygy;
pub mod tools;
pub mod uci;
