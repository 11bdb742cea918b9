//! `fairy eval`: the computer player's evaluation of a position, term by term, so that a
//! designer can see what it values and why it plays as it does.

use super::weights::FileWeights;
use fairy::ai::eval::Evaluator;
use fairy::engine::Position;
use serde_json::{Value, json};

/// The piece values, each player's terms and total, and the score for the player to move.
pub fn text(position: &Position<'_>, file: Option<&FileWeights>) -> String {
    let rules = position.rules();
    let evaluator = evaluator(position, file);
    let names = &rules.players.names;
    let terms = evaluator.terms(position, &mut Vec::new());
    let mut values: Vec<String> = (rules.pieces.kinds.iter().zip(&evaluator.values))
        .map(|(kind, &value)| match kind.royal {
            true => format!("{} royal", kind.name),
            false => format!("{} {value}", kind.name),
        })
        .collect();
    // A kind written more than once (a promoted piece that goes back to hand as another) is
    // listed once.
    let mut seen = std::collections::HashSet::new();
    values.retain(|value| seen.insert(value.clone()));
    let mut out = match file {
        Some(file) => format!("weights: {}\n", file.path),
        None => String::new(),
    };
    out += &format!("values: {}\n\n", values.join(", "));
    let width = names.iter().map(|n| n.len()).max().unwrap_or(0).max(7);
    out += &format!("{:<14}", "");
    for name in names {
        out += &format!("{name:>width$}");
    }
    out += "\n";
    let rows: Vec<_> = terms[..names.len()].iter().map(|t| t.named()).collect();
    for (row, &(label, _)) in rows[0].iter().enumerate() {
        out += &format!("{label:<14}");
        for player in &rows {
            out += &format!("{:>width$}", player[row].1);
        }
        out += "\n";
    }
    let mover = position.to_move();
    let score = evaluator.score(position, mover, &mut Vec::new());
    let name = &names[mover];
    out += &format!("\n{name} to move: {score:+}\n");
    out
}

/// The same as one JSON document.
pub fn json(position: &Position<'_>, file: Option<&FileWeights>) -> Value {
    let rules = position.rules();
    let evaluator = evaluator(position, file);
    let names = &rules.players.names;
    let terms = evaluator.terms(position, &mut Vec::new());
    let values: serde_json::Map<String, Value> = (rules.pieces.kinds.iter())
        .zip(&evaluator.values)
        .filter(|(kind, _)| !kind.royal)
        .map(|(kind, &value)| (kind.name.clone(), json!(value)))
        .collect();
    let players: Vec<Value> = (names.iter().zip(&terms))
        .map(|(name, terms)| {
            let mut row = serde_json::Map::new();
            row.insert("player".into(), json!(name));
            for (label, term) in terms.named() {
                row.insert(label.replace(' ', "_"), json!(term));
            }
            Value::Object(row)
        })
        .collect();
    let mover = position.to_move();
    json!({
        "weights": file.map(|file| &file.path),
        "values": values,
        "players": players,
        "to_move": names[mover],
        "score": evaluator.score(position, mover, &mut Vec::new()),
    })
}

/// The evaluation with the file's weights, or those derived from the rule file.
fn evaluator(position: &Position<'_>, file: Option<&FileWeights>) -> Evaluator {
    match file {
        Some(file) => Evaluator::weighted(position.rules(), &file.weights),
        None => Evaluator::new(position.rules()),
    }
}
