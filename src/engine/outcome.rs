//! The end of the game: the rule file's end rules, tried in order for the player to move.

use super::Position;
use crate::compile::{EndCondition, Outcome};

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Win { player: usize, reason: String },
    Draw { reason: String },
}

impl Position<'_> {
    /// The ending, if the game is over before the player to move moves.
    pub fn ending(&mut self) -> Option<Ending> {
        let mover = self.to_move;
        let mut turns = Vec::new();
        self.legal_turns(&mut turns);
        let stuck = turns.is_empty();
        let in_check = self.in_check();
        let repeats = 1 + self.history().filter(|&h| h == self.hash).count() as u32;
        let name = self.rules.player_names[mover].clone();
        for &(outcome, condition) in &self.rules.end {
            let reason = match condition {
                EndCondition::Checkmated if stuck && in_check => format!("{name} is checkmated"),
                EndCondition::Stalemated if stuck && !in_check => format!("{name} is stalemated"),
                EndCondition::NoMoves if stuck => format!("{name} has no move"),
                EndCondition::Extinct if self.has_no_pieces(mover) => {
                    format!("{name} has no pieces")
                }
                EndCondition::Repeated(n) if repeats >= n => {
                    format!("the position occurred {n} times")
                }
                EndCondition::Quiet(n, _) if self.halfmove >= n => {
                    format!("{n} plies passed without a capture or a counted move")
                }
                _ => continue,
            };
            return Some(self.decide(outcome, reason));
        }
        stuck.then(|| Ending::Draw {
            reason: format!("{name} has no move, and no end rule decides this"),
        })
    }

    fn decide(&self, outcome: Outcome, reason: String) -> Ending {
        let mover = self.to_move;
        match outcome {
            Outcome::Win => Ending::Win {
                player: mover,
                reason,
            },
            Outcome::Lose => Ending::Win {
                player: self.next_player(mover),
                reason,
            },
            Outcome::Draw => Ending::Draw { reason },
        }
    }

    fn has_no_pieces(&self, player: usize) -> bool {
        let on_board = self
            .board
            .iter()
            .any(|&c| self.piece(c).is_some_and(|(_, p)| p == player));
        let kinds = self.rules.kinds.len();
        let in_hand = self.hands[player * kinds..(player + 1) * kinds]
            .iter()
            .any(|&n| n > 0);
        !on_board && !in_hand
    }
}

impl Ending {
    pub fn describe(&self, names: &[String]) -> String {
        match self {
            Ending::Win { player, reason } => format!("{} wins: {reason}", names[*player]),
            Ending::Draw { reason } => format!("draw: {reason}"),
        }
    }
}
