//! The computer player. It knows a game only through its compiled rules and the engine: an
//! evaluation derived from the rule file ([`eval`]), a search that suits any number of
//! players ([`search`]), and a random player to measure it against.

pub mod eval;
pub mod search;
mod table;

use crate::engine::{Position, Turn};
use crate::random::Random;
use search::{Choice, Searcher};
use std::time::Duration;

/// Who chooses a seat's turns.
pub enum Player {
    /// The search, thinking this long per turn.
    Computer(Box<Searcher>, Duration),
    /// A uniformly random legal turn.
    Random(Random),
}

impl Player {
    pub fn computer(rules: &crate::compile::Ruleset, think: Duration, seed: u64) -> Self {
        Player::Computer(Box::new(Searcher::new(rules, seed)), think)
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

    /// How long the player thinks per turn: none for the random player.
    pub fn think(&self) -> Option<Duration> {
        match self {
            Player::Computer(_, think) => Some(*think),
            Player::Random(_) => None,
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
            Player::Computer(searcher, think) => searcher.choose(position, *think),
            Player::Random(_) => None,
        }
    }
}
