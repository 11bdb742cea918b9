//! What happens to captured pieces, and the captures besides a piece moving onto another.

use super::geometry::Geometry;
use super::pieces::kinds_of;
use super::players::Players;
use crate::check::Checked;
use crate::geometry::{absolute, images};

#[derive(Clone, Debug)]
pub struct Captures {
    /// Captured pieces go to the captor's hand, as what they were when they came on the board.
    pub to_hand: bool,
    /// A player who can capture must.
    pub compulsory: bool,
    /// Custodian capture: per player, the lines along which a piece arriving on a square takes
    /// an enemy neighbour that has a friendly piece directly beyond it. Empty when not used.
    pub custodian: Vec<Vec<u16>>,
    /// A capture explodes: the capturing piece and every piece next to the capture square
    /// are removed, except neighbours of these kinds. `None` when captures do not explode.
    pub explosion: Option<u64>,
}

impl Captures {
    pub fn new(checked: &Checked, geometry: &mut Geometry, players: &Players) -> Captures {
        Captures {
            to_hand: checked.captures.to_hand,
            compulsory: checked.captures.compulsory,
            custodian: custodian_lines(checked, geometry, players),
            explosion: (checked.captures.explodes.as_ref())
                .map(|spared| kinds_of(&checked.forms, spared)),
        }
    }
}

/// The lines of `capture custodian`, as vectors per player; none without the rule.
fn custodian_lines(checked: &Checked, geometry: &mut Geometry, players: &Players) -> Vec<Vec<u16>> {
    let Some(set) = checked.captures.custodian else {
        return Vec::new();
    };
    let lines: Vec<(i64, i64)> = images(0, 1)
        .into_iter()
        .chain(images(1, 1))
        .filter(|&v| set.selects(v))
        .collect();
    players
        .forward
        .iter()
        .map(|&forward| {
            lines
                .iter()
                .map(|&v| geometry.vector(absolute(forward, v)))
                .collect()
        })
        .collect()
}
