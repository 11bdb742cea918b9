//! A position as a text diagram, for `fairy show`.

use crate::compile::{BLOCKED, EMPTY, Geometry, NO_SQUARE, Ruleset, Sq};
use crate::engine::Position;
use crate::engine::probe::ProbeBoard;

/// How a diagram shows the squares of the last turn.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Marks {
    /// A `>` before each marked square, for plain text.
    Plain,
    /// Each marked square in reverse video and each player's pieces in their colour, for a
    /// terminal.
    Colour,
}

/// How a diagram is drawn: its marks, and which way up.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct View {
    pub marks: Marks,
    /// Seen from the far side: the last rank at the bottom and the last file at the left.
    pub flipped: bool,
}

/// Ranks from the top with their numbers, files lettered below; `.` an empty square, `*` a
/// blocked one, a blank a hole. Then who moves, pieces in hand, and the FEN.
pub fn diagram(position: &mut Position<'_>) -> String {
    let view = View {
        marks: Marks::Plain,
        flipped: false,
    };
    marked_diagram(position, &[], view)
}

/// The diagram with the squares `marked` shown, seen as `view` says.
pub fn marked_diagram(position: &mut Position<'_>, marked: &[Sq], view: View) -> String {
    let rules = position.rules();
    let cell = cell_width(rules);
    let mut out = grid(&rules.geometry, view.flipped, cell, |sq| {
        let text = match sq {
            NO_SQUARE => " ".to_string(),
            _ => square_text(position, sq),
        };
        let marks = marked.contains(&sq).then_some(view.marks);
        let colour = (view.marks == Marks::Colour && sq != NO_SQUARE)
            .then(|| position.piece(position.board()[sq as usize]))
            .flatten()
            .map(|(_, player)| player_colour(&rules.players.names[player], player));
        mark(&text, cell, marks, colour)
    });
    let status = match position.ending() {
        Some(ending) => format!("result: {}", ending.describe(&rules.players.names)),
        None => format!("to move: {}", rules.players.names[position.to_move()]),
    };
    out.push_str(&format!("\n{status}\n"));
    out.push_str(&out_line(position));
    out.push_str(&check_line(position));
    out.push_str(&phase_lines(position));
    out.push_str(&super::describe::state_lines(position));
    for (player, name) in rules.players.names.iter().enumerate() {
        let held: Vec<String> = rules
            .pieces
            .kinds
            .iter()
            .enumerate()
            .filter_map(|(kind, info)| {
                let n = position.in_hand(player, kind);
                (n > 0).then(|| format!("{} {}", n, info.name))
            })
            .collect();
        if !held.is_empty() {
            out.push_str(&format!("in hand, {name}: {}\n", held.join(", ")));
        }
    }
    out.push_str(&super::describe::legend(position));
    out.push_str(&format!("fen: {}\n", super::fen::write(position)));
    out
}

/// How wide a square is drawn: room for the longest piece text, a player's prefix where there
/// are more than two, and a space.
fn cell_width(rules: &Ruleset) -> usize {
    let letters = (rules.pieces.kinds.iter()).map(|k| k.letter.len()).max();
    letters.unwrap_or(1) + 1 + usize::from(rules.players.count() > 2)
}

/// The board's ranks from the top (from the bottom when `flipped`, files then from the right),
/// each square drawn by `square` (a hole as [`NO_SQUARE`]), then the file letters, each `cell`
/// wide.
fn grid(
    geometry: &Geometry,
    flipped: bool,
    cell: usize,
    mut square: impl FnMut(Sq) -> String,
) -> String {
    let (height, width) = (geometry.height as i32, geometry.width as i32);
    let ranks: Vec<i32> = match flipped {
        false => (0..height).rev().collect(),
        true => (0..height).collect(),
    };
    let files: Vec<i32> = match flipped {
        false => (0..width).collect(),
        true => (0..width).rev().collect(),
    };
    let mut out = String::new();
    for &rank in &ranks {
        out.push_str(&format!("{:>3} ", rank + 1));
        for &file in &files {
            out.push_str(&square(geometry.at(file, rank)));
        }
        out.push('\n');
    }
    out.push_str("    ");
    for &file in &files {
        out.push_str(&format!("{:>cell$}", char::from(b'a' + file as u8)));
    }
    out.push('\n');
    out
}

/// The players who have left the game, if any.
fn out_line(position: &Position<'_>) -> String {
    let rules = position.rules();
    let out: Vec<&str> = (0..rules.players.count())
        .filter(|p| position.alive() & (1 << p) == 0)
        .map(|p| rules.players.names[p].as_str())
        .collect();
    match out.is_empty() {
        true => String::new(),
        false => format!("out of the game: {}\n", out.join(", ")),
    }
}

/// The phase, each player's turns until their next periodic turn, and the pie swap.
fn phase_lines(position: &Position<'_>) -> String {
    let rules = position.rules();
    let mut out = String::new();
    let Some(phase) = position.current_phase() else {
        return "phase: the last phase has ended\n".to_string();
    };
    if rules.turns.phases.len() > 1 {
        out.push_str(&format!("phase: {}\n", phase.name));
    }
    for &(period, _) in &phase.periodic {
        let waits: Vec<String> = phase
            .movers
            .iter()
            .map(|&p| {
                let played = position.phase_turns()[p];
                let wait = period - played % period;
                format!(
                    "{} in {wait} (turn {} of the phase)",
                    rules.players.names[p],
                    played.saturating_add(wait)
                )
            })
            .collect();
        out.push_str(&format!("every {period}th turn: {}\n", waits.join(", ")));
    }
    if position.swapped() {
        out.push_str("colours: swapped by the pie choice\n");
    }
    out
}

/// What stands on a square of the board: `.` empty, `*` blocked, or the piece as positions
/// write it.
pub fn square_text(position: &Position<'_>, sq: Sq) -> String {
    let rules = position.rules();
    match position.board()[sq as usize] {
        EMPTY => ".".to_string(),
        BLOCKED => "*".to_string(),
        code => {
            let (kind, player) = rules.pieces.split(code);
            super::fen::written(rules, &rules.pieces.kinds[kind].letter, player)
        }
    }
}

/// The pieces of the next player that attack the royal piece of the player to move: the
/// name of each piece's kind and its square.
pub fn checking_pieces<'r>(position: &mut Position<'r>) -> Vec<(&'r str, Sq)> {
    let rules = position.rules();
    let mover = position.to_move();
    let attacker = position.next_player(mover);
    if attacker == mover {
        return Vec::new();
    }
    position
        .threats(mover, attacker, usize::MAX)
        .into_iter()
        .map(|sq| {
            let (kind, _) = rules.pieces.split(position.board()[sq as usize]);
            (rules.pieces.kinds[kind].name.as_str(), sq)
        })
        .collect()
}

/// Whether the player to move is in check, and from which pieces.
fn check_line(position: &mut Position<'_>) -> String {
    let rules = position.rules();
    let pieces: Vec<String> = checking_pieces(position)
        .into_iter()
        .map(|(name, sq)| format!("the {name} on {}", rules.geometry.name(sq)))
        .collect();
    match pieces.is_empty() {
        true => String::new(),
        false => format!(
            "check: {} is in check from {}\n",
            rules.players.names[position.to_move()],
            pieces.join(" and ")
        ),
    }
}

/// One cell of width `cell`, right-aligned, marked if asked and there is room, and in the
/// colour of an ANSI code if one is given.
fn mark(text: &str, cell: usize, marks: Option<Marks>, colour: Option<u8>) -> String {
    let pad = " ".repeat(cell.saturating_sub(text.chars().count()));
    let text = match colour {
        Some(code) => format!("\x1b[1;{code}m{text}\x1b[22;39m"),
        None => text.to_string(),
    };
    match marks {
        None => format!("{pad}{text}"),
        Some(Marks::Colour) => format!("{pad}\x1b[7m{text}\x1b[27m"),
        Some(Marks::Plain) if pad.is_empty() => text,
        Some(Marks::Plain) => format!("{}>{text}", &pad[1..]),
    }
}

/// The ANSI colour code of a player's pieces: the colour the player is named after, where it
/// is one a terminal shows, else one of a palette by seat.
fn player_colour(name: &str, player: usize) -> u8 {
    const NAMED: &[(&str, u8)] = &[
        ("white", 97),
        ("black", 90),
        ("red", 31),
        ("green", 32),
        ("yellow", 33),
        ("blue", 34),
        ("magenta", 35),
        ("purple", 35),
        ("cyan", 36),
    ];
    const PALETTE: &[u8] = &[97, 90, 31, 32, 33, 34, 35, 36];
    let lower = name.to_lowercase();
    (NAMED.iter())
        .find(|(colour, _)| lower == *colour)
        .map_or(PALETTE[player % PALETTE.len()], |&(_, code)| code)
}

/// One piece's moves from `from` on an otherwise empty board, as the Interactive Diagram shows
/// them: `o` where it moves, `x` where it captures (each other square holding an enemy piece),
/// `*` where it does both; blocked squares stay `#`.
pub fn piece_diagram(rules: &Ruleset, kind: usize, player: usize, from: Sq) -> String {
    let code = rules.pieces.code(kind, player);
    let moves = ProbeBoard::empty(rules).targets(code, from);
    let enemy = (player + 1) % rules.players.count();
    let enemy = match enemy == player {
        true => code,
        false => rules.pieces.code(target_kind(rules), enemy),
    };
    let captures = ProbeBoard::crowded(rules, enemy).targets(code, from);
    let geometry = &rules.geometry;
    let blocked = Position::start(rules);
    let cell = cell_width(rules);
    let mut out = grid(geometry, false, cell, |sq| {
        let text = match (sq, moves.contains(&sq), captures.contains(&sq)) {
            (NO_SQUARE, ..) => " ".to_string(),
            _ if sq == from => super::fen::written(rules, &rules.pieces.kinds[kind].letter, player),
            _ if blocked.board()[sq as usize] == BLOCKED => "#".to_string(),
            (_, true, true) => "*".to_string(),
            (_, true, false) => "o".to_string(),
            (_, false, true) => "x".to_string(),
            (_, false, false) => ".".to_string(),
        };
        format!("{text:>cell$}")
    });
    let only = |of: &[Sq], not: &[Sq]| of.iter().filter(|sq| !not.contains(sq)).count();
    let both = moves.iter().filter(|sq| captures.contains(sq)).count();
    let squares = |n: usize| match n {
        1 => "1 square".to_string(),
        n => format!("{n} squares"),
    };
    out.push_str(&format!(
        "\n{} ({}) of {}, from {}: {} it moves to (o), {} it captures on (x), {} both (*)\n",
        rules.pieces.kinds[kind].name,
        rules.pieces.kinds[kind].letter,
        rules.players.names[player],
        geometry.name(from),
        squares(only(&moves, &captures)),
        squares(only(&captures, &moves)),
        squares(both)
    ));
    out
}

/// The kind a piece captures on the crowded board: one that is not royal, where there is one.
fn target_kind(rules: &Ruleset) -> usize {
    (rules.pieces.kinds.iter())
        .position(|k| !k.royal)
        .unwrap_or(0)
}
