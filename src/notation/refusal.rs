//! Why a written turn is not legal, in words, from the engine's own knowledge: a square off
//! the board, a turn of the wrong shape for the phase, a piece that does not move so or whose
//! way is blocked, a placement not allowed, or the legality rule that refuses a turn the plans
//! allow (the royal piece left open, a counter at its limit, a compulsory capture).

use super::describe::{article, current_plans, turn_words};
use super::moves::write;
use super::quoted;
use crate::compile::turns::Action;
use crate::compile::{BLOCKED, EMPTY, Ruleset, Sq};
use crate::engine::refusal::Refusal;
use crate::engine::{PartKind, Position, Turn};

/// How many legal turns a refusal suggests at most.
const SUGGESTED: usize = 8;

/// Why `text`, a well-formed turn that no legal turn is written as, is not legal here: one
/// sentence of reason, then, where some exist, the legal turns that start the same way.
pub fn explain(position: &mut Position<'_>, text: &str) -> String {
    let parts: Vec<&str> = text.split(',').collect();
    let reason = reason(position, text, &parts);
    let start = start_of(parts[0]);
    let alike: Vec<String> = super::moves::legal_texts(position)
        .into_iter()
        .filter(|t| !start.is_empty() && t.starts_with(start))
        .collect();
    let shown = alike.len().min(SUGGESTED);
    let more = match alike.len() > shown {
        true => " …",
        false => "",
    };
    let suggestion = match shown {
        0 => String::new(),
        _ => format!(
            "\nlegal turns starting with {}: {}{more} (`moves` lists every turn)",
            quoted(start),
            alike[..shown].join(" ")
        ),
    };
    format!("{} is not legal here: {reason}{suggestion}", quoted(text))
}

/// The square a turn starts from (`e2` of `e2e4`), or the piece placed (`P@` of `P@e4`).
fn start_of(first: &str) -> &str {
    match first.find('@') {
        Some(at) => &first[..=at],
        None if first.starts_with(['x', '-']) => first,
        None => {
            let digits = (first.get(1..).unwrap_or(""))
                .find(|c: char| !c.is_ascii_digit())
                .map_or(first.len(), |i| i + 1);
            &first[..digits]
        }
    }
}

/// The reason alone.
fn reason(position: &mut Position<'_>, text: &str, parts: &[&str]) -> String {
    if let Some(problem) = parts
        .iter()
        .find_map(|part| off_board(position.rules(), part))
    {
        return problem;
    }
    if let Some(ending) = position.ending() {
        let names = &position.rules().players.names;
        return format!("the game is over ({})", ending.describe(names));
    }
    let mut possible = Vec::new();
    position.possible_turns(&mut possible);
    let texts: Vec<String> = possible.iter().map(|t| write(position, t)).collect();
    let refused = (possible.iter().zip(&texts))
        .filter(|(_, t)| *t == text)
        .find_map(|(turn, _)| position.refusal(turn).map(|r| (r, *turn)));
    if let Some((refusal, turn)) = refused {
        return refused_words(position, &turn, refusal);
    }
    let common = |t: &str| {
        (t.split(',').zip(parts))
            .take_while(|(a, b)| a == *b)
            .count()
    };
    let matched = texts.iter().map(|t| common(t)).max().unwrap_or(0);
    let sharing = (possible.iter().zip(&texts)).filter(|(_, t)| common(t) == matched);
    let Some((example, example_text)) = sharing.clone().next().filter(|_| matched > 0) else {
        return first_part(position, parts[0], &texts);
    };
    match matched {
        n if n == parts.len() => format!(
            "it is not a whole turn: a turn here is to {} (such as {})",
            turn_words(position).unwrap_or_default(),
            quoted(example_text)
        ),
        n => {
            let mut next: Vec<String> = sharing
                .filter_map(|(_, t)| t.split(',').nth(n).map(str::to_string))
                .collect();
            super::moves::sort_naturally(&mut next);
            next.dedup();
            let next: Vec<&str> = next.iter().map(String::as_str).collect();
            let noun = written_parts(example).nth(n).map_or("part", part_noun);
            format!(
                "after {}, the {noun} {} is not possible; the {noun}s that are: {}",
                quoted(&parts[..n].join(",")),
                quoted(parts[n]),
                listed(&next)
            )
        }
    }
}

/// The parts of a turn that its text writes, in order.
fn written_parts(turn: &Turn) -> impl Iterator<Item = PartKind> + '_ {
    (turn.parts().iter())
        .map(|part| part.kind)
        .filter(|kind| !matches!(kind, PartKind::Partner | PartKind::Take))
}

/// What a part of a turn is called.
fn part_noun(kind: PartKind) -> &'static str {
    match kind {
        PartKind::Move | PartKind::Promote | PartKind::Partner => "move",
        PartKind::Drop | PartKind::Gate => "placement",
        PartKind::Block => "arrow",
        PartKind::Remove | PartKind::Take => "removal",
        PartKind::Unblock => "unblocking",
        PartKind::Choice => "choice",
        PartKind::Pass => "pass",
    }
}

/// A square named in `part` that is not on the board, said as such.
fn off_board(rules: &Ruleset, part: &str) -> Option<String> {
    let geometry = &rules.geometry;
    let names = square_names(part);
    let name = names
        .into_iter()
        .find(|name| geometry.parse(name).is_none())?;
    let file = i32::from(name.as_bytes()[0]) - i32::from(b'a');
    let rank = name[1..].parse::<i32>().map_or(-1, |r| r - 1);
    let last_file = char::from(b'a' + geometry.width as u8 - 1);
    Some(
        match file < geometry.width as i32 && (0..geometry.height as i32).contains(&rank) {
            true => format!(
                "{} is not one of the board's squares (its shape leaves it out)",
                quoted(name)
            ),
            false => format!(
                "{} is off the board, whose files are a–{last_file} and ranks 1–{}",
                quoted(name),
                geometry.height
            ),
        },
    )
}

/// The square names in one written part (`e2` and `e4` of `e2e4`).
fn square_names(part: &str) -> Vec<&str> {
    let body = part.split_once('@').map_or(part, |(_, sq)| sq);
    let body = match body.strip_prefix(['x', '-']) {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_lowercase()) => rest,
        _ => body,
    };
    let mut names = Vec::new();
    let mut rest = body;
    while let Some(file) = rest.chars().next().filter(char::is_ascii_lowercase) {
        let digits = rest[1..].chars().take_while(char::is_ascii_digit).count();
        if digits == 0 {
            break;
        }
        names.push(&rest[..1 + digits]);
        rest = &rest[file.len_utf8() + digits..];
    }
    names
}

/// What the legality rule that refuses `turn` says.
fn refused_words(position: &mut Position<'_>, turn: &Turn, refusal: Refusal) -> String {
    let rules = position.rules();
    let mover = &rules.players.names[position.to_move()];
    match refusal {
        Refusal::GameOver => "the game is over".to_string(),
        Refusal::Standoff => {
            "a piece of yours faces its enemy counterpart on an open line: the turn must end \
             that standoff, or pass"
                .to_string()
        }
        Refusal::RoyalExposed { royal, reply } => {
            let royal = royal.map_or("your royal piece".to_string(), |sq| {
                format!(
                    "your {} on {}",
                    royal_name(position, turn, sq),
                    rules.geometry.name(sq)
                )
            });
            match reply {
                Some(reply) => format!(
                    "it leaves {royal} open to capture: {} could answer {}{}",
                    rules.players.names[position.next_player(position.to_move())],
                    quoted(&write(position, &reply)),
                    by_whom(position, &reply)
                ),
                None => format!("it leaves {royal} open to capture"),
            }
        }
        Refusal::GivesCheck => "it would give check, which this game forbids".to_string(),
        Refusal::RoyalMayNotFlee => "in check, the royal piece may move only to take the one \
                                     piece that checks it"
            .to_string(),
        Refusal::CounterPastLimit {
            counter,
            value,
            limit,
        } => format!(
            "it would take {mover}'s `{}` to {value}, past its limit of {limit}",
            rules.turns.counters[counter].name
        ),
        Refusal::CaptureCompulsory { capture } => format!(
            "a capture is compulsory, such as {}",
            quoted(&write(position, &capture))
        ),
        Refusal::NotFirstChoice => {
            "a turn of this kind is allowed only when no turn of the kinds before it is legal"
                .to_string()
        }
    }
}

/// The name of the royal piece that stands on `sq` once `turn` is made.
fn royal_name(position: &Position<'_>, turn: &Turn, sq: Sq) -> String {
    let landed = turn
        .parts()
        .iter()
        .rev()
        .find(|p| p.to == sq && p.kind != PartKind::Block);
    let code = landed.map_or(position.board()[sq as usize], |p| p.piece);
    piece_name(position.rules(), code)
        .unwrap_or("royal piece")
        .to_string()
}

/// " (the Rook on d8)": the piece a reply moves, when it moves one that stands on the board.
fn by_whom(position: &Position<'_>, reply: &Turn) -> String {
    let main = reply.main();
    let moved = matches!(main.kind, PartKind::Move | PartKind::Promote);
    let on_board = moved.then(|| position.board()[main.from as usize]);
    match on_board.and_then(|code| piece_name(position.rules(), code)) {
        Some(name) => format!(
            " (the {name} on {})",
            position.rules().geometry.name(main.from)
        ),
        None => String::new(),
    }
}

fn piece_name(rules: &Ruleset, code: u8) -> Option<&str> {
    (code != EMPTY && code != BLOCKED)
        .then(|| rules.pieces.kinds[rules.pieces.split(code).0].name.as_str())
}

/// Why no possible turn starts with `first`.
fn first_part(position: &mut Position<'_>, first: &str, texts: &[String]) -> String {
    let shape = turn_words(position).unwrap_or_default();
    let firsts: Vec<&str> = texts.iter().filter_map(|t| t.split(',').next()).collect();
    let written = Written::of(first);
    let planned = current_plans(position).is_some_and(|plans| {
        (plans.iter().flat_map(|plan| &plan.steps)).any(|step| written.done_by(&step.action))
    });
    if !planned {
        let mover = &position.rules().players.names[position.to_move()];
        return format!("{mover}'s turn is to {shape}");
    }
    let geometry = &position.rules().geometry;
    let names = square_names(first);
    let square = |i: usize| names.get(i).and_then(|n| geometry.parse(n));
    match (written, square(0), square(1)) {
        (Written::Move, Some(from), Some(to)) => move_reason(position, first, from, to, &firsts),
        (Written::Drop, Some(to), _) => drop_reason(position, first, to, &firsts),
        _ => {
            let mut alike: Vec<&str> = firsts
                .into_iter()
                .filter(|f| Written::of(f) == written)
                .collect();
            alike.sort_unstable();
            alike.dedup();
            format!(
                "{} cannot be done now; what can is {}",
                quoted(first),
                listed(&alike)
            )
        }
    }
}

/// The kind of a written part.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Written {
    Move,
    Drop,
    Remove,
    Unblock,
    Word,
}

impl Written {
    /// Whether a step doing `action` is written as this kind of part.
    fn done_by(self, action: &Action) -> bool {
        match action {
            Action::Move { .. } | Action::Shoot(_) => self == Written::Move,
            Action::Drop { .. } | Action::Gate { .. } => self == Written::Drop,
            Action::Remove { .. } => self == Written::Remove,
            Action::Unblock => self == Written::Unblock,
            Action::Pie | Action::Pass => self == Written::Word,
        }
    }

    fn of(part: &str) -> Written {
        let square_after = |rest: &str| rest.starts_with(|c: char| c.is_ascii_lowercase());
        if part.contains('@') {
            Written::Drop
        } else if part.starts_with(|c: char| !c.is_ascii_lowercase()) {
            Written::Unblock
        } else if square_names(part).len() == 1 && part.strip_prefix('x').is_some_and(square_after)
        {
            Written::Remove
        } else if square_names(part).is_empty() {
            Written::Word
        } else {
            Written::Move
        }
    }
}

/// Why the move `first` from `from` to `to` is not possible: no piece of the mover's there,
/// a piece in the way, a target it may not take or reach so, or a promotion to write.
fn move_reason(
    position: &mut Position<'_>,
    first: &str,
    from: Sq,
    to: Sq,
    firsts: &[&str],
) -> String {
    let rules = position.rules();
    let geometry = &rules.geometry;
    let mover = position.to_move();
    let (from_name, to_name) = (geometry.name(from), geometry.name(to));
    let code = position.board()[from as usize];
    let Some((kind, owner)) = position.piece(code) else {
        return match code {
            BLOCKED => format!("{from_name} is blocked"),
            _ => format!("there is no piece on {from_name}"),
        };
    };
    let name = &rules.pieces.kinds[kind].name;
    if owner != mover {
        return format!(
            "the {name} on {from_name} is {}'s",
            rules.players.names[owner]
        );
    }
    let squares = format!("{from_name}{to_name}");
    let mut promotions: Vec<&str> = firsts
        .iter()
        .copied()
        .filter(|f| f.starts_with(&squares) && square_names(f).len() == 2)
        .collect();
    if !promotions.is_empty() {
        promotions.sort_unstable();
        promotions.dedup();
        return format!(
            "the {name} may go from {from_name} to {to_name} only as {}",
            listed(&promotions)
        );
    }
    let enables = |position: &mut Position<'_>, changes: &[(Sq, u8)]| {
        let mut turns = Vec::new();
        position.possible_turns_with(changes, &mut turns);
        (turns.iter()).any(|t| write(position, t).split(',').next() == Some(first))
    };
    // What may stand in a move's way stands within the rectangle of its two squares.
    let (coords, (from_file, from_rank), (to_file, to_rank)) = (
        &geometry.coords,
        geometry.coords[from as usize],
        geometry.coords[to as usize],
    );
    let between = |sq: Sq| {
        let (file, rank) = coords[sq as usize];
        (from_file.min(to_file)..=from_file.max(to_file)).contains(&file)
            && (from_rank.min(to_rank)..=from_rank.max(to_rank)).contains(&rank)
    };
    let occupied: Vec<Sq> = (0..position.board().len() as Sq)
        .filter(|&sq| sq != from && between(sq) && position.board()[sq as usize] != EMPTY)
        .collect();
    let blockers: Vec<Sq> = (occupied.iter().copied())
        .filter(|&sq| enables(position, &[(sq, EMPTY)]))
        .collect();
    let target = position.piece(position.board()[to as usize]);
    if blockers.contains(&to) {
        let held = |kind: usize| &rules.pieces.kinds[kind].name;
        return match target {
            Some((kind, owner)) if owner == mover => {
                format!("{to_name} holds your own {}", held(kind))
            }
            Some((kind, _)) => format!("the {name} may not take the {} on {to_name}", held(kind)),
            None => format!("{to_name} is blocked"),
        };
    }
    if !blockers.is_empty() {
        let named: Vec<String> = blockers.iter().map(|&sq| standing(position, sq)).collect();
        return format!(
            "the way from {from_name} to {to_name} is blocked: {}",
            named.join(", and ")
        );
    }
    if target.is_none()
        && let Some(enemy) = enemy_code(position)
        && enables(position, &[(to, enemy)])
    {
        return format!("the {name} may go from {from_name} to {to_name} only to capture");
    }
    let cleared: Vec<(Sq, u8)> = occupied.iter().map(|&sq| (sq, EMPTY)).collect();
    match enables(position, &cleared) {
        true => format!("pieces stand in the way from {from_name} to {to_name}"),
        false => format!(
            "{} does not move from {from_name} to {to_name} here",
            article(name)
        ),
    }
}

/// "the Black Pawn stands on d4", or "d4 is blocked".
fn standing(position: &Position<'_>, sq: Sq) -> String {
    let rules = position.rules();
    let Some((kind, owner)) = position.piece(position.board()[sq as usize]) else {
        return format!("{} is blocked", rules.geometry.name(sq));
    };
    format!(
        "the {} {} stands on {}",
        rules.players.names[owner],
        rules.pieces.kinds[kind].name,
        rules.geometry.name(sq)
    )
}

/// A piece of the next player that is not royal, to stand where a capture is tried.
fn enemy_code(position: &Position<'_>) -> Option<u8> {
    let rules = position.rules();
    let enemy = position.next_player(position.to_move());
    (rules.pieces.kinds.iter().enumerate())
        .find(|(_, k)| !k.royal)
        .map(|(kind, _)| rules.pieces.code(kind, enemy))
}

/// Why the placement `first` on `to` is not possible: no such piece, none in hand, a condition
/// not met, an occupied square, or a square the rules do not allow it.
fn drop_reason(position: &Position<'_>, first: &str, to: Sq, firsts: &[&str]) -> String {
    let rules = position.rules();
    let mover = position.to_move();
    let player = &rules.players.names[mover];
    let letter = first.split('@').next().unwrap_or("");
    let kind = (rules.pieces.kinds.iter()).position(|k| k.letter.eq_ignore_ascii_case(letter));
    let Some(kind) = kind else {
        return format!("no piece of this game is written {}", quoted(letter));
    };
    let name = &rules.pieces.kinds[kind].name;
    if position.in_hand(mover, kind) == 0 {
        return format!("{player} has no {name} in hand");
    }
    if let Some(counter) = barring_counter(position, kind) {
        return format!(
            "{player} may place {} only while `{counter}` is not 0, and it is 0 now",
            article(name)
        );
    }
    let to_name = rules.geometry.name(to);
    if position.board()[to as usize] != EMPTY {
        return match position.piece(position.board()[to as usize]) {
            Some(_) => format!("{to_name} is not empty: {}", standing(position, to)),
            None => format!("{to_name} is blocked"),
        };
    }
    let prefix = format!("{letter}@");
    let allowed = firsts.iter().any(|f| f.starts_with(&prefix));
    match allowed {
        true => format!("{} may not be placed on {to_name}", article(name)),
        false => format!(
            "{} may not be placed on {to_name} (nor anywhere now): a turn here is to {}",
            article(name),
            turn_words(position).unwrap_or_default()
        ),
    }
}

/// The counter whose zero value bars every placement of `kind` the plans have, if one does.
fn barring_counter<'r>(position: &Position<'r>, kind: usize) -> Option<&'r str> {
    let rules = position.rules();
    let steps = current_plans(position)?.iter().flat_map(|plan| &plan.steps);
    let mut drops = steps.filter(
        |step| matches!(step.action, Action::Drop { pieces, .. } if pieces & (1 << kind) != 0),
    );
    let first = drops.next()?.condition?;
    let zero = |c: u16| position.counter(position.to_move(), c as usize) == 0;
    (zero(first) && drops.all(|s| s.condition.is_some_and(zero)))
        .then(|| rules.turns.counters[first as usize].name.as_str())
}

/// Up to [`SUGGESTED`] texts, quoted, and how many more there are.
fn listed(texts: &[&str]) -> String {
    let shown: Vec<String> = texts.iter().take(SUGGESTED).map(|t| quoted(t)).collect();
    match texts.len() > SUGGESTED {
        true => format!("{} and {} more", shown.join(" "), texts.len() - SUGGESTED),
        false => shown.join(" "),
    }
}
