//! Did-you-mean: the known name a near miss most likely meant.

/// The candidate most like `word`, if any is close enough to be a likely typo.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    // Longer words are not typos worth suggesting, and would make the comparison slow.
    const LONGEST: usize = 64;
    let length = word.chars().count();
    if length > LONGEST {
        return None;
    }
    let limit = (length / 3).max(1);
    candidates
        .filter(|c| c.len() <= LONGEST * 4 && c.chars().count().abs_diff(length) <= limit)
        .map(|c| (edit_distance(&word.to_lowercase(), &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("Qeen", "Queen"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn suggests_only_close_names() {
        let names = ["Queen", "King", "Knight"];
        assert_eq!(closest("Qeen", names.into_iter()), Some("Queen"));
        assert_eq!(closest("king", names.into_iter()), Some("King"));
        assert_eq!(closest("Elephant", names.into_iter()), None);
    }
}
