//! What the page shows of a board, as the API's JSON: the board drawn by the explain mode's
//! renderer, and every sentence worded by the explain layer in the page's language. The page
//! only places these; it decides nothing.

use super::board::{Board, Ending, Message, Mode, Stage, Strength};
use super::drills::DRILLS;
use super::words::page_words;
use crate::chess::{movegen, Color, Move, Square};
use crate::explain::json::ReportJson;
use crate::explain::svg::{self, Scene};
use crate::explain::{
    attacks_after, explain, note_text, outcome_note, reason_text, render_explanation, report_notes, ruling_note, Lang,
    Note,
};
use crate::rules::{Act, Game, PositionReport};
use crate::syzygy::Tablebases;
use serde::Serialize;

/// A legal destination of the selected piece.
#[derive(Serialize, Debug)]
pub struct Target {
    pub square: String,
    /// `quiet`, `capture` or `double-step` (the board's `data-target`).
    pub kind: &'static str,
}

/// The move in preview.
#[derive(Serialize, Debug)]
pub struct PreviewView {
    pub uci: String,
    pub san: String,
    /// The verdict line, what the move captures or which special rule it is, and what it
    /// causes (check, mate, stalemate, the pieces it attacks, draws).
    pub summary: Vec<String>,
}

/// One move of the move list.
#[derive(Serialize, Debug)]
pub struct MoveView {
    /// Half-move number from 1.
    pub ply: usize,
    /// `12.` or `12...` before a move that starts a line.
    pub number: String,
    pub san: String,
    pub uci: String,
    /// The referee has a finding at this ply (review).
    pub finding: bool,
}

/// How the game ended.
#[derive(Serialize, Debug)]
pub struct ResultView {
    pub result: &'static str,
    /// PGN's `Termination`: `normal` or `time forfeit`.
    pub termination: &'static str,
    pub text: String,
}

/// The mode and its settings.
#[derive(Serialize, Debug)]
pub struct ModeView {
    /// `two-players`, `engine`, `drill` or `review`.
    pub kind: &'static str,
    pub human: Option<&'static str>,
    /// `UCI_Elo` of Arbiter's level (`None`: full strength or no engine).
    pub level: Option<u32>,
    pub drill: Option<DrillView>,
}

/// The drill on the board.
#[derive(Serialize, Debug)]
pub struct DrillView {
    pub id: &'static str,
    pub title: &'static str,
    pub question: &'static str,
    pub rules: &'static str,
    /// A strategy's two branches (empty for a rule question).
    pub branches: Vec<&'static str>,
}

/// A recorded game under review.
#[derive(Serialize, Debug)]
pub struct ReviewView {
    pub white: String,
    pub black: String,
    pub result: String,
    pub cursor: usize,
    pub plies: usize,
    /// Recorded moves that could not be played (after the last one shown in `moves`).
    pub unplayed: Vec<String>,
    /// The explanation of the move that led to the position shown.
    pub move_explanation: Vec<String>,
    /// The referee's findings, each at the ply it concerns (0: the record as a whole).
    pub findings: Vec<FindingView>,
}

/// One finding of the referee on a recorded game.
#[derive(Serialize, Debug)]
pub struct FindingView {
    pub ply: usize,
    pub code: &'static str,
    pub rule: String,
    pub text: String,
}

/// One entry of the legend.
#[derive(Serialize, Debug)]
pub struct LegendEntry {
    pub kind: &'static str,
    pub label: &'static str,
    pub svg: String,
}

/// Everything the page shows of one board.
#[derive(Serialize, Debug)]
pub struct View {
    pub id: String,
    pub lang: &'static str,
    pub flipped: bool,
    pub fen: String,
    pub side_to_move: &'static str,
    pub chess960: bool,
    /// Whose turn and whether that king is in check, first; then what the last move attacks, and how
    /// the game ended.
    pub status: Vec<String>,
    pub board: String,
    /// `idle`, `selected`, `promotion` or `preview`.
    pub stage: &'static str,
    pub selected: Option<String>,
    pub targets: Vec<Target>,
    pub preview: Option<PreviewView>,
    /// The explanation panel: a preview's full explanation (reasons with their articles), or
    /// why a selection, a move, a claim or an act was refused or how it was ruled.
    pub explanation: Vec<String>,
    /// The draws the player to move may claim now, or by declaring a move (9.2, 9.3).
    pub claims_offered: Vec<String>,
    /// The last claim's verdict.
    pub claim_result: Vec<String>,
    pub result: Option<ResultView>,
    pub moves: Vec<MoveView>,
    /// "Can each side still checkmate?"
    pub mate_possible: Vec<String>,
    /// The tablebase value (with `--syzygy`).
    pub tablebase: Vec<String>,
    pub mode: ModeView,
    pub thinking: bool,
    pub can_undo: bool,
    pub review: Option<ReviewView>,
    /// The referee's report on the position shown (the explain contract's object).
    pub report: ReportJson,
}

/// The view of `board` in `lang`, seen from White's side unless `flipped`.
pub fn view(id: &str, board: &mut Board, lang: Lang, flipped: bool, tablebases: &Tablebases) -> View {
    if let Some(review) = board.review() {
        return review_view(id, review.game_at_cursor(), review, lang, flipped, tablebases);
    }
    let report = board.report().clone();
    let game = board.game().clone();
    let pos = *game.current();
    let words = page_words(lang);
    let stage = board.stage();

    // The board: the position, or the position after the move in preview.
    let mut attacked: Vec<Square> = Vec::new();
    let mut preview = None;
    let mut explanation = Vec::new();
    let mut refused = None;
    let mut last_attacks = None;
    let last_move = game.moves().last().map(|m| (m.from(), m.to()));
    let board_svg = if let Stage::Preview(m) = stage {
        let ex = explain(&game, &m.to_uci()).for_reader(&game);
        let mut summary = vec![render_explanation(&ex, lang).remove(0)];
        summary.extend(
            ex.reasons.iter().filter(|r| PREVIEW_FACTS.contains(&r.code().as_str())).map(|r| reason_text(r, lang)),
        );
        if let Some(after) = ex.after() {
            // Who can still mate has its own panel; the preview says what the move causes.
            let caused = report_notes(after, true).into_iter().filter(|n| !matches!(n, Note::MatePossible { .. }));
            summary.extend(caused.map(|n| note_text(&n, lang)));
        }
        if let Some(note) = attacks_after(&pos, m) {
            if let Note::Attacks { targets, .. } = &note {
                attacked = targets.iter().map(|&(_, s)| s).collect();
            }
            summary.push(note_text(&note, lang));
        }
        explanation = render_explanation(&ex, lang);
        preview = Some(PreviewView { uci: m.to_uci(), san: ex.san().unwrap_or_default().to_string(), summary });
        let mut after = game.clone();
        let _ = after.play(m);
        let scene = Scene { flipped, preview: Some((m.from(), m.to())), attacked: &attacked, ..Scene::default() };
        svg::board(&after, &scene, lang)
    } else {
        let selected = match stage {
            Stage::Selected(s) => Some(s),
            Stage::Promotion { from, .. } => Some(from),
            _ => None,
        };
        if let Some(Message::Refused(ex)) = board.message() {
            refused = Some(ex.clone());
        }
        // What the last move attacks stays pointed out until the next move (after a fork:
        // the check and the attacked rook, while the board waits for the reply).
        if let Some(note) = last_move_attacks(&game) {
            if let Note::Attacks { targets, .. } = &note {
                attacked = targets.iter().map(|&(_, s)| s).collect();
            }
            last_attacks = Some(note_text(&note, lang));
        }
        let scene = Scene {
            flipped,
            last_move,
            selected,
            explanation: refused.as_deref(),
            attacked: &attacked,
            ..Scene::default()
        };
        svg::board(&game, &scene, lang)
    };

    let mut claim_result = Vec::new();
    match board.message() {
        Some(Message::Refused(ex)) => {
            // A refused selection has no move to name: its reasons alone.
            explanation = if ex.uci().is_some() && ex.to.is_some() {
                render_explanation(ex, lang)
            } else {
                ex.reasons.iter().map(|r| format!("- {}", reason_text(r, lang))).collect()
            };
        }
        Some(Message::Claim(v)) => {
            claim_result = vec![note_text(&Note::Claim(v.clone()), lang)];
        }
        Some(Message::Ruling(r)) => {
            explanation = vec![note_text(&ruling_note(&pos, r), lang)];
        }
        None => {}
    }

    let targets = match stage {
        Stage::Selected(from) => targets_of(&game, from),
        _ => Vec::new(),
    };
    let result = result_view(board, &report, lang);
    let mut status = status_lines(&report, lang);
    status.extend(last_attacks);
    if let Some(r) = &result {
        status.push(r.text.clone());
    }
    if board.thinking().is_some() || board.engine_to_move() {
        status.push(words.thinking.to_string());
    }
    let mode = mode_view(board.mode(), lang);
    let can_undo = !game.moves().is_empty() || board.ending().is_some();
    View {
        id: id.to_string(),
        lang: lang.code(),
        flipped,
        fen: pos.to_fen(),
        side_to_move: pos.side_to_move().name(),
        chess960: pos.is_chess960(),
        status,
        board: board_svg,
        stage: match stage {
            Stage::Idle => "idle",
            Stage::Selected(_) => "selected",
            Stage::Promotion { .. } => "promotion",
            Stage::Preview(_) => "preview",
        },
        selected: match stage {
            Stage::Selected(s) | Stage::Promotion { from: s, .. } => Some(s.to_string()),
            _ => None,
        },
        targets,
        preview,
        explanation,
        claims_offered: if board.ending().is_some() { Vec::new() } else { claims_offered(&report, lang) },
        claim_result,
        result,
        moves: move_list(game.start(), game.moves(), &[]),
        mate_possible: mate_lines(&report, lang),
        tablebase: tablebase_lines(tablebases, &game, lang),
        mode,
        thinking: board.thinking().is_some(),
        can_undo,
        review: None,
        report: ReportJson::from(&report),
    }
}

/// The reasons a preview names besides its verdict: what it captures and which special rule
/// it is (the rest, why it is legal, is one click away in the explanation).
const PREVIEW_FACTS: [&str; 8] = [
    "capture",
    "pawn_capture",
    "en_passant",
    "promotion",
    "pawn_double_step",
    "castling_kingside",
    "castling_queenside",
    "castling_attacked_rook_allowed",
];

/// The view of a recorded game at its cursor.
fn review_view(
    id: &str,
    game: Game,
    review: &super::review::Review,
    lang: Lang,
    flipped: bool,
    tablebases: &Tablebases,
) -> View {
    let pos = *game.current();
    let report = game.report().for_reader(&pos);
    let last_move = game.moves().last().map(|m| (m.from(), m.to()));
    let scene = Scene { flipped, last_move, ..Scene::default() };
    let findings: Vec<FindingView> = review
        .judgement(lang)
        .map(|j| {
            j.problems
                .iter()
                .map(|p| FindingView { ply: p.ply, code: p.code.code(), rule: p.rule.clone(), text: p.text.clone() })
                .collect()
        })
        .unwrap_or_default();
    let finding_plies: Vec<usize> = findings.iter().map(|f| f.ply).collect();
    let move_explanation = match review.cursor.checked_sub(1) {
        Some(i) => {
            let before = {
                let mut g = Game::new(*review.start());
                for &m in &review.moves()[..i] {
                    let _ = g.play(m);
                }
                g
            };
            render_explanation(&explain(&before, &review.moves()[i].to_uci()).for_reader(&before), lang)
        }
        None => Vec::new(),
    };
    View {
        id: id.to_string(),
        lang: lang.code(),
        flipped,
        fen: pos.to_fen(),
        side_to_move: pos.side_to_move().name(),
        chess960: pos.is_chess960(),
        status: status_lines(&report, lang),
        board: svg::board(&game, &scene, lang),
        stage: "idle",
        selected: None,
        targets: Vec::new(),
        preview: None,
        // The move that led here, and what the referee found at this ply.
        explanation: move_explanation
            .iter()
            .cloned()
            .chain(findings.iter().filter(|f| f.ply == review.cursor && f.ply > 0).map(|f| f.text.clone()))
            .collect(),
        claims_offered: Vec::new(),
        claim_result: Vec::new(),
        result: None,
        moves: move_list(review.start(), review.moves(), &finding_plies),
        mate_possible: mate_lines(&report, lang),
        tablebase: tablebase_lines(tablebases, &game, lang),
        mode: ModeView { kind: "review", human: None, level: None, drill: None },
        thinking: false,
        can_undo: false,
        review: Some(ReviewView {
            white: review.white.clone(),
            black: review.black.clone(),
            result: review.result.clone(),
            cursor: review.cursor,
            plies: review.plies(),
            unplayed: review.texts[review.plies()..].to_vec(),
            move_explanation,
            findings,
        }),
        report: ReportJson::from(&report),
    }
}

/// What the piece that made the last move of `game` attacks now.
fn last_move_attacks(game: &Game) -> Option<Note> {
    let (&last, earlier) = game.moves().split_last()?;
    let before = earlier.iter().fold(*game.start(), |pos, &m| pos.make_move(m));
    attacks_after(&before, last)
}

/// Whose turn and whether that king is in check (the seeds' first look at a position).
fn status_lines(report: &PositionReport, lang: Lang) -> Vec<String> {
    report_notes(report, false)
        .into_iter()
        .filter(|n| matches!(n, Note::ToMove { .. } | Note::Check { .. } | Note::NotInCheck { .. }))
        .map(|n| note_text(&n, lang))
        .collect()
}

/// The claims the report offers the player to move.
fn claims_offered(report: &PositionReport, lang: Lang) -> Vec<String> {
    report_notes(report, false)
        .into_iter()
        .filter(|n| {
            matches!(n, Note::ClaimThreefoldNow { .. } | Note::ClaimFiftyNow { .. } | Note::ClaimWithMove { .. })
        })
        .map(|n| note_text(&n, lang))
        .collect()
}

/// Each player's chances to checkmate, from the report.
fn mate_lines(report: &PositionReport, lang: Lang) -> Vec<String> {
    let Ok(pos) = crate::chess::Position::from_fen(&report.fen) else { return Vec::new() };
    match (&report.mate_possible, report.outcome()) {
        (Some(decisions), None) => Color::ALL
            .into_iter()
            .zip(decisions)
            .map(|(side, d)| note_text(&Note::MatePossible { side, fact: crate::explain::MateFact::of(&pos, d) }, lang))
            .collect(),
        _ => Vec::new(),
    }
}

/// The tables' value of the current position in the page's language, when tables are loaded.
fn tablebase_lines(tb: &Tablebases, game: &Game, lang: Lang) -> Vec<String> {
    let keys = game.keys();
    crate::syzygy::report::value(tb, game.current(), &keys[..keys.len().saturating_sub(1)])
        .map_or_else(Vec::new, |r| lang.words().tablebase(&r))
}

/// The legal destinations of the piece on `from`, as marked on the board.
fn targets_of(game: &Game, from: Square) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    for m in movegen::legal_moves(game.current()).iter().filter(|m| m.from() == from) {
        let square = m.to().to_string();
        if out.iter().any(|t| t.square == square) {
            continue;
        }
        let kind = if m.is_capture() {
            "capture"
        } else if m.kind() == crate::chess::MoveKind::DoublePush {
            "double-step"
        } else {
            "quiet"
        };
        out.push(Target { square, kind });
    }
    out
}

/// How the game ended, in words: on the board (the report), or by an act or a claim.
fn result_view(board: &Board, report: &PositionReport, lang: Lang) -> Option<ResultView> {
    let pos = board.game().current();
    match board.ending() {
        Some(Ending::Ruling(r)) => Some(ResultView {
            result: r.result(),
            termination: if r.act == Act::FlagFall { "time forfeit" } else { "normal" },
            text: note_text(&ruling_note(pos, r), lang),
        }),
        Some(Ending::Claim(v)) => Some(ResultView {
            result: "1/2-1/2",
            termination: "normal",
            text: note_text(&Note::Claim(v.clone()), lang),
        }),
        None => {
            let outcome = report.outcome()?;
            let note = outcome_note(outcome, report.side_to_move, || report.dead_reason)?;
            Some(ResultView { result: outcome.result(), termination: "normal", text: note_text(&note, lang) })
        }
    }
}

/// The mode in words.
fn mode_view(mode: Mode, lang: Lang) -> ModeView {
    let words = page_words(lang);
    match mode {
        Mode::TwoPlayers => ModeView { kind: "two-players", human: None, level: None, drill: None },
        Mode::Engine { human, strength } => ModeView {
            kind: "engine",
            human: Some(human.name()),
            level: match strength {
                Strength::Elo(e) => Some(e),
                Strength::Full => None,
            },
            drill: None,
        },
        Mode::Drill(i) => {
            let d = &DRILLS[i];
            let t = &words.drills[i];
            ModeView {
                kind: "drill",
                human: None,
                level: None,
                drill: Some(DrillView {
                    id: d.id,
                    title: t.title,
                    question: t.question,
                    rules: d.rules,
                    branches: if d.is_strategy() { t.branches.to_vec() } else { Vec::new() },
                }),
            }
        }
    }
}

/// The moves from `start` in SAN, numbered; `findings` are the plies with a finding.
fn move_list(start: &crate::chess::Position, moves: &[Move], findings: &[usize]) -> Vec<MoveView> {
    let mut pos = *start;
    let mut out = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        let number = match pos.side_to_move() {
            Color::White => format!("{}.", pos.fullmove_number()),
            Color::Black if i == 0 => format!("{}...", pos.fullmove_number()),
            Color::Black => String::new(),
        };
        out.push(MoveView {
            ply: i + 1,
            number,
            san: crate::chess::notation::to_san(&pos, m),
            uci: m.to_uci(),
            finding: findings.contains(&(i + 1)),
        });
        pos = pos.make_move(m);
    }
    out
}

/// The legend of the board's marks, in `lang`.
pub fn legend(lang: Lang) -> Vec<LegendEntry> {
    svg::legend_symbols(lang).into_iter().map(|(kind, label, svg)| LegendEntry { kind, label, svg }).collect()
}
