//! perft: counts the leaf nodes of the legal move tree, to check the move generator
//! against published counts and to measure its speed; and the suite format that carries
//! those counts (`FEN ;D1 n ;D2 n ...`).

use super::movegen::{count_legal, legal_moves};
use super::{Move, Position};
use rayon::prelude::*;
use std::fmt;

/// Leaf count at `depth`. The last ply is counted in bulk (the number of legal moves),
/// as Stockfish does.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos),
        _ => {
            let mut nodes = 0;
            for &m in legal_moves(pos).iter() {
                nodes += perft(&pos.make_move(m), depth - 1);
            }
            nodes
        }
    }
}

/// Per-root-move counts ("divide"), in generation order, computed on `threads` threads.
/// The work is split at the second ply (root move, reply) so two threads stay busy
/// even when one root move has a much larger subtree than the others.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let roots: Vec<Move> = legal_moves(pos).iter().copied().collect();
    if depth == 0 {
        return Vec::new();
    }
    if threads <= 1 || depth < 3 {
        return roots.iter().map(|&m| (m, perft(&pos.make_move(m), depth - 1))).collect();
    }
    let tasks: Vec<(usize, Position)> = roots
        .iter()
        .enumerate()
        .flat_map(|(i, &m)| {
            let child = pos.make_move(m);
            legal_moves(&child).iter().map(|&r| (i, child.make_move(r))).collect::<Vec<_>>()
        })
        .collect();
    let run = || -> Vec<u64> { tasks.par_iter().with_min_len(1).map(|(_, p)| perft(p, depth - 2)).collect() };
    let counts = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    };
    let mut totals = vec![0u64; roots.len()];
    for ((i, _), c) in tasks.iter().zip(counts) {
        totals[*i] += c;
    }
    roots.into_iter().zip(totals).collect()
}

/// One line of a perft suite: `FEN ;D1 n ;D2 n ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdEntry {
    pub fen: String,
    pub depths: Vec<(u32, u64)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for EpdError {}

/// Parses a perft suite; blank lines and lines starting with `#` are skipped.
pub fn parse_perft_epd(text: &str) -> Result<Vec<EpdEntry>, EpdError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut depths = Vec::new();
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let mut it = part.split_whitespace();
            let (Some(d), Some(n), None) = (it.next(), it.next(), it.next()) else {
                return Err(EpdError {
                    line: i + 1,
                    message: format!("'{part}' is not of the form 'D<depth> <count>'"),
                });
            };
            let depth = d
                .strip_prefix('D')
                .and_then(|x| x.parse::<u32>().ok())
                .ok_or_else(|| EpdError { line: i + 1, message: format!("'{d}' is not a depth like D3") })?;
            let count = n
                .parse::<u64>()
                .map_err(|_| EpdError { line: i + 1, message: format!("'{n}' is not a node count") })?;
            depths.push((depth, count));
        }
        out.push(EpdEntry { fen, depths });
    }
    Ok(out)
}
