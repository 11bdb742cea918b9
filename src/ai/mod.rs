//! The computer player. It knows a game only through its compiled rules and the engine: an
//! evaluation derived from the rule file ([`eval`]) whose weights may be fitted to the game's
//! own results ([`weights`], [`tune`]), a search that suits any number of players
//! ([`search`]), and a random player to measure it against.

pub mod eval;
pub mod search;
mod table;
pub mod tune;
pub mod weights;

use crate::engine::{Position, Turn};
use crate::random::Random;
use search::{Choice, Limits, Searcher};
use std::time::Duration;
use weights::Weights;

/// How much the computer searches per turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Thinking this long.
    Time(Duration),
    /// About this many nodes, however long they take: the same search on a loaded machine as
    /// on an idle one, so that two players can be compared without timing either.
    Nodes(u64),
}

impl Budget {
    fn limits(self) -> Limits {
        match self {
            Budget::Time(think) => Limits::think(think),
            Budget::Nodes(nodes) => Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
        }
    }
}

/// Who chooses a seat's turns.
pub enum Player {
    /// The search, within this budget per turn.
    Computer(Box<Searcher>, Budget),
    /// A uniformly random legal turn.
    Random(Random),
}

impl Player {
    pub fn computer(rules: &crate::compile::Ruleset, think: Duration, seed: u64) -> Self {
        Player::searching(rules, Budget::Time(think), seed)
    }

    pub fn searching(rules: &crate::compile::Ruleset, budget: Budget, seed: u64) -> Self {
        Player::Computer(Box::new(Searcher::new(rules, seed)), budget)
    }

    /// The computer, evaluating with `weights` (those derived from the rule file if none).
    pub fn weighted(
        rules: &crate::compile::Ruleset,
        budget: Budget,
        seed: u64,
        weights: Option<&Weights>,
    ) -> Self {
        let searcher = Searcher::weighted(rules, seed, weights, search::DEFAULT_TABLE_BYTES);
        Player::Computer(Box::new(searcher), budget)
    }

    /// The same player searching with `threads` threads (a random player is unchanged).
    pub fn with_threads(mut self, threads: usize) -> Self {
        if let Player::Computer(searcher, _) = &mut self {
            searcher.set_threads(threads);
        }
        self
    }

    pub fn random(seed: u64) -> Self {
        Player::Random(Random::new(seed))
    }

    /// How long the player thinks per turn: none for the random player, or one searching a
    /// number of nodes.
    pub fn think(&self) -> Option<Duration> {
        match self {
            Player::Computer(_, Budget::Time(think)) => Some(*think),
            _ => None,
        }
    }

    /// A legal turn for the player to move, or `None` if the game is over.
    pub fn choose(&mut self, position: &mut Position<'_>) -> Option<Turn> {
        match self {
            Player::Computer(..) => self.advise(position).map(|c| c.turn),
            Player::Random(random) => {
                let mut turns = Vec::new();
                position.legal_turns(&mut turns);
                (!turns.is_empty()).then(|| turns[random.below(turns.len())])
            }
        }
    }

    /// The computer's choice with what its search found (score, depth, nodes); `None` if the
    /// game is over or the player is random.
    pub fn advise(&mut self, position: &mut Position<'_>) -> Option<Choice> {
        match self {
            Player::Computer(searcher, budget) => {
                searcher.search(position, &budget.limits(), &mut |_| {})
            }
            Player::Random(_) => None,
        }
    }
}
