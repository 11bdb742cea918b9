//! What the computer player asks of a position besides its legal turns: how many moves a
//! piece, or a player's pieces of some kinds, could make as the board stands.

use super::position::Position;
use super::turn::Turn;
use crate::compile::Sq;

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
