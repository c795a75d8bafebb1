//! PGN write and read back; the reader against python-chess (tests/oracle/pgn_read.py) on
//! the red team's cases of issue #37 and on generated files with comments, variations, NAGs,
//! escapes and clock comments.

use crate::common;
use crate::common::rng::Rng;
use arbiter::chess::notation::to_san;
use arbiter::chess::{legal_moves, Position};
use arbiter::rules::pgn::{read_pgn, write_pgn, PgnGame, PgnReader, RawGame, Variant};
use arbiter::rules::referee::board_outcome;
use arbiter::rules::Game;

fn moves(fen: Option<&str>, text: &str) -> Vec<arbiter::chess::Move> {
    let list: Vec<&str> = text.split_whitespace().collect();
    Game::from_fen_and_moves(fen, &list).expect("legal").moves().to_vec()
}

#[test]
fn writes_the_roster_setup_and_comments_and_reads_them_back() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mv = moves(Some(fen), "O-O O-O-O Ra7 Rh2 Kxh2");
    let mut g = PgnGame {
        start_fen: Some(fen.to_string()),
        moves: mv.clone(),
        comments: vec![Some("+0.34/12 0.52s".into()), None, Some("a long comment ".repeat(8)), None, None],
        result: "*".into(),
        ..PgnGame::default()
    };
    g.set_tag("White", "Arbiter");
    g.set_tag("Termination", "unterminated");
    g.set_tag("TimeControl", "10+0.1");
    let text = write_pgn(&g).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        &lines[..7],
        &[
            "[Event \"?\"]",
            "[Site \"?\"]",
            "[Date \"?\"]",
            "[Round \"?\"]",
            "[White \"Arbiter\"]",
            "[Black \"?\"]",
            "[Result \"*\"]"
        ]
    );
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]"));
    assert!(text.contains("[Termination \"unterminated\"]") && text.contains("[TimeControl \"10+0.1\"]"));
    assert!(text.contains("1. O-O {+0.34/12 0.52s} 1... O-O-O 2. Ra7"), "{text}");
    assert!(text.lines().all(|l| l.len() <= 80), "{text}");
    let back = read_pgn(&text).unwrap();
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].moves, mv);
    assert_eq!(back[0].comments[0].as_deref(), Some("+0.34/12 0.52s"));
    assert_eq!(back[0].tag("TimeControl"), Some("10+0.1"));
    assert_eq!(back[0].result, "*");
}

#[test]
fn start_position_has_no_setup_tag() {
    let g = PgnGame { moves: moves(None, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7"), result: "1-0".into(), ..PgnGame::default() };
    let text = write_pgn(&g).unwrap();
    assert!(!text.contains("SetUp") && !text.contains("[FEN"));
    assert!(text.contains("4. Qxf7# 1-0"), "{text}");
}

#[test]
fn reads_comments_nags_variations_and_several_games() {
    let text = r#"[Event "A"]
[Site "?"]
[Result "1-0"]

1. e4 {best by test} e5 $1 2. Nf3!? (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6 ; a line comment
3. Bb5 a6?! 4. Ba4 Nf6 5. O-O Be7 1-0

[Event "B"]
[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]
[SetUp "1"]

1. O-O+ Kd7 2. Rf7+ 1/2-1/2
"#;
    let games = read_pgn(text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves.len(), 10);
    assert_eq!(games[0].result, "1-0");
    assert_eq!(games[0].comments[0].as_deref(), Some("best by test"));
    assert_eq!(games[1].moves.len(), 3);
    assert_eq!(games[1].result, "1/2-1/2");
    let end = games[1].moves.iter().fold(games[1].start_position().unwrap(), |p: Position, &m| p.make_move(m));
    assert_eq!(end.to_fen(), "8/3k1R2/8/8/8/8/8/6K1 b - - 3 2");
}

#[test]
fn errors_name_the_bad_move() {
    let err = read_pgn("1. e4 e5 2. Ke3 *").unwrap_err();
    assert!(err.to_string().contains("Ke3"), "{err}");
    assert!(read_pgn("1. e4 (1. d4 *").is_err());
    assert!(read_pgn("[FEN \"junk\"]\n\n1. e4 *").is_err());
}

#[test]
fn a_referee_game_round_trips_through_pgn() {
    let game = Game::from_fen_and_moves(None, &["f3", "e5", "g4", "Qh4"]).unwrap();
    let pgn = PgnGame::from_game(&game);
    assert_eq!(pgn.result, "0-1");
    let text = write_pgn(&pgn).unwrap();
    assert!(text.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{text}");
    let back = read_pgn(&text).unwrap().remove(0).to_game().unwrap();
    assert_eq!(back.moves(), game.moves());
}

/// Chess960 games carry `Variant`, `SetUp` and `FEN` (also for the standard array, number 518)
/// and read back in Chess960 mode; Cute Chess's `fischerandom` is understood.
#[test]
fn chess960_games_carry_variant_and_fen_and_read_back() {
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
    let game = Game::from_fen_and_moves(Some(fen), &["b1h1", "O-O-O"]).unwrap();
    let text = write_pgn(&PgnGame::from_game(&game)).unwrap();
    assert!(text.contains(&format!("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]")), "{text}");
    assert!(text.contains("1. O-O O-O-O *"), "{text}");
    let back = read_pgn(&text).unwrap().remove(0);
    assert!(back.is_chess960());
    assert_eq!(back.to_game().unwrap().moves(), game.moves());
    assert_eq!(back.moves[1].to_uci(), "b8a8");

    let mut start = arbiter::chess::chess960::start_position(518).unwrap();
    start.set_chess960(true);
    let mut game = Game::new(start);
    for m in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O"] {
        game.play_text(m).unwrap();
    }
    assert_eq!(game.moves()[6].to_uci(), "e1h1");
    let text = write_pgn(&PgnGame::from_game(&game)).unwrap();
    assert!(text.contains("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]"), "{text}");
    assert_eq!(read_pgn(&text).unwrap()[0].moves[6].to_uci(), "e1h1");

    let cute = format!("[Variant \"fischerandom\"]\n[FEN \"{fen}\"]\n\n1. O-O *\n");
    let g = read_pgn(&cute).unwrap().remove(0);
    assert!(g.start_position().unwrap().is_chess960());
    assert_eq!(g.moves[0].to_uci(), "b1h1");
}

#[test]
fn reads_en_passant_marks_and_zero_castling() {
    let games = read_pgn("1. e4 Nf6 2. e5 d5 3. exd6 e.p. exd6 4. Nf3 Be7 5. Bc4 Nc6 6. 0-0 0-0 *").unwrap();
    assert_eq!(games[0].moves.len(), 12);
    assert_eq!(games[0].moves[4].to_uci(), "e5d6");
    assert_eq!(games[0].moves[10].to_uci(), "e1g1");
}

#[test]
fn a_closing_brace_without_a_comment_is_an_error_not_a_hang() {
    // Found by tests/fuzz_parsers.rs: a stray '}' made the reader loop forever.
    for text in ["1. e4 } e5 *", "}", "1. e4 e5 {ok} } 2. Nf3 *", "[Event \"x\"]\n\n}\n"] {
        let err = read_pgn(text).unwrap_err();
        assert!(err.to_string().contains("unbalanced '}'"), "{text:?}: {err}");
    }
    assert_eq!(read_pgn("1. e4 {a} e5 *").unwrap()[0].moves.len(), 2);
}

#[test]
fn a_malformed_result_tag_reads_and_writes_as_unknown() {
    // Found by tests/fuzz_parsers.rs: `[Result "1-*0"]` was copied to the movetext on
    // writing, which then did not read back.
    let games = read_pgn("[Result \"1-*0\"]\n\n1. e4\n").unwrap();
    assert_eq!(games[0].result, "*");
    let mut g = games[0].clone();
    g.result = "1-*0".to_string();
    let text = write_pgn(&g).unwrap();
    assert!(text.contains("[Result \"*\"]") && text.trim_end().ends_with("1. e4 *"), "{text}");
    assert_eq!(read_pgn(&text).unwrap()[0].moves, g.moves);
    assert_eq!(read_pgn("[Result \"½-½\"]\n\n1. e4\n").unwrap()[0].result, "1/2-1/2");
}

#[test]
fn a_comment_word_starting_with_percent_survives_line_wrapping() {
    // Found by probing the writer after fuzzing: wrapping a long comment put '%aaaa' in the
    // first column, which the reader takes for an escape line and drops (unbalanced '{').
    let text = format!("1. e4 {{{}}} e5 *", "%aaaa ".repeat(40));
    let games = read_pgn(&text).unwrap();
    let written = write_pgn(&games[0]).unwrap();
    let back = read_pgn(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(back[0].moves, games[0].moves);
    let words = |c: &Option<String>| c.as_deref().unwrap_or("").split_whitespace().count();
    assert_eq!(words(&back[0].comments[0]), 40);
    // A real escape line (first column) is still skipped, in tags and movetext.
    let games = read_pgn("% generated\n[Event \"x\"]\n\n1. e4\n%skip this e5\ne5 *\n").unwrap();
    assert_eq!(games[0].moves.len(), 2);
}

/// One game as a reader sees it: the tags written (sorted), the result, the main line in UCI.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Read {
    tags: Vec<(String, String)>,
    result: String,
    moves: Vec<String>,
}

/// The games as Arbiter's reader reads `text` (every game must read).
fn ours(text: &str) -> Vec<Read> {
    PgnReader::new(text.as_bytes())
        .map(|raw| {
            let raw = raw.expect("reading a string cannot fail");
            let mut tags = raw.tags.clone();
            tags.sort();
            let result = raw.result();
            let game = raw.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
            let moves = game.moves.iter().map(|m| m.to_uci()).collect();
            Read { tags, result, moves }
        })
        .collect()
}

/// The games as python-chess reads `text`, each with the number of errors it met; `None`
/// when python-chess is not installed.
fn python(name: &str, text: &str) -> Option<Vec<(Read, usize)>> {
    let path = std::env::temp_dir().join(format!("arbiter-pgn-{}-{name}.pgn", std::process::id()));
    std::fs::write(&path, text).expect("write PGN");
    let out = common::oracle::python_chess_output("PGN reader", "pgn_read.py", &[&path.to_string_lossy()]);
    let _ = std::fs::remove_file(&path);
    let mut games: Vec<(Read, usize)> = Vec::new();
    for line in out?.lines() {
        let (kind, rest) = line.split_at(1);
        let rest = rest.trim_start();
        match kind {
            "G" => {
                let (errors, result) = rest.split_once(' ').expect("G line");
                let read = Read { tags: Vec::new(), result: result.to_string(), moves: Vec::new() };
                games.push((read, errors.parse().expect("error count")));
            }
            "T" => {
                let (name, hex) = rest.split_once(' ').unwrap_or((rest, ""));
                let bytes: Vec<u8> =
                    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect();
                let value = String::from_utf8(bytes).expect("utf-8");
                games.last_mut().expect("G first").0.tags.push((name.to_string(), value));
            }
            "M" => games.last_mut().expect("G first").0.moves = rest.split_whitespace().map(String::from).collect(),
            _ => panic!("oracle line {line}"),
        }
    }
    for (g, _) in &mut games {
        g.tags.sort();
    }
    Some(games)
}

/// Arbiter reads `text` as `expected` games, and so does python-chess (without an error).
fn same_as_python(name: &str, text: &str, expected: &[&[&str]]) {
    let mine = ours(text);
    let moves: Vec<Vec<&str>> = mine.iter().map(|g| g.moves.iter().map(String::as_str).collect()).collect();
    assert_eq!(moves, expected, "{name}: Arbiter's main lines\n{text}");
    let Some(theirs) = python(name, text) else { return };
    assert_eq!(theirs.len(), mine.len(), "{name}: python-chess reads {} games\n{text}", theirs.len());
    for (i, ((py, errors), me)) in theirs.iter().zip(&mine).enumerate() {
        assert_eq!(*errors, 0, "{name}: python-chess met errors in game {}", i + 1);
        assert_eq!(py, me, "{name}: game {}", i + 1);
    }
}

/// The red team's cases (issue #37, section 3) and the rest of the standard's grammar, each
/// read as python-chess reads it.
#[test]
fn the_red_team_cases_read_as_python_chess_reads_them() {
    // (a) A '{' inside a rest-of-line comment is text: the next game is a game.
    same_as_python(
        "brace-in-semicolon",
        "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 ; a comment with a { brace\n2. Nf3 Nc6 1-0\n\n\
         [Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n",
        &[&["e2e4", "e7e5", "g1f3", "b8c6"], &["d2d4", "d7d5"]],
    );
    // (b) Games without tags (import format), each ended by its result.
    same_as_python(
        "import-format",
        "1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e5 1-0\n\n1. d4 *\n",
        &[&["f2f3", "e7e5", "g2g4", "d8h4"], &["e2e4", "e7e5"], &["d2d4"]],
    );
    // A game of a termination marker alone is a game; a marker repeated on the line that
    // ended a game is not (found by the generated files below).
    same_as_python("marker-only", "1. e4 1-0 1-0\n\n*\n\n1. d4 *\n", &[&["e2e4"], &[], &["d2d4"]]);
    // (c) A UTF-8 byte-order mark before the first tag.
    same_as_python("bom", "\u{feff}[Event \"c\"]\n[Result \"*\"]\n\n1. e4 *\n", &[&["e2e4"]]);
    // Clock and evaluation comments, NAGs, marks, nested variations with comments.
    same_as_python(
        "clk-nags-variations",
        "[Event \"d\"]\n\n1. e4 { [%clk 0:03:00] } 1... e5 {[%eval 0.2] [%clk 0:02:59.5]} 2. Nf3!? $1 \
         (2. f4 $2 exf4 (2... d5 {a (bracket} 3. exd5) 3. Nf3) (2. Bc4) 2... Nc6?! $6 3. Bb5 a6!! \
         4. Ba4 Nf6?? 5. O-O *\n",
        &[&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1"]],
    );
    // Escape lines, rest-of-line comments and move numbers in every form.
    same_as_python(
        "escapes-and-numbers",
        "% written by hand\n[Event \"e\"]\n; a note line\n[Site \"f\"]\n\n1.e4 1...e5 2. Nf3\n%an escape line e4\n\
         2 ... Nc6 3.Bb5 ; ( { [ all text\n3... a6 *\n",
        &[&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]],
    );
    // String escapes in tags; a multi-line comment holding a tag, an escape and a result.
    same_as_python(
        "string-escapes",
        "[Event \"say \\\"hi\\\" \\\\ bye\"]\n[White \"Ren\u{e9}e \u{674e}\"]\n\n1. d4 {line one\n[Event \"x\"]\n\
         %not an escape 1-0\n\nlast} d5 1/2-1/2\n",
        &[&["d2d4", "d7d5"]],
    );
    // Chess960 in the spellings python-chess accepts: castling is king takes rook.
    for (i, variant) in ["Chess960", "Chess 960", "fischerandom", "Fischer Random", "FischerRandom"].iter().enumerate()
    {
        same_as_python(
            &format!("chess960-{i}"),
            &format!(
                "[Variant \"{variant}\"]\n[SetUp \"1\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1\"]\n\n\
                 1. O-O O-O-O *\n"
            ),
            &[&["b1h1", "b8a8"]],
        );
    }
}

/// Where python-chess and the PGN standard part, the standard is followed: python-chess
/// plays the next game's moves after a mate when no blank line ends the first (and reports an
/// error), and drops a tag followed by a comment.
#[test]
fn import_format_games_end_at_their_result_and_a_tag_may_carry_a_comment() {
    let text = "1. f3 e5 2. g4 Qh4# 0-1\n1. e4 e5 1-0 1. d4 d5 *\n";
    let mine = ours(text);
    assert_eq!(mine.len(), 3);
    assert_eq!(mine[0].moves, ["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!((mine[1].moves.join(" "), mine[1].result.as_str()), ("e2e4 e7e5".to_string(), "1-0"));
    assert_eq!((mine[2].moves.join(" "), mine[2].result.as_str()), ("d2d4 d7d5".to_string(), "*"));
    if let Some(theirs) = python("no-blank-line", text) {
        assert_eq!(theirs.len(), 1);
        assert!(theirs[0].1 > 0, "python-chess read the merged games without an error");
    }
    // (d) A tag followed by a comment: one game, the tag kept.
    let text = "[Event \"c\"] ; note\n[Result \"*\"]\n\n1. e4 *\n";
    let mine = ours(text);
    assert_eq!(mine.len(), 1);
    assert!(mine[0].tags.contains(&("Event".to_string(), "c".to_string())), "{:?}", mine[0].tags);
    if let Some(theirs) = python("tag-comment", text) {
        assert_eq!(theirs.len(), 1);
        assert_eq!(theirs[0].0.moves, mine[0].moves);
    }
    // A game without a result ends where the next game's tags begin, or at a blank line.
    let games = ours("[Event \"a\"]\n\n1. e4 e5\n[Event \"b\"]\n\n1. d4\n\n1. c4 *");
    let lines: Vec<usize> = games.iter().map(|g| g.moves.len()).collect();
    assert_eq!(lines, [2, 1, 1]);
}

#[test]
fn unreadable_text_is_the_games_error_and_the_next_game_is_read() {
    let text = "[Event \"a\"]\n[White \"x\n\n1. e4 *\n\n[Event \"b\"]\n\n1. e4 (1. d4 *\n\n\
                [Event \"c\"]\n\n1. e4 {never closed\n";
    let games: Vec<RawGame> = PgnReader::new(text.as_bytes()).map(|g| g.expect("read")).collect();
    let errors: Vec<String> = games.iter().map(|g| g.error.as_ref().map_or(String::new(), |e| e.to_string())).collect();
    assert_eq!(games.len(), 3, "{errors:?}");
    assert_eq!(errors[0], "game 1, line 2: malformed tag: [White \"x");
    assert_eq!(errors[1], "game 2, line 8: unbalanced '(' in the movetext");
    assert_eq!(errors[2], "game 3, line 12: unbalanced '{' in the movetext");
    assert_eq!(games[0].moves().collect::<Vec<_>>(), ["e4"]);
}

/// Issue #64: a tag pair after moves on their line is not a new game (it split the game into
/// a clean fragment and a phantom game with a false illegal move); python-chess reads one game
/// there too (it skips the tag). A result written against a move (`Qh4#0-1`) is broken
/// notation, not a move: the game's error, and its marker still ends the game.
#[test]
fn a_tag_in_the_moves_and_a_result_against_a_move_are_the_games_errors() {
    let read = |text: &str| -> Vec<RawGame> { PgnReader::new(text.as_bytes()).map(|g| g.expect("read")).collect() };
    let text = "[Event \"a\"]\n[Result \"0-1\"]\n\n1. f3 e5 [Event \"mid\"] 2. g4 Qh4# 0-1\n";
    let games = read(text);
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(games[0].moves().collect::<Vec<_>>(), ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(games[0].tag("Event"), Some("a"));
    assert_eq!(games[0].result(), "0-1");
    let error = games[0].error.as_ref().map(|e| e.to_string());
    assert_eq!(error.as_deref(), Some("game 1, line 4: a tag pair in the middle of the moves: [Event \"mid\"]"));
    if let Some(theirs) = python("tag-in-moves", text) {
        assert_eq!(theirs.len(), 1, "python-chess reads one game");
        assert_eq!(theirs[0].0.moves, ["f2f3", "e7e5", "g2g4", "d8h4"]);
    }
    // A tag pair starting a line after the moves still begins the next game.
    assert_eq!(read("1. e4 e5\n[Event \"b\"]\n\n1. d4 *\n").len(), 2);

    let games = read("[Event \"g\"]\n\n1. f3 e5 2. g4 Qh4#0-1\n1. e4 *\n");
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(games[0].moves().collect::<Vec<_>>(), ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(games[0].result(), "0-1");
    let error = games[0].error.as_ref().map(|e| e.to_string());
    assert_eq!(
        error.as_deref(),
        Some("game 1, line 3: 'Qh4#0-1': the result 0-1 is written against the move (a space must separate them)")
    );
    assert_eq!((games[1].moves().collect::<Vec<_>>(), games[1].error.is_none()), (vec!["e4"], true));
    for glued in ["e4*", "Kd21/2-1/2", "Qh4#1-0"] {
        let games = read(&format!("1. {glued}\n"));
        let error = games[0].error.as_ref().map(|e| e.to_string()).unwrap_or_default();
        assert!(error.contains("is written against the move"), "{glued}: {games:?}");
    }
    assert!(read_pgn("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#1-0").is_err());
}

#[test]
fn other_variants_are_refused_and_chess960_is_read_as_chess960() {
    for name in
        ["Crazyhouse", "Atomic", "Antichess", "Giveaway", "Three-check", "King of the Hill", "Horde", "Racing Kings"]
    {
        assert_eq!(Variant::of_tag(Some(name)), Variant::Other(name.to_string()));
        let err = read_pgn(&format!("[Variant \"{name}\"]\n\n1. e4 *\n")).unwrap_err();
        assert!(err.to_string().contains("is not supported"), "{err}");
    }
    for name in ["Standard", "standard", "From Position", "Normal"] {
        assert_eq!(Variant::of_tag(Some(name)), Variant::Standard);
    }
    for name in ["Chess960", "chess 960", "Fischerandom", "Fischer Random", "fischerrandom", "960"] {
        assert_eq!(Variant::of_tag(Some(name)), Variant::Chess960);
    }
}

/// A random legal line from `pos`: at most `plies` moves, stopping where the board ends the game.
fn random_line(rng: &mut Rng, mut pos: Position, plies: usize) -> Vec<(Position, arbiter::chess::Move)> {
    let mut line = Vec::new();
    for _ in 0..plies {
        if board_outcome(&pos).is_some() {
            break;
        }
        let moves = legal_moves(&pos);
        let m = *rng.pick(&moves.iter().copied().collect::<Vec<_>>());
        line.push((pos, m));
        pos = pos.make_move(m);
    }
    line
}

/// Writes PGN text token by token, wrapping lines at `width`, with escape lines and
/// rest-of-line comments thrown in where a line ends.
struct Writer<'r> {
    rng: &'r mut Rng,
    out: String,
    line: usize,
    width: usize,
}

impl Writer<'_> {
    fn token(&mut self, t: &str) {
        if self.line > 0 && self.line + 1 + t.len() > self.width {
            self.end_line();
        }
        if self.line > 0 {
            self.out.push(' ');
            self.line += 1;
        }
        self.out.push_str(t);
        self.line += t.len();
    }

    fn end_line(&mut self) {
        if self.rng.one_in(6) {
            self.out.push_str(" ; a note { with ( brackets [ and \"quotes\"");
        }
        self.out.push('\n');
        if self.rng.one_in(10) {
            self.out.push_str("%escape line 1-0 { ( [Event\n");
        }
        self.line = 0;
    }

    fn comment(&mut self) {
        let c = match self.rng.below(5) {
            0 => format!("[%clk 0:{:02}:{:02}.{}]", self.rng.below(60), self.rng.below(60), self.rng.below(10)),
            1 => format!(
                "[%eval {}.{:02}] [%clk 1:00:{:02}]",
                self.rng.below(5),
                self.rng.below(100),
                self.rng.below(60)
            ),
            2 => "a comment; with ( brackets ) and [tags] and $1 1-0".to_string(),
            3 => "over\ntwo lines\n% and an escape-like line".to_string(),
            _ => "\u{e9}t\u{e9} \u{5f88}\u{597d}".to_string(),
        };
        self.token(&format!("{{{c}}}"));
        self.line += 40; // a multi-line comment's last line is short, but wrap soon after it
    }

    /// Decorations after a move: an annotation mark, NAGs, a comment, variations.
    fn moves(&mut self, line: &[(Position, arbiter::chess::Move)], depth: usize) {
        let mut number_due = true;
        for &(pos, m) in line {
            let white = pos.side_to_move() == arbiter::chess::Color::White;
            let n = pos.fullmove_number();
            let mut san = to_san(&pos, m);
            if self.rng.one_in(8) {
                let marks = ["!", "?", "!!", "??", "!?", "?!"];
                san.push_str(marks[self.rng.below(marks.len())]);
            }
            if white {
                if self.rng.one_in(4) {
                    self.token(&format!("{n}.{san}"));
                } else {
                    self.token(&format!("{n}."));
                    self.token(&san);
                }
            } else if number_due {
                self.token(&format!("{n}..."));
                self.token(&san);
            } else {
                self.token(&san);
            }
            number_due = false;
            if self.rng.one_in(6) {
                let nag = format!("${}", 1 + self.rng.below(139));
                self.token(&nag);
            }
            if self.rng.one_in(5) {
                self.comment();
                number_due = true;
            }
            if depth < 2 && self.rng.one_in(7) {
                let others: Vec<_> = legal_moves(&pos).iter().copied().filter(|&o| o != m).collect();
                if let Some(&other) = others.first() {
                    let mut alt = vec![(pos, other)];
                    let len = self.rng.below(6);
                    alt.extend(random_line(self.rng, pos.make_move(other), len));
                    self.token("(");
                    self.moves(&alt, depth + 1);
                    self.token(")");
                    number_due = true;
                }
            }
        }
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `count` random games as PGN (export and import format), and the games a reader must find.
fn generate(seed: u64, count: usize) -> (String, Vec<Read>) {
    let mut rng = Rng::new(seed);
    let mut expected = Vec::new();
    let mut out = String::new();
    if rng.one_in(2) {
        out.push('\u{feff}');
    }
    for i in 0..count {
        let width = 30 + rng.below(70);
        let mut start = Position::startpos();
        let mut tags: Vec<(String, String)> = Vec::new();
        let import_format = rng.one_in(8);
        if !import_format {
            let names = ["Event", "Site", "Date", "Round", "White", "Black", "Annotator", "TimeControl"];
            let values =
                ["plain", "with \"quotes\"", "back\\slash", "[brackets] {braces} ; semi", "Jos\u{e9} \u{738b}", "?"];
            for name in names.iter().take(2 + rng.below(names.len() - 1)) {
                tags.push((name.to_string(), format!("{} {i}", rng.pick(&values))));
            }
            match rng.below(6) {
                0 => {
                    let mut pos = arbiter::chess::chess960::start_position(rng.below(960) as u16).expect("960");
                    pos.set_chess960(true);
                    let variant = rng.pick(&["Chess960", "chess 960", "Fischerandom", "fischer random"]);
                    tags.push(("Variant".into(), variant.to_string()));
                    tags.push(("FEN".into(), pos.to_fen()));
                    start = pos;
                }
                1 => {
                    let opening = random_line(&mut rng, start, 6);
                    let pos = opening.last().map_or(start, |&(p, m)| p.make_move(m));
                    if board_outcome(&pos).is_none() {
                        tags.push(("SetUp".into(), "1".into()));
                        tags.push(("FEN".into(), pos.to_fen()));
                        start = pos;
                    }
                }
                _ => {}
            }
        }
        let plies = rng.below(90);
        let line = random_line(&mut rng, start, plies);
        let result = rng.pick(&["1-0", "0-1", "1/2-1/2", "*"]).to_string();
        if !import_format {
            tags.push(("Result".into(), result.clone()));
        }
        for (k, v) in &tags {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
        if !tags.is_empty() {
            out.push('\n');
        }
        let mut w = Writer { rng: &mut rng, out: String::new(), line: 0, width };
        w.moves(&line, 0);
        w.token(&result);
        out.push_str(&w.out);
        out.push_str("\n\n");
        tags.sort();
        expected.push(Read { tags, result, moves: line.iter().map(|(_, m)| m.to_uci()).collect() });
    }
    (out, expected)
}

/// Generated files: Arbiter and python-chess both read exactly the games written.
#[test]
fn generated_files_read_as_written_and_as_python_chess_reads_them() {
    let games = std::env::var("PGN_ORACLE_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    for seed in [0x5EED_0001u64, 0x5EED_0002, 0x5EED_0003] {
        let (text, expected) = generate(seed, games);
        let mine = ours(&text);
        assert_eq!(mine.len(), expected.len(), "seed {seed:#x}: games");
        for (i, (m, e)) in mine.iter().zip(&expected).enumerate() {
            assert_eq!(m, e, "seed {seed:#x}, game {}", i + 1);
        }
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(ours(&crlf), mine, "seed {seed:#x}: CRLF line ends");
        // The input may arrive a byte at a time (a pipe): the same games.
        let whole: Vec<RawGame> = PgnReader::new(text.as_bytes()).map(|g| g.expect("read")).collect();
        let bytewise: Vec<RawGame> =
            PgnReader::new(std::io::BufReader::with_capacity(1, text.as_bytes())).map(|g| g.expect("read")).collect();
        assert!(whole == bytewise, "seed {seed:#x}: read a byte at a time");
        let Some(theirs) = python(&format!("generated-{seed:x}"), &text) else { return };
        assert_eq!(theirs.len(), expected.len(), "seed {seed:#x}: python-chess's games");
        for (i, ((py, errors), e)) in theirs.iter().zip(&expected).enumerate() {
            assert_eq!(*errors, 0, "seed {seed:#x}, game {}: python-chess met errors", i + 1);
            assert_eq!(py, e, "seed {seed:#x}, game {}: python-chess", i + 1);
        }
    }
}
