//! The pages, rendered on the server with maud (every interpolated string is escaped): the
//! index of tournaments, a tournament's page and its live parts. The report's sections (ratings,
//! crosstable, outcome matrix, evolution plot) come from `eloworld-report`.

use crate::live::Live;
use crate::rating::Rated;
use eloworld_app::standing::{MatchTest, Verdict};
use eloworld_match::Headline;
use eloworld_report::{
    crosstable_section, evolution_plot, ordered_matrix, ratings_section, sprt_plot,
    EvolutionOptions, ImageFormat, OutcomeTable, RatingColumn, RatingHistory, SprtTrace,
};
use eloworld_tournament::WorkerSeen;
use maud::{html, Markup, PreEscaped, DOCTYPE};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use std::sync::{Arc, OnceLock};

/// Characters kept as they are in a path segment.
pub(crate) const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Most jobs in flight listed on a page.
const IN_FLIGHT_SHOWN: usize = 100;

/// Returns the absolute path of a tournament's page.
pub(crate) fn tournament_path(name: &str) -> String {
    format!("/t/{}", utf8_percent_encode(name, SEGMENT))
}

/// Wraps a page's body in the common head and navigation.
pub(crate) fn layout(title: &str, events: Option<&str>, version: u64, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="stylesheet" href="/assets/style.css";
                script src="/assets/app.js" defer {}
            }
            body data-events=[events] data-version=(version) {
                nav.top { a href="/" { "eloworld" } " · " span.note { "live dashboard, read-only" } }
                (body)
                footer.note { "eloworld " (env!("CARGO_PKG_VERSION")) " · "
                    span #live-state { "updates need JavaScript; reload for new results" } }
            }
        }
    }
}

/// Formats a duration in seconds as `2 h 05 min`, `3 min 20 s` or `12 s`.
fn duration_text(secs: f64) -> String {
    if !secs.is_finite() || secs < 0.0 {
        return "–".to_owned();
    }
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

/// Where a tournament stands, in one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum State {
    /// Games are being played (some in flight, or one stored in the last minute).
    Running,
    /// Games are left, and none is being played.
    Paused,
    /// No game stored yet.
    NotStarted,
    /// Every game played, or a match's SPRT decided.
    Finished,
}

impl State {
    /// The word shown, also the filter's value.
    pub(crate) const fn word(self) -> &'static str {
        match self {
            State::Running => "running",
            State::Paused => "paused",
            State::NotStarted => "not started",
            State::Finished => "finished",
        }
    }

    /// The filter's value in a link (`?state=…`).
    pub(crate) const fn slug(self) -> &'static str {
        match self {
            State::Running => "running",
            State::Paused => "paused",
            State::NotStarted => "not-started",
            State::Finished => "finished",
        }
    }

    const ALL: [State; 4] = [
        State::Running,
        State::Paused,
        State::NotStarted,
        State::Finished,
    ];
}

/// The state of a tournament.
fn state(live: &Live, now_ms: i64) -> State {
    if live.finished() {
        State::Finished
    } else if !live.in_flight.is_empty()
        || live
            .last_ms
            .is_some_and(|t| now_ms - t < crate::live::RATE_WINDOW_MS)
    {
        State::Running
    } else if live.stored() == 0 {
        State::NotStarted
    } else {
        State::Paused
    }
}

/// A match's verdict: its ending's, or its stored test's now.
fn verdict(live: &Live) -> Option<Verdict> {
    live.ending()
        .and_then(|e| e.verdict())
        .or_else(|| live.duel.as_ref().and_then(MatchTest::verdict))
}

/// The filter's value of a verdict (`?verdict=…`): `none` for a tournament without a test.
fn verdict_slug(v: Option<Verdict>) -> &'static str {
    match v {
        Some(Verdict::H1Accepted) => "h1",
        Some(Verdict::H0Accepted) => "h0",
        Some(Verdict::Inconclusive) => "inconclusive",
        None => "none",
    }
}

/// One tournament as the index lists it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct IndexRow {
    name: String,
    game: String,
    players: usize,
    stored: u64,
    total: u64,
    state: State,
    verdict: Option<Verdict>,
    /// Games per minute: over the last minute while running, over the run once finished.
    rate: Option<f64>,
    created: String,
}

impl IndexRow {
    fn of(live: &Live, now_ms: i64) -> IndexRow {
        let state = state(live, now_ms);
        IndexRow {
            name: live.row.name.clone(),
            game: live.row.game.to_string(),
            players: live.players(),
            stored: live.stored(),
            total: live.row.total,
            state,
            verdict: verdict(live),
            rate: if state == State::Finished {
                live.rate_over_run()
            } else {
                Some(live.rate_per_minute(now_ms))
            },
            created: live.row.created.clone(),
        }
    }
}

/// What the index shows: which states and verdicts, in which order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct IndexFilter {
    /// Only tournaments in this state.
    pub state: Option<State>,
    /// Only tournaments with this verdict (`Some(None)`: those without a test).
    pub verdict: Option<Option<Verdict>>,
    /// The order.
    pub sort: IndexSort,
}

/// The index's order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum IndexSort {
    /// As the store lists them (creation order).
    #[default]
    Created,
    /// By name.
    Name,
    /// By state, then verdict.
    State,
}

impl IndexFilter {
    /// Reads `?state=…&verdict=…&sort=…` (unknown values show everything, in store order).
    pub(crate) fn from_query(query: &str) -> IndexFilter {
        let mut f = IndexFilter::default();
        for (key, value) in query.split('&').filter_map(|p| p.split_once('=')) {
            match key {
                "state" => f.state = State::ALL.into_iter().find(|s| s.slug() == value),
                "verdict" => {
                    f.verdict = [
                        Some(Verdict::H1Accepted),
                        Some(Verdict::H0Accepted),
                        Some(Verdict::Inconclusive),
                        None,
                    ]
                    .into_iter()
                    .find(|v| verdict_slug(*v) == value);
                }
                "sort" => {
                    f.sort = match value {
                        "name" => IndexSort::Name,
                        "state" => IndexSort::State,
                        _ => IndexSort::Created,
                    };
                }
                _ => {}
            }
        }
        f
    }

    fn keeps(&self, r: &IndexRow) -> bool {
        self.state.is_none_or(|s| s == r.state) && self.verdict.is_none_or(|v| v == r.verdict)
    }
}

/// The index's rows, from the tournaments followed.
impl IndexRow {
    /// The tournament's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }
}

pub(crate) fn index_rows<'a>(lives: impl Iterator<Item = &'a Live>, now_ms: i64) -> Vec<IndexRow> {
    lives.map(|l| IndexRow::of(l, now_ms)).collect()
}

/// The filter's form (plain GET, so it works without JavaScript; the script applies it to
/// live updates as well).
pub(crate) fn index_form(f: &IndexFilter) -> Markup {
    let verdicts = [
        ("h1", "H1 accepted"),
        ("h0", "H0 accepted"),
        ("inconclusive", "inconclusive"),
        ("none", "no test"),
    ];
    let chosen_verdict = f.verdict.map(verdict_slug);
    html! {
        form #index-filter method="get" action="/" {
            label { "state "
                select name="state" {
                    option value="" { "any" }
                    @for s in State::ALL {
                        option value=(s.slug()) selected[f.state == Some(s)] { (s.word()) }
                    }
                }
            }
            " "
            label { "verdict "
                select name="verdict" {
                    option value="" { "any" }
                    @for (slug, words) in verdicts {
                        option value=(slug) selected[chosen_verdict == Some(slug)] { (words) }
                    }
                }
            }
            " "
            label { "sort by "
                select name="sort" {
                    option value="created" selected[f.sort == IndexSort::Created] { "created" }
                    option value="name" selected[f.sort == IndexSort::Name] { "name" }
                    option value="state" selected[f.sort == IndexSort::State] { "state" }
                }
            }
            " " button type="submit" { "show" }
        }
    }
}

/// The index's live part: one row per tournament (those `filter` keeps, in its order).
pub(crate) fn index_list(rows: &[IndexRow], error: Option<&str>, filter: &IndexFilter) -> String {
    // Every row is sent, in the chosen order, the ones the filter leaves out hidden: the
    // script filters live updates the same way.
    let mut ordered: Vec<(usize, &IndexRow)> = rows.iter().enumerate().collect();
    match filter.sort {
        IndexSort::Created => {}
        IndexSort::Name => ordered.sort_by(|a, b| a.1.name.cmp(&b.1.name)),
        IndexSort::State => ordered.sort_by_key(|(i, r)| (r.state, r.verdict, *i)),
    }
    let none_shown = !rows.iter().any(|r| filter.keeps(r));
    html! {
        (notice(error))
        @if rows.is_empty() {
            p { "The store holds no tournament yet." }
        } @else {
            table.list #tournament-list {
                tr { th.name { "tournament" } th.name { "game" } th { "players" } th { "games" }
                     th { "planned" } th { "done" } th.name { "state" } th.name { "verdict" }
                     th { "games/min" } th.name { "created" } }
                @for (order, r) in &ordered {
                    @let hidden = !filter.keeps(r);
                    tr data-state=(r.state.slug()) data-verdict=(verdict_slug(r.verdict))
                        data-name=(r.name) data-order=(order) hidden[hidden] {
                        td.name { a href=(tournament_path(&r.name)) { (r.name) } }
                        td.name { (r.game) }
                        td { (r.players) }
                        td.games { (r.stored) }
                        td { (r.total) }
                        td { (percent(r.stored, r.total)) }
                        td.name.state { (r.state.word()) }
                        td.name.verdict { (r.verdict.map_or("–", Verdict::words)) }
                        td { (r.rate.map_or_else(|| "–".to_owned(), |x| format!("{x:.1}"))) }
                        td.name { (r.created) }
                    }
                }
            }
            p #none-shown hidden[!none_shown] { "No tournament is in that state." }
        }
    }
    .into_string()
}

fn percent(done: u64, total: u64) -> String {
    if total == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}%", 100.0 * done as f64 / total as f64)
    }
}

fn notice(error: Option<&str>) -> Markup {
    html! {
        @if let Some(e) = error {
            p.warn { "The store cannot be read just now (what is shown may be old): " (e) }
        }
    }
}

/// The live parts of a tournament's page: `(element id, HTML)`.
pub(crate) fn fragments(
    live: &Live,
    rated: &Rated,
    workers: &[WorkerSeen],
    error: Option<&str>,
    now_ms: i64,
) -> Vec<(&'static str, String)> {
    let table = live.table();
    vec![
        ("notice", notice(error).into_string()),
        ("headline", headline(live).into_string()),
        ("progress", progress(live, now_ms).into_string()),
        ("sprt", duel(live).into_string()),
        ("ratings", ratings(&table, rated)),
        ("crosstable", crosstable(&table, rated)),
        ("workers", workers_part(live, workers, now_ms).into_string()),
        ("inflight", in_flight(live).into_string()),
        ("latest", latest(live).into_string()),
    ]
}

fn progress(live: &Live, now_ms: i64) -> Markup {
    let stored = live.stored();
    let total = live.row.total;
    let ending = live.ending();
    let left = total.saturating_sub(stored);
    // A finished run has no time left and is timed over the whole run.
    let (rate, rate_note) = match ending {
        Some(_) => (live.rate_over_run(), " games/min over the run"),
        None => (
            Some(live.rate_per_minute(now_ms)),
            " games/min over the last minute",
        ),
    };
    let eta = match (ending, rate) {
        (Some(_), _) => "–".to_owned(),
        _ if left == 0 => "–".to_owned(),
        (None, Some(r)) if r > 0.0 => duration_text(left as f64 / r * 60.0),
        _ => "unknown (no game in the last minute)".to_owned(),
    };
    let state_text =
        ending.map_or_else(|| state(live, now_ms).word().to_owned(), |e| e.to_string());
    html! {
        section #progress-section {
            h2 { "Progress" }
            p.big {
                span #games-done { (stored) } " of " span #games-planned { (total) } " games stored ("
                (percent(stored, total)) ") — " span #state { (state_text) }
            }
            // A finished run is complete, however few of its planned games an SPRT needed.
            progress #progress-bar max=(total.max(1)) value=(if ending.is_some() { total.max(1) } else { stored.min(total) }) {}
            table {
                tr { th.name { "rate" } td #rate { (rate.map_or_else(|| "–".to_owned(), |r| format!("{r:.1}"))) (rate_note) } }
                tr { th.name { "time left" } td #time-left { (eta) } }
                tr { th.name { "in flight" } td { (live.in_flight.len()) " jobs claimed" } }
                @if stored > 0 {
                    tr { th.name { "average length" } td { (format!("{:.1}", live.plies as f64 / stored as f64)) " plies" } }
                }
                @for (t, n) in &live.terminations {
                    tr { th.name { "ended by " (t) } td { (n) } }
                }
                @if live.skipped > 0 {
                    tr { th.name.warn { "unreadable" } td { (live.skipped) " games name no player of the tournament" } }
                }
            }
        }
    }
}

/// A match's headline, in the numbers `eloworld match` prints (the same computation): the
/// verdict, Elo and nElo with their 95% intervals, the LLR against its bounds, LOS, W/D/L,
/// the pentanomial counts, games, time control and engines.
fn headline(live: &Live) -> Markup {
    let Some(d) = &live.duel else {
        return html! {};
    };
    let sprt = d.configured.then_some(&d.sprt);
    let h = Headline::of(&d.score, sprt, d.paired);
    let names = &live.row.players;
    let verdict = verdict(live);
    let w = &h.wdl;
    html! {
        section #headline-section {
            h2 { "Match: " (names[0]) " vs " (names[1]) }
            p.big #verdict {
                @match (live.ending(), verdict) {
                    (Some(e), _) => { (e.to_string()) }
                    (None, Some(v)) => { "running — SPRT " (v.words()) " so far" }
                    (None, None) => { "running — no SPRT stored with this match" }
                }
            }
            table #headline {
                tr { th.name { "Elo" } td #elo colspan="2" { (h.elo.to_string()) } }
                @if let Some((_, s)) = &h.pairs {
                    @if s.nelo.is_finite() && s.nelo_error.is_finite() {
                        tr { th.name { "nElo" } td #nelo colspan="2" { (format!("{:.2} +/- {:.2}", s.nelo, s.nelo_error)) } }
                    }
                }
                @if let Some(l) = h.llr {
                    tr { th.name { "LLR" } td #headline-llr { (format!("{:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]", l.llr, l.lower, l.upper, l.elo0, l.elo1)) }
                         td.name { (format!("{:.0}", l.progress_percent)) "% of the way" } }
                }
                tr { th.name { "LOS" } td #los colspan="2" { (format!("{:.2} %", 100.0 * h.los)) } }
                tr { th.name { "W/D/L" } td #wdl colspan="2" { (format!("{} / {} / {}", w.wins, w.draws, w.losses)) " (" (format!("{:.2} %", h.percent)) ")" } }
                @if let Some((p, _)) = &h.pairs {
                    tr { th.name { "Ptnml(0-2)" } td #ptnml colspan="2" { (p.to_string()) } }
                }
                tr { th.name { "games" } td #headline-games colspan="2" { (w.games()) " of at most " (live.row.total) } }
                tr { th.name { "time control" } td #time-control colspan="2" { (live.time_control.as_deref().unwrap_or("–")) } }
                tr { th.name { "engines" } td colspan="2" { (names[0]) " (first), " (names[1]) } }
            }
        }
    }
}

/// The title of a match's SPRT: its hypotheses and error rates.
fn sprt_title(d: &eloworld_app::standing::MatchTest) -> String {
    let c = d.sprt.config();
    format!(
        "SPRT [{}, {}] ({} Elo), α = {}, β = {}",
        c.elo0, c.elo1, c.model, c.alpha, c.beta
    )
}

/// A match's pentanomial counts and SPRT (tournaments of two players only).
fn duel(live: &Live) -> Markup {
    let Some(d) = &live.duel else {
        return html! {};
    };
    let llr = d.llr();
    let p = &d.score.pairs;
    let eloworld_ratings::Wdl {
        wins: w,
        draws: dr,
        losses: l,
    } = d.score.wdl;
    html! {
        section #sprt-section {
            h2 { "Match: SPRT" }
            p.note {
                (sprt_title(d))
                @if d.configured { ", as stored with the match (eloworld match -sprt, or the tournament file's [sprt])." }
                @else { " — no test is stored with this tournament, so fishtest's usual one is shown (eloworld match -sprt stores one)." }
                @if d.paired {
                    " Pairs are the two games of a round (same opening, colours swapped), from "
                    (live.row.players[0]) "'s side."
                } @else {
                    " The match's games are single games (-games 1), each from its own opening: the test runs on their wins, draws and losses, from "
                    (live.row.players[0]) "'s side, as eloworld match runs it."
                }
            }
            table {
                tr { th.name { "LLR" } td #llr { (format!("{llr:.2}")) } td.name { "bounds " (format!("[{:.2}, {:.2}]", d.sprt.lower_bound(), d.sprt.upper_bound())) ", " (format!("{:.0}", d.sprt.progress_percent(llr))) "% of the way" } }
                tr { th.name { "decision" } td colspan="2" { (d.sprt.decide(llr).to_string()) } }
                tr { th.name { "games" } td colspan="2" { "+" (w) " =" (dr) " −" (l) } }
                @if d.paired {
                    tr { th.name { "pairs (0, ½, 1, 1½, 2 points)" } td #pentanomial colspan="2" { (p.to_string()) " — 1 point: " (p.wl) " win+loss, " (p.dd) " two draws" } }
                }
            }
            @if !d.trace.is_empty() {
                img.picture data-picture="sprt" alt="LLR over the games"
                    src=(format!("{}/sprt.png?v=0", tournament_path(&live.row.name)));
            }
        }
    }
}

fn ratings(table: &OutcomeTable, rated: &Rated) -> String {
    if table.total_games() == 0 {
        return html! { section #ratings { h2 { "Ratings" } p.note { "No game stored yet." } } }
            .into_string();
    }
    let mut out = ratings_section(table, &rated.columns)
        .unwrap_or_else(|e| html! { p.warn { "ratings: " (e.to_string()) } }.into_string());
    let total = table.total_games();
    let lagging: Vec<String> = rated
        .columns
        .iter()
        .zip(&rated.counted)
        .filter(|(_, &n)| (n as u64) < total)
        .map(|(c, n)| format!("{} counts {n} games", c.method))
        .collect();
    out.push_str(
        &html! {
            @if !lagging.is_empty() {
                p.note { "Still computing on newer games: " (lagging.join("; ")) " (of " (total) ")." }
            }
            @for n in &rated.notes { p.warn { (n) } }
        }
        .into_string(),
    );
    out
}

fn crosstable(table: &OutcomeTable, rated: &Rated) -> String {
    if table.total_games() == 0 {
        return String::new();
    }
    crosstable_section(table, &rated.columns)
        .unwrap_or_else(|e| html! { p.warn { "crosstable: " (e.to_string()) } }.into_string())
}

fn ms_to_secs(ms: i64) -> f64 {
    ms as f64 / 1000.0
}

fn lease_text(ms: Option<i64>) -> String {
    match ms {
        None => "–".to_owned(),
        Some(ms) if ms >= 0 => duration_text(ms_to_secs(ms)),
        Some(_) => "expired".to_owned(),
    }
}

fn workers_part(live: &Live, seen: &[WorkerSeen], now_ms: i64) -> Markup {
    let mut names: Vec<&str> = live.workers.keys().map(String::as_str).collect();
    for w in seen {
        names.push(&w.name);
    }
    for j in &live.in_flight {
        if let Some(w) = &j.worker {
            names.push(w);
        }
    }
    names.sort_unstable();
    names.dedup();
    html! {
        section #workers-section {
            h2 { "Workers" }
            @if names.is_empty() {
                p.note { "No worker has stored a game yet." }
            } @else {
                table {
                    tr { th.name { "worker" } th { "games stored" } th { "games/min" } th { "last game" }
                         th { "last report" } th { "claims" } th { "soonest lease end" } th.name { "cannot run" } }
                    @for name in &names {
                        @let tally = live.workers.get(*name);
                        @let report = seen.iter().find(|w| w.name == *name);
                        @let claims: Vec<Option<i64>> = live.in_flight.iter()
                            .filter(|j| j.worker.as_deref() == Some(*name)).map(|j| j.lease_left_ms).collect();
                        @let last_game = tally.map_or("–".to_owned(), |t| format!("{} ago", duration_text(ms_to_secs(now_ms - t.last_ms))));
                        tr {
                            td.name { (name) }
                            td { (tally.map_or(0, |t| t.games)) }
                            td { (format!("{:.1}", tally.map_or(0.0, |t| Live::worker_rate(t, now_ms)))) }
                            td { (last_game) }
                            td { (report.map_or("–".to_owned(), |r| format!("{} ago", duration_text(r.seen_secs_ago)))) }
                            td { (claims.len()) }
                            td { (lease_text(claims.iter().flatten().min().copied())) }
                            td.name { (report.map_or("", |r| r.cannot_run.as_str())) }
                        }
                    }
                }
            }
        }
    }
}

fn in_flight(live: &Live) -> Markup {
    let name = |i: u32| live.row.players.get(i as usize).map_or("?", String::as_str);
    html! {
        section #inflight-section {
            h2 { "Games in flight" }
            @if live.in_flight.is_empty() {
                p.note { "None." }
            } @else {
                table {
                    tr { th { "job" } th.name { "White" } th.name { "Black" } th { "round" } th.name { "worker" } th { "attempt" } th { "lease left" } }
                    @for j in live.in_flight.iter().take(IN_FLIGHT_SHOWN) {
                        tr {
                            td { (j.job_id) } td.name { (name(j.white)) } td.name { (name(j.black)) } td { (j.round + 1) }
                            td.name { (j.worker.as_deref().unwrap_or("–")) } td { (j.attempt) } td { (lease_text(j.lease_left_ms)) }
                        }
                    }
                }
                @if live.in_flight.len() > IN_FLIGHT_SHOWN {
                    p.note { "and " (live.in_flight.len() - IN_FLIGHT_SHOWN) " more." }
                }
            }
        }
    }
}

fn latest(live: &Live) -> Markup {
    let name = |i: u32| live.row.players.get(i as usize).map_or("?", String::as_str);
    html! {
        section #latest-section {
            h2 { "Latest games" }
            @if live.latest.is_empty() {
                p.note { "None yet." }
            } @else {
                table {
                    tr { th { "game" } th.name { "White" } th.name { "Black" } th { "result" } th.name { "ended by" } th { "plies" } th.name { "worker" } th { "seconds" } }
                    @for g in &live.latest {
                        tr {
                            td { a href=(format!("/game/{}", g.job_id)) { (g.job_id) } }
                            td.name { (name(g.white)) } td.name { (name(g.black)) } td { (g.result.pgn()) }
                            td.name { (g.termination.code()) } td { (g.plies) }
                            td.name { (g.worker.as_deref().unwrap_or("–")) } td { (format!("{:.1}", g.wall_ms / 1000.0)) }
                        }
                    }
                }
            }
        }
    }
}

/// The parts of a tournament's page that never change: its settings and file.
pub(crate) fn fixed(live: &Live, location: &str) -> String {
    let r = &live.row;
    html! {
        section #settings {
            h2 { "Settings" }
            table {
                tr { th.name { "store" } td.name { (location) } }
                tr { th.name { "game" } td.name { (r.game) } }
                tr { th.name { "players" } td.name { (r.players.join(", ")) } }
                tr { th.name { "created" } td.name { (r.created) " by eloworld " (r.program_version) } }
            }
            details { summary { "tournament file" } pre { (r.config) } }
            @if let Some(base) = eloworld_match::knockout_base(&r.name) {
                p #knockout { "A stage of the knockout " (base) ": "
                    a href=(crate::bracket_page::knockout_path(base)) { "its bracket" } }
            }
        }
    }
    .into_string()
}

/// What a tournament page shows, rendered; replaced as a whole on every change.
#[derive(Debug)]
pub(crate) struct View {
    /// The tournament's name.
    pub name: String,
    /// Increases with every change.
    pub version: u64,
    /// The page's live parts: `(element id, HTML)`.
    pub fragments: Vec<(&'static str, String)>,
    /// The pictures (replaced less often than the fragments).
    pub pictures: Arc<Pictures>,
    /// The part of the page that never changes (settings).
    pub fixed: String,
}

/// A tournament's whole page.
pub(crate) fn tournament_page(view: &View) -> Markup {
    let path = tournament_path(&view.name);
    let pictures = &view.pictures;
    let body = html! {
        h1 { (view.name) }
        @for (id, part) in &view.fragments {
            div id=(id) { (PreEscaped(part)) }
            @if *id == "crosstable" {
                section #matrix {
                    h2 { "Outcome matrix" }
                    img.picture data-picture="matrix" alt="outcome matrix"
                        src=(format!("{path}/matrix.png?v={}", pictures.version));
                }
                section #evolution {
                    h2 { "Rating evolution" }
                    p.note { "Each player's uscf rating after every game it played, in the order the games were stored." }
                    img.picture data-picture="evolution" alt="rating evolution"
                        src=(format!("{path}/evolution.png?v={}", pictures.version));
                }
            }
        }
        (PreEscaped(&view.fixed))
    };
    layout(
        &format!("{} — eloworld", view.name),
        Some(&format!("{path}/events")),
        view.version,
        body,
    )
}

/// The pictures of a tournament at some point, drawn on first request.
#[derive(Debug)]
pub(crate) struct Pictures {
    /// Changes whenever the pictures may differ.
    pub version: u64,
    table: OutcomeTable,
    columns: Vec<RatingColumn>,
    histories: Vec<RatingHistory>,
    sprt: Option<SprtTrace>,
    matrix: OnceLock<Result<Vec<u8>, String>>,
    evolution: OnceLock<Result<Vec<u8>, String>>,
    sprt_drawn: OnceLock<Result<Vec<u8>, String>>,
}

impl Pictures {
    /// Takes what the pictures need from the tournament's state.
    pub fn new(version: u64, live: &Live, rated: &Rated) -> Pictures {
        Pictures {
            version,
            table: live.table(),
            columns: rated.columns.clone(),
            histories: rated.histories.clone(),
            sprt: live.duel.as_ref().map(|d| SprtTrace {
                points: d.trace.clone(),
                lower: d.sprt.lower_bound(),
                upper: d.sprt.upper_bound(),
                title: sprt_title(d),
            }),
            matrix: OnceLock::new(),
            evolution: OnceLock::new(),
            sprt_drawn: OnceLock::new(),
        }
    }

    /// Returns the match's LLR plot as PNG, drawn once.
    pub fn sprt(&self) -> Result<&[u8], String> {
        self.sprt_drawn
            .get_or_init(|| match &self.sprt {
                Some(t) => sprt_plot(t, ImageFormat::Png).map_err(|e| e.to_string()),
                None => Err("not a match of two players".to_owned()),
            })
            .as_ref()
            .map(Vec::as_slice)
            .map_err(Clone::clone)
    }

    /// Returns the outcome matrix as PNG, drawn once.
    pub fn matrix(&self) -> Result<&[u8], String> {
        self.matrix
            .get_or_init(|| {
                ordered_matrix(&self.table, &self.columns, ImageFormat::Png)
                    .map(|(bytes, _)| bytes)
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map(Vec::as_slice)
            .map_err(Clone::clone)
    }

    /// Returns the rating-evolution plot as PNG, drawn once.
    pub fn evolution(&self) -> Result<&[u8], String> {
        self.evolution
            .get_or_init(|| {
                if self.histories.is_empty() {
                    return Err("no rating history yet".to_owned());
                }
                evolution_plot(&self.histories, &EvolutionOptions::new(), ImageFormat::Png)
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map(Vec::as_slice)
            .map_err(Clone::clone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_durations() {
        assert_eq!(tournament_path("a b/<c>"), "/t/a%20b%2F%3Cc%3E");
        assert_eq!(tournament_path("elo-world_1.x"), "/t/elo-world_1.x");
        assert_eq!(duration_text(12.4), "12 s");
        assert_eq!(duration_text(200.0), "3 min 20 s");
        assert_eq!(duration_text(7500.0), "2 h 05 min");
        assert_eq!(percent(1, 3), "33.3%");
        assert_eq!(percent(1, 0), "–");
    }
}
