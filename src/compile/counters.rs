//! Counters: a number per player, changed at the end of every turn by the first rule whose
//! event happened to that player; with a limit, a turn that takes the mover's count above it
//! is illegal.

use super::Geometry;
use crate::check::checked::{self, CounterAction, PieceId};
use crate::geometry::{Compass, DirectionSet, Heading, relative};

#[derive(Clone, Debug)]
pub struct Counter {
    pub name: String,
    pub limit: Option<u16>,
    /// The rules, in file order, whose events may happen to the player who moved: all but
    /// `checked`.
    pub for_mover: Vec<(Event, Action)>,
    /// The rules whose events may happen to the other players: all but those on moves and
    /// turn ends.
    pub for_others: Vec<(Event, Action)>,
    /// The lowest value from which one of the rules could take the counter past its limit;
    /// none where no rule can.
    pub bites_from: Option<u16>,
    /// Whether a rule counts the `checked` event.
    pub counts_checks: bool,
}

#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// The player moved a piece, by a displacement in these directions of their own frame.
    Move(DirectionSet),
    /// A piece of these kinds of the player left the board during the turn.
    Lost(u64),
    /// After the turn, the player's royal piece could be removed by the player who moved.
    Checked,
    /// The player's own turn ended.
    TurnEnd,
}

#[derive(Clone, Copy, Debug)]
pub enum Action {
    Add(u16),
    Set(u16),
    Reset,
}

impl Action {
    pub fn apply(self, value: u16) -> u16 {
        match self {
            Action::Add(n) => value.saturating_add(n),
            Action::Set(n) => n,
            Action::Reset => 0,
        }
    }
}

/// A counter's rule in a role's list: its event and action, the counter it changes, and where
/// the next counter's rules begin, to go on with once this rule has applied.
#[derive(Clone, Copy, Debug)]
pub struct RoleRule {
    pub event: Event,
    pub action: Action,
    pub counter: u32,
    pub next_counter: u32,
}

/// The rules of every counter, counter after counter in file order, for each role a player can
/// have in a turn: one list read straight through at every turn made, skipping the counters
/// that have no rule for the role, rather than a list per counter.
#[derive(Clone, Debug, Default)]
pub struct RoleRules {
    pub for_mover: Vec<RoleRule>,
    pub for_others: Vec<RoleRule>,
}

impl RoleRules {
    pub fn new(counters: &[Counter]) -> Self {
        let flatten = |rules_of: fn(&Counter) -> &[(Event, Action)]| {
            let mut list = Vec::new();
            for (index, counter) in counters.iter().enumerate() {
                let rules = rules_of(counter);
                let next_counter = (list.len() + rules.len()) as u32;
                list.extend(rules.iter().map(|&(event, action)| RoleRule {
                    event,
                    action,
                    counter: index as u32,
                    next_counter,
                }));
            }
            list
        };
        RoleRules {
            for_mover: flatten(|c| &c.for_mover),
            for_others: flatten(|c| &c.for_others),
        }
    }
}

/// The heading, in each player's frame, of every displacement a move can make on the board,
/// looked up instead of worked out on every move; empty where no counter counts moves.
#[derive(Clone, Debug, Default)]
pub struct Headings {
    /// How far a move can go across and along the board: the table's half-widths.
    reach: (i32, i32),
    /// The headings of each player, one row of displacements after another.
    table: Vec<Heading>,
}

impl Headings {
    pub fn new(counters: &[Counter], geometry: &Geometry, forward: &[Option<Compass>]) -> Self {
        let counts_moves = (counters.iter().flat_map(|c| &c.for_mover))
            .any(|(event, _)| matches!(event, Event::Move(_)));
        if !counts_moves {
            return Headings::default();
        }
        let reach = (geometry.width as i32 - 1, geometry.height as i32 - 1);
        let table = (forward.iter())
            .flat_map(|&forward| {
                (-reach.1..=reach.1).flat_map(move |dy| {
                    (-reach.0..=reach.0).map(move |dx| Heading::of(relative(forward, (dx, dy))))
                })
            })
            .collect();
        Headings { reach, table }
    }

    /// The heading of a move by `(dx, dy)` in `player`'s frame; none where no counter counts
    /// moves.
    #[inline]
    pub fn of(&self, player: usize, (dx, dy): (i32, i32)) -> Option<Heading> {
        let (across, along) = (2 * self.reach.0 + 1, 2 * self.reach.1 + 1);
        let row = (player as i32 * along + dy + self.reach.1) * across;
        self.table.get((row + dx + self.reach.0) as usize).copied()
    }
}

/// The file's counters, in file order; `kinds` gives the kinds of a piece.
pub fn counters(checked: &[checked::Counter], kinds: impl Fn(PieceId) -> u64) -> Vec<Counter> {
    let small = |n: u32| n.min(u32::from(u16::MAX)) as u16;
    checked
        .iter()
        .map(|counter| {
            let rules: Vec<(Event, Action)> = counter
                .rules
                .iter()
                .map(|&(event, action)| {
                    let event = match event {
                        checked::CounterEvent::Move(directions) => Event::Move(directions),
                        checked::CounterEvent::Lost(piece) => Event::Lost(kinds(piece)),
                        checked::CounterEvent::Checked => Event::Checked,
                        checked::CounterEvent::TurnEnd => Event::TurnEnd,
                    };
                    let action = match action {
                        CounterAction::Add(n) => Action::Add(small(n)),
                        CounterAction::Set(n) => Action::Set(small(n)),
                        CounterAction::Reset => Action::Reset,
                    };
                    (event, action)
                })
                .collect();
            let limit = counter.limit.map(small);
            let of_role = |mover: bool| {
                let applies = |event: &Event| match event {
                    Event::Move(_) | Event::TurnEnd => mover,
                    Event::Checked => !mover,
                    Event::Lost(_) => true,
                };
                (rules.iter())
                    .filter(|(event, _)| applies(event))
                    .copied()
                    .collect()
            };
            Counter {
                name: counter.name.clone(),
                limit,
                bites_from: limit.and_then(|limit| bites_from(limit, &rules)),
                counts_checks: (rules.iter()).any(|(event, _)| matches!(event, Event::Checked)),
                for_mover: of_role(true),
                for_others: of_role(false),
            }
        })
        .collect()
}

/// The lowest value from which one of `rules` takes a counter past `limit`: any value where a
/// rule sets it past the limit, else where the largest step up does.
fn bites_from(limit: u16, rules: &[(Event, Action)]) -> Option<u16> {
    let actions = || rules.iter().map(|&(_, action)| action);
    if actions().any(|action| matches!(action, Action::Set(n) if n > limit)) {
        return Some(0);
    }
    let most_added = (actions())
        .filter_map(|action| match action {
            Action::Add(n) => Some(n),
            _ => None,
        })
        .max()
        .filter(|&n| n > 0)?;
    // A value already past the limit is past it after any step up; none passes the largest.
    Some(limit.checked_add(1)?.saturating_sub(most_added))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compiled;

    /// Every displacement on a board wider than it is tall, for players facing each way, reads
    /// the same from the table as worked out; and a file counting no moves has no table.
    #[test]
    fn looked_up_headings_are_the_ones_worked_out() {
        let text = |event: &str| {
            format!(
                "game \"Headings\"\nboard 5 x 3\nplayer N forward north\nplayer E forward east\n\
                 player S forward south\nplayer W forward west\npiece King K {{ royal step all }}\n\
                 counter run {{ {event}: add 1 }}\nsetup N {{ King a1 }}\nsetup E {{ King e1 }}\n\
                 setup S {{ King a3 }}\nsetup W {{ King e3 }}\nlose when no-moves\n"
            )
        };
        let rules = compiled(&text("move sideways"));
        let headings = &rules.turns.headings;
        let sideways = DirectionSet::of([crate::geometry::Direction::Sideways]);
        for (player, &forward) in rules.players.forward.iter().enumerate() {
            for (dx, dy) in (-4..=4).flat_map(|dx| (-2..=2).map(move |dy| (dx, dy))) {
                let worked_out = Heading::of(relative(forward, (dx, dy)));
                assert_eq!(headings.of(player, (dx, dy)), Some(worked_out));
            }
        }
        // East and west face along the board's width: north is to the left of east.
        assert!(sideways.admits(headings.of(1, (0, 1)).expect("a heading")));
        assert!(!sideways.admits(headings.of(1, (1, 0)).expect("a heading")));
        let unused = compiled(&text("turn-end"));
        assert!(unused.turns.headings.of(0, (1, 0)).is_none());
    }

    fn rules(actions: &[Action]) -> Vec<(Event, Action)> {
        actions.iter().map(|&a| (Event::TurnEnd, a)).collect()
    }

    #[test]
    fn a_limit_bites_from_where_the_largest_step_up_passes_it() {
        let sideways = rules(&[Action::Add(1), Action::Reset]);
        assert_eq!(bites_from(3, &sideways), Some(3));
        assert_eq!(
            bites_from(3, &rules(&[Action::Add(2), Action::Add(5)])),
            Some(0)
        );
        assert_eq!(
            bites_from(3, &rules(&[Action::Add(1), Action::Set(4)])),
            Some(0)
        );
        assert_eq!(
            bites_from(3, &rules(&[Action::Set(3), Action::Reset])),
            None
        );
        assert_eq!(bites_from(3, &rules(&[Action::Add(0)])), None);
        // Saturating at the top, no count passes the largest limit.
        assert_eq!(bites_from(u16::MAX, &sideways), None);
    }
}
