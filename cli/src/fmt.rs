//! `fairy fmt`: rewrites rule files in the canonical layout (see `fairy::syntax::format`).

use crate::{Reported, complain, emit, read_text, report_problems};
use fairy::syntax::format::format;

#[derive(clap::Args)]
pub struct FmtArgs {
    /// Rule files to format in place; `-` formats standard input to standard output.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// Change nothing: list the files that are not in the canonical layout, and fail if any is.
    #[arg(long)]
    check: bool,
}

pub fn run(args: &FmtArgs) -> Result<(), Reported> {
    let mut worst = Ok(());
    for path in &args.files {
        if let Err(reported) = format_file(path, args.check) {
            worst = Err(reported);
        }
    }
    worst
}

fn format_file(path: &str, check: bool) -> Result<(), Reported> {
    let source = read_text(path, "rule file")?;
    let formatted = match format(&source.text) {
        Ok(formatted) => formatted,
        Err(problems) => {
            report_problems(&source, problems);
            complain!(
                "error: {}: not formatted, as it does not parse",
                source.name
            );
            return Err(Reported::Invalid);
        }
    };
    let changed = formatted != source.text;
    match (path, check) {
        ("-", false) => emit(&formatted),
        (_, true) if changed => {
            emit(&format!("{}: not in the canonical layout\n", source.name));
            return Err(Reported::Invalid);
        }
        (_, true) => {}
        (_, false) if changed => std::fs::write(path, formatted).map_err(|error| {
            complain!("error: {path}: cannot write: {error}");
            Reported::Invalid
        })?,
        (_, false) => {}
    }
    Ok(())
}
