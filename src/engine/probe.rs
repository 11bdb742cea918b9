//! What the computer player asks of a position besides its legal turns: how many moves a
//! piece, or a player's pieces of some kinds, could make as the board stands, or alone on an
//! otherwise empty or crowded board.

use super::position::Position;
use super::turn::Turn;
use crate::compile::{BLOCKED, Code, EMPTY, Ruleset, Sq};

impl Position<'_> {
    /// The moves the piece on `sq` could make, legal or not (0 on an empty square).
    pub fn reach(&self, sq: Sq) -> usize {
        let code = self.board[sq as usize];
        let Some((_, player)) = self.piece(code) else {
            return 0;
        };
        let mut out = Vec::new();
        self.piece_turns(sq, code, player, &Turn::EMPTY, &mut out);
        out.len()
    }

    /// The moves `player`'s pieces of `kinds` (a bit per kind) could make, legal or not.
    pub fn mobility(&self, player: usize, kinds: u64, out: &mut Vec<Turn>) -> usize {
        out.clear();
        self.piece_moves(player, kinds, &Turn::EMPTY, out);
        out.len()
    }
}

/// The start position's board with every piece taken off (blocked squares stay), or with
/// every other square holding one enemy piece, to measure what a piece reaches alone.
pub struct ProbeBoard<'r> {
    position: Position<'r>,
    filler: Code,
}

impl<'r> ProbeBoard<'r> {
    /// Every unblocked square empty: what a piece moves to.
    pub fn empty(rules: &'r Ruleset) -> Self {
        Self::filled(rules, EMPTY)
    }

    /// Every unblocked square holding `enemy`: what a piece captures when it is surrounded.
    pub fn crowded(rules: &'r Ruleset, enemy: Code) -> Self {
        Self::filled(rules, enemy)
    }

    fn filled(rules: &'r Ruleset, filler: Code) -> Self {
        let mut position = Position::start(rules);
        for sq in 0..position.board.len() as Sq {
            if position.board[sq as usize] != BLOCKED {
                position.set_square(sq, filler);
            }
        }
        ProbeBoard { position, filler }
    }

    /// The squares the piece `code` moves to from `sq`, each once (none from a blocked square).
    pub fn targets(&mut self, code: Code, sq: Sq) -> Vec<Sq> {
        if self.position.board[sq as usize] == BLOCKED {
            return Vec::new();
        }
        self.position.set_square(sq, code);
        let mut turns = Vec::new();
        if let Some((_, player)) = self.position.piece(code) {
            (self.position).piece_turns(sq, code, player, &Turn::EMPTY, &mut turns);
        }
        self.position.set_square(sq, self.filler);
        let mut targets: Vec<Sq> = turns
            .iter()
            .filter_map(|turn| turn.last_move().map(|part| part.to))
            .collect();
        targets.sort_unstable();
        targets.dedup();
        targets
    }

    /// How many moves the piece `code` makes from `sq` (none from a blocked square).
    pub fn reach(&mut self, code: Code, sq: Sq) -> usize {
        if self.position.board[sq as usize] == BLOCKED {
            return 0;
        }
        self.position.set_square(sq, code);
        let reach = self.position.reach(sq);
        self.position.set_square(sq, self.filler);
        reach
    }
}
