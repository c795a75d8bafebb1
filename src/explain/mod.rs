//! Explain mode: for any move text in any position of a game, whether the move is legal
//! and exactly why, citing the FIDE Laws — and the position report. The contract is
//! `docs/explain.md`.
//!
//! - [`reason`]: the reason codes, defined once (code, article, facts, squares);
//! - [`analysis`]: the reasoning — the facts about one move, computed once ([`explain`]);
//! - [`report`]: the position report's facts ([`Note`]);
//! - [`lang`]: the languages and the [`Wording`] each implements (`en`, `zh`);
//! - [`text`], [`json`], [`svg`]: the renderers;
//! - [`judge`]: a recorded game judged, its findings in words (`arbiter referee`, the board's review).
//!
//! The Laws themselves (the referee, dead positions, PGN) are `crate::rules`; the command
//! line is `crate::tools::explain`.

pub mod analysis;
mod en;
pub mod json;
pub mod judge;
pub mod lang;
pub mod reason;
pub mod report;
pub mod svg;
pub mod text;
mod zh;

pub use analysis::{explain, explain_selection, Explanation, LegalMove, MoveCategory};
pub use lang::{Lang, RefereeText, Wording};
pub use reason::{Castling, CastlingLoss, CheckAnswer, Line, Placed, Reason, ReasonCode};
pub use report::{attacks_after, numbered_line, outcome_note, report_notes, ruling_note, MateFact, Note};
pub use text::{explain_for_uci, note_text, reason_text, render_explanation, render_report};
