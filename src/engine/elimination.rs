//! The start of a turn in games of more than two players. There a `lose` rule does not end
//! the game: it takes the player it holds for out, with their pieces on the board and in
//! hand, and play goes on among the others until one is left.
//!
//! The rules are tried in file order for the player to move. `exposed` takes out every other
//! player whose royal piece the player to move attacks, again until none is (an army taken
//! off can open a line to another); any other `lose` rule that holds takes out the player to
//! move, and the next player's turn starts over. A `win` or `draw` rule that holds stops
//! here, and [`Position::ending`] reports it.

use super::position::{Out, Position};
use super::turn::Turn;
use crate::bitboard::Bitboard;
use crate::compile::{EMPTY, EndCondition, Legality, NO_SQUARE, Outcome, Sq};

impl Position<'_> {
    /// Settles the start of the turn. `passed` is the square a piece passed on the turn just
    /// made and `victim` where that piece stands: en passant belongs to whoever plays next.
    /// `mover` made that turn, legally, if known: the legality that kept their royal piece
    /// from the player now to move spares testing it again.
    pub(super) fn start_turn(&mut self, passed: Sq, victim: Sq, mover: Option<usize>) {
        if !self.rules.derived.eliminates {
            return;
        }
        let first = self.to_move;
        let moved = (victim != NO_SQUARE).then(|| self.board[victim as usize]);
        let tested = matches!(
            self.rules.derived.legality,
            Legality::Pins | Legality::MakeAndTest
        );
        let mut unattacked = mover.filter(|&m| tested && self.next_player(m) == first);
        while self.players_in() > 1 && self.take_out_losers(unattacked.take()) {}
        if self.to_move != first {
            // The turns generated for the player to move did not have this right yet.
            self.forget_ready();
            self.close_en_passant();
            let still_there = moved.is_some_and(|code| self.board[victim as usize] == code);
            if passed != NO_SQUARE && still_there {
                self.open_en_passant(passed, victim, self.to_move);
            }
        }
    }

    /// How many players are still in the game.
    pub fn players_in(&self) -> u32 {
        self.alive.count_ones()
    }

    /// Applies the end rules up to the last `lose` rule to the player to move; true when
    /// that player was taken out and the turn passed on. `unattacked` is a player whose royal
    /// piece the player to move is known not to attack.
    fn take_out_losers(&mut self, mut unattacked: Option<usize>) -> bool {
        let rules = self.rules;
        let Some(last) = rules
            .endings
            .rules
            .iter()
            .rposition(|&(o, _)| o == Outcome::Lose)
        else {
            return false;
        };
        let mut turns: Option<Vec<Turn>> = None;
        let mut taken_out = false;
        for (index, &(outcome, condition)) in rules.endings.rules[..=last].iter().enumerate() {
            if (outcome, condition) == (Outcome::Lose, EndCondition::Exposed) {
                self.take_out_exposed(index, unattacked.take());
                if self.players_in() <= 1 {
                    break;
                }
                // The board changed: the player to move's turns are judged afresh.
                if let Some(list) = turns.take() {
                    self.scratch.push(list);
                }
                continue;
            }
            if !self.holds_lazily(condition, &mut turns) {
                continue;
            }
            if outcome == Outcome::Lose {
                let player = self.to_move;
                self.take_out(player, index, player);
                self.hand_on(player);
                taken_out = true;
            }
            break;
        }
        match turns {
            // Generated for the position as it stands: the turn's first generation uses them.
            Some(list) if !taken_out => self.ready = Some((self.depth(), list)),
            Some(list) => self.scratch.push(list),
            None => {}
        }
        taken_out
    }

    /// Whether `condition` holds for the player to move, generating their legal turns the
    /// first time a condition needs them.
    fn holds_lazily(&mut self, condition: EndCondition, turns: &mut Option<Vec<Turn>>) -> bool {
        // Where the turns can be counted, having none is found without building them, unless
        // they will be listed anyway.
        if condition.needs_only_stuck()
            && turns.is_none()
            && !self.lists_next
            && let Some(count) = self.count_unbuilt()
        {
            self.ready_count = Some((self.depth(), count));
            return count == 0 && self.holds_when_stuck(condition);
        }
        if condition.needs_turns() && turns.is_none() {
            let mut list = self.scratch.pop().unwrap_or_default();
            self.generate_legal(&mut list);
            *turns = Some(list);
        }
        self.holds(condition, turns.as_deref().unwrap_or_default())
    }

    /// Takes out every other player whose royal piece the player to move attacks, until no
    /// player left is attacked; `unattacked` is not tested the first time (an army taken off
    /// may open a line to it).
    fn take_out_exposed(&mut self, rule: usize, mut unattacked: Option<usize>) {
        let mover = self.to_move;
        loop {
            let exposed = self.exposed_players(mover, unattacked.take());
            if exposed == 0 {
                return;
            }
            for player in (0..self.rules.players.count()).filter(|p| exposed & (1 << p) != 0) {
                self.take_out(player, rule, mover);
            }
        }
    }

    /// The other players still in, but `unattacked`, whose royal piece `mover` attacks, as
    /// bits.
    pub(super) fn exposed_players(&self, mover: usize, unattacked: Option<usize>) -> u32 {
        self.players_still_in()
            .filter(|&p| p != mover && Some(p) != unattacked)
            .filter(|&p| self.royal_attacked_by(p, mover))
            .fold(0, |bits, p| bits | 1 << p)
    }

    /// Removes `player` from the game: their pieces leave the board and their hand.
    fn take_out(&mut self, player: usize, rule: usize, by: usize) {
        // A count made before no longer belongs to the board, nor perhaps to the player to move.
        self.ready_count = None;
        let pieces =
            at_width!(self.rules, B => self.player_set::<B>(player).squares().collect::<Vec<Sq>>());
        for sq in pieces {
            self.put(sq, EMPTY);
        }
        for kind in 0..self.rules.pieces.kinds.len() {
            let slot = self.hand_slot(player, kind);
            if self.hands[slot] > 0 {
                self.set_hand(slot, 0);
            }
        }
        // Their castling rights go with their pieces.
        let theirs = (self.rules.castling.rights.iter().enumerate())
            .filter(|(_, right)| right.player == player)
            .fold(0u32, |bits, (bit, _)| bits | 1 << bit);
        let castling = self.castling & !theirs;
        let z = &self.rules.zobrist;
        self.hash ^= z.castling_rights(self.castling) ^ z.castling_rights(castling);
        self.castling = castling;
        let alive = self.alive & !(1 << player);
        self.hash ^= z.out(!self.alive) ^ z.out(!alive);
        self.alive = alive;
        self.last_out = Some(Out {
            player: player as u8,
            rule: rule as u8,
            by: by as u8,
        });
    }
}
