//! What may come next at a place in a rule file, from the grammar itself: the item around the
//! place is parsed up to it, and the rules the parser would have tried there are read off its
//! error. Editors complete from this.

use super::build::DIRECTION_WORDS;
use super::{Rule, RulesParser, describe_rule, is_token, item_chunks};
use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};

/// What the grammar allows at a place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    /// Keywords and direction words.
    pub words: Vec<&'static str>,
    /// A name of the file's own (piece, zone, player, counter, phase or tag).
    pub name: bool,
    /// A square of the board.
    pub square: bool,
}

/// The words that start a top-level item.
const ITEM_KEYWORDS: [&str; 16] = [
    "game", "board", "player", "zone", "piece", "capture", "forbid", "counter", "turn", "phase",
    "on", "win", "lose", "draw", "setup", "test",
];

/// What may stand at the end of `before`, the text up to the place (without the word being
/// typed there); `None` where the item is wrong before the place, so the grammar cannot tell.
pub fn expected_after(before: &str) -> Option<Expected> {
    let item_start = item_chunks(before).last().map_or(0, |&(start, _)| start);
    let item = &before[item_start..];
    let error = match RulesParser::parse(Rule::file, item) {
        // A whole item: another may follow, or the item may go on.
        Ok(_) => return Some(next_item()),
        Err(error) => error,
    };
    let at = match error.location {
        InputLocation::Pos(at) | InputLocation::Span((at, _)) => at,
    };
    if !item[at..].trim().is_empty() {
        return None;
    }
    let ErrorVariant::ParsingError { positives, .. } = error.variant else {
        return None;
    };
    let mut expected = Expected::default();
    for rule in positives {
        add_rule(&mut expected, rule);
    }
    expected.words.sort_unstable();
    expected.words.dedup();
    Some(expected)
}

fn next_item() -> Expected {
    Expected {
        words: ITEM_KEYWORDS.to_vec(),
        ..Expected::default()
    }
}

fn add_rule(expected: &mut Expected, rule: Rule) {
    match rule {
        Rule::EOI | Rule::item | Rule::file => expected.words.extend(next_item().words),
        Rule::name | Rule::zone_ref | Rule::removal_group | Rule::hand_item => expected.name = true,
        Rule::square | Rule::square_item => expected.square = true,
        Rule::direction | Rule::directions => {
            expected
                .words
                .extend(DIRECTION_WORDS.iter().map(|(word, _)| *word));
        }
        Rule::zone_expr | Rule::zone_and | Rule::zone_not => {
            let starts = ["rank", "ranks", "file", "files", "next-to", "any", "not"];
            expected.words.extend(starts);
            expected.name = true;
        }
        Rule::move_rule => {
            let atoms = [
                "move", "capture", "step", "slide", "leap", "ride", "hop", "anywhere",
            ];
            expected
                .words
                .extend(atoms.into_iter().chain(["betza", "like"]));
        }
        _ if is_token(rule) && format!("{rule:?}").starts_with("p_") => {}
        _ => add_quoted(expected, describe_rule(rule)),
    }
}

/// The first word of each phrase a rule's description quotes: "`move`/`capture`" gives both,
/// "`fewer than N PIECE…`" gives `fewer`, and "`PIECE extinct`" a name.
fn add_quoted(expected: &mut Expected, description: &'static str) {
    let phrases = description.split('`').skip(1).step_by(2);
    for first in phrases.filter_map(|phrase| phrase.split_whitespace().next()) {
        if first.chars().all(|c| c.is_ascii_uppercase() || c == '…') {
            expected.name = true;
        } else if first.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
            expected.words.push(first);
        }
    }
}

/// Whether a word is one of the direction words.
pub fn is_direction(word: &str) -> bool {
    DIRECTION_WORDS
        .iter()
        .any(|(direction, _)| *direction == word)
}
