//! Explain mode as a new user meets it: what beginners type (`nf3`, `bc4`), options written
//! after the move, the words around a verdict (which piece is missing, a move to its own
//! square, the article cited for a king stepping into check), the diagram's title and
//! legend. Checked by what the user sees: text lines, JSON, exit codes, files.

use crate::common::explain_cli;
use arbiter::explain::{explain, explain_for_uci, json, svg, Lang};
use arbiter::rules::Game;

fn game(fen: Option<&str>, moves: &str) -> Game {
    let list: Vec<&str> = moves.split_whitespace().collect();
    Game::from_fen_and_moves(fen, &list).expect("valid game")
}

fn lines(fen: Option<&str>, mv: &str, lang: Lang) -> Vec<String> {
    explain_for_uci(&game(fen, ""), mv, lang)
}

// ---- FIDE citations (#10 §6) ----

#[test]
fn a_king_stepping_into_check_cites_3_9_2_or_3_1_3_when_only_a_pinned_piece_attacks() {
    // The a2 rook attacks e2: the article that forbids the step is 3.9.2 (3.8.1 only defines it).
    let g = game(Some("4k3/8/8/8/8/8/r7/4K3 w - - 0 1"), "");
    let j = json::explanation(&explain(&g, "Ke2"), Lang::En);
    assert!(j.contains(r#""code":"king_into_check","rule":"3.9.2""#), "{j}");
    // Only the b4 bishop (pinned by the e4 rook) defends d2: the verdict rests on 3.1.3.
    let fen = "8/8/8/8/kb2R3/8/3n4/4K3 w - - 0 1";
    let ex = explain(&game(Some(fen), ""), "Kxd2");
    let j = json::explanation(&ex, Lang::En);
    assert!(j.contains(r#""code":"king_into_check","rule":"3.1.3""#), "{j}");
    for lang in Lang::ALL {
        let text = lines(Some(fen), "Kxd2", lang).join("\n");
        assert_eq!(text.matches("FIDE 3.1.3").count(), 1, "cited once: {text}");
    }
    // With an unpinned rook on d8 attacking d2 as well, 3.9.2 decides; 3.1.3 is still named.
    let fen = "3r4/8/8/8/kb2R3/8/3n4/4K3 w - - 0 1";
    let j = json::explanation(&explain(&game(Some(fen), ""), "Kxd2"), Lang::En);
    assert!(j.contains(r#""rule":"3.9.2""#) && j.contains("(FIDE 3.1.3)"), "{j}");
}

// ---- Lower-case piece letters (#10 §7) ----

#[test]
fn a_lower_case_piece_letter_is_read_as_the_capital_and_the_answer_says_so() {
    let en = lines(None, "nf3", Lang::En);
    assert_eq!(en[0], "Legal: Nf3 (g1f3), white knight, quiet move.", "{en:?}");
    assert_eq!(en[1], "\"nf3\" is read as Nf3.");
    let zh = lines(None, "nf3", Lang::Zh);
    assert!(zh[0].starts_with("合法着法：Nf3（g1f3）") && zh[1].contains("按 Nf3 理解"), "{zh:?}");
    let j = json::explanation(&explain(&game(None, ""), "nf3"), Lang::En);
    assert!(j.contains(r#""san":"Nf3","legal":true"#) && j.ends_with(r#""read_as":"Nf3"}"#), "{j}");
    // An illegal move read the same way gets its real reasons, not "malformed".
    let ex = explain(&game(None, ""), "qh5");
    assert_eq!(ex.codes(), vec!["path_blocked"]);
    assert!(json::explanation(&ex, Lang::En).ends_with(r#""read_as":"Qh5"}"#));
    assert_eq!(explain(&game(None, "e4 e5"), "ke2").codes(), vec!["king_step", "king_safe"]);
    // Standard SAN is read as written.
    let j = json::explanation(&explain(&game(None, ""), "Nf3"), Lang::En);
    assert!(j.ends_with(r#""read_as":null}"#), "{j}");
}

#[test]
fn bc4_is_the_b_pawn_or_the_bishop_and_both_readings_are_named_when_it_could_be_either() {
    // Both bxc4 and Bxc4 are legal: name both readings.
    let both = "4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1";
    let ex = explain(&game(Some(both), ""), "bc4");
    assert_eq!(ex.codes(), vec!["two_readings"]);
    let en = lines(Some(both), "bc4", Lang::En).join("\n");
    assert!(en.contains("bxc4") && en.contains("Bc4"), "{en}");
    let zh = lines(Some(both), "bc4", Lang::Zh).join("\n");
    assert!(zh.contains("bxc4") && zh.contains("Bc4") && zh.contains("两种读法"), "{zh}");
    // Neither is legal (start position): both readings are named too, never a bare "malformed".
    assert_eq!(explain(&game(None, ""), "bc4").codes(), vec!["two_readings"]);
    // Only the bishop can: read as Bc4.
    let en = explain_for_uci(&game(None, "e4 e5"), "bc4", Lang::En);
    assert!(en[0].starts_with("Legal: Bc4 (f1c4)") && en[1] == "\"bc4\" is read as Bc4.", "{en:?}");
    // Only the pawn can: read as bxc4.
    let en = lines(Some("4k3/8/8/8/2p5/1P6/8/4K3 w - - 0 1"), "bc4", Lang::En);
    assert!(en[0].starts_with("Legal: bxc4 (b3c4)") && en[1] == "\"bc4\" is read as bxc4.", "{en:?}");
    // Standard pawn SAN stays a pawn move.
    assert_eq!(explain(&game(Some(both), ""), "bxc4").legal_move().map(|m| m.to_uci()), Some("b3c4".into()));
    assert!(explain(&game(None, ""), "b4").is_legal());
}

// ---- Rough edges (#10 §8) ----

#[test]
fn options_after_the_move_are_options() {
    let (rc, out, err) = explain_cli(&["Nf3", "--json"]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.starts_with(r#"{"input":"Nf3","uci":"g1f3","san":"Nf3","legal":true"#), "{out}");
    let (rc, out, _) = explain_cli(&["Nf3", "--lang", "zh"]);
    assert!(rc == 0 && out.starts_with("合法着法：Nf3"), "{out}");
    let (rc, out, _) = explain_cli(&["Re2f2", "--fen", "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1"]);
    assert!(rc == 0 && out.starts_with("Illegal: Re2f2 (e2f2)."), "{out}");
    let (rc, out, _) = explain_cli(&["exd6", "e.p.", "--moves", "e4 a6 e5 d5"]);
    assert!(rc == 0 && out.starts_with("Legal: exd6 (e5d6)"), "{out}");
    let file = std::env::temp_dir().join(format!("arbiter-after-move-{}.svg", std::process::id()));
    let path = file.to_string_lossy().to_string();
    let (rc, _, _) = explain_cli(&["e4", "--svg", &path]);
    let written = std::fs::read_to_string(&file);
    let _ = std::fs::remove_file(&file);
    assert!(rc == 0 && written.is_ok_and(|s| s.starts_with("<svg")), "no SVG written");
    // An unknown option is an error (exit 2), never part of the move.
    let (rc, out, err) = explain_cli(&["Nf3", "--colour"]);
    assert!(rc == 2 && out.is_empty() && !err.is_empty(), "{rc} {out} {err}");
}

#[test]
fn no_piece_says_where_the_san_looked() {
    let two_knights = "4k3/8/8/8/8/8/3N1N2/4K3 w - - 0 1";
    let en = lines(Some(two_knights), "N3e4", Lang::En).join("\n");
    assert!(en.contains("White has no knight on the 3rd rank that could move to e4."), "{en}");
    let en = lines(Some(two_knights), "Nb2e4", Lang::En).join("\n");
    assert!(en.contains("White has no knight on b2 that could move to e4."), "{en}");
    let zh = lines(Some(two_knights), "N3e4", Lang::Zh).join("\n");
    assert!(zh.contains("在第 3 横线上没有能走到 e4 的马"), "{zh}");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let en = lines(Some(kiwipete), "Nbd7", Lang::En).join("\n");
    assert!(en.contains("White has no knight on the b-file that could move to d7."), "{en}");
    let zh = lines(Some(kiwipete), "Nbd7", Lang::Zh).join("\n");
    assert!(zh.contains("在 b 线上没有能走到 d7 的马"), "{zh}");
    // Without a narrowing the sentence is as before.
    let en = lines(Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "Nf3", Lang::En).join("\n");
    assert!(en.contains("White has no knight that could move to f3."), "{en}");
}

#[test]
fn a_move_to_its_own_square_has_its_own_reason() {
    for (mv, piece) in [("a1a1", "rook"), ("c1c1", "bishop")] {
        let ex = explain(&game(None, ""), mv);
        assert_eq!(ex.codes(), vec!["same_square"], "{mv}");
        let en = lines(None, mv, Lang::En).join("\n");
        assert!(en.contains("another square") && en.contains(piece) && !en.contains("same rank or file"), "{en}");
        let zh = lines(None, mv, Lang::Zh).join("\n");
        assert!(zh.contains("另一个格子"), "{zh}");
    }
}

/// Issue #64: `arbiter explain e2` said "e2 to e2 would leave the pawn where it stands". A bare
/// square where a piece of the side to move stands (and no pawn could advance to) is not a
/// move: the answer says so and names that piece's legal moves, in every language; a square a
/// pawn can advance to is still the pawn's move.
#[test]
fn a_bare_square_names_a_piece_not_a_move() {
    let (rc, out, _) = explain_cli(&["e2"]);
    assert_eq!(rc, 0);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "Illegal: e2.",
            "- e2 only names a square, where the white pawn stands; a move also names the square the piece goes \
             to. Its legal moves are e3 (e2e3) and e4 (e2e4). (FIDE Appendix C)"
        ]
    );
    let (_, zh, _) = explain_cli(&["--lang", "zh", "g1"]);
    assert!(
        zh.contains(
            "g1 只是一个格子（白马所在的格子）；着法还要写出棋子走到的格子。它的合法着法有 Nf3（g1f3）和 Nh3（g1h3）。"
        ),
        "{zh}"
    );
    // A piece with no move, and the other side's king square after 1. e4.
    let (_, out, _) = explain_cli(&["d1"]);
    assert!(out.contains("where the white queen stands") && out.contains("It has no legal move here."), "{out}");
    let (_, out, _) = explain_cli(&["--moves", "e4 e5 Nf3", "e8"]);
    assert!(out.contains("Its only legal move is Ke7 (e8e7)."), "{out}");
    let (_, json, _) = explain_cli(&["--json", "e2"]);
    assert!(
        json.starts_with(r#"{"input":"e2","uci":null,"san":null,"legal":false,"reasons":[{"code":"bare_square","rule":"Appendix C","squares":["e2"]"#),
        "{json}"
    );
    // Squares a pawn can go to are still pawn moves: legal, blocked by its own piece, or too far.
    assert_eq!(explain(&game(None, ""), "e3").codes(), vec!["pawn_advance", "king_safe"]);
    let blocked = "rnbqkbnr/pppppppp/8/8/8/3N4/3P4/RNBQKB1R w KQkq - 0 1";
    assert_eq!(explain(&game(Some(blocked), ""), "d3").codes(), vec!["own_piece"]);
    assert_eq!(explain(&game(None, ""), "e5").codes(), vec!["bad_geometry"]);
    assert_eq!(explain(&game(None, ""), "e2e2").codes(), vec!["same_square"]);
}

/// The `<text>` elements below the board, with their x, font size and content.
fn svg_texts(svg: &str) -> Vec<(f64, f64, String)> {
    let mut out = Vec::new();
    for part in svg.split("<text ").skip(1) {
        let attr = |name: &str| -> Option<f64> {
            let start = part.find(&format!("{name}=\""))? + name.len() + 2;
            part[start..].split('"').next()?.parse().ok()
        };
        let content = part.split_once('>').map(|(_, rest)| rest.split("</text>").next().unwrap_or("").to_string());
        if let (Some(x), Some(size), Some(content)) = (attr("x"), attr("font-size"), content) {
            out.push((x, size, content));
        }
    }
    out
}

#[test]
fn the_diagram_text_fits_and_the_legend_shows_only_what_is_drawn() {
    let width = 556.0; // the view box
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        for lang in Lang::ALL {
            let doc = svg::position_svg(&game(Some(fen), ""), lang);
            for (x, size, text) in svg_texts(&doc) {
                // Bold Latin glyphs of DejaVu Sans average under 0.6 em; CJK glyphs are 1 em.
                let em: f64 = text.chars().map(|c| if (c as u32) >= 0x2E80 { 1.0 } else { 0.6 }).sum();
                assert!(x + em * size <= width, "clipped: {text:?} at size {size}");
            }
            assert!(!doc.contains("the move") && !doc.contains("所问的着法"), "legend names a move that is not there");
        }
    }
    let g = game(Some("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1"), "");
    assert!(svg::explanation_svg(&g, &explain(&g, "Re2f2"), Lang::En).contains("the move"));
    assert!(!svg::explanation_svg(&g, &explain(&g, "zz"), Lang::En).contains("the move"));
}
