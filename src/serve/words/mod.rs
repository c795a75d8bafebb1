//! Every word of the board page, one table per language (the explain layer's languages:
//! [`Lang`]). The page takes its labels from here (`GET /api/words`), and the server its
//! messages; what the Laws say (verdicts, reasons, notes) comes worded from the explain layer.
//! A missing word does not compile: each table fills every field of [`PageWords`].

mod en;
mod zh;

use super::drills::COUNT;
use crate::explain::Lang;
use serde::Serialize;

/// The words of one drill.
#[derive(Serialize, Debug)]
pub struct DrillText {
    pub title: &'static str,
    /// The question and the task, as the rules page asks it.
    pub question: &'static str,
    /// A strategy's two branches (empty for a rule question).
    pub branches: [&'static str; 2],
}

/// A rule question's words.
const fn rule(title: &'static str, question: &'static str) -> DrillText {
    DrillText { title, question, branches: ["", ""] }
}

/// A strategy's words, with its two branches.
const fn strategy(title: &'static str, question: &'static str, branches: [&'static str; 2]) -> DrillText {
    DrillText { title, question, branches }
}

/// The page's words in one language.
#[derive(Serialize, Debug)]
pub struct PageWords {
    pub lang: &'static str,
    /// The button that switches to the other language, in that language.
    pub other_language: &'static str,
    pub title: &'static str,
    pub subtitle: &'static str,
    pub board_heading: &'static str,
    pub flip: &'static str,
    pub undo: &'static str,
    pub reset: &'static str,
    pub move_input_label: &'static str,
    pub move_input_placeholder: &'static str,
    pub try_move: &'static str,
    pub preview_heading: &'static str,
    pub confirm: &'static str,
    pub cancel: &'static str,
    pub close: &'static str,
    pub why: &'static str,
    pub promotion_prompt: &'static str,
    pub queen: &'static str,
    pub rook: &'static str,
    pub bishop: &'static str,
    pub knight: &'static str,
    pub explanation_heading: &'static str,
    pub legend_heading: &'static str,
    pub claims_heading: &'static str,
    pub claim_threefold: &'static str,
    pub claim_fifty: &'static str,
    pub claim_hint: &'static str,
    pub resign: &'static str,
    pub flag: &'static str,
    pub act_hint: &'static str,
    pub mode_heading: &'static str,
    pub mode_two_players: &'static str,
    pub mode_engine: &'static str,
    pub you_play: &'static str,
    pub white: &'static str,
    pub black: &'static str,
    pub level: &'static str,
    pub full_strength: &'static str,
    pub from_current: &'static str,
    pub start_game: &'static str,
    pub thinking: &'static str,
    pub drills_heading: &'static str,
    pub rule_questions: &'static str,
    pub strategies: &'static str,
    pub drill_heading: &'static str,
    pub branch: &'static str,
    pub review_heading: &'static str,
    pub pgn_label: &'static str,
    pub load_pgn: &'static str,
    pub play_from_here: &'static str,
    pub first: &'static str,
    pub prev: &'static str,
    pub next: &'static str,
    pub last: &'static str,
    pub movelist_heading: &'static str,
    pub start_position: &'static str,
    pub findings_heading: &'static str,
    pub fen_label: &'static str,
    pub set_fen: &'static str,
    pub export_pgn: &'static str,
    pub mate_heading: &'static str,
    pub tablebase_heading: &'static str,
    pub result_heading: &'static str,
    pub chess960: &'static str,
    /// Messages of the server (errors a learner can meet).
    pub error_engine_to_move: &'static str,
    pub error_in_review: &'static str,
    pub error_nothing_to_confirm: &'static str,
    pub error_nothing_to_undo: &'static str,
    pub error_promotion_pending: &'static str,
    pub error_not_a_player: &'static str,
    pub error_game_over: &'static str,
    pub error_empty_move: &'static str,
    pub error_bad_fen: &'static str,
    pub error_pgn_too_large: &'static str,
    pub error_no_game: &'static str,
    pub drills: [DrillText; COUNT],
}

/// The page's words in `lang`.
pub fn page_words(lang: Lang) -> &'static PageWords {
    match lang {
        Lang::En => &en::WORDS,
        Lang::Zh => &zh::WORDS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No empty label (a forgotten word shows as a blank button), and every drill has its title,
    /// question and, for a strategy, both branches, in every language.
    #[test]
    fn every_word_is_there_in_every_language() {
        for lang in Lang::ALL {
            let w = page_words(lang);
            assert_eq!(w.lang, lang.code());
            let json = serde_json::to_value(w).expect("serializable");
            for (key, value) in json.as_object().expect("object") {
                if let Some(s) = value.as_str() {
                    assert!(!s.trim().is_empty(), "{}: {key} is empty", lang.code());
                }
            }
            for (d, t) in crate::serve::drills::DRILLS.iter().zip(&w.drills) {
                assert!(!t.title.is_empty() && !t.question.is_empty(), "{}: {}", lang.code(), d.id);
                assert_eq!(d.is_strategy(), t.branches.iter().all(|b| !b.is_empty()), "{}: {}", lang.code(), d.id);
            }
        }
    }
}
