//! `--json`: what `check`, `show`, `moves` and `perft` print, as one JSON document for editors
//! and tools. The shapes are documented in the README.

use fairy::compile::NO_SQUARE;
use fairy::diagnostic::{Problem, line_and_column};
use fairy::engine::Position;
use fairy::engine::outcome::Ending;
use fairy::notation::{checking_pieces, fen, square_text};
use fairy::pipeline::Loaded;
use serde_json::{Value, json};

/// A file's verdict: its summary if valid, the estimate of its cost if it can be played, and
/// every problem located by line and column.
pub fn check_verdict(file: &str, text: &str, loaded: &Loaded) -> Value {
    let cost = loaded
        .cost
        .map(|cost| json!({ "turns": cost.turns, "replies": cost.replies }));
    let not_run: Vec<Value> = (loaded.not_run().into_iter())
        .map(|(span, rule)| {
            let (line, column) = line_and_column(text, span.start);
            json!({ "rule": rule, "line": line, "column": column })
        })
        .collect();
    json!({
        "file": file,
        "valid": loaded.is_valid(),
        "playable": loaded.rules.is_some(),
        "not_run": not_run,
        "summary": loaded.summary.as_ref().map(|s| s.to_string()),
        "cost": cost,
        "problems": loaded.problems.iter().map(|p| problem(text, p)).collect::<Vec<_>>(),
    })
}

/// A file that could not be read or is not text.
pub fn unreadable(file: &str, message: &str) -> Value {
    json!({ "file": file, "valid": false, "playable": false, "not_run": [], "summary": null, "cost": null, "error": message, "problems": [] })
}

fn problem(text: &str, problem: &Problem) -> Value {
    let (line, column) = line_and_column(text, problem.span.start);
    let (end_line, end_column) = line_and_column(text, problem.span.end);
    let notes: Vec<Value> = problem
        .notes
        .iter()
        .map(|(span, note)| {
            let (line, column) = line_and_column(text, span.start);
            json!({ "line": line, "column": column, "message": note })
        })
        .collect();
    json!({
        "severity": if problem.is_error() { "error" } else { "warning" },
        "code": problem.code.as_str(),
        "message": problem.message,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "label": problem.label,
        "help": problem.help,
        "notes": notes,
    })
}

/// The position as `show` draws it: the board by ranks from the top, whose turn, the result,
/// check, players out, hands and the position's text.
pub fn position(position: &mut Position<'_>) -> Value {
    let rules = position.rules();
    let names = &rules.players.names;
    let geometry = &rules.geometry;
    let board: Vec<Vec<Value>> = (0..geometry.height as i32)
        .rev()
        .map(|rank| {
            (0..geometry.width as i32)
                .map(|file| match geometry.at(file, rank) {
                    NO_SQUARE => Value::Null,
                    sq => json!(square_text(position, sq)),
                })
                .collect()
        })
        .collect();
    let result = position.ending().map(|ending| {
        json!({
            "outcome": if matches!(ending, Ending::Win { .. }) { "win" } else { "draw" },
            "players": named(names, ending.players()),
            "cause": ending.cause().to_string(),
            "text": ending.describe(names),
        })
    });
    let checks: Vec<Value> = checking_pieces(position)
        .into_iter()
        .map(|(piece, sq)| json!({ "piece": piece, "square": geometry.name(sq) }))
        .collect();
    let hands: serde_json::Map<String, Value> = names
        .iter()
        .enumerate()
        .map(|(player, name)| {
            let held: serde_json::Map<String, Value> = rules
                .pieces
                .kinds
                .iter()
                .enumerate()
                .map(|(kind, info)| (info, position.in_hand(player, kind)))
                .filter(|&(_, n)| n > 0)
                .map(|(info, n)| (info.name.clone(), json!(n)))
                .collect();
            (name.clone(), Value::Object(held))
        })
        .collect();
    json!({
        "game": rules.name,
        "board": board,
        "to_move": names[position.to_move()],
        "phase": position.current_phase().map(|phase| phase.name.clone()),
        "result": result,
        "check": checks,
        "out": named(names, !position.alive() & ((1u32 << names.len()) - 1)),
        "hands": hands,
        "fen": fen::write(position),
    })
}

/// The names of the players whose bits are set.
fn named(names: &[String], players: u32) -> Vec<&str> {
    names
        .iter()
        .enumerate()
        .filter(|(p, _)| players & (1 << p) != 0)
        .map(|(_, n)| n.as_str())
        .collect()
}

/// Pretty-printed, with a final newline.
pub fn text(value: &Value) -> String {
    format!(
        "{}\n",
        serde_json::to_string_pretty(value).expect("plain data")
    )
}
