//! The players: their names in turn order, and the way each one faces.

use crate::check::Checked;
use crate::geometry::Compass;

#[derive(Clone, Debug)]
pub struct Players {
    /// In turn order.
    pub names: Vec<String>,
    /// The way each player's pieces move forward; north when none is given.
    pub forward: Vec<Option<Compass>>,
}

impl Players {
    pub fn new(checked: &Checked) -> Players {
        Players {
            names: checked.players.iter().map(|p| p.name.clone()).collect(),
            forward: checked.players.iter().map(|p| p.forward).collect(),
        }
    }

    /// How many players there are.
    #[inline]
    pub fn count(&self) -> usize {
        self.names.len()
    }
}
