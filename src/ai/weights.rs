//! The evaluation's weights: the worth of each term of [`super::eval`] and the value of each
//! kind. Derived from the rule file by default; `fairy tune` fits them to a game's own
//! results and writes them as a file that the commands that play read back (`--weights`).
//!
//! The file is TOML, every entry optional (what it leaves out keeps its derived value):
//!
//! ```toml
//! [terms]
//! mobility = 7
//! shelter = 12
//!
//! [values]
//! Knight = 310
//! ```

use crate::compile::Ruleset;
use std::fmt::Write as _;

/// A weighted term of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Placement,
    Mobility,
    Promotion,
    Shelter,
    Danger,
    Checked,
    Freedom,
    Hand,
}

/// Every term, with its name in a weights file, its default and what it weighs.
pub const TERMS: [(Term, &str, i32, &str); 8] = [
    (
        Term::Placement,
        "placement",
        4,
        "each move a piece has from its square beyond its kind's average on an empty board",
    ),
    // Set by matches of chess at 100 ms a move: at 1 the term made no measurable difference,
    // at 6 it won clearly, and 4, 8 and 10 each did worse than 6 (see the README).
    (
        Term::Mobility,
        "mobility",
        6,
        "each square a piece reaches as the board stands beyond its kind's average in play",
    ),
    (
        Term::Promotion,
        "promotion",
        60,
        "hundredths of the gain of promoting counted per step nearer the zone, over (steps + 1)²",
    ),
    (
        Term::Shelter,
        "shelter",
        16,
        "each own piece shielding a royal piece while the others keep their material",
    ),
    // Each square beside the royal piece that an enemy attacks counts two units, and each
    // empty one an enemy could drop a piece on one; attacks on several of its squares at once
    // are worth more than apart. Against the player without it, at 40,000 nodes a move and
    // with 10% fewer to pay for its cost, over 200 games from a hundred openings: crazyhouse
    // +108 =0 −92, minishogi +109 =2 −89; chess, where no piece waits in hand, +29 =12 −38
    // over 79 (so it counts only where pieces wait in hand).
    (
        Term::Danger,
        "danger",
        6,
        "each unit of danger (squared, over four) around a royal piece, where pieces wait in hand",
    ),
    (
        Term::Checked,
        "checked",
        60,
        "being in check, for the player to move",
    ),
    (
        Term::Freedom,
        "freedom",
        20,
        "each move of a kind whose immobility loses",
    ),
    (
        Term::Hand,
        "hand",
        100,
        "hundredths of a kind's value it is worth in hand",
    ),
];

/// The worth of each term and each kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// In the order of [`TERMS`].
    pub terms: [i32; TERMS.len()],
    /// Each kind's value on the board, by kind; royal kinds are not valued.
    pub values: Vec<i32>,
}

/// Why a weights file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The largest worth a weight may take, so that no sum of them overflows.
pub const MAX_WEIGHT: i32 = 100_000;

impl Weights {
    /// The weights derived from the rule file: the terms' defaults and each kind's value from
    /// its reach.
    pub fn derived(rules: &Ruleset) -> Self {
        Weights::with_values(super::eval::derived_values(rules))
    }

    /// The terms' defaults with these values of the kinds.
    pub fn with_values(values: Vec<i32>) -> Self {
        Weights {
            terms: TERMS.map(|(_, _, default, _)| default),
            values,
        }
    }

    pub fn term(&self, term: Term) -> i32 {
        self.terms[term as usize]
    }

    /// The names a weights file values, each with the kinds that bear it, as bits, in the
    /// order of the kinds: a piece and the copy of it that goes back to hand as another kind
    /// (crazyhouse's promoted Queen) share a name and a value. Royal kinds are not valued.
    pub fn valued_names(rules: &Ruleset) -> Vec<(&str, u64)> {
        let mut names: Vec<(&str, u64)> = Vec::new();
        for (kind, piece) in rules.pieces.kinds.iter().enumerate() {
            if piece.royal {
                continue;
            }
            match names.iter_mut().find(|(name, _)| *name == piece.name) {
                Some((_, kinds)) => *kinds |= 1 << kind,
                None => names.push((&piece.name, 1 << kind)),
            }
        }
        names
    }

    /// The value of the kinds of one name (`kinds`, as bits), which all bear it.
    pub fn value_of(&self, kinds: u64) -> i32 {
        self.values[kinds.trailing_zeros() as usize]
    }

    /// Values every kind of `kinds` (as bits) at `worth`.
    pub fn set_value(&mut self, kinds: u64, worth: i32) {
        (0..self.values.len())
            .filter(|&kind| kinds & (1 << kind) != 0)
            .for_each(|kind| self.values[kind] = worth);
    }

    /// The derived weights with those `text` gives in their place.
    pub fn read(rules: &Ruleset, text: &str) -> Result<Self, WeightsError> {
        let table: toml::Table =
            toml::from_str(text).map_err(|e| WeightsError(e.message().to_string()))?;
        let mut weights = Weights::derived(rules);
        for (section, entries) in &table {
            let entries = entries.as_table().ok_or_else(|| {
                WeightsError(format!("`{section}` should be a table: [{section}]"))
            })?;
            for (name, worth) in entries {
                let worth = within_limit(section, name, worth)?;
                weights.set(rules, section, name, worth)?;
            }
        }
        Ok(weights)
    }

    /// Sets the weight `name` of `section` to `worth`, or says why there is none.
    fn set(
        &mut self,
        rules: &Ruleset,
        section: &str,
        name: &str,
        worth: i32,
    ) -> Result<(), WeightsError> {
        match section {
            "terms" => match TERMS.iter().position(|&(_, n, _, _)| n == name) {
                Some(index) => {
                    self.terms[index] = worth;
                    Ok(())
                }
                None => Err(WeightsError(format!(
                    "no term `{name}`; the terms are {}",
                    TERMS.map(|(_, n, _, _)| n).join(", ")
                ))),
            },
            "values" => match Weights::valued_names(rules)
                .iter()
                .find(|(n, _)| *n == name)
            {
                Some(&(_, kinds)) => {
                    self.set_value(kinds, worth);
                    Ok(())
                }
                None => Err(WeightsError(format!(
                    "no piece `{name}` to value in {} (royal pieces have no value)",
                    rules.name
                ))),
            },
            _ => Err(WeightsError(format!(
                "no section [{section}]; a weights file has [terms] and [values]"
            ))),
        }
    }

    /// The weights as a file [`Weights::read`] reads back, with `header` as its first
    /// comment lines.
    pub fn write(&self, rules: &Ruleset, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "# {line}");
        }
        out += "\n[terms]\n";
        for (index, (_, name, _, meaning)) in TERMS.iter().enumerate() {
            let _ = writeln!(out, "{name} = {}  # {meaning}", self.terms[index]);
        }
        out += "\n[values]\n";
        for (name, kinds) in Weights::valued_names(rules) {
            let _ = writeln!(out, "{} = {}", toml_key(name), self.value_of(kinds));
        }
        out
    }
}

/// A worth from a weights file: a whole number within [`MAX_WEIGHT`] either way.
fn within_limit(section: &str, name: &str, worth: &toml::Value) -> Result<i32, WeightsError> {
    match worth.as_integer() {
        Some(n) if n.abs() <= i64::from(MAX_WEIGHT) => Ok(n as i32),
        Some(_) => Err(WeightsError(format!(
            "[{section}] {name}: a weight is at most {MAX_WEIGHT} either way"
        ))),
        None => Err(WeightsError(format!(
            "[{section}] {name}: a weight is a whole number"
        ))),
    }
}

/// A piece's name as a TOML key: bare where it can be, quoted otherwise.
fn toml_key(name: &str) -> String {
    let bare = !name.is_empty()
        && (name.chars()).all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    match bare {
        true => name.to_string(),
        false => toml::Value::String(name.to_string()).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compiled;

    fn chess() -> Ruleset {
        compiled(include_str!("../../rules/chess.rules"))
    }

    #[test]
    fn written_weights_read_back_the_same() {
        let rules = chess();
        let mut weights = Weights::derived(&rules);
        weights.terms[Term::Mobility as usize] = 9;
        weights.values[1] += 17;
        let text = weights.write(&rules, "fitted by a test");
        assert!(text.starts_with("# fitted by a test\n"));
        assert_eq!(Weights::read(&rules, &text), Ok(weights));
    }

    /// Crazyhouse's promoted pieces are kinds of their own with the names of the pieces
    /// they were: the file values a name once, for every kind that bears it.
    #[test]
    fn kinds_of_one_name_share_one_value() {
        let rules = compiled(include_str!("../../rules/crazyhouse.rules"));
        let queens = (rules.pieces.kinds.iter())
            .filter(|k| k.name == "Queen")
            .count();
        assert!(queens > 1);
        let text = Weights::derived(&rules).write(&rules, "");
        assert_eq!(text.matches("\nQueen = ").count(), 1);
        let read = Weights::read(&rules, "[values]\nQueen = 800\n").unwrap();
        let valued = (rules.pieces.kinds.iter().zip(&read.values))
            .filter(|(k, _)| k.name == "Queen")
            .map(|(_, &v)| v);
        assert_eq!(valued.collect::<Vec<_>>(), vec![800; queens]);
        assert_eq!(Weights::read(&rules, &read.write(&rules, "")), Ok(read));
    }

    #[test]
    fn a_file_sets_only_what_it_names() {
        let rules = chess();
        let read = Weights::read(&rules, "[terms]\nshelter = 3\n").unwrap();
        let mut expected = Weights::derived(&rules);
        expected.terms[Term::Shelter as usize] = 3;
        assert_eq!(read, expected);
    }

    #[test]
    fn unknown_names_and_bad_worths_are_refused_with_a_reason() {
        let rules = chess();
        let refused = |text: &str| Weights::read(&rules, text).unwrap_err().0;
        assert!(refused("[terms]\nspeed = 1\n").contains("no term `speed`; the terms are"));
        assert!(refused("[values]\nKing = 5\n").contains("royal pieces have no value"));
        assert!(refused("[values]\nDragon = 5\n").contains("no piece `Dragon`"));
        assert!(refused("[extra]\na = 1\n").contains("no section [extra]"));
        assert!(refused("[terms]\nmobility = 1.5\n").contains("a whole number"));
        assert!(refused("[terms]\nmobility = 100001\n").contains("at most 100000"));
        assert!(refused("terms = 1\n").contains("should be a table"));
        assert!(!refused("[terms\n").is_empty());
    }
}
