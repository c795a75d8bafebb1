//! PGN write and read back.

use arbiter::chess::Position;
use arbiter::rules::pgn::{read_pgn, write_pgn, PgnGame};
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
