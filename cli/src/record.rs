//! Game records: what `play --record` writes, and `--moves @FILE` reads back.

use super::{Reported, complain, read_text};

/// A game record as read.
pub struct Record {
    /// The position of its `# start:` line, if it has one.
    pub start: Option<String>,
    /// Its moves: the lines that are not comments (`#`), joined by spaces.
    pub moves: String,
}

/// Reads the game record at `path`, held to the limits of a rule file.
pub fn read(path: &str) -> Result<Record, Reported> {
    let source = read_text(path, "game record")?;
    let mut start = None;
    let mut moves = Vec::new();
    for line in source.text.lines() {
        let Some(comment) = line.trim_start().strip_prefix('#') else {
            moves.push(line);
            continue;
        };
        let Some(position) = comment.trim_start().strip_prefix("start:") else {
            continue;
        };
        if start.replace(position.trim().to_string()).is_some() {
            complain!("error: {path}: a game record has one `# start:` line, and this has more");
            return Err(Reported::Invalid);
        }
    }
    Ok(Record {
        start,
        moves: moves.join(" "),
    })
}

/// The text of a game's record: the rule file, the position it started from, its result and
/// its moves.
pub fn text(rules: &str, start: &str, result: &str, moves: &[&str]) -> String {
    format!(
        "# fairy game record\n# rules: {rules}\n# start: {start}\n# result: {result}\n{}\n",
        moves.join(" ")
    )
}
