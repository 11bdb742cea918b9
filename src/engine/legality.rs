//! Legality: which of the turns a program makes leave the mover's royal pieces safe, by the
//! strategy the ruleset chose once (none needed, pins, or make and test), and the drop limits
//! that depend on the position a drop leaves.

use super::pins::Pins;
use super::position::Position;
use super::steps::Request;
use super::turn::{Part, PartKind, Turn};
use crate::bitboard::Bitboard;
use crate::compile::turns::{Plan, Step};
use crate::compile::{Code, Legality, NO_SQUARE, Sq};

/// What proves one player's turns legal in a position (see [`Position::guard`]).
pub(super) struct Guard<B> {
    /// The player's royal pieces.
    pub royals: B,
    /// The player's one royal piece, or [`NO_SQUARE`] if it has none or several.
    pub royal: Sq,
    /// No royal piece is attacked and attacks are plain: a move of another piece is safe
    /// unless it breaks a pin or promotes to a royal kind, and a plain drop is safe.
    pub quiet: bool,
    /// The pins against every royal piece, found when quiet and not too many to hold (see
    /// [`Guard::pins`]).
    pin_list: Pins<B>,
    /// Without pins, the squares where a piece leaving or arriving might expose the royal
    /// piece (the lines and lame paths of the attacks on it), when it is single and not
    /// attacked; a move that touches none of them is safe.
    pub exposed: Option<B>,
    /// Without pins, where the single royal piece is attacked: the squares on which a piece
    /// arriving or leaving might lift the attack (the exposed squares, and the attacker's
    /// pieces, which it may take). A plain move or drop of another piece that touches none
    /// of them leaves the royal piece attacked.
    pub evasions: Option<B>,
}

impl<B: Bitboard> Guard<B> {
    /// The pins against every royal piece, when quiet and not too many to hold.
    #[inline(always)]
    pub fn pins(&self) -> Option<&Pins<B>> {
        self.pin_list.found()
    }

    /// Whether `part`, a plain move or drop of a piece that is not royal, is known to leave
    /// the attacked royal piece attacked: it lands on and leaves none of the squares that
    /// could lift the attack.
    fn cannot_evade(&self, part: &Part) -> bool {
        self.evasions.is_some_and(|evasions| {
            !evasions.has(part.to) && (part.kind == PartKind::Drop || !evasions.has(part.from))
        })
    }
}

impl<'r> Position<'r> {
    /// Removes from `out` the turns of `player` that leave a royal piece capturable. When the
    /// royal piece is not attacked, a plain move of another piece is proven legal by the pins
    /// alone; the other turns are tested on bitboards, made only when that cannot follow them.
    pub(super) fn keep_legal(&mut self, player: usize, out: &mut Vec<Turn>) {
        match self.rules.derived.legality {
            Legality::Free => {}
            // Each turn may cost a search of the replies: a caller's deadline is kept here.
            Legality::Reply => at_width!(self.rules, B => self.keep_surviving::<B>(player, out)),
            Legality::Pins | Legality::MakeAndTest => {
                at_width!(self.rules, B => self.keep_safe::<B>(player, out))
            }
        }
    }

    /// Keeps the turns of `player` after which no reply removes a royal piece: quiet turns by
    /// the proof where the board allows one, the others by reading or searching the replies.
    fn keep_surviving<B: Bitboard>(&mut self, player: usize, out: &mut Vec<Turn>) {
        let proof = self.quiet_proof::<B>(player);
        out.retain(|turn| {
            // Each turn may cost a search of the replies: a caller's deadline is kept here.
            !self.past_deadline()
                && proof
                    .as_ref()
                    .and_then(|proof| self.quietly(proof, turn, player))
                    .unwrap_or_else(|| self.survives_replies(turn, player))
        });
    }

    fn keep_safe<B: Bitboard>(&mut self, player: usize, out: &mut Vec<Turn>) {
        let guard = self.generation_guard::<B>(player);
        let gates = self.rules.derived.gates;
        out.retain(|turn| {
            // A piece let in through a gate does not shield: the move must be safe alone.
            let bare;
            let judged = match gates {
                true => {
                    bare = turn.without(PartKind::Gate);
                    &bare
                }
                false => turn,
            };
            self.is_safe(judged, player, &guard)
        });
    }

    /// The guard generation judges `player`'s turns by: where a turn cannot be followed on
    /// bitboards, each would be made, and the exposed squares prove most moves legal without
    /// that.
    fn generation_guard<B: Bitboard>(&self, player: usize) -> Guard<B> {
        let mut guard = self.guard::<B>(player);
        let derived = &self.rules.derived;
        // In check, where pins would prove moves legal: the evasions spare making most turns.
        let checked = derived.legality == Legality::Pins && !guard.quiet;
        if (derived.board_read_attacks || !self.rules.captures.custodian.is_empty() || checked)
            && !derived.captures_lose_own
        {
            self.expose(&mut guard, player);
        }
        guard
    }

    /// Checks the proofs generation judges turns by (pins, exposed squares) against judging
    /// each turn the player to move could make by following or making it. For the
    /// consistency walk; an error names the first turn where they disagree.
    pub fn check_legality_proofs(&mut self) -> Result<(), String> {
        let legality = self.rules.derived.legality;
        if !matches!(legality, Legality::Pins | Legality::MakeAndTest) {
            return Ok(());
        }
        let player = self.to_move;
        let Some(plans) = self.plans_of(player) else {
            return Ok(());
        };
        let mut turns = Vec::new();
        self.pseudo_turns(player, plans, &mut turns);
        at_width!(self.rules, B => {
            let guard = self.generation_guard::<B>(player);
            for turn in &turns {
                let judged = turn.without(PartKind::Gate);
                if self.is_safe(&judged, player, &guard) != self.is_legal(&judged, player) {
                    return Err(format!("the proofs misjudge {turn:?}"));
                }
            }
        });
        Ok(())
    }

    /// What proves `player`'s turns legal in this position: the royal pieces, and when none
    /// is attacked, their pins.
    pub(super) fn guard<B: Bitboard>(&self, player: usize) -> Guard<B> {
        let attacker = self.next_player(player);
        let royals = self.royal_set::<B>(player);
        let royal = single(royals);
        // Royal pieces that stand together are not pinned one by one.
        let apart = !self.rules.pieces.royals_together || royals.count() == 1;
        let quiet = self.rules.derived.legality == Legality::Pins
            && royals.any()
            && apart
            && (self.royal_known_safe(player)
                || !royals.squares().any(|sq| self.attacked(sq, attacker)));
        // Made in place, field by field: the pins are many words, and a guard is made on
        // every count.
        Guard {
            royals,
            royal,
            quiet,
            pin_list: match quiet {
                true if self.royal_pins_kept && self.royal_known_safe(player) => self.memo_pins(),
                true => self.pins(royals, player, attacker),
                false => Pins::unfound(),
            },
            exposed: None,
            evasions: None,
        }
    }

    /// Whether `player`, to move, has a royal piece the turn that led here proved unattacked
    /// (see [`Position::spared_after`]).
    #[inline]
    fn royal_known_safe(&self, player: usize) -> bool {
        player == self.to_move && self.safe_royal_at == Some((self.hash, self.depth()))
    }

    /// Whether `turn` leaves `player`'s royal pieces safe: a plain move of a piece that neither
    /// is nor becomes royal by the pins, a drop of a plain piece when not in check, any other
    /// turn by following it on bitboards or making it.
    pub(super) fn is_safe<B: Bitboard>(
        &mut self,
        turn: &Turn,
        player: usize,
        guard: &Guard<B>,
    ) -> bool {
        let main = turn.main();
        let single = turn.len() == 1;
        match main.kind {
            PartKind::Move | PartKind::Promote
                if single && !guard.royals.has(main.from) && !self.crowned(main) =>
            {
                match (guard.pins(), guard.exposed) {
                    (Some(pins), _) => pins.allows(main.from, main.to, &self.rules.bits),
                    // Not in check, a move that neither leaves nor enters a square on the
                    // lines and paths of the attacks on the royal piece, and takes no piece
                    // besides the one it lands on, changes no attack on it.
                    (None, Some(exposed))
                        if !exposed.has(main.from)
                            && !exposed.has(main.to)
                            && (self.rules.captures.custodian.is_empty() || !turn.captures) =>
                    {
                        true
                    }
                    (None, _) if guard.cannot_evade(main) => false,
                    (None, _) => self.is_legal(turn, player),
                }
            }
            // A drop only adds a piece, so it cannot expose the royal piece.
            PartKind::Drop if single && self.plain_drop(main.piece) => {
                guard.quiet || (!guard.cannot_evade(main) && self.is_legal(turn, player))
            }
            _ => self.is_legal(turn, player),
        }
    }

    /// Adds to `guard`, where no pins prove moves legal and the royal piece is single, the
    /// squares where a piece, leaving or arriving, might expose it (when it is not attacked)
    /// or lift the attack on it (when it is).
    pub(super) fn expose<B: Bitboard>(&self, guard: &mut Guard<B>, player: usize) {
        let tested = self.rules.derived.legality != Legality::Free && guard.pins().is_none();
        let attacker = self.next_player(player);
        if !tested || guard.royal == NO_SQUARE {
            return;
        }
        let exposure = self.exposure::<B>(guard.royal, attacker);
        match self.attacked(guard.royal, attacker) {
            false => guard.exposed = Some(exposure),
            // A capture that takes more than the piece it lands on could take an attacker
            // anywhere.
            true if self.rules.captures.explosion.is_none()
                && self.rules.captures.custodian.is_empty() =>
            {
                guard.evasions = Some(exposure | self.player_set::<B>(attacker));
            }
            true => {}
        }
    }

    /// Whether a piece of `code` may promote to a kind whose royalty differs from its own.
    pub(super) fn crowns(&self, code: Code) -> bool {
        let pieces = &self.rules.pieces;
        pieces.changes_royalty(pieces.split(code).0)
    }

    /// Whether `part` promotes a piece to a royal kind.
    fn crowned(&self, part: &Part) -> bool {
        self.rules.derived.royalty_changes
            && part.kind == PartKind::Promote
            && self.is_royal(part.piece)
    }

    /// Whether a drop of `code` is legal whenever it leaves the royal piece safe: it is not
    /// royal, and no rule forbids it to mate.
    pub(super) fn plain_drop(&self, code: Code) -> bool {
        let pieces = &self.rules.pieces;
        !pieces.kinds[pieces.split(code).0].royal && !pieces.drop_limits(code).no_mate
    }

    /// Whether, after `turn`, no turn the next player could make removes a royal piece of
    /// `player`. Their turns are judged without regard to their own royal piece: a turn that
    /// removes a royal piece ends the game before anything else matters.
    pub(super) fn survives_replies(&mut self, turn: &Turn, player: usize) -> bool {
        if let Some(safe) = self.survives_replies_read(turn, player) {
            return safe;
        }
        self.make_as(turn, player);
        let opponent = self.to_move;
        // Where the replies could be read, they were read before making the turn.
        let safe = match self.plans_of(opponent) {
            Some(plans) if self.may_remove_royal(player, opponent, Some(plans)) => {
                !self.some_reply_removes_royal(opponent, plans, player)
            }
            _ => true,
        };
        self.unmake();
        safe
    }

    /// As [`Position::survives_replies`], read from the target sets where the rules allow
    /// (see [`Position::removal_by_move`]): only the turn's parts are applied, and the next
    /// player's counters worked out as the turn would leave them.
    pub(super) fn survives_replies_read(&mut self, turn: &Turn, player: usize) -> Option<bool> {
        if !self.rules.derived.readable_removals {
            return None;
        }
        let opponent = self.next_player(player);
        let plans = self.plans_of(opponent)?;
        let mark = self.mark();
        self.apply_parts(turn, player);
        // Of the next player's counters, the turn can change only those that count losses or
        // checks; those matter only through a loss, or a check that shapes their turn.
        if !self.rules.turns.counters.is_empty()
            && (self.took_any() || self.check_shapes_turn(opponent, plans))
        {
            self.count_turn_for(turn, player, opponent);
        }
        let removes = self.removal_by_move(player, opponent, Some(plans));
        self.rewind(mark);
        removes.map(|removes| !removes)
    }

    /// Whether some turn `by` could make by `plans` removes a royal piece of `victim`. Where
    /// no counter limits a turn and no trigger adds steps, the turns are searched step by
    /// step, stopping at the first that removes one, and a turn's later steps are only checked
    /// to be possible (an arrow after the capturing move, say): they cannot bring the piece
    /// back. Otherwise every reply is built and tested.
    fn some_reply_removes_royal(&mut self, by: usize, plans: &'r [Plan], victim: usize) -> bool {
        if !self.rules.derived.counter_limits && self.rules.turns.triggers.is_empty() {
            let request = Request {
                start: self.journal_len(),
                ..Request::every_turn(by, self.rules)
            };
            return (plans.iter())
                .any(|plan| self.steps_remove_royal(request, &plan.steps, Turn::EMPTY, victim));
        }
        let mut replies = self.scratch.pop().unwrap_or_default();
        self.pseudo_turns(by, plans, &mut replies);
        let found = replies
            .iter()
            .any(|reply| self.removes_royal(reply, by, victim));
        self.scratch.push(replies);
        found
    }

    /// Whether some way of carrying out `steps` after `partial` (already on the board) removes
    /// every royal piece of `victim` and can be completed.
    fn steps_remove_royal(
        &mut self,
        request: Request,
        steps: &'r [Step],
        partial: Turn,
        victim: usize,
    ) -> bool {
        // Once only steps that take nothing are left, nothing will.
        let Some((step, rest)) = steps
            .split_first()
            .filter(|_| !steps.iter().all(Step::takes_nothing))
        else {
            return false;
        };
        if step.optional && self.steps_remove_royal(request, rest, partial, victim) {
            return true;
        }
        if (step.condition).is_some_and(|c| self.counter(request.player, c as usize) == 0) {
            return false;
        }
        let mut options = self.scratch.pop().unwrap_or_default();
        options.clear();
        self.choices(request, &step.action, partial, &mut options);
        let mut found = false;
        for option in &options {
            let mark = self.mark();
            for part in &option.parts()[partial.len()..] {
                self.apply(part, request.player);
            }
            found = match self.has_royal(victim) {
                true => self.steps_remove_royal(request, rest, *option, victim),
                false => self.can_complete(request, rest, *option),
            };
            self.rewind(mark);
            if found {
                break;
            }
        }
        self.scratch.push(options);
        found
    }

    /// Whether `steps` can be carried out after `partial` (already on the board).
    fn can_complete(&mut self, request: Request, steps: &'r [Step], partial: Turn) -> bool {
        let mut done = self.scratch.pop().unwrap_or_default();
        done.clear();
        let first = Request {
            enough: 1,
            ..request
        };
        self.steps(first, steps, partial, &mut done);
        let complete = !done.is_empty();
        self.scratch.push(done);
        complete
    }

    /// Whether `by` making `reply` removes a royal piece of `victim`, the reply being a turn
    /// `by` may make (within the limits of their counters).
    fn removes_royal(&mut self, reply: &Turn, by: usize, victim: usize) -> bool {
        self.takes_royal(reply, by, victim)
            && (!self.rules.derived.counter_limits || self.within_limits(reply, by))
    }

    /// Whether the parts of `reply`, made by `by`, take `victim`'s last royal piece off the
    /// board (by any capture: replacement, custodian, a trigger's removal).
    pub(super) fn takes_royal(&mut self, reply: &Turn, by: usize, victim: usize) -> bool {
        let mark = self.mark();
        for part in reply.parts() {
            self.apply(part, by);
        }
        let taken = !self.has_royal(victim);
        self.rewind(mark);
        taken
    }

    /// Royal safety, and the drop limits that depend on the resulting position.
    pub(super) fn is_legal(&mut self, turn: &Turn, mover: usize) -> bool {
        let plain = turn.main().kind != PartKind::Drop || self.plain_drop(turn.main().piece);
        if plain && let Some(safe) = at_width!(self.rules, B => self.safe_after::<B>(turn, mover)) {
            return safe;
        }
        self.make_as(turn, mover);
        let mut legal = match self.rules.derived.captures_lose_own {
            true => self.survives_own_capture(mover),
            false => !self.royal_in_danger(mover),
        };
        if legal && turn.main().kind == PartKind::Drop {
            legal = !self.drop_mates(turn);
        }
        self.unmake();
        legal
    }

    /// Whether `mover`'s royal pieces would be safe from the next player after `turn`, worked
    /// out on bitboards without making it; `None` for a turn whose effects they do not follow
    /// (custodian captures, the pie choice, a move onto a square the turn already changed).
    fn safe_after<B: Bitboard>(&self, turn: &Turn, mover: usize) -> Option<bool> {
        let rules = self.rules;
        if !rules.captures.custodian.is_empty()
            || rules.derived.captures_lose_own
            || rules.derived.board_read_attacks
        {
            return None;
        }
        let mut occupied = self.occupied::<B>();
        let mut standing = !B::NONE;
        let mut royals = self.royal_set::<B>(mover);
        let mut touched = B::NONE;
        for part in turn.parts() {
            let (from, to) = (part.from, part.to);
            match part.kind {
                PartKind::Move | PartKind::Promote | PartKind::Partner => {
                    if occupied.has(to) {
                        let enemy = self
                            .piece(self.board[to as usize])
                            .is_some_and(|(_, p)| p != mover);
                        if !enemy || touched.has(to) {
                            return None;
                        }
                        standing &= !B::bit(to);
                    }
                    occupied = (occupied & !B::bit(from)) | B::bit(to);
                    royals &= !B::bit(from);
                    if self.is_royal(part.piece) {
                        royals |= B::bit(to);
                    }
                    touched |= B::bit(from) | B::bit(to);
                }
                PartKind::Drop | PartKind::Gate => {
                    if occupied.has(to) {
                        return None;
                    }
                    occupied |= B::bit(to);
                    if self.is_royal(part.piece) {
                        royals |= B::bit(to);
                    }
                    touched |= B::bit(to);
                }
                PartKind::Take | PartKind::Remove => {
                    occupied &= !B::bit(from);
                    standing &= !B::bit(from);
                    royals &= !B::bit(from);
                    touched |= B::bit(from);
                }
                PartKind::Block => occupied |= B::bit(to),
                PartKind::Unblock => occupied &= !B::bit(to),
                PartKind::Pass => {}
                PartKind::Choice => return None,
            }
        }
        let attacker = self.next_player(mover);
        Some(!self.endangered(royals, |sq| {
            self.attacked_in(sq, attacker, occupied, standing)
        }))
    }

    /// Whether `turn` of `mover` obeys the file's `forbid` rules: it gives no check where
    /// that is forbidden, and in check it moves the royal piece only to take the checker
    /// where fleeing is forbidden.
    pub(super) fn obeys_forbids(&mut self, turn: &Turn, mover: usize) -> bool {
        let forbids = self.rules.turns.forbids;
        if forbids.royal_flight
            && !at_width!(self.rules, B => self.flight_allowed::<B>(turn, mover))
        {
            return false;
        }
        let watched = forbids.check
            || (forbids.check_by_drop && turn.main().kind == PartKind::Drop)
            || (forbids.check_by_promotion
                && turn.parts().iter().any(|p| p.kind == PartKind::Promote));
        !watched || !self.gives_check(turn, mover)
    }

    /// Whether `turn` leaves another player's royal piece attacked by `mover`.
    fn gives_check(&mut self, turn: &Turn, mover: usize) -> bool {
        self.make_as(turn, mover);
        let checks = (self.players_still_in())
            .filter(|&p| p != mover)
            .any(|p| self.royal_attacked_by(p, mover));
        self.unmake();
        checks
    }

    /// Whether `turn` is allowed where a royal piece in check may not flee: a turn that does
    /// not move a royal piece, or one made out of check, or the capture of the one checker.
    pub(super) fn flight_allowed<B: Bitboard>(&self, turn: &Turn, mover: usize) -> bool {
        let main = turn.main();
        let moves_royal = matches!(main.kind, PartKind::Move | PartKind::Promote)
            && self.royal_set::<B>(mover).has(main.from);
        if !moves_royal || !self.royal_in_danger(mover) {
            return true;
        }
        let attacker = self.next_player(mover);
        let without_target = !B::bit(main.to);
        turn.captures
            && !self.attacked_in(main.from, attacker, self.occupied::<B>(), without_target)
    }

    /// Whether `code` is a royal piece.
    #[inline]
    fn is_royal(&self, code: Code) -> bool {
        self.piece(code)
            .is_some_and(|(kind, _)| self.rules.pieces.kinds[kind].royal)
    }

    /// Whether `player`'s royal piece can be captured by the player who moves after it.
    pub fn royal_in_danger(&self, player: usize) -> bool {
        self.royal_attacked_by(player, self.next_player(player))
    }

    /// Whether `by` attacks `player`'s royal pieces (see [`Position::endangered`]). Where
    /// captures explode, a royal piece next to one of `by`'s is not attacked: taking it would
    /// blow up their own.
    pub(super) fn royal_attacked_by(&self, player: usize, by: usize) -> bool {
        at_width!(self.rules, B => {
            let royals = self.royal_set::<B>(player);
            match self.rules.captures.explosion {
                Some(_) => self.endangered(royals, |sq| self.attacked_unguarded::<B>(sq, by)),
                None => self.endangered(royals, |sq| self.attacked(sq, by)),
            }
        })
    }

    /// Where captures explode: whether `by` attacks `sq` and has no royal piece next to it
    /// that a capture on `sq` would blow up (one of a spared or immune kind would stay).
    pub(super) fn attacked_unguarded<B: Bitboard>(&self, sq: Sq, by: usize) -> bool {
        let rules = self.rules;
        let vulnerable = (rules.captures.explosion)
            .map_or(0, |e| rules.derived.royal_kinds & !(e.spared | e.immune));
        let beside = rules.bits.neighbours::<B>(sq) & self.kinds_set::<B>(by, vulnerable);
        !beside.any() && self.attacked(sq, by)
    }

    /// Where a capture may cost the mover their own royal piece, whether a turn of `mover`,
    /// just made, is legal: it keeps a royal piece of theirs, and either took the next
    /// player's last one or leaves theirs unattacked.
    fn survives_own_capture(&self, mover: usize) -> bool {
        let next = self.next_player(mover);
        self.has_royal(mover) && (!self.has_royal(next) || !self.royal_in_danger(mover))
    }

    /// Whether the royal pieces on `royals` are in danger, given which squares are attacked:
    /// when any is attacked, or, where royal pieces stand together, when all are.
    pub(super) fn endangered<B: Bitboard>(
        &self,
        royals: B,
        attacked: impl FnMut(Sq) -> bool,
    ) -> bool {
        match self.rules.pieces.royals_together {
            true => royals.any() && royals.squares().all(attacked),
            false => royals.squares().any(attacked),
        }
    }

    /// The squares of `player`'s royal pieces.
    #[inline(always)]
    pub(super) fn royal_set<B: Bitboard>(&self, player: usize) -> B {
        match self.rules.derived.royal_kinds {
            0 => B::NONE,
            kinds => self.kinds_set(player, kinds),
        }
    }

    /// Whether `player` has a royal piece on the board.
    pub fn has_royal(&self, player: usize) -> bool {
        at_width!(self.rules, B => self.royal_set::<B>(player).any())
    }

    /// The square of `player`'s one royal piece, or none if it has none or several.
    pub(super) fn single_royal<B: Bitboard>(&self, player: usize) -> Sq {
        single(self.royal_set::<B>(player))
    }

    /// Keeps the square open to en passant only if the player to move can take there legally:
    /// a right that cannot be used does not make a position different. The legal turns found
    /// serve the turn's first generation.
    pub(super) fn confirm_en_passant(&mut self) {
        if self.ep == NO_SQUARE {
            return;
        }
        let mut turns = self.scratch.pop().unwrap_or_default();
        self.generate_legal(&mut turns);
        let victim = self.ep_victim;
        let usable = turns.iter().any(|turn| {
            turn.parts()
                .iter()
                .any(|p| p.kind == PartKind::Take && p.from == victim)
        });
        if !usable {
            self.close_en_passant();
        }
        self.ready = Some((self.depth(), turns));
    }

    /// Whether the player to move is in check.
    pub fn in_check(&self) -> bool {
        self.royal_in_danger(self.to_move)
    }

    /// A drop of a `no-mate` piece that leaves the opponent without a legal turn while in
    /// check. Called with the drop made.
    fn drop_mates(&mut self, turn: &Turn) -> bool {
        if !self.rules.pieces.drop_limits(turn.main().piece).no_mate || !self.in_check() {
            return false;
        }
        let mut replies = Vec::new();
        self.generate_legal(&mut replies);
        replies.is_empty()
    }
}

/// The one square of `royals`, or [`NO_SQUARE`] if it has none or several.
fn single<B: Bitboard>(royals: B) -> Sq {
    match royals.count() {
        1 => royals.lowest(),
        _ => NO_SQUARE,
    }
}
