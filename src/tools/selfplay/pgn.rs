//! PGN export of finished games: the seven tag roster, `FEN`/`SetUp` for non-standard starts,
//! `TimeControl`, `Termination`, and a `{score/depth time}` comment after every move
//! (score from the mover's point of view, Cute Chess style: `{+0.34/12 0.52s}`).

use super::game::GameRecord;
use crate::chess::{Position, STARTPOS_FEN};

/// Tag values must escape `\` and `"`.
fn tag(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\""))
}

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

/// The game as PGN text, ending with a blank line.
pub fn write_game(rec: &GameRecord, ctx: &PgnContext) -> String {
    let mut out = String::new();
    out += &tag("Event", ctx.event);
    out += &tag("Site", ctx.site);
    out += &tag("Date", ctx.date);
    out += &tag("Round", ctx.round);
    out += &tag("White", &rec.white);
    out += &tag("Black", &rec.black);
    out += &tag("Result", rec.outcome.pgn());
    if rec.start_fen != STARTPOS_FEN {
        out += &tag("FEN", &rec.start_fen);
        out += &tag("SetUp", "1");
    }
    out += &tag("TimeControl", ctx.time_control);
    out += &tag("Termination", rec.reason.termination_tag());
    out += &tag("PlyCount", &rec.moves.len().to_string());
    out.push('\n');

    let (mut number, mut white_to_move) = match Position::from_fen(&rec.start_fen) {
        Ok(p) => (u32::from(p.fullmove_number()), p.side_to_move() == crate::chess::Color::White),
        Err(_) => (1, true),
    };
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in rec.moves.iter().enumerate() {
        if white_to_move {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.san.clone());
        let mut comment = String::new();
        if let Some(s) = m.score {
            comment.push_str(&s.to_string());
            if let Some(d) = m.depth {
                comment.push_str(&format!("/{d}"));
            }
            comment.push(' ');
        }
        comment.push_str(&format!("{:.2}s", m.time.as_secs_f64()));
        tokens.push(format!("{{{comment}}}"));
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens.push(format!("{{{}}}", rec.reason.to_string().replace('}', ")")));
    tokens.push(rec.outcome.pgn().to_string());
    // Wrap at 79 columns (PGN export format recommends lines under 80 characters).
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out += &line;
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &t;
    }
    out += &line;
    out.push_str("\n\n");
    out
}
