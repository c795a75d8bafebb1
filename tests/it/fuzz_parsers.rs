//! Property tests of every parser on generated hostile input (issue 6, item 1): FEN, UCI
//! long algebraic, SAN (syntax, SAN-for-a-position, either notation), the perft EPD reader,
//! the PGN reader, the UCI command line, `setoption` values (option table and a live
//! `Engine`), and the `explain` CLI arguments (clap, then the game build and the explainer).
//!
//! Each parser gets the five generators of `common::hostile` (random bytes, token soups of
//! real tokens, mutated valid samples, boundary numbers, very long lines) in equal shares.
//! Properties: nothing panics; every error has a non-empty message; what is accepted is
//! right (a FEN round-trips, a move is legal and its SAN reads back to it, a PGN game
//! written and read back has the same moves, an option that was set has the value).
//!
//! CI: 20,000 inputs per parser (`cargo test --release --test it fuzz_parsers::`).
//! Long run: `ARBITER_FUZZ_INPUTS=1000000 cargo test --release --test it fuzz_parsers:: -- --ignored --test-threads=1`
//! (inputs per parser; default 1,000,000), reported in the README.

use crate::common::hostile::{self, Rng, KINDS};
use arbiter::chess::notation::{parse_move, parse_san, parse_san_syntax, parse_uci_move, to_san};
use arbiter::chess::perft::parse_perft_epd;
use arbiter::chess::{legal_moves, Position};
use arbiter::engine::options::parse_option;
use arbiter::engine::{Engine, EngineOptions};
use arbiter::explain::{explain, json, svg, text};
use arbiter::protocol::{parse, Command};
use arbiter::rules::pgn::{read_pgn, write_pgn};
use arbiter::tools::explain::ExplainArgs;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

const CI_INPUTS: usize = 20_000;

fn long_run_inputs() -> usize {
    std::env::var("ARBITER_FUZZ_INPUTS").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000_000)
}

/// Runs `check` on `total` hostile inputs, the generators taking turns.
fn drive(total: usize, seed: u64, valid: &[&str], tokens: &[&str], alphabet: &str, mut check: impl FnMut(&str)) {
    arbiter::chess::attacks::init();
    let mut rng = Rng::new(seed);
    for i in 0..total {
        let s = hostile::hostile(&mut rng, i % KINDS, valid, tokens, alphabet);
        check(&s);
    }
}

// ----------------------------------------------------------------------------------------
// FEN, UCI long algebraic, EPD
// ----------------------------------------------------------------------------------------

const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2",
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
    "4k3/8/8/8/8/8/8/4K2R w K - 99 200",
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];
const FEN_TOKENS: &[&str] = &[
    "rnbqkbnr", "pppppppp", "8", "/", "PPPPPPPP", "RNBQKBNR", "w", "b", "KQkq", "-", "0", "1", "e3", "e6", "K", "k",
    "Q", "q", "4k3", "4K3", " ", "9", "AHah", "Kk",
];
const FEN_ALPHABET: &str = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh90";

fn positions() -> Vec<Position> {
    FENS.iter().map(|f| Position::from_fen(f).expect("sample FEN")).collect()
}

fn check_fen(s: &str) -> bool {
    match Position::from_fen(s) {
        Ok(p) => {
            let again = Position::from_fen(&p.to_fen()).expect("an accepted FEN re-parses");
            assert_eq!(again.to_fen(), p.to_fen(), "round trip of {s:?}");
            true
        }
        Err(e) => {
            assert!(!e.to_string().is_empty(), "empty FEN error for {s:?}");
            false
        }
    }
}

fn fuzz_fen_uci_epd(total: usize, seed: u64) {
    let positions = positions();
    let mut accepted = 0;
    let mut k = 0;
    drive(total, seed, &FENS, FEN_TOKENS, FEN_ALPHABET, |s| {
        accepted += check_fen(s) as usize;
        let pos = &positions[k % positions.len()];
        k += 1;
        match parse_uci_move(pos, s) {
            Ok(m) => assert!(legal_moves(pos).iter().any(|l| *l == m), "{s:?} accepted but not legal"),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
        if let Err(e) = parse_perft_epd(&format!("{s} ;D1 20 ;{s}\n{s}")) {
            assert!(!e.to_string().is_empty());
        }
    });
    assert!(accepted > 0, "no generated FEN was valid: the generators are too weak");
}

#[test]
fn fen_uci_move_and_epd_survive_hostile_input() {
    fuzz_fen_uci_epd(CI_INPUTS, 0xF022_0001);
}

#[test]
#[ignore = "long run (ARBITER_FUZZ_INPUTS per parser, default 1,000,000); run by hand and report"]
fn fen_uci_move_and_epd_survive_hostile_input_long() {
    fuzz_fen_uci_epd(long_run_inputs(), 0xF022_0002);
}

// ----------------------------------------------------------------------------------------
// Move text: SAN syntax, SAN for a position, either notation
// ----------------------------------------------------------------------------------------

const MOVES: &[&str] = &[
    "e4",
    "Nf3",
    "Nbd2",
    "R1e2",
    "Qh4e1",
    "exd6",
    "exd6 e.p.",
    "O-O",
    "0-0-0",
    "O-O-O+",
    "e8=Q",
    "e8Q",
    "bxa8=N#",
    "Ng1-f3",
    "e2e4",
    "e7e8q",
    "a7a8n",
    "Kxe2",
    "Bb5+",
    "Qd1xd7!?",
    "h8=K",
    "Pe4",
    "e1g1",
];
const MOVE_TOKENS: &[&str] = &[
    "K", "Q", "R", "B", "N", "P", "x", ":", "=", "+", "#", "!", "?", "-", "O", "0", "e.p.", "ep", "a", "d", "h", "1",
    "4", "8", "9", "i", "e4", "d5", "a8", "h1", "q", "n", " ",
];
const MOVE_ALPHABET: &str = "KQRBNPabcdefgh12345678x=+#!?-O0:. ";

fn fuzz_move_text(total: usize, seed: u64) {
    let positions = positions();
    let mut accepted = 0;
    let mut k = 0;
    drive(total, seed, MOVES, MOVE_TOKENS, MOVE_ALPHABET, |s| {
        let _ = parse_san_syntax(s);
        let pos = &positions[k % positions.len()];
        k += 1;
        for r in [parse_san(pos, s), parse_move(pos, s)] {
            match r {
                Ok(m) => {
                    accepted += 1;
                    assert!(legal_moves(pos).iter().any(|l| *l == m), "{s:?} accepted but not legal");
                    assert_eq!(parse_san(pos, &to_san(pos, m)), Ok(m), "SAN of {s:?} does not read back");
                }
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
    });
    assert!(accepted > 0, "no generated move text was accepted: the generators are too weak");
}

#[test]
fn move_text_survives_hostile_input() {
    fuzz_move_text(CI_INPUTS, 0x5A4_0001);
}

#[test]
#[ignore = "long run (ARBITER_FUZZ_INPUTS per parser, default 1,000,000); run by hand and report"]
fn move_text_survives_hostile_input_long() {
    fuzz_move_text(long_run_inputs(), 0x5A4_0002);
}

// ----------------------------------------------------------------------------------------
// PGN reader
// ----------------------------------------------------------------------------------------

const PGNS: &[&str] = &[
    "[Event \"?\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    "1. d4 {a comment} d5 (1... Nf6 2. c4) 2. c4 $1 e6!? 3. Nc3 ; rest of line\nNf6 *",
    "[FEN \"8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2\"]\n[SetUp \"1\"]\n\n2. bxc6 e.p. Rh8 1/2-1/2\n",
    "[White \"x\"]\n1. e4 1-0\n\n[White \"y\"]\n1. d4 d5 0-1\n",
    "1. Nf3 Nf6 2. g3 g6 3. Bg2 Bg7 4. O-O O-O 1/2-1/2",
];
const PGN_TOKENS: &[&str] = &[
    "[",
    "]",
    "\"",
    "Event",
    "FEN",
    "SetUp",
    "White",
    "{",
    "}",
    "(",
    ")",
    ";",
    "%",
    "\n",
    "1.",
    "2...",
    "e4",
    "e5",
    "Nf3",
    "O-O",
    "exd6",
    "e.p.",
    "$1",
    "!?",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "½-½",
    "\\",
    "8/8/8/8/8/8/8/K1k5 w - - 0 1",
];
const PGN_ALPHABET: &str = "[]\"{}();%\n.$!?*-/KQRBNabcdefgh12345678xO=+# ";

fn fuzz_pgn(total: usize, seed: u64) {
    let mut read = 0;
    drive(total, seed, PGNS, PGN_TOKENS, PGN_ALPHABET, |s| match read_pgn(s) {
        Ok(games) => {
            for g in games {
                read += 1;
                // Whatever was read can be written and reads back to the same moves.
                if let Ok(text) = write_pgn(&g) {
                    let back = read_pgn(&text).unwrap_or_else(|e| panic!("written PGN does not re-read: {e}\n{text}"));
                    assert_eq!(back.len(), 1, "{text}");
                    assert_eq!(back[0].moves, g.moves, "{text}");
                }
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    });
    assert!(read > 0, "no generated PGN was read: the generators are too weak");
}

#[test]
fn pgn_reader_survives_hostile_input() {
    fuzz_pgn(CI_INPUTS, 0x9E4_0001);
}

#[test]
#[ignore = "long run (ARBITER_FUZZ_INPUTS per parser, default 1,000,000); run by hand and report"]
fn pgn_reader_survives_hostile_input_long() {
    fuzz_pgn(long_run_inputs(), 0x9E4_0002);
}

// ----------------------------------------------------------------------------------------
// UCI command line and setoption values
// ----------------------------------------------------------------------------------------

const UCI_LINES: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "debug on",
    "position startpos moves e2e4 e7e5 g1f3",
    "position fen 8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2 moves b5c6",
    "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 40",
    "go depth 12 nodes 100000 mate 3 movetime 500",
    "go infinite searchmoves e2e4 d2d4",
    "go ponder wtime 5 btime 5",
    "go perft 3",
    "setoption name Hash value 64",
    "setoption name Move Overhead value 30",
    "setoption name Clear Hash",
    "setoption name Ponder value true",
    "explain exd6 e.p. zh",
    "bench 3",
    "stop",
    "ponderhit",
];
const UCI_TOKENS: &[&str] = &[
    "uci",
    "debug",
    "on",
    "off",
    "isready",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "Ponder",
    "Move",
    "Overhead",
    "Clear",
    "true",
    "false",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "e2e4",
    "e7e5",
    "e7e8q",
    "0000",
    "go",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "stop",
    "ponderhit",
    "d",
    "eval",
    "bench",
    "explain",
    "zh",
    "en",
    "quit",
    "8/8/8/8/8/8/8/K1k5",
    "w",
    "b",
    "-",
];
const UCI_ALPHABET: &str = "abcdefghijklmnopqrstuvwxyz0123456789 -/";

fn fuzz_uci_line(total: usize, seed: u64) {
    let mut parsed = 0;
    drive(total, seed, UCI_LINES, UCI_TOKENS, UCI_ALPHABET, |s| match parse(s) {
        Ok((cmd, warnings)) => {
            parsed += !matches!(cmd, Command::Unknown(_) | Command::Empty) as usize;
            for w in warnings {
                assert!(!w.to_string().is_empty());
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    });
    assert!(parsed > 0);
}

#[test]
fn uci_command_line_survives_hostile_input() {
    fuzz_uci_line(CI_INPUTS, 0x0C1_0001);
}

#[test]
#[ignore = "long run (ARBITER_FUZZ_INPUTS per parser, default 1,000,000); run by hand and report"]
fn uci_command_line_survives_hostile_input_long() {
    fuzz_uci_line(long_run_inputs(), 0x0C1_0002);
}

const OPTION_LINES: &[&str] = &[
    "setoption name Hash value 16",
    "setoption name Threads value 2",
    "setoption name MultiPV value 3",
    "setoption name Ponder value false",
    "setoption name Move Overhead value 100",
    "setoption name Clear Hash",
    "setoption name multipv value 256",
];
const OPTION_TOKENS: &[&str] = &[
    "setoption",
    "name",
    "value",
    "Hash",
    "hash",
    "Threads",
    "MultiPV",
    "Ponder",
    "Move",
    "Overhead",
    "Clear",
    "true",
    "false",
    "TRUE",
    "0",
    "1",
    "16",
    "256",
    "257",
    "5000",
    "5001",
    "-1",
];

/// `setoption` lines through the UCI parser, the option table and a live engine: an
/// accepted value is the new value; a refused one leaves every option unchanged.
fn fuzz_setoption(total: usize, seed: u64) {
    let mut engine = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() }).expect("1 MB engine");
    let mut set = 0;
    drive(total, seed, OPTION_LINES, OPTION_TOKENS, UCI_ALPHABET, |s| {
        let Ok((Command::SetOption { name, value }, _)) = parse(s) else { return };
        let checked = parse_option(&name, value.as_deref());
        if let Err(e) = &checked {
            assert!(!e.to_string().is_empty());
        }
        // Only small tables are really allocated (the allocation path is a resource test).
        if let Ok((spec, arbiter::engine::OptionValue::Spin(mb))) = checked {
            if spec.name == "Hash" && mb > 4 {
                return;
            }
        }
        let before = engine.options().clone();
        match engine.set_option(&name, value.as_deref()) {
            Ok(()) => {
                set += 1;
                // The new options are the old ones with this option's setter applied.
                let (spec, v) = checked.expect("the engine accepted what the table refused");
                let mut expected = before.clone();
                spec.apply(&mut expected, v);
                assert_eq!(&expected, engine.options());
            }
            Err(e) => {
                assert!(checked.is_err(), "the table accepted what the engine refused: {e}");
                assert!(!e.to_string().is_empty());
                assert_eq!(&before, engine.options(), "a refused option changed the options");
            }
        }
    });
    assert!(set > 0);
}

#[test]
fn setoption_values_survive_hostile_input() {
    fuzz_setoption(CI_INPUTS, 0x5E7_0001);
}

#[test]
#[ignore = "long run (ARBITER_FUZZ_INPUTS per parser, default 1,000,000); run by hand and report"]
fn setoption_values_survive_hostile_input_long() {
    fuzz_setoption(long_run_inputs(), 0x5E7_0002);
}

// ----------------------------------------------------------------------------------------
// explain CLI arguments (clap), then the game build and the explainer
// ----------------------------------------------------------------------------------------

#[derive(clap::Parser, Debug)]
#[command(name = "explain")]
struct ExplainCli {
    #[command(flatten)]
    args: ExplainArgs,
}

const CLI_TOKENS: &[&str] = &[
    "--fen",
    "--moves",
    "--lang",
    "--json",
    "--svg",
    "--",
    "-",
    "--help",
    "-h",
    "--fen=",
    "--lang=zh",
    "en",
    "zh",
    "fr",
    "e4",
    "exd6",
    "e.p.",
    "O-O",
    "e2e4",
    "Nf3",
    "e8=Q",
    "/tmp/x.svg",
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
    "e2e4 e7e5 g1f3",
    "e4 e5 Nf3 Nc6 Bb5",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
];

/// Hostile argument vectors: token soups, single hostile strings in each slot, raw
/// non-UTF-8 bytes.
fn cli_args(rng: &mut Rng, kind: usize) -> Vec<OsString> {
    let mut v: Vec<OsString> = vec!["explain".into()];
    match kind {
        0 => {
            for _ in 0..rng.below(6) {
                v.push(OsString::from_vec(hostile::random_bytes(rng, 20)));
            }
        }
        1 => {
            for _ in 0..rng.below(8) {
                v.push(rng.pick(CLI_TOKENS).into());
            }
        }
        2 => {
            let k = rng.below(KINDS);
            let fen = hostile::hostile(rng, k, &FENS, FEN_TOKENS, FEN_ALPHABET);
            v.extend(["--fen".into(), fen.into()]);
            let k = rng.below(4);
            let moves = hostile::hostile(rng, k, MOVES, MOVE_TOKENS, MOVE_ALPHABET);
            v.extend(["--moves".into(), moves.into()]);
        }
        3 => {
            let k = rng.below(KINDS);
            let mv = hostile::hostile(rng, k, MOVES, MOVE_TOKENS, MOVE_ALPHABET);
            if rng.one_in(2) {
                v.push("--json".into());
            }
            v.extend(["--lang".into(), (*rng.pick(&["en", "zh", "fr", "", "ZH"])).into(), mv.into()]);
        }
        _ => {
            let s = hostile::long_line(rng, MOVES, MOVE_TOKENS);
            v.extend(["--moves".into(), s.into()]);
        }
    }
    v
}

fn fuzz_explain_cli(total: usize, seed: u64) {
    use clap::Parser;
    arbiter::chess::attacks::init();
    let mut rng = Rng::new(seed);
    let mut explained = 0;
    for i in 0..total {
        let argv = cli_args(&mut rng, i % KINDS);
        let args = match ExplainCli::try_parse_from(&argv) {
            Ok(cli) => cli.args,
            Err(e) => {
                assert!(!e.to_string().is_empty(), "{argv:?}");
                continue;
            }
        };
        // What `run_explain` does, without its stdout and file writes.
        let lang = match args.position.language() {
            Ok(l) => l,
            Err(_) => continue,
        };
        let game = match args.position.game() {
            Ok(g) => g,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                continue;
            }
        };
        let move_text = args.mv.join(" ");
        explained += 1;
        if move_text.trim().is_empty() {
            let report = game.report();
            assert!(!text::render_report(&report, lang).is_empty());
            assert!(!json::report(&report).is_empty());
        } else {
            let ex = explain(&game, &move_text);
            assert!(!text::render_explanation(&ex, lang).is_empty(), "{argv:?}");
            assert!(!json::explanation(&ex, lang).is_empty());
            if args.svg.is_some() {
                assert!(svg::explanation_svg(&game, &ex, lang).starts_with("<svg"));
            }
        }
    }
    assert!(explained > 0);
}

#[test]
fn explain_cli_arguments_survive_hostile_input() {
    fuzz_explain_cli(CI_INPUTS, 0xE49_0001);
}

#[test]
#[ignore = "long run (ARBITER_FUZZ_INPUTS per parser, default 1,000,000); run by hand and report"]
fn explain_cli_arguments_survive_hostile_input_long() {
    fuzz_explain_cli(long_run_inputs(), 0xE49_0002);
}
