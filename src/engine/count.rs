//! Counting the legal turns of a position without building them, for perft's last ply. Where
//! the ruleset is `countable` (every turn one move or one drop, legality read from attack
//! sets), the turns of most pieces are the bits of their target sets, less what the pins forbid
//! (or, without pins, the targets tested on bitboards), times their ways to promote. A piece
//! whose turns need more (one with overlapping rules or many promotion rules), castling, and
//! drops that might mate are built and judged as generation would; a position with en passant
//! open, or a promotion that may change a piece's royalty without pins, is generated whole.
//! The count always equals the length of [`Position::legal_turns`], which the consistency walk
//! checks on every ply.

use super::legality::Guard;
use super::movegen::dedupe;
use super::position::{Position, bits_in};
use super::surviving::Counted;
use super::targets::Sides;
use super::turn::{Part, PartKind, Turn};
use crate::bitboard::Bitboard;
use crate::compile::turns::{Action, DropZone};
use crate::compile::{Code, EndCondition, Legality, NO_SQUARE, Sq};

/// A piece with more promotion rules than this has its moves built rather than counted.
const MAX_PROMOTION_RULES: usize = 3;

/// Legal turns counted so far, captures apart, for compulsory capture.
#[derive(Default)]
struct Tally {
    quiet: u64,
    captures: u64,
}

impl Tally {
    fn add(&mut self, captures: bool, n: u64) {
        match captures {
            true => self.captures += n,
            false => self.quiet += n,
        }
    }

    fn merge(&mut self, other: Tally) {
        self.quiet += other.quiet;
        self.captures += other.captures;
    }
}

impl Position<'_> {
    /// How many legal turns the player to move has: the length of [`Position::legal_turns`].
    pub fn count_legal(&mut self) -> u64 {
        let counted = match self.ready_count.take() {
            Some((depth, count)) if depth == self.depth() => Some(count),
            _ => self.count_unbuilt(),
        };
        let early_ends = &self.rules.derived.early_ends;
        let frees = early_ends
            .iter()
            .any(|c| matches!(c, EndCondition::Immobilized(_)));
        match counted {
            // The early ends left in a counted ruleset do not look at the turns, but for an
            // immobilized piece that one of them may free: only the turns can tell.
            Some(n) if n > 0 && !early_ends.is_empty() => match self.ends_early(&[]) {
                false => n,
                true if frees => self.count_built_turns(),
                true => 0,
            },
            Some(n) => n,
            None => self.count_built_turns(),
        }
    }

    /// How many legal turns the player to move has, whether or not the game has ended,
    /// counted without building them; `None` where the position needs them built.
    pub(super) fn count_unbuilt(&mut self) -> Option<u64> {
        let derived = &self.rules.derived;
        let fast = self.ready.is_none() && self.ep == NO_SQUARE;
        match fast {
            true if derived.countable => at_width!(self.rules, B => self.count_turns::<B>()),
            true if derived.replies_countable => {
                let mut counted = Counted(0);
                at_width!(self.rules, B => self.surviving::<B, _>(&mut counted))?;
                Some(counted.0)
            }
            true if derived.ways_countable => Some(self.count_ways()),
            _ => None,
        }
    }

    /// How many legal turns the player to move has, counted from the list of them.
    fn count_built_turns(&mut self) -> u64 {
        let mut turns = self.scratch.pop().unwrap_or_default();
        self.legal_turns(&mut turns);
        let n = turns.len() as u64;
        self.scratch.push(turns);
        n
    }

    /// The count, or `None` where the position needs the turns built.
    fn count_turns<B: Bitboard>(&mut self) -> Option<u64> {
        let player = self.to_move;
        let Some(plans) = self.plans_of(player) else {
            return Some(0);
        };
        let mut guard = self.guard::<B>(player);
        // Without pins each target is tested on bitboards, which cannot follow a promotion
        // that adds or takes away a royal piece.
        let tested = self.rules.derived.legality != Legality::Free && guard.pins().is_none();
        if tested && self.rules.derived.royalty_changes {
            return None;
        }
        self.expose(&mut guard, player);
        let sides = self.sides::<B>(player);
        let mut tally = Tally::default();
        for plan in plans {
            match plan.steps[0].action {
                Action::Move { pieces } => {
                    self.count_moves(player, pieces, &sides, &guard, &mut tally)
                }
                Action::Drop { pieces, zone } => {
                    let held = pieces & self.droppable(player);
                    // An empty hand, the usual one, is not worth the call.
                    if held == 0 {
                        continue;
                    }
                    let zone = match zone {
                        Some(DropZone::Fixed(z)) => Some(z),
                        _ => None,
                    };
                    self.count_drops(player, held, zone, &sides, &guard, &mut tally)
                }
                _ => return None,
            }
        }
        Some(match self.rules.captures.compulsory && tally.captures > 0 {
            true => tally.captures,
            false => tally.quiet + tally.captures,
        })
    }

    /// The legal moves of `player`'s pieces of the kinds in `kinds`, castling and lent moves
    /// included.
    fn count_moves<B: Bitboard>(
        &mut self,
        player: usize,
        kinds: u64,
        sides: &Sides<B>,
        guard: &Guard<B>,
        tally: &mut Tally,
    ) {
        // A piece with moves lent to it has them built, with its own, and judged.
        let receivers = match self.rules.pieces.lends.is_empty() {
            true => B::NONE,
            false => (self.lent_rules::<B>(player, kinds))
                .fold(B::NONE, |set, (_, sq, ..)| set | B::bit(sq)),
        };
        // Asked once, not per piece: no piece is lent a move in nearly every game.
        let lent_to = receivers.any();
        let free_castlers = self.rules.derived.free_castlers;
        // Shifting a set of more than two words costs more than it saves.
        let together = match B::WORDS <= 2 && !lent_to && free_castlers == 0 {
            true => self.count_shifted(player, kinds, sides, guard, tally),
            false => B::NONE,
        };
        for from in (self.kinds_set::<B>(player, kinds) & !together).squares() {
            let code = self.board[from as usize];
            let counted = match lent_to && receivers.has(from) {
                true => None,
                false => self.count_targets(from, code, player, sides, guard),
            };
            match counted {
                Some(counted) => tally.merge(counted),
                None => self.count_built(player, guard, tally, |position, out| {
                    position.piece_turns_in(from, code, player, &Turn::EMPTY, sides, out);
                    let only_here = |sq| sq == from;
                    if position.lent_moves(player, kinds, &Turn::EMPTY, sides, out, only_here) {
                        dedupe(out, 0);
                    }
                }),
            }
            if free_castlers != 0 {
                self.count_free_castling(from, code, player, guard, tally);
            }
        }
        if self.castling != 0 {
            self.count_built(player, guard, tally, |position, out| {
                position.castling_turns(player, kinds, &Turn::EMPTY, out)
            });
        }
    }

    /// Adds to `tally` the legal moves of `player`'s pieces of the kinds in `kinds` that are
    /// counted together, by shifting the set of them by each step (see
    /// [`crate::compile::ShiftTables`]): those that stand where no step promotes, and are
    /// pinned by nothing (or whose player has no royal piece). Returns their squares.
    fn count_shifted<B: Bitboard>(
        &self,
        player: usize,
        kinds: u64,
        sides: &Sides<B>,
        guard: &Guard<B>,
        tally: &mut Tally,
    ) -> B {
        let rules = self.rules;
        let shifts = &rules.shifts;
        let unpinned = match guard.pins() {
            _ if rules.derived.legality == Legality::Free => !B::NONE,
            Some(pins) => !pins.pinned(),
            // A player without a royal piece (Horde's White) has none to expose.
            None if guard.royals.is_empty() => !B::NONE,
            None => return B::NONE,
        };
        let mut together = B::NONE;
        for piece in shifts.of(player).iter().filter(|p| kinds & p.kind_bit != 0) {
            let pieces = self.code_set::<B>(piece.code) & shifts.settled::<B>(piece) & unpinned;
            if pieces.is_empty() {
                continue;
            }
            together |= pieces;
            for step in &piece.steps {
                let mut from = pieces & shifts.sources::<B>(step);
                for &passed in &step.passed {
                    from &= sides.empty.shifted(-passed);
                }
                let to = from.shifted(step.offset);
                if step.mode.moves() {
                    tally.quiet += u64::from((to & sides.empty).count());
                }
                if step.mode.captures() {
                    tally.captures += u64::from((to & sides.enemies).count());
                }
            }
        }
        together
    }

    /// The legal castlings without rights of the piece `code` of `player` on `from`.
    fn count_free_castling<B: Bitboard>(
        &mut self,
        from: Sq,
        code: Code,
        player: usize,
        guard: &Guard<B>,
        tally: &mut Tally,
    ) {
        let (kind, _) = self.rules.pieces.split(code);
        if self.rules.derived.free_castlers & (1 << kind) != 0 {
            self.count_built(player, guard, tally, |position, out| {
                position.free_castling(from, kind, player, &Turn::EMPTY, out)
            });
        }
    }

    /// The legal moves of the piece on `from` as bits of its targets (less those its pin
    /// forbids, or for the royal piece those attacked), each counted once per way to promote
    /// there; `None` if its rules may reach a square twice or it has too many promotion rules
    /// to split its targets by.
    fn count_targets<B: Bitboard>(
        &self,
        from: Sq,
        code: Code,
        player: usize,
        sides: &Sides<B>,
        guard: &Guard<B>,
    ) -> Option<Tally> {
        let rules = self.rules;
        // A hemmed rider has no move, however its moves would be judged.
        if rules.bits.sorted[code as usize].only_rides && self.hemmed(code, from, sides) {
            return Some(Tally::default());
        }
        if rules.pieces.overlapping[code as usize] {
            return None;
        }
        let (empty, enemies) = self.piece_targets(from, code, player, sides);
        // A piece that reaches no square (as most do early in a game) has no move to judge.
        if (empty | enemies).is_empty() {
            return Some(Tally::default());
        }
        let free = rules.derived.legality == Legality::Free;
        let allowed = match guard.pins() {
            _ if free => !B::NONE,
            // A promotion to a royal kind must be judged where the new royal piece stands.
            Some(_) if rules.derived.royalty_changes && self.crowns(code) => return None,
            Some(pins) if !guard.royals.has(from) => pins.allowed(from, &rules.bits),
            _ => match guard.exposed {
                Some(exposed) if from != guard.royal && !exposed.has(from) => {
                    let unsure = (empty | enemies) & exposed;
                    !exposed | self.safe_targets(from, player, unsure, sides)
                }
                _ => self.safe_targets(from, player, empty | enemies, sides),
            },
        };
        self.count_promotions(code, from, empty & allowed, enemies & allowed)
    }

    /// The squares on which a piece, arriving or leaving, might change whether `attacker`
    /// attacks `royal`: the lines its sliders and hoppers attack along, the squares its lame
    /// leaps pass.
    pub(super) fn exposure<B: Bitboard>(&self, royal: Sq, attacker: usize) -> B {
        self.exposure_along(royal, attacker, |_, _| true)
    }

    /// [`Position::exposure`] with only the slide lines `line` for which `slides(line, kinds)`
    /// holds, `kinds` being those of `attacker`'s pieces that slide along it.
    pub(super) fn exposure_along<B: Bitboard>(
        &self,
        royal: Sq,
        attacker: usize,
        slides: impl Fn(u16, u64) -> bool,
    ) -> B {
        let rules = self.rules;
        let bits = &rules.bits;
        let attacks = &rules.pieces.attacks[attacker];
        let mut exposed = B::NONE;
        let slides = (attacks.slides.iter())
            .filter(|&&(line, kinds)| slides(line, kinds))
            .map(|&(line, _)| line);
        for line in slides.chain(attacks.conditional_lines.iter().copied()) {
            exposed |= bits.line::<B>(line, royal);
        }
        for &(line, _, _) in &attacks.hops {
            exposed |= bits.line::<B>(bits.unlimited(line), royal);
        }
        let lame = (bits.lame_leaps[attacker].iter())
            .map(|&entry| (attacks.leaps[entry].0, &attacks.leaps[entry].2));
        let conditional = (attacks.conditional_paths.iter()).map(|(vector, path)| (*vector, path));
        for (vector, path) in lame.chain(conditional) {
            let source = rules.geometry.step(vector, royal);
            let passed = path.iter().map(|&p| match source {
                NO_SQUARE => NO_SQUARE,
                source => rules.geometry.step(p, source),
            });
            for sq in passed.filter(|&sq| sq != NO_SQUARE) {
                exposed |= B::bit(sq);
            }
        }
        exposed
    }

    /// The squares of `targets` to which the piece of `player` on `from` may move alone and
    /// leave none of the player's royal pieces attacked: each tested on bitboards.
    fn safe_targets<B: Bitboard>(
        &self,
        from: Sq,
        player: usize,
        targets: B,
        sides: &Sides<B>,
    ) -> B {
        let attacker = self.next_player(player);
        let left = sides.occupied & !B::bit(from);
        let royals = self.royal_set::<B>(player);
        let safe = |to: Sq| {
            let royals = match royals.has(from) {
                true => royals & !B::bit(from) | B::bit(to),
                false => royals,
            };
            let occupied = left | B::bit(to);
            !self.endangered(royals, |royal| {
                self.attacked_in(royal, attacker, occupied, !B::bit(to))
            })
        };
        targets
            .squares()
            .filter(|&to| safe(to))
            .fold(B::NONE, |set, to| set | B::bit(to))
    }

    /// The moves of the piece `code` from `from` to the squares of `empty` and `enemies`,
    /// each as many times as it has ways to end (promoted to each target, or not); `None` past
    /// [`MAX_PROMOTION_RULES`].
    fn count_promotions<B: Bitboard>(
        &self,
        code: Code,
        from: Sq,
        empty: B,
        enemies: B,
    ) -> Option<Tally> {
        let rules = self.rules;
        let (kind, player) = rules.pieces.split(code);
        // Promotions that look at the position beyond the move's squares (on captures only,
        // for a lone piece, peaceful ones) are left to the move generator.
        if rules.pieces.kinds[kind].promotes_by_position {
            return None;
        }
        let reached = empty | enemies;
        let zones = rules.bits.promotion_zones::<B>(code);
        // Neither starting nor ending in a promotion zone, a move promotes by no rule.
        if (zones & reached).is_empty() && !zones.has(from) {
            return Some(Tally {
                quiet: u64::from(empty.count()),
                captures: u64::from(enemies.count()),
            });
        }
        let promotions = &rules.pieces.kinds[kind].promotions;
        if promotions.len() > MAX_PROMOTION_RULES {
            return None;
        }
        // Split the targets by which promotion rules apply there: each part gets the union of
        // those rules' targets, and keeps the plain move unless one of them is compulsory.
        let mut parts = [(!B::NONE, 0u64, false); 1 << MAX_PROMOTION_RULES];
        let mut len = 1;
        for promotion in promotions {
            let zone = rules.zones.squares::<B>(promotion.zone, player);
            let zone = match promotion.via && zone.has(from) {
                true => !B::NONE,
                false => zone,
            };
            // A rule whose zone the piece cannot reach splits nothing off.
            if (zone & reached).is_empty() {
                continue;
            }
            let targets = self.promotion_choices(promotion, player);
            for i in 0..len {
                let (squares, kinds, forced) = parts[i];
                parts[i].0 = squares & !zone;
                parts[len + i] = (
                    squares & zone,
                    kinds | targets,
                    forced || !promotion.optional,
                );
            }
            len *= 2;
        }
        let mut tally = Tally::default();
        for &(squares, kinds, forced) in &parts[..len] {
            // A compulsory promotion with no choice left leaves no move (grand chess).
            let ways = u64::from(kinds.count_ones()) + u64::from(!forced);
            tally.quiet += ways * u64::from((squares & empty).count());
            tally.captures += ways * u64::from((squares & enemies).count());
        }
        Some(tally)
    }

    /// The legal drops of `player`'s pieces in hand of the kinds in `held`, all of which the
    /// player may drop, within `zone`.
    fn count_drops<B: Bitboard>(
        &mut self,
        player: usize,
        held: u64,
        zone: Option<u16>,
        sides: &Sides<B>,
        guard: &Guard<B>,
        tally: &mut Tally,
    ) {
        let rules = self.rules;
        for kind in bits_in(held) {
            let code = rules.pieces.code(kind, player);
            let targets = self.drop_targets::<B>(code, zone, sides);
            let also_as = &rules.pieces.kinds[kind].drops.also_as;
            for &dropped in std::iter::once(&(kind as u8)).chain(also_as) {
                let code = rules.pieces.code(dropped as usize, player);
                self.count_drops_of(code, player, targets, sides, guard, tally);
            }
        }
    }

    /// How many drops of the kinds in `kinds` `player` may make now (onto `zone`), where no
    /// rule refuses a turn.
    pub(super) fn count_free_drops(&mut self, player: usize, kinds: u64, zone: Option<u16>) -> u64 {
        at_width!(self.rules, B => {
            let sides = self.sides::<B>(player);
            let guard = self.guard::<B>(player);
            let mut tally = Tally::default();
            let held = kinds & self.droppable(player);
            self.count_drops(player, held, zone, &sides, &guard, &mut tally);
            tally.quiet + tally.captures
        })
    }

    /// The legal drops of a piece `code` of `player` on `targets`.
    fn count_drops_of<B: Bitboard>(
        &mut self,
        code: Code,
        player: usize,
        targets: B,
        sides: &Sides<B>,
        guard: &Guard<B>,
        tally: &mut Tally,
    ) {
        let rules = self.rules;
        // In check, or without pins, any drop may fail to shield the royal piece.
        let unsure = match rules.derived.legality {
            Legality::Free => B::NONE,
            _ if !guard.quiet => targets,
            _ if self.plain_drop(code) => B::NONE,
            _ => self.drops_that_may_mate(code, targets, sides),
        };
        tally.quiet += u64::from((targets & !unsure).count());
        for to in unsure.squares() {
            let drop = Turn::new(Part {
                kind: PartKind::Drop,
                piece: code,
                from: NO_SQUARE,
                to,
            });
            if self.is_safe(&drop, player, guard) {
                tally.quiet += 1;
            }
        }
    }

    /// The empty squares a piece `code` in hand may be dropped on.
    fn drop_targets<B: Bitboard>(&self, code: Code, zone: Option<u16>, sides: &Sides<B>) -> B {
        let rules = self.rules;
        let (kind, player) = rules.pieces.split(code);
        let limits = &rules.pieces.kinds[kind].drops;
        let zones = &rules.zones;
        let mut targets = sides.empty;
        for z in zone.iter().chain(&limits.inside) {
            targets &= zones.squares::<B>(*z, player);
        }
        for &z in &limits.outside {
            targets &= !zones.squares::<B>(z, player);
        }
        if limits.per_file > 0 {
            targets &= !self.full_files::<B>(code, limits.per_file);
        }
        if Self::has_drop_conditions(rules, limits) {
            let hold = |&to: &Sq| self.drop_conditions_hold(code, to);
            targets = (targets.squares().filter(hold)).fold(B::NONE, |set, to| set | B::bit(to));
        }
        targets
    }

    /// The squares of the files that already hold `most` pieces with exactly this code (a
    /// `per-file` drop limit).
    pub(super) fn full_files<B: Bitboard>(&self, code: Code, most: u8) -> B {
        let rules = self.rules;
        let held = self.code_set::<B>(code);
        let mut full = B::NONE;
        for sq in held.squares() {
            let file = rules.bits.file::<B>(rules.geometry.coords[sq as usize].0);
            // One piece fills its file where the limit is one (shogi's Pawns): no count.
            if most == 1 || (held & file).count() >= u32::from(most) {
                full |= file;
            }
        }
        full
    }

    /// The drops among `targets` that a drop rule may refuse: for a piece that may not mate by
    /// dropping, those from which it would attack the enemy royal piece (by any of its capturing
    /// rules, a superset that costs only time); for a royal piece, all.
    fn drops_that_may_mate<B: Bitboard>(&self, code: Code, targets: B, sides: &Sides<B>) -> B {
        let rules = self.rules;
        let (kind, player) = rules.pieces.split(code);
        let enemy_royal = self.single_royal::<B>(self.next_player(player));
        if rules.pieces.kinds[kind].royal || enemy_royal == NO_SQUARE {
            return targets;
        }
        let attacks_royal = |to: Sq| {
            rules.pieces.programs[code as usize]
                .iter()
                .filter(|rule| rule.mode.captures())
                .any(|rule| self.rule_targets(rule, to, sides).1.has(enemy_royal))
        };
        targets
            .squares()
            .filter(|&to| attacks_royal(to))
            .fold(B::NONE, |set, to| set | B::bit(to))
    }

    /// Builds turns with `build` and adds those that are legal.
    fn count_built<B: Bitboard>(
        &mut self,
        player: usize,
        guard: &Guard<B>,
        tally: &mut Tally,
        build: impl FnOnce(&Self, &mut Vec<Turn>),
    ) {
        let mut turns = self.scratch.pop().unwrap_or_default();
        turns.clear();
        build(self, &mut turns);
        let free = self.rules.derived.legality == Legality::Free;
        for turn in &turns {
            if free || self.is_safe(turn, player, guard) {
                tally.add(turn.captures, 1);
            }
        }
        self.scratch.push(turns);
    }
}
