//! Phase 1: evolve the 35 evaluation parameters so that a 1-ply search plays the
//! grandmasters' moves (David–Koppel–Netanyahu, section III).

use super::{
    pct, points, run_ga, write_file, GaRun, GaSettings, GmPositions, PhaseEnd, PhaseEvent,
};
use eloworld_app::AppResult;
use eloworld_app::Session;
use eloworld_evolve::imitate::{self, ImitationFitness, ImitationSummary};
use eloworld_evolve::{Checkpointing, GaConfig, Generation};
use eloworld_report::{line_plot, ImageFormat, Labels, Series};
use std::fmt::Write as _;
use std::time::Instant;

/// Phase 1's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct ImitateSettings {
    /// The GA.
    pub ga: GaSettings,
    /// The grandmaster games.
    pub source: GmPositions,
    /// Most training positions.
    pub train: usize,
    /// Most test positions.
    pub test: usize,
    /// Independent runs with seeds seed, seed+1, …; run K (seed K) writes `imitate-runK`.
    pub runs: usize,
}

/// Runs phase 1 (`runs` times), writing `OUT/imitate-runK.params`, `.csv` and `.png` for
/// run K, the run of seed K.
///
/// # Errors
/// No games, a bad setting, the checkpoint, or writing the files.
pub fn imitate(
    session: &Session,
    s: &ImitateSettings,
    on: &mut dyn FnMut(PhaseEvent),
) -> AppResult<PhaseEnd> {
    let store = s.ga.prepare(session)?;
    let files = imitate::pgn_files(&s.source.pgn_dir)?;
    eloworld_app::ensure!(
        !files.is_empty(),
        "no .pgn files in {}",
        s.source.pgn_dir.display()
    );
    let t0 = Instant::now();
    let (games, report) = imitate::read_strong_games(&files, s.source.min_elo)?;
    on(PhaseEvent::Note(format!(
        "read {} games from {} file(s) in {}: {} with both players rated >= {}, {} of them decisive",
        report.games,
        files.len(),
        s.source.pgn_dir.display(),
        report.strong,
        s.source.min_elo,
        report.decisive
    )));
    let data_config = s.source.dataset(s.train, s.test);
    let (data, bad) = imitate::build_dataset(&games, &data_config)?;
    on(PhaseEvent::Note(format!(
        "positions where the eventual winner is to move: {} training (from {} games), {} test (from {} other games); \
         up to {} per game, since the paper's 10,000 games are not available ({} games skipped: a move did not replay) [{:.1} s]",
        data.train.len(),
        data.train_games,
        data.test.len(),
        data.test_games,
        s.source.per_game,
        bad,
        t0.elapsed().as_secs_f64()
    )));
    let defaults = imitate::decode(
        &eloworld_engine::EvalParams::default().encode(eloworld_engine::Coding::Gray),
    )?;
    let (train_default, test_default) = (
        data.train.matches(&defaults) as f64,
        data.test.matches(&defaults) as f64,
    );
    on(PhaseEvent::Note(format!(
        "for reference, Fig. 3's parameters match {:.1}% of training and {:.1}% of test moves",
        pct(train_default, data.train.len()),
        pct(test_default, data.test.len())
    )));
    let base = s.ga.config(GaConfig::new())?;
    on(PhaseEvent::Note(format!("GA: {}", base.describe())));
    let fitness = ImitationFitness::new(&data);
    let settings = format!(
        "imitate {} pgn={}",
        data_config.describe(),
        s.source.pgn_dir.display()
    );
    let (ntrain, ntest) = (data.train.len(), data.test.len());
    for offset in 0..s.runs {
        // Run K has seed K: `--seed 8 --runs 3` writes runs 8 to 10 beside runs 1 to 7.
        let config = GaConfig {
            seed: base.seed + offset as u64,
            ..base.clone()
        };
        let k = config.seed;
        let name = format!("imitate-s{}", config.seed);
        let checkpoint = Checkpointing {
            store: &store,
            run: &name,
            settings: &settings,
        };
        let event = |g: &Generation, loaded: bool, secs: f64| {
            Some(PhaseEvent::Imitation {
                run: k,
                name: name.clone(),
                summary: ImitationSummary::of(g),
                positions: (ntrain, ntest),
                last: config.generations - 1,
                loaded,
                secs,
            })
        };
        let prefix = format!("run {k}: ");
        let Some(run) = run_ga(
            session,
            &GaRun {
                config: &config,
                fitness: &fitness,
                seeds: &[],
                checkpoint,
                prefix: &prefix,
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
        let params = imitate::decode(best)?;
        let stem = s.ga.out.join(format!("imitate-run{k}"));
        let last_gen = run.history.last().map_or(0, |g| g.index);
        let (train, test) = (data.train.matches(&params), data.test.matches(&params));
        let (train_f, test_f) = (train as f64, test as f64);
        let mut text = format!(
            "# eloworld evolve imitate, run {k} ({name}), best organism of generation {last_gen}\n\
             # matches {train}/{ntrain} training ({:.1}%), {test}/{ntest} test ({:.1}%)\n\
             # {}\n# {settings}\n",
            pct(train_f, ntrain),
            pct(test_f, ntest),
            config.describe()
        );
        text.push_str(&params.to_text());
        write_file(&stem.with_extension("params"), text.as_bytes())?;
        write_file(
            &stem.with_extension("csv"),
            history_csv(&run.history, ntrain, ntest).as_bytes(),
        )?;
        let series = vec![
            Series {
                name: "best organism".to_owned(),
                points: points(&run.history, |g| ImitationSummary::of(g).best_train),
            },
            Series {
                name: "population average".to_owned(),
                points: points(&run.history, |g| ImitationSummary::of(g).mean_train),
            },
        ];
        let labels = Labels {
            title: format!("Positions solved (of {ntrain}) per generation, run {k}"),
            x: "generation".to_owned(),
            y: "positions solved".to_owned(),
        };
        write_file(
            &stem.with_extension("png"),
            &line_plot(&series, &labels, ImageFormat::Png)?,
        )?;
        on(PhaseEvent::Note(format!(
            "run {k}: best organism matches {:.1}% training, {:.1}% test (David–Koppel–Netanyahu: 32.4% / 30.4%); wrote {}.params, .csv, .png",
            pct(train_f, ntrain),
            pct(test_f, ntest),
            stem.display()
        )));
    }
    Ok(PhaseEnd::Done)
}

fn history_csv(history: &[Generation], ntrain: usize, ntest: usize) -> String {
    let mut out = String::from("generation,best_train_matches,best_train_pct,best_test_matches,best_test_pct,mean_train_matches,mean_train_pct\n");
    for g in history {
        let s = ImitationSummary::of(g);
        let _ = writeln!(
            out,
            "{},{},{:.2},{},{:.2},{:.1},{:.2}",
            g.index,
            s.best_train,
            pct(s.best_train, ntrain),
            s.best_test,
            pct(s.best_test, ntest),
            s.mean_train,
            pct(s.mean_train, ntrain)
        );
    }
    out
}
