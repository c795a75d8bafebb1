//! Training data for `arbiter train`: the lines `selfplay --datagen` writes (`FEN |
//! score-cp-from-white | result`, read by [`lines::parse`]; a `.games` file of game records
//! is read as the lines it expands to), turned into the network's
//! active features for both perspectives, the output bucket, and the score and result from
//! the side to move's view. Validation positions are whole games held out (a game is the
//! lines of one record, or a run of lines whose move number does not fall, [`lines::games`]):
//! the positions of one game are too alike to test each other.

use crate::chess::{Color, Position};
use crate::data::{lines, records};
use crate::engine::nnue::{self, layout, output_bucket, InputLayout};
use crate::rng::Rng;
use rayon::prelude::*;
use std::fmt;
use std::path::{Path, PathBuf};

/// The most pieces a position may have: the bound the weight clipping's no-overflow
/// guarantee is made for (`model::CLIP`).
pub const MAX_PIECES: usize = 32;

/// How many validation positions are kept for the quantisation check.
const CHECK_POSITIONS: usize = 2000;

/// How many training positions are kept for fitting the quantised output layer.
const CALIBRATION_POSITIONS: usize = 32768;

/// One position: its features from the side to move's perspective are
/// `features[start .. start + count]`; the other perspective's are made from them
/// ([`nnue::other_perspective`], in the same order), which halves the memory a position takes.
#[derive(Clone, Copy, Debug)]
struct Entry {
    start: u32,
    count: u8,
    bucket: u8,
    /// The search's score, centipawns for the side to move.
    score: f32,
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    result: f32,
}

/// One position as the model sees it: its active inputs in the dataset's input layout.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Active inputs from the side to move's perspective (the first `count`): [`Sample::us`].
    us: [u16; MAX_PIECES],
    /// Active inputs from the other side's perspective, in the same order: [`Sample::them`].
    them: [u16; MAX_PIECES],
    count: usize,
    pub bucket: usize,
    /// Centipawns, side to move.
    pub score: f32,
    /// 1 / 0.5 / 0, side to move.
    pub result: f32,
}

impl Sample {
    /// Active inputs from the side to move's perspective.
    pub fn us(&self) -> &[u16] {
        &self.us[..self.count]
    }

    /// Active inputs from the other side's perspective, the same pieces in the order of `us`.
    pub fn them(&self) -> &[u16] {
        &self.them[..self.count]
    }
}

/// A perspective's 768-features as inputs of `layout`: the perspective's own king among
/// them chooses the bucket and the mirroring ([`InputLayout::view_oriented`]).
fn to_inputs(layout: &InputLayout, features768: &mut [u16]) {
    let king = layout::own_king_oriented(features768.iter().map(|&f| f as usize)).unwrap_or(0);
    let view = layout.view_oriented(king);
    for f in features768 {
        *f = view.index(*f as usize) as u16;
    }
}

/// Positions in compact form (about 65 bytes each: a 16-byte entry and a perspective's
/// 768-features, whatever the input layout: [`Dataset::sample`] computes the inputs).
#[derive(Default, Debug, Clone)]
pub struct Dataset {
    entries: Vec<Entry>,
    features: Vec<u16>,
    /// The input layout the samples are given in.
    layout: InputLayout,
}

impl Dataset {
    /// An empty dataset whose samples are in `layout`.
    pub fn with_layout(layout: InputLayout) -> Dataset {
        Dataset { layout, ..Dataset::default() }
    }

    /// Gives the samples in `layout` (the stored positions do not depend on it).
    pub fn set_layout(&mut self, layout: InputLayout) {
        self.layout = layout;
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn sample(&self, i: usize) -> Sample {
        let e = self.entries[i];
        let (start, n) = (e.start as usize, e.count as usize);
        let (mut us, mut them) = ([0; MAX_PIECES], [0; MAX_PIECES]);
        us[..n].copy_from_slice(&self.features[start..start + n]);
        for k in 0..n {
            them[k] = nnue::other_perspective(us[k] as usize) as u16;
        }
        // (The flat layout's inputs are the 768-features: nothing to do.)
        if self.layout != layout::FLAT {
            to_inputs(&self.layout, &mut us[..n]);
            to_inputs(&self.layout, &mut them[..n]);
        }
        Sample { us, them, count: n, bucket: e.bucket as usize, score: e.score, result: e.result }
    }

    /// Adds a position with its score and result from White's view. Refused (false) when it
    /// has more than [`MAX_PIECES`] pieces.
    pub fn push(&mut self, pos: &Position, score_white: f32, result_white: f32) -> bool {
        self.push_features(pos, score_white, result_white, false)
    }

    /// Adds the position's mirror image across the d/e file boundary (a1 <-> h1) with the same
    /// score and result. Only a position without castling rights has one: there the Laws are
    /// symmetric under the mirror (castling is the one rule that tells the wings apart), so
    /// the mirrored position's value is exactly the position's. Refused (false) otherwise.
    fn push_mirrored(&mut self, pos: &Position, score_white: f32, result_white: f32) -> bool {
        pos.castling_rights().is_empty() && self.push_features(pos, score_white, result_white, true)
    }

    fn push_features(&mut self, pos: &Position, score_white: f32, result_white: f32, mirror: bool) -> bool {
        let count = pos.occupied().count() as usize;
        if count > MAX_PIECES || self.features.len() + count > u32::MAX as usize {
            return false;
        }
        let stm = pos.side_to_move();
        let start = self.features.len();
        // A feature's low three bits are its square's file (nnue::feature), so `^ 7` mirrors it.
        let flip = if mirror { 7 } else { 0 };
        self.features.extend(nnue::active_features(pos, stm).map(|f| (f ^ flip) as u16));
        let (score, result) = match stm {
            Color::White => (score_white, result_white),
            Color::Black => (-score_white, 1.0 - result_white),
        };
        let bucket = output_bucket(pos.occupied()) as u8;
        self.entries.push(Entry { start: start as u32, count: count as u8, bucket, score, result });
        true
    }

    fn append(&mut self, other: Dataset) {
        let base = self.features.len() as u32;
        self.entries.extend(other.entries.into_iter().map(|e| Entry { start: e.start + base, ..e }));
        self.features.extend(other.features);
    }
}

/// What to read and how to split it.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Share of positions held out for validation, by whole games.
    pub validation: f64,
    /// Skip positions whose |score| exceeds this (centipawns).
    pub max_score: Option<f32>,
    /// Seed of the games' shuffle that picks the validation games.
    pub seed: u64,
    /// Also train on the mirror image of every training position without castling rights
    /// ([`Dataset::push_mirrored`]); validation positions are never mirrored.
    pub mirror: bool,
    /// The input layout of the samples.
    pub layout: InputLayout,
}

/// The data, split.
#[derive(Debug, Default)]
pub struct Loaded {
    pub train: Dataset,
    pub valid: Dataset,
    pub train_games: usize,
    pub valid_games: usize,
    /// Lines that are not `FEN | cp | result` (a cut last line of a file still being written,
    /// a damaged line), or positions with more than [`MAX_PIECES`] pieces.
    pub malformed: usize,
    /// Positions skipped by `--max-score`.
    pub over_max_score: usize,
    /// The first validation positions (training ones without validation), for the
    /// quantisation check.
    pub check: Vec<Position>,
    /// The first training positions, to fit the quantised output layer on.
    pub calibration: Vec<Position>,
}

/// Data that cannot be read.
#[derive(Debug)]
pub enum DataError {
    Read { path: PathBuf, error: std::io::Error },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Read { path, error } => write!(f, "cannot read {}: {error}", path.display()),
        }
    }
}

impl std::error::Error for DataError {}

/// Reads, splits and encodes the data files. With `held_out` files, those are the validation
/// positions (all of them) and every position of `paths` trains: a fixed validation set, so
/// that networks trained on different data are measured on the same positions.
pub fn load(paths: &[PathBuf], held_out: &[PathBuf], opts: &LoadOptions) -> Result<Loaded, DataError> {
    let read = |ps: &[PathBuf]| ps.iter().map(|p| read_text(p)).collect::<Result<Vec<String>, DataError>>();
    Ok(load_texts(&read(paths)?, &read(held_out)?, opts))
}

/// Data lines, or game records expanded to them ([`records::read_data_file`]).
fn read_text(path: &Path) -> Result<String, DataError> {
    records::read_data_file(path).map_err(|error| DataError::Read { path: path.to_path_buf(), error })
}

/// [`load`] on the files' contents.
fn load_texts(texts: &[String], held_out: &[String], opts: &LoadOptions) -> Loaded {
    let games = shuffled_games(texts, opts.seed);
    let fixed = shuffled_games(held_out, opts.seed);
    let split = if held_out.is_empty() {
        let total: usize = games.iter().map(Vec::len).sum();
        let wanted = (total as f64 * opts.validation.clamp(0.0, 1.0)).round() as usize;
        let (mut split, mut held) = (0, 0);
        while split < games.len() && held < wanted {
            held += games[split].len();
            split += 1;
        }
        split
    } else {
        0
    };
    let (valid_games, train_games) = games.split_at(split);
    let valid_games = if held_out.is_empty() { valid_games } else { &fixed[..] };
    let valid_lines: Vec<&str> = valid_games.iter().flatten().copied().collect();
    let train_lines: Vec<&str> = train_games.iter().flatten().copied().collect();
    let (mut valid, bad_v, over_v) = encode(&valid_lines, opts.max_score, false);
    let (mut train, bad_t, over_t) = encode(&train_lines, opts.max_score, opts.mirror);
    valid.set_layout(opts.layout);
    train.set_layout(opts.layout);
    let positions = |lines: &[&str], n: usize| -> Vec<Position> {
        lines
            .iter()
            .filter_map(|l| lines::parse(l))
            .filter(|(pos, ..)| pos.occupied().count() as usize <= MAX_PIECES)
            .map(|(pos, ..)| pos)
            .take(n)
            .collect()
    };
    let check = positions(if valid_lines.is_empty() { &train_lines } else { &valid_lines }, CHECK_POSITIONS);
    let calibration = positions(&train_lines, CALIBRATION_POSITIONS);
    Loaded {
        train,
        valid,
        train_games: train_games.len(),
        valid_games: valid_games.len(),
        malformed: bad_v + bad_t,
        over_max_score: over_v + over_t,
        check,
        calibration,
    }
}

/// The games of the texts ([`lines::games`]), shuffled.
fn shuffled_games(texts: &[String], seed: u64) -> Vec<Vec<&str>> {
    let mut games: Vec<Vec<&str>> = texts.iter().flat_map(|t| lines::games(t.lines())).collect();
    Rng::new(seed).shuffle(&mut games);
    games
}

/// Encodes lines in parallel, in order (each mirror image, when asked for, right after its
/// position): the dataset, the malformed lines, the positions over the score cap.
fn encode(lines: &[&str], max_score: Option<f32>, mirror: bool) -> (Dataset, usize, usize) {
    let parts: Vec<(Dataset, usize, usize)> = lines
        .par_chunks(16384)
        .map(|chunk| {
            let mut d = Dataset::default();
            let (mut bad, mut over) = (0, 0);
            for line in chunk {
                match lines::parse(line) {
                    Some((_, score, _)) if max_score.is_some_and(|m| score.abs() > m) => over += 1,
                    Some((pos, score, result)) if d.push(&pos, score, result) => {
                        if mirror {
                            d.push_mirrored(&pos, score, result);
                        }
                    }
                    _ => bad += 1,
                }
            }
            (d, bad, over)
        })
        .collect();
    let mut out = Dataset::default();
    let (mut bad, mut over) = (0, 0);
    for (d, b, o) in parts {
        out.append(d);
        bad += b;
        over += o;
    }
    (out, bad, over)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: &str = "\
rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 | 30 | 1.0
rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 3 3 | 25 | 1.0
r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4 | 4000 | 1.0
8/8/4k3/8/8/4K3/4P3/8 w - - 0 40 | 150 | 0.5
8/8/4k3/8/8/4K3/4P3/8 b - - 0 40 | x | 0.5
not a line at all

8/8/4k3/8/8/4K3/4P3/8 w - - 0 41 | 150 | 2.0
8/8/4k3/8/8/4K3/4P3/8 b - - 0 41 | 120 | 0.0
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 10 | 0.0
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | -5 | 0.0
QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqk w - - 0 9 | 0 | 0.5
rnbqkbnr/pppppppp/8/8/4P3/8/PP";

    /// `LINES` loaded for training alone (no validation, scores over 3000 skipped).
    fn load_lines(mirror: bool) -> Loaded {
        crate::chess::attacks::init();
        let opts =
            LoadOptions { validation: 0.0, max_score: Some(3000.0), seed: 1, mirror, layout: InputLayout::default() };
        load_texts(&[LINES.to_string()], &[], &opts)
    }

    #[test]
    fn bad_lines_are_counted_and_skipped() {
        let l = load_lines(false);
        // Malformed: the bad score, the non-line, the result 2.0, the 64-piece board, the cut
        // last line; the blank line is no line.
        assert_eq!(l.malformed, 5);
        assert_eq!(l.over_max_score, 1);
        assert_eq!(l.train.len(), 6);
        assert_eq!(l.valid.len(), 0);
        // The blank line ends the first game; the move number falls before the last.
        assert_eq!(l.train_games + l.valid_games, 3);
    }

    #[test]
    fn game_records_stay_apart_where_their_move_numbers_follow_on() {
        use crate::chess::notation;
        use crate::data::records;
        use crate::engine::Score;
        crate::chess::attacks::init();
        // Knights out and back for six moves: 12 quiet plies, 4 past the skipped ones. The
        // second game starts on the move the first ended on.
        let record = |fen: &str| {
            let mut pos = Position::from_fen(fen).expect("fen");
            let mut moves = Vec::new();
            for text in ["g1f3", "g8f6", "f3g1", "f6g8"].iter().cycle().take(12) {
                let mv = notation::parse_uci_move(&pos, text).expect("legal");
                moves.push((mv, Some(Score::Cp(moves.len() as i32))));
                pos = pos.make_move(mv);
            }
            records::record_line(fen, "0.5", moves)
        };
        let text = record("4k1n1/8/8/8/8/8/8/4K1N1 w - - 0 1") + &record("4k1n1/8/8/8/8/8/8/4K1N1 w - - 0 7");
        let path = std::env::temp_dir().join(format!("arbiter-train-split-{}.games", std::process::id()));
        std::fs::write(&path, text).expect("write");
        let opts =
            LoadOptions { validation: 0.5, max_score: None, seed: 1, mirror: false, layout: InputLayout::default() };
        let l = load(std::slice::from_ref(&path), &[], &opts);
        std::fs::remove_file(&path).ok();
        let l = l.expect("load");
        assert_eq!((l.train_games, l.valid_games), (1, 1));
        assert_eq!((l.train.len(), l.valid.len()), (4, 4));
    }

    #[test]
    fn scores_and_results_are_the_side_to_moves() {
        crate::chess::attacks::init();
        let mut d = Dataset::default();
        let w = Position::from_fen("8/8/4k3/8/8/4K3/4P3/8 w - - 0 40").unwrap();
        let b = Position::from_fen("8/8/4k3/8/8/4K3/4P3/8 b - - 0 40").unwrap();
        assert!(d.push(&w, 150.0, 1.0));
        assert!(d.push(&b, 150.0, 1.0));
        let (sw, sb) = (d.sample(0), d.sample(1));
        assert_eq!((sw.score, sw.result), (150.0, 1.0));
        assert_eq!((sb.score, sb.result), (-150.0, 0.0));
        // The two perspectives swap with the side to move.
        assert_eq!((sw.us(), sw.them()), (sb.them(), sb.us()));
        // As the other perspective's own features would be, in the same order.
        assert_eq!(sw.them(), nnue::active_features(&w, Color::Black).map(|f| f as u16).collect::<Vec<_>>());
        assert_eq!(sw.us().len(), 3);
        assert_eq!(sw.bucket, output_bucket(w.occupied()));
    }

    #[test]
    fn samples_are_the_networks_inputs_in_every_layout() {
        crate::chess::attacks::init();
        for (name, layout) in layout::NAMED {
            let mut d = Dataset::with_layout(layout);
            for fen in [
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                "8/2k5/1p6/8/4P3/5N2/6K1/8 w - - 0 1",
                "8/8/3K4/8/8/4k3/4p3/8 b - - 0 1",
                "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/R4RK1 w - - 0 1",
            ] {
                let pos = Position::from_fen(fen).expect("fen");
                assert!(d.push(&pos, 0.0, 0.5));
                let s = d.sample(d.len() - 1);
                let stm = pos.side_to_move();
                for (inputs, view) in [(s.us(), stm), (s.them(), stm.flip())] {
                    let king = layout.view(view, pos.king_square(view));
                    let want: Vec<u16> = nnue::active_features(&pos, view).map(|f| king.index(f) as u16).collect();
                    assert_eq!(inputs, &want[..], "{name} {fen} {view:?}");
                }
            }
        }
    }

    #[test]
    fn mirror_images_only_without_castling_rights() {
        let l = load_lines(true);
        // The six positions of bad_lines_are_counted_and_skipped; the two king-and-pawn ones
        // have no castling rights and get a mirror image each.
        assert_eq!(l.train.len(), 8);
        let mut d = Dataset::default();
        let pos = Position::from_fen("8/8/4k3/8/8/4K3/1P6/8 b - - 0 40").unwrap();
        let image = Position::from_fen("8/8/3k4/8/8/3K4/6P1/8 b - - 0 40").unwrap();
        assert!(d.push_mirrored(&pos, 90.0, 1.0));
        assert!(d.push(&image, 90.0, 1.0));
        let (a, b) = (d.sample(0), d.sample(1));
        let sorted = |f: &[u16]| {
            let mut v = f.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!((sorted(a.us()), sorted(a.them())), (sorted(b.us()), sorted(b.them())));
        assert_eq!((a.score, a.result, a.bucket), (b.score, b.result, b.bucket));
        assert!(!d.push_mirrored(&Position::startpos(), 0.0, 0.5));
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn validation_holds_out_whole_games() {
        crate::chess::attacks::init();
        let mut text = String::new();
        for game in 0..40 {
            for mv in 1..=10 {
                text.push_str(&format!("8/8/4k3/8/8/4K3/4P3/8 w - - 0 {mv} | {game} | 0.5\n"));
            }
        }
        let opts =
            LoadOptions { validation: 0.25, max_score: None, seed: 3, mirror: false, layout: InputLayout::default() };
        let l = load_texts(&[text], &[], &opts);
        assert_eq!((l.valid_games, l.train_games), (10, 30));
        assert_eq!((l.valid.len(), l.train.len()), (100, 300));
        let scores =
            |d: &Dataset| (0..d.len()).map(|i| d.sample(i).score as i32).collect::<std::collections::BTreeSet<_>>();
        assert!(scores(&l.valid).is_disjoint(&scores(&l.train)));
        assert_eq!(l.check.len(), 100);
    }

    #[test]
    fn a_held_out_file_is_the_whole_validation_set() {
        crate::chess::attacks::init();
        let games = |first: usize, n: usize| {
            (first..first + n)
                .flat_map(|game| (1..=10).map(move |mv| format!("8/8/4k3/8/8/4K3/4P3/8 w - - 0 {mv} | {game} | 0.5\n")))
                .collect::<String>()
        };
        // --validation is ignored: every game of the data trains, every held-out one validates.
        let opts =
            LoadOptions { validation: 0.25, max_score: None, seed: 3, mirror: true, layout: InputLayout::default() };
        let l = load_texts(&[games(0, 30)], &[games(100, 7)], &opts);
        assert_eq!((l.train_games, l.valid_games), (30, 7));
        // Training positions mirrored (no castling rights), held-out ones never.
        assert_eq!((l.train.len(), l.valid.len()), (600, 70));
        assert!((0..l.valid.len()).all(|i| l.valid.sample(i).score >= 100.0));
        assert!((0..l.train.len()).all(|i| l.train.sample(i).score < 30.0));
        assert_eq!(l.check.len(), 70);
    }
}
