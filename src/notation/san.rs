//! Turns typed as players write them in chess books, read where that is unambiguous: `Nf3`,
//! `exd5`, `e8=Q`, `Rad1`, `O-O`, `O-O-O`. Only for turns of one move, by pieces written with
//! one letter; a move without a letter is a Pawn's (the kind written `P`).

use super::quoted;
use crate::engine::{PartKind, Position, Turn};

/// A move in this form, parsed: what it names, to be matched against the legal turns.
struct Written<'a> {
    /// The moving piece's letter; `P` when none is written.
    letter: &'a str,
    /// The file and rank given to tell two pieces apart (`a` of `Rad1`, `1` of `R1a3`).
    from_file: Option<u8>,
    from_rank: Option<u32>,
    captures: bool,
    to: &'a str,
    /// The letter of the piece a promotion makes.
    promotion: Option<&'a str>,
}

/// The one legal turn `text` names in this form; `None` if it is not written so or names no
/// legal turn, and a message if it names several.
pub fn read(position: &mut Position<'_>, text: &str) -> Option<Result<Turn, String>> {
    let text = text.trim_end_matches(['+', '#', '!', '?']);
    let mut legal = Vec::new();
    position.legal_turns(&mut legal);
    let matching: Vec<Turn> = match text {
        "O-O" | "0-0" => castlings(position, &legal, true),
        "O-O-O" | "0-0-0" => castlings(position, &legal, false),
        _ => {
            let written = parse(text)?;
            legal
                .into_iter()
                .filter(|turn| names(position, turn, &written))
                .collect()
        }
    };
    match matching.as_slice() {
        [] => Some(Err(format!(
            "{} is not legal here: no legal move is the one it names",
            quoted(text)
        ))),
        [turn] => Some(Ok(*turn)),
        several => {
            let texts: Vec<String> = several
                .iter()
                .map(|t| super::moves::write(position, t))
                .collect();
            Some(Err(format!(
                "{} is ambiguous: it may be {}; add the file or rank it starts from",
                quoted(text),
                texts.join(" or ")
            )))
        }
    }
}

/// Parses `[letter][file][rank][x]square[=letter]`.
fn parse(text: &str) -> Option<Written<'_>> {
    let (body, promotion) = match text.split_once('=') {
        Some((body, piece)) => (body, Some(piece).filter(|p| is_letter(p))?.into()),
        None => (text, None),
    };
    let (letter, rest) = match body.split_at_checked(1) {
        Some((first, rest)) if is_letter(first) => (first, rest),
        _ => ("P", body),
    };
    // The target is the last square: a letter and digits at the end.
    let digits = rest.len() - rest.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let to_start = rest.len().checked_sub(digits + 1)?;
    let (head, to) = rest.split_at(to_start);
    if digits == 0 || !to.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None;
    }
    let (head, captures) = match head.strip_suffix('x') {
        Some(head) => (head, true),
        None => (head, false),
    };
    let (from_file, from_rank) = match head.as_bytes() {
        [] => (None, None),
        [file] if file.is_ascii_lowercase() => (Some(*file), None),
        [file, digits @ ..] if file.is_ascii_lowercase() => (
            Some(*file),
            Some(std::str::from_utf8(digits).ok()?.parse().ok()?),
        ),
        digits => (None, Some(std::str::from_utf8(digits).ok()?.parse().ok()?)),
    };
    Some(Written {
        letter,
        from_file,
        from_rank,
        captures,
        to,
        promotion,
    })
}

/// A piece letter: one capital.
fn is_letter(text: &str) -> bool {
    text.len() == 1 && text.bytes().all(|b| b.is_ascii_uppercase())
}

/// Whether `turn`, one move, is the move `written` names.
fn names(position: &Position<'_>, turn: &Turn, written: &Written<'_>) -> bool {
    let rules = position.rules();
    let geometry = &rules.geometry;
    let Some(part) = turn.last_move() else {
        return false;
    };
    let single = turn
        .parts()
        .iter()
        .all(|p| std::ptr::eq(p, part) || matches!(p.kind, PartKind::Take | PartKind::Partner));
    let letter = |code| {
        position
            .piece(code)
            .map(|(kind, _)| rules.pieces.kinds[kind].letter.as_str())
    };
    let (file, rank) = geometry.coords[part.from as usize];
    let promoted = (part.kind == PartKind::Promote)
        .then(|| letter(part.piece))
        .flatten();
    single
        && letter(position.board()[part.from as usize])
            .is_some_and(|l| l.eq_ignore_ascii_case(written.letter))
        && geometry.name(part.to) == written.to
        && written.from_file.is_none_or(|f| f == b'a' + file)
        && written.from_rank.is_none_or(|r| r == u32::from(rank) + 1)
        && (!written.captures || turn.captures)
        && match (written.promotion, promoted) {
            (None, None) => true,
            (Some(wanted), Some(made)) => made.eq_ignore_ascii_case(wanted),
            _ => false,
        }
}

/// The castling turns towards the last file (`king_side`) or the first.
fn castlings(position: &Position<'_>, legal: &[Turn], king_side: bool) -> Vec<Turn> {
    let coords = &position.rules().geometry.coords;
    legal
        .iter()
        .filter(|turn| {
            let partner = turn.parts().iter().any(|p| p.kind == PartKind::Partner);
            let main = turn.main();
            let (from, to) = (coords[main.from as usize].0, coords[main.to as usize].0);
            partner && (to > from) == king_side && to != from
        })
        .copied()
        .collect()
}
