//! The paragraph on each keyword, taken from the README's "Every keyword" section when fairy is
//! built, so that the README and the editor say the same.

const README: &str = include_str!("../../../README.md");

const SECTION: &str = "### Every keyword";

pub struct Entry {
    pub text: String,
    pub example: String,
}

/// The README's entry on `keyword`.
pub fn entry(keyword: &str) -> Option<Entry> {
    let start = format!("- **`{keyword}`**: ");
    entries().find_map(|item| {
        let body = item.strip_prefix(&start)?;
        let (text, example) = body.rsplit_once(" Example: ")?;
        Some(Entry {
            text: text.to_string(),
            example: example.trim_matches('`').to_string(),
        })
    })
}

/// The section's items, each joined onto one line.
fn entries() -> impl Iterator<Item = String> {
    let section = README.split_once(SECTION).map_or("", |(_, rest)| rest);
    let section = section.split("\n#").next().unwrap_or_default();
    let mut items: Vec<String> = Vec::new();
    for line in section.lines() {
        match (line.strip_prefix("  "), items.last_mut()) {
            (Some(more), Some(item)) => {
                item.push(' ');
                item.push_str(more.trim());
            }
            _ if line.starts_with("- **`") => items.push(line.to_string()),
            _ => {}
        }
    }
    items.into_iter()
}

/// Every keyword the README explains.
pub fn keywords() -> Vec<String> {
    (entries())
        .filter_map(|item| {
            let rest = item.strip_prefix("- **`")?;
            Some(rest.split('`').next()?.to_string())
        })
        .collect()
}
