//! Counters: a number per player, changed at the end of every turn by the first rule whose
//! event happened to that player; with a limit, a turn that takes the mover's count above it
//! is illegal.

use crate::check::checked::{self, CounterAction, PieceId};
use crate::geometry::DirectionSet;

#[derive(Clone, Debug)]
pub struct Counter {
    pub name: String,
    pub limit: Option<u16>,
    pub rules: Vec<(Event, Action)>,
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
            Counter {
                name: counter.name.clone(),
                limit,
                bites_from: limit.and_then(|limit| bites_from(limit, &rules)),
                counts_checks: (rules.iter()).any(|(event, _)| matches!(event, Event::Checked)),
                rules,
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
