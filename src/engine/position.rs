//! A position: the board, hands, whose turn it is, castling rights, en passant, counters, and
//! an incremental hash. Turns are made and unmade in place with an undo stack, so searching
//! allocates nothing per move.

use super::pins::Pins;
use super::turn::{PartKind, Turn};
use crate::compile::{BLOCKED, Code, EMPTY, NO_SQUARE, Ruleset, Sq};

/// Undo information for one made turn.
#[derive(Clone, Copy, Debug)]
struct Undo {
    turn: Turn,
    to_move: u8,
    castling: u32,
    ep: Sq,
    ep_victim: Sq,
    ep_player: u8,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    swapped: bool,
    /// How many entries `captured` had before this turn.
    captured: u32,
    /// How many entries `unmoved_log` had before this turn.
    unmoved_log: u32,
    royals: [Sq; MAX_TRACKED],
}

/// Royal squares are tracked for this many players; larger games scan the board instead.
const MAX_TRACKED: usize = 8;

#[derive(Clone, Debug)]
pub struct Position<'r> {
    pub rules: &'r Ruleset,
    pub board: Vec<Code>,
    /// `hands[player * kinds + kind]`.
    pub hands: Vec<u8>,
    pub to_move: usize,
    pub castling: u32,
    /// The square a piece passed on the last turn, open to en passant.
    pub ep: Sq,
    /// Where the piece that passed `ep` stands.
    pub ep_victim: Sq,
    /// The player allowed to capture en passant.
    pub ep_player: u8,
    pub halfmove: u32,
    pub fullmove: u32,
    pub hash: u64,
    /// The square of each player's royal piece, when it has exactly one.
    pub royals: [Sq; MAX_TRACKED],
    /// The players still in the game, as bits.
    pub alive: u32,
    /// The phase of play, for games played in phases.
    pub phase: u8,
    /// Per-player counters, `counters[player * count + counter]`, for games that keep them.
    pub counters: Vec<u16>,
    /// Whether the players have exchanged colours by the pie choice.
    pub swapped: bool,
    /// Some player has more than one royal piece (or too many players to track): royal
    /// pieces are then found by scanning the board.
    pub royal_overflow: bool,
    pub(super) pins: Pins,
    /// Whether the piece on each square has not moved yet (kept when a rule is `first`).
    pub unmoved: Vec<bool>,
    undo: Vec<Undo>,
    /// Captured pieces: where, what, and the hand slot it went to (if any).
    captured: Vec<(Sq, Code, Option<usize>)>,
    /// Earlier values of `unmoved`, to restore on unmake.
    unmoved_log: Vec<(Sq, bool)>,
}

impl<'r> Position<'r> {
    /// The start position of the rule file.
    pub fn start(rules: &'r Ruleset) -> Self {
        let mut position = Position {
            rules,
            board: rules.start_board.clone(),
            hands: rules.start_hands.clone(),
            to_move: 0,
            castling: rules.start_castling,
            ep: NO_SQUARE,
            ep_victim: NO_SQUARE,
            ep_player: 0,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            royals: [NO_SQUARE; MAX_TRACKED],
            royal_overflow: false,
            alive: (1u32 << rules.players()) - 1,
            phase: 0,
            counters: Vec::new(),
            swapped: false,
            pins: Pins::new(rules.geometry.squares()),
            unmoved: rules.start_board.iter().map(|&c| c != EMPTY).collect(),
            undo: Vec::with_capacity(64),
            captured: Vec::with_capacity(64),
            unmoved_log: Vec::new(),
        };
        position.refresh();
        position
    }

    /// Recomputes what is derived from the board: royal squares and the hash.
    pub fn refresh(&mut self) {
        self.royals = [NO_SQUARE; MAX_TRACKED];
        let mut counts = vec![0usize; self.rules.players()];
        for (sq, &code) in self.board.iter().enumerate() {
            if let Some((kind, player)) = self.piece(code)
                && self.rules.kinds[kind].royal
            {
                counts[player] += 1;
                if player < MAX_TRACKED {
                    self.royals[player] = sq as Sq;
                }
            }
        }
        // A royal piece in hand could be dropped, adding a second one on the board.
        let royal_in_hand = self
            .hands
            .iter()
            .enumerate()
            .any(|(slot, &n)| n > 0 && self.rules.kinds[slot % self.rules.kinds.len()].royal);
        self.royal_overflow = royal_in_hand
            || self.rules.royalty_changes
            || self.rules.players() > MAX_TRACKED
            || counts.iter().any(|&n| n > 1);
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
        hash
    }

    /// The kind and player of a code, or `None` for empty and blocked squares.
    #[inline]
    pub fn piece(&self, code: Code) -> Option<(usize, usize)> {
        (code != EMPTY && code != BLOCKED).then(|| self.rules.split(code))
    }

    /// The next player in turn order who is still in the game.
    pub fn next_player(&self, player: usize) -> usize {
        let players = self.rules.players();
        (1..=players)
            .map(|step| (player + step) % players)
            .find(|&p| self.alive & (1 << p) != 0)
            .unwrap_or(player)
    }

    pub fn hand_slot(&self, player: usize, kind: usize) -> usize {
        player * self.rules.kinds.len() + kind
    }

    fn set_hand(&mut self, slot: usize, count: u8) {
        let z = &self.rules.zobrist;
        self.hash ^= z.hand(slot, self.hands[slot]) ^ z.hand(slot, count);
        self.hands[slot] = count;
    }

    fn put(&mut self, sq: Sq, code: Code) {
        let old = self.board[sq as usize];
        let z = &self.rules.zobrist;
        if old != EMPTY {
            self.hash ^= z.piece(old, sq);
        }
        if code != EMPTY {
            self.hash ^= z.piece(code, sq);
        }
        self.board[sq as usize] = code;
    }

    /// Removes the piece on `sq` as a capture by `capturer`: to the capturer's hand if the
    /// rules say so, as the kind it demotes to.
    fn capture(&mut self, sq: Sq, capturer: usize) {
        let code = self.board[sq as usize];
        let mut to_hand = None;
        if let Some((kind, player)) = self.piece(code) {
            let slot = self.hand_slot(capturer, self.rules.kinds[kind].demotes_to as usize);
            // A full hand (255 of a kind) takes no more; unmake then gives none back.
            if self.rules.capture_to_hand && self.hands[slot] < u8::MAX {
                self.set_hand(slot, self.hands[slot] + 1);
                to_hand = Some(slot);
            }
            if self.rules.kinds[kind].royal && player < MAX_TRACKED && self.royals[player] == sq {
                self.royals[player] = NO_SQUARE;
            }
        }
        self.captured.push((sq, code, to_hand));
        self.put(sq, EMPTY);
    }

    pub fn make(&mut self, turn: &Turn) {
        let mover = self.to_move;
        self.undo.push(Undo {
            turn: *turn,
            to_move: mover as u8,
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            ep_player: self.ep_player,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            swapped: self.swapped,
            captured: self.captured.len() as u32,
            unmoved_log: self.unmoved_log.len() as u32,
            royals: self.royals,
        });
        let z = &self.rules.zobrist;
        if self.ep != NO_SQUARE {
            self.hash ^= z.ep[self.ep as usize];
            self.ep = NO_SQUARE;
        }
        let mut quiet = !(turn.captures && self.rules.captures_break_quiet);
        let mut castling = self.castling;
        for part in turn.parts() {
            if self.rules.first_moves {
                self.note_unmoved(part.from, false);
                // A dropped piece counts as unmoved where the start position has it, as when
                // a position is read.
                let fresh = part.kind == PartKind::Drop
                    && self.rules.start_board[part.to as usize] == part.piece;
                self.note_unmoved(part.to, fresh);
            }
            match part.kind {
                PartKind::Move | PartKind::Promote => {
                    let moving = self.board[part.from as usize];
                    if let Some((kind, _)) = self.piece(moving) {
                        quiet &= self.rules.quiet_breakers & (1 << kind) == 0;
                        if self.rules.kinds[kind].royal && mover < MAX_TRACKED {
                            self.royals[mover] = part.to;
                        }
                    }
                    if self.board[part.to as usize] != EMPTY {
                        self.capture(part.to, mover);
                    }
                    self.put(part.from, EMPTY);
                    self.put(part.to, part.piece);
                    castling &= !(self.rules.castle_clear[part.from as usize]
                        | self.rules.castle_clear[part.to as usize]);
                }
                PartKind::Drop => {
                    let (kind, _) = self.rules.split(part.piece);
                    let slot = self.hand_slot(mover, kind);
                    self.set_hand(slot, self.hands[slot] - 1);
                    self.put(part.to, part.piece);
                    if self.rules.kinds[kind].royal && mover < MAX_TRACKED {
                        self.royals[mover] = part.to;
                    }
                }
                PartKind::Remove => self.capture(part.from, mover),
                PartKind::Block => self.put(part.to, BLOCKED),
                PartKind::Unblock => self.put(part.to, EMPTY),
                PartKind::Choice => self.swapped ^= part.piece == 1,
            }
        }
        if castling != self.castling {
            self.hash ^= z.castling_rights(self.castling) ^ z.castling_rights(castling);
            self.castling = castling;
        }
        let next = self.next_player(mover);
        if turn.passed != NO_SQUARE && self.can_take_en_passant(turn.passed, next) {
            self.ep = turn.passed;
            self.ep_victim = turn.main().to;
            self.ep_player = next as u8;
            self.hash ^= z.ep[self.ep as usize];
        }
        self.halfmove = if quiet {
            self.halfmove.saturating_add(1)
        } else {
            0
        };
        if next == 0 {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.hash ^= z.to_move[mover] ^ z.to_move[next];
        self.to_move = next;
    }

    /// Sets whether the piece on `sq` is unmoved, logging the old value for unmake.
    fn note_unmoved(&mut self, sq: Sq, value: bool) {
        if sq != NO_SQUARE {
            self.unmoved_log.push((sq, self.unmoved[sq as usize]));
            self.unmoved[sq as usize] = value;
        }
    }

    pub fn unmake(&mut self) {
        let undo = self.undo.pop().expect("unmake follows make");
        while self.unmoved_log.len() as u32 > undo.unmoved_log {
            let (sq, value) = self.unmoved_log.pop().expect("logged");
            self.unmoved[sq as usize] = value;
        }
        let mover = undo.to_move as usize;
        for part in undo.turn.parts().iter().rev() {
            match part.kind {
                PartKind::Move | PartKind::Promote => {
                    let original = if part.kind == PartKind::Promote {
                        let (kind, player) = self.rules.split(part.piece);
                        self.rules
                            .code(self.rules.kinds[kind].demotes_to as usize, player)
                    } else {
                        part.piece
                    };
                    self.board[part.to as usize] = EMPTY;
                    self.board[part.from as usize] = original;
                    self.restore_capture_at(part.to, undo.captured);
                }
                PartKind::Drop => {
                    let (kind, _) = self.rules.split(part.piece);
                    self.board[part.to as usize] = EMPTY;
                    let slot = self.hand_slot(mover, kind);
                    self.hands[slot] += 1;
                }
                PartKind::Remove => self.restore_capture_at(part.from, undo.captured),
                PartKind::Block => self.board[part.to as usize] = EMPTY,
                PartKind::Unblock => self.board[part.to as usize] = BLOCKED,
                PartKind::Choice => {}
            }
        }
        self.to_move = mover;
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.ep_victim = undo.ep_victim;
        self.ep_player = undo.ep_player;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
        self.hash = undo.hash;
        self.swapped = undo.swapped;
        self.royals = undo.royals;
    }

    /// Puts back the piece captured on `sq` during the turn being unmade, if any.
    fn restore_capture_at(&mut self, sq: Sq, floor: u32) {
        let Some(&(at, code, to_hand)) = self.captured.last() else {
            return;
        };
        if at != sq || self.captured.len() as u32 <= floor {
            return;
        }
        self.captured.pop();
        self.board[sq as usize] = code;
        if let Some(slot) = to_hand {
            self.hands[slot] -= 1;
        }
    }

    /// Whether `player` has a piece that could capture en passant on `sq`. The square is opened
    /// (and hashed) only then, so positions that differ only by an unusable square are equal.
    pub fn can_take_en_passant(&self, sq: Sq, player: usize) -> bool {
        if self.rules.ep_always {
            return true;
        }
        let bits = &self.rules.attacker_bits[player * 256..player * 256 + 256];
        self.rules.ep_attacks[player]
            .iter()
            .any(|&(vector, kinds)| {
                let from = self.rules.geometry.step(vector, sq);
                from != NO_SQUARE && bits[self.board[from as usize] as usize] & kinds != 0
            })
    }

    /// The hashes of the positions before each made turn, oldest first.
    pub fn history(&self) -> impl Iterator<Item = u64> + '_ {
        self.undo.iter().map(|u| u.hash)
    }
}
