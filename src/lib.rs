//! Arbiter: a UCI chess engine that can explain, citing the FIDE Laws of Chess,
//! why any move is legal or illegal.

pub mod chess;
pub mod engine;
pub mod rules;
pub mod tools;
pub mod uci;
