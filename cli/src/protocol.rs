//! What the engine protocols share (`fairy uci`, `fairy xboard`): the games offered, a search
//! that runs on a thread of its own while commands are read, and how long to think on a clock.

use super::weights::WeightsArg;
use super::{Reported, complain, load_rules};
use fairy::ai::search::plies_to_result;
use fairy::ai::search::{Choice, Limits, Searcher};
use fairy::ai::weights::Weights;
use fairy::compile::Ruleset;
use fairy::engine::Position;
use fairy::notation::protocol::{Dialect, unspeakable, write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

/// Where the games offered come from when no file is given.
pub const DEFAULT_FOLDER: &str = "rules";

/// The transposition table's size unless the interface sets it, and the most it may, in
/// megabytes.
pub const DEFAULT_HASH_MB: usize = 16;
pub const MAX_HASH_MB: usize = 4096;

/// The seed of the computer's choices through the protocols: the same game, the same answers.
const SEED: u64 = 1;

/// One game offered, by the name of its rule file.
pub struct Variant {
    pub name: String,
    pub rules: Ruleset,
    /// What the computer player evaluates with: a weights file's, or the rule file's own.
    pub weights: Option<Weights>,
}

/// The games to offer: the rule files given, or every one in [`DEFAULT_FOLDER`]. A file
/// given that the protocols cannot carry is an error; one found in the folder is left out.
/// A weights file is for one game: it needs exactly one rule file.
pub fn variants(files: &[String], weights: &WeightsArg) -> Result<Vec<Variant>, Reported> {
    if weights.path.is_some() && files.len() != 1 {
        complain!("error: --weights is for one game: give exactly one rule file with it");
        return Err(Reported::Usage);
    }
    let (paths, given) = match files {
        [] => (folder_files()?, false),
        _ => (files.to_vec(), true),
    };
    let mut variants: Vec<Variant> = Vec::new();
    for path in paths {
        let (rules, _) = load_rules(&path)?;
        let name = variant_name(&path);
        match unspeakable(&rules) {
            Some(why) if given => {
                complain!("error: {path}: the engine protocols cannot carry this game: {why}");
                return Err(Reported::Unplayable);
            }
            Some(_) => continue,
            None if variants.iter().any(|v| v.name == name) => {
                complain!("error: two rule files are named {name}: a game is chosen by name");
                return Err(Reported::Usage);
            }
            None => {
                let weights = weights.load(&rules, &path)?;
                variants.push(Variant {
                    name,
                    rules,
                    weights,
                })
            }
        }
    }
    if variants.is_empty() {
        complain!("error: no game to offer: {DEFAULT_FOLDER}/ holds none the protocols carry");
        return Err(Reported::Usage);
    }
    Ok(variants)
}

/// The rule files of [`DEFAULT_FOLDER`], by name.
fn folder_files() -> Result<Vec<String>, Reported> {
    let entries = std::fs::read_dir(DEFAULT_FOLDER).map_err(|error| {
        complain!(
            "error: no rule file given, and no {DEFAULT_FOLDER}/ folder here to offer ({error})"
        );
        Reported::Usage
    })?;
    let mut paths: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rules"))
        .map(|path| path.to_string_lossy().into_owned())
        .collect();
    paths.sort();
    Ok(paths)
}

/// A game's name in the protocols: its rule file's name without `.rules`, in lower case
/// (interfaces send variant names in lower case).
pub fn variant_name(path: &str) -> String {
    let stem = Path::new(path).file_stem().map(|s| s.to_string_lossy());
    stem.map_or_else(|| path.to_string(), |s| s.to_lowercase())
}

/// The index of the variant named `name`, in any case.
pub fn find_variant(variants: &[Variant], name: &str) -> Option<usize> {
    variants
        .iter()
        .position(|v| v.name.eq_ignore_ascii_case(name))
}

/// What the interface lets the computer player use: `Hash` and `Threads` in UCI, `memory`
/// and `cores` in XBoard.
#[derive(Clone, Copy)]
pub struct Resources {
    pub hash_mb: usize,
    pub threads: usize,
}

impl Default for Resources {
    fn default() -> Self {
        Resources {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
        }
    }
}

/// A count from 1 to `max`, as an interface sends it (a table's megabytes, threads).
pub fn count_within(text: &str, max: usize) -> Option<usize> {
    text.parse().ok().filter(|count| (1..=max).contains(count))
}

/// A new computer player for `variant` using `resources`.
pub fn searcher(variant: &Variant, resources: Resources) -> Box<Searcher> {
    let bytes = resources.hash_mb << 20;
    let mut searcher = Searcher::weighted(&variant.rules, SEED, variant.weights.as_ref(), bytes);
    searcher.set_threads(resources.threads);
    Box::new(searcher)
}

/// Builds the computer player into `idle` where it is neither built nor thinking. Called
/// where the interface waits for the engine (UCI's `isready`, XBoard's `ping`), so that a
/// new player's set-up (its table, its evaluation's measures) is not paid for on the clock
/// of its first move.
pub fn prepare(
    idle: &mut Option<Box<Searcher>>,
    thinking: bool,
    variant: &Variant,
    resources: Resources,
) {
    if !thinking && idle.is_none() {
        *idle = Some(searcher(variant, resources));
    }
}

/// A search running on a thread of its own, which hands its player back when it ends.
pub struct Thinking<'scope> {
    stop: Arc<AtomicBool>,
    handle: ScopedJoinHandle<'scope, Box<Searcher>>,
}

/// How a search started by [`think`] ends.
pub struct Ending<F> {
    /// After its search, wait for [`Thinking::stop`] (UCI's `go infinite` and `go ponder`).
    pub hold: bool,
    /// Says what the search chose, or `None` where there was no legal turn.
    pub answer: F,
}

/// Starts `searcher` on `position` within `limits` on a thread of `scope`: `report` is told of
/// every finished iteration, and the ending's answer of the choice.
pub fn think<'scope, 'env, R, F>(
    scope: &'scope Scope<'scope, 'env>,
    mut searcher: Box<Searcher>,
    mut position: Position<'env>,
    mut limits: Limits,
    mut report: R,
    ending: Ending<F>,
) -> Thinking<'scope>
where
    R: FnMut(&Choice) + Send + 'scope,
    F: FnOnce(Option<Choice>) + Send + 'scope,
{
    let stop = Arc::new(AtomicBool::new(false));
    limits.stop = Some(Arc::clone(&stop));
    let told = Arc::clone(&stop);
    let handle = scope.spawn(move || {
        let choice = searcher.search(&mut position, &limits, &mut report);
        while ending.hold && !told.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        (ending.answer)(choice);
        searcher
    });
    Thinking { stop, handle }
}

impl Thinking<'_> {
    /// Stops the search (it answers with the best it has found) and takes its player back.
    pub fn stop(self) -> Box<Searcher> {
        self.stop.store(true, Ordering::Relaxed);
        self.wait()
    }

    /// Waits for the search to end by itself and takes its player back.
    pub fn wait(self) -> Box<Searcher> {
        match self.handle.join() {
            Ok(searcher) => searcher,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }

    /// Whether the search has ended and answered.
    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }
}

/// A clock for the side to move: the time left, the increment, and the moves to the next
/// time control if any.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    pub left: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// Time kept back on every move for what the interface and the pipes take.
const SAFETY: Duration = Duration::from_millis(30);

/// Without a count of moves to go, the clock is shared out as if this many were left.
const MOVES_AHEAD: u32 = 30;

impl Clock {
    /// How long to think on this move: a share of the time left and most of the increment,
    /// never so much that the clock could run out.
    pub fn budget(&self) -> Duration {
        let usable = self.left.saturating_sub(SAFETY);
        let ahead = self
            .moves_to_go
            .unwrap_or(MOVES_AHEAD)
            .clamp(1, MOVES_AHEAD);
        let share = usable / ahead + self.increment * 3 / 4;
        share.min(usable).max(Duration::from_millis(1))
    }
}

/// A deadline `think` from `start`, held back a little so that the answer arrives in time.
pub fn deadline_after(start: Instant, think: Duration) -> Instant {
    let margin = (think / 20).min(Duration::from_millis(5));
    start + think.saturating_sub(margin)
}

/// A search's expected line, its moves in the protocol's text, separated by spaces.
pub fn line_text(rules: &Ruleset, choice: &Choice, dialect: Dialect) -> String {
    let moves: Vec<String> = (choice.line.iter())
        .map(|turn| write(rules, turn, dialect))
        .collect();
    moves.join(" ")
}

/// The moves to the mate a score promises, negative when the player to move is mated; `None`
/// for a score that promises no mate.
pub fn mate_in(score: i32) -> Option<i32> {
    plies_to_result(score).map(|plies| match plies > 0 {
        true => (plies + 1) / 2,
        false => -((-plies + 1) / 2),
    })
}
