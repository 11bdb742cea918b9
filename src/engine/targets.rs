//! Where a piece's move rules reach, as bitboards: the empty squares a rule may move to and the
//! enemy pieces it may capture, read from the line tables with the board's pieces in the way.
//! Generating turns and counting them both start here.

use super::position::Position;
use crate::bitboard::Bitboard;
use crate::compile::{ANY_KIND, Code, Gen, Hop, Mode, NO_SQUARE, Sq};

/// The board as one player's moves see it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sides<B> {
    /// Squares holding a piece or blocked.
    pub occupied: B,
    pub empty: B,
    /// Squares holding another player's piece.
    pub enemies: B,
    /// The player whose moves these are.
    pub player: usize,
}

impl Position<'_> {
    /// The board as `player`'s moves see it.
    #[inline(always)]
    pub(super) fn sides<B: Bitboard>(&self, player: usize) -> Sides<B> {
        let occupied = self.occupied::<B>();
        Sides {
            occupied,
            empty: self.rules.bits.board::<B>() & !occupied,
            enemies: self.enemy_set::<B>(player),
            player,
        }
    }

    /// The empty squares and the enemy pieces the rules of the piece `code` of `player` on
    /// `from` reach, by every rule together. Inlined: it is the heart of the count, and of
    /// generating the moves of pieces whose program has a merged tag.
    #[inline(always)]
    pub(super) fn piece_targets<B: Bitboard>(
        &self,
        from: Sq,
        code: Code,
        player: usize,
        sides: &Sides<B>,
    ) -> (B, B) {
        let rules = self.rules;
        let bits = &rules.bits;
        let sorted = &bits.sorted[code as usize];
        let (mut empty, mut enemies) = (B::NONE, B::NONE);
        if let Some(block) = sorted.steps {
            (empty, enemies) = self.step_targets(block, from, sides);
        }
        let mut reached = |reach: B, mode: Mode| {
            if mode.moves() {
                empty |= reach & sides.empty;
            }
            if mode.captures() {
                enemies |= reach & sides.enemies;
            }
        };
        if !self.hemmed(code, from, sides) {
            // Slide sets are made only for boards of up to two words.
            if B::WORDS <= 2 {
                for &(set, mode) in &sorted.slide_sets {
                    reached(bits.slide_set::<B>(set, from, sides.occupied), mode);
                }
            }
            for &(line, mode) in &sorted.rides {
                reached(bits.reach::<B>(line, from, sides.occupied), mode);
            }
        }
        // Most pieces have neither: asked first, their loops cost such a piece nothing.
        if sorted.lame_steps.is_empty() && sorted.others.is_empty() {
            return (empty, enemies);
        }
        for step in &sorted.lame_steps {
            if (step.from_zone).is_some_and(|z| !rules.zones.contains(z, player, from)) {
                continue;
            }
            let (target, passed) = bits.lame_step::<B>(step, from);
            if (passed & sides.occupied).is_empty() {
                reached(target, step.mode);
            }
        }
        let program = &rules.pieces.programs[code as usize];
        for rule in sorted.others.iter().map(|&i| &program[i as usize]) {
            if !self.rule_applies(rule, player, from) {
                continue;
            }
            let (reach_empty, reach_enemies) = self.rule_targets(rule, from, sides);
            if rule.mode.moves() {
                empty |= reach_empty;
            }
            if rule.mode.captures() {
                enemies |= reach_enemies;
            }
        }
        (empty, enemies)
    }

    /// Whether the rides of the piece `code` on `from` reach nothing: its own pieces (or
    /// blocked squares) stand on the first square of each, as for most riders early in a
    /// game.
    #[inline(always)]
    pub(super) fn hemmed<B: Bitboard>(&self, code: Code, from: Sq, sides: &Sides<B>) -> bool {
        let own = sides.occupied & !sides.enemies;
        (self.rules.bits.ride_starts::<B>(code, from) & !own).is_empty()
    }

    /// The empty squares and the enemy pieces the plain one-step rules in `block` reach from
    /// `from`.
    #[inline(always)]
    pub(super) fn step_targets<B: Bitboard>(
        &self,
        block: usize,
        from: Sq,
        sides: &Sides<B>,
    ) -> (B, B) {
        let (moves, captures) = self.rules.bits.steps::<B>(block, from);
        (moves & sides.empty, captures & sides.enemies)
    }

    /// Whether `rule` may move the piece of `player` on `from` at all: it stands in the rule's
    /// zone, and has not moved if the rule is for a first move only.
    #[inline]
    pub(super) fn rule_applies(&self, rule: &Gen, player: usize, from: Sq) -> bool {
        rule.from_zone
            .is_none_or(|z| self.rules.zones.contains(z, player, from))
            && (!rule.first || self.unmoved[from as usize])
    }

    /// The empty squares `rule` reaches from `from`, and the enemy pieces it reaches, whatever
    /// its mode.
    #[inline]
    pub(super) fn rule_targets<B: Bitboard>(
        &self,
        rule: &Gen,
        from: Sq,
        sides: &Sides<B>,
    ) -> (B, B) {
        let reach = match rule.anywhere {
            true => sides.empty | sides.enemies,
            false => self.rule_reach(rule, from, sides.occupied),
        };
        match rule.limits_targets() {
            false => (reach & sides.empty, reach & sides.enemies),
            true => self.limit_targets(rule, reach, sides),
        }
    }

    /// The squares along `rule`'s line from `from` (or anywhere) it reaches with `occupied`
    /// standing in the way, the first occupied one included.
    #[inline(always)]
    pub(super) fn rule_reach<B: Bitboard>(&self, rule: &Gen, from: Sq, occupied: B) -> B {
        match rule.hop {
            _ if rule.anywhere => self.rules.bits.board::<B>(),
            Hop::No => self.line_targets(rule, from, occupied),
            hop => self.hop_targets(rule, hop, from, occupied),
        }
    }

    /// The squares of `reach` that `rule` may end on: in its `to` zone, and holding a piece of
    /// a kind it `takes` if occupied. Out of line, so that the rules without limits, nearly
    /// all of them, keep `rule_targets` small where generation and counting inline it.
    #[inline(never)]
    fn limit_targets<B: Bitboard>(&self, rule: &Gen, reach: B, sides: &Sides<B>) -> (B, B) {
        let rules = self.rules;
        let reach = match rule.to_zone {
            Some(zone) => reach & rules.zones.squares::<B>(zone, sides.player),
            None => reach,
        };
        let takeable = match rule.takes {
            ANY_KIND => sides.enemies,
            kinds => (0..rules.players.count())
                .filter(|&p| p != sides.player)
                .fold(B::NONE, |set, p| set | self.kinds_set::<B>(p, kinds)),
        };
        (reach & sides.empty, reach & sides.enemies & takeable)
    }

    /// The squares along `rule`'s line from `from` up to its range, the first occupied square
    /// included; none if the squares a lame leap passes are not empty.
    #[inline]
    pub(super) fn line_targets<B: Bitboard>(&self, rule: &Gen, from: Sq, occupied: B) -> B {
        let bits = &self.rules.bits;
        let geometry = &self.rules.geometry;
        let clear = rule.path.iter().all(|&v| {
            let s = geometry.step(v, from);
            s != NO_SQUARE && !occupied.has(s)
        });
        match (clear, rule.range) {
            (false, _) => B::NONE,
            (true, 1) => bits.line(rule.line, from),
            (true, _) => bits.reach(rule.line, from, occupied),
        }
    }

    /// Whether the piece on `hurdle` is of one of the kinds `over` allows hopping over. The
    /// board is read as it stands: legality then never predicts a position (see
    /// `Derived::board_read_attacks`).
    pub(super) fn may_hop_over(&self, over: u64, hurdle: Sq) -> bool {
        self.piece(self.board[hurdle as usize])
            .is_some_and(|(kind, _)| over & (1 << kind) != 0)
    }

    /// Where a hop over exactly one piece (or blocked square) along the rule's line lands:
    /// just beyond the hurdle, or anywhere beyond it up to the next piece and within the
    /// rule's range.
    fn hop_targets<B: Bitboard>(&self, rule: &Gen, hop: Hop, from: Sq, occupied: B) -> B {
        let bits = &self.rules.bits;
        // A hurdle out of the rule's range leaves no landing square within it.
        let ahead = bits.line::<B>(rule.line, from) & occupied;
        if ahead.is_empty() {
            return B::NONE;
        }
        let hurdle = bits.nearest(rule.line, ahead);
        if rule.over != ANY_KIND && !self.may_hop_over(rule.over, hurdle) {
            return B::NONE;
        }
        match hop {
            Hop::JustBeyond => match self.rules.geometry.step(rule.vector, hurdle) {
                NO_SQUARE => B::NONE,
                landing => B::bit(landing),
            },
            _ if rule.range == u16::MAX => bits.reach(rule.line, hurdle, occupied),
            // Within the rule's range of the start (`hop ... beyond up-to 2`).
            _ => {
                bits.reach(bits.unlimited(rule.line), hurdle, occupied) & bits.line(rule.line, from)
            }
        }
    }
}
