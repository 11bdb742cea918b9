//! The start of a turn in games of more than two players. There a `lose` rule does not end
//! the game: it takes the player it holds for out, with their pieces on the board and in
//! hand, and play goes on among the others until one is left.
//!
//! The rules are tried in file order for the player to move. `exposed` takes out every other
//! player whose royal piece the player to move attacks, again until none is (an army taken
//! off can open a line to another); any other `lose` rule that holds takes out the player to
//! move, and the next player's turn starts over. A `win` or `draw` rule that holds stops
//! here, and [`Position::ending`] reports it.

use super::pins::Pins;
use super::position::{Out, Position, bits_in};
use super::turn::{PartKind, Turn};
use crate::bitboard::Bitboard;
use crate::compile::{EMPTY, EndCondition, Legality, NO_SQUARE, Outcome, Sq};

/// The other players whose royal piece the player after a position's mover does not attack
/// there, found once for all the mover's turns, which perft and search make one after
/// another: for each, the player, their royal square, and the squares on which a piece
/// arriving or leaving could change that (see [`Position::live_exposure`]), as two words. A
/// position keeps one for each depth of made turns, so that a mover's turns after the first
/// find it still there once the turns below the first are unmade.
#[derive(Clone, Debug, Default)]
pub(super) struct SpareMemo {
    /// The position they were found in: its hash and occupied squares.
    key: (u64, [u64; 2]),
    attacker: usize,
    spared: Vec<(usize, Sq, [u64; 2])>,
    /// Whether a piece arriving on the squares of `spared` can only block the attacker's
    /// attacks (see [`Position::arrivals_only_block`]).
    arrival_blocks: bool,
    /// The single royal piece of the player who plays next, where the player after them
    /// (not the mover) does not attack it: the in-check test of the next position, which
    /// every count and listing there makes first, is then mostly answered here.
    next_safe: Option<SafeRoyal>,
}

/// A royal piece not attacked, and what a lone move of a third player must avoid to keep it
/// so.
#[derive(Clone, Copy, Debug)]
struct SafeRoyal {
    royal: Sq,
    /// The squares on which a piece leaving or arriving could change that (see
    /// [`Position::live_exposure`]), as two words.
    exposure: [u64; 2],
    /// Whether a piece arriving there can only block an attack: the attacker has no hoppers,
    /// which a new hurdle lets capture, and no conditional captures.
    arrival_blocks: bool,
    /// The pins against it, which a lone move of a third player that neither leaves nor
    /// enters those squares leaves as they are.
    pins: Pins<u128>,
}

/// What a lone turn leaves known about the next position (see [`Position::spared_after`]).
pub(super) struct Spared {
    /// The player who plays next.
    pub attacker: usize,
    /// The other players that player does not attack, as bits.
    pub players: u32,
    /// Whether that player's royal piece is not attacked by the player after them.
    pub royal_safe: bool,
    /// Whether, besides, the pins against it are those of [`SpareMemo::next_safe`].
    pub pins_kept: bool,
}

impl Position<'_> {
    /// Settles the start of the turn. `passed` is the square a piece passed on the turn just
    /// made and `victim` where that piece stands: en passant belongs to whoever plays next.
    /// `mover` made that turn, legally, if known and followed by the player after them: the
    /// legality that kept their royal piece from the player now to move spares testing it
    /// again, as does `spared`, the players known not to be attacked by the player to move
    /// (see [`Position::spared_after`]).
    pub(super) fn start_turn(&mut self, passed: Sq, victim: Sq, mover: Option<usize>, spared: u32) {
        if !self.rules.derived.eliminates {
            return;
        }
        let first = self.to_move;
        let moved = (victim != NO_SQUARE).then(|| self.board[victim as usize]);
        let tested = matches!(
            self.rules.derived.legality,
            Legality::Pins | Legality::MakeAndTest
        );
        let unattacked = mover.filter(|_| tested);
        let mut spared = spared | unattacked.map_or(0, |m| 1 << m);
        while self.players_in() > 1 && self.take_out_losers(std::mem::take(&mut spared)) {}
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
    /// that player was taken out and the turn passed on. `spared` are players whose royal
    /// piece the player to move is known not to attack, as bits.
    fn take_out_losers(&mut self, mut spared: u32) -> bool {
        let endings = &self.rules.endings;
        let mut turns: Option<Vec<Turn>> = None;
        let mut taken_out = false;
        let applied = &endings.rules[..endings.through_last_lose];
        for (index, &(outcome, condition)) in applied.iter().enumerate() {
            if outcome == Outcome::Lose && matches!(condition, EndCondition::Exposed) {
                self.take_out_exposed(index, std::mem::take(&mut spared));
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
    /// player left is attacked; those in `spared` are not tested the first time (an army
    /// taken off may open a line to them).
    fn take_out_exposed(&mut self, rule: usize, mut spared: u32) {
        let mover = self.to_move;
        loop {
            let exposed = self.exposed_players(mover, std::mem::take(&mut spared));
            if exposed == 0 {
                return;
            }
            for player in (0..self.rules.players.count()).filter(|p| exposed & (1 << p) != 0) {
                self.take_out(player, rule, mover);
            }
        }
    }

    /// The other players still in, but those in `spared`, whose royal piece `mover` attacks,
    /// as bits.
    pub(super) fn exposed_players(&self, mover: usize, spared: u32) -> u32 {
        let suspects = self.alive & !spared & !(1 << mover);
        bits_in(u64::from(suspects))
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

    /// The player who plays after `mover` once `turn` is made, the other players that
    /// player is then sure not to attack, as bits, and whether that player's royal piece is
    /// then sure not to be attacked by the player after them: those not attacked now, where
    /// the turn is a lone move or drop that neither leaves nor enters a square that could
    /// change that and takes nothing but the piece it lands on.
    pub(super) fn spared_after(&mut self, turn: &Turn, mover: usize) -> Spared {
        let nothing = Spared {
            attacker: self.next_player(mover),
            players: 0,
            royal_safe: false,
            pins_kept: false,
        };
        let rules = self.rules;
        let &[part] = turn.parts() else {
            return nothing;
        };
        let lone = rules.derived.spares_after_lone_turns
            && matches!(part.kind, PartKind::Move | PartKind::Drop)
            && part.to != self.ep
            && rules.bits.words() <= 2;
        if !lone {
            return nothing;
        }
        at_width!(rules, B => self.remember_spared::<B>(mover));
        let clear = |exposure: &[u64; 2], sq: Sq| {
            sq == NO_SQUARE || (exposure[usize::from(sq >= 64)] >> (sq % 64)) & 1 == 0
        };
        let memo = &self.spare_memos[self.depth()];
        // Arriving on a line only blocks it, and taking the attacker's piece only takes an
        // attack away: where arrivals only block, leaving the lines is all that matters.
        let mut spared = 0;
        for &(player, royal, ref exposure) in &memo.spared {
            if part.to != royal
                && clear(exposure, part.from)
                && (memo.arrival_blocks || clear(exposure, part.to))
            {
                spared |= 1 << player;
            }
        }
        let (royal_safe, pins_kept) = match &memo.next_safe {
            Some(safe) => {
                let left = part.to != safe.royal && clear(&safe.exposure, part.from);
                let untouched = left && clear(&safe.exposure, part.to);
                (untouched || (left && safe.arrival_blocks), untouched)
            }
            None => (false, false),
        };
        Spared {
            attacker: memo.attacker,
            players: spared,
            royal_safe,
            pins_kept,
        }
    }

    /// The pins that [`SpareMemo`] found against the royal piece of the player now to move,
    /// in the position before the turn that led here, which kept them (see
    /// [`Spared::pins_kept`]).
    #[inline(always)]
    pub(super) fn memo_pins<B: Bitboard>(&self) -> Pins<B> {
        let before = self
            .depth()
            .checked_sub(1)
            .and_then(|d| self.spare_memos.get(d));
        (before.and_then(|memo| memo.next_safe.as_ref()))
            .map_or_else(Pins::unfound, |safe| Pins::from_kept(&safe.pins))
    }

    /// Finds [`SpareMemo`] for `mover`'s turns in the position, unless it was found already:
    /// as it was for all but the first of them, which [`Position::find_spared`] serves.
    #[inline(always)]
    fn remember_spared<B: Bitboard>(&mut self, mover: usize) {
        let key = (self.hash, self.occupied::<B>().two_words());
        let depth = self.depth();
        if self
            .spare_memos
            .get(depth)
            .is_none_or(|memo| memo.key != key)
        {
            self.find_spared::<B>(mover, key, depth);
        }
    }

    /// Finds [`SpareMemo`] for `mover`'s turns in the position whose key is `key`, at `depth`.
    #[inline(never)]
    fn find_spared<B: Bitboard>(&mut self, mover: usize, key: (u64, [u64; 2]), depth: usize) {
        if self.spare_memos.len() <= depth {
            self.spare_memos.resize_with(depth + 1, SpareMemo::default);
        }
        let attacker = self.next_player(mover);
        let mut spared = std::mem::take(&mut self.spare_memos[depth].spared);
        spared.clear();
        let others = self
            .players_still_in()
            .filter(|&p| p != mover && p != attacker);
        for player in others {
            let royals = self.royal_set::<B>(player);
            if royals.count() != 1 {
                continue;
            }
            let royal = royals.lowest();
            if !self.attacked_in::<B>(royal, attacker, self.occupied(), !B::NONE) {
                let exposure = self.live_exposure::<B>(royal, attacker).two_words();
                spared.push((player, royal, exposure));
            }
        }
        self.spare_memos[depth] = SpareMemo {
            key,
            attacker,
            spared,
            arrival_blocks: self.arrivals_only_block(attacker),
            next_safe: self.safe_royal::<B>(attacker, mover),
        };
    }

    /// The squares on which a piece of the mover, arriving or leaving, could change whether
    /// `attacker`, who is not the mover, attacks `royal`: [`Position::exposure`] less the
    /// slide lines that hold none of the `attacker`'s pieces that slide along them, as no turn
    /// of the mover gives them one.
    fn live_exposure<B: Bitboard>(&self, royal: Sq, attacker: usize) -> B {
        let bits = &self.rules.bits;
        let theirs = self.player_set::<B>(attacker);
        let kind_bits = self.rules.pieces.kind_bits_of(attacker);
        // Most lines hold none of the attacker's pieces: only those that do are read.
        self.exposure_along(royal, attacker, |line, kinds| {
            (bits.line::<B>(line, royal) & theirs)
                .squares()
                .any(|sq| kind_bits[self.board[sq as usize] as usize] & kinds != 0)
        })
    }

    /// Whether a piece arriving on a square where it could change whether `attacker` attacks
    /// a royal piece can only block that attack: `attacker` has no hoppers, which a new
    /// hurdle lets capture, and no conditional captures.
    fn arrivals_only_block(&self, attacker: usize) -> bool {
        let attacks = &self.rules.pieces.attacks[attacker];
        attacks.hops.is_empty() && attacks.conditional.is_empty()
    }

    /// The single royal piece of `player`, when the player after them, who is not `mover`,
    /// does not attack it, with what could change that.
    fn safe_royal<B: Bitboard>(&self, player: usize, mover: usize) -> Option<SafeRoyal> {
        let rules = self.rules;
        let after = self.next_player(player);
        // The mover's own turn changes the attacker's pieces: nothing is known then.
        if after == mover || rules.derived.legality != Legality::Pins {
            return None;
        }
        let royals = self.royal_set::<B>(player);
        if royals.count() != 1 {
            return None;
        }
        let royal = royals.lowest();
        if self.attacked_in::<B>(royal, after, self.occupied(), !B::NONE) {
            return None;
        }
        Some(SafeRoyal {
            royal,
            exposure: self.live_exposure::<B>(royal, after).two_words(),
            arrival_blocks: self.arrivals_only_block(after),
            pins: self.pins::<B>(royals, player, after).kept(),
        })
    }
}
