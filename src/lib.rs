//! Arbiter: a UCI chess engine that can explain, citing the FIDE Laws of Chess,
//! why any move is legal or illegal.
//!
//! Layers, bottom-up: [`chess`] (board, moves, notation) → [`rules`] (the Laws: referee,
//! dead positions, PGN) and [`syzygy`] (endgame tablebases) → [`explain`] (why a move is
//! legal or illegal, in words) → [`engine`] (search, evaluation) → [`uci`] and [`tools`]
//! (the front ends).

pub mod chess;
pub mod engine;
pub mod explain;
pub mod rules;
pub mod syzygy;
pub mod tools;
pub mod uci;
