//! The HTML page's text: the ordering, crosstable numbers and error bars, checked without a
//! browser (`html_in_browser.rs` renders it).

use eloworld_report::{
    html_report, HtmlReport, ImageFormat, OutcomeTable, RatingColumn, RatingValue, Wdl,
};

fn report(ratings: Vec<RatingColumn>) -> HtmlReport {
    let players: Vec<String> = ["weak", "strong", "middle"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let mut table = OutcomeTable::new(&players);
    table
        .add_counts(1, 0, Wdl::new(3, 1, 0))
        .expect("strong-weak");
    table
        .add_counts(0, 1, Wdl::new(0, 0, 4))
        .expect("weak-strong");
    table
        .add_counts(2, 0, Wdl::new(2, 2, 0))
        .expect("middle-weak");
    table
        .add_counts(1, 2, Wdl::new(1, 2, 1))
        .expect("strong-middle");
    HtmlReport {
        title: "t <&> t".to_owned(),
        settings: vec![],
        config: None,
        table,
        ratings,
        histories: vec![],
        consistency: vec![],
        consistency_source: "uscf".to_owned(),
        samples: vec![],
        notes: vec!["mle: not shown (no games)".to_owned()],
        picture_format: ImageFormat::Svg,
    }
}

#[test]
fn page_orders_players_by_the_first_rating_and_counts_head_to_head() {
    let column = RatingColumn {
        method: "elo_world".to_owned(),
        note: "quartiles".to_owned(),
        probability: false,
        values: vec![
            Some(RatingValue::with_interval(900.0, 880.0, 920.0)),
            Some(RatingValue::with_interval(1200.0, 1150.0, 1260.0)),
            Some(RatingValue::point(1000.0)),
        ],
    };
    let page = html_report(&report(vec![column])).expect("page");
    assert!(
        page.contains("<title>t &lt;&amp;&gt; t</title>"),
        "title escaped"
    );
    assert!(page.contains("mle: not shown (no games)"), "notes shown");
    // Best first: strong, middle, weak in the ratings table and the crosstable.
    let (s, m, w) = (
        page.find("<td class=\"name\">strong</td>").expect("strong"),
        page.find("<td class=\"name\">middle</td>").expect("middle"),
        page.find("<td class=\"name\">weak</td>").expect("weak"),
    );
    assert!(s < m && m < w);
    // strong vs weak over both colours: +7 =1 -0 = 7½ of 8.
    assert!(
        page.contains("title=\"+7 =1 -0\">7½/8</td>"),
        "strong-weak cell"
    );
    assert!(
        page.contains("title=\"+0 =1 -7\">½/8</td>"),
        "weak-strong cell"
    );
    // The interval shows in the cell's tooltip, the value in the cell.
    assert!(page.contains("<td title=\"1150 … 1260\">1200</td>"));
    // The matrix is inlined; without histories there is no evolution picture, and a note says so.
    assert_eq!(page.matches("src=\"data:image/svg+xml;base64,").count(), 1);
    assert!(page.contains("No rating history"));
}

#[test]
fn a_rating_column_of_the_wrong_length_is_an_error() {
    let column = RatingColumn {
        method: "uscf".to_owned(),
        note: String::new(),
        probability: false,
        values: vec![None],
    };
    let err = html_report(&report(vec![column])).expect_err("3 players, 1 value");
    assert!(
        err.to_string().contains("uscf has 1 values for 3 players"),
        "{err}"
    );
}
