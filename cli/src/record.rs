//! Game records: what `play --record` writes, and `--moves @FILE` reads back.

use super::{Reported, complain, read_text};
use std::fs::File;
use std::io::Write;

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

/// The file a game's record goes to, created before the game starts: a path that cannot be
/// written then costs no game.
pub struct RecordFile {
    path: String,
    file: File,
}

impl RecordFile {
    pub fn create(path: &str) -> Result<RecordFile, Reported> {
        match File::create(path) {
            Ok(file) => Ok(RecordFile {
                path: path.to_string(),
                file,
            }),
            Err(e) => {
                complain!("error: --record: cannot create {path}: {e}");
                Err(Reported::Invalid)
            }
        }
    }

    /// Writes the record: the rule file, the position the game started from, its result and
    /// its moves.
    pub fn write(
        mut self,
        rules: &str,
        start: &str,
        result: &str,
        moves: &[&str],
    ) -> Result<(), Reported> {
        let text = format!(
            "# fairy game record\n# rules: {rules}\n# start: {start}\n# result: {result}\n{}\n",
            moves.join(" ")
        );
        self.file.write_all(text.as_bytes()).map_err(|e| {
            complain!("error: cannot write {}: {e}", self.path);
            Reported::Invalid
        })
    }
}
