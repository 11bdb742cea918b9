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
    /// Per player, the opposite of each custodian line, in the same order: one step of it
    /// leads from the captured piece back to the square of the piece that arrives.
    pub custodian_back: Vec<Vec<u16>>,
    /// Per player, each custodian line with its opposite: read for every position where
    /// removals are judged, so paired once here rather than on each reading.
    custodian_paired: Vec<Vec<(u16, u16)>>,
    /// A capture explodes: the capturing piece and every piece next to the capture square
    /// are removed, but for some kinds. `None` when captures do not explode.
    pub explosion: Option<Explosion>,
    /// The kinds that turn into a blocked square when they capture, as a mask.
    pub petrify: u64,
}

/// The kinds an explosion leaves on the board, as masks.
#[derive(Clone, Copy, Debug)]
pub struct Explosion {
    /// Kinds that stay when next to the capture, though not when they capture.
    pub spared: u64,
    /// Kinds that always stay.
    pub immune: u64,
}

impl Captures {
    /// `player`'s custodian lines, each with its opposite.
    pub fn custodian_pairs(&self, player: usize) -> impl Iterator<Item = (u16, u16)> + '_ {
        self.custodian_paired
            .get(player)
            .into_iter()
            .flatten()
            .copied()
    }

    pub fn new(checked: &Checked, geometry: &mut Geometry, players: &Players) -> Captures {
        let custodian = custodian_lines(checked, geometry, players, 1);
        let custodian_back = custodian_lines(checked, geometry, players, -1);
        let custodian_paired = (custodian.iter().zip(&custodian_back))
            .map(|(lines, backs)| lines.iter().copied().zip(backs.iter().copied()).collect())
            .collect();
        Captures {
            to_hand: checked.captures.to_hand,
            compulsory: checked.captures.compulsory,
            custodian,
            custodian_back,
            custodian_paired,
            explosion: (checked.captures.explodes.as_ref()).map(|(spared, immune)| Explosion {
                spared: kinds_of(&checked.forms, spared),
                immune: kinds_of(&checked.forms, immune),
            }),
            petrify: kinds_of(&checked.forms, &checked.captures.petrifies),
        }
    }
}

/// The lines of `capture custodian`, as vectors per player (reversed for a `sign` of -1);
/// none without the rule.
fn custodian_lines(
    checked: &Checked,
    geometry: &mut Geometry,
    players: &Players,
    sign: i32,
) -> Vec<Vec<u16>> {
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
                .map(|&v| {
                    let (dx, dy) = absolute(forward, v);
                    geometry.vector((dx * sign, dy * sign))
                })
                .collect()
        })
        .collect()
}
