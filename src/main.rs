//! The `arbiter` binary: the UCI loop by default, and the perft, bench, explain and
//! selfplay subcommands.

use arbiter::chess::{attacks, Position};
use arbiter::tools::{bench, perft};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "A UCI chess engine that explains, citing the FIDE Laws, why a move is legal or illegal.\nWith no subcommand it speaks UCI on stdin/stdout."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree (move generator correctness and speed).
    Perft {
        /// Depth to count to (not with --epd).
        depth: Option<u32>,
        /// Position to start from (default: the initial position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move as `<uci-move>: <count>`.
        #[arg(long)]
        divide: bool,
        /// Worker threads (root moves split with rayon).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Run a suite file of lines `FEN ;D1 n ;D2 n ...`; exit status 1 on any mismatch.
        #[arg(long)]
        epd: Option<std::path::PathBuf>,
        /// With --epd: skip depths above this.
        #[arg(long)]
        max_depth: Option<u32>,
    },
    /// Search a fixed list of positions to a fixed depth (1 thread, 16 MB hash) and print
    /// `Nodes searched: N` (deterministic; quoted as `Bench: N` in commits) and `Nodes/second`.
    Bench {
        /// Search depth.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
    },
    /// Explain, citing the FIDE Laws, whether a move is legal and why (or report on the position).
    Explain(arbiter::tools::explain::ExplainArgs),
    /// Play matches between two engines (in-process or any UCI engine), judged by the FIDE referee.
    Selfplay(Box<arbiter::tools::selfplay::SelfplayArgs>),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    attacks::init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, fen, divide, threads, epd, max_depth }) => {
            run_perft(depth, fen, divide, threads, epd, max_depth)
        }
        Some(Command::Bench { depth }) => {
            let r = bench::run(depth, &mut |l| eprintln!("{l}"));
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "Nodes searched: {}", r.nodes);
            let _ = writeln!(out, "Nodes/second: {}", r.nps());
            eprintln!("time {:.2} s", r.elapsed.as_secs_f64());
            ExitCode::SUCCESS
        }
        Some(Command::Explain(args)) => arbiter::tools::explain::run(args),
        Some(Command::Selfplay(args)) => arbiter::tools::selfplay::run(*args),
        None => {
            arbiter::uci::run_stdio();
            // Exit at once even if a search thread is still unwinding (quit mid-search).
            let _ = std::io::stdout().flush();
            std::process::exit(0)
        }
    }
}

fn run_perft(
    depth: Option<u32>,
    fen: Option<String>,
    show_divide: bool,
    threads: usize,
    epd: Option<std::path::PathBuf>,
    max_depth: Option<u32>,
) -> ExitCode {
    let threads = threads.max(1);
    if let Some(path) = epd {
        return run_perft_suite(&path, max_depth, threads);
    }
    let Some(depth) = depth else {
        eprintln!("error: perft needs a DEPTH (or --epd FILE)");
        return ExitCode::from(2);
    };
    let pos = match fen.as_deref().map(Position::from_fen).unwrap_or_else(|| Ok(Position::startpos())) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let total = if show_divide || threads > 1 {
        let counts = perft::divide(&pos, depth, threads);
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
        perft::perft(&pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {total}");
    eprintln!("time {:.3} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}

fn run_perft_suite(path: &std::path::Path, max_depth: Option<u32>, threads: usize) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let entries = match perft::parse_perft_epd(&text) {
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
            let got: u64 = if threads > 1 {
                perft::divide(&pos, d, threads).iter().map(|(_, n)| n).sum()
            } else {
                perft::perft(&pos, d)
            };
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
