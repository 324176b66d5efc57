//! The pictures, decoded and checked pixel by pixel where results are known.
//! Set `ELOWORLD_REPORT_SAVE=DIR` to keep the pictures for a look.

use eloworld_report::{
    evolution_plot, matrix_cell_colour, outcome_matrix, EvolutionOptions, ImageFormat,
    MatrixOptions, OutcomeTable, RatingHistory, Wdl,
};

fn save(name: &str, bytes: &[u8]) {
    if let Ok(dir) = std::env::var("ELOWORLD_REPORT_SAVE") {
        std::fs::create_dir_all(&dir).expect("create save dir");
        std::fs::write(std::path::Path::new(&dir).join(name), bytes).expect("save picture");
    }
}

struct Rgb {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Rgb {
    fn decode(bytes: &[u8]) -> Rgb {
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().expect("PNG header");
        let mut pixels = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut pixels).expect("PNG data");
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        Rgb {
            width: info.width,
            height: info.height,
            pixels,
        }
    }

    fn at(&self, x: u32, y: u32) -> (u8, u8, u8) {
        let i = (y * self.width + x) as usize * 3;
        (self.pixels[i], self.pixels[i + 1], self.pixels[i + 2])
    }
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

/// Three players whose cells are known: weak always loses as White to strong, strong always
/// wins as White against weak, mid draws everything as White, and one pair never played.
fn known_table() -> OutcomeTable {
    let mut t = OutcomeTable::new(&names(&["weak", "mid", "strong"]));
    t.add_counts(2, 0, Wdl::new(10, 0, 0)).expect("strong-weak"); // all wins: green ×
    t.add_counts(0, 2, Wdl::new(0, 0, 10)).expect("weak-strong"); // all losses: red ×
    t.add_counts(1, 0, Wdl::new(0, 10, 0)).expect("mid-weak"); // all draws: blue, no ×
    t.add_counts(1, 2, Wdl::new(0, 5, 5)).expect("mid-strong"); // half draws, half losses
    t.add_counts(0, 1, Wdl::new(5, 0, 5)).expect("weak-mid"); // half wins, half losses
    t
}

fn is_green(c: (u8, u8, u8)) -> bool {
    c.1 > 140 && c.0 < 80 && c.2 < 100
}
fn is_red(c: (u8, u8, u8)) -> bool {
    c.0 > 180 && c.1 < 80 && c.2 < 80
}
fn is_blue(c: (u8, u8, u8)) -> bool {
    c.2 > 180 && c.0 < 80 && c.1 < 120
}

#[test]
fn matrix_png_has_coloured_cells_and_crosses_where_results_are_known() {
    let table = known_table();
    let options = MatrixOptions {
        cell: Some(30),
        sorted_by: "test order".to_owned(),
    };
    let (bytes, layout) = outcome_matrix(&table, &options, ImageFormat::Png).expect("draw");
    save("matrix-known.png", &bytes);
    let img = Rgb::decode(&bytes);
    assert_eq!((img.width, img.height), (layout.width, layout.height));
    assert!(img.width >= layout.grid_left + 3 * 30 && img.height >= layout.grid_top + 3 * 30);
    let centre = |row, col| {
        let (x, y) = layout.cell_origin(row, col);
        img.at(x + 15, y + 15)
    };
    // Off the ×: the middle of the cell's top edge zone.
    let background = |row, col| {
        let (x, y) = layout.cell_origin(row, col);
        img.at(x + 15, y + 3)
    };
    // strong (row 2) vs weak (column 0): all wins, green with a white × through the centre.
    assert!(is_green(background(2, 0)), "{:?}", background(2, 0));
    assert_eq!(centre(2, 0), (255, 255, 255));
    // weak vs strong: all losses, red with a ×.
    assert!(is_red(background(0, 2)), "{:?}", background(0, 2));
    assert_eq!(centre(0, 2), (255, 255, 255));
    // mid vs weak: all draws, blue, no ×.
    assert!(is_blue(centre(1, 0)), "{:?}", centre(1, 0));
    assert_eq!(centre(1, 0), background(1, 0));
    // weak vs mid: half wins, half losses, a brownish mix of green and red, no ×.
    let mixed = centre(0, 1);
    assert_eq!(Some(mixed), matrix_cell_colour(Wdl::new(5, 0, 5)));
    assert!(mixed.0 > 100 && mixed.1 > 90 && mixed.2 < 70, "{mixed:?}");
    // Pairs that never played (the diagonal, strong vs mid) are light grey.
    assert_eq!(centre(1, 1), (235, 235, 235));
    assert_eq!(centre(2, 1), (235, 235, 235));
    // Names are drawn: dark pixels left of the first row.
    let (x0, y0) = layout.cell_origin(0, 0);
    let dark = (0..x0)
        .filter(|&x| (y0..y0 + 30).any(|y| img.at(x, y).0 < 100))
        .count();
    assert!(dark > 5, "row labels missing");
}

#[test]
fn cell_colours_mix_in_proportion() {
    assert_eq!(matrix_cell_colour(Wdl::default()), None);
    assert_eq!(matrix_cell_colour(Wdl::new(3, 0, 0)), Some((30, 170, 60)));
    assert_eq!(matrix_cell_colour(Wdl::new(0, 3, 0)), Some((40, 90, 220)));
    assert_eq!(matrix_cell_colour(Wdl::new(0, 0, 3)), Some((215, 40, 40)));
    // Half wins, half draws: the average of green and blue.
    assert_eq!(matrix_cell_colour(Wdl::new(2, 2, 0)), Some((35, 130, 140)));
}

#[test]
fn matrix_svg_parses_and_has_a_rect_per_cell_and_the_names() {
    let table = known_table();
    let (bytes, layout) =
        outcome_matrix(&table, &MatrixOptions::new(), ImageFormat::Svg).expect("draw");
    save("matrix-known.svg", &bytes);
    let text = String::from_utf8(bytes).expect("UTF-8");
    let doc = roxmltree::Document::parse(&text).expect("SVG parses");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.attribute("width"),
        Some(layout.width.to_string().as_str())
    );
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    for p in ["weak", "mid", "strong"] {
        assert_eq!(
            texts.iter().filter(|t| **t == p).count(),
            2,
            "{p} on both axes"
        );
    }
    let green_cells = doc
        .descendants()
        .filter(|n| {
            n.has_tag_name("rect")
                && n.attribute("fill")
                    .is_some_and(|f| f.eq_ignore_ascii_case("#1EAA3C"))
        })
        .count();
    assert!(green_cells >= 1, "the all-wins cell is green");
}

#[test]
fn matrix_of_no_players_is_an_error() {
    let err = outcome_matrix(
        &OutcomeTable::default(),
        &MatrixOptions::new(),
        ImageFormat::Png,
    );
    assert!(err.is_err());
}

/// A 40-player picture, to look at (and to check the default layout stays readable).
#[test]
fn forty_player_matrix_fits_every_name() {
    let players: Vec<String> = (0..40)
        .map(|i| format!("stockfish1m_r{}", 65536 - i * 1600))
        .collect();
    let mut t = OutcomeTable::new(&players);
    // Far-apart players always win or lose; close ones share wins, draws and losses.
    for w in 0..40usize {
        for b in 0..40usize {
            if w != b {
                let counts = match w.abs_diff(b) {
                    d if d > 15 && w > b => Wdl::new(20, 0, 0),
                    d if d > 15 => Wdl::new(0, 0, 20),
                    d if w > b => Wdl::new(15 + d as u64, 5, 15 - d as u64),
                    d => Wdl::new(15 - d as u64, 5, 15 + d as u64),
                };
                t.add_counts(w, b, counts).expect("in range");
            }
        }
    }
    let (bytes, layout) =
        outcome_matrix(&t, &MatrixOptions::new(), ImageFormat::Png).expect("draw");
    save("matrix-40.png", &bytes);
    let img = Rgb::decode(&bytes);
    assert_eq!(layout.cell, 18);
    assert!(img.width < 1400 && img.height < 1400);
}

fn sample_histories() -> Vec<RatingHistory> {
    let mut out = Vec::new();
    for (run, shift) in [("run 1", 0.0), ("run 2", 15.0)] {
        for (p, target) in [
            ("alpha_beta", 1320.0),
            ("better_alpha_beta", 1340.0),
            ("mcts", 1110.0),
            ("mcts_uct", 1400.0),
        ] {
            let ratings: Vec<f64> = (0..=200)
                .map(|k| {
                    let k = f64::from(k);
                    target
                        + shift
                        + (1300.0 - target) * (-k / 40.0).exp()
                        + 30.0 * (k / 7.0).sin() * (-k / 80.0).exp()
                })
                .collect();
            out.push(RatingHistory {
                player: p.to_owned(),
                run: Some(run.to_owned()),
                ratings,
            });
        }
    }
    out
}

#[test]
fn evolution_png_has_the_size_and_a_line_per_player() {
    let options = EvolutionOptions::new();
    let bytes = evolution_plot(&sample_histories(), &options, ImageFormat::Png).expect("draw");
    save("evolution.png", &bytes);
    let img = Rgb::decode(&bytes);
    assert_eq!((img.width, img.height), (1000, 600));
    // Each of the first four palette colours appears (one per player).
    for colour in [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40)] {
        let found = (0..img.height).any(|y| (0..img.width).any(|x| img.at(x, y) == colour));
        assert!(found, "line colour {colour:?} missing");
    }
}

#[test]
fn evolution_svg_parses_and_labels_players_and_runs() {
    let bytes = evolution_plot(
        &sample_histories(),
        &EvolutionOptions::new(),
        ImageFormat::Svg,
    )
    .expect("draw");
    save("evolution.svg", &bytes);
    let text = String::from_utf8(bytes).expect("UTF-8");
    let doc = roxmltree::Document::parse(&text).expect("SVG parses");
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    for label in [
        "mcts_uct",
        "alpha_beta",
        "run 1",
        "run 2",
        "games played",
        "rating",
    ] {
        assert!(texts.contains(&label), "{label} missing from {texts:?}");
    }
    assert!(evolution_plot(&[], &EvolutionOptions::new(), ImageFormat::Svg).is_err());
}
