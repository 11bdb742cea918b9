//! Turn programs, run depth first: each step's choices are applied to the position so that the
//! next step sees them, the rest of the plan is generated, and the choices are undone. Only
//! complete turns are kept, then the legality rules filter them.

use super::position::Position;
use super::turn::{Part, PartKind, Turn};
use crate::compile::turns::{Action, ArrowCase, Coinciding, DropZone, Plan, Step, Trigger, tiers};
use crate::compile::{BLOCKED, EMPTY, NO_SQUARE, Sq};
use crate::limits::MAX_TURNS;

/// What a generation asks for: whose turns, which kinds may move, and how many are enough.
#[derive(Clone, Copy, Debug)]
pub(super) struct Request {
    pub player: usize,
    pub movers: u64,
    pub enough: usize,
    /// The length of the journal when the turn began, to see the position as it was then;
    /// set by the generation that runs the steps.
    pub start: usize,
}

impl Request {
    pub(super) fn every_turn(player: usize, rules: &crate::compile::Ruleset) -> Self {
        Request {
            player,
            movers: rules.pieces.all(),
            enough: usize::MAX,
            start: 0,
        }
    }
}

impl<'r> Position<'r> {
    /// Every legal turn of the player to move, into `out` (cleared first): none once the game
    /// has ended. Two ways of making the same change are one turn.
    pub fn legal_turns(&mut self, out: &mut Vec<Turn>) {
        self.generate_legal(out);
        self.clear_if_ended(out);
    }

    /// The legal turns of the player to move that capture, into `out` (cleared first): the
    /// turns of [`Position::legal_turns`] that capture, in the same order. Where every turn is
    /// one move or drop and a capture lands on the piece it takes (or takes en passant), the
    /// moves to empty squares and the drops are never generated.
    pub fn legal_captures(&mut self, out: &mut Vec<Turn>) {
        // A countable ruleset has neither custodian captures nor an end that reads the turns.
        match self.rules.derived.countable && self.ready.is_none() {
            true => {
                self.captures_only = true;
                self.ways(out);
                self.captures_only = false;
                self.clear_if_ended(out);
            }
            false => self.legal_turns(out),
        }
        out.retain(|turn| turn.captures);
    }

    /// Every legal way of making a turn, into `out` (cleared first): where two ways make the
    /// same change to the position (placements followed by the same move), each is listed, so
    /// that each may be read. None once the game has ended.
    pub fn every_way(&mut self, out: &mut Vec<Turn>) {
        self.ways(out);
        self.clear_if_ended(out);
    }

    /// With no turn the game is over anyway; otherwise only some end rules can end it.
    fn clear_if_ended(&mut self, out: &mut Vec<Turn>) {
        if !self.rules.derived.early_ends.is_empty() && !out.is_empty() && self.ends_early(out) {
            out.clear();
        }
    }

    /// Every legal turn of the player to move, whether or not the game has ended.
    pub(super) fn generate_legal(&mut self, out: &mut Vec<Turn>) {
        if let Some((depth, mut ready)) = self.ready.take() {
            let fresh = depth == self.depth();
            if fresh {
                std::mem::swap(out, &mut ready);
            }
            self.scratch.push(ready);
            if fresh {
                return;
            }
        }
        self.ways(out);
        self.merge_if_coinciding(out);
    }

    /// Finishes a list of the legal turns, each one move and what the trigger it sets off
    /// adds, made otherwise than by [`Position::ways`], as [`Position::legal_turns`] does.
    pub(super) fn finish_moves_listed(&mut self, out: &mut Vec<Turn>) {
        // Only a trigger's two steps make such turns coincide.
        if self.rules.derived.triggers_coincide {
            self.merge_if_coinciding(out);
        }
        self.clear_if_ended(out);
    }

    /// Keeps one of each group of `out`'s turns that lead to the same position, where the
    /// rules let two turns do so.
    fn merge_if_coinciding(&mut self, out: &mut Vec<Turn>) {
        // A cut-short list is no answer: it is not worth a make and unmake per turn.
        if self.rules.derived.coinciding != Coinciding::Never && !self.turns_overflowed {
            self.merge_same_results(out);
        }
    }

    /// Every legal way of making a turn, whether or not the game has ended.
    fn ways(&mut self, out: &mut Vec<Turn>) {
        out.clear();
        let player = self.to_move;
        if let Some(plans) = self.plans_of(player) {
            self.generate(Request::every_turn(player, self.rules), plans, out);
        }
    }

    /// The hash of the position a turn of the player to move leads to.
    pub fn result_hash(&mut self, turn: &Turn) -> u64 {
        self.make(turn);
        let hash = self.hash;
        self.unmake();
        hash
    }

    /// Whether `turn` may lead to the same position as another turn made differently: it
    /// places a piece (which another turn may place elsewhere before the same move), or it
    /// changes two squares by choice (two arrows, two removals, in either order).
    pub fn may_coincide(&self, turn: &Turn) -> bool {
        let placing = |kind| matches!(kind, PartKind::Block | PartKind::Remove | PartKind::Unblock);
        match self.rules.derived.coinciding {
            Coinciding::Never => false,
            Coinciding::SeveralParts => {
                let parts = turn.parts();
                parts.iter().any(|p| p.kind == PartKind::Drop)
                    || parts.iter().filter(|p| placing(p.kind)).count() > 1
            }
            Coinciding::Every => true,
        }
    }

    /// Keeps one of each group of turns that lead to the same position.
    fn merge_same_results(&mut self, out: &mut Vec<Turn>) {
        let mut seen = std::collections::HashSet::new();
        out.retain(|turn| !self.may_coincide(turn) || seen.insert(self.result_hash(turn)));
    }

    /// Every turn `player` could make by `plans`, legal or not, into `out` (cleared first).
    pub(super) fn pseudo_turns(&mut self, player: usize, plans: &'r [Plan], out: &mut Vec<Turn>) {
        out.clear();
        let request = Request {
            start: self.journal_len(),
            ..Request::every_turn(player, self.rules)
        };
        for plan in plans {
            self.steps(request, &plan.steps, Turn::EMPTY, out);
        }
    }

    /// The plans of `player`'s next turn in the current phase; none once the last phase ended.
    pub(super) fn plans_of(&self, player: usize) -> Option<&'r [Plan]> {
        let phase = self.current_phase()?;
        Some(phase.plans(self.phase_turns[player].saturating_add(1)))
    }

    /// The legal turns of `plans` for the request, into `out` (cleared first). The count is
    /// cut short only where every turn the plans make is legal.
    pub(super) fn generate(
        &mut self,
        mut request: Request,
        plans: &'r [Plan],
        out: &mut Vec<Turn>,
    ) {
        out.clear();
        request.start = self.journal_len();
        // Royal safety and counter limits may still refuse a turn that was made.
        let derived = &self.rules.derived;
        if derived.royal || derived.counter_limits || derived.standoff_kinds != 0 {
            request.enough = usize::MAX;
        }
        for tier in tiers(plans) {
            for plan in tier {
                self.steps(request, &plan.steps, Turn::EMPTY, out);
            }
            // Judging millions of turns of a cut-short list, each perhaps by every reply, would
            // cost minutes for no answer.
            if self.turns_overflowed {
                return;
            }
            self.keep_lawful(request, out);
            if !out.is_empty() {
                break;
            }
        }
    }

    /// Keeps the turns of `out` that the legality rules allow.
    fn keep_lawful(&mut self, request: Request, out: &mut Vec<Turn>) {
        match self.rules.derived.standoff_kinds != 0 && self.in_standoff(request.player) {
            true => self.keep_standoff_answers(request.player, out),
            false => self.keep_legal(request.player, out),
        }
        if self.rules.turns.forbids.any() {
            out.retain(|turn| self.obeys_forbids(turn, request.player));
        }
        if self.rules.derived.counter_limits && self.limits_may_bite(request.player) {
            out.retain(|turn| self.within_limits(turn, request.player));
        }
        if self.rules.captures.compulsory && out.iter().any(|t| t.captures) {
            out.retain(|t| t.captures);
        }
    }

    /// Extends `partial` by every way of carrying out `steps`, into `out`.
    pub(super) fn steps(
        &mut self,
        request: Request,
        steps: &'r [Step],
        partial: Turn,
        out: &mut Vec<Turn>,
    ) {
        if !self.room_for(request, out) {
            return;
        }
        let Some((step, rest)) = steps.split_first() else {
            out.push(partial);
            return;
        };
        if step.optional {
            self.steps(request, rest, partial, out);
        }
        if step
            .condition
            .is_some_and(|c| self.counter(request.player, c as usize) == 0)
        {
            return;
        }
        let triggers =
            matches!(step.action, Action::Move { .. }) && !self.rules.turns.triggers.is_empty();
        if rest.is_empty() && !triggers {
            self.choices(request, &step.action, partial, out);
            return;
        }
        let mut options = self.scratch.pop().unwrap_or_default();
        options.clear();
        self.choices(request, &step.action, partial, &mut options);
        for option in &options {
            self.carry_on(request, option, partial.len(), triggers, rest, out);
        }
        self.scratch.push(options);
    }

    /// Whether `out` may take another turn; noting, where it is full at [`MAX_TURNS`], that
    /// the turns were cut short.
    fn room_for(&mut self, request: Request, out: &[Turn]) -> bool {
        self.turns_overflowed |= out.len() >= MAX_TURNS;
        out.len() < request.enough.min(MAX_TURNS)
    }

    /// Finishes a turn whose last step chose `option` (its parts from `done` on not yet on
    /// the board): sets off the trigger its move enters, if `triggers` may, then carries out
    /// `rest`.
    pub(super) fn carry_on(
        &mut self,
        request: Request,
        option: &Turn,
        done: usize,
        triggers: bool,
        rest: &'r [Step],
        out: &mut Vec<Turn>,
    ) {
        // Only a move that enters a trigger's zone needs making to finish the turn.
        let enters = triggers && self.entered_trigger(request.player, option).is_some();
        if rest.is_empty() && !enters {
            if self.room_for(request, out) {
                out.push(*option);
            }
            return;
        }
        let mark = self.mark();
        for part in &option.parts()[done..] {
            self.apply(part, request.player);
        }
        match enters.then(|| self.fired(request.player, option)).flatten() {
            Some(trigger) => self.triggered(request, &trigger.plans, rest, *option, out),
            None => self.steps(request, rest, *option, out),
        }
        self.rewind(mark);
    }

    /// The trigger that the turn's last move sets off, the move made: the one it enters (see
    /// [`Position::entered_trigger`]), unless the move removed a royal piece, which ends the
    /// game.
    fn fired(&self, player: usize, turn: &Turn) -> Option<&'r Trigger> {
        let rules = self.rules;
        let index = self.entered_trigger(player, turn)?;
        let royal_lost = rules.derived.royal
            && (0..rules.players.count()).any(|p| self.alive & (1 << p) != 0 && !self.has_royal(p));
        (!royal_lost).then_some(&rules.turns.triggers[index])
    }

    /// The trigger whose zone the turn's last move enters from outside with a piece of its
    /// kinds, the first of them in the file, read from the move alone.
    pub(super) fn entered_trigger(&self, player: usize, turn: &Turn) -> Option<usize> {
        self.entered_by(player, turn.last_move()?)
    }

    /// The trigger whose zone the move `moved` enters from outside with a piece of its kinds.
    pub(super) fn entered_by(&self, player: usize, moved: &Part) -> Option<usize> {
        let rules = self.rules;
        // Most moves land outside every zone: one lookup tells.
        if !rules.bits.in_trigger_zone(player, moved.to) {
            return None;
        }
        let (kind, _) = rules.pieces.split(moved.piece);
        rules.turns.triggers.iter().position(|t| {
            t.pieces & (1 << kind) != 0
                && rules.zones.contains(t.zone, player, moved.to)
                && !rules.zones.contains(t.zone, player, moved.from)
        })
    }

    /// Carries out a trigger's steps after `partial`, then the rest of the turn. Steps with
    /// nothing to act on (no eligible piece to remove) are passed over.
    fn triggered(
        &mut self,
        request: Request,
        plans: &'r [Plan],
        rest: &'r [Step],
        partial: Turn,
        out: &mut Vec<Turn>,
    ) {
        let mut done = self.scratch.pop().unwrap_or_default();
        done.clear();
        let unlimited = Request {
            enough: usize::MAX,
            ..request
        };
        // A plan after `else` is tried only when those before it do nothing.
        for tier in tiers(plans) {
            for plan in tier {
                self.steps(unlimited, &plan.steps, partial, &mut done);
            }
            if !done.is_empty() {
                break;
            }
        }
        if done.is_empty() {
            self.steps(request, rest, partial, out);
        }
        for turn in &done {
            let mark = self.mark();
            for part in &turn.parts()[partial.len()..] {
                self.apply(part, request.player);
            }
            self.steps(request, rest, *turn, out);
            self.rewind(mark);
        }
        self.scratch.push(done);
    }

    /// Each way of carrying out one step after `partial`, into `out`.
    pub(super) fn choices(
        &self,
        request: Request,
        action: &Action,
        partial: Turn,
        out: &mut Vec<Turn>,
    ) {
        let player = request.player;
        match action {
            Action::Move { pieces } => {
                self.piece_moves(player, pieces & request.movers, &partial, out)
            }
            Action::Drop { .. } if self.captures_only => {}
            Action::Drop { pieces, zone } => self.drop_turns(player, *pieces, *zone, partial, out),
            Action::Gate { pieces, zone } => self.gate_turns(request, *pieces, *zone, partial, out),
            Action::Shoot(cases) => self.arrows(player, cases, partial, out),
            Action::Unblock => {
                for sq in 0..self.board.len() as Sq {
                    if self.board[sq as usize] == BLOCKED {
                        out.push(partial.with(on_square(PartKind::Unblock, sq)));
                    }
                }
            }
            Action::Remove { enemy, groups } => self.removals(player, *enemy, groups, partial, out),
            Action::Pie => {
                for swap in [0, 1] {
                    let choice = Part {
                        piece: swap,
                        ..on_square(PartKind::Choice, NO_SQUARE)
                    };
                    out.push(partial.with(choice));
                }
            }
            Action::Pass => out.push(partial.with(on_square(PartKind::Pass, NO_SQUARE))),
        }
    }

    /// Arrows shot by the piece that just moved, by the flights its move's tag selects. The
    /// move is already on the board, so the square it left counts as empty.
    fn arrows(&self, player: usize, cases: &[ArrowCase], partial: Turn, out: &mut Vec<Turn>) {
        self.each_arrow(player, cases, &partial, |from, to| {
            out.push(partial.with(Part {
                kind: PartKind::Block,
                piece: BLOCKED,
                from,
                to,
            }))
        });
    }

    /// Calls `shoot` with the square each arrow of [`Position::arrows`] flies from and lands
    /// on.
    fn each_arrow(
        &self,
        player: usize,
        cases: &[ArrowCase],
        partial: &Turn,
        mut shoot: impl FnMut(Sq, Sq),
    ) {
        let Some(moved) = partial.last_move() else {
            return;
        };
        let from = moved.to;
        let geometry = &self.rules.geometry;
        for case in cases
            .iter()
            .filter(|c| c.tag.is_none_or(|t| t == partial.tag))
        {
            for flight in &case.flights[player] {
                let clear = flight.path.iter().all(|&v| {
                    let s = geometry.step(v, from);
                    s != NO_SQUARE && self.board[s as usize] == EMPTY
                });
                if !clear {
                    continue;
                }
                let mut to = from;
                for _ in 0..flight.range {
                    to = geometry.step(flight.vector, to);
                    if to == NO_SQUARE || self.board[to as usize] != EMPTY {
                        break;
                    }
                    shoot(from, to);
                }
            }
        }
    }

    /// How many turns the player to move has, where every turn the plans make is legal and
    /// none is another's twin (see `Derived::ways_countable`): the last step of each is
    /// counted, not built.
    pub(super) fn count_ways(&mut self) -> u64 {
        let player = self.to_move;
        let Some(plans) = self.plans_of(player) else {
            return 0;
        };
        let request = Request {
            start: self.journal_len(),
            ..Request::every_turn(player, self.rules)
        };
        for tier in tiers(plans) {
            let ways: u64 = (tier.map(|plan| plan.steps.as_slice()).collect::<Vec<_>>())
                .into_iter()
                .map(|steps| self.count_steps(request, steps, Turn::EMPTY))
                .sum();
            if ways > 0 {
                return ways;
            }
        }
        0
    }

    /// How many ways `steps` can be carried out after `partial`, as [`Position::steps`] would
    /// list them.
    fn count_steps(&mut self, request: Request, steps: &'r [Step], partial: Turn) -> u64 {
        let Some((step, rest)) = steps.split_first() else {
            return 1;
        };
        let mut ways = match step.optional {
            true => self.count_steps(request, rest, partial),
            false => 0,
        };
        if step
            .condition
            .is_some_and(|c| self.counter(request.player, c as usize) == 0)
        {
            return ways;
        }
        match step.action {
            Action::Shoot(ref cases) if rest.is_empty() => {
                self.each_arrow(request.player, cases, &partial, |_, _| ways += 1);
                return ways;
            }
            // A drop that begins the turn, onto fixed squares, is counted as the count of a
            // turn of drops alone is.
            Action::Drop { pieces, zone } if rest.is_empty() && partial.is_empty() => {
                let fixed = match zone {
                    Some(DropZone::Fixed(zone)) => Some(Some(zone)),
                    Some(DropZone::NextTo(_)) => None,
                    None => Some(None),
                };
                if let Some(zone) = fixed {
                    return ways + self.count_free_drops(request.player, pieces, zone);
                }
            }
            _ => {}
        }
        let mut options = self.scratch.pop().unwrap_or_default();
        options.clear();
        self.choices(request, &step.action, partial, &mut options);
        if rest.is_empty() {
            ways += options.len() as u64;
        }
        for option in options.iter().filter(|_| !rest.is_empty()) {
            let mark = self.mark();
            for part in &option.parts()[partial.len()..] {
                self.apply(part, request.player);
            }
            ways += self.count_steps(request, rest, *option);
            self.rewind(mark);
        }
        self.scratch.push(options);
        ways
    }

    /// Removals of one piece of the player's own side or of an enemy, from the first group
    /// whose selecting kinds that side has on the board.
    fn removals(
        &self,
        player: usize,
        enemy: bool,
        groups: &[(u64, u64)],
        partial: Turn,
        out: &mut Vec<Turn>,
    ) {
        let on_side = |sq: usize| {
            self.piece(self.board[sq])
                .filter(|&(_, owner)| (owner == player) != enemy)
                .map(|(kind, _)| kind)
        };
        let present = (0..self.board.len())
            .filter_map(on_side)
            .fold(0u64, |m, kind| m | 1 << kind);
        let Some(&(_, removable)) = groups.iter().find(|(select, _)| present & select != 0) else {
            return;
        };
        for sq in 0..self.board.len() {
            if on_side(sq).is_some_and(|kind| removable & (1 << kind) != 0) {
                let mut turn = partial.with(on_square(PartKind::Remove, sq as Sq));
                turn.captures |= enemy;
                out.push(turn);
            }
        }
    }
}

/// A part that acts on one square (or none).
fn on_square(kind: PartKind, sq: Sq) -> Part {
    Part {
        kind,
        piece: EMPTY,
        from: sq,
        to: sq,
    }
}
