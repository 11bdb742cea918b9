//! The end of the game, judged at the start of each turn: the rule file's end rules, tried in
//! order for the player to move, given that player's legal turns.

use super::Position;
use super::steps::Request;
use super::turn::Turn;
use crate::bitboard::Bitboard;
use crate::compile::turns::Plan;
use crate::compile::{EndCondition, Goal, Outcome};

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The players whose bits are set win.
    Win {
        players: u32,
        reason: String,
        cause: Cause,
    },
    /// The players whose bits are set share a draw.
    Draw {
        players: u32,
        reason: String,
        cause: Cause,
    },
}

/// What ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// An end rule of the file held.
    Rule(EndCondition),
    /// The last phase of the game is over.
    LastPhaseEnded,
    /// The player to move has no legal turn, and no end rule decides what that means.
    Undecided,
    /// Every other player is out of the game.
    OthersOut,
}

impl std::fmt::Display for Cause {
    /// The end rule's keyword, or a few words for the other causes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Cause::Rule(condition) => condition.keyword(),
            Cause::LastPhaseEnded => "last phase ended",
            Cause::Undecided => "no move, undecided",
            Cause::OthersOut => "others out",
        })
    }
}

impl<'r> Position<'r> {
    /// The ending, if the game is over before the player to move moves.
    pub fn ending(&mut self) -> Option<Ending> {
        let mut turns = self.scratch.pop().unwrap_or_default();
        self.generate_legal(&mut turns);
        let ending = self.ending_given(&turns);
        self.scratch.push(turns);
        ending
    }

    /// The ending, given the legal turns of the player to move.
    pub(super) fn ending_given(&mut self, turns: &[Turn]) -> Option<Ending> {
        if self.current_phase().is_none() {
            let reason = "the last phase of the game has ended".to_string();
            return Some(self.draw(reason, Cause::LastPhaseEnded));
        }
        if self.rules.derived.eliminates && self.players_in() <= 1 {
            let (reason, cause) = self.last_out_reason();
            return Some(Ending::Win {
                players: self.alive,
                reason,
                cause,
            });
        }
        let rules = self.rules;
        for &(outcome, condition) in &rules.endings.rules {
            // Where players are taken out, `lose` rules were applied as the turn started.
            if rules.derived.eliminates && outcome == Outcome::Lose {
                continue;
            }
            let subjects = self.subjects(condition, turns);
            if subjects != 0 {
                return Some(self.decide(outcome, condition, subjects));
            }
        }
        turns.is_empty().then(|| {
            let reason = format!(
                "{} has no move, and no end rule decides this",
                rules.players.names[self.to_move]
            );
            self.draw(reason, Cause::Undecided)
        })
    }

    /// Whether an end rule ends the game now though the player to move may have turns, told
    /// without generating them; `None` where that takes the turns: a goal, or a piece that
    /// cannot move now, which another turn might free.
    pub fn ends_before_turns(&mut self) -> Option<bool> {
        let rules = self.rules;
        if rules.derived.turn_blind_ends {
            return Some(self.ends_early(&[]));
        }
        if rules.derived.eliminates && self.players_in() <= 1 {
            return Some(true);
        }
        let mut told = true;
        for &condition in &rules.derived.early_ends {
            match condition {
                EndCondition::Reaches { .. } => told = false,
                EndCondition::Immobilized(kinds) => told &= self.free_now(kinds),
                _ if self.holds(condition, &[]) => return Some(true),
                _ => {}
            }
        }
        told.then_some(false)
    }

    /// Whether an end rule ends the game although the player to move has `turns` (not empty).
    pub(super) fn ends_early(&mut self, turns: &[Turn]) -> bool {
        let rules = self.rules;
        (rules.derived.eliminates && self.players_in() <= 1)
            || rules
                .derived
                .early_ends
                .iter()
                .any(|&condition| self.holds(condition, turns))
    }

    /// Whether an end condition holds for the player to move, who has `turns`.
    pub(super) fn holds(&mut self, condition: EndCondition, turns: &[Turn]) -> bool {
        match condition {
            EndCondition::Exposed
            | EndCondition::Reaches { .. }
            | EndCondition::Fewer { .. }
            | EndCondition::Bare { .. }
            | EndCondition::CounterReaches { .. } => self.subjects(condition, turns) != 0,
            // About the player to move alone, asked of every position counted: no players to
            // gather.
            _ => self.holds_for_mover(condition, turns),
        }
    }

    /// The players an end condition holds for, as bits, with the player to move having
    /// `turns`. Most conditions are about the player to move; `exposed`, goals and counts of
    /// pieces may be about others.
    fn subjects(&mut self, condition: EndCondition, turns: &[Turn]) -> u32 {
        let mover = 1 << self.to_move;
        match condition {
            EndCondition::Exposed => self.exposed_players(self.to_move, 0),
            EndCondition::Reaches { kinds, zone, goal } => {
                self.goal_players(kinds, zone, goal, turns)
            }
            EndCondition::Fewer { .. }
            | EndCondition::Bare { .. }
            | EndCondition::CounterReaches { .. } => {
                self.counted_subject(condition).map_or(0, |p| 1 << p)
            }
            _ if self.holds_for_mover(condition, turns) => mover,
            _ => 0,
        }
    }

    /// Whether a condition about the player to move holds. Inlined, with the conditions asked
    /// of every position counted read here: the others need a larger frame.
    #[inline]
    fn holds_for_mover(&mut self, condition: EndCondition, turns: &[Turn]) -> bool {
        match condition {
            EndCondition::RoyalCaptured => !self.has_royal(self.to_move),
            EndCondition::Repeated(n) => self.occurrences() >= n,
            _ => self.holds_otherwise(condition, turns),
        }
    }

    /// [`Position::holds_for_mover`] for the conditions it does not read itself.
    #[inline(never)]
    fn holds_otherwise(&mut self, condition: EndCondition, turns: &[Turn]) -> bool {
        match condition {
            _ if condition.needs_only_stuck() => {
                turns.is_empty() && self.holds_when_stuck(condition)
            }
            EndCondition::Extinct => self.has_no_pieces(self.to_move),
            EndCondition::Passed(n, count) => {
                self.passes >= n && count.is_none_or(|fewer| self.outnumbered(fewer))
            }
            EndCondition::Full(count) => {
                let full =
                    at_width!(self.rules, B => self.sides::<B>(self.to_move).empty.is_empty());
                full && count.is_none_or(|fewer| self.outnumbered(fewer))
            }
            EndCondition::Standoff => self.passes > 0 && self.in_standoff(self.to_move),
            EndCondition::Quiet { plies, .. } => self.halfmove >= plies,
            EndCondition::Immobilized(kinds) => self.immobilized(kinds, turns),
            _ => false,
        }
    }

    /// Whether a condition about having no turn holds for the player to move, who has none.
    pub(super) fn holds_when_stuck(&self, condition: EndCondition) -> bool {
        match condition {
            EndCondition::Checkmated => self.in_check(),
            EndCondition::Stalemated => !self.in_check(),
            EndCondition::NoMoves => true,
            EndCondition::NoMovesCounted { fewer } => self.outnumbered(fewer),
            _ => false,
        }
    }

    /// Why `player` lost or the game ended by `condition`, judged with `by` to move.
    fn reason(&self, condition: EndCondition, player: usize, by: usize) -> String {
        let rules = self.rules;
        let name = &rules.players.names[player];
        match condition {
            EndCondition::Checkmated => format!("{name} is checkmated"),
            EndCondition::Stalemated => format!("{name} is stalemated"),
            EndCondition::NoMoves => format!("{name} has no move"),
            EndCondition::NoMovesCounted { fewer: true } => {
                format!("{name} has no move, with fewer pieces")
            }
            EndCondition::NoMovesCounted { fewer: false } => {
                format!("{name} has no move, with more pieces")
            }
            EndCondition::Extinct => format!("{name} has no pieces"),
            EndCondition::Fewer { below, counted } => {
                let counts = (rules.endings.counted[counted as usize].iter())
                    .map(|&kinds| (kinds, self.count_of(player, kinds)));
                let (kinds, left) = counts.min_by_key(|&(_, n)| n).unwrap_or((1, 0));
                let piece = &rules.pieces.kinds[kinds.trailing_zeros() as usize].name;
                match left {
                    0 => format!("{name} has no {piece} left"),
                    _ => format!("{name} has only {left} {piece} left, fewer than {below}"),
                }
            }
            EndCondition::CounterReaches { counter, value } => {
                let counter = &rules.turns.counters[counter as usize].name;
                format!("{name}'s {counter} reached {value}")
            }
            EndCondition::Bare { .. } => {
                let royal = rules.derived.royal_kinds.trailing_zeros() as usize;
                let royal = rules.pieces.kinds.get(royal).map_or("royal", |k| &k.name);
                format!("{name} has nothing left but the {royal}")
            }
            EndCondition::RoyalCaptured => format!("{name}'s royal piece was captured"),
            EndCondition::Repeated(n) => format!("the position occurred {n} times"),
            EndCondition::Passed(n, None) => format!("the last {n} turns were passes"),
            EndCondition::Passed(n, Some(fewer)) => format!(
                "the last {n} turns were passes, and {name} has {} pieces",
                if fewer { "fewer" } else { "more" }
            ),
            EndCondition::Standoff => "a standoff stood after a pass".to_string(),
            EndCondition::Full(None) => "the board is full".to_string(),
            EndCondition::Full(Some(fewer)) => format!(
                "the board is full, and {name} has {} pieces",
                if fewer { "fewer" } else { "more" }
            ),
            EndCondition::Quiet { plies: n, .. } => {
                format!("{n} plies passed without a capture or a counted move")
            }
            EndCondition::Immobilized(kinds) => {
                let piece = &rules.pieces.kinds[kinds.trailing_zeros() as usize].name;
                format!("{name}'s {piece} cannot move, and no action this turn frees it")
            }
            EndCondition::Exposed => format!(
                "{name} is checkmated: {} attacks their royal piece",
                rules.players.names[by]
            ),
            EndCondition::Reaches { kinds, .. } => {
                let piece = &rules.pieces.kinds[kinds.trailing_zeros() as usize].name;
                format!("{name}'s {piece} reached its goal")
            }
        }
    }

    /// How the last player taken out left the game, and by which rule.
    fn last_out_reason(&self) -> (String, Cause) {
        match self.last_out {
            Some(out) => {
                let condition = self.rules.endings.rules[out.rule as usize].1;
                let reason = self.reason(condition, out.player as usize, out.by as usize);
                (reason, Cause::Rule(condition))
            }
            None => (
                "every other player is out of the game".to_string(),
                Cause::OthersOut,
            ),
        }
    }

    /// The ending an end rule that holds for `subjects` gives. Several players reaching
    /// their goals at once draw.
    fn decide(&self, outcome: Outcome, condition: EndCondition, subjects: u32) -> Ending {
        let cause = Cause::Rule(condition);
        let several_goals =
            matches!(condition, EndCondition::Reaches { .. }) && subjects.count_ones() > 1;
        if several_goals {
            let names = &self.rules.players.names;
            let players: Vec<&str> = (0..names.len())
                .filter(|p| subjects & (1 << p) != 0)
                .map(|p| names[p].as_str())
                .collect();
            let reason = format!("{} reached their goals together", players.join(" and "));
            return self.draw(reason, cause);
        }
        let reason = self.reason(condition, subjects.trailing_zeros() as usize, self.to_move);
        match outcome {
            Outcome::Win => Ending::Win {
                players: subjects,
                reason,
                cause,
            },
            Outcome::Lose => Ending::Win {
                players: self.alive & !subjects,
                reason,
                cause,
            },
            Outcome::Draw => self.draw(reason, cause),
        }
    }

    /// The players whose pieces of `kinds` in `zone` win by `goal`, as bits; the player to
    /// move has `turns`.
    fn goal_players(&mut self, kinds: u64, zone: u16, goal: Goal, turns: &[Turn]) -> u32 {
        let mover = self.to_move;
        let others = self.alive & !(1 << mover);
        let in_zone = self.in_goal(kinds, zone);
        match goal {
            Goal::Arrival => in_zone & others,
            Goal::Safe => self.safe_in_goal(kinds, zone),
            Goal::AfterReply => in_zone & 1 << mover,
            Goal::UnlessFollowed if in_zone & 1 << mover != 0 => in_zone,
            Goal::UnlessFollowed => {
                // Players earlier in the round than the player to move can still be followed.
                let followable = in_zone & ((1 << mover) - 1);
                match followable != 0 && self.can_follow(kinds, zone, turns) {
                    true => in_zone & others & !followable,
                    false => in_zone & others,
                }
            }
        }
    }

    /// The players still in with a piece of `kinds` in `zone` (as each sees it), as bits.
    fn in_goal(&self, kinds: u64, zone: u16) -> u32 {
        let rules = self.rules;
        at_width!(rules, B => self.players_still_in()
            .filter(|&p| (self.kinds_set::<B>(p, kinds) & rules.zones.squares::<B>(zone, p)).any())
            .fold(0, |players, p| players | 1 << p))
    }

    /// The players still in whose pieces of `kinds` in `zone` cannot all be taken by one
    /// capture: more than one is there, or the one there is attacked by no other player.
    fn safe_in_goal(&self, kinds: u64, zone: u16) -> u32 {
        let rules = self.rules;
        let attacked = |sq, p: usize| {
            self.players_still_in()
                .any(|q| q != p && self.attacked(sq, q))
        };
        at_width!(rules, B => self.players_still_in()
            .filter(|&p| {
                let there = self.kinds_set::<B>(p, kinds) & rules.zones.squares::<B>(zone, p);
                there.count() > 1 || there.squares().any(|sq| !attacked(sq, p))
            })
            .fold(0, |players, p| players | 1 << p))
    }

    /// Whether one of `turns` of the player to move brings a piece of `kinds` into `zone`.
    fn can_follow(&mut self, kinds: u64, zone: u16, turns: &[Turn]) -> bool {
        let mover = self.to_move;
        turns.iter().any(|turn| {
            self.make(turn);
            let followed = self.in_goal(kinds, zone) & 1 << mover != 0;
            self.unmake();
            followed
        })
    }

    /// The player a count of pieces (`Fewer`, `Bare`) or a counter holds for. In games that
    /// take players out, only the player to move is judged; otherwise every player still in,
    /// the player to move last, so that a count the last turn brought down is judged first.
    fn counted_subject(&self, condition: EndCondition) -> Option<usize> {
        let count = self.rules.players.count();
        let mover = self.to_move;
        let judged = match self.rules.derived.eliminates {
            true => mover..mover + 1,
            false => mover + 1..mover + count + 1,
        };
        judged
            .map(|p| p % count)
            .filter(|&p| self.alive & (1 << p) != 0)
            .find(|&p| match condition {
                EndCondition::Fewer { below, counted } => {
                    (self.rules.endings.counted[counted as usize].iter())
                        .any(|&kinds| self.count_of(p, kinds) < below)
                }
                EndCondition::Bare { reply } => self.bare_loses(p, reply),
                EndCondition::CounterReaches { counter, value } => {
                    self.counter(p, counter as usize) >= value
                }
                _ => false,
            })
    }

    /// Whether `player`, if bare, is judged so now. With a reply, the player to move still
    /// moves while one capture could bare an opponent (who has a single piece besides royal
    /// ones), and another player is judged only while the player to move is not bare.
    fn bare_loses(&self, player: usize, reply: bool) -> bool {
        if self.spare_pieces(player) > 0 {
            return false;
        }
        let mut others = self.players_still_in().filter(|&p| p != player);
        match (reply, player == self.to_move) {
            (false, _) => true,
            (true, true) => others.any(|p| self.spare_pieces(p) > 1),
            (true, false) => self.spare_pieces(self.to_move) > 0,
        }
    }

    /// Whether the player to move has fewer pieces on the board than every other player still
    /// in (`fewer`), or more than every one.
    fn outnumbered(&self, fewer: bool) -> bool {
        let on_board = |p: usize| at_width!(self.rules, B => self.player_set::<B>(p).count());
        let own = on_board(self.to_move);
        self.players_still_in()
            .filter(|&p| p != self.to_move)
            .all(|p| {
                let theirs = on_board(p);
                match fewer {
                    true => own < theirs,
                    false => own > theirs,
                }
            })
    }

    /// How many pieces of `kinds` `player` has, on the board and in hand.
    fn count_of(&self, player: usize, kinds: u64) -> u32 {
        let on_board = at_width!(self.rules, B => self.kinds_set::<B>(player, kinds).count());
        let in_hand: u32 = (0..self.rules.pieces.kinds.len())
            .filter(|kind| kinds & (1 << kind) != 0)
            .map(|kind| u32::from(self.hands[self.hand_slot(player, kind)]))
            .sum();
        on_board + in_hand
    }

    /// How many pieces other than royal ones `player` has, on the board and in hand.
    fn spare_pieces(&self, player: usize) -> u32 {
        self.count_of(
            player,
            self.rules.pieces.all() & !self.rules.derived.royal_kinds,
        )
    }

    /// A draw shared by the players still in.
    /// A draw, or, where a player has draw odds, that player's win.
    fn draw(&self, reason: String, cause: Cause) -> Ending {
        match self.rules.endings.draw_odds {
            Some(player) if self.alive & 1 << player != 0 => Ending::Win {
                players: 1 << player,
                reason: format!(
                    "{reason}, a draw, which {} wins on draw odds",
                    self.rules.players.names[player]
                ),
                cause,
            },
            _ => Ending::Draw {
                players: self.alive,
                reason,
                cause,
            },
        }
    }

    /// Whether `player` has no piece on the board or in hand.
    pub fn has_no_pieces(&self, player: usize) -> bool {
        self.count_of(player, self.rules.pieces.all()) == 0
    }

    /// Whether no piece of `kinds` of the player to move has a complete ordinary turn now,
    /// and none of the player's `turns` would give one such a turn. Judged only in phases
    /// whose ordinary turn moves pieces.
    fn immobilized(&mut self, kinds: u64, turns: &[Turn]) -> bool {
        if self.free_now(kinds) {
            return false;
        }
        let Some(phase) = self.current_phase() else {
            return false;
        };
        let player = self.to_move;
        let plans = phase.ordinary.as_slice();
        !turns.iter().any(|turn| {
            self.make(turn);
            let freed = self.can_move(player, kinds, plans);
            self.unmake();
            freed
        })
    }

    /// Whether a piece of `kinds` of the player to move has a complete turn as the board
    /// stands, or the phase moves no piece: either way the piece is not immobilized, whatever
    /// the player's other turns.
    fn free_now(&mut self, kinds: u64) -> bool {
        match self.current_phase().filter(|p| p.moves) {
            Some(phase) => self.can_move(self.to_move, kinds, phase.ordinary.as_slice()),
            None => true,
        }
    }

    /// Whether a piece of `kinds` of `player` has a complete turn by `plans`.
    fn can_move(&mut self, player: usize, kinds: u64, plans: &'r [Plan]) -> bool {
        let mut found = self.scratch.pop().unwrap_or_default();
        let request = Request {
            player,
            movers: kinds,
            enough: 1,
            start: 0,
        };
        self.generate(request, plans, &mut found);
        let any = !found.is_empty();
        self.scratch.push(found);
        any
    }
}

impl Ending {
    /// What ended the game.
    pub fn cause(&self) -> Cause {
        match self {
            Ending::Win { cause, .. } | Ending::Draw { cause, .. } => *cause,
        }
    }

    /// The players who won, or who share the draw.
    pub fn players(&self) -> u32 {
        match self {
            Ending::Win { players, .. } | Ending::Draw { players, .. } => *players,
        }
    }

    pub fn describe(&self, names: &[String]) -> String {
        let named = |players: u32| {
            let chosen: Vec<&str> = names
                .iter()
                .enumerate()
                .filter(|(p, _)| players & (1 << p) != 0)
                .map(|(_, n)| n.as_str())
                .collect();
            match chosen.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => chosen.join(""),
            }
        };
        match self {
            Ending::Win {
                players, reason, ..
            } => {
                let verb = if players.count_ones() == 1 {
                    "wins"
                } else {
                    "win"
                };
                format!("{} {verb}: {reason}", named(*players))
            }
            // With more than two players, the draw is shared by those still in.
            Ending::Draw {
                players, reason, ..
            } if names.len() > 2 => {
                format!("draw among {}: {reason}", named(*players))
            }
            Ending::Draw { reason, .. } => format!("draw: {reason}"),
        }
    }
}
