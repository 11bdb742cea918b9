//! Piece moves: pseudo-legal moves, castling and drops of one player from the compiled
//! programs, each extending a turn begun by earlier steps.

use super::position::{Position, bits_in};
use super::steps::Request;
use super::targets::Sides;
use super::turn::{Part, PartKind, Turn};
use crate::bitboard::Bitboard;
use crate::compile::turns::DropZone;
use crate::compile::{
    Code, DropLimits, EMPTY, Gen, Hop, NO_SQUARE, Promotion, Ruleset, SortedProgram, Sq,
};
use crate::limits::{MAX_PARTS, MAX_SIDE};

impl<'r> Position<'r> {
    /// The first occupied or blocked square within `range` steps along a line from `from`, and
    /// how many steps away it is; [`NO_SQUARE`] if the line ends or runs out of range first.
    fn first_piece(&self, vector: u16, from: Sq, range: u16) -> (Sq, u16) {
        let mut s = from;
        for steps in 1..=range {
            s = self.rules.geometry.step(vector, s);
            if s == NO_SQUARE || self.board[s as usize] != EMPTY {
                return (s, steps);
            }
        }
        (NO_SQUARE, range)
    }

    /// The pseudo-legal moves of `player`'s pieces of the kinds in `kinds`, castling
    /// included, each extending `base`; appended to `out`.
    pub(super) fn piece_moves(&self, player: usize, kinds: u64, base: &Turn, out: &mut Vec<Turn>) {
        at_width!(self.rules, B => self.piece_moves_in::<B>(player, kinds, base, out))
    }

    fn piece_moves_in<B: Bitboard>(
        &self,
        player: usize,
        kinds: u64,
        base: &Turn,
        out: &mut Vec<Turn>,
    ) {
        let mut sides = self.sides::<B>(player);
        if self.captures_only {
            // Of the empty squares, only the one a capture en passant lands on.
            sides.empty &= match self.ep {
                NO_SQUARE => B::NONE,
                ep => B::bit(ep),
            };
        }
        let start = out.len();
        for from in self.kinds_set::<B>(player, kinds).squares() {
            let code = self.board[from as usize];
            self.piece_turns_in(from, code, player, base, &sides, out);
            let (kind, _) = self.rules.pieces.split(code);
            if self.rules.derived.standing_promoters & (1 << kind) != 0 {
                self.standing_promotions(from, code, base, &sides, out);
            }
            if self.rules.derived.free_castlers & (1 << kind) != 0 {
                self.free_castling(from, kind, player, base, out);
            }
        }
        self.castling_turns(player, kinds, base, out);
        if !self.rules.pieces.lends.is_empty() {
            // Two lenders may lend the same move, or lend a piece a move of its own.
            if self.lent_moves(player, kinds, base, &sides, out, |_| true) {
                dedupe(out, start);
            }
        }
    }

    /// Castling without rights from `from`, as the board stands.
    pub(super) fn free_castling(
        &self,
        from: Sq,
        kind: usize,
        player: usize,
        base: &Turn,
        out: &mut Vec<Turn>,
    ) {
        let rules = self.rules;
        let geometry = &rules.geometry;
        for castle in rules.castling.free.iter().filter(|c| c.kind == kind) {
            if castle.unmoved && !self.unmoved[from as usize] {
                continue;
            }
            for &vector in &castle.vectors[player] {
                let (landing, steps) = self.first_piece(vector, from, castle.distance as u16);
                if landing != NO_SQUARE || steps < castle.distance as u16 {
                    continue;
                }
                let king_to = (0..castle.distance).fold(from, |s, _| geometry.step(vector, s));
                if king_to == NO_SQUARE {
                    continue;
                }
                let (partner_at, _) = self.first_piece(vector, king_to, u16::MAX);
                let partner = self
                    .board
                    .get(partner_at as usize)
                    .copied()
                    .unwrap_or(EMPTY);
                let fits = self.piece(partner).is_some_and(|(k, owner)| {
                    castle.partners & (1 << k) != 0 && (castle.any_colour || owner == player)
                });
                if !fits || (castle.unmoved && !self.unmoved[partner_at as usize]) {
                    continue;
                }
                let crossed = (1..castle.distance).fold(from, |s, _| geometry.step(vector, s));
                if castle.safe && self.crosses_attack(from, vector, castle.distance, player) {
                    continue;
                }
                let king = self.board[from as usize];
                let royal_move = Part {
                    kind: PartKind::Move,
                    piece: king,
                    from,
                    to: king_to,
                };
                let partner_move = Part {
                    kind: PartKind::Partner,
                    piece: partner,
                    from: partner_at,
                    to: crossed,
                };
                out.push(base.with(royal_move).with(partner_move));
            }
        }
    }

    /// Whether a royal piece castling across `sq` would be attacked there by `attacker` (not
    /// where captures explode and a royal piece of theirs stands next to it).
    fn crossing_attacked(&self, sq: Sq, attacker: usize) -> bool {
        match self.rules.captures.explosion {
            Some(_) => at_width!(self.rules, B => self.attacked_unguarded::<B>(sq, attacker)),
            None => self.attacked(sq, attacker),
        }
    }

    /// Whether a square from `from` to `distance` steps along `vector` is attacked by the
    /// player after `player`.
    fn crosses_attack(&self, from: Sq, vector: u16, distance: u32, player: usize) -> bool {
        let attacker = self.next_player(player);
        let mut sq = from;
        for _ in 0..=distance {
            if self.crossing_attacked(sq, attacker) {
                return true;
            }
            sq = self.rules.geometry.step(vector, sq);
        }
        false
    }

    /// The pseudo-legal moves of the piece `code` of `player` on `from`, each extending `base`.
    pub(super) fn piece_turns(
        &self,
        from: Sq,
        code: Code,
        player: usize,
        base: &Turn,
        out: &mut Vec<Turn>,
    ) {
        at_width!(self.rules, B => {
            let sides = self.sides::<B>(player);
            self.piece_turns_in(from, code, player, base, &sides, out)
        })
    }

    pub(super) fn piece_turns_in<B: Bitboard>(
        &self,
        from: Sq,
        code: Code,
        player: usize,
        base: &Turn,
        sides: &Sides<B>,
        out: &mut Vec<Turn>,
    ) {
        let start = out.len();
        let moving = Moving {
            player,
            base,
            from,
            code,
        };
        if let Some(tag) = self.rules.bits.sorted[code as usize].merged_tag {
            // Targets read together reach each square once: nothing to dedupe.
            return self.merged_turns(tag, &moving, sides, out);
        }
        for rule in &self.rules.pieces.programs[code as usize] {
            self.rule_turns(rule, &moving, sides, out);
        }
        if self.rules.pieces.overlapping[code as usize] {
            dedupe(out, start);
        }
    }

    /// The moves of a piece whose rules are all plain steps, rides and lame steps of one tag,
    /// from the targets of all its rules together (see [`SortedProgram::merged_tag`]).
    fn merged_turns<B: Bitboard>(
        &self,
        tag: u16,
        moving: &Moving<'_>,
        sides: &Sides<B>,
        out: &mut Vec<Turn>,
    ) {
        let sorted = &self.rules.bits.sorted[moving.code as usize];
        let (empty, enemies) = self.piece_targets(moving.from, moving.code, moving.player, sides);
        let (opening_moves, opening_captures, opened) = self.opening_step::<B>(sorted, moving.from);
        let passed = |opening: B, to: Sq| match opening.has(to) {
            true => opened,
            false => NO_SQUARE,
        };
        for to in empty.squares() {
            let flanks = self.flanks_from(to, moving.from, sides);
            self.push_move(to, passed(opening_moves, to), tag, flanks, moving, out);
        }
        for to in enemies.squares() {
            self.push_move(to, passed(opening_captures, to), tag, true, moving, out);
        }
        self.en_passant_captures(sorted, moving, sides, out);
    }

    /// The captures en passant of the moving piece, whose program is sorted as `sorted`.
    fn en_passant_captures<B: Bitboard>(
        &self,
        sorted: &SortedProgram,
        moving: &Moving<'_>,
        sides: &Sides<B>,
        out: &mut Vec<Turn>,
    ) {
        // Read only while a square is open: most positions have none.
        if self.ep == NO_SQUARE || self.ep_player as usize != moving.player {
            return;
        }
        let program = &self.rules.pieces.programs[moving.code as usize];
        for rule in sorted.en_passant.iter().map(|&i| &program[i as usize]) {
            if self.rule_applies(rule, moving.player, moving.from) {
                let (empty, _) = self.rule_targets(rule, moving.from, sides);
                self.en_passant_turn(rule, empty, moving, out);
            }
        }
    }

    /// Where the passable lame step of a merged program (it has at most one) may move and
    /// capture from `from`, and the square it opens to en passant. No other rule of the piece
    /// reaches that target in the step's mode, so a move there in that mode is the step's.
    fn opening_step<B: Bitboard>(&self, sorted: &SortedProgram, from: Sq) -> (B, B, Sq) {
        for step in &sorted.lame_steps {
            if let Some(vector) = step.opens {
                let (target, _) = self.rules.bits.lame_step::<B>(step, from);
                let in_mode = |allowed: bool| if allowed { target } else { B::NONE };
                let opened = self.rules.geometry.step(vector, from);
                return (
                    in_mode(step.mode.moves()),
                    in_mode(step.mode.captures()),
                    opened,
                );
            }
        }
        (B::NONE, B::NONE, NO_SQUARE)
    }

    /// The moves of one compiled rule for the piece.
    fn rule_turns<B: Bitboard>(
        &self,
        rule: &Gen,
        moving: &Moving<'_>,
        sides: &Sides<B>,
        out: &mut Vec<Turn>,
    ) {
        if !self.rule_applies(rule, moving.player, moving.from) {
            return;
        }
        let (empty, enemies) = self.rule_targets(rule, moving.from, sides);
        let passed = match rule.path.first() {
            Some(&v) if rule.passable => self.rules.geometry.step(v, moving.from),
            _ => NO_SQUARE,
        };
        if rule.mode.moves() {
            for to in empty.squares() {
                let flanks = self.flanks_from(to, moving.from, sides);
                self.push_move(to, passed, rule.tag, flanks, moving, out);
            }
        }
        self.en_passant_turn(rule, empty, moving, out);
        if rule.mode.captures() {
            for to in enemies.squares() {
                self.push_move(to, passed, rule.tag, true, moving, out);
            }
        }
    }

    /// The capture en passant by `rule`, which reaches the empty squares `empty`, if the
    /// square open to it is among them and open to the moving player.
    fn en_passant_turn<B: Bitboard>(
        &self,
        rule: &Gen,
        empty: B,
        moving: &Moving<'_>,
        out: &mut Vec<Turn>,
    ) {
        let ep = self.ep;
        if rule.en_passant
            && rule.hop == Hop::No
            && ep != NO_SQUARE
            && self.ep_player as usize == moving.player
            && empty.has(ep)
        {
            self.push_en_passant(ep, rule, moving, out);
        }
    }

    /// The squares of the pieces that lend `turn`'s move to the piece that makes it, when the
    /// piece could not make it by its own rules; empty for a move of its own (or no move).
    pub fn lenders_of(&self, turn: &Turn) -> Vec<Sq> {
        at_width!(self.rules, B => self.lenders_in::<B>(turn))
    }

    fn lenders_in<B: Bitboard>(&self, turn: &Turn) -> Vec<Sq> {
        let Some(&main) = turn
            .last_move()
            .filter(|_| !self.rules.pieces.lends.is_empty())
        else {
            return Vec::new();
        };
        let code = self.board[main.from as usize];
        let Some((_, player)) = self.piece(code) else {
            return Vec::new();
        };
        let sides = self.sides::<B>(player);
        let makes = |found: &[Turn]| found.iter().any(|t| t.last_move() == Some(&main));
        let mut own = Vec::new();
        self.piece_turns_in(main.from, code, player, &Turn::EMPTY, &sides, &mut own);
        if makes(&own) {
            return Vec::new();
        }
        let moving = Moving {
            player,
            base: &Turn::EMPTY,
            from: main.from,
            code,
        };
        let mut lenders: Vec<Sq> = (self.lent_rules::<B>(player, self.rules.pieces.all()))
            .filter(|&(_, receiver, ..)| receiver == main.from)
            .filter(|&(.., rule)| {
                let mut lent = Vec::new();
                self.rule_turns(rule, &moving, &sides, &mut lent);
                makes(&lent)
            })
            .map(|(lender, ..)| lender)
            .collect();
        lenders.dedup();
        lenders
    }

    /// Moves lent to `player`'s pieces of the kinds in `kinds` by their neighbours, to those
    /// on the squares that `receives`, after `base`; whether there were any.
    pub(super) fn lent_moves<B: Bitboard>(
        &self,
        player: usize,
        kinds: u64,
        base: &Turn,
        sides: &Sides<B>,
        out: &mut Vec<Turn>,
        receives: impl Fn(Sq) -> bool,
    ) -> bool {
        let start = out.len();
        let lent = self.lent_rules::<B>(player, kinds);
        for (_, from, code, rule) in lent.filter(|&(_, sq, ..)| receives(sq)) {
            let moving = Moving {
                player,
                base,
                from,
                code,
            };
            self.rule_turns(rule, &moving, sides, out);
        }
        out.len() > start
    }

    /// The rules lent to `player`'s pieces of the kinds in `kinds` as the board stands: the
    /// square of the lender, the square of the piece they are lent to and its code, and the
    /// rule.
    pub(super) fn lent_rules<B: Bitboard>(
        &self,
        player: usize,
        kinds: u64,
    ) -> impl Iterator<Item = (Sq, Sq, Code, &'r Gen)> + '_ {
        let rules = self.rules;
        let lenders = (rules.pieces.lends.iter().enumerate())
            .filter(|(_, lends)| !lends.is_empty())
            .fold(B::NONE, |set, (code, _)| {
                set | self.code_set::<B>(code as Code)
            });
        let lends_on = |lender: Sq| {
            let lends = &rules.pieces.lends[self.board[lender as usize] as usize];
            lends.iter().map(move |lend| (lender, lend))
        };
        lenders
            .squares()
            .flat_map(lends_on)
            .filter_map(move |(lender, lend)| {
                let to = rules.geometry.step(lend.offset, lender);
                let receiver = *self.board.get(to as usize)?;
                let (kind, owner) = self.piece(receiver)?;
                (owner == player && kinds & (1 << kind) != 0).then(|| {
                    lend.moves[player]
                        .iter()
                        .map(move |rule| (lender, to, receiver, rule))
                })
            })
            .flatten()
    }

    /// Pushes a move to `to` that passes `passed` (a square opened to en passant) and is
    /// tagged `tag`, or its promotions.
    fn push_move(
        &self,
        to: Sq,
        passed: Sq,
        tag: u16,
        captures: bool,
        moving: &Moving<'_>,
        out: &mut Vec<Turn>,
    ) {
        self.push_with_promotions(to, moving, out, |turn| {
            turn.captures |= captures;
            turn.passed = passed;
            turn.tag = tag;
        });
    }

    /// Whether a move of `sides.player`'s piece from `from` to `to` captures by custodian
    /// capture. Inlined, so that a game without custodian capture asks no more.
    #[inline(always)]
    pub(super) fn flanks_from<B: Bitboard>(&self, to: Sq, from: Sq, sides: &Sides<B>) -> bool {
        !self.rules.captures.custodian.is_empty() && self.flanks_custodian(to, from, sides)
    }

    /// Whether a move of `sides.player`'s piece from `from` to `to`, in a game with custodian
    /// capture, captures by it: a move next to no enemy piece captures none.
    fn flanks_custodian<B: Bitboard>(&self, to: Sq, from: Sq, sides: &Sides<B>) -> bool {
        let rules = self.rules;
        (rules.bits.flanked_from::<B>(sides.player, to) & sides.enemies).any()
            && (rules.captures.custodian[sides.player].iter())
                .any(|&line| self.flanked(to, line, sides.player, from).is_some())
    }

    fn push_en_passant(&self, to: Sq, rule: &Gen, moving: &Moving<'_>, out: &mut Vec<Turn>) {
        let victim = self.ep_victim;
        if self
            .piece(self.board[victim as usize])
            .is_none_or(|(_, owner)| owner == moving.player)
        {
            return;
        }
        // `to` is where the capturing piece lands, the centre of an explosion.
        let take = Part {
            kind: PartKind::Take,
            piece: EMPTY,
            from: victim,
            to,
        };
        self.push_with_promotions(to, moving, out, |turn| {
            turn.add(take);
            turn.captures = true;
            turn.tag = rule.tag;
        });
    }

    /// Pushes the move, or its promotions, or both, as the promotion rules of the piece say,
    /// each finished by `finish`. Each is built where it lies in `out`, not copied there.
    fn push_with_promotions(
        &self,
        to: Sq,
        moving: &Moving<'_>,
        out: &mut Vec<Turn>,
        finish: impl Fn(&mut Turn),
    ) {
        let rules = self.rules;
        let &Moving {
            from, code, base, ..
        } = moving;
        let (kind, player) = rules.pieces.split(code);
        let plain = Part {
            kind: PartKind::Move,
            piece: code,
            from,
            to,
        };
        let mut forced = false;
        let mut targets = 0u64;
        let piece = &rules.pieces.kinds[kind];
        // A move that neither starts nor ends in a promotion zone promotes by no rule, unless
        // a rule looks beyond the move's squares (a lone piece's promotion, anywhere).
        let zoned = |sq| rules.bits.in_promotion_zone(code, sq);
        let may_promote = piece.promotes_by_position || zoned(to) || zoned(from);
        for promotion in piece.promotions.iter().filter(|_| may_promote) {
            let in_zone = rules.zones.contains(promotion.zone, player, to)
                || (promotion.via && rules.zones.contains(promotion.zone, player, from))
                || (promotion.lone_anywhere && self.is_lone(code));
            let applies = in_zone && (!promotion.by_capture || self.board[to as usize] != EMPTY);
            if applies {
                forced |= !promotion.optional;
                let choices = self.promotion_choices(promotion, player);
                targets |= match promotion.peaceful {
                    true => self.peaceful_choices(choices, player, from, to),
                    false => choices,
                };
            }
        }
        let mut push = |part: Part| {
            out.push(*base);
            let turn = out.last_mut().expect("just pushed");
            turn.add(part);
            finish(turn);
        };
        let mut remaining = targets;
        while remaining != 0 {
            let target = remaining.trailing_zeros() as usize;
            remaining &= remaining - 1;
            let piece = rules.pieces.code(target, player);
            push(Part {
                kind: PartKind::Promote,
                piece,
                ..plain
            });
        }
        // A compulsory promotion with no choice left leaves no move (grand chess).
        if !forced {
            push(plain);
        }
    }

    /// Promotions that are turns of their own for the piece `code` standing on `from`: in its
    /// zone (or anywhere, when lone), it turns into each kind it may choose, where it stands or
    /// on an empty square one move of the new kind away. Out of line, as few games have them.
    #[inline(never)]
    fn standing_promotions<B: Bitboard>(
        &self,
        from: Sq,
        code: Code,
        base: &Turn,
        sides: &Sides<B>,
        out: &mut Vec<Turn>,
    ) {
        let rules = self.rules;
        let (kind, player) = rules.pieces.split(code);
        for promotion in &rules.pieces.kinds[kind].standing_promotions {
            let in_zone = rules.zones.contains(promotion.zone, player, from)
                || (promotion.lone_anywhere && self.is_lone(code));
            if !in_zone {
                continue;
            }
            for target in self.promotion_choices(promotion, player).squares() {
                let piece = rules.pieces.code(target as usize, player);
                let mut squares = B::bit(from);
                for rule in &rules.pieces.programs[piece as usize] {
                    if rule.mode.moves() && self.rule_applies(rule, player, from) {
                        squares |= self.rule_targets(rule, from, sides).0;
                    }
                }
                for to in squares.squares() {
                    if promotion.peaceful && self.threatens_enemy::<B>(piece, from, to) {
                        continue;
                    }
                    out.push(base.with(Part {
                        kind: PartKind::Promote,
                        piece,
                        from,
                        to,
                    }));
                }
            }
        }
    }

    /// Whether the piece `code` is its player's only piece of that code on the board.
    #[inline(never)]
    fn is_lone(&self, code: Code) -> bool {
        at_width!(self.rules, B => self.code_set::<B>(code).count() == 1)
    }

    /// The kinds among `choices` that a piece of `player` moving from `from` to `to` may
    /// promote to peacefully: where the new piece attacks no enemy piece.
    #[inline(never)]
    fn peaceful_choices(&self, choices: u64, player: usize, from: Sq, to: Sq) -> u64 {
        let rules = self.rules;
        let threatens = |target: &u16| {
            let piece = rules.pieces.code(*target as usize, player);
            at_width!(rules, B => self.threatens_enemy::<B>(piece, from, to))
        };
        (choices.squares().filter(threatens))
            .fold(choices, |peaceful, target| peaceful & !(1 << target))
    }

    /// Whether the piece `code`, come from `from` to `to` (and taking what stood there),
    /// would attack an enemy piece.
    fn threatens_enemy<B: Bitboard>(&self, code: Code, from: Sq, to: Sq) -> bool {
        let rules = self.rules;
        let (_, player) = rules.pieces.split(code);
        let mut sides = self.sides::<B>(player);
        sides.occupied = (sides.occupied & !B::bit(from)) | B::bit(to);
        sides.empty = rules.bits.board::<B>() & !sides.occupied;
        sides.enemies &= !B::bit(to);
        rules.pieces.programs[code as usize]
            .iter()
            .filter(|rule| rule.mode.captures())
            .any(|rule| self.rule_targets(rule, to, &sides).1.any())
    }

    /// The kinds a piece of `player` may promote to by `promotion`, as bits: its targets, less
    /// those of which the player has as many on the board as the rule's limit allows.
    pub(super) fn promotion_choices(&self, promotion: &Promotion, player: usize) -> u64 {
        let all = promotion.targets.iter().fold(0u64, |t, &k| t | 1 << k);
        promotion.limits.iter().fold(all, |choices, limit| {
            let held =
                at_width!(self.rules, B => self.kinds_set::<B>(player, limit.counted).count());
            match held >= limit.below {
                true => choices & !(1 << limit.target),
                false => choices,
            }
        })
    }

    pub(super) fn castling_turns(
        &self,
        mover: usize,
        kinds: u64,
        base: &Turn,
        out: &mut Vec<Turn>,
    ) {
        for (bit, right) in self.rules.castling.rights.iter().enumerate() {
            if self.castling & (1 << bit) == 0 || right.player != mover {
                continue;
            }
            let king = self.board[right.king_from as usize];
            if self
                .piece(king)
                .is_none_or(|(kind, _)| kinds & (1 << kind) == 0)
            {
                continue;
            }
            let rook = self.board[right.rook_from as usize];
            let clear = right.empty.iter().all(|&s| {
                self.board[s as usize] == EMPTY || s == right.king_from || s == right.rook_from
            });
            if !clear || self.piece(king).is_none() || self.piece(rook).is_none() {
                continue;
            }
            let attacker = self.next_player(mover);
            if right.safe
                && right
                    .safe_path
                    .iter()
                    .any(|&s| self.crossing_attacked(s, attacker))
            {
                continue;
            }
            let king_move = Part {
                kind: PartKind::Move,
                piece: king,
                from: right.king_from,
                to: right.king_to,
            };
            let rook_move = Part {
                kind: PartKind::Partner,
                piece: rook,
                from: right.rook_from,
                to: right.rook_to,
            };
            out.push(base.with(king_move).with(rook_move));
        }
    }

    /// Drops of `mover`'s pieces in hand of the kinds in `kinds`, within `zone` if given,
    /// each extending `base`.
    pub(super) fn drop_turns(
        &self,
        mover: usize,
        kinds: u64,
        zone: Option<DropZone>,
        base: Turn,
        out: &mut Vec<Turn>,
    ) {
        match zone {
            // The squares next to the player's pieces of some kinds, from their bitboards.
            Some(DropZone::NextTo(near)) => at_width!(self.rules, B => {
                let pieces = self.kinds_set::<B>(mover, near);
                let around = (pieces.squares())
                    .fold(B::NONE, |set, sq| set | self.rules.bits.neighbours::<B>(sq));
                self.drops_onto(PartKind::Drop, mover, kinds, around.squares(), base, out)
            }),
            fixed => {
                let squares = (0..self.board.len() as Sq).filter(|&to| match fixed {
                    Some(DropZone::Fixed(z)) => self.rules.zones.contains(z, mover, to),
                    _ => true,
                });
                self.drops_onto(PartKind::Drop, mover, kinds, squares, base, out);
            }
        }
    }

    /// Gating after the move of `base`: a piece of `kinds` from hand onto each gate (of `zone`,
    /// if given) that the move left empty, within the piece's own drop limits.
    pub(super) fn gate_turns(
        &self,
        request: Request,
        kinds: u64,
        zone: Option<u16>,
        base: Turn,
        out: &mut Vec<Turn>,
    ) {
        let rules = self.rules;
        let mover = request.player;
        // Only a piece in hand before the move may enter, not one the move has just taken.
        let held = (0..rules.pieces.kinds.len())
            .filter(|&kind| {
                self.hand_at(self.hand_slot(mover, kind), request.start) > 0 || self.endless(kind)
            })
            .fold(0u64, |held, kind| held | 1 << kind);
        let left = base
            .parts()
            .iter()
            .filter(|p| {
                matches!(
                    p.kind,
                    PartKind::Move | PartKind::Promote | PartKind::Partner
                )
            })
            .map(|p| p.from)
            .filter(|&sq| {
                self.gates[sq as usize] && zone.is_none_or(|z| rules.zones.contains(z, mover, sq))
            });
        self.drops_onto(PartKind::Gate, mover, kinds & held, left, base, out);
    }

    /// A part of `part` (a drop or a gate) taking a piece of `kinds` from `mover`'s hand onto
    /// each of `squares` that is empty and within the piece's drop limits, each after `base`.
    fn drops_onto(
        &self,
        part: PartKind,
        mover: usize,
        kinds: u64,
        squares: impl Iterator<Item = Sq> + Clone,
        base: Turn,
        out: &mut Vec<Turn>,
    ) {
        let rules = self.rules;
        for kind in bits_in(kinds & self.droppable(mover)) {
            let code = rules.pieces.code(kind, mover);
            let limits = &rules.pieces.kinds[kind].drops;
            let file_of = |sq: Sq| rules.geometry.coords[sq as usize].0;
            let taken_files = match limits.per_file {
                0 => 0,
                most => at_width!(rules, B => self.full_files::<B>(code, most)
                    .squares()
                    .fold(0u32, |files, sq| files | 1 << file_of(sq))),
            };
            let conditional = Self::has_drop_conditions(rules, limits);
            for to in squares.clone() {
                let file = file_of(to);
                if self.board[to as usize] != EMPTY
                    || !self.drop_zones_allow(kind, mover, to)
                    || taken_files & (1 << file) != 0
                    || (conditional && !self.drop_conditions_hold(code, to))
                {
                    continue;
                }
                for &dropped in std::iter::once(&(kind as u8)).chain(&limits.also_as) {
                    out.push(base.with(Part {
                        kind: part,
                        piece: rules.pieces.code(dropped as usize, mover),
                        from: NO_SQUARE,
                        to,
                    }));
                }
            }
        }
    }

    /// Whether the `drop in` and `drop not in` zones of `kind` let `player` drop it on `sq`.
    fn drop_zones_allow(&self, kind: usize, player: usize, sq: Sq) -> bool {
        let zones = &self.rules.zones;
        let limits = &self.rules.pieces.kinds[kind].drops;
        limits.inside.iter().all(|&z| zones.contains(z, player, sq))
            && !limits
                .outside
                .iter()
                .any(|&z| zones.contains(z, player, sq))
    }

    /// Whether drops of a kind with these limits have conditions on the position around the
    /// square, beyond its zones and file.
    pub(super) fn has_drop_conditions(rules: &Ruleset, limits: &DropLimits) -> bool {
        limits.converting || rules.derived.colour_balanced != 0
    }

    /// Whether the drop of `code` on `to` meets the conditions that look at the position
    /// around the square: it converts something (`drop converting`), and it keeps the kinds
    /// dropped on both colours even.
    pub(super) fn drop_conditions_hold(&self, code: Code, to: Sq) -> bool {
        let rules = self.rules;
        (!rules.pieces.drop_limits(code).converting || self.would_convert(code, to))
            && (rules.derived.colour_balanced == 0 || self.keeps_colours_even(code, to))
    }

    /// Whether dropping `code` on `to` still lets its player spread each kind dropped on both
    /// colours (`drop opposite-colours`) evenly: a piece of such a kind may not go to a colour
    /// that already holds its share, and another piece may not take a square that those still
    /// in hand need.
    pub(super) fn keeps_colours_even(&self, code: Code, to: Sq) -> bool {
        let rules = self.rules;
        let (dropped, player) = rules.pieces.split(code);
        let colour = |sq: Sq| {
            let (file, rank) = rules.geometry.coords[sq as usize];
            (usize::from(file) + usize::from(rank)) % 2
        };
        let squares = 0..self.board.len() as Sq;
        for kind in rules.derived.colour_balanced.squares() {
            let kind = usize::from(kind);
            let in_hand = u32::from(self.hands[self.hand_slot(player, kind)]);
            if in_hand == 0 {
                continue;
            }
            let own = rules.pieces.code(kind, player);
            let mut standing = [0u32; 2];
            for sq in squares.clone().filter(|&sq| self.board[sq as usize] == own) {
                standing[colour(sq)] += 1;
            }
            let total = standing[0] + standing[1] + in_hand;
            let even = match kind == dropped {
                true => standing[colour(to)] < total.div_ceil(2),
                false => {
                    let mut room = standing;
                    let free = |&sq: &Sq| {
                        sq != to
                            && self.board[sq as usize] == EMPTY
                            && self.drop_zones_allow(kind, player, sq)
                    };
                    for sq in squares.clone().filter(free) {
                        room[colour(sq)] += 1;
                    }
                    room.iter().all(|&n| n >= total / 2)
                }
            };
            if !even {
                return false;
            }
        }
        true
    }
}

/// The piece being moved: whose, from where, and the turn its move extends.
#[derive(Clone, Copy)]
struct Moving<'b> {
    player: usize,
    base: &'b Turn,
    from: Sq,
    code: Code,
}

/// Up to this many turns of one piece, repeats are found by comparing each with those kept;
/// past it, by sorting (a piece that moves anywhere has a hundred turns or more).
const COMPARED_TURNS: usize = 16;

/// Removes turns from `start` on that repeat an earlier one part for part; a repeat that opens
/// a square to en passant passes that on.
pub(super) fn dedupe(out: &mut Vec<Turn>, start: usize) {
    match out.len() - start > COMPARED_TURNS {
        true => dedupe_sorted(out, start),
        false => dedupe_compared(out, start),
    }
}

/// As [`dedupe`], comparing each turn with those kept.
fn dedupe_compared(out: &mut Vec<Turn>, start: usize) {
    let mut kept = start;
    for i in start..out.len() {
        let turn = out[i];
        match (start..kept).find(|&j| out[j].parts() == turn.parts()) {
            Some(j) => pass_on(out, j, turn.passed),
            None => {
                out[kept] = turn;
                kept += 1;
            }
        }
    }
    out.truncate(kept);
}

/// As [`dedupe`], keeping the same turns in the same order, with the repeats found next to
/// each other in the turns sorted by a key of their parts.
fn dedupe_sorted(out: &mut Vec<Turn>, start: usize) {
    let mut order: Vec<(u128, usize)> = (start..out.len()).map(|i| (key(&out[i]), i)).collect();
    order.sort_unstable();
    let mut repeat = vec![false; out.len() - start];
    let Some(&(mut first_key, mut first)) = order.first() else {
        return;
    };
    for &(key, i) in &order[1..] {
        match key == first_key {
            true => {
                repeat[i - start] = true;
                let passed = out[i].passed;
                pass_on(out, first, passed);
            }
            false => (first_key, first) = (key, i),
        }
    }
    let mut kept = start;
    for i in start..out.len() {
        if !repeat[i - start] {
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// The parts of a turn packed into one number, 32 bits a part: one-to-one, since a square
/// (or [`NO_SQUARE`]) fits 10 bits, a code 8 and a part's kind 4, and no first part packs to 0.
fn key(turn: &Turn) -> u128 {
    const {
        assert!(
            MAX_SIDE * MAX_SIDE < 0x3ff && PartKind::Pass as u32 <= 0xf && MAX_PARTS * 32 <= 128
        )
    };
    turn.parts().iter().fold(0, |key, part| {
        let packed = (part.kind as u128) << 28
            ^ (part.piece as u128) << 20
            ^ (part.from as u128 & 0x3ff) << 10
            ^ (part.to as u128 & 0x3ff);
        key << 32 | packed
    })
}

/// The kept turn `j` opens the square its repeat opens to en passant, if it opens none.
fn pass_on(out: &mut [Turn], j: usize, passed: Sq) {
    if out[j].passed == NO_SQUARE {
        out[j].passed = passed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorting finds the same repeats as comparing, keeps the same turns in the same order,
    /// and passes on the same squares opened to en passant.
    #[test]
    fn sorting_and_comparing_remove_the_same_repeats() {
        let mut random = crate::random::Random::new(0xDED0);
        for _ in 0..200 {
            let mut turns = vec![Turn::EMPTY; 3];
            for _ in 0..random.below(60) {
                let part = |random: &mut crate::random::Random, kind| Part {
                    kind,
                    piece: 1 + random.below(3) as Code,
                    from: 7,
                    to: random.below(20) as Sq,
                };
                let mut turn = Turn::new(part(&mut random, PartKind::Move));
                if random.below(4) == 0 {
                    turn = turn.with(part(&mut random, PartKind::Take));
                }
                turn.passed = [NO_SQUARE, 5, 6][random.below(3)];
                turns.push(turn);
            }
            let (mut sorted, mut compared) = (turns.clone(), turns);
            dedupe_sorted(&mut sorted, 3);
            dedupe_compared(&mut compared, 3);
            assert_eq!(sorted, compared);
        }
    }
}
