//! SVG diagrams for beginners: the board from the mover's side, the move as an arrow,
//! the moving piece's legal destinations (dots for quiet moves, rings for captures, a
//! dashed mark for a pawn's two-step), and the squares and lines of the reasons (the
//! attacked square, the checking or pinning piece and its line, a blocking piece),
//! with a legend and the verdict written underneath.

use super::analysis::Explanation;
use super::lang::Lang;
use super::reason::{Placed, Reason};
use super::text;
use crate::chess::{movegen, Color, MoveKind, Piece, PieceType, Square};
use crate::rules::Game;
use std::fmt::Write;

const SQ: i32 = 64;
const LEFT: i32 = 28;
const TOP: i32 = 12;
const BOARD: i32 = SQ * 8;
const WIDTH: i32 = LEFT + BOARD + 16;
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const GREEN: &str = "#2e7d32";
const RED: &str = "#c62828";
const ORANGE: &str = "#ef6c00";
const BLUE: &str = "#1565c0";
const FONT: &str = "DejaVu Sans, Noto Sans CJK SC, Source Han Sans SC, WenQuanYi Micro Hei, PingFang SC, \
                    Microsoft YaHei, sans-serif";

/// What the reasons want highlighted.
#[derive(Default)]
struct Marks {
    /// Pieces that attack, check or pin (red frame).
    attackers: Vec<Square>,
    /// Squares that are attacked / the king in danger (red fill).
    danger: Vec<Square>,
    /// Pieces in the way (orange frame).
    blockers: Vec<Square>,
    /// Other squares the reason names (blue frame).
    info: Vec<Square>,
    /// Attack lines: red for checks and attacks, orange for pins.
    red_lines: Vec<(Square, Square)>,
    orange_lines: Vec<(Square, Square)>,
}

impl Marks {
    /// `square` is in danger from `attackers`: tint it, frame them, draw their lines to it.
    fn attacked(&mut self, square: Square, attackers: &[Placed]) {
        self.danger.push(square);
        for &(_, s) in attackers {
            self.attackers.push(s);
            self.red_lines.push((s, square));
        }
    }
}

fn collect_marks(reasons: &[Reason]) -> Marks {
    let mut m = Marks::default();
    for r in reasons {
        match r {
            Reason::PathBlocked { blocker, .. } => m.blockers.push(blocker.1),
            Reason::OwnPiece { to, .. } | Reason::PawnForwardCapture { to, .. } => m.blockers.push(*to),
            Reason::CastlingPathOccupied { occupied, .. } => m.blockers.extend(occupied.iter().map(|&(_, s)| s)),
            Reason::CastlingInCheck { castling, checkers } => m.attacked(castling.king_from, checkers),
            Reason::CastlingThroughCheck { square, attackers, .. }
            | Reason::CastlingIntoCheck { square, attackers, .. } => m.attacked(*square, attackers),
            Reason::KingIntoCheck { to, attackers, .. } => m.attacked(*to, attackers),
            Reason::LeavesKingInCheck { king, checkers, .. } => m.attacked(*king, checkers),
            Reason::ExposesKing { king, pinner, .. } => {
                m.danger.push(*king);
                m.attackers.push(pinner.1);
                m.orange_lines.push((pinner.1, *king));
            }
            Reason::PinnedAlongLine { king, pinner, .. } => {
                m.attackers.push(pinner.1);
                m.orange_lines.push((pinner.1, *king));
            }
            Reason::ResolvesCheck { checkers, .. } => m.attackers.extend(checkers.iter().map(|&(_, s)| s)),
            Reason::EnPassantExpired { enemy_pawn, .. } => m.info.push(*enemy_pawn),
            Reason::Ambiguous { candidates, .. } => m.info.extend(candidates.iter().map(|(_, mv)| mv.from())),
            Reason::EnPassant { captured_on, .. } => m.info.push(*captured_on),
            Reason::CastlingAttackedRookAllowed { squares, .. } => m.info.extend(squares.iter().copied()),
            Reason::CastlingRightsLost { castling, .. } => {
                m.info.push(castling.king_from);
                m.info.push(castling.rook_from);
            }
            _ => {}
        }
    }
    m
}

/// Top-left corner of a square's cell, seen from `view`'s side.
fn cell(sq: Square, view: Color) -> (i32, i32) {
    let (f, r) = (sq.file().index() as i32, sq.rank().index() as i32);
    match view {
        Color::White => (LEFT + f * SQ, TOP + (7 - r) * SQ),
        Color::Black => (LEFT + (7 - f) * SQ, TOP + r * SQ),
    }
}

fn center(sq: Square, view: Color) -> (i32, i32) {
    let (x, y) = cell(sq, view);
    (x + SQ / 2, y + SQ / 2)
}

fn glyph(p: Piece) -> char {
    // The solid glyphs for both colours; white pieces are filled white with a dark outline.
    match p.kind {
        PieceType::King => '\u{265A}',
        PieceType::Queen => '\u{265B}',
        PieceType::Rook => '\u{265C}',
        PieceType::Bishop => '\u{265D}',
        PieceType::Knight => '\u{265E}',
        PieceType::Pawn => '\u{265F}',
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Splits text into lines of at most `width` columns (CJK characters count as two). A word
/// longer than a line (a FEN's piece placement) is broken, after a `/` where it can be.
fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut words = String::new();
    for word in s.split(' ') {
        if !words.is_empty() {
            words.push(' ');
        }
        let mut rest = word;
        while rest.chars().count() > width {
            let head: String = rest.chars().take(width).collect();
            let cut = head.rfind('/').map_or(head.len(), |i| i + 1);
            words.push_str(&rest[..cut]);
            words.push(' ');
            rest = &rest[cut..];
        }
        words.push_str(rest);
    }
    wrap_words(&words, width)
}

fn wrap_words(s: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut cols = 0;
    let cjk = |c: char| (c as u32) >= 0x2E80;
    let mut word = String::new();
    let mut word_cols = 0;
    let flush_word =
        |line: &mut String, cols: &mut usize, word: &mut String, word_cols: &mut usize, lines: &mut Vec<String>| {
            if *cols + *word_cols > width && !line.is_empty() {
                lines.push(std::mem::take(line).trim_end().to_string());
                *cols = 0;
            }
            line.push_str(word);
            *cols += *word_cols;
            word.clear();
            *word_cols = 0;
        };
    for c in s.chars() {
        if cjk(c) {
            flush_word(&mut line, &mut cols, &mut word, &mut word_cols, &mut lines);
            word.push(c);
            word_cols = 2;
            flush_word(&mut line, &mut cols, &mut word, &mut word_cols, &mut lines);
        } else if c == ' ' {
            word.push(c);
            word_cols += 1;
            flush_word(&mut line, &mut cols, &mut word, &mut word_cols, &mut lines);
        } else {
            word.push(c);
            word_cols += 1;
        }
    }
    flush_word(&mut line, &mut cols, &mut word, &mut word_cols, &mut lines);
    if !line.trim().is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// A diagram being drawn: what each square shows, bottom layer first (its colour, tints, the
/// piece, a destination mark, frames), and what goes over the board (lines, arrows). Each
/// square is one group carrying the board's stable hooks (`data-square`, `data-piece`,
/// `data-target`, a label for screen readers), so the same drawing serves the command line's
/// diagrams and the board of `arbiter serve`.
struct Drawing {
    cells: Vec<String>,
    /// The destination mark of each square: `quiet`, `capture` or `double-step`.
    targets: [Option<&'static str>; 64],
    overlay: String,
    view: Color,
}

impl Drawing {
    fn new(view: Color) -> Drawing {
        let cells = Square::all()
            .map(|sq| {
                let (x, y) = cell(sq, view);
                let fill = if sq.is_light() { LIGHT } else { DARK };
                format!(r#"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}"/>"#)
            })
            .collect();
        Drawing { cells, targets: [None; 64], overlay: String::new(), view }
    }

    /// The files and ranks along the board's edges, seen from `view`'s side.
    fn coordinates(&self) -> String {
        let mut out = String::new();
        for i in 0..8 {
            let (file_idx, rank_idx) = match self.view {
                Color::White => (i, 7 - i),
                Color::Black => (7 - i, i),
            };
            let fx = LEFT + i * SQ + SQ / 2;
            let file = (b'a' + file_idx as u8) as char;
            let rank = (b'1' + rank_idx as u8) as char;
            let _ = write!(
                out,
                r#"<text x="{fx}" y="{}" font-size="14" text-anchor="middle" fill="rgb(68,68,68)">{file}</text>"#,
                TOP + BOARD + 16
            );
            let _ = write!(
                out,
                r#"<text x="{}" y="{}" font-size="14" text-anchor="middle" fill="rgb(68,68,68)">{rank}</text>"#,
                LEFT / 2,
                TOP + i * SQ + SQ / 2 + 5
            );
        }
        out
    }

    fn tint(&mut self, sq: Square, color: &str, opacity: f32) {
        let (x, y) = cell(sq, self.view);
        let _ = write!(
            self.cells[sq.index()],
            r#"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{color}" fill-opacity="{opacity}"/>"#
        );
    }

    fn frame(&mut self, sq: Square, color: &str) {
        let (x, y) = cell(sq, self.view);
        let _ = write!(
            self.cells[sq.index()],
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{color}" stroke-width="5"/>"#,
            x + 3,
            y + 3,
            SQ - 6,
            SQ - 6
        );
    }

    fn pieces(&mut self, game: &Game) {
        let pos = game.current();
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                let (cx, cy) = center(sq, self.view);
                let (fill, stroke) = match p.color {
                    Color::White => ("#ffffff", "#222222"),
                    Color::Black => ("#1a1a1a", "#1a1a1a"),
                };
                let _ = write!(
                    self.cells[sq.index()],
                    r#"<text data-piece="{}" x="{cx}" y="{}" font-size="50" text-anchor="middle" font-family="DejaVu Sans, Segoe UI Symbol, sans-serif" fill="{fill}" stroke="{stroke}" stroke-width="1.5">{}</text>"#,
                    piece_code(p),
                    cy + 18,
                    glyph(p)
                );
            }
        }
    }

    fn destinations(&mut self, game: &Game, from: Square) {
        let pos = game.current();
        for m in movegen::legal_moves(pos).iter().filter(|m| m.from() == from) {
            // Castling is marked where the move is written to: the king's square two files
            // away, or in Chess960 mode its own rook's.
            let to = m.to();
            if self.targets[to.index()].is_some() {
                continue; // promotions: one mark for the four pieces
            }
            let (cx, cy) = center(to, self.view);
            let (target, mark) = if m.is_capture() {
                (
                    "capture",
                    format!(
                        r#"<circle cx="{cx}" cy="{cy}" r="28" fill="none" stroke="{RED}" stroke-width="5" stroke-opacity="0.85"/>"#
                    ),
                )
            } else if m.kind() == MoveKind::DoublePush {
                (
                    "double-step",
                    format!(
                        r#"<circle cx="{cx}" cy="{cy}" r="22" fill="none" stroke="{ORANGE}" stroke-width="4" stroke-dasharray="6 5"/>"#
                    ),
                )
            } else {
                ("quiet", format!(r#"<circle cx="{cx}" cy="{cy}" r="10" fill="{GREEN}" fill-opacity="0.8"/>"#))
            };
            self.cells[to.index()].push_str(&mark);
            self.targets[to.index()] = Some(target);
        }
    }

    fn line(&mut self, a: Square, b: Square, color: &str, dashed: bool) {
        let (x1, y1) = center(a, self.view);
        let (x2, y2) = center(b, self.view);
        let dash = if dashed { r#" stroke-dasharray="10 6""# } else { "" };
        let _ = write!(
            self.overlay,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{color}" stroke-width="4" stroke-opacity="0.75"{dash}/>"#
        );
    }

    fn arrow(&mut self, from: Square, to: Square, legal: bool) {
        let (x1, y1) = center(from, self.view);
        let (x2, y2) = center(to, self.view);
        let (dx, dy) = ((x2 - x1) as f64, (y2 - y1) as f64);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        // Stop short of the centre so the head does not hide the destination.
        let (ex, ey) = (x2 as f64 - dx / len * 14.0, y2 as f64 - dy / len * 14.0);
        let (color, marker, dash) =
            if legal { (GREEN, "head-legal", "") } else { (RED, "head-illegal", r#" stroke-dasharray="12 7""#) };
        let _ = write!(
            self.overlay,
            r#"<line x1="{x1}" y1="{y1}" x2="{ex:.1}" y2="{ey:.1}" stroke="{color}" stroke-width="9" stroke-opacity="0.8" stroke-linecap="round" marker-end="url(#{marker})"{dash}/>"#
        );
    }

    /// The board: one group per square with its hooks and its label in `lang`, the
    /// coordinates, then the overlay (which never takes a click: the squares under it do).
    fn board(self, game: &Game, lang: Lang) -> String {
        let pos = game.current();
        let words = lang.words();
        let mut out = String::new();
        for sq in Square::all() {
            let piece = pos.piece_at(sq);
            let target = self.targets[sq.index()].map_or_else(String::new, |t| format!(r#" data-target="{t}""#));
            let _ = write!(
                out,
                r#"<g data-square="{sq}"{target} role="button" aria-label="{}">{}</g>"#,
                escape(&words.square_label(sq, piece)),
                self.cells[sq.index()]
            );
        }
        out.push_str(&self.coordinates());
        let _ = write!(out, r#"<g pointer-events="none">{}</g>"#, self.overlay);
        out
    }
}

/// `wP`, `bN`, ...: the piece's hook on the board (`data-piece`).
fn piece_code(p: Piece) -> String {
    let c = if p.color == Color::White { 'w' } else { 'b' };
    format!("{c}{}", p.kind.char().to_ascii_uppercase())
}

fn defs() -> String {
    format!(
        r#"<defs><marker id="head-legal" markerWidth="3" markerHeight="3" refX="1" refY="2" orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="{GREEN}"/></marker><marker id="head-illegal" markerWidth="3" markerHeight="3" refX="1" refY="2" orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="{RED}"/></marker></defs>"#
    )
}

/// How many columns of text fit beside the board at a font size (a column is 0.6 em, wide
/// enough for any Latin glyph of the font; a CJK character takes two).
fn columns(font_size: i32) -> usize {
    ((WIDTH - LEFT - 8) * 10 / (font_size * 6)) as usize
}

/// What a diagram shows, for its legend.
#[derive(Clone, Copy)]
struct Shown {
    /// The moving piece's destinations (dots, rings, dashed rings).
    destinations: bool,
    /// The move's arrow.
    arrow: bool,
    /// The reasons' marks (red, orange, blue).
    marks: bool,
}

/// The legend and the text under the board; returns the SVG fragment and its height.
/// The legend's entries in `lang`: the mark's kind and its label, for what `shown` says is drawn.
fn legend_entries(lang: Lang, shown: Shown) -> Vec<(&'static str, &'static str)> {
    let words = lang.words().legend();
    [
        ("dot", words.quiet, shown.destinations),
        ("ring", words.capture, shown.destinations),
        ("dash", words.two_step, shown.destinations),
        ("arrow", words.the_move, shown.arrow),
        ("red", words.attacked, shown.marks),
        ("orange", words.in_the_way, shown.marks),
        ("blue", words.other, shown.marks),
    ]
    .into_iter()
    .filter(|&(_, _, shown)| shown)
    .map(|(kind, label, _)| (kind, label))
    .collect()
}

/// A legend entry's symbol, drawn in a 16-pixel box whose left end is `x` and whose text
/// baseline is `y`: the same colours and shapes as on the board.
fn legend_symbol(kind: &str, x: i32, y: i32) -> String {
    match kind {
        "dot" => format!(r#"<circle cx="{}" cy="{}" r="6" fill="{GREEN}"/>"#, x + 8, y - 4),
        "ring" => {
            format!(r#"<circle cx="{}" cy="{}" r="7" fill="none" stroke="{RED}" stroke-width="3"/>"#, x + 8, y - 4)
        }
        "dash" => format!(
            r#"<circle cx="{}" cy="{}" r="7" fill="none" stroke="{ORANGE}" stroke-width="2.5" stroke-dasharray="3 2"/>"#,
            x + 8,
            y - 4
        ),
        "arrow" => format!(
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{GREEN}" stroke-width="4" marker-end="url(#head-legal)"/>"#,
            x,
            y - 4,
            x + 12,
            y - 4
        ),
        "red" => format!(
            r#"<rect x="{}" y="{}" width="14" height="14" fill="{RED}" fill-opacity="0.35" stroke="{RED}" stroke-width="2"/>"#,
            x + 1,
            y - 11
        ),
        "orange" => format!(
            r#"<rect x="{}" y="{}" width="14" height="14" fill="none" stroke="{ORANGE}" stroke-width="3"/>"#,
            x + 1,
            y - 11
        ),
        _ => format!(
            r#"<rect x="{}" y="{}" width="14" height="14" fill="none" stroke="{BLUE}" stroke-width="3"/>"#,
            x + 1,
            y - 11
        ),
    }
}

/// The legend and the text under the board; returns the SVG fragment and its height.
fn legend(lines: &[String], lang: Lang, shown: Shown, top: i32) -> (String, i32) {
    let mut s = String::new();
    let mut y = top + 14;
    let char_width = lang.words().legend().char_width;
    let mut x = LEFT;
    for (kind, label) in legend_entries(lang, shown) {
        let w = label.chars().count() as i32 * char_width;
        if x + 30 + w > WIDTH - 8 {
            x = LEFT;
            y += 20;
        }
        s.push_str(&legend_symbol(kind, x, y));
        let _ =
            write!(s, r#"<text x="{}" y="{y}" font-size="12" fill="rgb(51,51,51)">{}</text>"#, x + 24, escape(label));
        x += 34 + w;
    }
    y += 26;
    for (i, line) in lines.iter().enumerate() {
        let (size, weight) = if i == 0 { (16, "bold") } else { (13, "normal") };
        for part in wrap(line, columns(size)) {
            let _ = write!(
                s,
                r#"<text x="{LEFT}" y="{y}" font-size="{size}" font-weight="{weight}" fill="rgb(17,17,17)">{}</text>"#,
                escape(&part)
            );
            y += size + 5;
        }
        y += 3;
    }
    (s, y - top)
}

fn document(d: Drawing, game: &Game, lines: &[String], lang: Lang, shown: Shown) -> String {
    let (legend_svg, legend_h) = legend(lines, lang, shown, TOP + BOARD + 24);
    let height = TOP + BOARD + 24 + legend_h + 8;
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="{FONT}"><rect width="100%" height="100%" fill="white"/>{}{}{legend_svg}</svg>
"#,
        defs(),
        d.board(game, lang)
    )
}

/// Draws an explained move on `d` (the position of `game` before it): its squares, the
/// reasons' marks, a king the move checks, the moving piece's destinations and the arrow.
/// Returns whether an arrow was drawn.
fn draw_explanation(d: &mut Drawing, game: &Game, ex: &Explanation) -> bool {
    let pos = game.current();
    let mover = pos.side_to_move();
    let marks = collect_marks(&ex.reasons);
    if let Some(from) = ex.from {
        d.tint(from, "#f7ec5e", 0.55);
    }
    if let Some(to) = ex.to {
        d.tint(to, if ex.is_legal() { "#9ccc65" } else { "#ef9a9a" }, 0.6);
    }
    for &s in &marks.danger {
        d.tint(s, RED, 0.35);
    }
    // A legal move that gives check: the checked king is the square to look at.
    if ex.after().is_some_and(|a| !a.checkers.is_empty()) {
        d.tint(pos.king_square(mover.flip()), RED, 0.35);
    }
    for &(a, b) in &marks.orange_lines {
        d.line(a, b, ORANGE, true);
    }
    for &(a, b) in &marks.red_lines {
        d.line(a, b, RED, false);
    }
    d.pieces(game);
    if let Some(from) = ex.from {
        if pos.piece_at(from).is_some_and(|p| p.color == mover) {
            d.destinations(game, from);
        }
    }
    for &s in &marks.attackers {
        d.frame(s, RED);
    }
    for &s in &marks.blockers {
        d.frame(s, ORANGE);
    }
    for &s in &marks.info {
        d.frame(s, BLUE);
    }
    match (ex.from, ex.to) {
        (Some(from), Some(to)) if from != to => {
            d.arrow(from, to, ex.is_legal());
            true
        }
        _ => false,
    }
}

/// Draws the check in the current position: the king's square and the lines from its checkers.
fn draw_check(d: &mut Drawing, game: &Game) {
    let pos = game.current();
    if pos.in_check() {
        let ksq = pos.king_square(pos.side_to_move());
        d.tint(ksq, RED, 0.35);
        for c in pos.checkers() {
            d.line(c, ksq, RED, false);
        }
    }
}

/// The diagram for an explained move.
pub fn explanation_svg(game: &Game, ex: &Explanation, lang: Lang) -> String {
    let mut d = Drawing::new(game.current().side_to_move());
    let arrow = draw_explanation(&mut d, game, ex);
    let lines = text::render_explanation(ex, lang);
    document(d, game, &lines, lang, Shown { destinations: true, arrow, marks: true })
}

/// The diagram for a position report (checks highlighted).
pub fn position_svg(game: &Game, lang: Lang) -> String {
    let lines = text::render_report(&game.report().for_reader(game.current()), lang);
    board_svg(game, &lines, lang)
}

/// The diagram for a ruling on a resignation or a flag fall (`--resign`, `--flag`): the
/// position, its checks highlighted, and the ruling's text.
pub fn ruling_svg(game: &Game, ruling: &str, lang: Lang) -> String {
    board_svg(game, &[ruling.to_string()], lang)
}

/// The position (checks highlighted) with `lines` of text below.
fn board_svg(game: &Game, lines: &[String], lang: Lang) -> String {
    let pos = game.current();
    let mut d = Drawing::new(pos.side_to_move());
    draw_check(&mut d, game);
    d.pieces(game);
    for c in pos.checkers() {
        d.frame(c, RED);
    }
    document(d, game, lines, lang, Shown { destinations: false, arrow: false, marks: pos.in_check() })
}

/// What the interactive board of `arbiter serve` shows besides the position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scene<'a> {
    /// Black at the bottom (the board flipped).
    pub flipped: bool,
    /// The last move played (its squares tinted).
    pub last_move: Option<(Square, Square)>,
    /// The piece selected: its square tinted and its legal destinations marked.
    pub selected: Option<Square>,
    /// A move tried and explained in this position (an illegal one: its reasons' marks).
    pub explanation: Option<&'a Explanation>,
    /// The move being previewed, already made on the board shown: its arrow.
    pub preview: Option<(Square, Square)>,
    /// Pieces under attack to point out (red frames): after a previewed move, what it attacks.
    pub attacked: &'a [Square],
}

/// The interactive board: the position of `game` with `scene`'s marks, the coordinates, and
/// the hooks of every square (see [`Drawing`]); no legend or text (the page has them).
pub fn board(game: &Game, scene: &Scene, lang: Lang) -> String {
    let pos = game.current();
    let view = if scene.flipped { Color::Black } else { Color::White };
    let mut d = Drawing::new(view);
    if let Some((a, b)) = scene.last_move {
        d.tint(a, "#cdd26a", 0.5);
        d.tint(b, "#cdd26a", 0.5);
    }
    if let Some(ex) = scene.explanation {
        draw_explanation(&mut d, game, ex);
    } else {
        if let Some(sq) = scene.selected {
            d.tint(sq, "#f7ec5e", 0.55);
        }
        draw_check(&mut d, game);
        d.pieces(game);
        if let Some(sq) = scene.selected {
            d.destinations(game, sq);
        }
        for c in pos.checkers() {
            d.frame(c, RED);
        }
        for &s in scene.attacked {
            d.frame(s, RED);
        }
        if let Some((from, to)) = scene.preview {
            d.arrow(from, to, true);
        }
    }
    let height = TOP + BOARD + 24;
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" font-family="{FONT}" role="group" aria-label="{}">{}{}</svg>"#,
        escape(&lang.words().board_label(view)),
        defs(),
        d.board(game, lang)
    )
}

/// The legend of the interactive board, one entry a mark: its kind (`dot`, `ring`, `dash`,
/// `arrow`, `red`, `orange`, `blue`), its label in `lang`, and its symbol as a small SVG.
pub fn legend_symbols(lang: Lang) -> Vec<(&'static str, &'static str, String)> {
    legend_entries(lang, Shown { destinations: true, arrow: true, marks: true })
        .into_iter()
        .map(|(kind, label)| {
            let svg = format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="18" height="18" viewBox="-1 -15 18 18" aria-hidden="true">{}{}</svg>"#,
                defs(),
                legend_symbol(kind, 0, 0)
            );
            (kind, label, svg)
        })
        .collect()
}
