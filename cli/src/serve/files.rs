//! The rule files the studio may open and save: those in the folders it was given, named by
//! the folder's number and the file's name (`0/chess.rules`), so that no request can name a
//! file anywhere else.

use super::Failure;
use super::api::fields;
use crate::weights::{FileWeights, read_beside};
use fairy::compile::Ruleset;
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub struct Folders {
    /// Each folder as the command line named it, and where it is.
    folders: Vec<(String, PathBuf)>,
    /// The file to open first, if one was given.
    first: Option<String>,
}

/// The longest file name the studio saves.
const MAX_NAME: usize = 100;

impl Folders {
    /// The folders of the files and folders given; the `rules` folder here if none are.
    pub fn of(given: &[String]) -> Result<Folders, String> {
        let given: Vec<String> = match given.is_empty() {
            true if Path::new("rules").is_dir() => vec!["rules".to_string()],
            true => {
                return Err(
                    "name rule files or folders to serve: there is no rules folder here"
                        .to_string(),
                );
            }
            false => given.to_vec(),
        };
        let mut folders = Folders {
            folders: Vec::new(),
            first: None,
        };
        for name in &given {
            let path = Path::new(name);
            let (folder, file) = match path.is_dir() {
                true => (path, None),
                false if path.is_file() && is_rule_file_name(&file_name(path)) => {
                    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
                    (parent.unwrap_or(Path::new(".")), Some(file_name(path)))
                }
                false => {
                    return Err(format!(
                        "{name} is neither a folder nor a rule file (a file named *.rules)"
                    ));
                }
            };
            let index = folders.add(folder)?;
            if let (None, Some(file)) = (&folders.first, file) {
                folders.first = Some(format!("{index}/{file}"));
            }
        }
        Ok(folders)
    }

    /// Adds a folder unless it is there already; its number either way.
    fn add(&mut self, folder: &Path) -> Result<usize, String> {
        let place = folder
            .canonicalize()
            .map_err(|error| format!("cannot read the folder {}: {error}", folder.display()))?;
        if let Some(index) = self.folders.iter().position(|(_, p)| *p == place) {
            return Ok(index);
        }
        self.folders.push((folder.display().to_string(), place));
        Ok(self.folders.len() - 1)
    }

    /// `GET /api/files`: every rule file of the folders, and the one to open first.
    pub fn listing(&self) -> Value {
        let mut files = Vec::new();
        for (index, (label, place)) in self.folders.iter().enumerate() {
            let mut names: Vec<String> = std::fs::read_dir(place)
                .into_iter()
                .flatten()
                .flatten()
                .map(|entry| file_name(&entry.path()))
                .filter(|name| is_rule_file_name(name))
                .collect();
            names.sort();
            files.extend(names.into_iter().map(
                |name| json!({ "path": format!("{index}/{name}"), "folder": label, "name": name }),
            ));
        }
        let first = self.first.clone().or_else(|| {
            let path = |file: &Value| file["path"].as_str().map(str::to_string);
            let chess = files.iter().find(|file| file["name"] == "chess.rules");
            chess.or(files.first()).and_then(path)
        });
        json!({ "files": files, "open": first })
    }

    /// `GET /api/file/N/NAME`: the text of a rule file.
    pub fn read(&self, path: &str) -> Result<Value, Failure> {
        let place = self.place(path)?;
        let text = std::fs::read_to_string(&place).map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => Failure::not_found(format!("there is no file {path}")),
            _ => Failure::invalid(format!("cannot read {path}: {error}")),
        })?;
        Ok(json!({ "path": path, "text": text }))
    }

    /// `PUT /api/file/N/NAME {text}`: writes a rule file, new or not.
    pub fn write(&self, path: &str, body: &Value) -> Result<Value, Failure> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Save {
            text: String,
        }
        let save: Save = fields(body)?;
        let place = self.place(path)?;
        std::fs::write(&place, save.text)
            .map_err(|error| Failure::invalid(format!("cannot write {path}: {error}")))?;
        Ok(json!({ "path": path, "saved": true }))
    }

    /// The weights the computer player evaluates `rules` with, where they come from the file
    /// `path` (as `/api/files` names it; none for a file not saved yet): those of the weights
    /// file beside it where there is one, as the commands that play read it, else none (the
    /// weights derived from the rules); where that file cannot be read, why.
    pub fn weights_beside(
        &self,
        path: Option<&str>,
        rules: &Ruleset,
    ) -> Result<Option<FileWeights>, Failure> {
        let Some(path) = path else {
            return Ok(None);
        };
        let place = self.place(path)?;
        match read_beside(rules, &place.to_string_lossy()) {
            None => Ok(None),
            Some(Ok(file)) => Ok(Some(file)),
            Some(Err(error)) => Err(Failure::invalid(format!(
                "the weights file beside {path} cannot be read: {error}"
            ))),
        }
    }

    /// Where `N/NAME` is on disk: a rule file directly in folder N, and nowhere else.
    fn place(&self, path: &str) -> Result<PathBuf, Failure> {
        let usage = || {
            Failure::bad(format!(
                "a file is named N/NAME.rules, N a folder's number in /api/files and NAME of \
                 letters, digits, '-', '_' and '.', not {path:?}"
            ))
        };
        let (index, name) = path.split_once('/').ok_or_else(usage)?;
        let index: usize = index.parse().map_err(|_| usage())?;
        if !is_rule_file_name(name) {
            return Err(usage());
        }
        let (_, folder) = (self.folders.get(index))
            .ok_or_else(|| Failure::not_found(format!("there is no folder {index}")))?;
        let place = folder.join(name);
        // A link may lead out of the folder, now or once its target is made: none is served.
        if place
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
        {
            return Err(Failure::not_found(format!(
                "{path} is a link: the studio serves only the files in its folders"
            )));
        }
        Ok(place)
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A name the studio opens and saves: `NAME.rules`, plain characters, not hidden.
fn is_rule_file_name(name: &str) -> bool {
    name.len() <= MAX_NAME
        && name.len() > ".rules".len()
        && name.ends_with(".rules")
        && !name.starts_with('.')
        && (name.bytes()).all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}
