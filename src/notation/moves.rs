//! Turns as text: coordinates (`e2e4`), promotion by the new piece's letter (`e7e8q`) or `+`
//! for shogi-style promoted pieces (`b8b9+`), drops and placements as `P@e4`, and the parts of
//! a turn joined by commas in the order they happen (an arrow: `d1d7,d7g7`). Castling is
//! written as the royal piece's move. A removal is `xc3`, an unblocked square `-e5`, the pie
//! choice `swap` or `keep`, passing `pass`.

use super::{NotationError, quoted};
use crate::compile::Ruleset;
use crate::engine::{Part, PartKind, Position, Turn};

/// The text of a turn, as `moves` prints it and `--moves` reads it: its written parts joined
/// by commas.
pub fn write(position: &Position<'_>, turn: &Turn) -> String {
    text(position.rules(), turn)
}

/// The text of a turn of a game of `rules`: it depends on the turn alone, not the position.
pub fn text(rules: &Ruleset, turn: &Turn) -> String {
    let texts: Vec<String> = turn
        .parts()
        .iter()
        .filter_map(|part| part_text(rules, part))
        .collect();
    texts.join(",")
}

/// The text of one part; `None` for the parts a move carries along (a castling partner, a
/// piece taken en passant).
fn part_text(rules: &Ruleset, part: &Part) -> Option<String> {
    let geometry = &rules.geometry;
    let letter = |code| &rules.pieces.kinds[rules.pieces.split(code).0].letter;
    let text = match part.kind {
        PartKind::Move | PartKind::Block => {
            format!("{}{}", geometry.name(part.from), geometry.name(part.to))
        }
        PartKind::Promote => {
            let suffix = match letter(part.piece).strip_prefix('+') {
                Some(_) => "+".to_string(),
                None => letter(part.piece).to_lowercase(),
            };
            format!(
                "{}{}{suffix}",
                geometry.name(part.from),
                geometry.name(part.to)
            )
        }
        PartKind::Drop | PartKind::Gate => format!(
            "{}@{}",
            letter(part.piece).to_uppercase(),
            geometry.name(part.to)
        ),
        PartKind::Remove => format!("x{}", geometry.name(part.from)),
        PartKind::Unblock => format!("-{}", geometry.name(part.to)),
        PartKind::Choice => (if part.piece == 1 { "swap" } else { "keep" }).to_string(),
        PartKind::Pass => "pass".to_string(),
        PartKind::Partner | PartKind::Take => return None,
    };
    Some(text)
}

/// Reads one turn of the player to move, which must be legal. Where several ways make the
/// same change, each way's text is read.
pub fn read(position: &mut Position<'_>, text: &str) -> Result<Turn, String> {
    if !is_written_as_turn(text) {
        return Err(format!(
            "{} is not written as a move: moves are coordinates such as e2e4, e7e8q or P@e4, \
             with the parts of a turn joined by commas (d1d5,d5h5); see `fairy moves`",
            quoted(text)
        ));
    }
    let mut legal = Vec::new();
    position.every_way(&mut legal);
    // In a cut-short list a legal turn may be missing: no answer is sure.
    if position.turns_overflowed() {
        return Err(crate::limits::too_many_turns());
    }
    let texts: Vec<String> = legal.iter().map(|turn| write(position, turn)).collect();
    let mut matching = legal.iter().zip(&texts).filter(|(_, t)| *t == text);
    match (matching.next(), matching.next()) {
        (Some((turn, _)), None) => Ok(*turn),
        (None, _) => Err(super::refusal::explain(position, text)),
        (Some(_), Some(_)) => Err(format!(
            "{} is ambiguous: several legal moves are written this way",
            quoted(text)
        )),
    }
}

/// Whether `text` is written as a turn could be (each part well formed), legal or not.
pub fn is_written_as_turn(text: &str) -> bool {
    text.split(',').all(well_formed)
}

/// Whether one part of a turn is written as some part could be: `e2e4`, `e7e8q`, `b8b9+`,
/// `P@e4`, `xc3`, `-e5`, `swap`, `keep`, `pass`.
fn well_formed(part: &str) -> bool {
    let square = |s: &str| -> Option<usize> {
        let file = s.chars().next().filter(char::is_ascii_lowercase)?;
        let digits = s[file.len_utf8()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        (digits > 0).then_some(1 + digits)
    };
    if matches!(part, "swap" | "keep" | "pass") {
        return true;
    }
    // On boards 24 files wide, `x16x17` is a move from the x-file, not a removal.
    let removal = part.strip_prefix('x').or_else(|| part.strip_prefix('-'));
    if removal.is_some_and(|rest| square(rest) == Some(rest.len())) {
        return true;
    }
    if let Some((letter, sq)) = part.split_once('@') {
        let letter = letter.strip_prefix('+').unwrap_or(letter);
        return letter.len() == 1
            && letter.chars().all(|c| c.is_ascii_uppercase())
            && square(sq) == Some(sq.len());
    }
    let Some(from) = square(part) else {
        return false;
    };
    let Some(to) = square(&part[from..]) else {
        return false;
    };
    let suffix = &part[from + to..];
    suffix.is_empty()
        || suffix == "+"
        || (suffix.len() == 1 && suffix.chars().all(|c| c.is_ascii_lowercase()))
}

/// Plays a space-separated list of turns, each checked for legality; none is legal once the
/// game has ended.
pub fn play(position: &mut Position<'_>, list: &str) -> Result<(), NotationError> {
    let mut offset = 0;
    for word in list.split_whitespace() {
        let start = offset + list[offset..].find(word).expect("the word is in the list");
        offset = start + word.len();
        let turn =
            read_in_play(position, word).map_err(|m| NotationError::new(m, start, offset))?;
        position.make(&turn);
    }
    Ok(())
}

/// As [`read`], in a game that may have ended, where no turn is legal.
pub fn read_in_play(position: &mut Position<'_>, text: &str) -> Result<Turn, String> {
    match position.ending() {
        Some(ending) => Err(format!(
            "the game is over ({}), so {} cannot be played",
            ending.describe(&position.rules().players.names),
            quoted(text)
        )),
        None => read(position, text),
    }
}

/// Every legal turn's text, in board order (see [`sort_naturally`]). A turn that can be made in several ways (placements
/// followed by the same move) is listed once, under the smallest of its texts. Empty where the
/// position has more turns than fairy holds ([`Position::turns_overflowed`] says so).
pub fn legal_texts(position: &mut Position<'_>) -> Vec<String> {
    let mut ways = Vec::new();
    position.every_way(&mut ways);
    // A cut-short list is no answer: the caller says why, and nothing is worth writing.
    if position.turns_overflowed() {
        return Vec::new();
    }
    let mut texts: Vec<(Option<u64>, String)> = ways
        .iter()
        .map(|turn| {
            let same = (position.may_coincide(turn)).then(|| position.result_hash(turn));
            (same, write(position, turn))
        })
        .collect();
    texts.sort_by(|a, b| natural_order(&a.1, &b.1));
    let mut seen = std::collections::HashSet::new();
    texts
        .into_iter()
        .filter(|(same, _)| same.is_none_or(|hash| seen.insert(hash)))
        .map(|(_, text)| text)
        .collect()
}

/// Sorts turn texts in board order: squares file by file, and ranks by number, so that
/// `b3b2` comes before `b3b10`.
pub fn sort_naturally(texts: &mut [String]) {
    texts.sort_by(|a, b| natural_order(a, b));
}

/// Compares two texts with their runs of digits as numbers.
fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    chunks(a).cmp(chunks(b))
}

/// A text as single characters, with each run of digits as one `0` and its value.
fn chunks(text: &str) -> impl Iterator<Item = (char, u64)> + '_ {
    let mut rest = text;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        if first.is_ascii_digit() {
            let digits = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let value = rest[..digits].parse().unwrap_or(u64::MAX);
            rest = &rest[digits..];
            return Some(('0', value));
        }
        rest = &rest[first.len_utf8()..];
        Some((first, 0))
    })
}
