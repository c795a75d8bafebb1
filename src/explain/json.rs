//! The explain mode's JSON (contract field names exactly), written by hand: the output is
//! small and flat, so a serializer dependency would not pay for itself. Objects are built
//! field by field with [`Object`], so a new field is one line.

use super::analysis::Explanation;
use super::lang::Lang;
use super::text;
use crate::chess::{CastleSide, Color, Square};
use crate::rules::unwinnable::{Decision, Verdict};
use crate::rules::PositionReport;

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

/// A string literal, or `null`.
fn opt_string(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_string(), string)
}

/// A JSON array of values already written as JSON.
pub fn array(items: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join(","))
}

fn squares(list: impl IntoIterator<Item = Square>) -> String {
    array(list.into_iter().map(|s| string(&s.to_string())))
}

fn color(c: Color) -> String {
    string(c.name())
}

/// A JSON object written field by field, in order.
#[derive(Default)]
pub struct Object {
    fields: Vec<String>,
}

impl Object {
    pub fn new() -> Object {
        Object::default()
    }

    /// A field whose value is already JSON (a number, `true`, an object, ...).
    pub fn raw(mut self, key: &str, value: impl std::fmt::Display) -> Object {
        self.fields.push(format!("{}:{value}", string(key)));
        self
    }

    /// A string field.
    pub fn str(self, key: &str, value: &str) -> Object {
        self.raw(key, string(value))
    }

    /// A string field, or `null`.
    pub fn opt_str(self, key: &str, value: Option<&str>) -> Object {
        self.raw(key, opt_string(value))
    }

    pub fn finish(self) -> String {
        format!("{{{}}}", self.fields.join(","))
    }
}

/// The position report object.
pub fn report(r: &PositionReport) -> String {
    let with_move = r
        .claimable_with_move
        .iter()
        .map(|c| Object::new().str("move", &c.mv.to_uci()).str("san", &c.san).str("draw", c.draw.code()).finish());
    Object::new()
        .str("fen", &r.fen)
        .raw("side_to_move", color(r.side_to_move))
        .raw("check", !r.checkers.is_empty())
        .raw("checkers", squares(r.checkers.iter().map(|&(_, s)| s)))
        .raw("legal_moves", r.legal_moves)
        .raw("checkmate", r.checkmate)
        .raw("stalemate", r.stalemate)
        .raw("insufficient_material", r.insufficient_material)
        .raw("dead_position", r.dead_position)
        .opt_str("automatic_draw", r.automatic_draw.map(|d| d.code()))
        .raw("claimable_draws", array(r.claimable_draws.iter().map(|c| string(c.code()))))
        .raw("claimable_with_move", array(with_move))
        .raw("repetitions", r.repetitions)
        .raw("halfmove_clock", r.halfmove_clock)
        .raw("game_over", r.is_game_over())
        .opt_str("result", r.outcome().map(|o| o.result()))
        .raw(
            "mate_possible",
            r.mate_possible.as_ref().map_or_else(
                || "null".to_string(),
                |[w, b]| Object::new().raw("white", decision(w)).raw("black", decision(b)).finish(),
            ),
        )
        .finish()
}

/// One player's verdict: `{"verdict":"winnable","helpmate":["e2e4",...],"reason":null}`
/// (`helpmate` only for winnable, `reason` only for unwinnable).
pub fn decision(d: &Decision) -> String {
    let (helpmate, reason) = match &d.verdict {
        Verdict::Winnable { helpmate } => (Some(helpmate), None),
        Verdict::Unwinnable { reason } => (None, Some(reason.code())),
        Verdict::Undetermined => (None, None),
    };
    Object::new()
        .str("verdict", d.verdict.code())
        .raw("helpmate", helpmate.map_or_else(|| "null".to_string(), |h| array(h.iter().map(|m| string(&m.to_uci())))))
        .opt_str("reason", reason)
        .finish()
}

/// The move object: `input`, `uci`, `san`, `legal`, `reasons` (`code`, `rule`, `squares`,
/// `text`), `after`; plus `piece`, `kind`, `lang`, `castling_writing` and `read_as`
/// (`fen_before` is not repeated: the caller knows it).
pub fn explanation(ex: &Explanation, lang: Lang) -> String {
    let reasons = ex.reasons.iter().map(|r| {
        Object::new()
            .str("code", r.code().as_str())
            .str("rule", r.rule())
            .raw("squares", squares(r.squares()))
            .str("text", &text::reason_text(r, lang))
            .finish()
    });
    let piece = ex.piece.map(|p| format!("{} {}", p.color.name(), p.kind.name()));
    Object::new()
        .str("input", &ex.input)
        .opt_str("uci", ex.uci().as_deref())
        .opt_str("san", ex.san())
        .raw("legal", ex.is_legal())
        .raw("reasons", array(reasons))
        .raw("after", ex.after().map_or_else(|| "null".to_string(), report))
        .opt_str("piece", piece.as_deref())
        .opt_str("kind", ex.category().map(|c| c.code()).as_deref())
        .str("lang", lang.code())
        .raw(
            "castling_writing",
            ex.castling_writing.as_ref().map_or_else(
                || "null".to_string(),
                |w| {
                    Object::new()
                        .str("side", if w.side == CastleSide::King { "kingside" } else { "queenside" })
                        .str("castling", &w.here)
                        .raw("chess960", w.chess960)
                        .str("text", &lang.words().castling_writing(&ex.input, w))
                        .finish()
                },
            ),
        )
        .opt_str("read_as", ex.read_as.as_deref())
        .finish()
}
