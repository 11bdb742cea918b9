//! Turns as text: coordinates (`e2e4`), promotion by the new piece's letter (`e7e8q`) or `+`
//! for shogi-style promoted pieces (`b8b9+`), drops as `P@e4`, and further parts of a turn
//! after commas (an arrow: `d1d7,d7g7`). Castling is written as the royal piece's move. An
//! unblocked square is `-e5`, the pie choice `swap` or `keep`.

use super::NotationError;
use crate::engine::{PartKind, Position, Turn};

/// The text of a turn, as `moves` prints it and `--moves` reads it.
pub fn write(position: &Position<'_>, turn: &Turn) -> String {
    let rules = position.rules;
    let geometry = &rules.geometry;
    let main = turn.main();
    let mut text = match main.kind {
        PartKind::Drop => {
            let (kind, _) = rules.split(main.piece);
            format!(
                "{}@{}",
                rules.kinds[kind].letter.to_uppercase(),
                geometry.name(main.to)
            )
        }
        PartKind::Unblock => format!("-{}", geometry.name(main.to)),
        PartKind::Choice => (if main.piece == 1 { "swap" } else { "keep" }).to_string(),
        _ => format!("{}{}", geometry.name(main.from), geometry.name(main.to)),
    };
    if main.kind == PartKind::Promote {
        let (kind, _) = rules.split(main.piece);
        let letter = &rules.kinds[kind].letter;
        match letter.strip_prefix('+') {
            Some(_) => text.push('+'),
            None => text.push_str(&letter.to_lowercase()),
        }
    }
    for part in &turn.parts()[1..] {
        if part.kind == PartKind::Block {
            text.push_str(&format!(
                ",{}{}",
                geometry.name(part.from),
                geometry.name(part.to)
            ));
        }
    }
    text
}

/// Reads one turn of the player to move, which must be legal.
pub fn read(position: &mut Position<'_>, text: &str) -> Result<Turn, String> {
    let mut legal = Vec::new();
    position.legal_turns(&mut legal);
    legal.retain(|turn| write(position, turn) == text);
    match legal.as_slice() {
        [turn] => Ok(*turn),
        [] => Err(format!("`{text}` is not a legal move here")),
        many => Err(format!(
            "`{text}` is ambiguous: {} legal moves are written this way",
            many.len()
        )),
    }
}

/// Plays a space-separated list of turns, each checked for legality; none is legal once the
/// game has ended.
pub fn play(position: &mut Position<'_>, list: &str) -> Result<(), NotationError> {
    let mut offset = 0;
    for word in list.split_whitespace() {
        let start = offset + list[offset..].find(word).expect("the word is in the list");
        offset = start + word.len();
        if let Some(ending) = position.ending() {
            let names = &position.rules.player_names;
            let message = format!(
                "the game is over ({}), so `{word}` cannot be played",
                ending.describe(names)
            );
            return Err(NotationError::new(message, start, offset));
        }
        let turn = read(position, word).map_err(|m| NotationError::new(m, start, offset))?;
        position.make(&turn);
    }
    Ok(())
}

/// Every legal turn's text, sorted.
pub fn legal_texts(position: &mut Position<'_>) -> Vec<String> {
    let mut legal = Vec::new();
    position.legal_turns(&mut legal);
    let mut texts: Vec<String> = legal.iter().map(|t| write(position, t)).collect();
    texts.sort();
    texts
}
