//! The HTML report rendered by a real browser (headless Chromium, Debian's `chromium`, which
//! `.ci/run` installs): the screenshot must show the pictures and boards, and the loaded DOM
//! must hold every section. Without Chromium the test fails with a note saying how to get it,
//! unless `ELOWORLD_SKIP_BROWSER_TESTS=1` asks to skip it (and then it says so).
//! Set `ELOWORLD_REPORT_SAVE=DIR` to keep the page and the screenshot for a look.

use eloworld_report::{
    html_report, ConsistencyRow, Diagram, HtmlReport, ImageFormat, OutcomeTable, RatingColumn,
    RatingHistory, RatingValue, SampleGame, Wdl,
};
use std::path::Path;
use std::process::{Command, Stdio};

#[path = "support/browser.rs"]
mod browser;

/// Runs headless Chromium on `page` with `extra` arguments (at most 90 s); returns stdout.
fn run_chromium(browser: &Path, page: &Path, profile: &Path, extra: &[&str]) -> String {
    let url = format!("file://{}", page.display());
    let out = Command::new("timeout")
        .arg("90")
        .arg(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--force-color-profile=srgb",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(&url)
        .stdin(Stdio::null())
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

/// A small report with every section filled: four players, stronger ones always beat weaker
/// ones as White, so the matrix has green and red crossed cells.
fn sample_report() -> HtmlReport {
    let players = names(&["worstfish", "random_move", "cccp", "stockfish1m"]);
    let mut table = OutcomeTable::new(&players);
    for w in 0..4 {
        for b in 0..4 {
            if w != b {
                let counts = if w > b {
                    Wdl::new(10, 0, 0)
                } else if w + 1 == b {
                    Wdl::new(2, 6, 2)
                } else {
                    Wdl::new(0, 1, 9)
                };
                table.add_counts(w, b, counts).expect("in range");
            }
        }
    }
    let ratings = vec![
        RatingColumn {
            method: "elo_world".to_owned(),
            note: "median of 19 runs; bar: quartiles".to_owned(),
            probability: false,
            values: [600.0, 850.0, 1100.0, 1450.0]
                .iter()
                .map(|&v| Some(RatingValue::with_interval(v, v - 20.0, v + 25.0)))
                .collect(),
        },
        RatingColumn {
            method: "markov".to_owned(),
            note: "p(Champion)".to_owned(),
            probability: true,
            values: vec![
                Some(RatingValue::point(1e-6)),
                Some(RatingValue::point(1e-3)),
                Some(RatingValue::point(0.05)),
                None,
            ],
        },
    ];
    let histories = players
        .iter()
        .enumerate()
        .map(|(i, p)| RatingHistory {
            player: p.clone(),
            run: None,
            ratings: (0..=60)
                .map(|k| {
                    1300.0
                        + (f64::from(u32::try_from(i).unwrap_or(0)) - 1.5)
                            * 60.0
                            * (1.0 - (-f64::from(k) / 15.0).exp())
                })
                .collect(),
        })
        .collect();
    let samples = vec![
        SampleGame {
            white: "cccp".to_owned(),
            black: "worstfish".to_owned(),
            result: "1-0".to_owned(),
            termination: "checkmate".to_owned(),
            plies: 7,
            text: "[Event \"demo\"]\n\n1. e4 f6 2. d4 g5 3. Qh5# 1-0".to_owned(),
            diagram: Some(
                Diagram::from_position_text(
                    "rnbqkbnr/ppppp2p/5p2/6pQ/3PP3/8/PPP2PPP/RNB1KBNR b KQkq - 1 3",
                )
                .expect("FEN"),
            ),
        },
        SampleGame {
            white: "mcts".to_owned(),
            black: "alpha_beta".to_owned(),
            result: "0-1".to_owned(),
            termination: "four-in-a-row".to_owned(),
            plies: 9,
            text: "c3 a1 c2 b1 e5 c1 a5 d1".to_owned(),
            diagram: Some(
                Diagram::from_position_text("x...x/...../..x../..x../oooo. x").expect("squava"),
            ),
        },
    ];
    HtmlReport {
        title: "eloworld report: browser test".to_owned(),
        settings: vec![(
            "tournament".to_owned(),
            "browser test; chess; 4 players".to_owned(),
        )],
        config: Some("name = \"browser test\"\ngame = \"chess\"\n".to_owned()),
        table,
        ratings,
        histories,
        consistency: vec![ConsistencyRow {
            first: "cccp".to_owned(),
            second: "worstfish".to_owned(),
            games: 20,
            observed: 0.5,
            predicted: 0.9,
        }],
        consistency_source: "uscf".to_owned(),
        samples,
        notes: vec![],
        picture_format: ImageFormat::Svg,
    }
}

/// Counts the screenshot's pixels within `tolerance` of `colour`.
fn count_near(pixels: &[u8], colour: (u8, u8, u8), tolerance: u8) -> usize {
    pixels
        .chunks_exact(4)
        .filter(|p| {
            p[0].abs_diff(colour.0) <= tolerance
                && p[1].abs_diff(colour.1) <= tolerance
                && p[2].abs_diff(colour.2) <= tolerance
        })
        .count()
}

#[test]
fn report_renders_in_headless_chromium() {
    let Some(browser) = browser::chromium() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("report.html");
    std::fs::write(&page, html_report(&sample_report()).expect("report")).expect("write page");
    let shot = dir.path().join("shot.png");
    run_chromium(
        &browser,
        &page,
        &dir.path().join("profile1"),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,3000",
        ],
    );
    if let Ok(keep) = std::env::var("ELOWORLD_REPORT_SAVE") {
        std::fs::create_dir_all(&keep).expect("save dir");
        std::fs::copy(&page, Path::new(&keep).join("browser-report.html")).expect("keep page");
        std::fs::copy(&shot, Path::new(&keep).join("browser-shot.png")).expect("keep shot");
    }

    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&shot).expect("screenshot written"),
    ));
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buffer = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buffer).expect("PNG data");
    assert_eq!((info.width, info.height), (1200, 3000));
    // Normalise to RGBA.
    let rgba: Vec<u8> = match info.color_type {
        png::ColorType::Rgba => buffer[..info.buffer_size()].to_vec(),
        png::ColorType::Rgb => buffer[..info.buffer_size()]
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("unexpected screenshot colour type {other:?}"),
    };
    // The inlined matrix was decoded and drawn: its all-wins green and all-losses red cells.
    assert!(
        count_near(&rgba, (30, 170, 60), 8) > 1000,
        "matrix green cells not on screen"
    );
    assert!(
        count_near(&rgba, (215, 40, 40), 8) > 1000,
        "matrix red cells not on screen"
    );
    // The board diagrams' light squares (#f0d9b5) and the page's dark text.
    assert!(
        count_near(&rgba, (240, 217, 181), 6) > 2000,
        "board diagram not on screen"
    );
    assert!(
        count_near(&rgba, (30, 30, 30), 40) > 2000,
        "no text on screen"
    );

    let dom = run_chromium(
        &browser,
        &page,
        &dir.path().join("profile2"),
        &["--dump-dom"],
    );
    for (id, heading) in [
        ("settings", "Settings"),
        ("ratings", "Ratings"),
        ("crosstable", "Crosstable"),
        ("matrix", "Outcome matrix"),
        ("evolution", "Rating evolution"),
        ("consistency", "Consistency"),
        ("games", "Sample games"),
    ] {
        assert!(
            dom.contains(&format!("<section id=\"{id}\"><h2>{heading}</h2>")),
            "section {id} missing from the DOM"
        );
    }
    assert_eq!(dom.matches("<img class=\"picture\"").count(), 2);
    assert_eq!(dom.matches("<table class=\"board\"").count(), 2);
}
