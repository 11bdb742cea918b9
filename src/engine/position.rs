//! A position: the board, hands, whose turn it is, the phase, castling rights, en passant,
//! clocks, and an incremental hash. Turns are made in place: every change a turn makes is
//! written to one journal and undone from it, so searching allocates nothing per move.

use super::elimination::SpareMemo;
use super::setup::Setup;
use super::turn::{Part, PartKind, Turn};
use crate::bitboard::{Bitboard, Masks};
use crate::compile::turns::{Phase, PhaseEnd};
use crate::compile::{BLOCKED, Code, EMPTY, Explosion, NO_SQUARE, Ruleset, Sq};
use std::time::Instant;

/// One change to the position's variable-length state, with the value it replaced.
#[derive(Clone, Copy, Debug)]
enum Change {
    Square(Sq, Code),
    Hand(u16, u8),
    Unmoved(Sq, bool),
    PhaseTurns(u8, u32),
    Counter(u16, u16),
    Swapped,
    /// The gate on the square closed.
    GateClosed(Sq),
}

/// The scalars a made turn may change, saved whole, and where its journal entries start.
#[derive(Clone, Copy, Debug)]
struct Undo {
    journal: u32,
    hash: u64,
    to_move: u8,
    phase: u8,
    ep_player: u8,
    ep: Sq,
    ep_victim: Sq,
    castling: u32,
    alive: u32,
    last_out: Option<Out>,
    halfmove: u32,
    fullmove: u32,
    passes: u8,
}

/// The last player taken out of the game, for saying how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Out {
    pub player: u8,
    /// The end rule that took them out, an index into the ruleset's end rules.
    pub rule: u8,
    /// The player to move when it happened.
    pub by: u8,
}

/// A point in the journal to go back to, for changes made while generating a turn.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark {
    journal: usize,
    hash: u64,
}

/// The position's bitboards are rows of one table: a row per piece code (blocked squares
/// under [`BLOCKED`]), then a row per player, then the row of every occupied or blocked square.
const PLAYER_ROWS: usize = 256;

#[derive(Clone, Debug)]
pub struct Position<'r> {
    pub(super) rules: &'r Ruleset,
    pub(super) board: Vec<Code>,
    /// The board again as bitboards, kept in step with `board` (see [`PLAYER_ROWS`]).
    sets: Masks,
    /// `hands[player * kinds + kind]`.
    pub(super) hands: Vec<u8>,
    /// The kinds each player holds at least one of, as bits, kept in step with `hands`: a
    /// drop step asks on every count, and most hands are empty.
    held: Vec<u64>,
    pub(super) to_move: usize,
    pub(super) castling: u32,
    /// The square a piece passed on the last turn, open to en passant.
    pub(super) ep: Sq,
    /// Where the piece that passed `ep` stands.
    pub(super) ep_victim: Sq,
    /// The player allowed to capture en passant.
    pub(super) ep_player: u8,
    pub(super) halfmove: u32,
    /// How many of the last turns, in a row, were passes (kept only when an end rule asks).
    pub(super) passes: u8,
    pub(super) fullmove: u32,
    pub(super) hash: u64,
    /// The players still in the game, as bits.
    pub(super) alive: u32,
    /// The last player taken out, in games of more than two players.
    pub(super) last_out: Option<Out>,
    /// The phase being played, an index into the ruleset's phases; past the last one once
    /// the last phase has ended.
    pub(super) phase: u8,
    /// Each player's turns played in the current phase.
    pub(super) phase_turns: Vec<u32>,
    /// Whether the players have exchanged colours by the pie choice.
    pub(super) swapped: bool,
    /// Counter values, `counters[player * counters + counter]`.
    pub(super) counters: Vec<u16>,
    /// The kinds each player lost during the turn being made, for counter events.
    lost: Vec<u64>,
    /// Whether the piece on each square has not moved yet (kept when a rule is `first`).
    pub(super) unmoved: Vec<bool>,
    undo: Vec<Undo>,
    journal: Vec<Change>,
    /// Move lists reused by the turn programs' steps.
    pub(super) scratch: Vec<Vec<Turn>>,
    /// What the turns of each depth's position leave known (see [`SpareMemo`]).
    pub(super) spare_memos: Vec<SpareMemo>,
    /// The position (hash and depth) where the royal piece of the player to move is known,
    /// from the turn that led there, not to be attacked by the next player: taking a player
    /// out changes the hash, and so forgets it.
    pub(super) safe_royal_at: Option<(u64, usize)>,
    /// Whether, there, the pins against that royal piece are those found before the turn
    /// that led there (see [`Position::memo_pins`]).
    pub(super) royal_pins_kept: bool,
    /// The legal turns of the player to move, when the start of the turn already generated
    /// them, with the depth of made turns they belong to.
    pub(super) ready: Option<(usize, Vec<Turn>)>,
    /// Whether the turns of the positions the turns made next lead to will be listed, not
    /// just counted: the start of a turn then lists them to see whether the player is stuck,
    /// for the listing to reuse, rather than counting them first.
    pub(super) lists_next: bool,
    /// How many legal turns the player to move has, when the start of the turn already
    /// counted them, with the depth of made turns the count belongs to.
    pub(super) ready_count: Option<(usize, u64)>,
    /// Set while [`Position::legal_captures`] generates: moves to empty squares and drops
    /// are not generated.
    pub(super) captures_only: bool,
    /// Whether each square is an open gate (kept when a turn may gate).
    pub(super) gates: Vec<bool>,
    /// Whether some position's turns were cut short at [`MAX_TURNS`](crate::limits::MAX_TURNS):
    /// every answer since may be short, and says so.
    pub(super) turns_overflowed: bool,
    /// When a caller with a time budget (the computer player) must have its answer: legality
    /// by replies stops judging turns past it.
    deadline: Option<Instant>,
    /// Some generation since the deadline was set stopped at it, so its list is short.
    timed_out: bool,
}

impl<'r> Position<'r> {
    /// The position a well-formed setup describes, not yet judged, refreshed or started: the
    /// phase settled and the player to move chosen where the setup leaves them open. A piece
    /// counts as unmoved where the start position has the same piece.
    pub(super) fn assemble(rules: &'r Ruleset, setup: &Setup) -> Self {
        let players = rules.players.count();
        let squares = setup.board.len();
        let unmoved = (setup.board.iter().zip(&rules.start.board))
            .map(|(&code, &start)| code != EMPTY && code == start)
            .collect();
        let mut position = Position {
            rules,
            board: vec![EMPTY; setup.board.len()],
            sets: Masks::new(rules.bits.words(), PLAYER_ROWS + players + 1),
            hands: setup.hands.clone(),
            held: held_kinds(&setup.hands, players, rules.pieces.kinds.len()),
            to_move: setup.to_move.unwrap_or(0),
            castling: setup.castling,
            ep: NO_SQUARE,
            ep_victim: NO_SQUARE,
            ep_player: 0,
            halfmove: setup.halfmove,
            passes: 0,
            fullmove: setup.fullmove,
            hash: 0,
            alive: setup.alive,
            last_out: None,
            phase: setup.phase.unwrap_or(0),
            phase_turns: setup.phase_turns.clone(),
            swapped: setup.swapped,
            counters: setup.counters.clone(),
            lost: vec![0; players],
            unmoved,
            undo: Vec::with_capacity(64),
            journal: Vec::with_capacity(256),
            scratch: Vec::new(),
            spare_memos: Vec::new(),
            safe_royal_at: None,
            royal_pins_kept: false,
            ready: None,
            lists_next: false,
            ready_count: None,
            captures_only: false,
            gates: vec![false; if rules.derived.gates { squares } else { 0 }],
            turns_overflowed: false,
            deadline: None,
            timed_out: false,
        };
        for (sq, &code) in setup.board.iter().enumerate() {
            position.set_square(sq as Sq, code);
        }
        // A gate is open only under a piece.
        for &sq in setup
            .gates
            .iter()
            .filter(|&&sq| setup.board[sq as usize] != EMPTY)
        {
            if let Some(open) = position.gates.get_mut(sq as usize) {
                *open = true;
            }
        }
        if setup.phase.is_none() {
            position.settle_phase();
        }
        if setup.to_move.is_none() {
            position.to_move = position.first_mover();
        }
        position
    }

    pub fn rules(&self) -> &'r Ruleset {
        self.rules
    }

    /// The code on each square.
    pub fn board(&self) -> &[Code] {
        &self.board
    }

    /// How many pieces of `kind` `player` has in hand.
    pub fn in_hand(&self, player: usize, kind: usize) -> u8 {
        self.hands[self.hand_slot(player, kind)]
    }

    /// The kinds `player` has a piece of to drop, as bits: one in hand, or an endless supply.
    #[inline]
    pub(super) fn droppable(&self, player: usize) -> u64 {
        self.held[player] | self.rules.derived.endless_kinds
    }

    /// Whether `kind` comes from an endless supply.
    #[inline]
    pub(super) fn endless(&self, kind: usize) -> bool {
        self.rules.derived.endless_kinds & (1 << kind) != 0
    }

    /// Every hand, `[player * kinds + kind]`.
    pub fn hands(&self) -> &[u8] {
        &self.hands
    }

    pub fn to_move(&self) -> usize {
        self.to_move
    }

    /// The players still in the game, as bits.
    pub fn alive(&self) -> u32 {
        self.alive
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether the players have exchanged colours by the pie choice.
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// Each player's turns played in the phase.
    pub fn phase_turns(&self) -> &[u32] {
        &self.phase_turns
    }

    /// The last player taken out of the game, in games of more than two players.
    pub fn last_out(&self) -> Option<Out> {
        self.last_out
    }

    /// Starts the turn of a position just set up, as if `passed` had just been passed by the
    /// piece now on `victim` (`NO_SQUARE` for none). Nothing of it can be unmade.
    pub(super) fn begin_turn(&mut self, passed: Sq, victim: Sq) {
        self.forget_ready();
        self.start_turn(passed, victim, None, 0);
        self.confirm_en_passant();
        self.journal.clear();
    }

    /// Recomputes what is derived from the rest: the hash.
    pub(super) fn refresh(&mut self) {
        self.forget_ready();
        self.hash = self.compute_hash();
    }

    pub fn compute_hash(&self) -> u64 {
        let z = &self.rules.zobrist;
        let mut hash = z.to_move[self.to_move] ^ z.castling_rights(self.castling);
        for (sq, &code) in self.board.iter().enumerate() {
            if code != EMPTY {
                hash ^= z.piece(code, sq as Sq);
            }
        }
        for (slot, &count) in self.hands.iter().enumerate() {
            hash ^= z.hand(slot, count);
        }
        if self.ep != NO_SQUARE {
            hash ^= z.ep[self.ep as usize];
        }
        hash ^= z.phase(self.phase) ^ z.out(!self.alive);
        if self.swapped {
            hash ^= z.swapped;
        }
        let cycle = self.turn_cycle();
        for (player, &count) in self.phase_turns.iter().enumerate() {
            hash ^= z.phase_turns(player, count % cycle);
        }
        for (slot, &value) in self.counters.iter().enumerate() {
            hash ^= z.counter(slot, value);
        }
        for (sq, _) in self.gates.iter().enumerate().filter(|&(_, &open)| open) {
            hash ^= z.gate(sq as Sq);
        }
        hash
    }

    /// The kind and player of a code, or `None` for empty and blocked squares.
    #[inline]
    pub fn piece(&self, code: Code) -> Option<(usize, usize)> {
        (code != EMPTY && code != BLOCKED).then(|| self.rules.pieces.split(code))
    }

    /// The players still in the game, in turn order.
    pub(super) fn players_still_in(&self) -> impl Iterator<Item = usize> + use<'_, 'r> {
        (0..self.rules.players.count()).filter(|&p| self.alive & (1 << p) != 0)
    }

    /// Sets (or with `None`, lifts) the time by which generations must end: past it, legality
    /// by replies stops judging turns, keeping none of those left, and
    /// [`timed_out`](Self::timed_out) says so until the deadline is set again.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.timed_out = false;
    }

    /// Whether some generation since the deadline was set stopped at it, so that lists and
    /// answers since may be short.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// Whether the deadline has passed, reading the clock only while it has not.
    pub(super) fn past_deadline(&mut self) -> bool {
        if !self.timed_out && self.deadline.is_some_and(|at| Instant::now() >= at) {
            self.timed_out = true;
        }
        self.timed_out
    }

    /// Whether some position since this one was set up had more turns than fairy holds (see
    /// [`MAX_TURNS`](crate::limits::MAX_TURNS)), so that lists and counts since may be short.
    pub fn turns_overflowed(&self) -> bool {
        self.turns_overflowed
    }

    /// The next player in turn order who is still in the game: the first still in after
    /// `player`, else the first from the start (`player` itself if no other is left).
    pub fn next_player(&self, player: usize) -> usize {
        let after = self.alive & !((2 << player) - 1);
        match (after, self.alive) {
            (0, 0) => player,
            (0, alive) => alive.trailing_zeros() as usize,
            (after, _) => after.trailing_zeros() as usize,
        }
    }

    pub fn hand_slot(&self, player: usize, kind: usize) -> usize {
        player * self.rules.pieces.kinds.len() + kind
    }

    /// What each player's count of turns in the phase matters modulo.
    fn turn_cycle(&self) -> u32 {
        self.current_phase().map_or(1, |p| p.cycle)
    }

    /// The phase being played, or `None` once the last phase has ended.
    pub fn current_phase(&self) -> Option<&'r Phase> {
        self.rules.turns.phases.get(self.phase as usize)
    }

    // -----------------------------------------------------------------------------------------
    // Journaled changes: each records what it replaces and keeps the hash up to date.

    pub(super) fn set_hand(&mut self, slot: usize, count: u8) {
        self.journal
            .push(Change::Hand(slot as u16, self.hands[slot]));
        let z = &self.rules.zobrist;
        self.hash ^= z.hand(slot, self.hands[slot]) ^ z.hand(slot, count);
        self.write_hand(slot, count);
    }

    /// Sets a hand's count, and whether its player holds the kind.
    fn write_hand(&mut self, slot: usize, count: u8) {
        self.hands[slot] = count;
        let kinds = self.rules.pieces.kinds.len();
        let (player, bit) = (slot / kinds, 1 << (slot % kinds));
        match count {
            0 => self.held[player] &= !bit,
            _ => self.held[player] |= bit,
        }
    }

    #[inline]
    pub(super) fn put(&mut self, sq: Sq, code: Code) {
        let old = self.board[sq as usize];
        self.journal.push(Change::Square(sq, old));
        let z = &self.rules.zobrist;
        if old != EMPTY {
            self.hash ^= z.piece(old, sq);
        }
        if code != EMPTY {
            self.hash ^= z.piece(code, sq);
        }
        self.set_square(sq, code);
    }

    /// Puts `code` on `sq`, board and bitboards alike, with no journal or hash.
    #[inline]
    pub(super) fn set_square(&mut self, sq: Sq, code: Code) {
        let old = self.board[sq as usize];
        self.board[sq as usize] = code;
        for changed in [old, code] {
            if changed != EMPTY {
                self.toggle_sets(sq, changed);
            }
        }
    }

    /// Adds `code` on `sq` to the bitboards, or takes it off.
    #[inline]
    fn toggle_sets(&mut self, sq: Sq, code: Code) {
        let players = self.rules.players.count();
        self.sets.toggle(code as usize, sq);
        self.sets.toggle(PLAYER_ROWS + players, sq);
        if code != BLOCKED {
            let (_, player) = self.rules.pieces.split(code);
            self.sets.toggle(PLAYER_ROWS + player, sq);
        }
    }

    /// Calls `visit` with the square and code of each piece on the board of a kind in `kinds`
    /// (a bit per kind), whoever owns it, lowest square first: a walk over those pieces alone,
    /// for those who read the board often (the evaluation).
    #[inline]
    pub fn for_each_piece_of(&self, kinds: u64, mut visit: impl FnMut(Sq, Code)) {
        at_width!(self.rules, B => {
            let pieces = (0..self.rules.players.count())
                .fold(B::NONE, |set, p| set | self.kinds_set::<B>(p, kinds));
            for sq in pieces.squares() {
                visit(sq, self.board[sq as usize]);
            }
        })
    }

    /// Whether `player` has a piece of a kind in `kinds` (a bit per kind) on the board.
    pub fn has_any_of(&self, player: usize, kinds: u64) -> bool {
        at_width!(self.rules, B => self.kinds_set::<B>(player, kinds).any())
    }

    /// The squares holding `code` (blocked squares for [`BLOCKED`]).
    #[inline]
    pub(super) fn code_set<B: Bitboard>(&self, code: Code) -> B {
        self.sets.get(code as usize)
    }

    /// The squares of `player`'s pieces.
    #[inline]
    pub(super) fn player_set<B: Bitboard>(&self, player: usize) -> B {
        self.sets.get(PLAYER_ROWS + player)
    }

    /// The squares of the pieces of `player`'s enemies (every other player's).
    #[inline]
    pub(super) fn enemy_set<B: Bitboard>(&self, player: usize) -> B {
        self.occupied::<B>() & !self.player_set::<B>(player) & !self.code_set::<B>(BLOCKED)
    }

    /// The squares holding a piece or blocked.
    #[inline]
    pub(super) fn occupied<B: Bitboard>(&self) -> B {
        self.sets.get(PLAYER_ROWS + self.rules.players.count())
    }

    /// The squares of `player`'s pieces of the kinds in `kinds`.
    #[inline(always)]
    pub(super) fn kinds_set<B: Bitboard>(&self, player: usize, kinds: u64) -> B {
        // One kind first, the commonest ask (a royal piece): no mask of every kind to work out.
        if kinds.is_power_of_two() {
            return self.code_set(
                self.rules
                    .pieces
                    .code(kinds.trailing_zeros() as usize, player),
            );
        }
        if kinds == self.rules.pieces.all() {
            return self.player_set(player);
        }
        let mut set = B::NONE;
        let mut rest = kinds;
        while rest != 0 {
            let kind = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            set |= self.code_set(self.rules.pieces.code(kind, player));
        }
        set
    }

    /// Sets whether the piece on `sq` is unmoved.
    fn note_unmoved(&mut self, sq: Sq, value: bool) {
        if sq != NO_SQUARE {
            self.journal
                .push(Change::Unmoved(sq, self.unmoved[sq as usize]));
            self.unmoved[sq as usize] = value;
        }
    }

    fn set_phase_turns(&mut self, player: usize, count: u32) {
        let old = self.phase_turns[player];
        self.journal.push(Change::PhaseTurns(player as u8, old));
        let cycle = self.turn_cycle();
        let z = &self.rules.zobrist;
        self.hash ^= z.phase_turns(player, old % cycle) ^ z.phase_turns(player, count % cycle);
        self.phase_turns[player] = count;
    }

    pub(super) fn set_counter(&mut self, player: usize, counter: usize, value: u16) {
        let slot = player * self.rules.turns.counters.len() + counter;
        let old = self.counters[slot];
        self.journal.push(Change::Counter(slot as u16, old));
        let z = &self.rules.zobrist;
        self.hash ^= z.counter(slot, old) ^ z.counter(slot, value);
        self.counters[slot] = value;
    }

    fn toggle_swapped(&mut self) {
        self.journal.push(Change::Swapped);
        self.swapped = !self.swapped;
        self.hash ^= self.rules.zobrist.swapped;
    }

    pub(super) fn journal_len(&self) -> usize {
        self.journal.len()
    }

    /// The count in hand `slot` as it was when the journal was `start` long.
    pub(super) fn hand_at(&self, slot: usize, start: usize) -> u8 {
        let earliest = self.journal[start..]
            .iter()
            .find_map(|change| match *change {
                Change::Hand(s, count) if s as usize == slot => Some(count),
                _ => None,
            });
        earliest.unwrap_or(self.hands[slot])
    }

    pub(super) fn mark(&self) -> Mark {
        Mark {
            journal: self.journal.len(),
            hash: self.hash,
        }
    }

    /// Undoes every journaled change made since `mark`.
    pub(super) fn rewind(&mut self, mark: Mark) {
        while self.journal.len() > mark.journal {
            match self.journal.pop().expect("longer than the mark") {
                Change::Square(sq, code) => self.set_square(sq, code),
                Change::Hand(slot, count) => self.write_hand(slot as usize, count),
                Change::Unmoved(sq, value) => self.unmoved[sq as usize] = value,
                Change::PhaseTurns(player, count) => self.phase_turns[player as usize] = count,
                Change::Counter(slot, value) => self.counters[slot as usize] = value,
                Change::Swapped => self.swapped = !self.swapped,
                Change::GateClosed(sq) => self.gates[sq as usize] = true,
            }
        }
        self.hash = mark.hash;
    }

    // -----------------------------------------------------------------------------------------
    // Making and unmaking turns.

    /// Removes the piece on `sq` as a capture by `capturer`: to the capturer's hand if the
    /// rules say so, as the kind it demotes to.
    fn capture(&mut self, sq: Sq, capturer: usize) {
        if let Some((kind, player)) = self.piece(self.board[sq as usize]) {
            let slot = self.hand_slot(capturer, self.rules.pieces.kinds[kind].demotes_to as usize);
            // A full hand (255 of a kind) takes no more; an endless supply needs none.
            let returns = self.rules.pieces.kinds[kind].demotes_to as usize;
            if self.rules.captures.to_hand && self.hands[slot] < u8::MAX && !self.endless(returns) {
                self.set_hand(slot, self.hands[slot] + 1);
            }
            self.lift(sq, kind, player);
        }
    }

    /// Takes the piece of `kind` and `player` off `sq`.
    fn lift(&mut self, sq: Sq, kind: usize, player: usize) {
        if let Some(lost) = self.lost.get_mut(player) {
            *lost |= 1 << kind;
        }
        self.put(sq, EMPTY);
    }

    /// Applies one part of a turn of `mover` to the board and hands.
    #[inline]
    pub(super) fn apply(&mut self, part: &Part, mover: usize) {
        if self.rules.derived.first_moves {
            self.note_unmoved(part.from, false);
            // A dropped piece counts as unmoved where the start position has it, as when a
            // position is read.
            let fresh = matches!(part.kind, PartKind::Drop | PartKind::Gate)
                && self.rules.start.board[part.to as usize] == part.piece;
            self.note_unmoved(part.to, fresh);
        }
        match part.kind {
            PartKind::Move | PartKind::Promote | PartKind::Partner => {
                // A piece that promotes where it stands finds itself on `to`.
                let captures = part.from != part.to && self.board[part.to as usize] != EMPTY;
                let petrifies = captures && self.petrifies(self.board[part.from as usize]);
                if captures {
                    self.capture(part.to, mover);
                }
                self.put(part.from, EMPTY);
                self.put(part.to, part.piece);
                if part.kind != PartKind::Partner && !self.rules.captures.custodian.is_empty() {
                    self.custodian_captures(part.to, mover);
                }
                if captures {
                    self.capture_effects(part.to, petrifies);
                }
            }
            PartKind::Drop | PartKind::Gate => {
                // A piece dropped on its promoted side leaves the hand of what it was.
                let (kind, _) = self.rules.pieces.split(part.piece);
                let in_hand = self.rules.pieces.kinds[kind].demotes_to as usize;
                if !self.endless(in_hand) {
                    let slot = self.hand_slot(mover, in_hand);
                    self.set_hand(slot, self.hands[slot] - 1);
                }
                self.put(part.to, part.piece);
            }
            PartKind::Take => {
                self.capture(part.from, mover);
                let petrifies = self.petrifies(self.board[part.to as usize]);
                self.capture_effects(part.to, petrifies);
            }
            PartKind::Remove => {
                if let Some((kind, player)) = self.piece(self.board[part.from as usize]) {
                    self.lift(part.from, kind, player);
                }
            }
            PartKind::Block => self.put(part.to, BLOCKED),
            PartKind::Unblock => self.put(part.to, EMPTY),
            PartKind::Choice => {
                if part.piece == 1 {
                    self.toggle_swapped();
                }
            }
            PartKind::Pass => {}
        }
    }

    /// What a capture by the piece now on `to` sets off: the explosion, then, if the piece
    /// (as it was before the move) petrifies and still stands, its turning to stone.
    fn capture_effects(&mut self, to: Sq, petrifies: bool) {
        if let Some(explosion) = self.rules.captures.explosion {
            self.explode(to, explosion);
        }
        if petrifies && self.board[to as usize] != EMPTY {
            self.put(to, BLOCKED);
        }
    }

    /// Whether the piece `code` turns into a blocked square when it captures.
    #[inline]
    fn petrifies(&self, code: Code) -> bool {
        let petrify = self.rules.captures.petrify;
        petrify != 0
            && self
                .piece(code)
                .is_some_and(|(kind, _)| petrify & 1 << kind != 0)
    }

    /// The explosion of a capture on `centre`: the capturing piece there and every piece
    /// next to it leave the board, to no hand, except neighbours of the spared kinds and
    /// pieces of the immune kinds.
    fn explode(&mut self, centre: Sq, explosion: Explosion) {
        for sq in blast_area(self.rules, centre) {
            if let Some((kind, player)) = self.piece(self.board[sq as usize])
                && explosion.immune & (1 << kind) == 0
                && (sq == centre || explosion.spared & (1 << kind) == 0)
            {
                self.lift(sq, kind, player);
            }
        }
    }

    /// Captures each enemy piece next to `arrived` along a custodian line that has a piece of
    /// `mover` directly beyond it.
    fn custodian_captures(&mut self, arrived: Sq, mover: usize) {
        let rules = self.rules;
        if !at_width!(rules, B => self.enemy_beside::<B>(arrived, mover)) {
            return;
        }
        for &line in &rules.captures.custodian[mover] {
            if let Some(taken) = self.flanked(arrived, line, mover, NO_SQUARE) {
                self.capture(taken, mover);
            }
        }
    }

    /// Whether an enemy piece of `mover` stands next to `arrived` along one of its custodian
    /// lines: most arrivals flank none, and a look at the sets settles it.
    #[inline]
    fn enemy_beside<B: Bitboard>(&self, arrived: Sq, mover: usize) -> bool {
        (self.rules.bits.flanked_from::<B>(mover, arrived) & self.enemy_set::<B>(mover)).any()
    }

    /// The enemy piece next to `at` along `line` with a piece of `mover` beyond it, if any;
    /// `vacated` counts as empty.
    pub(super) fn flanked(&self, at: Sq, line: u16, mover: usize, vacated: Sq) -> Option<Sq> {
        let geometry = &self.rules.geometry;
        let owner = |sq: Sq| self.piece(self.board[sq as usize]).map(|(_, p)| p);
        // Most neighbours are empty or friendly: they are looked at first.
        let next = geometry.step(line, at);
        if next == NO_SQUARE || next == vacated || owner(next).is_none_or(|p| p == mover) {
            return None;
        }
        let beyond = geometry.step(line, next);
        (beyond != NO_SQUARE && beyond != vacated && owner(beyond) == Some(mover)).then_some(next)
    }

    /// Applies the parts of `turn` of `mover`, noting what each player loses; the caller
    /// rewinds them.
    pub(super) fn apply_parts(&mut self, turn: &Turn, mover: usize) {
        self.lost.fill(0);
        for part in turn.parts() {
            self.apply(part, mover);
        }
    }

    /// Whether the parts just applied by [`Position::apply_parts`] took any piece.
    pub(super) fn took_any(&self) -> bool {
        self.lost.iter().any(|&kinds| kinds != 0)
    }

    /// Works the events of `turn` of `mover`, its parts just applied by
    /// [`Position::apply_parts`], into `player`'s counters alone, as making it would.
    pub(super) fn count_turn_for(&mut self, turn: &Turn, mover: usize, player: usize) {
        let lost = std::mem::take(&mut self.lost);
        self.count_events_for(turn, mover, &lost, player);
        self.lost = lost;
    }

    /// Says whether the turns of the positions that the turns made from now on lead to will
    /// be listed (true) or only counted (false, the default), so that the start of a turn,
    /// which must know whether the player is stuck, does the work that will be reused.
    pub fn set_lists_next(&mut self, lists: bool) {
        self.lists_next = lists;
    }

    /// Makes a legal turn of the player to move, then starts the next player's turn (in games of
    /// more than two players, taking out the players who lose there).
    pub fn make(&mut self, turn: &Turn) {
        let mover = self.to_move;
        match self.rules.derived.eliminates {
            true => self.make_eliminating(turn, mover),
            false => self.make_as(turn, mover),
        }
        self.confirm_en_passant();
    }

    /// Makes a turn of `mover` where a turn may take players out, and settles the start of
    /// the next. Out of line, so that `make` stays small where it is inlined.
    #[inline(never)]
    fn make_eliminating(&mut self, turn: &Turn, mover: usize) {
        let spared = self.spared_after(turn, mover);
        self.make_as(turn, mover);
        // Only a turn that passed a square leaves a piece to take en passant.
        let victim = match turn.passed {
            NO_SQUARE => NO_SQUARE,
            _ => turn.last_move().map_or(NO_SQUARE, |m| m.to),
        };
        // Found for the player who was to play next, and only for them.
        let next = spared.attacker == self.to_move;
        self.safe_royal_at = (next && spared.royal_safe).then(|| (self.hash, self.depth()));
        self.royal_pins_kept = next && spared.pins_kept;
        let (mover, spared) = match next {
            true => (Some(mover), spared.players),
            false => (None, 0),
        };
        self.start_turn(turn.passed, victim, mover, spared);
    }

    /// Makes a turn of `mover`, who need not be the player to move (to test a turn of
    /// another player for legality, say).
    pub(super) fn make_as(&mut self, turn: &Turn, mover: usize) {
        self.forget_ready();
        self.undo.push(Undo {
            journal: self.journal.len() as u32,
            hash: self.hash,
            to_move: self.to_move as u8,
            phase: self.phase,
            ep_player: self.ep_player,
            ep: self.ep,
            ep_victim: self.ep_victim,
            castling: self.castling,
            alive: self.alive,
            last_out: self.last_out,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            passes: self.passes,
        });
        let rules = self.rules;
        let z = &rules.zobrist;
        self.close_en_passant();
        let breaks_quiet = (turn.captures && rules.derived.captures_break_quiet)
            || (rules.derived.drops_break_quiet
                && turn.parts().iter().any(|p| p.kind == PartKind::Drop));
        let mut quiet = !breaks_quiet;
        let mut castling = self.castling;
        // Only the counters read what each player lost.
        if !rules.turns.counters.is_empty() {
            self.lost.fill(0);
        }
        for part in turn.parts() {
            if matches!(part.kind, PartKind::Move | PartKind::Promote) {
                if let Some((kind, _)) = self.piece(self.board[part.from as usize]) {
                    quiet &= rules.derived.quiet_breakers & (1 << kind) == 0;
                }
                castling &= !(rules.castling.clear[part.from as usize]
                    | rules.castling.clear[part.to as usize]);
            }
            self.apply(part, mover);
            if part.kind == PartKind::Drop
                && let Some(&bits) = rules.castling.earned.get(part.to as usize)
            {
                castling |= self.standing_rights(bits);
            }
        }
        if !rules.pieces.converts.is_empty()
            && let Some(arrived) = (turn.parts().iter().rev())
                .find(|p| matches!(p.kind, PartKind::Move | PartKind::Promote | PartKind::Drop))
            // A piece blown up or turned to stone by its capture converts nothing.
            && self.board[arrived.to as usize] == arrived.piece
        {
            self.convert_neighbours(arrived.piece, arrived.to, mover, &mut castling);
        }
        if turn.captures
            && rules.captures.explosion.is_some()
            && let Some(moved) = turn.last_move()
        {
            // The pieces blown up lose their rights as pieces that move do; an immune piece
            // keeps its square and its rights.
            for sq in blast_area(rules, moved.to) {
                if self.board[sq as usize] == EMPTY {
                    castling &= !rules.castling.clear[sq as usize];
                }
            }
        }
        if castling != self.castling {
            self.hash ^= z.castling_rights(self.castling) ^ z.castling_rights(castling);
            self.castling = castling;
        }
        if rules.derived.gates {
            self.close_gates(turn);
        }
        self.halfmove = if quiet {
            self.halfmove.saturating_add(1)
        } else {
            0
        };
        if rules.derived.counts_passes {
            self.passes = match turn.is_pass() {
                true => self.passes.saturating_add(1),
                false => 0,
            };
        }
        if !rules.turns.counters.is_empty() {
            let lost = std::mem::take(&mut self.lost);
            self.count_events(turn, mover, &lost);
            self.lost = lost;
        }
        let next = self.pass_turn(mover);
        if turn.passed != NO_SQUARE
            && let Some(moved) = turn.last_move()
        {
            self.open_en_passant(turn.passed, moved.to, next);
        }
    }

    /// The enemy pieces next to the piece `code` that arrived on `to`, in the directions it
    /// converts, become `mover`'s. A converted piece counts as moved: it loses its castling
    /// rights and first moves.
    fn convert_neighbours(&mut self, code: Code, to: Sq, mover: usize, castling: &mut u32) {
        let rules = self.rules;
        let flanked = rules.pieces.converts_flanked[code as usize];
        for &v in &rules.pieces.converts[code as usize] {
            let run = match flanked {
                true => self.flanked_run(v, to, mover),
                false => 1,
            };
            let mut sq = to;
            for _ in 0..run {
                sq = rules.geometry.step(v, sq);
                if sq == NO_SQUARE {
                    break;
                }
                if let Some((kind, owner)) = self.piece(self.board[sq as usize])
                    && owner != mover
                {
                    self.put(sq, rules.pieces.code(kind, mover));
                    *castling &= !rules.castling.clear[sq as usize];
                    if rules.derived.first_moves {
                        self.note_unmoved(sq, false);
                    }
                }
            }
        }
    }

    /// How many enemy pieces of `mover` stand in a row from `from` along `v`, closed by a
    /// piece of `mover`'s own: the run a flanking conversion takes; 0 if the row is not closed.
    pub(super) fn flanked_run(&self, v: u16, from: Sq, mover: usize) -> u32 {
        let geometry = &self.rules.geometry;
        let mut run = 0;
        let mut sq = geometry.step(v, from);
        while sq != NO_SQUARE {
            match self.piece(self.board[sq as usize]) {
                Some((_, owner)) if owner != mover => run += 1,
                Some(_) => return run,
                None => return 0,
            }
            sq = geometry.step(v, sq);
        }
        0
    }

    /// Whether the piece `code` arriving on `to` would convert at least one enemy piece.
    pub(super) fn would_convert(&self, code: Code, to: Sq) -> bool {
        let rules = self.rules;
        let (_, mover) = rules.pieces.split(code);
        let flanked = rules.pieces.converts_flanked.get(code as usize) == Some(&true);
        (rules
            .pieces
            .converts
            .get(code as usize)
            .into_iter()
            .flatten())
        .any(|&v| match flanked {
            true => self.flanked_run(v, to, mover) > 0,
            false => {
                let sq = rules.geometry.step(v, to);
                sq != NO_SQUARE
                    && self
                        .piece(self.board[sq as usize])
                        .is_some_and(|(_, owner)| owner != mover)
            }
        })
    }

    /// The castling rights among `bits` whose two pieces stand on their squares.
    fn standing_rights(&self, bits: u32) -> u32 {
        let rights = self.rules.castling.rights.iter().enumerate();
        rights
            .filter(|&(bit, right)| bits & (1 << bit) != 0 && right.stands(&self.board))
            .fold(0, |held, (bit, _)| held | 1 << bit)
    }

    /// Closes the gates of every square a turn's parts left or reached: a gate stays open only
    /// while its first piece stays. They stay open while the turn is built, so that a gate
    /// step sees the gates the move left.
    #[inline(never)]
    fn close_gates(&mut self, turn: &Turn) {
        let captures = &self.rules.captures;
        // Explosions and custodian captures empty squares no part names.
        let emptied = match (turn.captures && captures.explosion.is_some())
            || !captures.custodian.is_empty()
        {
            true => (0..self.board.len() as Sq)
                .filter(|&sq| self.board[sq as usize] == EMPTY)
                .collect(),
            false => Vec::new(),
        };
        let named = turn.parts().iter().flat_map(|part| [part.from, part.to]);
        for sq in named.chain(emptied) {
            if sq != NO_SQUARE && self.gates[sq as usize] {
                self.journal.push(Change::GateClosed(sq));
                self.gates[sq as usize] = false;
                self.hash ^= self.rules.zobrist.gate(sq);
            }
        }
    }

    /// Drops the turns the start of the turn generated, once the position changes.
    #[inline]
    pub(super) fn forget_ready(&mut self) {
        self.ready_count = None;
        if let Some((_, list)) = self.ready.take() {
            self.scratch.push(list);
        }
    }

    /// Opens `passed` to en passant by `player`, if a piece of theirs could take there.
    pub(super) fn open_en_passant(&mut self, passed: Sq, victim: Sq, player: usize) {
        if self.can_take_en_passant(passed, player) {
            self.ep = passed;
            self.ep_victim = victim;
            self.ep_player = player as u8;
            self.hash ^= self.rules.zobrist.ep[passed as usize];
        }
    }

    /// Closes the square open to en passant, if any.
    pub(super) fn close_en_passant(&mut self) {
        if self.ep != NO_SQUARE {
            self.hash ^= self.rules.zobrist.ep[self.ep as usize];
            self.ep = NO_SQUARE;
        }
    }

    /// Ends `mover`'s turn: counts it, moves on to the next phase if this one is over, and
    /// hands the turn to the next player. Returns that player.
    fn pass_turn(&mut self, mover: usize) -> usize {
        if self.rules.derived.counts_turns && self.current_phase().is_some() {
            self.set_phase_turns(mover, self.phase_turns[mover].saturating_add(1));
        }
        self.hand_on(mover)
    }

    /// Gives the turn to whoever plays after `player` (in the phase, or moving on to the next
    /// phase), and returns them.
    pub(super) fn hand_on(&mut self, player: usize) -> usize {
        let next = match self.current_phase() {
            Some(phase) if self.rules.derived.counts_turns => {
                match self.next_mover(phase, player) {
                    Some(next) => next,
                    None => self.enter_phase(self.phase as usize + 1, player),
                }
            }
            _ => self.next_player(player),
        };
        if next <= player {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        let z = &self.rules.zobrist;
        self.hash ^= z.to_move[self.to_move] ^ z.to_move[next];
        self.to_move = next;
        next
    }

    /// Whether `player` has no more turns to play in `phase`.
    fn done(&self, phase: &Phase, player: usize) -> bool {
        self.alive & (1 << player) == 0
            || match phase.end {
                PhaseEnd::Never => false,
                PhaseEnd::Once => self.phase_turns[player] >= 1,
                PhaseEnd::HandEmpty => {
                    let kinds = self.rules.pieces.kinds.len();
                    self.hands[player * kinds..(player + 1) * kinds]
                        .iter()
                        .all(|&n| n == 0)
                }
            }
    }

    /// The mover of `phase` who plays after `player`, `player` again last; `None` when the
    /// phase is over.
    fn next_mover(&self, phase: &Phase, player: usize) -> Option<usize> {
        let at = phase.movers.iter().position(|&p| p == player);
        let count = phase.movers.len();
        let start = at.map_or(0, |i| i + 1);
        (0..count)
            .map(|i| phase.movers[(start + i) % count])
            .find(|&p| !self.done(phase, p))
    }

    /// Whether `player` has a turn to play in the current phase.
    pub fn may_move(&self, player: usize) -> bool {
        self.current_phase()
            .is_some_and(|phase| phase.movers.contains(&player) && !self.done(phase, player))
    }

    /// Moves on past phases that are already over, as when a position is read without its
    /// phase.
    fn settle_phase(&mut self) {
        while let Some(phase) = self.current_phase()
            && phase.movers.iter().all(|&p| self.done(phase, p))
        {
            self.phase += 1;
        }
    }

    /// The first mover of the phase who has a turn to play; past the last phase, the first
    /// player.
    fn first_mover(&self) -> usize {
        let first = self
            .current_phase()
            .and_then(|phase| (phase.movers.iter().copied()).find(|&p| !self.done(phase, p)));
        first.unwrap_or(0)
    }

    /// Starts phase `index`, or the first phase after it that is not already over, and
    /// returns its first mover; past the last phase, `player` keeps the turn.
    fn enter_phase(&mut self, index: usize, player: usize) -> usize {
        for index in index..=self.rules.turns.phases.len() {
            let z = &self.rules.zobrist;
            self.hash ^= z.phase(self.phase) ^ z.phase(index as u8);
            for p in 0..self.phase_turns.len() {
                self.set_phase_turns(p, 0);
            }
            self.phase = index as u8;
            let Some(phase) = self.current_phase() else {
                break;
            };
            let first = phase.movers.iter().copied().find(|&p| !self.done(phase, p));
            if let Some(first) = first {
                return first;
            }
        }
        player
    }

    pub fn unmake(&mut self) {
        self.forget_ready();
        let undo = self.undo.pop().expect("unmake follows make");
        self.rewind(Mark {
            journal: undo.journal as usize,
            hash: undo.hash,
        });
        self.to_move = undo.to_move as usize;
        self.phase = undo.phase;
        self.ep_player = undo.ep_player;
        self.ep = undo.ep;
        self.ep_victim = undo.ep_victim;
        self.castling = undo.castling;
        self.alive = undo.alive;
        self.last_out = undo.last_out;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
        self.passes = undo.passes;
    }

    /// Whether `player` has a piece that could capture en passant on `sq`. The square is opened
    /// (and hashed) only then, so positions that differ only by an unusable square are equal.
    pub fn can_take_en_passant(&self, sq: Sq, player: usize) -> bool {
        if self.rules.derived.ep_always {
            return true;
        }
        let bits = self.rules.pieces.kind_bits_of(player);
        self.rules.pieces.ep_attacks[player]
            .iter()
            .any(|&(vector, kinds)| {
                let from = self.rules.geometry.step(vector, sq);
                from != NO_SQUARE && bits[self.board[from as usize] as usize] & kinds != 0
            })
    }

    /// Whether a turn has been made that can be unmade.
    pub fn can_unmake(&self) -> bool {
        !self.undo.is_empty()
    }

    /// The number of the current full move, as FEN counts them (from 1).
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// How many made turns can be unmade.
    pub(super) fn depth(&self) -> usize {
        self.undo.len()
    }

    /// The hashes of the positions before each made turn, oldest first.
    pub fn history(&self) -> impl Iterator<Item = u64> + '_ {
        self.undo.iter().map(|u| u.hash)
    }

    /// How many times the current position has stood, this time included.
    pub fn occurrences(&self) -> u32 {
        1 + self.history().filter(|&h| h == self.hash).count() as u32
    }
}

/// The squares an explosion on `centre` reaches: the centre and its neighbours on the board.
fn blast_area(rules: &Ruleset, centre: Sq) -> impl Iterator<Item = Sq> + '_ {
    let neighbours = (rules.geometry.neighbours.iter())
        .map(move |&v| rules.geometry.step(v, centre))
        .filter(|&sq| sq != NO_SQUARE);
    std::iter::once(centre).chain(neighbours)
}

/// The numbers of the bits set in `bits`, lowest first: the kinds of a set of kinds, the
/// players of a set of players.
pub(super) fn bits_in(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let bit = (bits != 0).then(|| bits.trailing_zeros() as usize)?;
        bits &= bits - 1;
        Some(bit)
    })
}

/// The kinds each of `players` holds at least one of in `hands`, as bits.
fn held_kinds(hands: &[u8], players: usize, kinds: usize) -> Vec<u64> {
    (0..players)
        .map(|player| {
            (0..kinds)
                .filter(|&kind| hands.get(player * kinds + kind).is_some_and(|&n| n > 0))
                .fold(0, |bits, kind| bits | 1 << kind)
        })
        .collect()
}
