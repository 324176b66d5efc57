use crate::MoveNote;
use eloworld_games::{GameResult, Termination};

/// What the runner reports while it works. Players are indices into `Plan::players`.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The run starts: jobs in the plan, already stored, to play now, worker threads.
    RunStarted {
        /// Jobs in the plan.
        total: u64,
        /// Games already stored before this run.
        done_before: u64,
        /// Jobs this run will play.
        pending: u64,
        /// Worker threads.
        threads: usize,
    },
    /// A player could not be made (an engine that does not start): its games are left
    /// unplayed in this run, never counted as losses.
    PlayerCannotStart {
        /// Its index into the tournament's players.
        player: u32,
        /// Why.
        reason: String,
    },
    /// A game started.
    GameStarted {
        /// The job's key in the plan.
        job: u32,
        /// White's index.
        white: u32,
        /// Black's index.
        black: u32,
    },
    /// A game finished (and will be stored at the next checkpoint).
    GameFinished {
        /// The job's key.
        job: u32,
        /// White's index.
        white: u32,
        /// Black's index.
        black: u32,
        /// The result.
        result: GameResult,
        /// Why it ended.
        termination: Termination,
        /// Plies played.
        plies: u32,
    },
    /// A finished game's moves and per-move notes (sent only with `RunOptions::record_games`).
    GameRecorded {
        /// The job's key.
        job: u32,
        /// The moves in compact notation (UCI for chess), space-separated.
        moves: String,
        /// One note per move: reported score and depth, time taken.
        notes: Vec<MoveNote>,
        /// More about the end (a forfeit's overrun, an engine's error).
        detail: Option<String>,
    },
    /// An external engine was restarted after a fault.
    EngineRestarted {
        /// The player's spec.
        player: String,
        /// What happened.
        reason: String,
    },
    /// Finished games were committed to the store.
    Checkpoint {
        /// Games stored in this run so far.
        stored: u64,
    },
    /// A finished game was refused by the store because this worker's claim on its job was
    /// lost (the lease expired and the job went to another worker); it is not counted.
    ResultRejected {
        /// The store's job id.
        job: i64,
        /// The attempt whose result was refused.
        attempt: u32,
    },
    /// The run was interrupted: games in flight are not stored and will be replayed.
    Interrupted {
        /// Games stored in this run.
        stored: u64,
    },
}
