//! The routes: every one is a GET that reads; the token guard and the security headers wrap
//! them all.
//!
//! | path | what |
//! |---|---|
//! | `/` | the tournaments in the store |
//! | `/events` | the index's updates (server-sent events) |
//! | `/t/NAME` | a tournament's page |
//! | `/t/NAME/events` | its updates: the parts that changed, as JSON |
//! | `/t/NAME/matrix.png`, `/t/NAME/evolution.png`, `/t/NAME/sprt.png` | its pictures |
//! | `/game/ID`, `/game/ID/pgn` (`sgf`, `txt`) | a stored game, and its PGN (SGF for Go) |
//! | `/assets/style.css`, `/assets/app.js` | the page's style and script |

use crate::auth::{bearer, cookie, Token, COOKIE};
use crate::bracket_page::{bracket_page, knockouts_section, read_bracket};
use crate::game_page::game_page;
use crate::pages::{index_form, index_list, layout, tournament_page, IndexFilter, IndexRow, View};
use crate::poller::{Hub, IndexView};
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use eloworld_app::report::game_text;
use eloworld_tournament::Store;
use maud::html;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// What every handler can reach.
#[derive(Clone)]
pub(crate) struct AppState {
    hub: Arc<Hub>,
    reader: Arc<Mutex<Box<dyn Store>>>,
    token: Option<Arc<Token>>,
}

impl AppState {
    /// Bundles the published views, a store connection for single reads, and the token.
    pub fn new(hub: Arc<Hub>, reader: Box<dyn Store>, token: Option<Token>) -> AppState {
        AppState {
            hub,
            reader: Arc::new(Mutex::new(reader)),
            token: token.map(Arc::new),
        }
    }
}

/// Builds the router.
pub(crate) fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/events", get(index_events))
        .route("/t/{name}", get(tournament))
        .route("/t/{name}/events", get(tournament_events))
        .route("/t/{name}/matrix.png", get(matrix))
        .route("/t/{name}/evolution.png", get(evolution))
        .route("/t/{name}/sprt.png", get(sprt))
        .route("/knockout/{base}", get(knockout))
        .route("/game/{id}", get(game))
        .route("/game/{id}/pgn", get(game_pgn))
        .route("/game/{id}/sgf", get(game_pgn))
        .route("/game/{id}/txt", get(game_pgn))
        .route("/assets/style.css", get(style))
        .route("/assets/app.js", get(script))
        .fallback(not_found_route)
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .layer(middleware::from_fn(headers))
        .with_state(state)
}

/// The page's own style, after the report's.
const STYLE: &str = include_str!("../assets/style.css");
/// The script that applies updates and steps through games.
const SCRIPT: &str = include_str!("../assets/app.js");

/// Security headers on every response: nothing but this server's own script runs, nothing is
/// fetched from elsewhere, the page is never framed.
async fn headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; \
             connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

/// Lets a request through only with the token (when one is set): `Authorization: Bearer`, the
/// cookie, or `?token=` (which sets the cookie and redirects to the same address without it).
async fn guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Some(token) = state.token.as_deref() else {
        return next.run(req).await;
    };
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, "read-only\n").into_response();
    }
    match admission(token, &req) {
        Admission::Granted => next.run(req).await,
        Admission::Refused => unauthorized(),
        Admission::SetCookie { to } => {
            let cookie = format!(
                "{COOKIE}={}; Path=/; HttpOnly; SameSite=Strict",
                token.text()
            );
            Response::builder()
                .status(StatusCode::SEE_OTHER)
                .header(header::LOCATION, to)
                .header(header::SET_COOKIE, cookie)
                .header(header::CACHE_CONTROL, "no-store")
                .body(Body::empty())
                .unwrap_or_else(|_| unauthorized())
        }
    }
}

/// What the token guard decides about a request.
enum Admission {
    /// The request carries the token.
    Granted,
    /// It does not.
    Refused,
    /// It carries it in `?token=`: set the cookie and go to this address without it.
    SetCookie {
        /// The same path and query, without the token.
        to: String,
    },
}

fn admission(token: &Token, req: &Request) -> Admission {
    let header_text = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
    if let Some(given) = header_text(header::AUTHORIZATION).and_then(bearer) {
        return if token.matches(given) {
            Admission::Granted
        } else {
            Admission::Refused
        };
    }
    if header_text(header::COOKIE)
        .and_then(|c| cookie(c, COOKIE))
        .is_some_and(|given| token.matches(given))
    {
        return Admission::Granted;
    }
    let query = req.uri().query().unwrap_or("");
    let mut given = None;
    let mut rest = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.strip_prefix("token=") {
            Some(v) => given = Some(percent_encoding::percent_decode_str(v).decode_utf8_lossy()),
            None => rest.push(pair),
        }
    }
    if given.is_some_and(|g| token.matches(&g)) {
        let mut to = req.uri().path().to_owned();
        if !rest.is_empty() {
            to.push('?');
            to.push_str(&rest.join("&"));
        }
        return Admission::SetCookie { to };
    }
    Admission::Refused
}

fn unauthorized() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, "Bearer realm=\"eloworld\"")],
        "401 Unauthorized: this dashboard needs its token (Authorization: Bearer TOKEN, or open it once with ?token=TOKEN)\n",
    )
        .into_response()
}

fn html_response(status: StatusCode, markup: maud::Markup) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        markup.into_string(),
    )
        .into_response()
}

fn not_found(what: &str) -> Response {
    html_response(
        StatusCode::NOT_FOUND,
        layout(
            "not found — eloworld",
            None,
            0,
            html! { h1 { "Not found" } p { (what) } p { a href="/" { "All tournaments" } } },
        ),
    )
}

async fn not_found_route(req: Request) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, "read-only\n").into_response();
    }
    not_found(&format!("No page at {}.", req.uri().path()))
}

fn internal(e: &str) -> Response {
    html_response(
        StatusCode::INTERNAL_SERVER_ERROR,
        layout(
            "error — eloworld",
            None,
            0,
            html! { h1 { "Error" } p.warn { (e) } },
        ),
    )
}

async fn index(State(state): State<AppState>, req: Request) -> Response {
    let view = state.hub.index.borrow().clone();
    let filter = IndexFilter::from_query(req.uri().query().unwrap_or(""));
    let list = index_list(&view.rows, view.error.as_deref(), &filter);
    let body = html! {
        h1 { "Tournaments" }
        p.note { "in " (state.hub.location) }
        (index_form(&filter))
        div #tournaments { (maud::PreEscaped(&list)) }
        (knockouts_section(view.rows.iter().map(IndexRow::name)))
    };
    html_response(
        StatusCode::OK,
        layout(
            "eloworld — tournaments",
            Some("/events"),
            view.version,
            body,
        ),
    )
}

async fn tournament(State(state): State<AppState>, Path(name): Path<String>) -> Response {
    match state.hub.tournament(&name) {
        Some(rx) => {
            let view = rx.borrow().clone();
            html_response(StatusCode::OK, tournament_page(&view))
        }
        None => not_found(&format!("The store holds no tournament {name:?}.")),
    }
}

/// The version a page was rendered at, from its event stream's `?v=`.
fn client_version(req: &Request) -> u64 {
    req.uri()
        .query()
        .unwrap_or("")
        .split('&')
        .find_map(|p| p.strip_prefix("v="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Something published that a page can follow.
trait Published: Send + Sync + 'static {
    fn version(&self) -> u64;
    /// Returns the update that brings a page showing `before` (nothing known: `None`) to this.
    fn update_from(&self, before: Option<&Self>) -> Option<String>;
}

impl Published for View {
    fn version(&self) -> u64 {
        self.version
    }

    fn update_from(&self, before: Option<&View>) -> Option<String> {
        let mut parts = serde_json::Map::new();
        for (id, html) in &self.fragments {
            let same =
                before.is_some_and(|b| b.fragments.iter().any(|(i, h)| i == id && h == html));
            if !same {
                parts.insert((*id).to_owned(), serde_json::Value::String(html.clone()));
            }
        }
        let pictures_changed = before.is_none_or(|b| b.pictures.version != self.pictures.version);
        if parts.is_empty() && !pictures_changed {
            return None;
        }
        Some(
            serde_json::json!({
                "version": self.version,
                "fragments": parts,
                "pictures": self.pictures.version,
            })
            .to_string(),
        )
    }
}

impl Published for IndexView {
    fn version(&self) -> u64 {
        self.version
    }

    fn update_from(&self, before: Option<&IndexView>) -> Option<String> {
        if before.is_some_and(|b| b.html == self.html) {
            return None;
        }
        Some(
            serde_json::json!({
                "version": self.version,
                "fragments": { "tournaments": self.html },
            })
            .to_string(),
        )
    }
}

/// One page's event stream: what it follows and what it was last sent.
struct Follow<T> {
    rx: watch::Receiver<Arc<T>>,
    closing: watch::Receiver<bool>,
    sent: Option<Arc<T>>,
    /// The version the page was rendered at, until the first event.
    client: Option<u64>,
}

/// A stream of updates: the first brings the page up to date (when it is behind), then one
/// per change, until the server stops.
fn updates<T: Published>(
    rx: watch::Receiver<Arc<T>>,
    closing: watch::Receiver<bool>,
    client: u64,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    let start = Follow {
        rx,
        closing,
        sent: None,
        client: Some(client),
    };
    let stream = futures_util::stream::unfold(start, |mut f| async move {
        if let Some(client) = f.client.take() {
            let now = f.rx.borrow_and_update().clone();
            let behind = now.version() != client;
            f.sent = Some(Arc::clone(&now));
            if behind {
                if let Some(text) = now.update_from(None) {
                    return Some((Ok::<Event, Infallible>(Event::default().data(text)), f));
                }
            }
        }
        loop {
            if *f.closing.borrow() {
                return None;
            }
            tokio::select! {
                changed = f.rx.changed() => {
                    if changed.is_err() {
                        return None;
                    }
                    let now = f.rx.borrow_and_update().clone();
                    let update = now.update_from(f.sent.as_deref());
                    f.sent = Some(now);
                    if let Some(text) = update {
                        return Some((Ok::<Event, Infallible>(Event::default().data(text)), f));
                    }
                }
                _ = f.closing.changed() => return None,
            }
        }
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(20)))
}

async fn index_events(State(state): State<AppState>, req: Request) -> Response {
    let client = client_version(&req);
    updates(
        state.hub.index.subscribe(),
        state.hub.closing.subscribe(),
        client,
    )
    .into_response()
}

async fn tournament_events(
    State(state): State<AppState>,
    Path(name): Path<String>,
    req: Request,
) -> Response {
    let client = client_version(&req);
    match state.hub.tournament(&name) {
        Some(rx) => updates(rx, state.hub.closing.subscribe(), client).into_response(),
        None => not_found(&format!("The store holds no tournament {name:?}.")),
    }
}

fn png(bytes: &[u8]) -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        bytes.to_vec(),
    )
        .into_response()
}

/// The pictures of a tournament's page.
#[derive(Clone, Copy)]
enum Picture {
    Matrix,
    Evolution,
    Sprt,
}

async fn picture(state: AppState, name: String, which: Picture) -> Response {
    let Some(rx) = state.hub.tournament(&name) else {
        return not_found(&format!("The store holds no tournament {name:?}."));
    };
    let pictures = Arc::clone(&rx.borrow().pictures);
    let drawn = tokio::task::spawn_blocking(move || {
        match which {
            Picture::Matrix => pictures.matrix(),
            Picture::Evolution => pictures.evolution(),
            Picture::Sprt => pictures.sprt(),
        }
        .map(<[u8]>::to_vec)
    })
    .await;
    match drawn {
        Ok(Ok(bytes)) => png(&bytes),
        Ok(Err(e)) => (StatusCode::NOT_FOUND, e).into_response(),
        Err(e) => internal(&e.to_string()),
    }
}

async fn matrix(State(state): State<AppState>, Path(name): Path<String>) -> Response {
    picture(state, name, Picture::Matrix).await
}

async fn evolution(State(state): State<AppState>, Path(name): Path<String>) -> Response {
    picture(state, name, Picture::Evolution).await
}

async fn sprt(State(state): State<AppState>, Path(name): Path<String>) -> Response {
    picture(state, name, Picture::Sprt).await
}

/// Reads one stored game on the blocking pool.
async fn read_game(state: &AppState, id: &str) -> Result<eloworld_tournament::GameRow, Response> {
    let Ok(id) = id.parse::<i64>() else {
        return Err(not_found(&format!("{id:?} is not a game number.")));
    };
    let reader = Arc::clone(&state.reader);
    let read = tokio::task::spawn_blocking(move || {
        reader
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .game(id)
    })
    .await;
    match read {
        Ok(Ok(Some(g))) => Ok(g),
        Ok(Ok(None)) => Err(not_found(&format!("No game {id} is stored."))),
        Ok(Err(e)) => Err(internal(&e.to_string())),
        Err(e) => Err(internal(&e.to_string())),
    }
}

/// A knockout's bracket, read from the store on the blocking pool.
async fn knockout(State(state): State<AppState>, Path(base): Path<String>) -> Response {
    let reader = Arc::clone(&state.reader);
    let name = base.clone();
    let read = tokio::task::spawn_blocking(move || {
        let store = reader
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        read_bracket(&**store, &name)
    })
    .await;
    match read {
        Ok(Ok(Some(bracket))) => html_response(StatusCode::OK, bracket_page(&base, &bracket)),
        Ok(Ok(None)) => not_found(&format!(
            "The store holds no knockout {base:?} (no tournament {base:?}/round-1)."
        )),
        Ok(Err(e)) => internal(&e.to_string()),
        Err(e) => internal(&e.to_string()),
    }
}

async fn game(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    match read_game(&state, &id).await {
        Ok(g) => html_response(StatusCode::OK, game_page(&g, &state.hub.location)),
        Err(r) => r,
    }
}

async fn game_pgn(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    match read_game(&state, &id).await {
        Ok(g) => (
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            game_text(&g, &state.hub.location),
        )
            .into_response(),
        Err(r) => r,
    }
}

async fn style() -> Response {
    let css = format!("{}\n{STYLE}", eloworld_report::report_stylesheet());
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        css,
    )
        .into_response()
}

async fn script() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        SCRIPT,
    )
        .into_response()
}
