//! Move generation: pseudo-legal turns from the compiled programs, then the legality rules
//! (royal safety, drop restrictions, compulsory capture).

use super::position::Position;
use super::turn::{Part, PartKind, Turn};
use crate::compile::{BLOCKED, Code, EMPTY, Gen, Hop, NO_SQUARE, Sq, TurnShape};

impl Position<'_> {
    /// Every legal turn of the player to move, into `out` (cleared first).
    pub fn legal_turns(&mut self, out: &mut Vec<Turn>) {
        out.clear();
        self.pseudo_turns(out);
        if self.rules.has_royal() {
            self.keep_legal(out);
        }
        if self.rules.compulsory_capture && out.iter().any(|t| t.captures) {
            out.retain(|t| t.captures);
        }
    }

    /// Removes the turns that leave the mover's royal piece capturable. When the royal piece
    /// is not attacked, a plain move of another piece is proven legal by the pins alone.
    fn keep_legal(&mut self, out: &mut Vec<Turn>) {
        let mover = self.to_move;
        let royal = self.single_royal(mover);
        let attacker = self.next_player(mover);
        let quiet =
            royal != NO_SQUARE && self.rules.plain_attacks && !self.attacked(royal, attacker);
        let mut pins = std::mem::take(&mut self.pins);
        if quiet {
            pins.compute(self, royal, mover, attacker);
        }
        let rules = self.rules;
        out.retain(|turn| {
            let main = turn.main();
            let single = quiet && turn.parts().len() == 1;
            match main.kind {
                PartKind::Move | PartKind::Promote if single && main.from != royal => {
                    pins.allows(main.from, main.to)
                }
                // A drop only adds a piece, so it cannot expose the royal piece.
                PartKind::Drop
                    if single && !rules.kinds[rules.split(main.piece).0].drops.no_mate =>
                {
                    true
                }
                _ => self.is_legal(turn, mover),
            }
        });
        self.pins = pins;
    }

    /// Royal safety, and the drop limits that depend on the resulting position.
    fn is_legal(&mut self, turn: &Turn, mover: usize) -> bool {
        self.make(turn);
        let mut legal = !self.royal_in_danger(mover);
        if legal && turn.main().kind == PartKind::Drop {
            legal = !self.drop_mates(turn);
        }
        self.unmake();
        legal
    }

    /// Whether `player`'s royal piece can be captured by the player who moves after it.
    pub fn royal_in_danger(&self, player: usize) -> bool {
        let attacker = self.next_player(player);
        self.any_royal(player, |sq| self.attacked(sq, attacker))
    }

    /// Calls `test` on each royal piece of `player` until it returns true.
    fn any_royal(&self, player: usize, test: impl Fn(Sq) -> bool) -> bool {
        if !self.royal_overflow {
            let tracked = self.royals.get(player).copied().unwrap_or(NO_SQUARE);
            return tracked != NO_SQUARE && test(tracked);
        }
        (0..self.board.len() as Sq).any(|sq| {
            self.piece(self.board[sq as usize])
                .is_some_and(|(kind, p)| p == player && self.rules.kinds[kind].royal)
                && test(sq)
        })
    }

    /// The square of `player`'s one royal piece, or none if it has none or several.
    fn single_royal(&self, player: usize) -> Sq {
        match self.royal_overflow {
            true => NO_SQUARE,
            false => self.royals.get(player).copied().unwrap_or(NO_SQUARE),
        }
    }

    /// Whether the player to move is in check.
    pub fn in_check(&self) -> bool {
        self.royal_in_danger(self.to_move)
    }

    /// A drop of a `no-mate` piece that leaves the opponent without a legal turn while in
    /// check. Called with the drop made.
    fn drop_mates(&mut self, turn: &Turn) -> bool {
        let (kind, _) = self.rules.split(turn.main().piece);
        if !self.rules.kinds[kind].drops.no_mate || !self.in_check() {
            return false;
        }
        let mut replies = Vec::new();
        self.legal_turns(&mut replies);
        replies.is_empty()
    }

    /// Whether `sq` is attacked by any piece of `attacker`.
    pub fn attacked(&self, sq: Sq, attacker: usize) -> bool {
        let rules = self.rules;
        let geometry = &rules.geometry;
        let attacks = &rules.attacks[attacker];
        let bits = &rules.attacker_bits[attacker * 256..attacker * 256 + 256];
        for (vector, kinds, path) in &attacks.leaps {
            let from = geometry.step(*vector, sq);
            if from == NO_SQUARE || bits[self.board[from as usize] as usize] & kinds == 0 {
                continue;
            }
            if path.iter().all(|&p| {
                let s = geometry.step(p, from);
                s != NO_SQUARE && self.board[s as usize] == EMPTY
            }) {
                return true;
            }
        }
        for &(vector, kinds, range) in &attacks.slides {
            let (s, _) = self.first_piece(vector, sq, range);
            if s != NO_SQUARE && bits[self.board[s as usize] as usize] & kinds != 0 {
                return true;
            }
        }
        attacks.hops.iter().any(|&(vector, kinds, hop)| {
            // Walking back from the target: the hurdle, then the hopper itself.
            let hurdle = match hop {
                Hop::JustBeyond => geometry.step(vector, sq),
                _ => self.next_occupied(vector, sq),
            };
            if hurdle == NO_SQUARE || self.board[hurdle as usize] == EMPTY {
                return false;
            }
            let hopper = self.next_occupied(vector, hurdle);
            hopper != NO_SQUARE && bits[self.board[hopper as usize] as usize] & kinds != 0
        })
    }

    /// The first occupied or blocked square along a line from `from`, not counting `from`.
    fn next_occupied(&self, vector: u16, from: Sq) -> Sq {
        self.first_piece(vector, from, u16::MAX).0
    }

    /// The first occupied or blocked square within `range` steps along a line from `from`, and
    /// how many steps away it is; [`NO_SQUARE`] if the line ends or runs out of range first.
    pub(super) fn first_piece(&self, vector: u16, from: Sq, range: u16) -> (Sq, u16) {
        let mut s = from;
        for steps in 1..=range {
            s = self.rules.geometry.step(vector, s);
            if s == NO_SQUARE || self.board[s as usize] != EMPTY {
                return (s, steps);
            }
        }
        (NO_SQUARE, range)
    }

    /// Every pseudo-legal turn of the player to move, appended to `out`.
    pub fn pseudo_turns(&self, out: &mut Vec<Turn>) {
        let start = out.len();
        let mover = self.to_move;
        for from in 0..self.board.len() as Sq {
            let code = self.board[from as usize];
            match self.piece(code) {
                Some((_, player)) if player == mover => self.piece_turns(from, code, out),
                _ => {}
            }
        }
        self.castling_turns(out);
        if self.rules.turn == TurnShape::MoveOrDrop {
            self.drop_turns(out);
        }
        if self.rules.turn == TurnShape::MoveThenShoot {
            self.add_arrows(start, out);
        }
    }

    fn piece_turns(&self, from: Sq, code: Code, out: &mut Vec<Turn>) {
        let start = out.len();
        self.program_turns(from, code, out);
        if self.rules.overlapping[code as usize] {
            dedupe(out, start);
        }
    }

    fn program_turns(&self, from: Sq, code: Code, out: &mut Vec<Turn>) {
        let rules = self.rules;
        let mover = self.to_move;
        for rule in &rules.programs[code as usize] {
            if rule
                .from_zone
                .is_some_and(|z| !rules.in_zone(z, mover, from))
                || (rule.first && !self.unmoved[from as usize])
            {
                continue;
            }
            if rule.hop != Hop::No {
                self.hop_turns(from, code, rule, out);
                continue;
            }
            if !self.path_clear(rule, from) {
                continue;
            }
            let mut to = from;
            for _ in 0..rule.range {
                to = rules.geometry.step(rule.vector, to);
                if to == NO_SQUARE {
                    break;
                }
                let target = self.board[to as usize];
                if target == EMPTY {
                    if rule.mode.moves() {
                        self.push_move(from, to, code, rule, false, out);
                    }
                    if rule.en_passant && to == self.ep && self.ep_player as usize == mover {
                        self.push_en_passant(from, to, code, out);
                    }
                    continue;
                }
                if target != BLOCKED
                    && rule.mode.captures()
                    && self.piece(target).is_some_and(|(_, owner)| owner != mover)
                {
                    self.push_move(from, to, code, rule, true, out);
                }
                break;
            }
        }
    }

    /// Moves over exactly one piece (or blocked square) along the rule's line.
    fn hop_turns(&self, from: Sq, code: Code, rule: &Gen, out: &mut Vec<Turn>) {
        let hurdle = self.next_occupied(rule.vector, from);
        if hurdle == NO_SQUARE {
            return;
        }
        let mut to = hurdle;
        loop {
            to = self.rules.geometry.step(rule.vector, to);
            if to == NO_SQUARE {
                return;
            }
            let target = self.board[to as usize];
            if target != EMPTY {
                let enemy = self
                    .piece(target)
                    .is_some_and(|(_, owner)| owner != self.to_move);
                if enemy && rule.mode.captures() {
                    self.push_move(from, to, code, rule, true, out);
                }
                return;
            }
            if rule.mode.moves() {
                self.push_move(from, to, code, rule, false, out);
            }
            if rule.hop == Hop::JustBeyond {
                return;
            }
        }
    }

    /// Whether the squares a lame leap passes are empty.
    fn path_clear(&self, rule: &Gen, from: Sq) -> bool {
        rule.path.iter().all(|&v| {
            let s = self.rules.geometry.step(v, from);
            s != NO_SQUARE && self.board[s as usize] == EMPTY
        })
    }

    fn push_move(
        &self,
        from: Sq,
        to: Sq,
        code: Code,
        rule: &Gen,
        captures: bool,
        out: &mut Vec<Turn>,
    ) {
        let passed = match rule.path.first() {
            Some(&v) if rule.passable => self.rules.geometry.step(v, from),
            _ => NO_SQUARE,
        };
        self.push_with_promotions(from, to, code, out, |mut turn| {
            turn.captures = captures;
            turn.passed = passed;
            turn
        });
    }

    fn push_en_passant(&self, from: Sq, to: Sq, code: Code, out: &mut Vec<Turn>) {
        let victim = self.ep_victim;
        if self
            .piece(self.board[victim as usize])
            .is_none_or(|(_, owner)| owner == self.to_move)
        {
            return;
        }
        let remove = Part {
            kind: PartKind::Remove,
            piece: EMPTY,
            from: victim,
            to: victim,
        };
        self.push_with_promotions(from, to, code, out, |turn| {
            let mut turn = turn.with(remove);
            turn.captures = true;
            turn
        });
    }

    /// Pushes the move, or its promotions, or both, as the promotion rules of the piece say.
    fn push_with_promotions(
        &self,
        from: Sq,
        to: Sq,
        code: Code,
        out: &mut Vec<Turn>,
        finish: impl Fn(Turn) -> Turn,
    ) {
        let rules = self.rules;
        let (kind, player) = rules.split(code);
        let plain = Part {
            kind: PartKind::Move,
            piece: code,
            from,
            to,
        };
        let mut forced = false;
        let mut targets = 0u64;
        for promotion in &rules.kinds[kind].promotions {
            let applies = rules.in_zone(promotion.zone, player, to)
                || (promotion.via && rules.in_zone(promotion.zone, player, from));
            if applies {
                forced |= !promotion.optional;
                targets = promotion.targets.iter().fold(targets, |t, &k| t | 1 << k);
            }
        }
        let mut remaining = targets;
        while remaining != 0 {
            let target = remaining.trailing_zeros() as usize;
            remaining &= remaining - 1;
            let piece = rules.code(target, player);
            out.push(finish(Turn::new(Part {
                kind: PartKind::Promote,
                piece,
                ..plain
            })));
        }
        if targets == 0 || !forced {
            out.push(finish(Turn::new(plain)));
        }
    }

    fn castling_turns(&self, out: &mut Vec<Turn>) {
        let mover = self.to_move;
        for (bit, right) in self.rules.castles.iter().enumerate() {
            if self.castling & (1 << bit) == 0 || right.player != mover {
                continue;
            }
            let king = self.board[right.king_from as usize];
            let rook = self.board[right.rook_from as usize];
            let clear = right.empty.iter().all(|&s| {
                self.board[s as usize] == EMPTY || s == right.king_from || s == right.rook_from
            });
            if !clear || self.piece(king).is_none() || self.piece(rook).is_none() {
                continue;
            }
            let attacker = self.next_player(mover);
            if right.safe && right.safe_path.iter().any(|&s| self.attacked(s, attacker)) {
                continue;
            }
            let king_move = Part {
                kind: PartKind::Move,
                piece: king,
                from: right.king_from,
                to: right.king_to,
            };
            let rook_move = Part {
                kind: PartKind::Move,
                piece: rook,
                from: right.rook_from,
                to: right.rook_to,
            };
            out.push(Turn::new(king_move).with(rook_move));
        }
    }

    fn drop_turns(&self, out: &mut Vec<Turn>) {
        let rules = self.rules;
        let mover = self.to_move;
        for kind in 0..rules.kinds.len() {
            if self.hands[self.hand_slot(mover, kind)] == 0 {
                continue;
            }
            let code = rules.code(kind, mover);
            let limits = &rules.kinds[kind].drops;
            let taken_files = if limits.one_per_file {
                self.files_holding(code)
            } else {
                0
            };
            for to in 0..self.board.len() as Sq {
                let file = rules.geometry.coords[to as usize].0;
                if self.board[to as usize] != EMPTY
                    || limits.inside.iter().any(|&z| !rules.in_zone(z, mover, to))
                    || limits.outside.iter().any(|&z| rules.in_zone(z, mover, to))
                    || taken_files & (1 << file) != 0
                {
                    continue;
                }
                out.push(Turn::new(Part {
                    kind: PartKind::Drop,
                    piece: code,
                    from: NO_SQUARE,
                    to,
                }));
            }
        }
    }

    /// The files, as bits, on which a piece with exactly this code stands.
    fn files_holding(&self, code: Code) -> u32 {
        self.board
            .iter()
            .zip(&self.rules.geometry.coords)
            .filter(|(c, _)| **c == code)
            .fold(0, |files, (_, &(f, _))| files | 1 << f)
    }

    /// Replaces each move from `start` on by the move followed by each arrow it can shoot.
    fn add_arrows(&self, start: usize, out: &mut Vec<Turn>) {
        let end = out.len();
        let arrows = &self.rules.arrows[self.to_move];
        for index in start..end {
            let turn = out[index];
            let main = *turn.main();
            for rule in arrows {
                let mut to = main.to;
                for _ in 0..rule.range {
                    to = self.rules.geometry.step(rule.vector, to);
                    if to == NO_SQUARE || !empty_after(&self.board, &turn, to) {
                        break;
                    }
                    out.push(turn.with(Part {
                        kind: PartKind::Block,
                        piece: BLOCKED,
                        from: main.to,
                        to,
                    }));
                }
            }
        }
        out.drain(start..end);
    }
}

/// Whether `sq` is empty once the turn's moves are made: squares just left count as empty, and
/// squares just entered (by a castling partner, say) as occupied.
fn empty_after(board: &[Code], turn: &Turn, sq: Sq) -> bool {
    let mut empty = board[sq as usize] == EMPTY;
    for part in turn.parts() {
        if matches!(part.kind, PartKind::Move | PartKind::Promote) {
            if part.from == sq {
                empty = true;
            }
            if part.to == sq {
                empty = false;
            }
        }
    }
    empty
}

/// Removes turns from `start` on that repeat an earlier one part for part; a repeat that opens
/// a square to en passant passes that on.
fn dedupe(out: &mut Vec<Turn>, start: usize) {
    let mut kept = start;
    for i in start..out.len() {
        let turn = out[i];
        match (start..kept).find(|&j| out[j].parts() == turn.parts()) {
            Some(j) if out[j].passed == NO_SQUARE => out[j].passed = turn.passed,
            Some(_) => {}
            None => {
                out[kept] = turn;
                kept += 1;
            }
        }
    }
    out.truncate(kept);
}
