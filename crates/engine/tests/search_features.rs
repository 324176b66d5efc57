//! Each selective-search feature of Table I, switched on alone over a plain alpha-beta search,
//! changes the node counts on fixed positions but not the answers to mate problems; fixed-node
//! searches are exact and deterministic; the bench signature is pinned.

use eloworld_engine::bench::{run_bench, BENCH_DEPTH};
use eloworld_engine::search::{mate_in, SearchStats, Techniques};
use eloworld_engine::{Engine, EvalParams, Limits, SearchParams};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess};

/// Mate problems from WAC (`dm` = moves to mate): FEN, best move (SAN without check marks), moves to mate.
const MATES: [(&str, &str, i32); 5] = [
    (
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "Qg6",
        2,
    ),
    (
        "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
        "Qxh7",
        2,
    ),
    (
        "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
        "Qc4",
        2,
    ),
    (
        "7k/pp4np/2p3p1/3pN1q1/3P4/Q7/1r3rPP/2R2RK1 w - - 0 1",
        "Qf8",
        2,
    ),
    (
        "r3q1kr/ppp5/3p2pQ/8/3PP1b1/5R2/PPP3P1/5RK1 w - - 0 1",
        "Rf8",
        3,
    ),
];

/// Quiet and tactical middlegames where every feature has work to do.
const MIDDLEGAMES: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
];

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("fen")
        .into_position(CastlingMode::Standard)
        .expect("legal")
}

/// Searches with the paper's search alone (the fixed techniques beside it off), so each
/// Table I feature is measured over plain alpha-beta.
fn search(params: SearchParams, fen: &str, depth: u32) -> (String, i32, u64) {
    search_with(params, Techniques::none(), fen, depth)
}

fn search_with(
    params: SearchParams,
    techniques: Techniques,
    fen: &str,
    depth: u32,
) -> (String, i32, u64) {
    let mut engine = Engine::new(EvalParams::default(), params, 4);
    engine.techniques = techniques;
    let p = pos(fen);
    let r = engine.search(&p, &[], &Limits::depth(depth), &mut |_| {});
    let m = r.best_move.expect("a move");
    (San::from_move(&p, m).to_string(), r.score, r.nodes)
}

/// Plain alpha-beta plus one feature.
fn variants() -> Vec<(&'static str, SearchParams)> {
    let plain = SearchParams::plain();
    let table2 = SearchParams::default();
    let with = |f: &dyn Fn(&mut SearchParams)| {
        let mut p = plain;
        f(&mut p);
        p
    };
    vec![
        (
            "null move",
            with(&|p| {
                p.null_move_use = 1;
                p.null_move_reduction = table2.null_move_reduction;
                p.null_move_use_adaptivity = 1;
            }),
        ),
        (
            "null move without adaptivity",
            with(&|p| {
                p.null_move_use = 1;
                p.null_move_reduction = 2;
                p.null_move_use_adaptivity = 0;
            }),
        ),
        ("futility", with(&|p| p.futility_depth = 3)),
        (
            "multi-cut",
            with(&|p| {
                p.multi_cut_use = 1;
                p.multi_cut_depth = 3;
                p.multi_cut_reduction = 1;
            }),
        ),
        ("check extension", with(&|p| p.check_extension = 4)),
        ("one-reply extension", with(&|p| p.one_reply_extension = 4)),
        ("recapture extension", with(&|p| p.recapture_extension = 4)),
        (
            "passed pawn extension",
            with(&|p| p.passed_pawn_extension = 4),
        ),
        (
            "mate threat extension",
            with(&|p| {
                p.null_move_use = 1;
                p.null_move_reduction = 2;
                p.mate_threat_extension = 4;
            }),
        ),
        ("Table II", table2),
    ]
}

#[test]
fn each_feature_changes_node_counts_but_not_mate_answers() {
    let plain = SearchParams::plain();
    // Deep enough that null move's reduction (up to 1 + 4 plies) still sees the mating threat;
    // iterative deepening stops once a mate is proven with depth to spare.
    let mate_depth = 8;
    let depth = 5;
    let plain_mates: Vec<_> = MATES
        .iter()
        .map(|(fen, _, _)| search(plain, fen, mate_depth))
        .collect();
    for ((fen, best, n), (m, score, _)) in MATES.iter().zip(&plain_mates) {
        assert_eq!(
            (m.as_str(), mate_in(*score)),
            (*best, Some(*n)),
            "plain search on {fen}"
        );
    }
    let plain_nodes: Vec<u64> = MIDDLEGAMES
        .iter()
        .map(|fen| search(plain, fen, depth).2)
        .collect();
    for (name, params) in variants() {
        for (fen, best, n) in &MATES {
            let (m, score, _) = search(params, fen, mate_depth);
            assert_eq!(
                (m.as_str(), mate_in(score)),
                (*best, Some(*n)),
                "{name} on {fen}"
            );
        }
        let nodes: Vec<u64> = MIDDLEGAMES
            .iter()
            .map(|fen| search(params, fen, depth).2)
            .collect();
        assert_ne!(nodes, plain_nodes, "{name} changed no node count");
    }
}

/// The full engine (Table II with every fixed technique) still solves the mate problems, each technique saves nodes on the
/// middlegames at the bench depth, and together they save more than half.
#[test]
fn the_fixed_techniques_keep_the_mates_and_save_nodes() {
    let table2 = SearchParams::default();
    for (fen, best, n) in &MATES {
        // Late move reductions put off the quiet queen sacrifice of the first problem to
        // depth 9 (depth 8 misses it): the full engine gets ten plies.
        let (m, score, _) = search_with(table2, Techniques::default(), fen, 10);
        assert_eq!((m.as_str(), mate_in(score)), (*best, Some(*n)), "{fen}");
    }
    let total = |t: Techniques| -> u64 {
        MIDDLEGAMES
            .iter()
            .map(|fen| search_with(table2, t, fen, BENCH_DEPTH).2)
            .sum()
    };
    let none = total(Techniques::none());
    let all = total(Techniques::default());
    let alone = [
        Techniques {
            late_move_reductions: true,
            ..Techniques::none()
        },
        Techniques {
            aspiration_windows: true,
            ..Techniques::none()
        },
        Techniques {
            static_exchange: true,
            ..Techniques::none()
        },
        Techniques {
            reverse_futility: true,
            ..Techniques::none()
        },
        Techniques {
            late_move_pruning: true,
            ..Techniques::none()
        },
        Techniques {
            internal_iterative_reduction: true,
            ..Techniques::none()
        },
        Techniques {
            static_null_move: true,
            ..Techniques::none()
        },
    ];
    for t in alone {
        let nodes = total(t);
        assert!(nodes < none, "{t:?}: {nodes} nodes, {none} without");
    }
    assert!(all * 2 < none, "all: {all} nodes, none: {none}");
    // Cut-node reductions deepen late move reductions: they save nodes beside them.
    let lmr = Techniques {
        late_move_reductions: true,
        ..Techniques::none()
    };
    let (with_cut, without) = (
        total(Techniques {
            cut_node_reductions: true,
            ..lmr
        }),
        total(lmr),
    );
    assert!(
        with_cut < without,
        "cut-node reductions: {with_cut} nodes, {without} without"
    );
}

/// The deeper null move, the history malus, countermoves, singular extensions, reductions
/// by history and quiescence checks keep the mates and change the full engine's search;
/// singular extensions and quiescence checks cost nodes.
#[test]
fn the_later_search_techniques_keep_the_mates() {
    let table2 = SearchParams::default();
    // Ten plies deep: singular extensions test nodes with eight plies or more left, and
    // history builds up enough for reductions by it to act.
    let nodes = |t: Techniques| -> u64 {
        MIDDLEGAMES
            .iter()
            .map(|fen| search_with(table2, t, fen, 10).2)
            .sum()
    };
    let base = Techniques::default();
    let deeper = Techniques {
        null_move_depth: true,
        ..base
    };
    // The malus is on by default (a match showed it gains): measured by switching it off.
    let malus = Techniques {
        history_malus: false,
        ..base
    };
    let counter = Techniques {
        countermoves: true,
        ..base
    };
    let singular = Techniques {
        singular_extensions: true,
        ..base
    };
    let by_history = Techniques {
        history_reductions: true,
        ..base
    };
    let checks = Techniques {
        quiescence_checks: true,
        ..base
    };
    for t in [deeper, malus, counter, singular, by_history, checks] {
        assert_the_mates_are_found(table2, t, &format!("{t:?}"));
    }
    let without = nodes(base);
    assert_ne!(
        nodes(deeper),
        without,
        "the deeper null move changed no node count"
    );
    let extended = nodes(singular);
    assert!(
        extended > without,
        "singular extensions: {extended} nodes, {without} without"
    );
    assert_ne!(nodes(malus), without, "the malus changed no node count");
    assert_ne!(
        nodes(counter),
        without,
        "countermoves changed no node count"
    );
    assert_ne!(
        nodes(by_history),
        without,
        "reductions by history changed no node count"
    );
    // Quiescence checks change the tree (more nodes below the horizon, a different depth
    // reached by the checks' answers; with the gated extensions fewer nodes in all here).
    assert_ne!(
        nodes(checks),
        without,
        "quiescence checks changed no node count"
    );
}

/// A technique set is named in an `evol` spec by its short names, read back as written.
#[test]
fn technique_sets_are_named_by_their_short_names() {
    assert_eq!(Techniques::from_names("all"), Some(Techniques::default()));
    assert_eq!(Techniques::from_names("paper"), Some(Techniques::none()));
    let five = Techniques::from_names("lmr+asp+see+rfp+lmp").expect("five names");
    assert_eq!(
        five,
        Techniques {
            late_move_reductions: true,
            aspiration_windows: true,
            static_exchange: true,
            reverse_futility: true,
            late_move_pruning: true,
            ..Techniques::none()
        }
    );
    assert_eq!(five.names(), "lmr+asp+see+rfp+lmp");
    assert_eq!(Techniques::none().names(), "paper");
    // The default: the techniques a match showed to gain (docs/evolution.md).
    let kept = Techniques::default().names();
    assert_eq!(
        kept,
        "lmr+asp+see+rfp+lmp+king+passers+malus+pst+pvrecap+safechecks+qhash+keepmove+quietprune+improving"
    );
    assert_eq!(Techniques::from_names(&kept), Some(Techniques::default()));
    let every = Techniques::known_names().collect::<Vec<_>>().join("+");
    assert_eq!(
        Techniques::from_names(&every).map(|t| t.names()),
        Some(every.clone())
    );
    assert_eq!(Techniques::from_names("lmr+nmp"), None, "an unknown name");
    assert_eq!(Techniques::from_names(""), None, "no name");
}

/// The cut-node reductions deepen late move reductions only: alone they change nothing.
#[test]
fn cut_node_reductions_act_through_late_move_reductions() {
    let table2 = SearchParams::default();
    let nodes = |t: Techniques| search_with(table2, t, MIDDLEGAMES[0], BENCH_DEPTH).2;
    let cut_alone = Techniques {
        cut_node_reductions: true,
        ..Techniques::none()
    };
    assert_eq!(nodes(cut_alone), nodes(Techniques::none()));
}

#[test]
fn pruning_saves_nodes_and_extensions_cost_nodes() {
    let plain = SearchParams::plain();
    let total =
        |p: SearchParams| -> u64 { MIDDLEGAMES.iter().map(|fen| search(p, fen, 6).2).sum() };
    let base = total(plain);
    let mut null = plain;
    null.null_move_use = 1;
    null.null_move_reduction = 3;
    assert!(total(null) < base, "null move prunes");
    let mut fut = plain;
    fut.futility_depth = 3;
    assert!(total(fut) < base, "futility prunes");
    let mut check = plain;
    check.check_extension = 4;
    assert!(total(check) > base, "check extensions search more");
}

#[test]
fn node_limit_is_exact_and_deterministic() {
    for fen in MIDDLEGAMES {
        let p = pos(fen);
        let run = || {
            let mut e = Engine::new(EvalParams::default(), SearchParams::default(), 1);
            let r = e.search(&p, &[], &Limits::nodes(20_000), &mut |_| {});
            (r.best_move, r.nodes, r.score, r.depth)
        };
        let a = run();
        assert_eq!(a.1, 20_000, "stops at exactly the limit");
        assert_eq!(a, run(), "same answer twice");
    }
}

#[test]
fn time_limit_stops_the_search() {
    let mut e = Engine::new(EvalParams::default(), SearchParams::default(), 1);
    let start = std::time::Instant::now();
    let r = e.search(
        &pos(MIDDLEGAMES[0]),
        &[],
        &Limits::time(std::time::Duration::from_millis(100)),
        &mut |_| {},
    );
    assert!(r.best_move.is_some());
    assert!(start.elapsed() < std::time::Duration::from_secs(3));
}

/// Asserts that the search with `params` and `techniques` finds each of the five WAC mates in
/// ten plies, with its best move and its distance; `label` names the setting on failure.
fn assert_the_mates_are_found(params: SearchParams, techniques: Techniques, label: &str) {
    for (fen, best, n) in &MATES {
        let (m, score, _) = search_with(params, techniques, fen, 10);
        assert_eq!(
            (m.as_str(), mate_in(score)),
            (*best, Some(*n)),
            "{label} {fen}"
        );
    }
}

/// The bench signature: the total nodes of `eloworld-engine bench` at the default depth.
/// Any change to evaluation, move ordering, pruning or the bench list changes it; update it
/// (and say why) only when behaviour is meant to change.
#[test]
fn bench_signature() {
    let r = run_bench(BENCH_DEPTH);
    assert_eq!(
        r.total_nodes, BENCH_SIGNATURE,
        "per position: {:?}",
        r.nodes_per_position
    );
}

const BENCH_SIGNATURE: u64 = 169_593;

/// Searches the middle games to `depth`, each from a fresh engine, and returns the nodes and
/// what the selective methods did, summed over the positions.
fn middlegame_trees(
    params: SearchParams,
    techniques: Techniques,
    depth: u32,
) -> (u64, SearchStats) {
    MIDDLEGAMES
        .iter()
        .fold((0, SearchStats::default()), |(nodes, sum), fen| {
            let mut engine = Engine::new(EvalParams::default(), params, 4);
            engine.techniques = techniques;
            let r = engine.search(&pos(fen), &[], &Limits::depth(depth), &mut |_| {});
            let s = engine.stats();
            let total = SearchStats {
                null_cutoffs: sum.null_cutoffs + s.null_cutoffs,
                futility_prunes: sum.futility_prunes + s.futility_prunes,
                multi_cuts: sum.multi_cuts + s.multi_cuts,
                extended_moves: sum.extended_moves + s.extended_moves,
                late_move_prunes: sum.late_move_prunes + s.late_move_prunes,
                reduced_moves: sum.reduced_moves + s.reduced_moves,
                hash_move_cutoffs: sum.hash_move_cutoffs + s.hash_move_cutoffs,
            };
            (nodes + r.nodes, total)
        })
}

/// Searches the middle games to `depth` and returns the nodes and the moves extended.
fn extended(params: SearchParams, techniques: Techniques, depth: u32) -> (u64, u64) {
    let (nodes, stats) = middlegame_trees(params, techniques, depth);
    (nodes, stats.extended_moves)
}

#[test]
fn gated_extensions_extend_fewer_moves_and_act_only_through_their_genes() {
    let full = SearchParams {
        check_extension: 4,
        recapture_extension: 4,
        ..SearchParams::default()
    };
    // The switches are on by default: measured against the default with both off.
    let base = Techniques {
        pv_recaptures: false,
        safe_check_extensions: false,
        ..Techniques::default()
    };
    let pv_only = Techniques {
        pv_recaptures: true,
        ..base
    };
    let safe = Techniques {
        safe_check_extensions: true,
        ..base
    };
    for (name, t, gene_off) in [
        (
            "pv_recaptures",
            pv_only,
            SearchParams {
                recapture_extension: 0,
                ..full
            },
        ),
        (
            "safe_check_extensions",
            safe,
            SearchParams {
                check_extension: 0,
                ..full
            },
        ),
    ] {
        // With its gene at 0 the switch has nothing to gate: the same tree.
        assert_eq!(
            extended(gene_off, t, 7),
            extended(gene_off, base, 7),
            "{name} changed a search whose gene is 0"
        );
        // With the gene on it leaves some of the gene's moves unextended.
        let (on_nodes, on_ext) = extended(full, t, 7);
        let (off_nodes, off_ext) = extended(full, base, 7);
        assert_ne!(on_nodes, off_nodes, "{name} searched the same tree");
        let (on_share, off_share) = (
            on_ext as f64 / on_nodes as f64,
            off_ext as f64 / off_nodes as f64,
        );
        assert!(
            on_share < off_share,
            "{name}: {on_ext} of {on_nodes} moves extended, {off_ext} of {off_nodes} without"
        );
        // And the mates stay found.
        assert_the_mates_are_found(full, t, name);
    }
}

/// The three pruning and table techniques of the last round (docs/evolution.md, "Quiet
/// pruning, the table in the quiescence search, the hash move kept"): each changes the tree,
/// quiet pruning prunes quiet moves the genes' futility margins leave, and the mates stay found.
#[test]
fn quiet_pruning_and_the_quiescence_table_change_the_tree_and_keep_the_mates() {
    let params = SearchParams::default();
    let base = Techniques {
        quiescence_hash: false,
        keep_hash_move: false,
        quiet_pruning: false,
        ..Techniques::default()
    };
    let pruned = |t: Techniques| {
        let (nodes, stats) = middlegame_trees(params, t, 9);
        (nodes, stats.futility_prunes)
    };
    let (base_nodes, base_prunes) = pruned(base);
    for (name, t) in [
        (
            "quiet_pruning",
            Techniques {
                quiet_pruning: true,
                ..base
            },
        ),
        (
            "quiescence_hash",
            Techniques {
                quiescence_hash: true,
                ..base
            },
        ),
        (
            "keep_hash_move",
            Techniques {
                keep_hash_move: true,
                ..base
            },
        ),
    ] {
        let (nodes, prunes) = pruned(t);
        assert_ne!(nodes, base_nodes, "{name} searched the same tree");
        if t.quiet_pruning {
            assert!(
                prunes > base_prunes && nodes < base_nodes,
                "quiet pruning: {prunes} prunes and {nodes} nodes, {base_prunes} and {base_nodes} without"
            );
        }
        assert_the_mates_are_found(params, t, name);
    }
}

/// The 1-ply search of the imitation fitness never reads the table, whatever the switch:
/// after a search has filled it, the 1-ply answer with quiescence is the one of a fresh engine.
#[test]
fn the_one_ply_fitness_never_reads_the_table() {
    for fen in MIDDLEGAMES {
        let p = pos(fen);
        let mut fresh = Engine::new(EvalParams::default(), SearchParams::default(), 4);
        let expected = fresh.best_move_1ply(&p, true);
        let mut used = Engine::new(EvalParams::default(), SearchParams::default(), 4);
        used.techniques.quiescence_hash = true;
        used.search(&p, &[], &Limits::depth(8), &mut |_| {});
        assert_eq!(used.best_move_1ply(&p, true), expected, "{fen}");
    }
}

/// `improving`, `widelmr` and `tteval` (docs/evolution.md, "Improving, and a table as large as
/// the opponents'"): a node whose static score fell since its side's last move prunes more
/// late moves, wide reductions reduce more moves, the table's score changes the tree, and the
/// mates stay found with each.
#[test]
fn improving_wide_reductions_and_the_tables_score_prune_by_their_rules_and_keep_the_mates() {
    let params = SearchParams::default();
    let base = Techniques {
        improving: false,
        wide_reductions: false,
        table_eval: false,
        ..Techniques::default()
    };
    let searched = |t: Techniques| {
        let (nodes, stats) = middlegame_trees(params, t, 9);
        (nodes, stats.late_move_prunes, stats.reduced_moves)
    };
    // How often a counter fired per node searched.
    let per_node = |count: u64, nodes: u64| count as f64 / nodes as f64;
    let (base_nodes, base_prunes, base_reduced) = searched(base);
    assert!(base_prunes > 0 && base_reduced > 0);
    for (name, t) in [
        (
            "improving",
            Techniques {
                improving: true,
                ..base
            },
        ),
        (
            "wide_reductions",
            Techniques {
                wide_reductions: true,
                ..base
            },
        ),
        (
            "table_eval",
            Techniques {
                table_eval: true,
                ..base
            },
        ),
    ] {
        let (nodes, prunes, reduced) = searched(t);
        assert_ne!(nodes, base_nodes, "{name} searched the same tree");
        if t.improving {
            // Half the late moves at nodes that are not improving: more pruned per node.
            assert!(
                per_node(prunes, nodes) > per_node(base_prunes, base_nodes),
                "improving: {prunes} prunes in {nodes} nodes, {base_prunes} in {base_nodes} without"
            );
        }
        if t.wide_reductions {
            assert!(
                per_node(reduced, nodes) > per_node(base_reduced, base_nodes),
                "wide reductions: {reduced} reduced in {nodes} nodes, {base_reduced} in {base_nodes} without"
            );
        }
        assert_the_mates_are_found(params, t, name);
    }
}

/// With `hash_move_first`, a node with a hash move searches it before it generates and orders
/// its other moves, so a node where it cuts off never does (EVOL*'s search parameters,
/// multi-cut off); with
/// multi-cut, which tries the first moves of the whole order, every node generates first.
/// The nodes are pinned as the bench signature is: a second signature, on the parameters the
/// evolved engine plays with.
#[test]
fn the_hash_move_is_searched_before_the_other_moves_are_generated() {
    let without_multi_cut = SearchParams {
        multi_cut_use: 0,
        ..SearchParams::default()
    };
    let on = Techniques {
        hash_move_first: true,
        ..Techniques::default()
    };
    let (nodes, stats) = middlegame_trees(without_multi_cut, on, 8);
    let (_, with_multi_cut) = middlegame_trees(SearchParams::default(), on, 8);
    assert!(
        stats.hash_move_cutoffs * 100 > nodes,
        "{} nodes cut by their hash move alone of {nodes}",
        stats.hash_move_cutoffs
    );
    assert_eq!(with_multi_cut.hash_move_cutoffs, 0);
    assert_eq!(nodes, 117_880, "the signature without multi-cut");
    // The switch off (the default): every node generates its moves first, another tree.
    let (nodes_off, stats_off) = middlegame_trees(without_multi_cut, Techniques::default(), 8);
    assert_eq!(stats_off.hash_move_cutoffs, 0);
    assert_ne!(nodes_off, nodes);
}

/// Continuation history changes the tree (the order of quiet moves, measured by its rule in
/// `search.rs`'s tests) and the mates stay found.
#[test]
fn continuation_history_changes_the_tree_and_keeps_the_mates() {
    let params = SearchParams::default();
    let base = Techniques::default();
    let with = Techniques {
        continuation_history: true,
        ..base
    };
    let (base_nodes, _) = middlegame_trees(params, base, 9);
    let (nodes, _) = middlegame_trees(params, with, 9);
    assert_ne!(
        nodes, base_nodes,
        "continuation history searched the same tree"
    );
    assert_the_mates_are_found(params, with, "continuation_history");
}
