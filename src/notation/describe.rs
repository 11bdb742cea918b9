//! The state of a game in words: what a turn must contain, from the plans of the current
//! phase ("move a piece, then shoot an arrow"), each counter and what it allows now, and the
//! letters in play.

use crate::compile::Ruleset;
use crate::compile::turns::{Action, DropZone, Plan, Step};
use crate::engine::{Position, Turn};

/// The plans of the next turn of the player to move, in words; `None` once the last phase
/// has ended.
pub fn turn_words(position: &Position<'_>) -> Option<String> {
    Some(plans_words(position.rules(), current_plans(position)?))
}

/// The plans of the next turn of the player to move; `None` once the last phase has ended.
pub(super) fn current_plans<'r>(position: &Position<'r>) -> Option<&'r [Plan]> {
    let phase = position.current_phase()?;
    let number = position.phase_turns()[position.to_move()].saturating_add(1);
    Some(phase.plans(number))
}

/// What the next turn must contain, unless it is one move of any piece; each counter; and
/// the placements a counter allows the player to move this turn.
pub(super) fn state_lines(position: &mut Position<'_>) -> String {
    let rules = position.rules();
    let Some(plans) = current_plans(position) else {
        return String::new();
    };
    let mut out = String::new();
    let plain = matches!(plans, [plan] if matches!(plan.steps.as_slice(),
        [Step { optional: false, condition: None, action: Action::Move { pieces } }]
            if *pieces == rules.pieces.all()));
    let mover = &rules.players.names[position.to_move()];
    if !plain && position.ending().is_none() {
        out.push_str(&format!("{mover}'s turn: {}\n", plans_words(rules, plans)));
    }
    for (index, counter) in rules.turns.counters.iter().enumerate() {
        let values: Vec<String> = (rules.players.names.iter().enumerate())
            .map(|(player, name)| format!("{name} {}", position.counter(player, index)))
            .collect();
        let limit = counter
            .limit
            .map_or(String::new(), |l| format!(" (at most {l})"));
        out.push_str(&format!("{}: {}{limit}\n", counter.name, values.join(", ")));
    }
    out.push_str(&allowed_placements(position, plans));
    out
}

/// "White may place a Guard this turn (`entitled` is 1)", for each placement of the plans
/// that a counter allows the player to move, with the piece in hand.
fn allowed_placements(position: &Position<'_>, plans: &[Plan]) -> String {
    let rules = position.rules();
    let mover = position.to_move();
    let mut out = String::new();
    for step in plans.iter().flat_map(|plan| &plan.steps) {
        let (Action::Drop { pieces, .. }, Some(counter)) = (&step.action, step.condition) else {
            continue;
        };
        let value = position.counter(mover, counter as usize);
        let held = (0..rules.pieces.kinds.len())
            .filter(|&kind| pieces & (1 << kind) != 0 && position.in_hand(mover, kind) > 0)
            .fold(0, |mask, kind| mask | 1 << kind);
        if value != 0 && held != 0 {
            out.push_str(&format!(
                "{} may place {} this turn (`{}` is {value})\n",
                rules.players.names[mover],
                kinds_words(rules, held),
                rules.turns.counters[counter as usize].name
            ));
        }
    }
    out
}

/// "pieces: K King, P Pawn": the kinds on the board or in a hand, by letter.
pub(super) fn legend(position: &Position<'_>) -> String {
    let rules = position.rules();
    let players = rules.players.count();
    let on_board = (position.board().iter()).filter_map(|&code| position.piece(code));
    let present = on_board.fold(0u64, |mask, (kind, _)| mask | 1 << kind)
        | (0..rules.pieces.kinds.len())
            .filter(|&kind| (0..players).any(|p| position.in_hand(p, kind) > 0))
            .fold(0, |mask, kind| mask | 1 << kind);
    let named: Vec<String> = (rules.pieces.kinds.iter().enumerate())
        .filter(|(kind, _)| present & (1 << kind) != 0)
        .map(|(_, k)| format!("{} {}", k.text, k.name))
        .collect();
    match named.is_empty() {
        true => String::new(),
        false => format!("pieces: {}\n", named.join(", ")),
    }
}

/// Plans in words: each plan's steps joined by "then", the plans by "or", and a plan tried
/// only when those before it give nothing after "or else".
fn plans_words(rules: &Ruleset, plans: &[Plan]) -> String {
    let mut out = String::new();
    for (index, plan) in plans.iter().enumerate() {
        if index > 0 {
            out.push_str(match plan.tier > plans[index - 1].tier {
                true => "; or else, when no such turn is legal, ",
                false => ", or ",
            });
        }
        let steps: Vec<String> = plan.steps.iter().map(|s| step_words(rules, s)).collect();
        out.push_str(&steps.join(", then "));
    }
    out
}

fn step_words(rules: &Ruleset, step: &Step) -> String {
    let pieces = |mask: u64| kinds_words(rules, mask);
    let action = match &step.action {
        Action::Move { pieces: mask } => format!("move {}", pieces(*mask)),
        Action::Drop { pieces: mask, zone } => {
            let place = match zone {
                Some(DropZone::NextTo(kinds)) => format!(" next to your {}", names(rules, *kinds)),
                _ => String::new(),
            };
            format!("place {} from hand{place}", pieces(*mask))
        }
        Action::Gate { pieces: mask, .. } => {
            format!(
                "bring {} from hand onto the square the move left",
                pieces(*mask)
            )
        }
        Action::Shoot(_) => "shoot an arrow from where the piece landed".to_string(),
        Action::Unblock => "unblock a square".to_string(),
        Action::Remove { enemy: true, .. } => "remove an enemy piece".to_string(),
        Action::Remove { groups, .. } => {
            let removable = groups.iter().fold(0, |all, (_, kinds)| all | kinds);
            let spared = rules.pieces.all() & !removable;
            match spared {
                0 => "remove one of your pieces".to_string(),
                _ => format!("remove one of your pieces (not {})", pieces(spared)),
            }
        }
        Action::Pie => "choose to swap sides (`swap`) or keep them (`keep`)".to_string(),
        Action::Pass => "pass".to_string(),
    };
    let condition = step.condition.map_or(String::new(), |counter| {
        let name = &rules.turns.counters[counter as usize].name;
        format!(" (only while `{name}` is not 0)")
    });
    let optional = if step.optional { "optionally " } else { "" };
    format!("{optional}{action}{condition}")
}

/// "a piece" for every kind, else "a Pawn or Guard".
fn kinds_words(rules: &Ruleset, mask: u64) -> String {
    match mask & rules.pieces.all() == rules.pieces.all() {
        true => "a piece".to_string(),
        false => article(&names(rules, mask)),
    }
}

/// The names of the kinds of `mask`, joined by "or".
fn names(rules: &Ruleset, mask: u64) -> String {
    let names: Vec<&str> = (rules.pieces.kinds.iter().enumerate())
        .filter(|(kind, _)| mask & (1 << kind) != 0)
        .map(|(_, k)| k.name.as_str())
        .collect();
    names.join(" or ")
}

/// "a Pawn", "an Amazon".
pub(super) fn article(name: &str) -> String {
    match name.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) {
        true => format!("an {name}"),
        false => format!("a {name}"),
    }
}

/// "the Black Relay on d5" when `turn` is a move its piece makes only by another's grant (the
/// lenders joined by "and"); empty otherwise.
pub fn lent_by(position: &Position<'_>, turn: &Turn) -> String {
    let rules = position.rules();
    let lenders: Vec<String> = (position.lenders_of(turn).into_iter())
        .filter_map(|sq| {
            let (kind, owner) = position.piece(position.board()[sq as usize])?;
            Some(format!(
                "the {} {} on {}",
                rules.players.names[owner],
                rules.pieces.kinds[kind].name,
                rules.geometry.name(sq)
            ))
        })
        .collect();
    match lenders.is_empty() {
        true => String::new(),
        false => lenders.join(" and "),
    }
}
