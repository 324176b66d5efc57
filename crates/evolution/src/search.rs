//! Phase 3: evolve the 18 selective-search parameters of Table I so that the engine solves
//! a test suite in the fewest nodes (David–Koppel–Netanyahu, section V).

use super::{points, read_eval, run_ga, write_file, GaRun, GaSettings, PhaseEnd, PhaseEvent};
use eloworld_app::AppResult;
use eloworld_app::Session;
use eloworld_engine::SearchParams;
use eloworld_evolve::search_phase::{self, SearchFitness, SearchSummary};
use eloworld_evolve::{Checkpointing, GaConfig, Generation};
use eloworld_report::{line_plot, ImageFormat, Labels, Series};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

/// Suite positions searched unless told otherwise: the phase then finishes in about half an
/// hour on 2 cores.
pub const SEARCH_DEFAULT_POSITIONS: usize = 150;
/// Node cap per position unless told otherwise.
pub const SEARCH_DEFAULT_CAP: u64 = 50_000;

/// Phase 3's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSettings {
    /// The GA.
    pub ga: GaSettings,
    /// The test suite (EPD with `bm`/`am`).
    pub epd: PathBuf,
    /// Use only the first K positions (default [`SEARCH_DEFAULT_POSITIONS`]; paper: all).
    pub positions: Option<usize>,
    /// Node cap per position (default [`SEARCH_DEFAULT_CAP`]; paper: 500,000).
    pub cap: Option<u64>,
    /// The evaluation parameters (default Fig. 3's).
    pub eval: Option<PathBuf>,
    /// Transposition table per search, MiB.
    pub hash_mb: usize,
    /// The paper's settings: every position, 500,000 nodes each.
    pub paper: bool,
}

/// Runs phase 3, writing `OUT/search.params`, `.csv` and `.png`.
///
/// # Errors
/// A bad suite or setting, the checkpoint, or writing the files.
pub fn search(
    session: &Session,
    s: &SearchSettings,
    on: &mut dyn FnMut(PhaseEvent),
) -> AppResult<PhaseEnd> {
    let store = s.ga.prepare(session)?;
    let suite = eloworld_app::suite::read_suite(&s.epd)?;
    for e in &suite.skipped {
        on(PhaseEvent::Skipped(e.to_string()));
    }
    let (default_positions, default_cap) = if s.paper {
        (usize::MAX, 500_000)
    } else {
        (SEARCH_DEFAULT_POSITIONS, SEARCH_DEFAULT_CAP)
    };
    let take = s
        .positions
        .unwrap_or(default_positions)
        .min(suite.positions.len());
    let cap = s.cap.unwrap_or(default_cap);
    eloworld_app::ensure!(
        take > 0 && cap > 0,
        "no positions to search (--positions and --cap must be positive; {} has {})",
        s.epd.display(),
        suite.positions.len()
    );
    let positions = &suite.positions[..take];
    let eval = read_eval(s.eval.as_deref())?;
    let eval_name = s
        .eval
        .as_ref()
        .map_or_else(|| "Fig. 3 defaults".to_owned(), |p| p.display().to_string());
    let defaults = GaConfig {
        population: 10,
        generations: 50,
        mutation_rate: 0.05,
        genome_bits: SearchParams::CHROMOSOME_BITS,
        ..GaConfig::new()
    };
    let config = s.ga.config(defaults)?;
    on(PhaseEvent::Note(format!(
        "suite: first {take} of {} positions of {}, at most {cap} nodes each (David–Koppel–Netanyahu: all 879 ECM positions, 500,000 nodes: --paper); evaluation: {eval_name}",
        suite.positions.len(),
        s.epd.display()
    )));
    on(PhaseEvent::Note(format!("GA: {}", config.describe())));
    let fitness = SearchFitness::new(positions, eval, cap, s.hash_mb);
    let worst = fitness.worst_total();
    let t = Instant::now();
    let table2 = fitness.cost(&SearchParams::default());
    let plain = fitness.cost(&SearchParams::plain());
    on(PhaseEvent::Note(format!(
        "for reference: Table II's values need {} nodes ({} solved), plain alpha-beta {} nodes ({} solved) [{:.1} s]",
        table2.total_nodes,
        table2.solved,
        plain.total_nodes,
        plain.solved,
        t.elapsed().as_secs_f64()
    )));
    let settings = format!(
        "search epd={} positions={take} cap={cap} hash={} eval={eval_name} {:x}",
        s.epd.display(),
        s.hash_mb,
        eloworld_engine::EvalParams::values(&eval)
            .iter()
            .fold(0u64, |h, &v| h.wrapping_mul(31).wrapping_add(v as u64))
    );
    let name = format!("search-s{}", config.seed);
    let checkpoint = Checkpointing {
        store: &store,
        run: &name,
        settings: &settings,
    };
    let event = |g: &Generation, loaded: bool, secs: f64| {
        Some(PhaseEvent::Search {
            summary: SearchSummary::of(g, worst),
            positions: take,
            last: config.generations - 1,
            loaded,
            secs,
        })
    };
    let Some(run) = run_ga(
        session,
        &GaRun {
            config: &config,
            fitness: &fitness,
            seeds: &[],
            checkpoint,
            prefix: "",
        },
        on,
        &event,
    )?
    else {
        return Ok(PhaseEnd::Stopped);
    };
    let Some((best, _)) = run.best() else {
        eloworld_app::invalid!("no generation")
    };
    let params = search_phase::decode(best)?;
    let cost = fitness.cost(&params);
    let stem = s.ga.out.join("search");
    let mut text = format!(
        "# eloworld evolve search ({name}): best organism, {} nodes, {}/{take} solved\n# {}\n# {settings}\n",
        cost.total_nodes,
        cost.solved,
        config.describe()
    );
    text.push_str(&params.to_text());
    write_file(&stem.with_extension("params"), text.as_bytes())?;
    let mut csv = String::from("generation,best_total_nodes,best_solved,mean_total_nodes\n");
    for g in &run.history {
        let s = SearchSummary::of(g, worst);
        let _ = writeln!(
            csv,
            "{},{},{},{:.0}",
            g.index, s.best_nodes, s.best_solved, s.mean_nodes
        );
    }
    write_file(&stem.with_extension("csv"), csv.as_bytes())?;
    let series = vec![
        Series {
            name: "best organism".to_owned(),
            points: points(&run.history, |g| {
                SearchSummary::of(g, worst).best_nodes / 1e6
            }),
        },
        Series {
            name: "population average".to_owned(),
            points: points(&run.history, |g| {
                SearchSummary::of(g, worst).mean_nodes / 1e6
            }),
        },
    ];
    let labels = Labels {
        title: format!("Total node count for {take} positions per generation"),
        x: "generation".to_owned(),
        y: "nodes (millions)".to_owned(),
    };
    write_file(
        &stem.with_extension("png"),
        &line_plot(&series, &labels, ImageFormat::Png)?,
    )?;
    on(PhaseEvent::Note(format!(
        "best organism: {} nodes, {}/{take} solved (Table II: {} nodes, {} solved); wrote {}.params, .csv, .png",
        cost.total_nodes,
        cost.solved,
        table2.total_nodes,
        table2.solved,
        stem.display()
    )));
    on(PhaseEvent::Note(format!(
        "use it: eloworld play --white 'evol:eval=EVAL.params,search={}' …",
        stem.with_extension("params").display()
    )));
    Ok(PhaseEnd::Done)
}
