//! `arbiter serve`: the board of the teaching site, in a browser. A learner selects a piece,
//! sees its legal targets, previews a move, confirms it, asks why at any time, flips the
//! board, claims draws, resigns or lets a flag fall, plays drills, reviews a recorded game or
//! plays against Arbiter — in English or Chinese. One binary: the page is embedded, nothing is
//! loaded from the network.
//!
//! A front end like `uci` and `tools`: it decides nothing about chess (the Laws layer and the
//! explain mode do) and imports neither of them.
//!
//! - [`board`]: one board's state; [`api`]: the requests; [`view`]: what the page shows;
//! - [`store`]: the boards held; [`player`]: Arbiter's moves; [`review`]: a recorded game;
//! - [`drills`]: the rules page's questions and strategies; [`words`]: the page's words;
//! - [`http`]: routes and limits over `tiny_http`; `assets/`: the page.

pub mod api;
pub mod board;
pub mod drills;
pub mod http;
pub mod player;
pub mod review;
pub mod store;
pub mod view;
pub mod words;

use crate::engine::EngineOptions;
use crate::explain::Lang;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `arbiter serve`.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address opens the board to other
    /// machines: a warning says so.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The page's language when the browser asks for none: en or zh (switchable on the page).
    #[arg(long, default_value = "en")]
    pub lang: String,
    /// Syzygy tables (directories, `:`-separated): the page shows the tablebase value and
    /// Arbiter plays with them.
    #[arg(long, value_name = "DIRS")]
    pub syzygy: Option<String>,
    /// Arbiter's evaluation, as the UCI option `EvalFile` (`<embedded>`, `<none>` or a file).
    #[arg(long, value_name = "PATH", default_value = crate::engine::nnue::source::EMBEDDED_NAME)]
    pub evalfile: String,
    /// The longest Arbiter thinks over a move, in milliseconds (a level answers sooner).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub move_time: u64,
    /// Searches at once over all boards (each with one thread and a 16 MB hash); more wait.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub engines: u64,
    /// Boards held at once; when full, the board unused longest is dropped.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_boards: u64,
    /// Minutes a board is kept unused.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub board_minutes: u64,
    /// Requests served at once.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub workers: u64,
}

/// Runs the server until the process is stopped.
pub fn run(args: ServeArgs) -> ExitCode {
    crate::chess::attacks::init();
    let Some(lang) = Lang::parse(&args.lang) else {
        eprintln!("error: --lang '{}' is not supported; use en or zh", args.lang);
        return ExitCode::from(2);
    };
    let options = EngineOptions {
        eval_file: args.evalfile.clone(),
        syzygy_path: args.syzygy.clone().unwrap_or_default(),
        ..EngineOptions::default()
    };
    let (engines, notes) =
        match player::Engines::new(options, args.engines as usize, Duration::from_millis(args.move_time)) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
    for n in notes {
        eprintln!("{n}");
    }
    let engines = Arc::new(engines);
    if args.syzygy.is_some() && engines.tablebases().is_empty() {
        eprintln!("error: no Syzygy tables found in '{}'", args.syzygy.as_deref().unwrap_or_default());
        return ExitCode::from(2);
    }
    let server = match tiny_http::Server::http((args.host.as_str(), args.port)) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("error: cannot listen on {}:{}: {e}", args.host, args.port);
            return ExitCode::from(2);
        }
    };
    let address =
        server.server_addr().to_ip().map_or_else(|| format!("{}:{}", args.host, args.port), |a| a.to_string());
    if !server.server_addr().to_ip().is_some_and(|a| a.ip().is_loopback()) {
        eprintln!(
            "warning: listening on {address}: other machines can reach the board (there is no login); \
             use --host 127.0.0.1 to keep it on this machine"
        );
    }
    let app = Arc::new(http::App {
        store: Arc::new(store::Store::new(args.max_boards as usize, Duration::from_secs(args.board_minutes * 60))),
        tablebases: engines.tablebases(),
        engines,
        lang,
    });
    eprintln!("Arbiter's board: http://{address}/  (Ctrl-C stops it)");
    let workers: Vec<_> = (0..args.workers)
        .filter_map(|i| {
            let (server, app) = (Arc::clone(&server), Arc::clone(&app));
            std::thread::Builder::new()
                .name(format!("http {i}"))
                .spawn(move || {
                    while let Ok(request) = server.recv() {
                        http::serve(&app, request);
                    }
                })
                .ok()
        })
        .collect();
    if workers.is_empty() {
        eprintln!("error: cannot start a thread to serve requests");
        return ExitCode::from(2);
    }
    for w in workers {
        let _ = w.join();
    }
    ExitCode::SUCCESS
}
