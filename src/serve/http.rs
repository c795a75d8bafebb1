//! The HTTP side of `arbiter serve`, over `tiny_http` (which parses HTTP; nothing here does):
//! the routes, request bodies read with a size limit and parsed as JSON, every answer JSON or
//! one of the embedded assets, every refusal a 4xx whose JSON names the problem. A panic in
//! one request is a 500 for that request; the server goes on.

use super::api::{self, Action, NewBoard, MAX_BODY_BYTES};
use super::board::{Board, BoardError};
use super::player::{think_if_due, Engines};
use super::review::ReviewError;
use super::store::{lock, Store};
use super::view::{legend, view, LegendEntry};
use super::words::{page_words, PageWords};
use crate::explain::json::{ExplanationJson, ReportJson};
use crate::explain::{explain, Lang, RefereeText};
use crate::rules::pgn::{write_pgn, PgnGame};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::sync::Arc;
use tiny_http::{Header, Method, Request, Response};

/// What every request handler shares.
pub struct App {
    pub store: Arc<Store>,
    pub engines: Arc<Engines>,
    pub tablebases: Arc<crate::syzygy::Tablebases>,
    /// The page's language when a request names none (`--lang`).
    pub lang: Lang,
}

/// An answer: status, content type, body.
struct Answer {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Answer {
    fn json<T: Serialize>(status: u16, value: &T) -> Answer {
        match serde_json::to_vec(value) {
            Ok(body) => Answer { status, content_type: "application/json; charset=utf-8", body },
            Err(e) => Answer::error(500, &format!("cannot write the answer: {e}")),
        }
    }

    fn error(status: u16, message: &str) -> Answer {
        #[derive(Serialize)]
        struct Error<'a> {
            error: &'a str,
            status: u16,
        }
        let body = serde_json::to_vec(&Error { error: message, status }).unwrap_or_default();
        Answer { status, content_type: "application/json; charset=utf-8", body }
    }

    fn asset(content_type: &'static str, body: &'static str) -> Answer {
        Answer { status: 200, content_type, body: body.as_bytes().to_vec() }
    }
}

/// The page and its parts, built into the binary: nothing is loaded from anywhere else.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// The page may run only its own script and style, and load nothing from elsewhere: even a
/// text that escaped escaping could not run.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/// Serves one request; never panics out (a panic is a 500 for this request only).
pub fn serve(app: &App, mut request: Request) {
    let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route(app, &mut request)))
        .unwrap_or_else(|_| Answer::error(500, "internal error: the request was not completed; the server goes on"));
    let mut response = Response::from_data(answer.body).with_status_code(answer.status);
    for (name, value) in [
        ("Content-Type", answer.content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", CSP),
        ("Referrer-Policy", "no-referrer"),
    ] {
        if let Ok(h) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(h);
        }
    }
    if let Err(e) = request.respond(response) {
        log::debug!("the client went away: {e}");
    }
}

/// The request's path and its query's `lang` and `flip`.
struct Target<'a> {
    path: &'a str,
    lang: Lang,
    flipped: bool,
}

fn target<'a>(url: &'a str, default_lang: Lang) -> Result<Target<'a>, Answer> {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let mut t = Target { path, lang: default_lang, flipped: false };
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match key {
            "lang" => {
                t.lang = Lang::parse(value)
                    .ok_or_else(|| Answer::error(400, &format!("lang: '{}' is not a language (en, zh)", clip(value))))?
            }
            "flip" => {
                t.flipped = match value {
                    "1" | "true" => true,
                    "0" | "false" | "" => false,
                    _ => return Err(Answer::error(400, &format!("flip: '{}' is not 0 or 1", clip(value)))),
                }
            }
            _ => {} // other parameters (a cache breaker) are ignored
        }
    }
    Ok(t)
}

/// At most 40 characters of `s`, for quoting input in an error.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

fn route(app: &App, request: &mut Request) -> Answer {
    let url = request.url().to_string();
    let t = match target(&url, app.lang) {
        Ok(t) => t,
        Err(a) => return a,
    };
    let method = request.method().clone();
    let segments: Vec<&str> = t.path.trim_start_matches('/').split('/').collect();
    match (&method, segments.as_slice()) {
        (Method::Get | Method::Head, [""]) => Answer::asset("text/html; charset=utf-8", INDEX_HTML),
        (Method::Get | Method::Head, ["app.js"]) => Answer::asset("text/javascript; charset=utf-8", APP_JS),
        (Method::Get | Method::Head, ["app.css"]) => Answer::asset("text/css; charset=utf-8", APP_CSS),
        (Method::Get | Method::Head, ["favicon.svg"] | ["favicon.ico"]) => Answer::asset("image/svg+xml", FAVICON_SVG),
        (Method::Get, ["api", "words"]) => Answer::json(200, &Words::of(t.lang)),
        (Method::Post, ["api", "boards"]) => match body::<NewBoard>(request) {
            Ok(new) => match new.unwrap_or_default().game() {
                Ok(game) => {
                    let (id, entry) = app.store.insert(Board::new(game));
                    let mut entry = lock(&entry);
                    Answer::json(201, &view(&id, &mut entry.board, t.lang, t.flipped, &app.tablebases))
                }
                Err(e) => board_error(&e, t.lang),
            },
            Err(a) => a,
        },
        (Method::Get, ["api", "boards", id]) => with_board(app, id, t.lang, |app, id, board| {
            think_if_due(&app.engines, &app.store, id, board);
            Ok(view(id, board, t.lang, t.flipped, &app.tablebases))
        }),
        (Method::Post, ["api", "boards", id]) => match body::<Action>(request) {
            Ok(None) => Answer::error(400, "send an action: {\"action\": \"click\", \"square\": \"e2\"}, ..."),
            Ok(Some(action)) => with_board(app, id, t.lang, |app, id, board| {
                api::apply(board, action)?;
                think_if_due(&app.engines, &app.store, id, board);
                Ok(view(id, board, t.lang, t.flipped, &app.tablebases))
            }),
            Err(a) => a,
        },
        (Method::Get, ["api", "boards", id, "pgn"]) => match app.store.get(id) {
            Some(entry) => {
                let entry = lock(&entry);
                match export_pgn(&entry.board) {
                    Ok(text) => Answer {
                        status: 200,
                        content_type: "application/x-chess-pgn; charset=utf-8",
                        body: text.into_bytes(),
                    },
                    Err(e) => Answer::error(500, &e),
                }
            }
            None => no_board(id),
        },
        (Method::Post, ["api", "explain"]) => match body::<ExplainRequest>(request) {
            Ok(r) => explain_answer(&r.unwrap_or_default(), t.lang),
            Err(a) => a,
        },
        (_, ["" | "app.js" | "app.css" | "favicon.svg" | "favicon.ico"])
        | (_, ["api", "words" | "boards" | "explain"])
        | (_, ["api", "boards", _])
        | (_, ["api", "boards", _, "pgn"]) => {
            Answer::error(405, &format!("{method} is not allowed on {}", clip(t.path)))
        }
        _ => Answer::error(404, &format!("no such page or API: {}", clip(t.path))),
    }
}

/// Runs `f` on board `id` (marked used), or a 404; a refusal is worded in `lang`.
fn with_board(
    app: &App,
    id: &str,
    lang: Lang,
    f: impl FnOnce(&App, &str, &mut Board) -> Result<super::view::View, BoardError>,
) -> Answer {
    let Some(entry) = app.store.get(id) else { return no_board(id) };
    let mut entry = lock(&entry);
    entry.touch();
    match f(app, id, &mut entry.board) {
        Ok(v) => Answer::json(200, &v),
        Err(e) => board_error(&e, lang),
    }
}

fn no_board(id: &str) -> Answer {
    Answer::error(404, &format!("no board '{}' (boards unused for a while are dropped; start a new one)", clip(id)))
}

/// A refused board request: 409 when the board's state forbids it now, 400 for bad input.
fn board_error(e: &BoardError, lang: Lang) -> Answer {
    let w = page_words(lang);
    match e {
        BoardError::EngineToMove => Answer::error(409, w.error_engine_to_move),
        BoardError::InReview => Answer::error(409, w.error_in_review),
        BoardError::NothingToConfirm => Answer::error(409, w.error_nothing_to_confirm),
        BoardError::NothingToUndo => Answer::error(409, w.error_nothing_to_undo),
        BoardError::PromotionPending => Answer::error(409, w.error_promotion_pending),
        BoardError::GameOver => Answer::error(409, w.error_game_over),
        BoardError::EmptyMove => Answer::error(400, w.error_empty_move),
        BoardError::Fen(e) => Answer::error(400, &format!("{} {}", w.error_bad_fen, lang.words().fen_error(e))),
        BoardError::Pgn(ReviewError::TooLarge) => Answer::error(400, w.error_pgn_too_large),
        BoardError::Pgn(ReviewError::NoGame) => Answer::error(400, w.error_no_game),
        BoardError::Pgn(ReviewError::Unreadable(error)) => {
            Answer::error(400, &lang.words().referee(&RefereeText::Unreadable { error }))
        }
        BoardError::Input(text) => Answer::error(400, text),
    }
}

/// Reads the request's body as JSON `T`, at most [`MAX_BODY_BYTES`]; `None` when it is empty.
fn body<T: DeserializeOwned>(request: &mut Request) -> Result<Option<T>, Answer> {
    let too_large = || Answer::error(413, &format!("the body is larger than {} KiB", MAX_BODY_BYTES / 1024));
    if request.body_length().is_some_and(|len| len > MAX_BODY_BYTES) {
        return Err(too_large());
    }
    let json = request.headers().iter().any(|h| {
        h.field.equiv("Content-Type") && h.value.as_str().to_ascii_lowercase().starts_with("application/json")
    });
    let mut bytes = Vec::new();
    if let Err(e) = request.as_reader().take(MAX_BODY_BYTES as u64 + 1).read_to_end(&mut bytes) {
        return Err(Answer::error(400, &format!("cannot read the body: {e}")));
    }
    if bytes.len() > MAX_BODY_BYTES {
        return Err(too_large());
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    if !json {
        // A cross-site form cannot send this type without the browser asking first.
        return Err(Answer::error(415, "send the body as Content-Type: application/json"));
    }
    serde_json::from_slice(&bytes).map(Some).map_err(|e| Answer::error(400, &format!("bad JSON body: {e}")))
}

/// `GET /api/words`: the page's words, the legend and the drills' names in one language.
#[derive(Serialize)]
struct Words {
    words: &'static PageWords,
    legend: Vec<LegendEntry>,
    drills: Vec<DrillName>,
    levels: [u32; 2],
}

#[derive(Serialize)]
struct DrillName {
    id: &'static str,
    title: &'static str,
    strategy: bool,
}

impl Words {
    fn of(lang: Lang) -> Words {
        let words = page_words(lang);
        Words {
            words,
            legend: legend(lang),
            drills: super::drills::DRILLS
                .iter()
                .zip(&words.drills)
                .map(|(d, t)| DrillName { id: d.id, title: t.title, strategy: d.is_strategy() })
                .collect(),
            levels: [api::ELO_RANGE.0, api::ELO_RANGE.1],
        }
    }
}

/// `POST /api/explain`: the explain mode without a board, for sites that embed it:
/// `{"position": {"fen": ..., "moves": [...]}, "move": "Nf3"}` (no move: the position report).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ExplainRequest {
    #[serde(default)]
    position: NewBoard,
    #[serde(default, rename = "move")]
    mv: Option<String>,
}

fn explain_answer(r: &ExplainRequest, lang: Lang) -> Answer {
    let game = match r.position.game() {
        Ok(g) => g,
        Err(e) => return board_error(&e, lang),
    };
    match r.mv.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        Some(m) if m.len() > 64 => Answer::error(400, "a move is at most 64 characters"),
        Some(m) => Answer::json(200, &ExplanationJson::new(&explain(&game, m).for_reader(&game), lang)),
        None => Answer::json(200, &ReportJson::from(&game.report().for_reader(game.current()))),
    }
}

/// The game on `board` as PGN: its moves, and the result and termination the Laws give (a
/// game not over is `*`).
pub fn export_pgn(board: &Board) -> Result<String, String> {
    let game = board.game();
    let mut pgn = PgnGame::from_game(game);
    pgn.set_tag("Event", "Arbiter board");
    pgn.set_tag("Site", "arbiter serve");
    let (white, black) = match board.mode() {
        super::board::Mode::Engine { human: crate::chess::Color::White, .. } => ("Learner", "Arbiter"),
        super::board::Mode::Engine { .. } => ("Arbiter", "Learner"),
        _ => ("?", "?"),
    };
    pgn.set_tag("White", white);
    pgn.set_tag("Black", black);
    pgn.result = board.result().unwrap_or("*").to_string();
    if let Some(super::board::Ending::Ruling(r)) = board.ending() {
        pgn.set_tag("Termination", if r.act == crate::rules::Act::FlagFall { "time forfeit" } else { "normal" });
    } else if board.is_over() {
        pgn.set_tag("Termination", "normal");
    }
    write_pgn(&pgn).map_err(|e| e.to_string())
}
