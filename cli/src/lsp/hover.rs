//! What the editor shows when the pointer rests on a word: a keyword's paragraph from the
//! README, what a direction means for each player, and what a name stands for: a piece's letter,
//! moves and value, a zone's squares, a player's order and forward direction.

use super::document::Document;
use super::glossary;
use super::symbols::{Declaration, Names};
use crate::weights;
use fairy::ai::eval::Evaluator;
use fairy::check::NameKind;
use fairy::check::{self, Checked};
use fairy::compile::{Ruleset, zone_squares};
use fairy::notation::betza::betza;
use fairy::syntax;

/// The hover text, in Markdown, for the word at `offset`.
pub fn hover(document: &Document, offset: usize) -> Option<(String, fairy::diagnostic::Span)> {
    let names = Names::of(&document.text);
    let word = names.word_at(offset)?;
    let span = super::symbols::span_of(&word);
    let declared: Vec<&Declaration> = names.declared(word.text).collect();
    let text = match declared.is_empty() {
        false => (declared.iter())
            .map(|declaration| name(document, &names, declaration))
            .collect::<Vec<_>>()
            .join("\n\n---\n\n"),
        true => keyword(&names, word.text)?,
    };
    Some((text, span))
}

fn keyword(names: &Names<'_>, word: &str) -> Option<String> {
    let entry = glossary::entry(word)?;
    let mut text = format!(
        "**`{word}`**: {}\n\n```fairy\n{}\n```",
        entry.text, entry.example
    );
    if let Some(sectors) = sectors(word) {
        text.push_str("\n\n");
        text.push_str(&direction_for_players(names, sectors));
    }
    Some(text)
}

/// The eight sectors, clockwise from forward.
const SECTORS: [&str; 8] = [
    "forward",
    "forward-right",
    "right",
    "backward-right",
    "backward",
    "backward-left",
    "left",
    "forward-left",
];

/// The sectors a direction word names, as eighths of a turn clockwise from forward.
fn sectors(word: &str) -> Option<&'static [usize]> {
    Some(match word {
        "sideways" => &[6, 2],
        "vertical" => &[0, 4],
        "orthogonal" => &[0, 2, 4, 6],
        "diagonal" => &[7, 1, 3, 5],
        "diagonal-forward" => &[7, 1],
        "diagonal-backward" => &[5, 3],
        "ahead" => &[7, 0, 1],
        "behind" => &[5, 4, 3],
        "all" => &[0, 1, 2, 3, 4, 5, 6, 7],
        _ => {
            const ONE: [[usize; 1]; 8] = [[0], [1], [2], [3], [4], [5], [6], [7]];
            &ONE[SECTORS.iter().position(|s| *s == word)?]
        }
    })
}

const COMPASS: [&str; 8] = [
    "north",
    "north-east",
    "east",
    "south-east",
    "south",
    "south-west",
    "west",
    "north-west",
];

/// "For White: north-west, north-east. For Black: …", from each player's `forward`.
fn direction_for_players(names: &Names<'_>, sectors: &[usize]) -> String {
    let players = players(names);
    if players.is_empty() {
        return "No player is declared yet.".to_string();
    }
    let lines: Vec<String> = (players.iter())
        .map(|(player, forward)| {
            let Some(forward) = forward.and_then(|f| COMPASS.iter().position(|c| *c == f)) else {
                return format!("- {player}: no `forward` direction, so no relative direction");
            };
            let absolute: Vec<&str> = (sectors.iter())
                .map(|sector| COMPASS[(forward + sector) % 8])
                .collect();
            format!("- {player}: {}", absolute.join(", "))
        })
        .collect();
    format!(
        "On the board (north is up, as the first player sees it):\n{}",
        lines.join("\n")
    )
}

/// Each player and the compass word of its `forward`, in the order declared.
fn players<'a>(names: &Names<'a>) -> Vec<(&'a str, Option<&'a str>)> {
    let mut players = Vec::new();
    for (i, word) in names.words.iter().enumerate() {
        let declares = names
            .declarations
            .iter()
            .find(|d| d.kind == NameKind::Player && d.span.start == word.at);
        if declares.is_none() {
            continue;
        }
        let forward = names
            .words
            .get(i + 1..i + 3)
            .filter(|next| next[0].text == "forward")
            .map(|next| next[1].text);
        players.push((word.text, forward));
    }
    players
}

fn name(document: &Document, names: &Names<'_>, declaration: &Declaration) -> String {
    let item = &names.items[declaration.item];
    let source = document.text[item.span.start..item.span.end].trim();
    let heading = format!("{} **{}**", declaration.kind.word(), declaration.name);
    let details = match declaration.kind {
        NameKind::Piece => piece(document, &declaration.name),
        NameKind::Zone => zone(&document.text, &declaration.name),
        NameKind::Player => player(names, &declaration.name),
        _ => String::new(),
    };
    let shown = match declaration.kind {
        // A tag is declared inside a piece; the piece says where.
        NameKind::MoveTag => {
            format!("a kind of move of the piece below\n\n```fairy\n{source}\n```")
        }
        _ => format!("```fairy\n{source}\n```"),
    };
    [heading, details, shown]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn piece(document: &Document, name: &str) -> String {
    let Some(rules) = document.analysis.rules.as_ref() else {
        return "Its Betza notation and value are shown once the file can be played.".into();
    };
    let Some(kind) = rules.pieces.kinds.iter().position(|k| k.name == name) else {
        return String::new();
    };
    let letter = &rules.pieces.kinds[kind].letter;
    let moves = match betza(rules, kind) {
        Some(moves) => format!("Betza: `{moves}`."),
        None => "Betza's notation cannot say all of its moves.".into(),
    };
    let value = match rules.pieces.kinds[kind].royal {
        true => "Royal, so not counted as material.".to_string(),
        false => value(rules, document.path.as_deref(), kind),
    };
    format!("Letter `{letter}`. {moves} {value}")
}

/// What `kind` is worth to the computer player, as the commands that play would value it: by
/// the weights file beside the rule file at `path` where there is one, else as derived from
/// the rule file.
fn value(rules: &Ruleset, path: Option<&str>, kind: usize) -> String {
    let derived = || Evaluator::new(rules).values[kind];
    match path.and_then(|path| weights::read_beside(rules, path)) {
        None => format!("Worth {} to the computer player.", derived()),
        Some(Ok(file)) => format!(
            "Worth {} to the computer player, by `{}`.",
            Evaluator::weighted(rules, &file.weights).values[kind],
            file.name()
        ),
        Some(Err(error)) => format!(
            "Worth {} to the computer player, as derived from the rule file: the weights \
             file beside it cannot be read ({error}), and the commands that play refuse it.",
            derived()
        ),
    }
}

fn zone(text: &str, name: &str) -> String {
    let Some(checked) = checked(text) else {
        return "Its squares are shown once the file has no errors.".into();
    };
    let Some(squares) = zone_squares(&checked, name) else {
        return String::new();
    };
    (checked.players.iter().zip(squares))
        .map(|(player, squares)| match squares.is_empty() {
            true => format!("- {}: no square", player.name),
            false => format!(
                "- {} ({}): {}",
                player.name,
                squares.len(),
                squares.join(" ")
            ),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn checked(text: &str) -> Option<Checked> {
    let parsed = syntax::parse_recovering(text);
    check::check(&parsed, text).checked
}

fn player(names: &Names<'_>, name: &str) -> String {
    let players = players(names);
    let Some(order) = players.iter().position(|(player, _)| *player == name) else {
        return String::new();
    };
    let forward = match players[order].1 {
        Some(forward) => format!("its pieces move forward to the {forward}"),
        None => "it has no forward direction".into(),
    };
    format!(
        "Moves {} of {}; {forward}.",
        ordinal(order + 1),
        players.len()
    )
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
