//! What the computer player asks of a position besides its legal turns: how many moves a
//! piece, or a player's pieces of some kinds, could make as the board stands, or alone on an
//! otherwise empty, crowded or randomly filled board; how many of some squares hold its own
//! pieces.

use super::position::Position;
use super::turn::Turn;
use crate::bitboard::Bitboard;
use crate::compile::{BLOCKED, Code, EMPTY, Ruleset, Sq};
use crate::random::Random;

/// A piece's moves from one square, legal or not, and how many of them capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    pub moves: usize,
    pub captures: usize,
}

impl Position<'_> {
    /// The moves the piece on `sq` could make, legal or not, and how many of them capture
    /// (none on an empty square).
    pub fn reach(&self, sq: Sq) -> Reach {
        let code = self.board[sq as usize];
        let Some((_, player)) = self.piece(code) else {
            return Reach::default();
        };
        let mut out = Vec::new();
        self.piece_turns(sq, code, player, &Turn::EMPTY, &mut out);
        Reach {
            moves: out.len(),
            captures: out.iter().filter(|turn| turn.captures).count(),
        }
    }

    /// For each piece of the kinds in `kinds` (a bit per kind) on the board, the squares its
    /// moves reach as the board stands: the empty ones and the enemy pieces, each once, legal
    /// or not. Read from the target sets, without building a move.
    pub fn for_each_reach_count(&self, kinds: u64, mut visit: impl FnMut(Sq, Code, u32)) {
        at_width!(self.rules, B => {
            for player in 0..self.rules.players.count() {
                let sides = self.sides::<B>(player);
                for sq in self.kinds_set::<B>(player, kinds).squares() {
                    let code = self.board[sq as usize];
                    let (empty, enemies) = self.piece_targets(sq, code, player, &sides);
                    visit(sq, code, (empty | enemies).count());
                }
            }
        })
    }

    /// How many of `squares` hold a piece of `player`.
    pub fn own_pieces_on(&self, squares: &[Sq], player: usize) -> u32 {
        let owned = |&sq: &Sq| {
            self.piece(self.board[sq as usize])
                .is_some_and(|(_, p)| p == player)
        };
        squares.iter().filter(|sq| owned(sq)).count() as u32
    }

    /// The moves `player`'s pieces of `kinds` (a bit per kind) could make, legal or not.
    pub fn mobility(&self, player: usize, kinds: u64, out: &mut Vec<Turn>) -> usize {
        out.clear();
        self.piece_moves(player, kinds, &Turn::EMPTY, out);
        out.len()
    }
}

/// The start position's board with every piece taken off (blocked squares stay), with every
/// other square holding one enemy piece, or with pieces scattered at random, to measure what a
/// piece reaches alone or in play.
pub struct ProbeBoard<'r> {
    position: Position<'r>,
}

impl<'r> ProbeBoard<'r> {
    /// Every unblocked square empty: what a piece moves to.
    pub fn empty(rules: &'r Ruleset) -> Self {
        Self::filled(rules, || EMPTY)
    }

    /// Every unblocked square holding `enemy`: what a piece captures when it is surrounded.
    pub fn crowded(rules: &'r Ruleset, enemy: Code) -> Self {
        Self::filled(rules, || enemy)
    }

    /// Each unblocked square holding, with a chance of `percent` in a hundred, a piece of
    /// `player` or of the next player (as likely): what a piece of `player` reaches in play.
    /// The pieces are of the first kind that is not royal, so that they only block or are
    /// taken.
    pub fn scattered(rules: &'r Ruleset, player: usize, percent: u64, random: &mut Random) -> Self {
        let kinds = &rules.pieces.kinds;
        let kind = (0..kinds.len()).find(|&k| !kinds[k].royal).unwrap_or(0);
        let next = (player + 1) % rules.players.count();
        let (own, enemy) = (
            rules.pieces.code(kind, player),
            rules.pieces.code(kind, next),
        );
        // Two draws in two hundred for each in a hundred: half own pieces, half the enemy's.
        Self::filled(rules, || match random.next_u64() % 200 {
            d if d < percent => own,
            d if d < 2 * percent => enemy,
            _ => EMPTY,
        })
    }

    fn filled(rules: &'r Ruleset, mut filler: impl FnMut() -> Code) -> Self {
        let mut position = Position::start(rules);
        for sq in 0..position.board.len() as Sq {
            if position.board[sq as usize] != BLOCKED {
                position.set_square(sq, filler());
            }
        }
        ProbeBoard { position }
    }

    /// Puts `code` on `sq` while `measure` looks at the board, then puts back what stood there.
    fn with_piece<T>(&mut self, code: Code, sq: Sq, measure: impl FnOnce(&Position<'r>) -> T) -> T {
        let before = self.position.board[sq as usize];
        self.position.set_square(sq, code);
        let measured = measure(&self.position);
        self.position.set_square(sq, before);
        measured
    }

    /// The squares the piece `code` moves to from `sq`, each once (none from a blocked square).
    pub fn targets(&mut self, code: Code, sq: Sq) -> Vec<Sq> {
        if self.position.board[sq as usize] == BLOCKED {
            return Vec::new();
        }
        let turns = self.with_piece(code, sq, |position| {
            let mut turns = Vec::new();
            if let Some((_, player)) = position.piece(code) {
                position.piece_turns(sq, code, player, &Turn::EMPTY, &mut turns);
            }
            turns
        });
        let mut targets: Vec<Sq> = turns
            .iter()
            .filter_map(|turn| turn.last_move().map(|part| part.to))
            .collect();
        targets.sort_unstable();
        targets.dedup();
        targets
    }

    /// How many moves the piece `code` makes from `sq`, and how many of them capture (none
    /// from a blocked square).
    pub fn reach(&mut self, code: Code, sq: Sq) -> Reach {
        if self.position.board[sq as usize] == BLOCKED {
            return Reach::default();
        }
        self.with_piece(code, sq, |position| position.reach(sq))
    }
}
