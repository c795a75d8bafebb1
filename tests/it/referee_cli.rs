//! `arbiter referee GAMES.pgn [--json]` as a user meets it: one file with a clean game, an
//! illegal move, a move after mate, a win on time against a lone king (6.9 makes it a draw),
//! a resignation by the side with the lone king's opponent (5.1.2), and a result that
//! contradicts a mate on the board. Each JSON line is parsed by python-chess's companion,
//! Python's `json`, when available; the fields are checked here either way.

use crate::common;
use std::process::Command;

fn referee(args: &[&str]) -> (i32, String, String) {
    common::arbiter_cli(&[&["referee"], args].concat())
}

const GAMES: &str = r#"[Event "clean"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "illegal"]
[White "C"]
[Black "D"]
[Result "1-0"]

1. e4 e5 2. Ke2 d6 3. Kf3 Nf6 4. Kf4 1-0

[Event "after mate"]
[White "E"]
[Black "F"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 3. a3 0-1

[Event "flag against a lone king"]
[White "G"]
[Black "H"]
[Result "1-0"]
[SetUp "1"]
[FEN "4k3/8/8/q7/8/8/8/6K1 w - - 0 1"]
[Termination "time forfeit"]

1. Kg2 Qa4 2. Kg3 1-0

[Event "resignation to a lone king"]
[White "I"]
[Black "J"]
[Result "1-0"]
[SetUp "1"]
[FEN "4k3/8/8/q7/8/8/8/6K1 w - - 0 1"]

1. Kg2 1-0

[Event "result against the mate"]
[White "K"]
[Black "L"]
[Result "1-0"]

1. f3 e5 2. g4 Qh4# 1-0

[Event "a real win on time"]
[White "M"]
[Black "N"]
[Result "0-1"]
[Termination "time forfeit"]

1. e4 e5 0-1
"#;

/// `text` in a file of its own per test (tests run in parallel threads of one process).
fn pgn_file(test: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("arbiter-referee-cli-{}-{test}.pgn", std::process::id()));
    std::fs::write(&path, text).expect("write PGN");
    path
}

#[test]
fn json_one_object_per_game() {
    let path = pgn_file("json", GAMES);
    let (code, out, err) = referee(&[&path.to_string_lossy(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "{out}");
    // Clean.
    assert_eq!(lines[0], r#"{"game":1,"white":"A","black":"B","result":"1-0","laws_result":"1-0","problems":[]}"#);
    // The illegal move: the fourth move by White (ply 7), with explain's reason and article.
    assert!(lines[1].starts_with(r#"{"game":2,"white":"C","black":"D","result":"1-0","laws_result":null,"problems":[{"ply":7,"code":"illegal_move","rule":"3.9.2","text":"White's move Kf4 is illegal."#), "{}", lines[1]);
    // A move after mate: ply 5, the game had ended by 5.1.1; the mate's result stands.
    assert!(
        lines[2].contains(r#""laws_result":"0-1","problems":[{"ply":5,"code":"move_after_end","rule":"5.1.1""#),
        "{}",
        lines[2]
    );
    // Black's flag fell, but White has a lone king: a draw (6.9).
    assert!(lines[3].contains(r#""result":"1-0","laws_result":"1/2-1/2","problems":[{"ply":3,"code":"result_contradicts_laws","rule":"6.9""#), "{}", lines[3]);
    assert!(
        lines[3].contains("White can no longer checkmate") || lines[3].contains("White cannot checkmate"),
        "{}",
        lines[3]
    );
    // Black resigned to a lone king: a draw (5.1.2).
    assert!(
        lines[4].contains(
            r#""laws_result":"1/2-1/2","problems":[{"ply":1,"code":"result_contradicts_laws","rule":"5.1.2""#
        ),
        "{}",
        lines[4]
    );
    // 1-0 recorded, but Black mated White.
    assert!(
        lines[5]
            .contains(r#""laws_result":"0-1","problems":[{"ply":4,"code":"result_contradicts_laws","rule":"5.1.1""#),
        "{}",
        lines[5]
    );
    // White lost on time with Black able to mate: the result stands.
    assert!(lines[6].ends_with(r#""result":"0-1","laws_result":"0-1","problems":[]}"#), "{}", lines[6]);
    // The summary goes to stderr with --json.
    assert!(err.contains("Summary: 7 games, 2 clean"), "{err}");
    if Command::new("python3").args(["-c", "import json"]).output().is_ok_and(|o| o.status.success()) {
        let check = common::python_with_input(&["-c", "import json,sys\nfor l in sys.stdin: json.loads(l)"], &out)
            .expect("python3");
        assert!(check.status.success(), "a line is not valid JSON:\n{out}");
    }
    let _ = std::fs::remove_file(path);
}

#[test]
fn text_report_and_summary() {
    let path = pgn_file("text", GAMES);
    let (code, out, _) = referee(&[&path.to_string_lossy()]);
    assert_eq!(code, 0);
    assert!(out.contains("Game 1 (A - B): 1-0: clean"), "{out}");
    assert!(out.contains("Game 4 (G - H): 1-0, by the Laws 1/2-1/2: problems"), "{out}");
    assert!(out.contains("- ply 3: result_contradicts_laws (FIDE 6.9)"), "{out}");
    assert!(
        out.trim_end().ends_with(
            "Summary: 7 games, 2 clean; illegal moves: 1, moves after the end: 1, results contradicting the Laws: 3, \
         unreadable: 0, other variants: 0, result tags contradicting the movetext: 0"
        ),
        "{out}"
    );
    let _ = std::fs::remove_file(path);
}

#[test]
fn unreadable_file_and_broken_games() {
    let (code, _, err) = referee(&["/nonexistent/games.pgn"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
    // A directory opens but cannot be read: exit 2 with the error, not an empty file's summary.
    let dir = std::env::temp_dir();
    let (code, out, err) = referee(&[&dir.to_string_lossy()]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("cannot read") && !out.contains("Summary"), "{out}{err}");
    // A broken tag and an unbalanced variation: reported per game, the file still read.
    let path = pgn_file("broken", "[White \"x\n\n1. e4 *\n\n[White \"y\"]\n\n1. e4 (1. d4 *\n");
    let (code, out, _) = referee(&[&path.to_string_lossy(), "--json"]);
    assert_eq!(code, 0);
    assert!(out.lines().count() >= 1 && out.contains("\"unreadable\""), "{out}");
    let _ = std::fs::remove_file(path);
}

/// The red team's files (issue #37): every game found, none invented, no false finding.
#[test]
fn import_format_comments_and_a_byte_order_mark_give_no_false_findings() {
    let path = pgn_file(
        "import",
        "\u{feff}[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 ; a comment with a { brace\n2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
         [Event \"b\"] ; note\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
         1. f3 e5 2. g4 Qh4# 0-1\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
    );
    let (code, out, _) = referee(&[&path.to_string_lossy()]);
    assert_eq!(code, 0);
    assert!(out.trim_end().ends_with("Summary: 4 games, 4 clean; illegal moves: 0, moves after the end: 0, results contradicting the Laws: 0, unreadable: 0, other variants: 0, result tags contradicting the movetext: 0"), "{out}");
    let _ = std::fs::remove_file(path);
}

/// Other variants are refused (no false finding for a drop or an explosion); Chess960 games
/// are judged as Chess960; a Result tag against the movetext's marker is a finding.
#[test]
fn variants_and_result_tags() {
    let path = pgn_file(
        "variants",
        "[Variant \"Crazyhouse\"]\n[Result \"1-0\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qd8 4. P@e5 1-0\n\n\
         [Variant \"Atomic\"]\n[Result \"1-0\"]\n\n1. e4 d5 2. exd5 *\n\n\
         [Variant \"Chess 960\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\"]\n[Result \"*\"]\n\n1. O-O O-O-O *\n\n\
         [Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    let (code, out, err) = referee(&[&path.to_string_lossy(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].contains(r#""laws_result":null,"problems":[{"ply":0,"code":"unsupported_variant","rule":null,"text":"Variant \"Crazyhouse\" is not played by the FIDE Laws of Chess: the game is not judged."}]"#), "{}", lines[0]);
    assert!(lines[1].contains(r#""problems":[{"ply":0,"code":"unsupported_variant""#), "{}", lines[1]);
    assert!(lines[2].ends_with(r#""result":"*","laws_result":null,"problems":[]}"#), "{}", lines[2]);
    assert!(lines[3].contains(r#""result":"0-1","laws_result":"0-1","problems":[{"ply":0,"code":"result_tag_mismatch","rule":null,"text":"The Result tag says \"1-0\", the movetext ends with 0-1."}]"#), "{}", lines[3]);
    assert!(err.contains("other variants: 2, result tags contradicting the movetext: 1"), "{err}");
    let _ = std::fs::remove_file(path);
}

/// Games whose last position needs the long-decision thread (a stalemate: no helpmate there),
/// thousands of them on two threads: every game judged, in order (handing them over once
/// nested waits on a worker's stack until it overflowed).
#[test]
fn many_games_for_the_long_decision_thread() {
    let game = "[Event \"Loyd\"]\n[Result \"1/2-1/2\"]\n\n1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 \
                6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 1/2-1/2\n\n";
    let path = pgn_file("stalemates", &game.repeat(3000));
    let (code, out, err) = referee(&[&path.to_string_lossy(), "--threads", "2"]);
    assert_eq!(code, 0, "{err}");
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("Game ")).collect();
    assert_eq!(games.len(), 3000);
    assert_eq!(games[2999], "Game 3000 (? - ?): 1/2-1/2: clean");
    assert!(out.contains("Summary: 3000 games, 3000 clean"), "{out}");
    let _ = std::fs::remove_file(path);
}

/// `--lang zh`: the report's sentences, the game lines and the summary in Chinese, the
/// explain mode's reasons too; the JSON codes stay; an unknown language is refused (exit 2).
#[test]
fn the_report_speaks_every_language() {
    let path = pgn_file("lang", GAMES);
    let (code, en, _) = referee(&[&path.to_string_lossy()]);
    assert_eq!(code, 0);
    let (code, zh, _) = referee(&[&path.to_string_lossy(), "--lang", "zh"]);
    assert_eq!(code, 0, "{zh}");
    assert_eq!(zh.lines().count(), en.lines().count(), "{zh}");
    assert!(zh.contains("第 1 局（A - B）：1-0：无问题"), "{zh}");
    assert!(zh.contains("- 第 7 个半回合：非法着法（FIDE 3.9.2）：白方的着法 Kf4 不合规则。"), "{zh}");
    assert!(
        zh.contains(
            "汇总：共 7 局，2 局无问题；非法着法：1，终局后的着法：1，结果与规则不符：3，无法读取：0，其他变体：0，\
             Result 标签与着法记录不符：0"
        ),
        "{zh}"
    );
    assert!(!zh.contains("Recorded ") && !zh.contains("Summary"), "{zh}");
    // The codes are JSON's, in every language; the text names the findings in Chinese.
    for code in ["illegal_move", "move_after_end", "result_contradicts_laws", "unreadable", "ply "] {
        assert!(!zh.contains(code), "{code} in\n{zh}");
    }
    let (_, zh_json, _) = referee(&[&path.to_string_lossy(), "--lang", "zh", "--json"]);
    assert!(
        zh_json.contains(r#""ply":7,"code":"illegal_move","rule":"3.9.2","text":"白方的着法 Kf4 不合规则。"#),
        "{zh_json}"
    );
    let (code, _, err) = referee(&[&path.to_string_lossy(), "--lang", "fr"]);
    assert_eq!(code, 2);
    assert!(err.contains("--lang 'fr'"), "{err}");
}

/// Issue #64: a tag pair in the middle of a movetext line split the game into a "clean"
/// fragment and a phantom game with a false illegal move; a result written against the move
/// (`Qh4#0-1`), text that is no move and a move that fits two (`Nd2` with knights on b1 and
/// f1) are broken notation: `unreadable`, never a finding under the Laws.
#[test]
fn broken_notation_is_unreadable_not_an_illegal_move() {
    let path = pgn_file(
        "notation",
        "[Event \"mid\"]\n[Result \"0-1\"]\n\n1. f3 e5 [Event \"mid\"] 2. g4 Qh4# 0-1\n\n\
         [Event \"glued\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4#0-1\n\n\
         [Event \"no move\"]\n\n1. e4 e5 2. Qh9 *\n\n\
         [Event \"ambiguous\"]\n[FEN \"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Nd2 Kd7 *\n",
    );
    let (code, out, err) = referee(&[&path.to_string_lossy(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(!out.contains("illegal_move"), "{out}");
    assert!(
        lines[0].contains(
            r#""problems":[{"ply":0,"code":"unreadable","rule":null,"text":"game 1, line 4: a tag pair in the middle of the moves: [Event \"mid\"]"}]"#
        ),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains(r#""problems":[{"ply":0,"code":"unreadable","rule":null,"text":"game 2, line 9: 'Qh4#0-1'"#),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].contains(
            r#""problems":[{"ply":3,"code":"unreadable","rule":null,"text":"White's move Qh9 cannot be read."#
        ),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].contains(r#""code":"unreadable","rule":null,"text":"White's move Nd2 cannot be read."#)
            && lines[3].contains("Nbd2 or Nfd2"),
        "{}",
        lines[3]
    );
    assert!(
        err.contains("illegal moves: 0, moves after the end: 0, results contradicting the Laws: 0, unreadable: 4"),
        "{err}"
    );
    let _ = std::fs::remove_file(path);
}

/// Issue #64: tag values and move texts went to the terminal as they stood in the file, so an
/// escape sequence in a PGN could clear the screen or recolour it, and a bidirectional control
/// reorder the line. Text output shows them as `\xHH` / `\u{HHHH}`; JSON as `\uHHHH` (C1 and
/// bidirectional controls too, which JSON allows raw), the value kept.
#[test]
fn control_characters_from_the_file_never_reach_the_terminal() {
    let path = pgn_file(
        "controls",
        "[White \"\u{1b}[2J\u{1b}[31mMallory\"]\n[Black \"bell\u{7}\u{9b}31m\u{7f}\u{202e}0-1\u{202c}\"]\n\n\
         1. e4 Nf6\u{1b}c *\n",
    );
    let reaches = |c: char| c.is_control() && c != '\n' || ('\u{202a}'..='\u{202e}').contains(&c);
    for lang in ["en", "zh"] {
        let (code, out, err) = referee(&[&path.to_string_lossy(), "--lang", lang]);
        assert_eq!(code, 0, "{err}");
        assert!(!out.chars().any(reaches), "{lang}: {out:?}");
        assert!(out.contains(r"\x1b[2J\x1b[31mMallory - bell\x07\x9b31m\x7f\u{202e}0-1\u{202c}"), "{lang}: {out}");
        assert!(out.contains(r"Nf6\x1bc"), "{lang}: {out}");
    }
    let (_, json, _) = referee(&[&path.to_string_lossy(), "--json"]);
    assert!(!json.chars().any(reaches), "{json:?}");
    assert!(json.contains(r#""white":"\u001b[2J\u001b[31mMallory""#), "{json}");
    assert!(json.contains(r#""black":"bell\u0007\u009b31m\u007f\u202e0-1\u202c""#), "{json}");
    // The value is kept: a JSON reader gets the tag as it stood in the file.
    let value: serde_json::Value = serde_json::from_str(json.lines().next().expect("a line")).expect("JSON");
    assert_eq!(value["black"], "bell\u{7}\u{9b}31m\u{7f}\u{202e}0-1\u{202c}", "{json}");
    let _ = std::fs::remove_file(path);
}
