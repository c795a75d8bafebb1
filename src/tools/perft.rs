//! perft: counts the leaf nodes of the legal move tree, to check the move generator
//! against published counts and to measure its speed; and the `arbiter perft` command.

use crate::chess::movegen::{count_legal, legal_moves};
use crate::chess::{Move, Position};
use crate::tools::position_args::Chess960Arg;
use rayon::prelude::*;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

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

// ---------------------------------------------------------------------------------------
// The command line.

/// Arguments of `arbiter perft`.
#[derive(clap::Args, Debug, Clone)]
pub struct PerftArgs {
    /// Depth to count to (not with --epd).
    pub depth: Option<u32>,
    /// Position to start from (default: the initial position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move as `<uci-move>: <count>`.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads (root moves split with rayon).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Run a suite file of lines `FEN ;D1 n ;D2 n ...`; exit status 1 on any mismatch.
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// With --epd: skip depths above this.
    #[arg(long)]
    pub max_depth: Option<u32>,
    // --divide writes castling in the Chess960 way with it.
    #[command(flatten)]
    pub variant: Chess960Arg,
}

/// Runs `arbiter perft`: `Nodes searched: N` on stdout (with `--divide`, the per-move counts
/// first), time on stderr; exit status 2 for a bad FEN or suite file, 1 for a suite mismatch.
pub fn run(args: PerftArgs) -> ExitCode {
    let PerftArgs { depth, fen, divide: show_divide, threads, epd, max_depth, variant } = args;
    let threads = threads.max(1);
    if let Some(path) = epd {
        return run_suite(&path, max_depth, threads);
    }
    let Some(depth) = depth else {
        eprintln!("error: perft needs a DEPTH (or --epd FILE)");
        return ExitCode::from(2);
    };
    let mut pos = match fen.as_deref().map(Position::from_fen).unwrap_or_else(|| Ok(Position::startpos())) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return ExitCode::from(2);
        }
    };
    if variant.chess960 {
        pos.set_chess960(true);
    }
    let start = Instant::now();
    let total = if show_divide || threads > 1 {
        let counts = divide(&pos, depth, threads);
        let mut out = std::io::stdout().lock();
        if show_divide {
            for (m, n) in &counts {
                let _ = writeln!(out, "{m}: {n}");
            }
            let _ = writeln!(out);
        }
        if depth == 0 {
            1
        } else {
            counts.iter().map(|(_, n)| n).sum()
        }
    } else {
        perft(&pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {total}");
    eprintln!("time {:.3} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}

fn run_suite(path: &Path, max_depth: Option<u32>, threads: usize) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let entries = match parse_perft_epd(&text) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let (mut passed, mut failed, mut nodes) = (0u64, 0u64, 0u64);
    let total = entries.len();
    for (i, entry) in entries.iter().enumerate() {
        eprint!("\r[{}/{}] ", i + 1, total);
        let pos = match Position::from_fen(&entry.fen) {
            Ok(p) => p,
            Err(e) => {
                println!("FAIL #{} bad FEN '{}': {e}", i + 1, entry.fen);
                failed += 1;
                continue;
            }
        };
        for &(d, expected) in &entry.depths {
            if max_depth.is_some_and(|m| d > m) {
                continue;
            }
            let got: u64 =
                if threads > 1 { divide(&pos, d, threads).iter().map(|(_, n)| n).sum() } else { perft(&pos, d) };
            nodes += got;
            let ok = got == expected;
            if ok {
                passed += 1;
            } else {
                failed += 1;
            }
            println!(
                "{} #{} D{} expected {} got {} {}",
                if ok { "ok  " } else { "FAIL" },
                i + 1,
                d,
                expected,
                got,
                entry.fen
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!();
    println!(
        "Summary: {passed} passed, {failed} failed; {nodes} nodes in {secs:.2} s ({:.0} nodes/s)",
        nodes as f64 / secs.max(1e-9)
    );
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
