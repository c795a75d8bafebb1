//! PGN export of finished games: the seven tag roster, `Variant "Chess960"` for Chess960 games,
//! `FEN`/`SetUp` for non-standard starts,
//! `TimeControl`, `Termination`, and a `{score/depth time}` comment after every move
//! (score from the mover's point of view, Cute Chess style: `{+0.34/12 0.52s}`).

use super::game::{GameRecord, PlayedMove};
use crate::chess::STARTPOS_FEN;
use crate::engine::Score;
use crate::rules::pgn::{write_pgn, PgnError, PgnGame};

/// Extra information for the tags.
pub struct PgnContext<'a> {
    pub event: &'a str,
    pub site: &'a str,
    pub date: &'a str,
    pub round: &'a str,
    pub time_control: &'a str,
}

/// Today's date as PGN wants it (`YYYY.MM.DD`, UTC).
pub fn pgn_date_today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The game as PGN text, ending with a blank line, written by `rules::pgn::write_pgn`. The
/// reason the game ended is appended to the last move's comment.
pub fn write_game(rec: &GameRecord, ctx: &PgnContext) -> Result<String, PgnError> {
    let mut g = PgnGame {
        tags: vec![
            ("Event".into(), ctx.event.into()),
            ("Site".into(), ctx.site.into()),
            ("Date".into(), ctx.date.into()),
            ("Round".into(), ctx.round.into()),
            ("White".into(), rec.white.clone()),
            ("Black".into(), rec.black.clone()),
            ("TimeControl".into(), ctx.time_control.into()),
            ("Termination".into(), rec.reason.termination_tag().into()),
            ("PlyCount".into(), rec.moves.len().to_string()),
        ],
        start_fen: (rec.start_fen != STARTPOS_FEN || rec.chess960).then(|| rec.start_fen.clone()),
        moves: rec.moves.iter().map(|m| m.mv).collect(),
        comments: rec.moves.iter().map(|m| Some(move_comment(m))).collect(),
        result: rec.result.pgn().to_string(),
    };
    if rec.chess960 {
        g.set_tag("Variant", "Chess960");
    }
    if let Some(Some(last)) = g.comments.last_mut() {
        last.push_str(&format!(", {}", rec.reason));
    }
    write_pgn(&g)
}

/// `+0.34/12 0.52s` (score from the mover's point of view).
fn move_comment(m: &PlayedMove) -> String {
    let mut c = String::new();
    if let Some(s) = m.score {
        c.push_str(&score_text(s));
        if let Some(d) = m.depth {
            c.push_str(&format!("/{d}"));
        }
        c.push(' ');
    }
    c.push_str(&format!("{:.2}s", m.time.as_secs_f64()));
    c
}

/// A score as Cute Chess writes it in PGN comments: `+0.34`, `-1.20`, `+M5`, `-M3`.
pub fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("{}{:.2}", if c >= 0 { "+" } else { "-" }, c.unsigned_abs() as f64 / 100.0),
        Score::Mate(m) => format!("{}M{}", if m > 0 { "+" } else { "-" }, m.unsigned_abs()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_as_cute_chess_writes_them() {
        assert_eq!(score_text(Score::Cp(34)), "+0.34");
        assert_eq!(score_text(Score::Cp(-5)), "-0.05");
        assert_eq!(score_text(Score::Mate(-3)), "-M3");
    }
}
