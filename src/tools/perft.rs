//! `arbiter perft`: the move generator's counts ([`crate::chess::perft`]) from the command
//! line, for one position or a suite file, with the time they took.

use crate::chess::perft::{divide, parse_perft_epd, perft};
use crate::chess::Position;
use crate::data::position_args::Chess960Arg;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

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
