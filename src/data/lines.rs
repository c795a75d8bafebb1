//! Training-data lines: `FEN | score-cp-from-White | result`, one position a line, result `1.0`,
//! `0.5` or `0.0` from White's side. `selfplay --datagen` writes them, `arbiter train` and
//! `arbiter texel` read them (and make them from game records, [`super::records`]).

use crate::chess::{Move, Position};
use crate::engine::Score;

/// The training data of a game, one line per sampled position: past the first `skip` plies,
/// the side to move not in check, the move played neither a capture nor a promotion, and a
/// centipawn (not mate) score for it. The rule of `--datagen`, in its one place.
pub fn write(
    start: &Position,
    moves: impl IntoIterator<Item = (Move, Option<Score>)>,
    result: &str,
    skip: u32,
    out: &mut String,
) {
    let mut pos = *start;
    for (ply, (mv, score)) in moves.into_iter().enumerate() {
        if let Some(Score::Cp(cp)) = score {
            if ply as u32 >= skip && !pos.in_check() && !mv.is_tactical() {
                let cp_white = pos.side_to_move().sign() * cp;
                out.push_str(&format!("{} | {} | {}\n", pos.to_fen(), cp_white, result));
            }
        }
        pos = pos.make_move(mv);
    }
}

/// Reads a data line: the position, the score (centipawns, White's view) and White's result.
pub fn parse(line: &str) -> Option<(Position, f32, f32)> {
    let mut parts = line.split('|').map(str::trim);
    let pos = Position::from_fen(parts.next()?).ok()?;
    let score: f32 = parts.next()?.parse().ok()?;
    let result: f32 = parts.next()?.parse().ok()?;
    (0.0..=1.0).contains(&result).then_some((pos, score, result))
}

/// The FEN's move number of a data line.
fn move_number(line: &str) -> Option<u32> {
    line.split('|').next()?.split_whitespace().nth(5)?.parse().ok()
}

/// Groups data lines into games. A blank line ends a game (game records expanded for
/// training, [`super::records::read_data_file`], keep each game's lines apart so); so does a
/// falling move number (`selfplay --datagen` writes a game's positions together and in
/// order, with no blank line between games). Blank lines belong to no game.
pub fn games<L: AsRef<str>>(lines: impl IntoIterator<Item = L>) -> Vec<Vec<L>> {
    let mut games: Vec<Vec<L>> = Vec::new();
    let mut last = 0;
    let mut ended = true;
    for line in lines {
        if line.as_ref().trim().is_empty() {
            ended = true;
            continue;
        }
        let n = move_number(line.as_ref()).unwrap_or(last);
        match games.last_mut() {
            Some(game) if !ended && n >= last => game.push(line),
            _ => games.push(vec![line]),
        }
        ended = false;
        last = n;
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_split_where_the_move_number_falls() {
        let lines = [
            "8/8/8/5k2/8/8/4K3/3R4 w - - 0 5 | 1 | 1.0",
            "8/8/8/5k2/8/8/4K3/3R4 b - - 1 5 | 1 | 1.0",
            "8/8/8/5k2/8/8/4K3/3R4 w - - 0 9 | 1 | 1.0",
            "8/8/8/5k2/8/8/4K3/3R4 w - - 0 5 | 1 | 0.5",
            "a partial line",
            "8/8/8/5k2/8/8/4K3/3R4 b - - 0 6 | 1 | 0.5",
            "8/8/8/5k2/8/8/4K3/3R4 w - - 0 4 | 1 | 0.0",
        ];
        let g = games(lines.iter().map(|l| l.to_string()));
        assert_eq!(g.iter().map(Vec::len).collect::<Vec<_>>(), [3, 3, 1]);
        assert_eq!(g[1][1], "a partial line");
    }

    #[test]
    fn a_blank_line_ends_a_game_even_where_the_move_number_grows() {
        // Two records whose games follow on in move numbers: apart only by the blank line.
        let lines = [
            "8/8/8/5k2/8/8/4K3/3R4 w - - 0 5 | 1 | 1.0",
            "8/8/8/5k2/8/8/4K3/3R4 b - - 1 5 | 1 | 1.0",
            "",
            "",
            "8/8/8/5k2/8/8/4K3/3R4 w - - 0 9 | 1 | 0.5",
            "  ",
            "8/8/8/5k2/8/8/4K3/3R4 b - - 0 9 | 1 | 0.0",
            "8/8/8/5k2/8/8/4K3/3R4 w - - 0 10 | 1 | 0.0",
        ];
        let g = games(lines.iter().copied());
        assert_eq!(g, [&lines[0..2], &lines[4..5], &lines[6..8]]);
    }

    #[test]
    fn data_lines_parse_and_bad_ones_do_not() {
        crate::chess::attacks::init();
        let (_, score, result) = parse("8/8/8/5k2/8/8/4K3/3R4 w - - 0 1 | 512 | 1.0").unwrap();
        assert_eq!((score, result), (512.0, 1.0));
        assert!(parse("8/8/8/5k2/8/8/4K3/3R4 w - - 0 1 | x | 1.0").is_none());
        assert!(parse("not a fen | 1 | 0.5").is_none());
        assert!(parse("8/8/8/5k2/8/8/4K3/3R4 w - - 0 1 | 1 | 2.0").is_none());
    }
}
