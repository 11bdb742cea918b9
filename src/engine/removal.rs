//! Whether a player can remove a royal piece with one move, read exactly from target sets
//! instead of generating and making the moves: by replacement (the attack sets), by custodian
//! capture (a move onto the square beside the royal piece with a partner beyond it) and by a
//! trigger's removal (a move into its zone, the removal's group judged after the move's own
//! captures). The rules that judge a turn by the opponent's replies (`royal-captured`, a
//! counter on `checked`) ask this of every turn; where the rules or the position hold
//! something it does not follow (see `Derived::readable_removals`), it gives no answer and
//! the replies are generated.

use super::position::Position;
use super::steps::Request;
use super::targets::Sides;
use super::turn::{Part, PartKind, Turn};
use crate::bitboard::Bitboard;
use crate::compile::turns::{Action, DropZone, Plan, Step};
use crate::compile::{Code, Gen, NO_SQUARE, Sq};

/// What proves quiet turns legal where legality is judged by the replies, without reading
/// each: for a move of one piece that captures nothing, sets off no trigger and touches none
/// of the squares that could change the next player's power to remove the royal piece, the
/// answer is what that power is as the board stands.
pub(super) struct QuietProof<B> {
    /// The mover's one royal piece.
    royal: Sq,
    /// Whether the next player can remove it as the board stands, with their counters as
    /// they are: the answer for every quiet move of another piece.
    removable: bool,
    /// That player, as their removals read the board, for a quiet move of the royal piece.
    remover: Mover<B>,
    /// Their pieces of the kinds they may move: a quiet move of the royal piece out of reach
    /// of them all is safe, with nothing more to read.
    movers: B,
    /// The squares a quiet move may neither leave nor enter: where the next player's removal
    /// reads the board, and, where being in check shapes their turn (a placement it allows),
    /// near their royal piece.
    touchy: B,
    /// The squares from which the mover's pieces of `approach_kinds` could enter a trigger's
    /// zone whose removal may take the next player's royal piece.
    approach: B,
    approach_kinds: u64,
    /// The squares of the mover's trigger zones: a move there may set one off.
    trigger_zones: B,
    /// Where a check would let the next player place a piece first, when no such placement
    /// can help them remove the royal piece where it stands: a move of the royal piece is
    /// still judged against them.
    placements: B,
}

impl<B: Bitboard> QuietProof<B> {
    /// Whether the proof judges the quiet moves of the piece on `from` all at once: not the
    /// royal piece's, not those of a piece on a square the proof does not cover.
    pub(super) fn judges_from(&self, from: Sq) -> bool {
        from != self.royal && !self.touchy.has(from)
    }

    /// The squares on which the proof judges a quiet move of a piece of `kind`: not those it
    /// does not cover, nor those where the move may set off a trigger.
    pub(super) fn quiet_landings(&self, kind: usize) -> B {
        let approach = match self.approach_kinds & (1 << kind) {
            0 => B::NONE,
            _ => self.approach,
        };
        !(self.touchy | approach | self.trigger_zones)
    }

    /// Whether the quiet moves the proof judges all at once are legal.
    pub(super) fn quiet_moves_legal(&self) -> bool {
        !self.removable
    }
}

/// What one turn may do, as removals read it (see [`Position::turn_shape`]).
#[derive(Clone, Copy)]
pub(super) struct TurnShape<'r> {
    /// The kinds the turn's one move may move.
    pub kinds: u64,
    /// A placement the turn can make before its move, optional or not.
    pub placement: Option<&'r Step>,
}

/// Who moves in the removal asked about, and what may stop a move.
#[derive(Clone, Copy)]
struct Mover<B> {
    player: usize,
    /// The kinds the turn may move.
    kinds: u64,
    /// Whether the player's counter limits may refuse a move.
    limited: bool,
    sides: Sides<B>,
}

impl<'r> Position<'r> {
    /// Whether `by` can remove `victim`'s royal piece with one turn of `plans`, within their
    /// counter limits, or with one plain move counting neither limits nor placements when
    /// `plans` is `None`; no answer where this cannot be read from the target sets.
    pub(super) fn removal_by_move(
        &mut self,
        victim: usize,
        by: usize,
        plans: Option<&'r [Plan]>,
    ) -> Option<bool> {
        if !self.rules.derived.readable_removals {
            return None;
        }
        at_width!(self.rules, B => self.removal_in::<B>(victim, by, plans))
    }

    /// Inlined, so that the usual answer, a plain move with nothing near, costs no call: every
    /// turn made asks it where a counter counts checks.
    #[inline(always)]
    fn removal_in<B: Bitboard>(
        &mut self,
        victim: usize,
        by: usize,
        plans: Option<&'r [Plan]>,
    ) -> Option<bool> {
        let royals = self.royal_set::<B>(victim);
        if royals.count() != 1 {
            return None;
        }
        let royal = royals.lowest();
        if plans.is_none() && self.nothing_near::<B>(royal, by) {
            return Some(false);
        }
        self.removal_read::<B>(royal, victim, by, plans)
    }

    /// [`Position::removal_in`] past its quick answers: the remover set up and its moves read.
    #[inline(never)]
    fn removal_read<B: Bitboard>(
        &mut self,
        royal: Sq,
        victim: usize,
        by: usize,
        plans: Option<&'r [Plan]>,
    ) -> Option<bool> {
        let (mover, placement) = self.remover::<B>(by, plans)?;
        let unplaced = placement.is_none_or(|step| step.optional);
        Some(
            (unplaced && self.removes_at(royal, victim, &mover))
                || placement
                    .is_some_and(|step| self.removes_after_placing(step, royal, victim, &mover)),
        )
    }

    /// Whether, after some placement of `step`, `mover` can remove `victim`'s royal piece on
    /// `royal`.
    fn removes_after_placing<B: Bitboard>(
        &mut self,
        step: &'r Step,
        royal: Sq,
        victim: usize,
        mover: &Mover<B>,
    ) -> bool {
        let request = Request {
            start: self.journal_len(),
            ..Request::every_turn(mover.player, self.rules)
        };
        let mut placements = self.scratch.pop().unwrap_or_default();
        placements.clear();
        self.choices(request, &step.action, Turn::EMPTY, &mut placements);
        // Where every rule is a step, a piece placed out of every reach adds no removal, as
        // a placement of no use to the remover only fills a square of theirs.
        let stepping = self.rules.pieces.step_reach.is_some();
        let found = placements.iter().any(|placement| {
            let square = B::bit(placement.main().to);
            if stepping && !self.placement_helps(square, royal, mover.player) {
                return false;
            }
            let mark = self.mark();
            self.apply(placement.main(), mover.player);
            let placed = Mover {
                sides: self.sides::<B>(mover.player),
                ..*mover
            };
            let found = self.removes_at(royal, victim, &placed);
            self.rewind(mark);
            found
        });
        self.scratch.push(placements);
        found
    }

    /// Who would remove a royal piece of the victim's, one alone on the board, with a turn of
    /// `plans` (or a plain move), as the board stands, and the placement they may make first;
    /// none where that cannot be read: a turn of `by` may do more. Always inlined: the proof
    /// of every position counted by its replies sets one up, and the call and the passing of
    /// the answer through memory cost as much as the reading.
    #[inline(always)]
    fn remover<B: Bitboard>(
        &self,
        by: usize,
        plans: Option<&'r [Plan]>,
    ) -> Option<(Mover<B>, Option<&'r Step>)> {
        // A trigger fires only while every player keeps a royal piece.
        let triggers = !self.rules.turns.triggers.is_empty();
        if triggers && !self.royal_set::<B>(by).any() {
            return None;
        }
        let shape = match plans {
            Some(plans) => self.turn_shape(plans, by)?,
            None => TurnShape {
                kinds: self.rules.pieces.all(),
                placement: None,
            },
        };
        let mover = Mover {
            player: by,
            kinds: shape.kinds,
            limited: plans.is_some()
                && self.rules.derived.counter_limits
                && self.limits_may_bite(by),
            sides: self.sides::<B>(by),
        };
        Some((mover, shape.placement))
    }

    /// Whether `mover` can remove `victim`'s royal piece standing on `royal`, the board being
    /// as `mover`'s sides see it.
    fn removes_at<B: Bitboard>(&mut self, royal: Sq, victim: usize, mover: &Mover<B>) -> bool {
        self.removes_beside(royal, mover) || self.removes_by_trigger(victim, mover)
    }

    /// Whether `mover` can remove the royal piece standing on `royal` by moving onto it or
    /// next to it: by replacement or by custodian capture, triggers aside.
    // Inlined, so that the usual answer, no piece near, costs no call: every position
    // counted by its replies asks it.
    #[inline(always)]
    fn removes_beside<B: Bitboard>(&mut self, royal: Sq, mover: &Mover<B>) -> bool {
        mover.kinds != 0
            && self.movers_near(royal, mover)
            && self.replaces_or_intercepts(royal, mover)
    }

    /// [`Position::removes_beside`] once a piece of `mover` stands near `royal`.
    fn replaces_or_intercepts<B: Bitboard>(&mut self, royal: Sq, mover: &Mover<B>) -> bool {
        self.replaces(royal, mover) || self.intercepts(royal, mover)
    }

    /// Whether no piece of `by` stands where one plain move could remove the royal piece on
    /// `royal`: none near enough to take it, none near a trigger's zone. Most of the time this
    /// holds, and it is read without building the mover's sides, giving the answer
    /// [`Position::removes_at`] would. Never where [`Position::remover`] gives no answer (a
    /// file with triggers whose `by` has no royal piece).
    fn nothing_near<B: Bitboard>(&self, royal: Sq, by: usize) -> bool {
        let rules = self.rules;
        rules.pieces.step_reach.is_some()
            && (rules.turns.triggers.is_empty() || self.royal_set::<B>(by).any())
            && (self.next_to_reach::<B>(royal) & self.player_set::<B>(by)).is_empty()
            && !self.near_any_trigger::<B>(by)
    }

    /// Whether a piece `mover` may move stands near enough to `royal` to take it by
    /// replacement or by custodian capture: where every rule is a step, one step further
    /// than a rule reaches (onto the square beside it); else anywhere.
    fn movers_near<B: Bitboard>(&self, royal: Sq, mover: &Mover<B>) -> bool {
        if self.rules.pieces.step_reach.is_none() {
            return true;
        }
        (self.next_to_reach::<B>(royal) & self.kinds_set::<B>(mover.player, mover.kinds)).any()
    }

    /// The squares from which a piece may move onto `sq` or next to it (see
    /// [`Position::within_reach`]).
    fn next_to_reach<B: Bitboard>(&self, sq: Sq) -> B {
        match self.rules.pieces.step_reach {
            Some(_) => self.rules.bits.next_to_reach::<B>(sq),
            None => !B::NONE,
        }
    }

    /// The squares beside `royal` on which a piece of `by` arriving would take it by custodian
    /// capture, a piece of theirs standing beyond it.
    fn custodian_landings<B: Bitboard>(&self, royal: Sq, by: usize) -> B {
        if !self.partner_beyond::<B>(royal, by) {
            return B::NONE;
        }
        let rules = self.rules;
        let own = self.player_set::<B>(by);
        let mut landings = B::NONE;
        for (line, back) in rules.captures.custodian_pairs(by) {
            let beside = rules.geometry.step(back, royal);
            if beside != NO_SQUARE && own.has(rules.geometry.step(line, royal)) {
                landings |= B::bit(beside);
            }
        }
        landings
    }

    /// Whether a piece of `by` stands next to `sq` along one of their custodian lines, as a
    /// partner that could take a piece there: most of the time none does, and no line need be
    /// followed.
    fn partner_beyond<B: Bitboard>(&self, sq: Sq, by: usize) -> bool {
        let rules = self.rules;
        !rules.captures.custodian.is_empty()
            && (rules.bits.flanked_from::<B>(by, sq) & self.player_set::<B>(by)).any()
    }

    /// The proof of quiet turns for `player`, the player to move, where the rules move pieces
    /// by steps and leaps alone and the board allows one.
    pub(super) fn quiet_proof<B: Bitboard>(&mut self, player: usize) -> Option<QuietProof<B>> {
        let rules = self.rules;
        let opponent = self.next_player(player);
        let plans = self
            .plans_of(opponent)
            .filter(|_| rules.pieces.step_reach.is_some())?;
        let royal = self.royal_set::<B>(player);
        if royal.count() != 1 || self.triggers_near::<B>(opponent, player) {
            return None;
        }
        let royal = royal.lowest();
        let (remover, None) = self.remover::<B>(opponent, Some(plans))? else {
            return None;
        };
        // No trigger of theirs is near (see above), so only a move onto the royal piece or
        // next to it can remove it, here or after a quiet move of it.
        let removable = self.removes_beside(royal, &remover);
        let touchy = self.custodian_landings::<B>(royal, opponent);
        let mut proof = QuietProof {
            royal,
            removable,
            movers: self.kinds_set::<B>(opponent, remover.kinds),
            remover,
            touchy,
            approach: B::NONE,
            approach_kinds: 0,
            trigger_zones: rules.bits.trigger_zones::<B>(player),
            placements: B::NONE,
        };
        // A check matters only through the placement it allows: one that lands where no
        // piece could help take the royal piece leaves every quiet move as it was.
        if let Some(placements) = self.check_placements::<B>(opponent, plans)
            && !self.placement_helps(placements, royal, opponent)
        {
            proof.placements = placements;
            return Some(proof);
        }
        let theirs = self.royal_set::<B>(opponent);
        if theirs.count() != 1
            || self.removal_by_move(opponent, player, None) != Some(false)
            || self.triggers_near::<B>(player, opponent)
        {
            return None;
        }
        // One step further than a rule reaches: a piece arriving there may move next to
        // their royal piece, beside a partner of a custodian capture.
        proof.touchy |= self.next_to_reach::<B>(theirs.lowest());
        let present = self.kinds_on_board::<B>(opponent);
        for (index, trigger) in rules.turns.triggers.iter().enumerate() {
            // Only a piece on the board makes a quiet move towards the zone.
            if self.kinds_set::<B>(player, trigger.pieces).any()
                && trigger
                    .enemy_removal()
                    .is_some_and(|g| self.group_may_hold_royal::<B>(g, present, opponent, player))
            {
                proof.approach |= rules
                    .bits
                    .approach::<B>(index, rules.players.count(), player);
                proof.approach_kinds |= trigger.pieces;
            }
        }
        Some(proof)
    }

    /// Whether `turn` of `player` is proven legal or illegal by `proof`; no answer for a turn
    /// that is not quiet.
    pub(super) fn quietly<B: Bitboard>(
        &mut self,
        proof: &QuietProof<B>,
        turn: &Turn,
        player: usize,
    ) -> Option<bool> {
        let part = turn.main();
        let plain = turn.len() == 1 && !turn.captures && part.kind == PartKind::Move;
        plain
            .then(|| self.quiet_move(proof, part, player))
            .flatten()
    }

    /// Of `landings`, the squares the proof covers for a quiet move of the piece on `from`,
    /// those where a quiet move of the royal piece is proven legal at once: no piece the next
    /// player may move stands near enough to take it there (the answer
    /// [`Position::quiet_move`] reads), and no placement a check allows them could help.
    /// Most of the royal piece's moves are such; none unless `from` holds it and the proof
    /// covers that square.
    pub(super) fn royal_moves_proven<B: Bitboard>(
        &self,
        proof: &QuietProof<B>,
        from: Sq,
        landings: B,
    ) -> B {
        if from != proof.royal || proof.touchy.has(from) {
            return B::NONE;
        }
        let proven = |to: Sq| {
            self.out_of_reach(proof, to)
                && !self.placement_helps(proof.placements, to, proof.remover.player)
        };
        (landings.squares())
            .filter(|&to| proven(to))
            .fold(B::NONE, |set, to| set | B::bit(to))
    }

    /// Whether no piece the next player may move stands near enough to `to` to take the royal
    /// piece there, by replacement or by custodian capture: then
    /// [`Position::removes_beside`] answers no, unread.
    fn out_of_reach<B: Bitboard>(&self, proof: &QuietProof<B>, to: Sq) -> bool {
        (self.rules.bits.next_to_reach::<B>(to) & proof.movers).is_empty()
    }

    /// Whether `part`, a move of `player` that captures nothing, is proven legal or illegal
    /// by `proof`; no answer where it touches a square the proof does not cover or sets off a
    /// trigger. A move of the royal piece is judged by reading the replies to it on its new
    /// square, the rest of the board unchanged.
    pub(super) fn quiet_move<B: Bitboard>(
        &mut self,
        proof: &QuietProof<B>,
        part: &Part,
        player: usize,
    ) -> Option<bool> {
        let (kind, _) = self.rules.pieces.split(part.piece);
        let loud = proof.touchy.has(part.from)
            || proof.touchy.has(part.to)
            || (proof.approach.has(part.to) && proof.approach_kinds & (1 << kind) != 0)
            || (proof.trigger_zones.has(part.to) && self.entered_by(player, part).is_some());
        if loud {
            return None;
        }
        if part.from != proof.royal {
            return Some(!proof.removable);
        }
        if self.placement_helps(proof.placements, part.to, self.next_player(player)) {
            return None;
        }
        if self.out_of_reach(proof, part.to) {
            return Some(true);
        }
        let mut remover = proof.remover;
        let moved = B::bit(part.from) | B::bit(part.to);
        remover.sides.occupied ^= moved;
        remover.sides.empty ^= moved;
        remover.sides.enemies ^= moved;
        Some(!self.removes_beside(part.to, &remover))
    }

    /// Whether some trigger of `by` whose removal may take `victim`'s royal piece has a piece
    /// of its kinds where one move could set it off.
    // Inlined, so that the usual answer, no piece near any zone, costs no call: every
    // position counted by its replies asks it.
    #[inline(always)]
    fn triggers_near<B: Bitboard>(&self, by: usize, victim: usize) -> bool {
        self.near_any_trigger::<B>(by) && self.near_triggers_remove_royal::<B>(by, victim)
    }

    /// [`Position::triggers_near`] once a piece of `by` stands near some trigger's zone.
    fn near_triggers_remove_royal<B: Bitboard>(&self, by: usize, victim: usize) -> bool {
        let rules = self.rules;
        let present = self.kinds_on_board::<B>(victim);
        (rules.turns.triggers.iter().enumerate()).any(|(index, trigger)| {
            self.near_trigger::<B>(index, by, rules.pieces.all()).any()
                && trigger
                    .enemy_removal()
                    .is_some_and(|g| self.group_may_hold_royal::<B>(g, present, victim, by))
        })
    }

    /// Whether some piece of `by` stands where it might enter some trigger's zone in one move:
    /// most of the time none does, and no trigger need be looked at.
    #[inline(always)]
    fn near_any_trigger<B: Bitboard>(&self, by: usize) -> bool {
        let rules = self.rules;
        let (triggers, players) = (rules.turns.triggers.len(), rules.players.count());
        triggers > 0
            && (rules.bits.approach_any::<B>(triggers, players, by) & self.player_set::<B>(by))
                .any()
    }

    /// The pieces of `by` of `kinds` that could enter trigger `index`'s zone from outside it
    /// in one move and set it off.
    #[inline]
    fn near_trigger<B: Bitboard>(&self, index: usize, by: usize, kinds: u64) -> B {
        let rules = self.rules;
        let approach = rules.bits.approach::<B>(index, rules.players.count(), by);
        let near = approach & self.player_set::<B>(by);
        match near.any() {
            true => near & self.kinds_set::<B>(by, rules.turns.triggers[index].pieces & kinds),
            false => B::NONE,
        }
    }

    /// Whether being put in check may change `by`'s next turn of `plans`: a step of theirs
    /// depends on a counter that counts checks, and is not a placement of pieces they do not
    /// hold.
    pub(super) fn check_shapes_turn(&self, by: usize, plans: &[Plan]) -> bool {
        (plans.iter()).any(|plan| plan.steps.iter().any(|step| self.opened_by_check(step, by)))
    }

    /// Whether being put in check may open `step` to `by`: it depends on a counter that
    /// counts checks, and is not a placement of pieces they do not hold.
    fn opened_by_check(&self, step: &Step, by: usize) -> bool {
        let counters = &self.rules.turns.counters;
        step.condition
            .is_some_and(|c| counters[c as usize].counts_checks)
            && !self.nothing_to_drop(step, by)
    }

    /// The squares where being put in check lets `by` place a piece before the move of a
    /// turn of `plans`, whatever stands on them (none where a check changes no turn of
    /// theirs); no answer where a check allows something else.
    fn check_placements<B: Bitboard>(&self, by: usize, plans: &[Plan]) -> Option<B> {
        let mut squares = B::NONE;
        for plan in plans {
            for step in (plan.steps.iter()).filter(|step| self.opened_by_check(step, by)) {
                squares |= match step.action {
                    Action::Drop {
                        zone: Some(DropZone::NextTo(kinds)),
                        ..
                    } => (self.kinds_set::<B>(by, kinds).squares())
                        .fold(B::NONE, |set, sq| set | self.rules.bits.neighbours::<B>(sq)),
                    Action::Drop {
                        zone: Some(DropZone::Fixed(zone)),
                        ..
                    } => self.rules.zones.squares::<B>(zone, by),
                    _ => return None,
                };
            }
        }
        Some(squares)
    }

    /// Whether a piece `by` places on one of `placements` could take part in removing the
    /// royal piece on `royal` with the move that follows: by moving onto it or next to it,
    /// by standing beside it as a partner of a custodian capture (its neighbours are within
    /// that reach too), or by entering a trigger's zone (a placement itself sets none off).
    /// Read where every rule is a step.
    #[inline(always)]
    fn placement_helps<B: Bitboard>(&self, placements: B, royal: Sq, by: usize) -> bool {
        if placements.is_empty() {
            return false;
        }
        let rules = self.rules;
        let (triggers, players) = (rules.turns.triggers.len(), rules.players.count());
        let near = rules.bits.next_to_reach::<B>(royal)
            | match triggers {
                0 => B::NONE,
                _ => rules.bits.approach_any::<B>(triggers, players, by),
            };
        (placements & near).any()
    }

    /// What one turn of `by`'s `plans` may do, as removals read it: the kinds its one move may
    /// move, and a placement it can make now before the move. None where a turn could do
    /// more: a step after the move, two placements, or a placement beside another plan. A
    /// plan without a move (a placement alone, a pass) removes nothing.
    // Asked for every position, of two players: the call and its setup cost as much as
    // the reading.
    #[inline(always)]
    pub(super) fn turn_shape(&self, plans: &'r [Plan], by: usize) -> Option<TurnShape<'r>> {
        let mut shape = TurnShape {
            kinds: 0,
            placement: None,
        };
        for plan in plans {
            let mut placement = None;
            for (index, step) in plan.steps.iter().enumerate() {
                let barred = self.barred(step, by);
                match step.action {
                    Action::Move { pieces } => {
                        if index + 1 != plan.steps.len() {
                            return None;
                        }
                        if !barred {
                            shape.kinds |= pieces;
                        }
                        if placement.is_some() && (plans.len() > 1 || shape.placement.is_some()) {
                            return None;
                        }
                        shape.placement = shape.placement.or(placement);
                    }
                    Action::Drop { .. } if barred || self.nothing_to_drop(step, by) => {
                        if !step.optional {
                            break;
                        }
                    }
                    Action::Drop { .. } if plan.steps.len() == 1 => {}
                    Action::Drop { .. } if placement.is_none() => placement = Some(step),
                    Action::Pass if plan.steps.len() == 1 => {}
                    _ => return None,
                }
            }
        }
        Some(shape)
    }

    /// Whether a move of `mover` takes the royal piece on `royal` by replacement.
    fn replaces<B: Bitboard>(&mut self, royal: Sq, mover: &Mover<B>) -> bool {
        let pieces = self.kinds_set::<B>(mover.player, mover.kinds);
        let attacked = self.attacked_in(royal, mover.player, mover.sides.occupied, pieces);
        match mover.limited {
            false => attacked,
            true => attacked && self.moves_onto(royal, NO_SQUARE, mover),
        }
    }

    /// Whether a move of `mover` lands beside the royal piece on `royal` along a custodian
    /// line with a piece of theirs beyond it, that piece not being the one that moves.
    fn intercepts<B: Bitboard>(&mut self, royal: Sq, mover: &Mover<B>) -> bool {
        if !self.partner_beyond::<B>(royal, mover.player) {
            return false;
        }
        let rules = self.rules;
        let own = self.player_set::<B>(mover.player);
        rules
            .captures
            .custodian_pairs(mover.player)
            .any(|(line, back)| {
                let beyond = rules.geometry.step(line, royal);
                let beside = rules.geometry.step(back, royal);
                beyond != NO_SQUARE
                    && beside != NO_SQUARE
                    && own.has(beyond)
                    && self.moves_onto(beside, beyond, mover)
            })
    }

    /// Whether a move of `mover` into a trigger's zone sets off a removal whose group, judged
    /// after the move's own captures, may take `victim`'s royal piece.
    fn removes_by_trigger<B: Bitboard>(&mut self, victim: usize, mover: &Mover<B>) -> bool {
        let rules = self.rules;
        let by = mover.player;
        if !self.near_any_trigger::<B>(by) {
            return false;
        }
        let present = self.kinds_on_board::<B>(victim);
        for (index, trigger) in rules.turns.triggers.iter().enumerate() {
            let near = self.near_trigger::<B>(index, by, mover.kinds);
            if near.is_empty() {
                continue;
            }
            let Some(groups) = trigger.enemy_removal() else {
                continue;
            };
            if !self.group_may_hold_royal::<B>(groups, present, victim, by) {
                continue;
            }
            let zone = rules.zones.squares::<B>(trigger.zone, by);
            for from in near.squares() {
                let code = self.board[from as usize];
                for rule in &rules.pieces.programs[code as usize] {
                    if !self.rule_applies(rule, by, from) {
                        continue;
                    }
                    for to in (self.landings(rule, from, &mover.sides) & zone).squares() {
                        let step = one_move(code, from, to);
                        if self.entered_trigger(by, &step) == Some(index)
                            && self.may_make(mover, &step)
                            && self.removal_takes_royal::<B>(groups, &step, by, victim)
                        {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether the group a removal of `groups` chooses from may, after some move of `by`,
    /// hold a royal kind, `present` being the kinds `victim` has on the board. Captures only
    /// take kinds away, so the group chosen can only move down the list; it stays where it is
    /// while the victim has more pieces of the kinds that choose it than one move can take.
    fn group_may_hold_royal<B: Bitboard>(
        &self,
        groups: &[(u64, u64)],
        present: u64,
        victim: usize,
        by: usize,
    ) -> bool {
        let Some(first) = groups.iter().position(|(select, _)| present & select != 0) else {
            return false;
        };
        let royal_kinds = self.rules.derived.royal_kinds;
        let holds_royal = |&(_, removable): &(u64, u64)| removable & royal_kinds != 0;
        if holds_royal(&groups[first]) {
            return true;
        }
        let most_taken = 1 + self.rules.captures.custodian.get(by).map_or(0, Vec::len);
        groups[first + 1..].iter().any(holds_royal)
            && self.kinds_set::<B>(victim, groups[first].0).count() as usize <= most_taken
    }

    /// Whether a removal of `groups`, set off by `step` of `by`, may take `victim`'s royal
    /// piece: the move's own captures are made first (a royal piece they take counts too),
    /// then the group is chosen by the kinds left.
    fn removal_takes_royal<B: Bitboard>(
        &mut self,
        groups: &[(u64, u64)],
        step: &Turn,
        by: usize,
        victim: usize,
    ) -> bool {
        let mark = self.mark();
        self.apply(step.main(), by);
        let present = self.kinds_on_board::<B>(victim);
        let taken = !self.has_royal(victim);
        self.rewind(mark);
        let removable = (groups.iter())
            .find(|(select, _)| present & select != 0)
            .map_or(0, |&(_, removable)| removable);
        taken || removable & self.rules.derived.royal_kinds != 0
    }

    /// The kinds `player` has on the board, as a mask.
    fn kinds_on_board<B: Bitboard>(&self, player: usize) -> u64 {
        let pieces = &self.rules.pieces;
        (0..pieces.kinds.len())
            .filter(|&kind| self.code_set::<B>(pieces.code(kind, player)).any())
            .fold(0, |mask, kind| mask | 1 << kind)
    }

    /// Whether some piece of `mover` of the kinds it may move, not on `except`, moves onto
    /// `to` by one of its rules, within the mover's counter limits.
    fn moves_onto<B: Bitboard>(&mut self, to: Sq, except: Sq, mover: &Mover<B>) -> bool {
        if !(mover.sides.empty | mover.sides.enemies).has(to) {
            return false;
        }
        let mut pieces =
            self.kinds_set::<B>(mover.player, mover.kinds) & self.within_reach::<B>(to);
        if except != NO_SQUARE {
            pieces &= !B::bit(except);
        }
        let programs = &self.rules.pieces.programs;
        for from in pieces.squares() {
            let code = self.board[from as usize];
            for rule in &programs[code as usize] {
                if self.rule_applies(rule, mover.player, from)
                    && self.landings(rule, from, &mover.sides).has(to)
                    && self.may_make(mover, &one_move(code, from, to))
                {
                    return true;
                }
            }
        }
        false
    }

    /// The squares from which some rule may reach `sq`: where every rule is a step, those a
    /// few king steps away; else the whole board.
    fn within_reach<B: Bitboard>(&self, sq: Sq) -> B {
        match self.rules.pieces.step_reach {
            Some(_) => self.rules.bits.within_reach::<B>(sq),
            None => !B::NONE,
        }
    }

    /// The squares `rule` lands on from `from`: the empty ones if it moves, the enemy pieces
    /// if it captures.
    pub(super) fn landings<B: Bitboard>(&self, rule: &Gen, from: Sq, sides: &Sides<B>) -> B {
        let (empty, enemies) = self.rule_targets(rule, from, sides);
        let moves = if rule.mode.moves() { empty } else { B::NONE };
        let captures = if rule.mode.captures() {
            enemies
        } else {
            B::NONE
        };
        moves | captures
    }

    /// Whether `mover`'s counter limits let them make `step`.
    fn may_make<B: Bitboard>(&mut self, mover: &Mover<B>, step: &Turn) -> bool {
        !mover.limited || self.within_limits(step, mover.player)
    }
}

/// The turn of one plain move of `code` from `from` to `to`.
fn one_move(code: Code, from: Sq, to: Sq) -> Turn {
    Turn::EMPTY.with(Part {
        kind: PartKind::Move,
        piece: code,
        from,
        to,
    })
}

impl Position<'_> {
    /// Checks every reading of removals against a search of the replies themselves, for each
    /// turn the player to move could make: read without making the turn, proven quiet, and,
    /// the turn made, read with the next player's plans and as one plain move. For the
    /// consistency walk; an error names the first turn where they disagree.
    pub fn check_removal_reading(&mut self) -> Result<(), String> {
        if !self.rules.derived.readable_removals || !self.rules.derived.royal {
            return Ok(());
        }
        at_width!(self.rules, B => self.check_reading_in::<B>())
    }

    fn check_reading_in<B: Bitboard>(&mut self) -> Result<(), String> {
        let player = self.to_move;
        let Some(plans) = self.plans_of(player) else {
            return Ok(());
        };
        let proof = self.quiet_proof::<B>(player);
        let mut turns = Vec::new();
        self.pseudo_turns(player, plans, &mut turns);
        for turn in &turns {
            let read = self.survives_replies_read(turn, player);
            let quiet = (proof.as_ref()).and_then(|proof| self.quietly(proof, turn, player));
            self.make_as(turn, player);
            let opponent = self.to_move;
            let (removable, read_made) = match self.plans_of(opponent) {
                Some(replies) => {
                    let mut all = Vec::new();
                    self.pseudo_turns(opponent, replies, &mut all);
                    let removable = all.iter().any(|reply| {
                        self.takes_royal(reply, opponent, player)
                            && self.within_limits(reply, opponent)
                    });
                    (
                        removable,
                        self.removal_by_move(player, opponent, Some(replies)),
                    )
                }
                None => (false, None),
            };
            let threat = !self.threats(player, opponent, 1).is_empty();
            let threat_read = self.removal_by_move(player, opponent, None);
            self.unmake();
            let wrong = |reading: Option<bool>, truth: bool| reading.is_some_and(|r| r != truth);
            let readings = [
                ("read before making it", read, !removable),
                ("proven quiet", quiet, !removable),
                ("read after making it", read_made.map(|r| !r), !removable),
                ("read as a check", threat_read.map(|t| !t), !threat),
            ];
            if let Some((how, ..)) = readings.iter().find(|(_, r, truth)| wrong(*r, *truth)) {
                return Err(format!(
                    "after {turn:?}, the replies {how} disagree with a search of them (the royal piece is {}safe)",
                    if removable { "not " } else { "" }
                ));
            }
        }
        Ok(())
    }
}
