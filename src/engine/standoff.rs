//! Standoffs: a piece facing another player's piece of its kind on an open line (janggi's
//! bikjang). The player who faces one must end it with their turn or pass; the pass is allowed
//! even when it leaves their royal piece attacked, and the end rules may judge a standoff that
//! a pass left standing.

use super::position::Position;
use super::turn::Turn;
use crate::bitboard::Bitboard;

impl Position<'_> {
    /// Whether one of `player`'s pieces faces another player's piece of its kind along one of
    /// its standoff lines, with nothing between.
    pub(super) fn in_standoff(&self, player: usize) -> bool {
        at_width!(self.rules, B => self.standoff_in::<B>(player))
    }

    fn standoff_in<B: Bitboard>(&self, player: usize) -> bool {
        let pieces = &self.rules.pieces;
        let occupied = self.occupied::<B>();
        for kind in self.rules.derived.standoff_kinds.squares() {
            let kind = usize::from(kind);
            let facing = (self.players_still_in())
                .filter(|&p| p != player)
                .fold(B::NONE, |set, p| set | self.kinds_set::<B>(p, 1 << kind));
            let code = pieces.code(kind, player);
            let lines = &pieces.standoffs[code as usize];
            let faces = |sq| {
                (lines.iter())
                    .any(|&line| (self.rules.bits.reach::<B>(line, sq, occupied) & facing).any())
            };
            if facing.any() && self.code_set::<B>(code).squares().any(faces) {
                return true;
            }
        }
        false
    }

    /// Keeps, of `player`'s turns in a standoff, the passes and the legal turns that end it. A
    /// pass is allowed even when it leaves the royal piece attacked.
    #[cold]
    #[inline(never)]
    pub(super) fn keep_standoff_answers(&mut self, player: usize, out: &mut Vec<Turn>) {
        let passes: Vec<Turn> = out.extract_if(.., |turn| turn.is_pass()).collect();
        self.keep_legal(player, out);
        out.retain(|turn| !self.stands_off_after(turn, player));
        out.extend(passes);
    }

    /// Whether `player` stands in a standoff after making `turn`.
    fn stands_off_after(&mut self, turn: &Turn, player: usize) -> bool {
        self.make_as(turn, player);
        let stands = self.in_standoff(player);
        self.unmake();
        stands
    }
}
