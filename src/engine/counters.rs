//! Counters at run time: the events of a turn, judged for every player once the turn's parts
//! are made, and the limits that make a turn illegal.

use super::position::Position;
use super::turn::Turn;
use crate::compile::Sq;
use crate::compile::counters::{Action, Event};
use crate::geometry::Heading;
use crate::limits::MAX_PLAYERS;

impl<'r> Position<'r> {
    pub fn counter(&self, player: usize, counter: usize) -> u16 {
        self.counters[player * self.rules.turns.counters.len() + counter]
    }

    /// Applies, for each player and counter, the first rule whose event this turn of `mover`
    /// brought about. `lost` holds the kinds each player lost during the turn.
    pub(super) fn count_events(&mut self, turn: &Turn, mover: usize, lost: &[u64]) {
        let turn_events = self.turn_events(turn, mover, lost);
        let alive = self.alive;
        for player in (0..self.rules.players.count()).filter(|&p| alive & (1 << p) != 0) {
            self.count_events_of(player, &turn_events);
        }
    }

    /// Applies the events of a turn of `mover` to `player`'s counters alone: what another
    /// player's reply to the turn depends on.
    pub(super) fn count_events_for(
        &mut self,
        turn: &Turn,
        mover: usize,
        lost: &[u64],
        player: usize,
    ) {
        let turn_events = self.turn_events(turn, mover, lost);
        self.count_events_of(player, &turn_events);
    }

    fn turn_events<'a>(&self, turn: &Turn, mover: usize, lost: &'a [u64]) -> TurnEvents<'a> {
        let headings = &self.rules.turns.headings;
        TurnEvents {
            mover,
            moved: (turn.last_move())
                .and_then(|m| headings.of(mover, self.displacement(m.from, m.to))),
            lost,
        }
    }

    // Inlined into the loop over the players: it is asked of each on every turn made.
    #[inline]
    fn count_events_of(&mut self, player: usize, turn_events: &TurnEvents<'_>) {
        let role_rules = &self.rules.turns.role_rules;
        let rules = match player == turn_events.mover {
            true => &role_rules.for_mover,
            false => &role_rules.for_others,
        };
        let mut checked = None;
        let mut next = 0;
        // The first rule of a counter whose event happened changes it; the counter's later
        // rules are passed over.
        while let Some(rule) = rules.get(next) {
            if !self.happened(rule.event, player, turn_events, &mut checked) {
                next += 1;
                continue;
            }
            let index = rule.counter as usize;
            let value = self.counter(player, index);
            let counted = rule.action.apply(value);
            if counted != value {
                self.set_counter(player, index, counted);
            }
            next = rule.next_counter as usize;
        }
    }

    /// The value a counter, now at `value` for `player`, takes after a turn: changed by the
    /// first of `rules` (those of the player's role in the turn) whose event it brought about.
    #[inline]
    fn counted(
        &mut self,
        rules: &[(Event, Action)],
        value: u16,
        player: usize,
        turn: &TurnEvents<'_>,
        checked: &mut Option<bool>,
    ) -> u16 {
        let action = rules.iter().find_map(|&(event, action)| {
            self.happened(event, player, turn, checked)
                .then_some(action)
        });
        action.map_or(value, |a| a.apply(value))
    }

    /// Whether a turn brought `event`, one that may happen to `player` in their role in it,
    /// about for them; whether the player is checked is worked out once, when first asked.
    #[inline]
    fn happened(
        &mut self,
        event: Event,
        player: usize,
        turn: &TurnEvents<'_>,
        checked: &mut Option<bool>,
    ) -> bool {
        match event {
            Event::Move(directions) => turn.moved.is_some_and(|h| directions.admits(h)),
            Event::Lost(kinds) => turn.lost[player] & kinds != 0,
            Event::Checked => *checked.get_or_insert_with(|| self.threatened(player, turn.mover)),
            Event::TurnEnd => true,
        }
    }

    /// The board displacement of a move from `from` to `to`.
    fn displacement(&self, from: Sq, to: Sq) -> (i32, i32) {
        let coords = &self.rules.geometry.coords;
        let (ff, fr) = coords[from as usize];
        let (tf, tr) = coords[to as usize];
        (tf as i32 - ff as i32, tr as i32 - fr as i32)
    }

    /// Whether `by` could remove `victim`'s royal piece with one move of its pieces, by any
    /// capture the rules have, counting neither limits nor placements.
    pub(super) fn threatened(&mut self, victim: usize, by: usize) -> bool {
        if let Some(removes) = self.removal_by_move(victim, by, None) {
            return removes;
        }
        self.may_remove_royal(victim, by, None) && !self.threats(victim, by, 1).is_empty()
    }

    /// The squares of `by`'s pieces that could remove `victim`'s royal piece with one move, by
    /// any capture the rules have; at most `enough` of them.
    pub fn threats(&mut self, victim: usize, by: usize, enough: usize) -> Vec<Sq> {
        let rules = self.rules;
        let mut found = Vec::new();
        // A player with no royal piece on the board (before placing it) cannot be checked.
        if !rules.derived.royal || !self.has_royal(victim) {
            return found;
        }
        let mut replies = self.scratch.pop().unwrap_or_default();
        self.pseudo_turns(
            by,
            std::slice::from_ref(&rules.turns.move_plan),
            &mut replies,
        );
        for reply in &replies {
            if found.len() >= enough {
                break;
            }
            let Some(moved) = reply.last_move().map(|m| m.from) else {
                continue;
            };
            if !found.contains(&moved) && self.takes_royal(reply, by, victim) {
                found.push(moved);
            }
        }
        self.scratch.push(replies);
        found
    }

    /// Whether some turn could take one of `player`'s counters past its limit: one of the
    /// counter's rules would, applied to the count as it stands. Where none can, no turn
    /// needs testing against the limits.
    #[inline(always)]
    pub(super) fn limits_may_bite(&self, player: usize) -> bool {
        let counters = &self.rules.turns.counters;
        (counters.iter().enumerate()).any(|(index, counter)| {
            (counter.bites_from).is_some_and(|from| self.counter(player, index) >= from)
        })
    }

    /// Whether `player`'s counters stay within their limits after `turn`. Where the limited
    /// counters change only on moves and turn ends, their new values follow from the turn alone.
    pub(super) fn within_limits(&mut self, turn: &Turn, player: usize) -> bool {
        let rules = self.rules;
        if rules.derived.simple_limits {
            let no_losses = [0; MAX_PLAYERS];
            let events = self.turn_events(turn, player, &no_losses[..rules.players.count()]);
            return (rules.turns.counters.iter().enumerate()).all(|(index, counter)| {
                counter.limit.is_none_or(|limit| {
                    let value = self.counter(player, index);
                    self.counted(&counter.for_mover, value, player, &events, &mut None) <= limit
                })
            });
        }
        self.make_as(turn, player);
        let rules = self.rules;
        let within = rules
            .turns
            .counters
            .iter()
            .enumerate()
            .all(|(i, c)| c.limit.is_none_or(|limit| self.counter(player, i) <= limit));
        self.unmake();
        within
    }
}

/// What a turn did, as counter events see it.
struct TurnEvents<'a> {
    mover: usize,
    /// The heading of the mover's move in the mover's frame, if it moved a piece.
    moved: Option<Heading>,
    lost: &'a [u64],
}
