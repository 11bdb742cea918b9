//! The search: iterative deepening alpha-beta with a transposition table on the position's
//! hash and a search of captures at the horizon. Scores are always from the searching
//! player's side, and every other player is taken to play against them (the paranoid
//! assumption). With two players this is plain minimax; with more it keeps alpha-beta sound
//! and plays safe, which matters most where any opponent's attack can take a player out.

use super::eval::Evaluator;
use super::random::Random;
use crate::engine::outcome::Ending;
use crate::engine::{Position, Turn};
use std::time::{Duration, Instant};

const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses, nearer ones first.
const DECIDED: i32 = WIN - 1000;
const MAX_PLY: usize = 64;
/// Captures searched beyond the horizon, at most.
const CAPTURE_PLIES: usize = 6;
/// Noise added to leaf scores, so that different seeds play different games.
const NOISE: u64 = 8;

#[derive(Clone, Copy, Default)]
struct Entry {
    hash: u64,
    depth: u8,
    bound: Bound,
    score: i32,
    best: Option<Turn>,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// A computer player for one rule file.
pub struct Searcher {
    evaluator: Evaluator,
    table: Vec<Entry>,
    lists: Vec<Vec<Turn>>,
    scratch: Vec<Turn>,
    me: usize,
    nodes: u64,
    deadline: Instant,
    stopped: bool,
    seed: u64,
}

/// What a search found.
pub struct Choice {
    pub turn: Turn,
    pub score: i32,
    pub depth: usize,
    pub nodes: u64,
}

impl Searcher {
    pub fn new(rules: &crate::compile::Ruleset, seed: u64) -> Self {
        Searcher {
            evaluator: Evaluator::new(rules),
            table: vec![Entry::default(); 1 << 17],
            lists: (0..=MAX_PLY + CAPTURE_PLIES + 1)
                .map(|_| Vec::new())
                .collect(),
            scratch: Vec::new(),
            me: 0,
            nodes: 0,
            deadline: Instant::now(),
            stopped: false,
            seed,
        }
    }

    /// The best turn found for the player to move within `think`; `None` if there is no
    /// legal turn.
    pub fn choose(&mut self, position: &mut Position<'_>, think: Duration) -> Option<Choice> {
        let started = Instant::now();
        self.deadline = started + think;
        self.me = position.to_move;
        self.nodes = 0;
        self.stopped = false;
        let mut root = Vec::new();
        position.legal_turns(&mut root);
        let mut random = Random::new(self.seed ^ position.hash);
        random.shuffle(&mut root);
        let mut best = Choice {
            turn: *root.first()?,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if root.len() == 1 {
            return Some(best);
        }
        for depth in 1..=MAX_PLY {
            let Some((turn, score)) = self.root(position, &mut root, depth) else {
                break;
            };
            best = Choice {
                turn,
                score,
                depth,
                nodes: self.nodes,
            };
            if score.abs() >= DECIDED {
                break;
            }
        }
        best.nodes = self.nodes;
        Some(best)
    }

    /// One iteration at the root: the best turn and its score, or `None` if time ran out
    /// before it finished. The best turn moves to the front for the next iteration.
    fn root(
        &mut self,
        position: &mut Position<'_>,
        root: &mut [Turn],
        depth: usize,
    ) -> Option<(Turn, i32)> {
        let mut alpha = -WIN;
        let mut best = 0;
        for (index, turn) in root.iter().enumerate() {
            position.make(turn);
            let score = self.value(position, depth - 1, alpha, WIN, 1);
            position.unmake();
            if self.stopped {
                return None;
            }
            if score > alpha {
                alpha = score;
                best = index;
            }
        }
        root[..=best].rotate_right(1);
        Some((root[0], alpha))
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
        if position.alive & (1 << self.me) == 0 {
            return -WIN + ply as i32;
        }
        if depth == 0 || ply >= MAX_PLY {
            return self.captures(position, alpha, beta, ply, CAPTURE_PLIES);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        position.legal_turns(&mut list);
        if list.is_empty() {
            self.lists[ply] = list;
            return self.ended(position, ply);
        }
        let slot = (position.hash as usize) & (self.table.len() - 1);
        let entry = self.table[slot];
        let known = entry.hash == position.hash;
        if known && entry.depth as usize >= depth {
            match entry.bound {
                Bound::Exact => {
                    self.lists[ply] = list;
                    return entry.score;
                }
                Bound::Lower => alpha = alpha.max(entry.score),
                Bound::Upper => beta = beta.min(entry.score),
            }
            if alpha >= beta {
                self.lists[ply] = list;
                return entry.score;
            }
        }
        self.order(position, &mut list, known.then_some(entry.best).flatten());
        let maximising = position.to_move == self.me;
        let (start_alpha, start_beta) = (alpha, beta);
        let mut best_score = if maximising { -WIN } else { WIN };
        let mut best_turn = None;
        for turn in &list {
            position.make(turn);
            let score = self.value(position, depth - 1, alpha, beta, ply + 1);
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
                break;
            }
        }
        self.lists[ply] = list;
        if !self.stopped {
            let bound = if best_score <= start_alpha {
                Bound::Upper
            } else if best_score >= start_beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table[slot] = Entry {
                hash: position.hash,
                depth: depth as u8,
                bound,
                score: best_score,
                best: best_turn,
            };
        }
        best_score
    }

    /// Beyond the horizon: the static score, unless a capture changes it. Each side may
    /// decline to capture.
    fn captures(
        &mut self,
        position: &mut Position<'_>,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        left: usize,
    ) -> i32 {
        let mut list = std::mem::take(&mut self.lists[ply]);
        position.legal_turns(&mut list);
        if list.is_empty() {
            self.lists[ply] = list;
            return self.ended(position, ply);
        }
        let stand = self.static_score(position);
        let maximising = position.to_move == self.me;
        if left == 0 || ply >= self.lists.len() - 1 || self.out_of_time() {
            self.lists[ply] = list;
            return stand;
        }
        let settled = if maximising {
            stand >= beta
        } else {
            stand <= alpha
        };
        if settled {
            self.lists[ply] = list;
            return stand;
        }
        if maximising {
            alpha = alpha.max(stand);
        } else {
            beta = beta.min(stand);
        }
        list.retain(|t| t.captures);
        self.order(position, &mut list, None);
        let mut best = stand;
        for turn in &list {
            position.make(turn);
            let score = match position.alive & (1 << self.me) {
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
        best
    }

    /// The score of a position with no turn to search: won, lost, drawn, or too deep.
    fn ended(&mut self, position: &mut Position<'_>, ply: usize) -> i32 {
        match position.ending() {
            Some(Ending::Win { players, .. }) if players & (1 << self.me) != 0 => WIN - ply as i32,
            Some(Ending::Win { .. }) => -WIN + ply as i32,
            Some(Ending::Draw { .. }) => 0,
            None => self.static_score(position),
        }
    }

    fn static_score(&mut self, position: &Position<'_>) -> i32 {
        let noise = (position.hash ^ self.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58;
        self.evaluator.score(position, self.me, &mut self.scratch) + (noise % NOISE) as i32
    }

    /// Puts the remembered best turn first, then captures of the most valuable pieces.
    fn order(&self, position: &Position<'_>, list: &mut [Turn], first: Option<Turn>) {
        let values = &self.evaluator.values;
        let gain = |turn: &Turn| -> i32 {
            if Some(*turn) == first {
                return i32::MAX;
            }
            if !turn.captures {
                return 0;
            }
            let target = position.board[turn.main().to as usize];
            position
                .piece(target)
                .map_or(1, |(kind, _)| values[kind] + 1)
        };
        list.sort_by_key(|turn| std::cmp::Reverse(gain(turn)));
    }

    fn out_of_time(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(256) && Instant::now() >= self.deadline {
            self.stopped = true;
        }
        self.stopped
    }
}
