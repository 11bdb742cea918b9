//! The forms a piece takes on the board. A piece moves as its shape (the declared piece it is
//! now) and, where captures go to hand, is taken into hand as its root (what it was when it came
//! on the board). One closure decides the forms for the checker, which counts them, and for the
//! compiler, which gives each a kind: so a piece behaves the same however it came to stand where
//! it is, whether placed by `setup`, read from a position or promoted.

/// More forms than any game may have (a byte holds a code per kind and player).
const MOST_FORMS: usize = 256;

use crate::syntax::ast::{Piece, PieceClause, Promotion};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form {
    pub shape: usize,
    pub root: usize,
}

#[derive(Clone, Debug)]
pub struct Forms {
    /// The declared pieces first, in declaration order, then each promoted form reached.
    pub list: Vec<Form>,
    /// Captures go to hand as what a piece was, so each form keeps its root.
    remember_roots: bool,
}

/// Each declared piece's letter, and every piece it promotes to (by index; unknown names,
/// which the checker reports, are left out): what [`Forms::new`] takes.
pub fn declared<'a>(pieces: &[&'a Piece]) -> (Vec<&'a str>, Vec<Vec<usize>>) {
    let index_of = |name: &str| pieces.iter().position(|p| p.name.value == name);
    let letters = pieces.iter().map(|p| p.letter.value.as_str()).collect();
    let promotions = pieces
        .iter()
        .map(|piece| {
            promotion_clauses(piece)
                .flat_map(|promotion| &promotion.targets)
                .filter_map(|target| index_of(&target.value))
                .collect()
        })
        .collect();
    (letters, promotions)
}

pub fn promotion_clauses(piece: &Piece) -> impl Iterator<Item = &Promotion> {
    piece.clauses.iter().filter_map(|c| match c {
        PieceClause::Promote(promotion) => Some(promotion),
        _ => None,
    })
}

impl Forms {
    /// `letters[p]` and `promotions[p]` (every promotion target of piece `p`) per declared piece.
    pub fn new(letters: &[&str], promotions: &[Vec<usize>], remember_roots: bool) -> Forms {
        let list = (0..letters.len())
            .map(|shape| Form {
                shape,
                root: written_root(letters, promotions, remember_roots, shape).unwrap_or(shape),
            })
            .collect();
        let mut forms = Forms {
            list,
            remember_roots,
        };
        let mut next = 0;
        // Past any count the checker accepts, the closure stops: it would only be refused.
        while next < forms.list.len() && forms.list.len() <= MOST_FORMS {
            for &target in &promotions[forms.list[next].shape] {
                let wanted = forms.wanted(next, target);
                if !forms.list.contains(&wanted) {
                    forms.list.push(wanted);
                }
            }
            next += 1;
        }
        forms
    }

    /// The form a piece in `form` takes when it promotes to the declared piece `shape`.
    pub fn promoted(&self, form: usize, shape: usize) -> usize {
        let wanted = self.wanted(form, shape);
        self.list
            .iter()
            .position(|f| *f == wanted)
            .expect("the closure holds every form a promotion reaches")
    }

    /// How positions write each form (for the first player): a declared piece by its letter;
    /// a promoted form by its letter and `~` where it is the only promoted form so lettered,
    /// else by `+` and the letter of what it was.
    pub fn texts(&self, letters: &[&str]) -> Vec<String> {
        let declared = letters.len();
        let promoted_alike = |shape: usize| {
            let alike = self.list[declared..].iter().filter(|f| f.shape == shape);
            alike.count()
        };
        self.list
            .iter()
            .enumerate()
            .map(|(index, form)| match index < declared {
                true => letters[form.shape].to_string(),
                false if promoted_alike(form.shape) == 1 => format!("{}~", letters[form.shape]),
                false => format!("+{}", letters[form.root]),
            })
            .collect()
    }

    /// A promoted form that positions would write as another form is written (or as a text that
    /// cannot be read: `++X`), as `(earlier, later)` indices into the list. Declared pieces
    /// lettered alike are the letter check's to report.
    pub fn written_alike(&self, letters: &[&str]) -> Option<(usize, usize)> {
        let texts = self.texts(letters);
        let unreadable = |text: &String| text.starts_with("++");
        (letters.len()..texts.len()).find_map(|later| {
            let earlier = (0..later).find(|&e| texts[e] == texts[later]);
            match (earlier, unreadable(&texts[later])) {
                (Some(earlier), _) => Some((earlier, later)),
                (None, true) => Some((later, later)),
                (None, false) => None,
            }
        })
    }

    fn wanted(&self, form: usize, shape: usize) -> Form {
        // Where nothing needs remembering, a promoted piece is the declared piece.
        let root = if self.remember_roots {
            self.list[form].root
        } else {
            self.list[shape].root
        };
        Form { shape, root }
    }
}

/// A piece lettered `+X` that the piece lettered `X` promotes to is written as a promoted `X`, so
/// it is one wherever it stands: taken, it goes to hand as an `X`.
fn written_root(
    letters: &[&str],
    promotions: &[Vec<usize>],
    to_hand: bool,
    shape: usize,
) -> Option<usize> {
    let origin = letters[shape].strip_prefix('+').filter(|_| to_hand)?;
    (0..letters.len()).find(|&p| letters[p] == origin && promotions[p].contains(&shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_that_positions_cannot_tell_apart_are_found() {
        // A and +A promote to C; C promotes to +A: C from A and C from +A are both `+A`... and
        // the declared +A is written `+A` too.
        let letters = ["A", "+A", "C"];
        let forms = Forms::new(&letters, &[vec![2], vec![2], vec![1]], true);
        assert!(forms.written_alike(&letters).is_some());
        // Crazyhouse-like: each promoted form is the only one of its letter.
        let letters = ["P", "Q", "R"];
        let forms = Forms::new(&letters, &[vec![1, 2], vec![], vec![]], true);
        assert_eq!(forms.texts(&letters), ["P", "Q", "R", "Q~", "R~"]);
        assert_eq!(forms.written_alike(&letters), None);
    }

    #[test]
    fn a_piece_lettered_as_promoted_goes_to_hand_as_its_origin() {
        // Pawn P promotes to Tokin +P; Gold G is a piece of its own.
        let forms = Forms::new(&["P", "+P", "G"], &[vec![1], vec![], vec![]], true);
        assert_eq!(forms.list.len(), 3);
        assert_eq!(forms.list[1], Form { shape: 1, root: 0 });
        assert_eq!(forms.promoted(0, 1), 1);
    }

    #[test]
    fn pieces_that_turn_over_and_back_keep_their_root() {
        // Kyoto-style: Pawn P and Rook R promote to each other.
        let forms = Forms::new(&["P", "R"], &[vec![1], vec![0]], true);
        let rook_from_pawn = forms.promoted(0, 1);
        assert_eq!(forms.list[rook_from_pawn], Form { shape: 1, root: 0 });
        assert_eq!(forms.promoted(rook_from_pawn, 0), 0);
        let pawn_from_rook = forms.promoted(1, 0);
        assert_eq!(forms.list[pawn_from_rook], Form { shape: 0, root: 1 });
        assert_eq!(forms.list.len(), 4);
    }

    #[test]
    fn without_hands_a_promoted_piece_is_the_declared_one() {
        let forms = Forms::new(&["P", "Q"], &[vec![1], vec![]], false);
        assert_eq!(forms.list.len(), 2);
        assert_eq!(forms.promoted(0, 1), 1);
    }
}
