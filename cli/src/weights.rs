//! Which evaluation weights the commands that play or evaluate use: a file given with
//! `--weights`, else the file `fairy tune` would write beside the rule file (`GAME.weights`
//! beside `GAME.rules`) where there is one, else the weights derived from the rule file.

use super::{Reported, complain, read_text};
use clap::Args;
use fairy::ai::weights::Weights;
use fairy::compile::Ruleset;
use fairy::source::{self, LoadError};
use std::path::Path;

/// What a weights file is called in the messages about reading one.
const WEIGHTS_FILE: &str = "weights file";

#[derive(Args, Clone, Default)]
pub struct WeightsArg {
    /// The computer player's evaluation weights, from a file `fairy tune` wrote for this game.
    /// Without it, GAME.weights beside the rule file GAME.rules is read where there is one.
    #[arg(long = "weights", value_name = "FILE")]
    pub path: Option<String>,
    /// Evaluate with the weights derived from the rule file, even where a weights file sits
    /// beside it.
    #[arg(long, conflicts_with = "path")]
    pub derived_weights: bool,
}

/// Weights read from a file, and its path.
pub struct FileWeights {
    pub weights: Weights,
    pub path: String,
}

impl FileWeights {
    /// The file's name, without its folder: how the editor and the studio name it.
    pub fn name(&self) -> String {
        let name = Path::new(&self.path).file_name();
        name.map_or(self.path.clone(), |name| {
            name.to_string_lossy().into_owned()
        })
    }
}

impl WeightsArg {
    /// The weights for `rules`, read from the file `rules_path`; `None` for those derived
    /// from the rule file.
    pub fn load(&self, rules: &Ruleset, rules_path: &str) -> Result<Option<Weights>, Reported> {
        Ok(self.choose(rules, rules_path)?.map(|file| file.weights))
    }

    /// The weights file for `rules` and what it holds; `None` for the derived weights.
    pub fn choose(
        &self,
        rules: &Ruleset,
        rules_path: &str,
    ) -> Result<Option<FileWeights>, Reported> {
        let file = match (&self.path, self.derived_weights) {
            (Some(path), _) => Some(path.clone()),
            (None, true) => None,
            (None, false) => beside(rules_path),
        };
        let Some(path) = file else {
            return Ok(None);
        };
        let source = read_text(&path, WEIGHTS_FILE)?;
        match Weights::read(rules, &source.text) {
            Ok(weights) => Ok(Some(FileWeights { weights, path })),
            Err(error) => {
                complain!("error: {path}: {error}");
                Err(Reported::Invalid)
            }
        }
    }
}

/// The weights file beside the rule file at `rules_path` and what it holds, where there is
/// one; where it cannot be read or does not fit `rules`, why, in words.
/// Read as `--weights` reads one: within the size limit, a byte-order mark dropped.
pub fn read_beside(rules: &Ruleset, rules_path: &str) -> Option<Result<FileWeights, String>> {
    let path = beside(rules_path)?;
    let text = match source::load_as(&path, WEIGHTS_FILE) {
        Ok(source) => source.text,
        Err(LoadError::Unreadable(message)) => return Some(Err(message)),
        Err(LoadError::NotText(_)) => return Some(Err(format!("{path}: not UTF-8 text"))),
    };
    let weights = Weights::read(rules, &text).map_err(|error| error.to_string());
    Some(weights.map(|weights| FileWeights { weights, path }))
}

/// The weights file beside a rule file, where there is one: `GAME.weights` for `GAME.rules`.
fn beside(rules_path: &str) -> Option<String> {
    if rules_path == "-" {
        return None;
    }
    let path = Path::new(rules_path).with_extension("weights");
    path.is_file().then(|| path.to_string_lossy().into_owned())
}
