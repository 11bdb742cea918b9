//! Turns as the engine protocols write them, UCI and XBoard (CECP): the one place where fairy's
//! notation meets theirs. fairy's coordinate text is already theirs for a move (`e2e4`, and
//! `e2e10` on boards beyond nine ranks), a promotion (`e7e8q`, or `b8b9+` to a shogi-style
//! promoted piece), a drop (`P@e4`) and castling (the royal piece's move); only a pass differs.
//! XBoard numbers the ranks of a ten-rank board from 0 (xiangqi's `h0e0`). The protocols carry
//! one move per turn and two players, so games outside that are not offered.

use super::moves;
use crate::compile::Ruleset;
use crate::compile::turns::{Action, Plan};
use crate::engine::{PartKind, Position, Turn};

/// Which protocol's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Xboard,
}

impl Dialect {
    /// How the protocol writes a pass (a null move).
    fn pass(self) -> &'static str {
        match self {
            Dialect::Uci => "0000",
            Dialect::Xboard => "@@@@",
        }
    }
}

/// Why the protocols cannot carry this game's turns, if they cannot: a protocol move is one
/// move, drop or pass between two players.
pub fn unspeakable(rules: &Ruleset) -> Option<&'static str> {
    if rules.players.count() != 2 {
        return Some("the protocols know two players only");
    }
    if !rules.turns.triggers.is_empty() {
        return Some("a trigger adds a part (a removal) to the turn that sets it off");
    }
    match all_plans(rules).all(one_part) {
        true => None,
        false => Some("a protocol move is one move or drop, and its turns have several parts"),
    }
}

/// The plans of every phase's turns.
fn all_plans(rules: &Ruleset) -> impl Iterator<Item = &Plan> {
    rules.turns.phases.iter().flat_map(|phase| {
        let periodic = phase.periodic.iter().flat_map(|(_, plans)| plans);
        phase.ordinary.iter().chain(periodic)
    })
}

/// Whether every turn of `plan` is one move, drop or pass.
fn one_part(plan: &Plan) -> bool {
    match &plan.steps[..] {
        [step] => matches!(
            step.action,
            Action::Move { .. } | Action::Drop { .. } | Action::Pass
        ),
        _ => false,
    }
}

/// The protocol's text of `turn`, a turn of a game of `rules`.
pub fn write(rules: &Ruleset, turn: &Turn, dialect: Dialect) -> String {
    match turn.main().kind {
        PartKind::Pass => dialect.pass().to_string(),
        _ if ranks_from_zero(rules, dialect) => shift_ranks(&moves::text(rules, turn), -1),
        _ => moves::text(rules, turn),
    }
}

/// Whether the protocol numbers this board's ranks from 0: XBoard does on boards of exactly
/// ten ranks (xiangqi's `h0e0`), and from 1 on all others.
fn ranks_from_zero(rules: &Ruleset, dialect: Dialect) -> bool {
    dialect == Dialect::Xboard && rules.geometry.height == 10
}

/// `text` with every square's rank number moved by `by` (`e9e10` by -1 is `e8e9`).
fn shift_ranks(text: &str, by: i64) -> String {
    let mut shifted = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        shifted.push(c);
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if c.is_ascii_lowercase() && digits > 0 {
            let rank: i64 = rest[..digits].parse().unwrap_or(0);
            shifted.push_str(&(rank + by).to_string());
            rest = &rest[digits..];
        }
    }
    shifted
}

/// Reads a protocol move of the player to move, which must be legal. A promotion's letter may
/// come in either case (`e7e8Q`), as some interfaces send it, and XBoard's `h8b2=` (not
/// promoting) is `h8b2`.
pub fn read(position: &mut Position<'_>, text: &str, dialect: Dialect) -> Result<Turn, String> {
    if text == dialect.pass() {
        return moves::read(position, "pass");
    }
    // XBoard writes a shogi move that declines to promote with `=`.
    let text = match dialect {
        Dialect::Xboard => text.strip_suffix('=').unwrap_or(text),
        Dialect::Uci => text,
    };
    let shifted;
    let text = match ranks_from_zero(position.rules(), dialect) {
        true => {
            shifted = shift_ranks(text, 1);
            shifted.as_str()
        }
        false => text,
    };
    let fairy_text = match text.char_indices().last() {
        Some((at, last)) if last.is_ascii_uppercase() && !text.contains('@') => {
            format!("{}{}", &text[..at], last.to_ascii_lowercase())
        }
        _ => text.to_string(),
    };
    moves::read(position, &fairy_text)
}

/// The variants XBoard knows by name, with their own board, pieces and rules: a rule file of
/// that name is offered under it, and fairy sends no `setup`.
const XBOARD_KNOWS: &[&str] = &[
    "normal",
    "nocastle",
    "fischerandom",
    "crazyhouse",
    "bughouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "atomic",
    "3check",
    "shatranj",
    "courier",
    "capablanca",
    "gothic",
    "janus",
    "caparandom",
    "falcon",
    "berolina",
    "knightmate",
    "xiangqi",
    "shogi",
    "makruk",
    "seirawan",
    "spartan",
    "asean",
    "grand",
];

/// The name XBoard gives the game of the rule file named `name`: chess is `normal`.
pub fn xboard_variant_name(name: &str) -> &str {
    match name {
        "chess" => "normal",
        name => name,
    }
}

/// The `setup` command that tells XBoard the board, the hands and the start position of a game
/// it does not know by name, and a `piece` command per kind with its moves in Betza's notation
/// where they can be said, each line ended; `None` for a game XBoard knows.
pub fn xboard_setup(name: &str, rules: &Ruleset) -> Option<String> {
    let known = xboard_variant_name(name);
    if XBOARD_KNOWS.contains(&known) {
        return None;
    }
    let geometry = &rules.geometry;
    let kinds = &rules.pieces.kinds;
    let hand =
        match all_plans(rules).any(|plan| matches!(plan.steps[0].action, Action::Drop { .. })) {
            true => kinds.iter().filter(|k| !k.promoted && !k.royal).count(),
            false => 0,
        };
    // XBoard's rules for hands and promotion come from the game named after the `_`.
    let parent = match (kinds.iter().any(|k| k.letter.starts_with('+')), hand > 0) {
        (true, _) => "shogi",
        (false, true) => "crazyhouse",
        (false, false) => "fairy",
    };
    let start = crate::engine::Position::start(rules);
    let mut text = format!(
        "setup ({}) {}x{}+{hand}_{parent} {}\n",
        piece_to_char(rules),
        geometry.width,
        geometry.height,
        super::fen::write(&start)
    );
    for (kind, piece) in kinds.iter().enumerate() {
        if let Some(moves) = super::betza::betza(rules, kind) {
            text.push_str(&format!("piece {}& {moves}\n", piece.letter));
        }
    }
    Some(text)
}

/// XBoard's pieces in the order of its piece-to-char table: a letter per kind it knows, the
/// promoted form of each of the first eleven eleven places on, the king last.
const XBOARD_SLOTS: usize = 22;
const XBOARD_KING: usize = XBOARD_SLOTS - 1;
const XBOARD_PROMOTED: usize = 11;
/// Each letter's slot: XBoard's own letters, then the shogi pieces' places in its shogi table
/// (a Silver where the Ferz is, a Gold where the Wazir is, a Lance where the Queen is).
const XBOARD_LETTERS: &[(&str, usize)] = &[
    ("P", 0),
    ("N", 1),
    ("B", 2),
    ("R", 3),
    ("Q", 4),
    ("F", 5),
    ("E", 6),
    ("A", 7),
    ("C", 8),
    ("W", 9),
    ("M", 10),
    ("S", 5),
    ("G", 9),
    ("L", 4),
];

/// The piece-to-char table: each kind in the slot of its letter where XBoard has one (a Knight
/// in the Knight's), the royal kind in the King's, the others in free slots, a promoted kind
/// eleven slots after its unpromoted form, written `+`; the second player's in lower case.
fn piece_to_char(rules: &Ruleset) -> String {
    let kinds = &rules.pieces.kinds;
    let mut slots: Vec<Option<String>> = vec![None; XBOARD_SLOTS];
    let plain = kinds.iter().filter(|k| !k.promoted);
    for kind in plain.clone().filter(|k| k.royal) {
        slots[XBOARD_KING].get_or_insert_with(|| kind.letter.clone());
    }
    let mut placed: Vec<(&str, usize)> = Vec::new();
    let mut others = Vec::new();
    for kind in plain.filter(|k| !k.royal) {
        let own = XBOARD_LETTERS
            .iter()
            .filter(|(letter, _)| *letter == kind.letter);
        match own
            .map(|&(_, slot)| slot)
            .find(|&slot| slots[slot].is_none())
        {
            Some(slot) => {
                slots[slot] = Some(kind.letter.clone());
                placed.push((&kind.letter, slot));
            }
            None => others.push(kind),
        }
    }
    // The Pawn's slot last: XBoard moves a piece there as a Pawn where no `piece` says how.
    for kind in others {
        let free = (1..XBOARD_KING).chain([0]).find(|&i| slots[i].is_none());
        if let Some(slot) = free {
            slots[slot] = Some(kind.letter.clone());
            placed.push((&kind.letter, slot));
        }
    }
    for kind in kinds.iter().filter(|k| k.promoted) {
        let base = kind.letter.trim_start_matches('+');
        let slot = placed.iter().find(|(letter, _)| *letter == base);
        if let Some(&(_, slot)) = slot.filter(|(_, slot)| *slot < XBOARD_PROMOTED) {
            slots[slot + XBOARD_PROMOTED].get_or_insert_with(|| "+".to_string());
        }
    }
    let white: String = slots.iter().map(|s| s.as_deref().unwrap_or(".")).collect();
    format!("{white}{}", white.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_move_in_every_square_and_nowhere_else() {
        assert_eq!(shift_ranks("h1g3", -1), "h0g2");
        assert_eq!(shift_ranks("e9e10q", -1), "e8e9q");
        assert_eq!(shift_ranks("P@e10", -1), "P@e9");
        assert_eq!(shift_ranks("h0e0", 1), "h1e1");
        assert_eq!(shift_ranks("b8b9+", 1), "b9b10+");
    }
}
