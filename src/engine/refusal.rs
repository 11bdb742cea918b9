//! Why a turn is refused: the turns the plans allow before any legality rule, and for one of
//! them the rule that refuses it, taken one at a time in the order the generation applies them,
//! so that a player told "no" can be told which rule said it.

use super::position::Position;
use super::turn::Turn;
use crate::bitboard::Bitboard;
use crate::compile::{Code, Sq};

/// The legality rule that refuses a turn the plans allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game has ended: no turn is legal.
    GameOver,
    /// A player whose piece faces its enemy counterpart must end the standoff (or pass).
    Standoff,
    /// After the turn, the next player could remove the mover's royal piece on `royal` by
    /// `reply` (when one was found).
    RoyalExposed {
        royal: Option<Sq>,
        reply: Option<Turn>,
    },
    /// The turn would check another player's royal piece, which the file forbids.
    GivesCheck,
    /// In check, the royal piece may move only to take the one piece checking it.
    RoyalMayNotFlee,
    /// The turn would take the mover's `counter` to `value`, past its `limit`.
    CounterPastLimit {
        counter: usize,
        value: u16,
        limit: u16,
    },
    /// A capture is compulsory, and `capture` is one.
    CaptureCompulsory { capture: Turn },
    /// The turn belongs to a plan tried only when the plans before it give no legal turn.
    NotFirstChoice,
}

impl Position<'_> {
    /// Every turn the plans of the player to move allow, in every tier, before the legality
    /// rules judge them (into `out`, cleared first); none once the last phase has ended.
    pub fn possible_turns(&mut self, out: &mut Vec<Turn>) {
        out.clear();
        if let Some(plans) = self.plans_of(self.to_move) {
            self.pseudo_turns(self.to_move, plans, out);
        }
    }

    /// The possible turns (see [`Position::possible_turns`]) with the squares of `changes`
    /// holding other codes for the while: what a piece could do were a square empty, say.
    pub fn possible_turns_with(&mut self, changes: &[(Sq, Code)], out: &mut Vec<Turn>) {
        let mark = self.mark();
        for &(sq, code) in changes {
            self.put(sq, code);
        }
        self.possible_turns(out);
        self.rewind(mark);
    }

    /// The rule that refuses `turn`, one of the possible turns; `None` if it is legal.
    pub fn refusal(&mut self, turn: &Turn) -> Option<Refusal> {
        if self.ending().is_some() {
            return Some(Refusal::GameOver);
        }
        let mut legal = Vec::new();
        self.every_way(&mut legal);
        if legal.contains(turn) {
            return None;
        }
        let player = self.to_move;
        let standoff = self.rules.derived.standoff_kinds != 0 && self.in_standoff(player);
        let mut alone = vec![*turn];
        match standoff {
            true => self.keep_standoff_answers(player, &mut alone),
            false => self.keep_legal(player, &mut alone),
        }
        if alone.is_empty() {
            return Some(match standoff {
                true => Refusal::Standoff,
                false => self.royal_exposed(turn, player),
            });
        }
        if self.rules.turns.forbids.any() && !self.obeys_forbids(turn, player) {
            let flees = self.rules.turns.forbids.royal_flight
                && !at_width!(self.rules, B => self.flight_allowed::<B>(turn, player));
            return Some(match flees {
                true => Refusal::RoyalMayNotFlee,
                false => Refusal::GivesCheck,
            });
        }
        if self.rules.derived.counter_limits
            && !self.within_limits(turn, player)
            && let Some(past) = self.counter_past_limit(turn, player)
        {
            return Some(past);
        }
        let capture = legal.iter().find(|t| t.captures);
        match capture {
            Some(&capture) if self.rules.captures.compulsory && !turn.captures => {
                Some(Refusal::CaptureCompulsory { capture })
            }
            _ => Some(Refusal::NotFirstChoice),
        }
    }

    /// How `turn` exposes `player`'s royal piece: a reply of the next player that removes one,
    /// and its square.
    fn royal_exposed(&mut self, turn: &Turn, player: usize) -> Refusal {
        self.make_as(turn, player);
        let opponent = self.to_move;
        let mut replies = Vec::new();
        if let Some(plans) = self.plans_of(opponent) {
            self.pseudo_turns(opponent, plans, &mut replies);
        }
        let royals: Vec<Sq> =
            at_width!(self.rules, B => self.royal_set::<B>(player).squares().collect());
        let found = replies.iter().find_map(|reply| {
            let mark = self.mark();
            for part in reply.parts() {
                self.apply(part, opponent);
            }
            let lost = (royals.iter()).find(|&&sq| !self.piece_of(sq, player));
            let found = lost.map(|&sq| (sq, *reply));
            self.rewind(mark);
            found
        });
        self.unmake();
        Refusal::RoyalExposed {
            royal: found.map(|(sq, _)| sq),
            reply: found.map(|(_, reply)| reply),
        }
    }

    /// Whether `player` has a piece on `sq`.
    fn piece_of(&self, sq: Sq, player: usize) -> bool {
        self.piece(self.board[sq as usize])
            .is_some_and(|(_, owner)| owner == player)
    }

    /// The first of `player`'s counters that `turn` takes past its limit.
    fn counter_past_limit(&mut self, turn: &Turn, player: usize) -> Option<Refusal> {
        self.make_as(turn, player);
        let counters = &self.rules.turns.counters;
        let past = (0..counters.len()).find_map(|counter| {
            let value = self.counter(player, counter);
            let limit = counters[counter].limit?;
            (value > limit).then_some(Refusal::CounterPastLimit {
                counter,
                value,
                limit,
            })
        });
        self.unmake();
        past
    }
}
