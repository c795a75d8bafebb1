//! The explain mode's JSON (contract field names exactly), written by hand: the output is
//! small and flat, so a serializer dependency would not pay for itself.

use super::explain::{Explanation, Lang};
use super::referee::PositionReport;
use super::text;
use crate::chess::{Color, Square};

/// A JSON string literal.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn opt_string(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_string(), string)
}

fn squares(list: impl IntoIterator<Item = Square>) -> String {
    let items: Vec<String> = list.into_iter().map(|s| string(&s.to_string())).collect();
    format!("[{}]", items.join(","))
}

fn color(c: Color) -> &'static str {
    match c {
        Color::White => "\"white\"",
        Color::Black => "\"black\"",
    }
}

/// The position report object.
pub fn report(r: &PositionReport) -> String {
    let claims: Vec<String> = r.claimable_draws.iter().map(|c| string(c.code())).collect();
    let with_move: Vec<String> = r
        .claimable_with_move
        .iter()
        .map(|c| {
            format!(
                "{{\"move\":{},\"san\":{},\"draw\":{}}}",
                string(&c.mv.to_uci()),
                string(&c.san),
                string(c.draw.code())
            )
        })
        .collect();
    let result = r.outcome().map(|o| o.result());
    format!(
        "{{\"fen\":{},\"side_to_move\":{},\"check\":{},\"checkers\":{},\"legal_moves\":{},\"checkmate\":{},\
         \"stalemate\":{},\"insufficient_material\":{},\"dead_position\":{},\"automatic_draw\":{},\
         \"claimable_draws\":[{}],\"claimable_with_move\":[{}],\"repetitions\":{},\"halfmove_clock\":{},\
         \"game_over\":{},\"result\":{}}}",
        string(&r.fen),
        color(r.side_to_move),
        !r.checkers.is_empty(),
        squares(r.checkers.iter().map(|&(_, s)| s)),
        r.legal_moves,
        r.checkmate,
        r.stalemate,
        r.insufficient_material,
        r.dead_position,
        opt_string(r.automatic_draw.map(|d| d.code())),
        claims.join(","),
        with_move.join(","),
        r.repetitions,
        r.halfmove_clock,
        r.is_game_over(),
        opt_string(result),
    )
}

/// The move object: `input`, `uci`, `san`, `legal`, `reasons` (`code`, `rule`, `squares`,
/// `text`), `after`; plus `piece`, `lang` and `fen_before` is not repeated (the caller knows it).
pub fn explanation(ex: &Explanation, lang: Lang) -> String {
    let reasons: Vec<String> = ex
        .reasons
        .iter()
        .map(|r| {
            format!(
                "{{\"code\":{},\"rule\":{},\"squares\":{},\"text\":{}}}",
                string(r.code().as_str()),
                string(r.rule()),
                squares(r.squares()),
                string(&text::reason_text(r, lang))
            )
        })
        .collect();
    let piece = ex.piece.map(|p| format!("{} {}", p.color.name(), p.kind.name()));
    format!(
        "{{\"input\":{},\"uci\":{},\"san\":{},\"legal\":{},\"reasons\":[{}],\"after\":{},\"piece\":{},\"kind\":{},\
         \"lang\":{}}}",
        string(&ex.input),
        opt_string(ex.uci().as_deref()),
        opt_string(ex.san.as_deref()),
        ex.legal,
        reasons.join(","),
        ex.after.as_ref().map_or_else(|| "null".to_string(), report),
        opt_string(piece.as_deref()),
        opt_string(ex.category().map(|c| c.code()).as_deref()),
        string(match lang {
            Lang::En => "en",
            Lang::Zh => "zh",
        })
    )
}
