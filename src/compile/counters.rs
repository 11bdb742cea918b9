//! Counters: a number per player, changed at the end of every turn by the first rule whose
//! event happened to that player; with a limit, a turn that takes the mover's count above it
//! is illegal.

use crate::geometry::DirectionSet;
use crate::syntax::ast::{self, RuleFile};

#[derive(Clone, Debug)]
pub struct Counter {
    pub name: String,
    pub limit: Option<u16>,
    pub rules: Vec<(Event, Action)>,
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

/// The file's counters, in file order; `kinds` gives the kinds a piece name stands for.
pub fn counters(file: &RuleFile, kinds: impl Fn(&str) -> u64) -> Vec<Counter> {
    let small = |n: u32| n.min(u32::from(u16::MAX)) as u16;
    file.counters()
        .map(|counter| Counter {
            name: counter.name.value.clone(),
            limit: counter.limit.as_ref().map(|l| small(l.value)),
            rules: counter
                .rules
                .iter()
                .map(|rule| {
                    let event = match &rule.event.value {
                        ast::CounterEvent::Move(directions) => {
                            Event::Move(DirectionSet::of(directions.iter().map(|d| d.value)))
                        }
                        ast::CounterEvent::Lost(piece) => Event::Lost(kinds(&piece.value)),
                        ast::CounterEvent::Checked => Event::Checked,
                        ast::CounterEvent::TurnEnd => Event::TurnEnd,
                    };
                    let action = match rule.action.value {
                        ast::CounterAction::Add(n) => Action::Add(small(n)),
                        ast::CounterAction::Set(n) => Action::Set(small(n)),
                        ast::CounterAction::Reset => Action::Reset,
                    };
                    (event, action)
                })
                .collect(),
        })
        .collect()
}
