//! The search: iterative deepening alpha-beta with a transposition table on the position's
//! hash and a search of captures at the horizon. Scores are always from the searching
//! player's side, and every other player is taken to play against them (the paranoid
//! assumption). With two players this is plain minimax; with more it keeps alpha-beta sound
//! and plays safe, which matters most where any opponent's attack can take a player out.

use super::eval::{self, Evaluator};
use super::table::{Bound, Entry, Table, turn_key};
use super::weights::Weights;
use crate::compile::{EndCondition, Outcome};
use crate::engine::outcome::Ending;
use crate::engine::{ExchangeValues, PartKind, Position, Turn};
use crate::random::Random;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses, nearer ones first.
const DECIDED: i32 = WIN - 1000;
const MAX_PLY: usize = 64;
/// Captures searched beyond the horizon, at most.
const CAPTURE_PLIES: usize = 6;
/// The half-width of the window an iteration first searches around the last one's score.
const ASPIRATION: i32 = 40;
/// How much more than the piece it takes a capture must be able to win, beyond the horizon,
/// to be searched where it cannot bring the score up to the window.
const DELTA_MARGIN: i32 = 200;
/// Noise added to leaf scores, so that different seeds play different games.
const NOISE: u64 = 8;
/// How far apart readings of the clock should be: often enough to stop within a few
/// milliseconds of the deadline, rarely enough to cost nothing measurable.
const CLOCK_SPACING: Duration = Duration::from_micros(100);
/// The transposition table's size unless told otherwise.
pub const DEFAULT_TABLE_BYTES: usize = 8 << 20;
/// The most nodes between readings of the clock, where nodes are fast.
const MAX_CLOCK_INTERVAL: u64 = 256;

/// The deepest remaining depth at which a node whose static score stands far enough beyond
/// its window returns without searching (see [`Searcher::cutoff`]).
const CUTOFF_DEPTH: usize = 3;

/// The deepest remaining depth at which quiet turns that give no check are skipped where the
/// static score falls far short of the window (see [`Searcher::cutoff`]), or where they come
/// late in the order (see [`late_quiets`]).
const FUTILITY_DEPTH: usize = 2;

/// How many turns, at the least, a node near the horizon searches before it skips the quiet
/// turns that give no check (see [`late_quiets`]).
const LATE_QUIETS: usize = 6;

/// The least remaining depth at which the player to move may pass to show that its position
/// is too good for the opponent to allow (see [`Searcher::pass_refutes`]).
const PASS_DEPTH: usize = 3;

/// How many plies shallower than its turns a pass is searched, at the least: a third of the
/// depth is added.
const PASS_REDUCTION: usize = 3;

/// The least remaining depth at which a node the table knows no best turn of is searched a
/// ply shallower.
const UNKNOWN_REDUCTION_DEPTH: usize = 4;

/// How far a turn's history may rise above or fall below nothing.
const HISTORY_LIMIT: i32 = 1 << 14;

/// How many quiet turns searched in vain at a node the history remembers, at most.
const FAILED_QUIETS: usize = 32;

/// The rank of a turn already searched, below every other: ranks are never negative.
const TAKEN: i64 = -1;

/// The most threads one search may run.
pub const MAX_THREADS: usize = 64;

/// A computer player for one rule file.
pub struct Searcher {
    evaluator: Evaluator,
    /// Shared with the helper threads, each of which searches the same root in its own order
    /// and leaves what it finds here for the others (the lazy form of a parallel search).
    table: Arc<Table>,
    /// The threads that search beside this one, `threads - 1` of them once a search starts.
    helpers: Vec<Searcher>,
    threads: usize,
    /// During a search of several threads, every thread's nodes: each adds its own at each
    /// reading of its clock, and stops once they reach the node limit.
    shared_nodes: Option<Arc<AtomicU64>>,
    /// The nodes of this thread already added there.
    reported: u64,
    /// The first depth of the iterative deepening: a helper may start a ply deeper, so that
    /// the threads do not all search the same depth at the same time.
    first_depth: usize,
    /// Per ply, the two latest quiet turns that cut the search off there.
    killers: Vec<[Option<Turn>; 2]>,
    /// How well a quiet turn from one square to another has done: raised where it cut the
    /// search off, lowered where another quiet turn did after it was searched, weighted by
    /// depth and kept within [`HISTORY_LIMIT`] either way; indexed by
    /// [`Searcher::history_slot`].
    history: Vec<i32>,
    squares: usize,
    lists: Vec<Vec<Turn>>,
    /// Per ply, the ranks of its list's turns (see [`Searcher::rank`]).
    ranks: Vec<Vec<i64>>,
    scratch: Vec<Turn>,
    me: usize,
    nodes: u64,
    deadline: Option<Instant>,
    /// The most nodes to search, if limited.
    max_nodes: u64,
    /// Set from outside to stop the search (an engine protocol's `stop`).
    stop: Option<Arc<AtomicBool>>,
    /// The clock is read every this many nodes: fewer where nodes are slow, so that a large
    /// board or many players cannot carry the search far past its deadline.
    check_every: u64,
    until_check: u64,
    last_check: Instant,
    stopped: bool,
    /// Sets the noise of leaf scores, the same in every thread of a search.
    seed: u64,
    /// Shuffles the root's turns: a helper's own, so that each searches them in its order.
    root_seed: u64,
    /// The player the table's scores are for, if it holds any: scores are the searching
    /// player's, so a search for another player starts from an empty table.
    table_side: Option<usize>,
    /// A position repeated within the search scores as a draw: the file draws repetitions.
    repetition_draws: bool,
    /// A turn that gives check is searched one ply deeper: the file has royal pieces.
    check_extends: bool,
    /// The hash of the position last asked whether its player is in check, and the answer.
    last_check_read: Option<(u64, bool)>,
    /// Where every capture replaces the one piece it takes, and could be taken back as the
    /// attack tables know (legality by pins or by making and testing; no custodian capture,
    /// explosion or trigger): the values a capture's exchange is read with, to order the
    /// captures and to skip, beyond the horizon, those that lose or cannot matter (see
    /// [`Searcher::futile`]).
    exchange: Option<Arc<ExchangeValues>>,
    /// Beyond the horizon, a player not in check needs its captures alone: the file is won by
    /// royal pieces, every turn is one move or drop, and nothing but a draw ends a game while
    /// moves remain, so that an empty list of all turns only a check could make a loss.
    captures_alone: bool,
    /// How far beyond the window a node's static score must stand, per ply of depth left, for
    /// the node to return it unsearched; `None` where the static score cannot be trusted so
    /// (see [`Searcher::cutoff`]).
    cutoff_margin: Option<i32>,
    /// The static cutoff may come before the node's turns are generated, and quiet turns may
    /// be skipped: nothing but the turns (or a draw) ends the game, or what else may end it
    /// is told without them (see [`Searcher::test_early_end`]), so neither hides an end.
    cutoff_before_turns: bool,
    /// An end rule may end the game while turns remain, and can most of the time be told
    /// without them: a node cut off or passed before its turns, or a quiet turn skipped,
    /// first asks whether the game goes on, and is searched in full where that is not told.
    test_early_end: bool,
    /// Where the player to move may pass in the search to test its position (two players,
    /// the static cutoff before turns, no hands), the kinds of which the passer needs a piece
    /// on the board: those worth more than the least, so that a pass is unlikely to be better
    /// than every turn (zugzwang).
    pass_kinds: Option<u64>,
    /// The ply of the pass on the line being searched, if any: two passes never follow.
    passed_at: Option<usize>,
}

/// What a search found.
#[derive(Clone)]
pub struct Choice {
    pub turn: Turn,
    /// For the player to move: above [`DECIDED`] a forced win, below its negation a loss.
    pub score: i32,
    pub depth: usize,
    pub nodes: u64,
    /// The turns the search expects, its choice first.
    pub line: Vec<Turn>,
}

/// How an iteration at the root ended.
enum Iteration {
    /// Searched every turn: the best and its score.
    Finished(Turn, i32),
    /// Stopped at a limit: the turn that beat the one searched first, and its score, if any.
    Stopped(Option<(Turn, i32)>),
}

/// When a search stops: at the first limit reached, or when told to. With none, it stops
/// once it has searched as deep as it can or found a forced result.
#[derive(Clone, Default)]
pub struct Limits {
    /// The moment to stop thinking.
    pub deadline: Option<Instant>,
    /// The deepest iteration, in plies.
    pub depth: Option<usize>,
    /// About how many nodes to search at most.
    pub nodes: Option<u64>,
    /// Stops the search when set, from another thread.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Thinking for `think` from now.
    pub fn think(think: Duration) -> Self {
        Limits {
            deadline: Some(Instant::now() + think),
            ..Limits::default()
        }
    }
}

/// Plies to a forced result, where the score is one: positive for a win.
pub fn plies_to_result(score: i32) -> Option<i32> {
    match score {
        score if score >= DECIDED => Some(WIN - score),
        score if score <= -DECIDED => Some(-(WIN + score)),
        _ => None,
    }
}

impl Choice {
    /// The score in words, for the player who moves: a forced result with the plies to it, or
    /// the evaluation (100 is about a Pawn where the game has one).
    pub fn outlook(&self) -> String {
        let plies = |n: i32| match n {
            1 => "1 ply".to_string(),
            n => format!("{n} plies"),
        };
        match plies_to_result(self.score) {
            Some(n) if n > 0 => format!("a win in {}", plies(n)),
            Some(n) => format!("a loss in {}", plies(-n)),
            None => format!("evaluation {:+}", self.score),
        }
    }
}

impl Searcher {
    pub fn new(rules: &crate::compile::Ruleset, seed: u64) -> Self {
        Searcher::weighted(rules, seed, None, DEFAULT_TABLE_BYTES)
    }

    /// A player that evaluates with `weights` (those derived from the rule file if none),
    /// whose transposition table takes at most `bytes` (at least one entry).
    pub fn weighted(
        rules: &crate::compile::Ruleset,
        seed: u64,
        weights: Option<&Weights>,
        bytes: usize,
    ) -> Self {
        let table = Arc::new(Table::new(bytes));
        let evaluator = match weights {
            Some(weights) => Evaluator::weighted(rules, weights),
            None => Evaluator::new(rules),
        };
        Searcher::sharing(rules, seed, evaluator, table)
    }

    /// A player with this evaluation and table.
    fn sharing(
        rules: &crate::compile::Ruleset,
        seed: u64,
        evaluator: Evaluator,
        table: Arc<Table>,
    ) -> Self {
        let squares = rules.geometry.squares();
        let royal: Vec<bool> = rules.pieces.kinds.iter().map(|kind| kind.royal).collect();
        let exchanges_read = matches!(
            rules.derived.legality,
            crate::compile::Legality::Pins | crate::compile::Legality::MakeAndTest
        ) && rules.captures.custodian.is_empty()
            && rules.captures.explosion.is_none()
            && rules.turns.triggers.is_empty();
        let cutoff_margin = cutoff_margin(rules, &evaluator.values);
        // Nothing but the turns (or a draw) ends the game: no end hides behind a static score
        // or an empty list of captures.
        let turns_end_alone = (rules.endings.rules.iter())
            .all(|&(outcome, condition)| outcome == Outcome::Draw || !condition.ends_early());
        let test_early_end = !turns_end_alone && rules.derived.ends_told_before_turns;
        let cutoff_before_turns = turns_end_alone || test_early_end;
        let pass_kinds = (cutoff_margin.is_some() && cutoff_before_turns)
            .then(|| kinds_a_pass_needs(rules, &evaluator.values))
            .flatten();
        Searcher {
            exchange: exchanges_read
                .then(|| Arc::new(ExchangeValues::new(&evaluator.values, &royal))),
            evaluator,
            table,
            table_side: None,
            helpers: Vec::new(),
            threads: 1,
            shared_nodes: None,
            reported: 0,
            first_depth: 1,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; (squares + 1) * (squares + 1)],
            squares,
            lists: per_ply(),
            ranks: per_ply(),
            scratch: Vec::new(),
            me: 0,
            nodes: 0,
            deadline: None,
            max_nodes: u64::MAX,
            stop: None,
            check_every: 1,
            until_check: 1,
            last_check: Instant::now(),
            stopped: false,
            seed,
            root_seed: seed,
            repetition_draws: (rules.endings.rules.iter()).any(|&(outcome, condition)| {
                outcome == Outcome::Draw && matches!(condition, EndCondition::Repeated(_))
            }),
            check_extends: rules.derived.royal,
            last_check_read: None,
            captures_alone: rules.derived.royal && rules.derived.countable && turns_end_alone,
            pass_kinds,
            passed_at: None,
            cutoff_margin,
            cutoff_before_turns,
            test_early_end,
        }
    }

    /// The best turn found for the player to move within `think`; `None` if there is no
    /// legal turn.
    pub fn choose(&mut self, position: &mut Position<'_>, think: Duration) -> Option<Choice> {
        self.search(position, &Limits::think(think), &mut |_| {})
    }

    /// Searches with `threads` threads from now on (1 to [`MAX_THREADS`]).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
        self.helpers.truncate(self.threads - 1);
    }

    /// The best turn found for the player to move within `limits`, telling `report` what each
    /// finished iteration found; `None` if there is no legal turn. With helper threads, each
    /// searches the same position until this one stops; the choice is this thread's, found
    /// with what they left in the table, and the nodes are every thread's.
    pub fn search(
        &mut self,
        position: &mut Position<'_>,
        limits: &Limits,
        report: &mut dyn FnMut(&Choice),
    ) -> Option<Choice> {
        let side = position.to_move();
        if self
            .table_side
            .replace(side)
            .is_some_and(|last| last != side)
        {
            self.table.clear();
        }
        if self.threads == 1 {
            return self.search_alone(position, limits, report);
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        while helpers.len() < self.threads - 1 {
            let (evaluator, table) = (self.evaluator.clone(), Arc::clone(&self.table));
            let mut helper = Searcher::sharing(position.rules(), self.seed, evaluator, table);
            helper.root_seed = self.seed ^ (helpers.len() as u64 + 1).wrapping_mul(0x9E37_79B9);
            helper.first_depth = 1 + helpers.len() % 2;
            helpers.push(helper);
        }
        let done = Arc::new(AtomicBool::new(false));
        let shared_nodes = Arc::new(AtomicU64::new(0));
        let helper_limits = Limits {
            deadline: limits.deadline,
            nodes: limits.nodes,
            stop: Some(Arc::clone(&done)),
            ..Limits::default()
        };
        let choice = std::thread::scope(|scope| {
            for helper in &mut helpers {
                helper.shared_nodes = Some(Arc::clone(&shared_nodes));
                let (mut copy, limits) = (position.clone(), &helper_limits);
                scope.spawn(move || helper.search_alone(&mut copy, limits, &mut |_| {}));
            }
            self.shared_nodes = Some(Arc::clone(&shared_nodes));
            // Set however the main search ends, a panic included, so the helpers never outlive it.
            let _stops_helpers = SetOnDrop(&done);
            self.search_alone(position, limits, report)
        });
        self.helpers = helpers;
        self.shared_nodes = None;
        choice.map(|choice| Choice {
            nodes: shared_nodes.load(Ordering::Relaxed),
            ..choice
        })
    }

    /// The search of one thread.
    fn search_alone(
        &mut self,
        position: &mut Position<'_>,
        limits: &Limits,
        report: &mut dyn FnMut(&Choice),
    ) -> Option<Choice> {
        let started = Instant::now();
        self.deadline = limits.deadline;
        self.max_nodes = limits.nodes.unwrap_or(u64::MAX);
        self.stop = limits.stop.clone();
        self.check_every = 1;
        self.until_check = 1;
        self.last_check = started;
        self.me = position.to_move();
        self.nodes = 0;
        self.reported = 0;
        self.stopped = false;
        self.killers.fill([None; 2]);
        self.history.fill(0);
        let mut root = Vec::new();
        position.legal_turns(&mut root);
        let mut random = Random::new(self.root_seed ^ position.hash());
        random.shuffle(&mut root);
        let mut best = Choice {
            turn: *root.first()?,
            score: 0,
            depth: 0,
            nodes: 0,
            line: vec![root[0]],
        };
        if root.len() == 1 {
            return Some(best);
        }
        // Where one generation can outlast the budget, it stops at the deadline too.
        position.set_deadline(self.deadline);
        let last = limits.depth.unwrap_or(MAX_PLY).clamp(1, MAX_PLY);
        for depth in self.first_depth.min(last)..=last {
            let (turn, score) = match self.aspire(position, &mut root, depth, best.score) {
                Iteration::Finished(turn, score) => (turn, score),
                Iteration::Stopped(found) => {
                    // A turn that beat the last iteration's choice, searched in full, is the
                    // better guess: the deeper search has seen what the shallower missed.
                    if let Some((turn, score)) = found {
                        let line = self.line(position, turn, best.depth.max(1));
                        best = Choice {
                            turn,
                            score,
                            line,
                            ..best
                        };
                    }
                    break;
                }
            };
            best = Choice {
                turn,
                score,
                depth,
                nodes: self.all_nodes(),
                line: self.line(position, turn, depth),
            };
            report(&best);
            if score.abs() >= DECIDED {
                break;
            }
        }
        position.set_deadline(None);
        self.report_nodes();
        best.nodes = self.nodes;
        Some(best)
    }

    /// The nodes of the search so far: this thread's, and the others' as they last added them.
    fn all_nodes(&self) -> u64 {
        let others = (self.shared_nodes.as_ref()).map_or(0, |n| n.load(Ordering::Relaxed));
        others + self.nodes - self.reported
    }

    /// Adds the nodes this thread searched since it last did to the search's count.
    fn report_nodes(&mut self) {
        if let Some(nodes) = &self.shared_nodes {
            nodes.fetch_add(self.nodes - self.reported, Ordering::Relaxed);
            self.reported = self.nodes;
        }
    }

    /// The line the table remembers after `first`, at most `depth` turns long, each checked
    /// legal before it is followed.
    fn line(&mut self, position: &mut Position<'_>, first: Turn, depth: usize) -> Vec<Turn> {
        let mut line = vec![first];
        position.make(&first);
        let mut turns = Vec::new();
        while line.len() < depth {
            let Some(entry) = self.table.get(position.hash()) else {
                break;
            };
            position.legal_turns(&mut turns);
            let Some(&next) = turns.iter().find(|turn| turn_key(turn) == entry.best) else {
                break;
            };
            position.make(&next);
            line.push(next);
        }
        line.iter().for_each(|_| position.unmake());
        line
    }

    /// One iteration, first within a narrow window around the last iteration's score
    /// (`guess`), again with a full one if the score falls outside it.
    fn aspire(
        &mut self,
        position: &mut Position<'_>,
        root: &mut [Turn],
        depth: usize,
        guess: i32,
    ) -> Iteration {
        if depth >= 4 && guess.abs() < DECIDED {
            let (low, high) = (guess - ASPIRATION, guess + ASPIRATION);
            match self.root(position, root, depth, low, high) {
                Iteration::Finished(_, score) if score <= low || score >= high => {}
                iteration => return iteration,
            }
        }
        self.root(position, root, depth, -WIN, WIN)
    }

    /// One iteration at the root within (`alpha`, `beta`): the best turn and its score, or,
    /// if the search stopped before it finished, the turn that beat the first one (the last
    /// iteration's choice) if one did. The first turn is searched with the whole window, the
    /// others with a null one first, again only if they may be better. The best turn moves to
    /// the front for the next iteration.
    fn root(
        &mut self,
        position: &mut Position<'_>,
        root: &mut [Turn],
        depth: usize,
        mut alpha: i32,
        beta: i32,
    ) -> Iteration {
        let mut best = 0;
        let mut best_score = -WIN;
        for (index, turn) in root.iter().enumerate() {
            position.make(turn);
            let mut score = match index {
                0 => self.value(position, depth - 1, alpha, beta, 1),
                _ => self.value(position, depth - 1, alpha, alpha + 1, 1),
            };
            if index > 0 && score > alpha && score < beta && !self.stopped {
                score = self.value(position, depth - 1, alpha, beta, 1);
            }
            position.unmake();
            if self.stopped {
                return Iteration::Stopped((best != 0).then(|| (root[best], best_score)));
            }
            if score > best_score {
                best_score = score;
                best = index;
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        root[..=best].rotate_right(1);
        Iteration::Finished(root[0], best_score)
    }

    /// The position's score for the searching player, within (alpha, beta).
    fn value(
        &mut self,
        position: &mut Position<'_>,
        depth: usize,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        if self.out_of_time() {
            return 0;
        }
        if position.alive() & (1 << self.me) == 0 {
            return -WIN + ply as i32;
        }
        if depth == 0 || ply >= MAX_PLY {
            return self.captures(position, alpha, beta, ply, CAPTURE_PLIES);
        }
        // Going back to a position of the game or the line is a draw in the making: the side
        // ahead looks for another way, as the rule file would draw it at the last repetition.
        if self.repetition_draws && position.occurrences() > 1 {
            return 0;
        }
        // The table is read before the turns are generated: a position it holds had turns
        // (an ended one is never stored), and a cut-off spares their generation.
        let stored = self.table.get(position.hash());
        if let Some(entry) = stored.filter(|entry| entry.depth as usize >= depth) {
            match entry.bound {
                Bound::Exact => return entry.score,
                Bound::Lower => alpha = alpha.max(entry.score),
                Bound::Upper => beta = beta.min(entry.score),
            }
            if alpha >= beta {
                return entry.score;
            }
        }
        // A node of which the table knows no best turn is searched a ply shallower: its turns
        // come in a poorer order, and the next iteration comes back to it knowing one.
        let depth = match stored.is_none_or(|entry| entry.best == 0) {
            true if depth >= UNKNOWN_REDUCTION_DEPTH => depth - 1,
            _ => depth,
        };
        let maximising = position.to_move() == self.me;
        let stand = self.shallow_stand(position, depth, alpha, beta);
        let cut = stand.and_then(|stand| self.cutoff(stand, depth, alpha, beta, maximising));
        if let (Some(score), true) = (cut, self.cutoff_before_turns)
            && self.goes_on(position)
        {
            return score;
        }
        if let Some(score) = self.pass_refutes(position, depth, (alpha, beta), ply, stand) {
            return score;
        }
        let list = match self.turns_at(position, ply) {
            Ok(list) => list,
            Err(score) => return score,
        };
        // Where the game may end while turns remain, only a position with turns has not.
        if let Some(score) = cut {
            self.lists[ply] = list;
            return score;
        }
        let mut ranks = std::mem::take(&mut self.ranks[ply]);
        self.rank(
            position,
            &list,
            stored.map(|entry| entry.best),
            ply,
            &mut ranks,
        );
        let (start_alpha, start_beta) = (alpha, beta);
        let mut best_score = if maximising { -WIN } else { WIN };
        let mut best_turn = None;
        // The quiet turns searched without a cutoff, by their place in the list: the history
        // lowers them where a later quiet turn cuts the node off.
        let mut failed_quiets = [0; FAILED_QUIETS];
        let mut failed = 0;
        for index in 0..list.len() {
            let at = take_best(&mut ranks);
            let turn = &list[at];
            let futile = self.futile_quiet(turn, index, depth, stand, (alpha, beta), maximising);
            let taken = self.worth_on(position, turn.main().to);
            position.make(turn);
            // A futile quiet turn is skipped unless it gives check or ends the game.
            if futile && !self.in_check(position) && self.goes_on(position) {
                position.unmake();
                continue;
            }
            let step = Step { index, turn, taken };
            let score = self.child(position, depth, (alpha, beta), ply, maximising, step);
            position.unmake();
            if self.stopped {
                break;
            }
            let better = if maximising {
                score > best_score
            } else {
                score < best_score
            };
            if better {
                best_score = score;
                best_turn = Some(*turn);
            }
            if maximising {
                alpha = alpha.max(score);
            } else {
                beta = beta.min(score);
            }
            if alpha >= beta {
                let failed = failed_quiets[..failed].iter().map(|&at| &list[at]);
                self.remember_cut(turn, ply, depth, failed);
                break;
            }
            if is_quiet(turn) && failed < FAILED_QUIETS {
                failed_quiets[failed] = at;
                failed += 1;
            }
        }
        self.lists[ply] = list;
        self.ranks[ply] = ranks;
        if !self.stopped {
            let bound = if best_score <= start_alpha {
                Bound::Upper
            } else if best_score >= start_beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let entry = Entry {
                depth: depth as u8,
                bound,
                score: best_score,
                best: best_turn.map_or(0, |turn| turn_key(&turn)),
            };
            self.table.put(position.hash(), entry);
        }
        best_score
    }

    /// The static score of a node near the horizon, off the principal line (a null window)
    /// and not in check, where the file lets it be trusted that far (see [`cutoff_margin`]):
    /// what [`Searcher::cutoff`] judges the node, and its quiet turns, by.
    fn shallow_stand(
        &mut self,
        position: &Position<'_>,
        depth: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        self.cutoff_margin?;
        if depth > CUTOFF_DEPTH || !self.may_prune(position, alpha, beta) {
            return None;
        }
        Some(self.static_score(position, false))
    }

    /// Whether the game goes on at the node as far as can be told before its turns: no end
    /// rule that may come while turns remain holds (asked only where the file has one), and
    /// none needs the turns to tell.
    fn goes_on(&mut self, position: &mut Position<'_>) -> bool {
        !self.test_early_end || position.ends_before_turns() == Some(false)
    }

    /// Whether a node may be pruned by its static score or a pass: off the principal line (a
    /// null window), its window not near a decided score, and its player not in check.
    fn may_prune(&mut self, position: &Position<'_>, alpha: i32, beta: i32) -> bool {
        beta - alpha == 1 && alpha.abs() < DECIDED && !self.in_check(position)
    }

    /// The node's bound where the player to move, passing, still stands beyond the window
    /// after a search a few plies shallower: a turn would do at least as well, but for
    /// zugzwang, which [`Searcher::pass_kinds`] makes unlikely. Only off the principal
    /// line, out of check, not right after another pass, and where the static score
    /// (`stand`, if already read) stands beyond the window too.
    fn pass_refutes(
        &mut self,
        position: &mut Position<'_>,
        depth: usize,
        (alpha, beta): (i32, i32),
        ply: usize,
        stand: Option<i32>,
    ) -> Option<i32> {
        let kinds = self.pass_kinds?;
        if depth < PASS_DEPTH
            || self.passed_at.is_some_and(|at| at + 1 == ply)
            || !position.has_any_of(position.to_move(), kinds)
            || !self.may_prune(position, alpha, beta)
            || !self.goes_on(position)
        {
            return None;
        }
        let maximising = position.to_move() == self.me;
        let stand = stand.unwrap_or_else(|| self.static_score(position, false));
        if (maximising && stand < beta) || (!maximising && stand > alpha) {
            return None;
        }
        let reduced = depth.saturating_sub(1 + PASS_REDUCTION + depth / 3);
        position.make(&Turn::EMPTY);
        let outer = self.passed_at.replace(ply);
        let score = self.value(position, reduced, alpha, beta, ply + 1);
        self.passed_at = outer;
        position.unmake();
        if self.stopped {
            return None;
        }
        match maximising {
            true => (score >= beta).then_some(beta),
            false => (score <= alpha).then_some(alpha),
        }
    }

    /// The node's score unsearched, where its static score `stand` stands beyond the window
    /// by a margin that grows with the depth left: the turns are unlikely to bring it back.
    fn cutoff(
        &self,
        stand: i32,
        depth: usize,
        alpha: i32,
        beta: i32,
        maximising: bool,
    ) -> Option<i32> {
        let margin = self.cutoff_margin? * depth as i32;
        match maximising {
            true => (stand - margin >= beta).then_some(stand - margin),
            false => (stand + margin <= alpha).then_some(stand + margin),
        }
    }

    /// Whether the `index`th turn of a node near the horizon is a quiet turn not worth
    /// searching, should it give no check: one ranked so late that it is unlikely to matter,
    /// or one that cannot bring the static score `stand`, far short of the window, up to it
    /// (the cutoff as the other side would read it). Never the first turn, and only at a
    /// node whose static score was read (see [`Searcher::shallow_stand`]).
    fn futile_quiet(
        &self,
        turn: &Turn,
        index: usize,
        depth: usize,
        stand: Option<i32>,
        (alpha, beta): (i32, i32),
        maximising: bool,
    ) -> bool {
        index > 0
            && depth <= FUTILITY_DEPTH
            && self.cutoff_before_turns
            && is_quiet(turn)
            && stand.is_some_and(|stand| {
                index >= late_quiets(depth)
                    || (self.cutoff(stand, depth, alpha, beta, !maximising)).is_some()
            })
    }

    /// The value of the position after the parent's `index`th turn: the first searched in
    /// full, later ones first with a null window (and late quiet ones one ply shallower),
    /// searched again in full only if they may beat the best so far.
    fn child(
        &mut self,
        position: &mut Position<'_>,
        depth: usize,
        (alpha, beta): (i32, i32),
        ply: usize,
        maximising: bool,
        Step { index, turn, taken }: Step<'_>,
    ) -> i32 {
        // A check is searched a ply deeper (and never reduced), so that the replies to it, few
        // as they are, do not hide a mate or a loss of material behind the horizon. Not a
        // check that gives its piece away: where pieces can be dropped, most drops near the
        // royal piece give check, and extending them all would spend the search on drops
        // the next player simply takes.
        let checks = self.check_extends
            && ply < MAX_PLY / 2
            && self.in_check(position)
            && self.keeps_its_ground(position, turn, taken);
        let full = depth - usize::from(!checks);
        if index == 0 {
            return self.value(position, full, alpha, beta, ply + 1);
        }
        // Late quiet turns, ordered after the captures and the killers, seldom matter: the
        // later and the deeper, the shallower they are searched, a ply less so on the
        // principal line. A reduced search keeps at least a ply of its own.
        let late = index >= 3 && depth >= 3 && is_quiet(turn) && !checks;
        let reduction = match late {
            true => late_reduction(depth, index, turn.main().kind == PartKind::Drop)
                .saturating_sub(usize::from(beta - alpha > 1)),
            false => 0,
        };
        let reduced = full - reduction.min(full - 1);
        let (low, high) = match maximising {
            true => (alpha, alpha + 1),
            false => (beta - 1, beta),
        };
        let score = self.value(position, reduced, low, high, ply + 1);
        let may_improve = match maximising {
            true => score > alpha,
            false => score < beta,
        };
        match may_improve && !self.stopped {
            true => self.value(position, full, alpha, beta, ply + 1),
            false => score,
        }
    }

    /// Beyond the horizon: the static score, unless a capture changes it. Each side may
    /// decline to capture, but where captures are compulsory and one is possible: then the
    /// captures alone are searched. The turns are generated only where a capture may be
    /// searched or the player is in check (so that checkmate is seen), as the static score
    /// comes first; where captures are compulsory, always, as only the turns tell whether the
    /// player may stand on it.
    fn captures(
        &mut self,
        position: &mut Position<'_>,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        left: usize,
    ) -> i32 {
        let checked = self.in_check(position);
        let stand = self.static_score(position, checked);
        let maximising = position.to_move() == self.me;
        let settled = if maximising {
            stand >= beta
        } else {
            stand <= alpha
        };
        let compulsory = position.rules().captures.compulsory;
        let done = (settled && !compulsory)
            || left == 0
            || ply >= self.lists.len() - 1
            || self.out_of_time();
        // Checkmate must be seen even at the horizon, so a player in check always looks on,
        // at every turn; the others at their captures alone where that is all they need.
        if done && !checked {
            return stand;
        }
        let mut list = match checked || compulsory || !self.captures_alone {
            true => match self.turns_at(position, ply) {
                Ok(list) => list,
                Err(score) => return score,
            },
            false => {
                let mut list = std::mem::take(&mut self.lists[ply]);
                position.legal_captures(&mut list);
                self.stopped |= position.timed_out();
                list
            }
        };
        // A player who must capture cannot stand on the static score.
        let must_capture = compulsory && list.first().is_some_and(|turn| turn.captures);
        if done || (settled && !must_capture) {
            self.lists[ply] = list;
            return stand;
        }
        match (must_capture, maximising) {
            (true, _) => {}
            (false, true) => alpha = alpha.max(stand),
            (false, false) => beta = beta.min(stand),
        }
        let (target, sign) = match maximising {
            true => (alpha, 1),
            false => (beta, -1),
        };
        list.retain(|turn| {
            turn.captures && (must_capture || !self.futile(position, turn, stand, target, sign))
        });
        let mut ranks = std::mem::take(&mut self.ranks[ply]);
        self.rank(position, &list, None, MAX_PLY, &mut ranks);
        let mut best = match (must_capture, maximising) {
            (false, _) => stand,
            (true, true) => -WIN,
            (true, false) => WIN,
        };
        for _ in 0..list.len() {
            let turn = &list[take_best(&mut ranks)];
            position.make(turn);
            let score = match position.alive() & (1 << self.me) {
                0 => -WIN + ply as i32,
                _ => self.captures(position, alpha, beta, ply + 1, left - 1),
            };
            position.unmake();
            if maximising {
                best = best.max(score);
                alpha = alpha.max(score);
            } else {
                best = best.min(score);
                beta = beta.min(score);
            }
            if alpha >= beta {
                break;
            }
        }
        self.lists[ply] = list;
        self.ranks[ply] = ranks;
        best
    }

    /// Whether a capture beyond the horizon is not worth searching, where exchanges are read:
    /// one that loses its exchange, or one whose piece, taken for nothing, cannot bring
    /// `stand` up to `target` (for the searching player where `sign` is 1, down to it where -1).
    fn futile(
        &self,
        position: &Position<'_>,
        turn: &Turn,
        stand: i32,
        target: i32,
        sign: i32,
    ) -> bool {
        if self.exchange.is_none() || !is_one_move(turn) {
            return false;
        }
        let taken = self.worth_on(position, turn.main().to);
        // A piece taken to the captor's hand is worth it twice: one side's loss, the other's gain.
        let gain = taken * (1 + i32::from(position.rules().captures.to_hand));
        let hopeless = sign * (stand - target) + gain + DELTA_MARGIN < 0;
        hopeless || self.loses_exchange(position, turn)
    }

    /// Whether `turn`, just made, taking a piece worth `taken`, does not lose material on
    /// the square it lands on: the next player's best exchange there wins no more than
    /// that. Where exchanges are not read, or for turns of several parts, it is taken to.
    fn keeps_its_ground(&self, position: &Position<'_>, turn: &Turn, taken: i32) -> bool {
        let Some(values) = &self.exchange else {
            return true;
        };
        let main = turn.main();
        let single = turn.len() == 1
            && matches!(
                main.kind,
                PartKind::Move | PartKind::Promote | PartKind::Drop
            );
        !single || position.exchange_on(main.to, values) <= taken
    }

    /// Whether the capture `turn` loses material once the pieces that can take on its square
    /// have taken in turn; only a capture by a piece worth more than it takes can, and only
    /// where exchanges are read.
    fn loses_exchange(&self, position: &Position<'_>, turn: &Turn) -> bool {
        let Some(values) = &self.exchange else {
            return false;
        };
        let main = turn.main();
        is_one_move(turn)
            && self.worth_on(position, main.to) < self.worth_on(position, main.from)
            && position.exchange(turn, values) < 0
    }

    /// The score of a position with no turn to search: won, lost, drawn, or too deep.
    fn ended(&mut self, position: &mut Position<'_>, ply: usize) -> i32 {
        match position.ending() {
            Some(Ending::Win { players, .. }) if players & (1 << self.me) != 0 => WIN - ply as i32,
            Some(Ending::Win { .. }) => -WIN + ply as i32,
            Some(Ending::Draw { .. }) => 0,
            None => {
                let checked = self.in_check(position);
                self.static_score(position, checked)
            }
        }
    }

    fn static_score(&mut self, position: &Position<'_>, checked: bool) -> i32 {
        let noise = (position.hash() ^ self.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58;
        let score = (self.evaluator).score_checked(position, self.me, checked, &mut self.scratch);
        score + (noise % NOISE) as i32
    }

    /// Whether the player to move is in check, where the file has royal pieces. A node asks
    /// up to three times (to extend, to score, to look on past the horizon): the last
    /// answer is kept for the position it was given for.
    fn in_check(&mut self, position: &Position<'_>) -> bool {
        let hash = position.hash();
        match self.last_check_read {
            Some((read, checked)) if read == hash => checked,
            _ => {
                let checked = eval::in_check(position);
                self.last_check_read = Some((hash, checked));
                checked
            }
        }
    }

    /// The value of the piece on `sq`; nothing for an empty or blocked square.
    fn worth_on(&self, position: &Position<'_>, sq: crate::compile::Sq) -> i32 {
        let code = position.board().get(sq as usize).copied().unwrap_or(0);
        (position.piece(code)).map_or(0, |(kind, _)| self.evaluator.values[kind])
    }

    /// Ranks `list`'s turns into `ranks`, the higher the sooner searched: the remembered best
    /// turn first, then captures of the most valuable pieces by the least valuable, then the
    /// quiet turns that cut off at this ply, then the captures that lose their exchange, then
    /// the rest by history. Beyond the horizon (`ply` at [`MAX_PLY`]) no turn is a killer and
    /// exchanges are not read again: the losing captures are gone already, unless captures
    /// are compulsory.
    fn rank(
        &self,
        position: &Position<'_>,
        list: &[Turn],
        first: Option<u64>,
        ply: usize,
        ranks: &mut Vec<i64>,
    ) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let worth = |sq| self.worth_on(position, sq);
        let gain = |turn: &Turn| -> i64 {
            if first.is_some_and(|key| key == turn_key(turn)) {
                return i64::MAX;
            }
            if turn.captures {
                let main = turn.main();
                let rank = match ply < MAX_PLY && self.loses_exchange(position, turn) {
                    true => 1,
                    false => 3,
                };
                return (rank << 32) + 64 * i64::from(worth(main.to)) - i64::from(worth(main.from));
            }
            match killers.iter().position(|k| *k == Some(*turn)) {
                Some(rank) => (2 << 32) - rank as i64,
                None => i64::from(HISTORY_LIMIT + self.history[self.history_slot(turn)]),
            }
        };
        ranks.clear();
        ranks.extend(list.iter().map(gain));
    }

    /// Remembers a quiet turn that cut the search off at `ply`, `depth` plies from the
    /// horizon, after the quiet turns `failed` were searched there in vain.
    fn remember_cut<'t>(
        &mut self,
        turn: &Turn,
        ply: usize,
        depth: usize,
        failed: impl Iterator<Item = &'t Turn>,
    ) {
        if turn.captures {
            return;
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(*turn) {
            killers[1] = killers[0];
            killers[0] = Some(*turn);
        }
        let bonus = (depth * depth).min(HISTORY_LIMIT as usize / 32) as i32;
        self.add_history(turn, bonus);
        for other in failed {
            self.add_history(other, -bonus);
        }
    }

    /// Moves a turn's history by `change`, the less the nearer it already is to the limit
    /// that way, so that it stays within it and recent results count more than old ones.
    fn add_history(&mut self, turn: &Turn, change: i32) {
        let slot = self.history_slot(turn);
        let history = &mut self.history[slot];
        *history += change - *history * change.abs() / HISTORY_LIMIT;
    }

    /// A turn's place in the history table: its main part's squares, where a missing square
    /// (a drop's origin, a pass's both) has a slot of its own.
    fn history_slot(&self, turn: &Turn) -> usize {
        let main = turn.main();
        let index = |sq| match sq {
            crate::compile::NO_SQUARE => self.squares,
            sq => sq as usize,
        };
        index(main.from) * (self.squares + 1) + index(main.to)
    }

    /// The legal turns at `ply`, in its reusable list; or the score to return instead: the
    /// position's end when it has none, nothing when the generation stopped at the deadline
    /// (its list short, the search stops, and nothing it found since counts).
    fn turns_at(&mut self, position: &mut Position<'_>, ply: usize) -> Result<Vec<Turn>, i32> {
        let mut list = std::mem::take(&mut self.lists[ply]);
        position.legal_turns(&mut list);
        self.stopped |= position.timed_out();
        if !self.stopped && !list.is_empty() {
            return Ok(list);
        }
        self.lists[ply] = list;
        Err(match self.stopped {
            true => 0,
            false => self.ended(position, ply),
        })
    }

    fn out_of_time(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        self.until_check -= 1;
        if self.until_check == 0 {
            self.read_clock();
        }
        self.stopped
    }

    /// Stops the search at the deadline, past its nodes or when told to, and spaces the next
    /// reading of the clock so that readings come about every 100 µs however long a node takes.
    fn read_clock(&mut self) {
        self.report_nodes();
        let now = Instant::now();
        let told = (self.stop.as_ref()).is_some_and(|stop| stop.load(Ordering::Relaxed));
        self.stopped = told
            || self.deadline.is_some_and(|deadline| now >= deadline)
            || self.all_nodes() >= self.max_nodes;
        self.check_every = match now - self.last_check > CLOCK_SPACING {
            true => (self.check_every / 2).max(1),
            false => (self.check_every * 2).min(MAX_CLOCK_INTERVAL),
        };
        // A search alone stops at exactly its nodes, so that one limited by nodes alone plays
        // the same turn however fast the machine runs.
        let nodes_left = self.max_nodes.saturating_sub(self.all_nodes()).max(1);
        self.until_check = self.check_every.min(nodes_left);
        self.last_check = now;
    }
}

/// Sets a flag when dropped.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The margin, per ply of depth left, of [`Searcher::cutoff`]: twice the least piece's value.
/// `None` where a static score may hide a forced turn or a won standstill: where captures are
/// compulsory or a player without moves wins.
fn cutoff_margin(rules: &crate::compile::Ruleset, values: &[i32]) -> Option<i32> {
    let trusted = !rules.captures.compulsory
        && (rules.endings.rules.iter()).all(|&(outcome, condition)| {
            outcome != Outcome::Win
                || !matches!(
                    condition,
                    EndCondition::NoMoves
                        | EndCondition::NoMovesCounted { .. }
                        | EndCondition::Stalemated
                )
        });
    trusted.then_some(2 * least_value(rules, values)?)
}

/// The value of the least valuable kind that is not royal and is worth something.
fn least_value(rules: &crate::compile::Ruleset, values: &[i32]) -> Option<i32> {
    (0..values.len())
        .filter(|&kind| !rules.pieces.kinds[kind].royal && values[kind] > 0)
        .map(|kind| values[kind])
        .min()
}

/// The kinds of which the player to move needs a piece on the board to pass in the search:
/// the non-royal kinds worth more than the least. `None` where a pass tells too little: with
/// more than two players (the next one is not the only opponent), or where pieces wait in
/// hand (a pass gives the opponent a free drop, whose threats a shallower search misreads:
/// passes lost in crazyhouse, 42.5% and 48.8% over 40 games each), or with no such kind.
fn kinds_a_pass_needs(rules: &crate::compile::Ruleset, values: &[i32]) -> Option<u64> {
    if rules.players.count() != 2 || rules.derived.hands {
        return None;
    }
    let least = least_value(rules, values)?;
    let kinds = (0..values.len())
        .filter(|&kind| !rules.pieces.kinds[kind].royal && values[kind] > least)
        .fold(0u64, |kinds, kind| kinds | 1 << kind);
    (kinds != 0).then_some(kinds)
}

/// An empty buffer for each ply a search may reach, captures beyond the horizon included.
fn per_ply<T>() -> Vec<Vec<T>> {
    (0..=MAX_PLY + CAPTURE_PLIES + 1)
        .map(|_| Vec::new())
        .collect()
}

/// The index of the highest rank left (the first of equals), marked taken. A list is
/// searched in rank order by taking its best turn when the search comes to it: most nodes
/// that cut off do so at their first turns, and the rest are then never ordered.
fn take_best(ranks: &mut [i64]) -> usize {
    let mut best = 0;
    for (index, &rank) in ranks.iter().enumerate() {
        if rank > ranks[best] {
            best = index;
        }
    }
    ranks[best] = TAKEN;
    best
}

/// A turn searched at a node: its place in the node's order, and the worth of the piece it
/// took (nothing where its main move lands on an empty square).
struct Step<'t> {
    index: usize,
    turn: &'t Turn,
    taken: i32,
}

/// How many plies shallower than the others the `index`th turn of a node `depth` plies from
/// the horizon is searched, where it is late and quiet: growing with the logarithms of both,
/// as a turn ranked late at a deep node is the least likely to matter. A drop a ply more:
/// a player with pieces in hand has a drop for nearly every empty square, of which a late
/// one is the least likely of all (in crazyhouse the extra ply won 50 of 80 games against
/// the search without it; in minishogi, 19 of 40 with a draw).
fn late_reduction(depth: usize, index: usize, drop: bool) -> usize {
    let (depth, index) = (depth as f64, index as f64);
    (0.5 + depth.ln() * index.ln() / 2.0) as usize + usize::from(drop)
}

/// How many turns a node `depth` plies from the horizon searches before its quiet turns
/// that give no check are skipped: more the further from the horizon, as a turn ranked late
/// there has more plies left to show what it threatens.
fn late_quiets(depth: usize) -> usize {
    LATE_QUIETS + 2 * depth * depth
}

/// A turn that neither captures nor promotes.
fn is_quiet(turn: &Turn) -> bool {
    !turn.captures && turn.main().kind != PartKind::Promote
}

/// Whether `turn` is one move alone, whose exchange the attack tables can read.
fn is_one_move(turn: &Turn) -> bool {
    turn.len() == 1 && turn.main().kind == PartKind::Move
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compiled;
    use crate::notation::{fen, moves};

    /// Static cutoffs are made except where a static score may hide a forced turn or a won
    /// standstill (compulsory captures, a win for a player without moves); before the
    /// node's turns are generated, and with quiet turns skipped, where nothing but the turns
    /// (or a draw) ends the game, or where what else may end it while turns remain (a royal
    /// piece taken, a counter reached, Yagbap's Amazon immobilized) is asked first.
    #[test]
    fn static_cutoffs_are_for_files_whose_end_a_static_score_cannot_hide() {
        let cutoffs = |text: &str| {
            let searcher = Searcher::new(&compiled(text), 1);
            (
                searcher.cutoff_margin,
                searcher.cutoff_before_turns,
                searcher.test_early_end,
            )
        };
        let pawn = |text: &str| Evaluator::new(&compiled(text)).values[5];
        let chess = include_str!("../../rules/chess.rules");
        assert_eq!(cutoffs(chess), (Some(2 * pawn(chess)), true, false));
        assert!(matches!(
            cutoffs(include_str!("../../rules/crazyhouse.rules")),
            (Some(_), true, false)
        ));
        for file in [
            include_str!("../../rules/amphora.rules"),
            include_str!("../../rules/yonin-bishogi.rules"),
            include_str!("../../variants/3check.rules"),
            include_str!("../../rules/yagbap.rules"),
        ] {
            assert!(matches!(cutoffs(file), (Some(_), true, true)));
        }
        for file in [
            include_str!("../../rules/giveaway.rules"),
            include_str!("../../rules/ghostarelay.rules"),
        ] {
            assert_eq!(cutoffs(file).0, None);
        }
    }

    /// A node near the horizon, off the principal line and not in check, returns its static
    /// score where it stands beyond the window by the depth's margin, for either side; and
    /// skips quiet turns where it falls that far short.
    #[test]
    fn a_node_far_beyond_its_window_is_cut_off() {
        let rules = compiled(include_str!("../../rules/chess.rules"));
        let mut searcher = Searcher::new(&rules, 1);
        let queen_up = "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1";
        let position = fen::read(&rules, queen_up).expect("a position");
        searcher.me = 0;
        let stand = searcher.shallow_stand(&position, 1, 0, 1).expect("a stand");
        assert!(stand > 1000, "stood at {stand}");
        let margin = searcher.cutoff_margin.expect("a margin");
        assert_eq!(searcher.cutoff(stand, 1, 0, 1, true), Some(stand - margin));
        assert_eq!(searcher.cutoff(stand, 2, stand - 1, stand, true), None);
        assert_eq!(
            searcher.cutoff(-stand, 1, 0, 1, false),
            Some(-stand + margin)
        );
        // Read for the other side, the cutoff makes the maximiser's quiet turns futile where
        // the score falls the margin short of alpha, and not a point less.
        let short = |alpha: i32| searcher.cutoff(stand, 1, alpha, alpha + 1, false);
        assert!(short(stand + margin).is_some());
        assert!(short(stand + margin - 1).is_none());
        // Not on the principal line, not deeper than the cutoff depth, not in check.
        assert_eq!(searcher.shallow_stand(&position, 1, 0, 2), None);
        assert_eq!(
            searcher.shallow_stand(&position, CUTOFF_DEPTH + 1, 0, 1),
            None
        );
        let checked = fen::read(&rules, "4k3/8/8/8/8/8/3Q4/4Kr2 w - - 0 1").expect("a position");
        assert_eq!(searcher.shallow_stand(&checked, 1, 0, 1), None);
    }

    /// A node whose static score would cut it off, but whose player to move has already lost
    /// by an end that needs no turns (a third check), scores the loss.
    #[test]
    fn a_game_ended_early_is_not_cut_off_by_its_static_score() {
        let rules = compiled(include_str!("../../variants/3check.rules"));
        let mut searcher = Searcher::new(&rules, 1);
        searcher.me = 0;
        let queen_up = |checks: &str| {
            let text = format!("4k3/3q4/8/8/8/8/8/4K3 b - - 0 1 checks={checks}");
            fen::read(&rules, &text).expect("a position")
        };
        let stand = searcher
            .shallow_stand(&queen_up("0,2"), 1, 0, 1)
            .expect("a stand");
        let cut = searcher.cutoff(stand, 1, 0, 1, false).expect("a cutoff");
        assert_eq!(searcher.value(&mut queen_up("0,2"), 1, 0, 1, 1), cut);
        let won = searcher.value(&mut queen_up("0,3"), 1, 0, 1, 1);
        assert!(won > DECIDED, "scored {won}");
    }

    /// A pass is tried in two-player files with no hands whose end no static score hides,
    /// and needs a piece worth more than the least (a Pawn is not enough in chess).
    #[test]
    fn passes_are_tried_where_a_pass_is_a_fair_test() {
        let kinds = |text: &str| Searcher::new(&compiled(text), 1).pass_kinds;
        let chess = compiled(include_str!("../../rules/chess.rules"));
        let pieces = (0..chess.pieces.kinds.len())
            .map(|kind| (chess.pieces.kinds[kind].name.as_str(), 1u64 << kind));
        let expected = pieces
            .filter(|(name, _)| !matches!(*name, "King" | "Pawn"))
            .fold(0, |set, (_, bit)| set | bit);
        assert_eq!(
            kinds(include_str!("../../rules/chess.rules")),
            Some(expected)
        );
        for file in [
            include_str!("../../rules/crazyhouse.rules"),
            include_str!("../../rules/amphora.rules"),
            include_str!("../../rules/yonin-bishogi.rules"),
            include_str!("../../rules/yagbap.rules"),
            include_str!("../../rules/ghostarelay.rules"),
        ] {
            assert_eq!(kinds(file), None);
        }
    }

    /// A player a Queen up who may pass off the principal line, out of check, and still
    /// stands above beta after a shallower search, returns beta; the mirror for the
    /// minimiser. Not with Pawns alone, nor in check, nor on a wide window.
    #[test]
    fn a_pass_that_still_wins_cuts_the_node_off() {
        let rules = compiled(include_str!("../../rules/chess.rules"));
        let mut searcher = Searcher::new(&rules, 1);
        let mut refutes = |text: &str, me: usize, window: (i32, i32)| {
            let mut position = fen::read(&rules, text).expect("a position");
            searcher.me = me;
            searcher.last_check_read = None;
            let cut = searcher.pass_refutes(&mut position, 6, window, 1, None);
            assert!(!position.can_unmake(), "the pass is unmade");
            cut
        };
        let queen_up = "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1";
        assert_eq!(refutes(queen_up, 0, (100, 101)), Some(101));
        assert_eq!(refutes(queen_up, 1, (-101, -100)), Some(-101));
        assert_eq!(refutes(queen_up, 0, (20_000, 20_001)), None);
        assert_eq!(refutes(queen_up, 0, (100, 200)), None);
        let pawn_up = "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1";
        assert_eq!(refutes(pawn_up, 0, (-201, -200)), None);
        assert_eq!(
            refutes("4k3/8/8/8/8/8/3Q4/4Kr2 w - - 0 1", 0, (100, 101)),
            None
        );
    }

    /// Turns are taken highest rank first, the earlier of equal ranks first (the order a
    /// stable sort would give), each once.
    #[test]
    fn turns_are_taken_best_first_and_once() {
        let mut ranks = vec![3, 7, 0, 7, i64::MAX];
        let taken: Vec<usize> = (0..ranks.len()).map(|_| take_best(&mut ranks)).collect();
        assert_eq!(taken, [4, 1, 3, 0, 2]);
        assert!(ranks.iter().all(|&rank| rank == TAKEN));
    }

    /// Beyond the horizon, the Queen does not take a Pawn that a Pawn guards, but takes one
    /// left alone; and a capture of a Pawn far below the window is not searched.
    #[test]
    fn quiet_turns_are_ranked_by_how_they_did_and_recent_results_weigh_more() {
        let rules = compiled(include_str!("../../rules/chess.rules"));
        let mut position = Position::start(&rules);
        let mut searcher = Searcher::new(&rules, 1);
        let mut turn = |text: &str| moves::read(&mut position, text).expect("a legal move");
        let (cut, tried, untried) = (turn("g1f3"), turn("a2a3"), turn("h2h3"));
        searcher.remember_cut(&cut, 10, 6, [tried].iter());
        let mut ranks = Vec::new();
        searcher.rank(&position, &[cut, tried, untried], None, 1, &mut ranks);
        let [cut_rank, tried_rank, untried_rank] = ranks[..] else {
            unreachable!("three turns, three ranks")
        };
        assert!(tried_rank < untried_rank && untried_rank < cut_rank);
        assert!(tried_rank >= 0, "a rank is never negative: {tried_rank}");
        // However often a turn cuts off, its history stays within its bound; near the bound,
        // failures bring it down faster than successes raised it.
        for _ in 0..10_000 {
            searcher.remember_cut(&cut, 10, 6, std::iter::empty());
        }
        let high = searcher.history[searcher.history_slot(&cut)];
        assert!(0 < high && high <= HISTORY_LIMIT, "{high}");
        for _ in 0..100 {
            searcher.remember_cut(&tried, 10, 6, [cut].iter());
        }
        let low = searcher.history[searcher.history_slot(&cut)];
        assert!(high - low > 100 * 6 * 6, "{high} to {low}");
    }

    /// Near the horizon, a quiet turn ranked late is skipped even where the static score
    /// stands within reach of the window; the later the deeper. Never a capture, never at
    /// a node whose static score was not read (on the principal line, in check, or deeper).
    #[test]
    fn late_quiet_turns_near_the_horizon_are_skipped() {
        let rules = compiled(include_str!("../../rules/chess.rules"));
        let searcher = Searcher::new(&rules, 1);
        let mut position = Position::start(&rules);
        let quiet = moves::read(&mut position, "e2e4").expect("a turn");
        let mut capture = quiet;
        capture.captures = true;
        // A window the static score stands within: no cutoff reason to skip.
        let (stand, window) = (Some(0), (-1, 0));
        let skipped = |turn: &Turn, index, depth, stand| {
            searcher.futile_quiet(turn, index, depth, stand, window, true)
        };
        assert_eq!(late_quiets(1), 8);
        assert_eq!(late_quiets(2), 14);
        for depth in 1..=FUTILITY_DEPTH {
            assert!(!skipped(&quiet, late_quiets(depth) - 1, depth, stand));
            assert!(skipped(&quiet, late_quiets(depth), depth, stand));
            assert!(!skipped(&capture, late_quiets(depth), depth, stand));
            assert!(!skipped(&quiet, late_quiets(depth), depth, None));
        }
        assert!(!skipped(&quiet, 40, FUTILITY_DEPTH + 1, stand));
    }

    #[test]
    fn late_quiet_turns_are_reduced_more_the_later_and_the_deeper() {
        assert_eq!(late_reduction(3, 3, false), 1);
        assert_eq!(late_reduction(8, 30, false), 4);
        assert!(late_reduction(6, 10, false) <= late_reduction(6, 20, false));
        assert!(late_reduction(4, 10, false) <= late_reduction(8, 10, false));
        assert_eq!(late_reduction(8, 30, true), 5);
    }

    #[test]
    fn a_check_is_extended_unless_it_gives_its_piece_away() {
        let rules = compiled(include_str!("../../rules/crazyhouse.rules"));
        let start = "4k3/2p1p3/8/8/8/8/8/4K3[N] w - - 0 1";
        let mut position = fen::read(&rules, start).expect("a position");
        let searcher = Searcher::new(&rules, 1);
        let mut keeps_its_ground = |text: &str| {
            let turn = moves::read(&mut position, text).expect("a legal drop");
            position.make(&turn);
            let keeps = searcher.keeps_its_ground(&position, &turn, 0);
            position.unmake();
            keeps
        };
        // Both give check; on d6 the Knight is taken by a Pawn, on g7 by nothing.
        assert!(!keeps_its_ground("N@d6"));
        assert!(keeps_its_ground("N@g7"));
    }

    #[test]
    fn captures_that_lose_or_cannot_matter_are_not_searched() {
        let rules = compiled(include_str!("../../rules/chess.rules"));
        let mut position =
            fen::read(&rules, "4k3/8/4p3/3p3p/8/8/8/3QK3 w - - 0 1").expect("a position");
        let searcher = Searcher::new(&rules, 1);
        let mut turn = |text: &str| moves::read(&mut position, text).expect("a legal move");
        let (guarded, alone) = (turn("d1d5"), turn("d1h5"));
        assert!(searcher.futile(&position, &guarded, 0, 0, 1));
        assert!(!searcher.futile(&position, &alone, 0, 0, 1));
        assert!(searcher.futile(&position, &alone, -1000, 0, 1));
        // For the opponent, far above the window is as hopeless.
        assert!(searcher.futile(&position, &alone, 1000, 0, -1));
        assert!(!searcher.futile(&position, &alone, 50, 0, -1));
    }

    /// Yagbap's Amazon that can move as the board stands is not immobilized, told before the
    /// turns, so a node may be cut off unsearched; walled in, whether another turn frees it
    /// takes the turns, and the node waits for them.
    #[test]
    fn an_amazon_free_to_move_is_told_before_the_turns() {
        let rules = compiled(include_str!("../../rules/yagbap.rules"));
        let ends = |text: &str| (fen::read(&rules, text).expect("a position")).ends_before_turns();
        let free = "a9/10/10/10/10/10/10/10/10/A9[] w - - 0 43 phase=play turns=21,21";
        assert_eq!(ends(free), Some(false));
        let walled = "a9/10/10/10/10/10/10/1*8/***7/A*8[] w - - 0 43 phase=play turns=21,21";
        assert_eq!(ends(walled), None);
    }

    /// At the horizon, a position whose player has no turn left (White's Amazon walled in) is
    /// lost, not scored by the board: a game not won by royal pieces lists every turn there.
    #[test]
    fn a_game_lost_at_the_horizon_is_seen_lost() {
        let rules = compiled(include_str!("../../rules/yagbap.rules"));
        let walled = "a9/10/10/10/10/10/10/1*8/***7/A*8[] w - - 0 43 phase=play turns=21,21";
        let mut position = fen::read(&rules, walled).expect("a position");
        let mut searcher = Searcher::new(&rules, 1);
        searcher.me = 0;
        let score = searcher.captures(&mut position, -WIN, WIN, 1, CAPTURE_PLIES);
        assert!(score <= -DECIDED, "scored {score}");
        assert!(!searcher.captures_alone);
        let chess = compiled(include_str!("../../rules/chess.rules"));
        assert!(Searcher::new(&chess, 1).captures_alone);
    }

    /// With helper threads, the search finds what one thread finds (the mate in one), and
    /// its nodes are every thread's: more than the main thread searched.
    #[test]
    fn helper_threads_share_the_search_and_its_count() {
        let rules = compiled(include_str!("../../rules/chess.rules"));
        let mut position =
            fen::read(&rules, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").expect("a position");
        let mut searcher = Searcher::new(&rules, 1);
        searcher.set_threads(3);
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let choice = searcher.search(&mut position, &limits, &mut |_| {});
        let choice = choice.expect("a turn");
        assert_eq!(moves::write(&position, &choice.turn), "a1a8");
        assert!(choice.score >= DECIDED, "scored {}", choice.score);
        assert_eq!(searcher.helpers.len(), 2);
        assert!(choice.nodes > searcher.nodes, "{} nodes", choice.nodes);
        // A node limit holds for every thread together, give or take the nodes between two
        // readings of each thread's clock.
        let mut middlegame = fen::read(
            &rules,
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        )
        .expect("a position");
        let limited = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let choice = searcher.search(&mut middlegame, &limited, &mut |_| {});
        let nodes = choice.expect("a turn").nodes;
        let slack = 3 * 2 * MAX_CLOCK_INTERVAL;
        assert!((20_000..=20_000 + slack).contains(&nodes), "{nodes} nodes");
        // Fewer threads later keep the table and drop the helpers not needed.
        searcher.set_threads(1);
        assert!(searcher.helpers.is_empty());
        let again = searcher.search(&mut position, &limits, &mut |_| {});
        assert_eq!(again.expect("a turn").nodes, searcher.nodes);
    }

    /// Where captures are compulsory, a player who can capture does not stand on the static
    /// score beyond the horizon: White's last piece must take on d5, Black's Queen must take it
    /// back, and White, with no piece left, wins.
    #[test]
    fn a_compulsory_capture_is_searched_not_declined() {
        let rules = compiled(include_str!("../../rules/giveaway.rules"));
        let mut position =
            fen::read(&rules, "3q3k/8/8/3p4/4P3/8/8/8 w - - 0 1").expect("a position");
        let mut searcher = Searcher::new(&rules, 1);
        searcher.me = 0;
        let score = searcher.captures(&mut position, -WIN, WIN, 1, CAPTURE_PLIES);
        assert!(score >= DECIDED, "scored {score}");
    }
}
