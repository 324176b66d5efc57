//! What a UCI engine reports while it searches (`info depth … score cp … nodes …`).

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Centipawns(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// Returns the score as one number for comparing: centipawns, with mates beyond any
    /// centipawn score (sooner mates further out).
    #[must_use]
    pub fn ordinal(self) -> i64 {
        const MATE: i64 = 1_000_000;
        match self {
            Score::Centipawns(cp) => i64::from(cp),
            Score::Mate(n) if n > 0 => MATE - i64::from(n),
            Score::Mate(n) => -MATE - i64::from(n),
        }
    }
}

/// The last report of the principal line, and how wide the search was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// The deepest full depth reported.
    pub depth: Option<u32>,
    /// The selective depth (UCI `seldepth`), as last reported.
    pub seldepth: Option<u32>,
    /// Nodes searched, as last reported.
    pub nodes: Option<u64>,
    /// Nodes a second (UCI `nps`), as last reported.
    pub nps: Option<u64>,
    /// Permille of the hash table in use (UCI `hashfull`), as last reported.
    pub hashfull: Option<u32>,
    /// Tablebase probes that hit (UCI `tbhits`), as last reported.
    pub tbhits: Option<u64>,
    /// Milliseconds the engine says it searched (UCI `time`), as last reported.
    pub time_ms: Option<u64>,
    /// The score of the best line (multipv 1), as last reported.
    pub score: Option<Score>,
    /// The largest `multipv` index seen: above 1 when the engine reports several lines.
    pub max_multipv: u32,
    /// The first move of the best line, as last reported (UCI text, NUL-padded).
    pv_head: [u8; 5],
}

impl SearchInfo {
    /// What an in-process search found: its depth, nodes and score, as a UCI engine's last
    /// `info` line would give them.
    #[must_use]
    pub fn searched(depth: u32, nodes: u64, score: Score) -> SearchInfo {
        SearchInfo {
            depth: Some(depth),
            nodes: Some(nodes),
            score: Some(score),
            ..SearchInfo::default()
        }
    }

    /// Returns the first move of the best line, if one was reported. A UCI engine's
    /// `bestmove` is this move unless it chose to play worse (Stockfish's Skill Level).
    #[must_use]
    pub fn pv_head(&self) -> Option<&str> {
        let n = self.pv_head.iter().position(|&b| b == 0).unwrap_or(5);
        std::str::from_utf8(&self.pv_head[..n])
            .ok()
            .filter(|s| !s.is_empty())
    }

    /// Folds one CECP thinking line (`ply score time nodes pv…`, score in centipawns from
    /// the engine's side) into the report; other lines are ignored.
    pub fn absorb_cecp(&mut self, line: &str) {
        let mut words = line.split_ascii_whitespace();
        let number =
            |w: Option<&str>| -> Option<i64> { w?.trim_end_matches(['.', '&', '+']).parse().ok() };
        let (Some(ply), Some(score)) = (number(words.next()), number(words.next())) else {
            return;
        };
        let (Some(_centiseconds), Some(nodes)) = (number(words.next()), number(words.next()))
        else {
            return;
        };
        self.depth = u32::try_from(ply).ok();
        self.score = i32::try_from(score).ok().map(Score::Centipawns);
        self.nodes = u64::try_from(nodes).ok();
        self.max_multipv = 1;
    }

    /// Folds one `info …` line into the report; lines of other lines than the best
    /// (`multipv 2` and beyond) count only towards `max_multipv`.
    pub fn absorb(&mut self, line: &str) {
        let mut words = line.split_ascii_whitespace();
        let mut multipv = 1u32;
        let (mut depth, mut nodes, mut score, mut head) = (None, None, None, None);
        let mut width = Width::default();
        while let Some(w) = words.next() {
            match w {
                "depth" => depth = words.next().and_then(|v| v.parse().ok()),
                "nodes" => nodes = words.next().and_then(|v| v.parse().ok()),
                "seldepth" => width.seldepth = words.next().and_then(|v| v.parse().ok()),
                "nps" => width.nps = words.next().and_then(|v| v.parse().ok()),
                "hashfull" => width.hashfull = words.next().and_then(|v| v.parse().ok()),
                "tbhits" => width.tbhits = words.next().and_then(|v| v.parse().ok()),
                "time" => width.time_ms = words.next().and_then(|v| v.parse().ok()),
                "multipv" => multipv = words.next().and_then(|v| v.parse().ok()).unwrap_or(1),
                "score" => {
                    score = match (words.next(), words.next().and_then(|v| v.parse().ok())) {
                        (Some("cp"), Some(v)) => Some(Score::Centipawns(v)),
                        (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                        _ => None,
                    };
                }
                "pv" => {
                    head = words.next();
                    break;
                }
                // The rest of the line is free text.
                "string" => break,
                _ => {}
            }
        }
        self.max_multipv = self.max_multipv.max(multipv);
        if multipv == 1 {
            if depth.is_some() {
                self.depth = depth;
            }
            if nodes.is_some() {
                self.nodes = nodes;
            }
            if score.is_some() {
                self.score = score;
            }
            self.seldepth = width.seldepth.or(self.seldepth);
            self.nps = width.nps.or(self.nps);
            self.hashfull = width.hashfull.or(self.hashfull);
            self.tbhits = width.tbhits.or(self.tbhits);
            self.time_ms = width.time_ms.or(self.time_ms);
            if let Some(h) = head.filter(|h| h.len() <= 5) {
                self.pv_head = [0; 5];
                self.pv_head[..h.len()].copy_from_slice(h.as_bytes());
            }
        }
    }
}

/// The fields of one `info` line that say how wide the search went, beside its depth,
/// nodes and score.
#[derive(Default)]
struct Width {
    seldepth: Option<u32>,
    nps: Option<u64>,
    hashfull: Option<u32>,
    tbhits: Option<u64>,
    time_ms: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stockfish_info_lines() {
        let mut i = SearchInfo::default();
        i.absorb("info string NNUE evaluation using nn-ad9b42354671.nnue enabled");
        assert_eq!(
            i,
            SearchInfo {
                max_multipv: 1,
                ..SearchInfo::default()
            }
        );
        i.absorb("info depth 7 seldepth 8 multipv 1 score cp -31 nodes 2113 nps 422600 tbhits 0 time 5 pv e7e5 g1f3");
        i.absorb("info depth 7 seldepth 9 multipv 2 score cp -90 nodes 2300 pv d7d5");
        assert_eq!(i.depth, Some(7));
        assert_eq!(i.seldepth, Some(8));
        assert_eq!(i.nps, Some(422_600));
        assert_eq!(i.tbhits, Some(0));
        assert_eq!(i.time_ms, Some(5));
        assert_eq!(i.hashfull, None);
        assert_eq!(i.nodes, Some(2113));
        assert_eq!(i.score, Some(Score::Centipawns(-31)));
        assert_eq!(i.max_multipv, 2);
        assert_eq!(i.pv_head(), Some("e7e5"));
        i.absorb("info depth 9 seldepth 3 multipv 1 score mate -1 nodes 40 pv h7h8");
        assert_eq!(i.score, Some(Score::Mate(-1)));
    }

    #[test]
    fn reads_cecp_thinking_lines() {
        let mut i = SearchInfo::default();
        i.absorb_cecp("move e2e4");
        i.absorb_cecp("Illegal move: foo");
        assert_eq!(i, SearchInfo::default());
        // fairymax: ply, score (centipawns), time (centiseconds), nodes, principal variation.
        i.absorb_cecp("  7    -34     12    40213 e7e5 g1f3 b8c6");
        i.absorb_cecp("  8.    25     30    90000 d7d5");
        assert_eq!(i.depth, Some(8));
        assert_eq!(i.score, Some(Score::Centipawns(25)));
        assert_eq!(i.nodes, Some(90000));
    }

    #[test]
    fn mates_order_beyond_centipawns() {
        let order = [
            Score::Mate(-1),
            Score::Mate(-5),
            Score::Centipawns(-900),
            Score::Centipawns(0),
            Score::Mate(7),
            Score::Mate(1),
        ];
        for w in order.windows(2) {
            assert!(w[0].ordinal() < w[1].ordinal(), "{:?} < {:?}", w[0], w[1]);
        }
    }
}
