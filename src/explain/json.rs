//! The explain mode's JSON (contract field names exactly): serializable views of the
//! position report, a player's verdict and a move's explanation. Every JSON the crate writes
//! goes through `serde_json`; these views are shared by the command line (`--json`) and the
//! board server's API (`arbiter serve`), so a field is defined once.

use super::analysis::Explanation;
use super::lang::Lang;
use super::text;
use crate::chess::{CastleSide, Square};
use crate::rules::unwinnable::{Decision, Verdict};
use crate::rules::PositionReport;
use crate::syzygy::report::TablebaseReport;
use serde::Serialize;

/// Writes a view as one line of compact JSON. Serializing these views cannot fail (string
/// keys, no maps with other keys), so a failure is a programming error: reported as a JSON
/// string rather than a panic. Strings keep their value; what a terminal would act on is
/// written as `\uHHHH` ([`TerminalSafe`]).
pub fn to_line<T: Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    let written = value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, TerminalSafe));
    match (written, String::from_utf8(out)) {
        (Ok(()), Ok(line)) => line,
        (Err(e), _) => format!("{{\"error\":{:?}}}", e.to_string()),
        (_, Err(e)) => format!("{{\"error\":{:?}}}", e.to_string()),
    }
}

/// serde_json's compact output, except that the characters a terminal would act on and
/// serde_json writes raw (DEL, C1 controls such as U+009B, a CSI; bidirectional controls)
/// are escaped too: `--json` lines carry tag values and move texts from files and are
/// often read on a terminal (`text::acts_on_terminal`). The value is the same JSON string.
struct TerminalSafe;

impl serde_json::ser::Formatter for TerminalSafe {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut rest = fragment;
        while let Some((at, c)) = rest.char_indices().find(|&(_, c)| text::acts_on_terminal(c)) {
            writer.write_all(&rest.as_bytes()[..at])?;
            write!(writer, "\\u{:04x}", c as u32)?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
}

fn squares(list: impl IntoIterator<Item = Square>) -> Vec<String> {
    list.into_iter().map(|s| s.to_string()).collect()
}

/// A claim available by declaring a move first.
#[derive(Serialize, Clone, Debug)]
pub struct ClaimWithMoveJson {
    #[serde(rename = "move")]
    pub mv: String,
    pub san: String,
    pub draw: &'static str,
}

/// Both players' verdicts on whether they can still checkmate.
#[derive(Serialize, Clone, Debug)]
pub struct MatePossibleJson {
    pub white: DecisionJson,
    pub black: DecisionJson,
}

/// The position report object.
#[derive(Serialize, Clone, Debug)]
pub struct ReportJson {
    pub fen: String,
    pub side_to_move: &'static str,
    pub check: bool,
    pub checkers: Vec<String>,
    pub legal_moves: usize,
    pub checkmate: bool,
    pub stalemate: bool,
    pub insufficient_material: bool,
    pub dead_position: bool,
    pub automatic_draw: Option<&'static str>,
    pub claimable_draws: Vec<&'static str>,
    pub claimable_with_move: Vec<ClaimWithMoveJson>,
    pub repetitions: u32,
    pub halfmove_clock: u16,
    pub game_over: bool,
    pub result: Option<&'static str>,
    pub mate_possible: Option<MatePossibleJson>,
}

impl From<&PositionReport> for ReportJson {
    fn from(r: &PositionReport) -> ReportJson {
        ReportJson {
            fen: r.fen.clone(),
            side_to_move: r.side_to_move.name(),
            check: !r.checkers.is_empty(),
            checkers: squares(r.checkers.iter().map(|&(_, s)| s)),
            legal_moves: r.legal_moves,
            checkmate: r.checkmate,
            stalemate: r.stalemate,
            insufficient_material: r.insufficient_material,
            dead_position: r.dead_position,
            automatic_draw: r.automatic_draw.map(|d| d.code()),
            claimable_draws: r.claimable_draws.iter().map(|c| c.code()).collect(),
            claimable_with_move: r
                .claimable_with_move
                .iter()
                .map(|c| ClaimWithMoveJson { mv: c.mv.to_uci(), san: c.san.clone(), draw: c.draw.code() })
                .collect(),
            repetitions: r.repetitions,
            halfmove_clock: r.halfmove_clock,
            game_over: r.is_game_over(),
            result: r.outcome().map(|o| o.result()),
            mate_possible: r
                .mate_possible
                .as_ref()
                .map(|[w, b]| MatePossibleJson { white: DecisionJson::from(w), black: DecisionJson::from(b) }),
        }
    }
}

/// One player's verdict: `{"verdict":"winnable","helpmate":["e2e4",...],"reason":null}`
/// (`helpmate` only for winnable, `reason` only for unwinnable).
#[derive(Serialize, Clone, Debug)]
pub struct DecisionJson {
    pub verdict: &'static str,
    pub helpmate: Option<Vec<String>>,
    pub reason: Option<&'static str>,
}

impl From<&Decision> for DecisionJson {
    fn from(d: &Decision) -> DecisionJson {
        let (helpmate, reason) = match &d.verdict {
            Verdict::Winnable { helpmate } => (Some(helpmate.iter().map(|m| m.to_uci()).collect()), None),
            Verdict::Unwinnable { reason } => (None, Some(reason.code())),
            Verdict::Undetermined => (None, None),
        };
        DecisionJson { verdict: d.verdict.code(), helpmate, reason }
    }
}

/// One reason of an explanation.
#[derive(Serialize, Clone, Debug)]
pub struct ReasonJson {
    pub code: &'static str,
    pub rule: &'static str,
    pub squares: Vec<String>,
    pub text: String,
}

/// How the castling the position allows is written in this game.
#[derive(Serialize, Clone, Debug)]
pub struct CastlingWritingJson {
    pub side: &'static str,
    pub castling: String,
    pub chess960: bool,
    pub text: String,
}

/// The move object: `input`, `uci`, `san`, `legal`, `reasons` (`code`, `rule`, `squares`,
/// `text`), `after`; plus `piece`, `kind`, `lang`, `castling_writing` and `read_as`
/// (`fen_before` is not repeated: the caller knows it).
#[derive(Serialize, Clone, Debug)]
pub struct ExplanationJson {
    pub input: String,
    pub uci: Option<String>,
    pub san: Option<String>,
    pub legal: bool,
    pub reasons: Vec<ReasonJson>,
    pub after: Option<ReportJson>,
    pub piece: Option<String>,
    pub kind: Option<String>,
    pub lang: &'static str,
    pub castling_writing: Option<CastlingWritingJson>,
    pub read_as: Option<String>,
}

impl ExplanationJson {
    pub fn new(ex: &Explanation, lang: Lang) -> ExplanationJson {
        ExplanationJson {
            input: ex.input.clone(),
            uci: ex.uci(),
            san: ex.san().map(str::to_string),
            legal: ex.is_legal(),
            reasons: ex
                .reasons
                .iter()
                .map(|r| ReasonJson {
                    code: r.code().as_str(),
                    rule: r.rule(),
                    squares: squares(r.squares()),
                    text: text::reason_text(r, lang),
                })
                .collect(),
            after: ex.after().map(ReportJson::from),
            piece: ex.piece.map(|p| format!("{} {}", p.color.name(), p.kind.name())),
            kind: ex.category().map(|c| c.code()),
            lang: lang.code(),
            castling_writing: ex.castling_writing.as_ref().map(|w| CastlingWritingJson {
                side: if w.side == CastleSide::King { "kingside" } else { "queenside" },
                castling: w.here.clone(),
                chess960: w.chess960,
                text: lang.words().castling_writing(&ex.input, w),
            }),
            read_as: ex.read_as.clone(),
        }
    }
}

/// The position report as one line of JSON.
pub fn report(r: &PositionReport) -> String {
    to_line(&ReportJson::from(r))
}

/// A player's verdict as one line of JSON.
pub fn decision(d: &Decision) -> String {
    to_line(&DecisionJson::from(d))
}

/// The move object as one line of JSON.
pub fn explanation(ex: &Explanation, lang: Lang) -> String {
    to_line(&ExplanationJson::new(ex, lang))
}

/// The position report with the tables' value as its field `tablebase` (`null` when no
/// tables were asked for): one object.
#[derive(Serialize, Clone, Debug)]
pub struct ReportWithTablebaseJson {
    #[serde(flatten)]
    pub report: ReportJson,
    pub tablebase: Option<TablebaseJson>,
}

/// The tables' value: `status` (`known`, `not_in_tables`, `unknown`); for a known value the
/// side to move, `value` (`win`, `cursed_win`, `draw`, `blessed_loss`, `loss`: the counter
/// at 0), `dtz`, the fifty-move-aware `result` with the counter as it stands, and every
/// legal move, best first, with its `value` and `dtz`; `error` when part is unknown;
/// `text`: the report's lines in the language asked for.
#[derive(Serialize, Clone, Debug, Default)]
pub struct TablebaseJson {
    pub status: &'static str,
    pub pieces: Option<u32>,
    pub largest_tables: Option<u32>,
    pub side_to_move: Option<&'static str>,
    pub value: Option<&'static str>,
    pub dtz: Option<i32>,
    pub halfmove_clock: Option<u32>,
    pub result: Option<&'static str>,
    pub moves: Option<Vec<TablebaseMoveJson>>,
    pub error: Option<String>,
    pub text: Vec<String>,
}

/// One root move by the tables.
#[derive(Serialize, Clone, Debug)]
pub struct TablebaseMoveJson {
    #[serde(rename = "move")]
    pub mv: String,
    pub san: String,
    pub value: &'static str,
    pub dtz: i32,
    pub best: bool,
}

impl TablebaseJson {
    pub fn new(t: &TablebaseReport, lang: Lang) -> TablebaseJson {
        let text = lang.words().tablebase(t).iter().map(|l| l.trim().to_string()).collect();
        match t {
            TablebaseReport::NotInTables { pieces, largest } => TablebaseJson {
                status: "not_in_tables",
                pieces: Some(*pieces),
                largest_tables: Some(*largest),
                text,
                ..TablebaseJson::default()
            },
            TablebaseReport::Unknown { why } => {
                TablebaseJson { status: "unknown", error: Some(why.clone()), text, ..TablebaseJson::default() }
            }
            TablebaseReport::Known(k) => TablebaseJson {
                status: "known",
                side_to_move: Some(k.side.name()),
                value: Some(k.value.code()),
                dtz: k.dtz.as_ref().ok().copied(),
                halfmove_clock: Some(k.halfmove_clock),
                result: k.result().map(|w| w.code()),
                moves: k.moves.as_ref().ok().map(|ms| {
                    ms.iter()
                        .map(|m| TablebaseMoveJson {
                            mv: m.uci.clone(),
                            san: m.san.clone(),
                            value: m.value.code(),
                            dtz: m.dtz,
                            best: m.best,
                        })
                        .collect()
                }),
                error: k.dtz.as_ref().err().or(k.moves.as_ref().err()).cloned(),
                text,
                ..TablebaseJson::default()
            },
        }
    }
}

/// The position report with the tables' value, as one line of JSON.
pub fn report_with_tablebase(r: &PositionReport, tb: Option<&TablebaseReport>, lang: Lang) -> String {
    to_line(&ReportWithTablebaseJson {
        report: ReportJson::from(r),
        tablebase: tb.map(|t| TablebaseJson::new(t, lang)),
    })
}
