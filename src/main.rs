//! The `arbiter` binary: the UCI loop by default, and the perft, bench, explain,
//! selfplay, texel, train, rescore, levels, unwinnable, referee and serve subcommands.

use arbiter::chess::attacks;
use arbiter::engine::bench;
use arbiter::tools::perft;
use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

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
    Perft(perft::PerftArgs),
    /// Search a fixed list of positions to a fixed depth (1 thread, 16 MB hash) and print
    /// `Nodes searched: N` (deterministic; quoted as `Bench: N` in commits) and `Nodes/second`.
    Bench {
        /// Search depth.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Evaluate with this network file (`<none>`: the hand-crafted evaluation), as the
        /// `EvalFile` UCI option.
        #[arg(long, value_name = "PATH", default_value = arbiter::engine::nnue::source::EMBEDDED_NAME)]
        evalfile: String,
    },
    /// Explain, citing the FIDE Laws, whether a move is legal and why (or report on the position).
    Explain(arbiter::tools::explain::ExplainArgs),
    /// Play matches between two engines (in-process or any UCI engine), judged by the FIDE referee.
    Selfplay(Box<arbiter::tools::selfplay::SelfplayArgs>),
    /// Fit the evaluation's weights to game results from `selfplay --datagen` (Texel's method).
    Texel(arbiter::tools::texel::TexelArgs),
    /// Train the neural evaluation (NNUE) on `selfplay --datagen` positions; write the network file.
    Train(Box<arbiter::tools::train::TrainArgs>),
    /// Search training positions again (deeper, or with another network) and write them with
    /// the new scores.
    Rescore(arbiter::tools::rescore::RescoreArgs),
    /// Show what each UCI_Elo level does (nodes, lines, noise) under UCI_LimitStrength.
    Levels(arbiter::tools::levels::LevelsArgs),
    /// Can each player still checkmate by any series of legal moves (FIDE 5.2.2, 6.9, 5.1.2)?
    /// A helpmate as evidence, or the proof that it is impossible.
    Unwinnable(arbiter::tools::unwinnable::UnwinnableArgs),
    /// Judge finished games (PGN): illegal moves, moves after the end, results the Laws
    /// contradict (a win on time or by resignation the winner could never have mated).
    Referee(arbiter::tools::referee::RefereeArgs),
    /// The teaching board in a browser: select, preview, confirm, ask why, flip, claim, drills,
    /// review a game, play Arbiter; English and Chinese (http://127.0.0.1:8080/).
    Serve(arbiter::serve::ServeArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    attacks::init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Bench { depth, evalfile }) => {
            let r = match bench::run(depth, &evalfile, &mut |l| eprintln!("{l}")) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "Nodes searched: {}", r.nodes);
            let _ = writeln!(out, "Nodes/second: {}", r.nps());
            eprintln!("time {:.2} s", r.elapsed.as_secs_f64());
            ExitCode::SUCCESS
        }
        Some(Command::Explain(args)) => arbiter::tools::explain::run(args),
        Some(Command::Selfplay(args)) => arbiter::tools::selfplay::run(*args),
        Some(Command::Texel(args)) => arbiter::tools::texel::run(args),
        Some(Command::Train(args)) => arbiter::tools::train::run(*args),
        Some(Command::Rescore(args)) => arbiter::tools::rescore::run(args),
        Some(Command::Levels(args)) => arbiter::tools::levels::run(args),
        Some(Command::Unwinnable(args)) => arbiter::tools::unwinnable::run(args),
        Some(Command::Referee(args)) => arbiter::tools::referee::run(args),
        Some(Command::Serve(args)) => arbiter::serve::run(args),
        None => {
            arbiter::uci::run_stdio();
            // Exit at once even if a search thread is still unwinding (quit mid-search).
            let _ = std::io::stdout().flush();
            std::process::exit(0)
        }
    }
}
