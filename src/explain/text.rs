//! The explain mode as lines of text, in any language: a verdict line, one line per
//! reason, and what a legal move causes; or the position report. The same lines are
//! printed by `arbiter explain`, by the UCI loop (as `info string`), and under the diagram.

use super::analysis::{explain, Explanation};
use super::lang::Lang;
use super::reason::Reason;
use super::report::{report_notes, Note};
use crate::chess::{Move, Square};
use crate::rules::unwinnable::Reason as MateReason;
use crate::rules::{Game, PositionReport};

/// A character a terminal would act on rather than show: a control character (C0, DEL, C1:
/// escape sequences, the bell) or a bidirectional control (U+202A-U+202E, U+2066-U+2069:
/// they reorder what follows, so a tag could make a line read as something else).
pub fn acts_on_terminal(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` as a terminal shows it faithfully: each character it would act on
/// ([`acts_on_terminal`]) written out, `\xHH` up to U+00FF and `\u{HHHH}` above.
pub fn shown_as_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c as u32 {
            _ if !acts_on_terminal(c) => out.push(c),
            code @ 0..=0xff => out.push_str(&format!("\\x{code:02x}")),
            code => out.push_str(&format!("\\u{{{code:04x}}}")),
        }
    }
    out
}

/// One reason as a sentence with its citation.
pub fn reason_text(r: &Reason, lang: Lang) -> String {
    let words = lang.words();
    words.cited(words.reason(r), r.rule())
}

/// One fact of a position report as a sentence with its citation.
pub fn note_text(n: &Note, lang: Lang) -> String {
    let words = lang.words();
    words.cited(words.note(n), n.rule())
}

/// The first `max` of a list of moves, and how many more there are.
pub(super) fn shorten(moves: &[String], max: usize) -> (Vec<String>, usize) {
    let shown: Vec<String> = moves.iter().take(max).cloned().collect();
    (shown, moves.len().saturating_sub(max))
}

// What the languages' sentences share (each language chooses the words and punctuation).

/// A list in a sentence: `comma` between the items, `and` before the last ("a, b and c",
/// "甲、乙和丙").
pub(super) fn join_with(items: Vec<String>, comma: &str, and: &str) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{}{and}{last}", rest.join(comma)),
    }
}

/// Square names, for a list in a sentence.
pub(super) fn square_names(squares: &[Square]) -> Vec<String> {
    squares.iter().map(Square::to_string).collect()
}

/// Moves as `SAN (uci)`, with the language's brackets.
pub(super) fn moves_with_uci(moves: &[(String, Move)], (open, close): (&str, &str)) -> Vec<String> {
    moves.iter().map(|(san, m)| format!("{san}{open}{}{close}", m.to_uci())).collect()
}

/// Why a dead position is dead, as the sentences group it: by material on both sides, one
/// reason holding for both players, or each player's own.
pub(super) enum DeadWhy {
    InsufficientMaterial,
    BothSides(MateReason),
    EachSide,
}

impl DeadWhy {
    pub(super) fn of(white: MateReason, black: MateReason) -> DeadWhy {
        // A proof's material reasons: a bare king, a lone minor piece, bishops of one colour.
        let material = |r| matches!(r, MateReason::BareKing | MateReason::InsufficientMaterial);
        if material(white) && material(black) {
            DeadWhy::InsufficientMaterial
        } else if white == black {
            DeadWhy::BothSides(white)
        } else {
            DeadWhy::EachSide
        }
    }
}

/// The position report as text lines.
pub fn render_report(r: &PositionReport, lang: Lang) -> Vec<String> {
    let mut lines = vec![lang.words().position(&r.fen)];
    lines.extend(report_notes(r, false).iter().map(|n| note_text(n, lang)));
    lines
}

/// The whole explanation as text lines: the verdict, one line per reason, and for a legal
/// move what it causes.
pub fn render_explanation(ex: &Explanation, lang: Lang) -> Vec<String> {
    let words = lang.words();
    let uci = ex.uci();
    let mut lines = vec![match &ex.legal {
        Some(legal) => {
            let what = ex.piece.zip(ex.category());
            words.legal_headline(&legal.san, &uci.unwrap_or_default(), what)
        }
        None => words.illegal_headline(&ex.input, uci.as_deref().filter(|u| *u != ex.input)),
    }];
    if let Some(read_as) = &ex.read_as {
        lines.push(words.read_as(&ex.input, read_as));
    }
    if let Some(w) = &ex.castling_writing {
        lines.push(words.castling_writing(&ex.input, w));
    }
    lines.extend(ex.reasons.iter().map(|r| format!("- {}", reason_text(r, lang))));
    if let Some(legal) = &ex.legal {
        let notes = report_notes(&legal.after, true);
        if !notes.is_empty() {
            lines.push(words.after_move(&legal.san));
            lines.extend(notes.iter().map(|n| format!("- {}", note_text(n, lang))));
        }
    }
    lines
}

/// The text lines for a move (`move_text`) or, when it is blank, for the position: what the
/// UCI loop prints as `info string` lines for `explain [MOVE] [en|zh]`. `game` is not changed.
pub fn explain_for_uci(game: &Game, move_text: &str, lang: Lang) -> Vec<String> {
    if move_text.trim().is_empty() {
        render_report(&game.report().for_reader(game.current()), lang)
    } else {
        render_explanation(&explain(game, move_text).for_reader(game), lang)
    }
}

/// The SAN of a promotion to a queen from `from` to `to` (`a8=Q`, a capture `bxa8=Q`): the
/// example of how to name the piece.
pub(super) fn promotion_example(from: Square, to: Square) -> String {
    if from.file() == to.file() {
        format!("{to}=Q")
    } else {
        format!("{}x{to}=Q", from.file().char())
    }
}
