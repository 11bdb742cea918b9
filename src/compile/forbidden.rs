//! Turns the file's `forbid` rules make illegal, beyond leaving a royal piece capturable.

use crate::check::Checked;
use crate::check::checked::Forbidden;

/// Which turns are illegal because of what they do to check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forbids {
    /// No turn may attack another player's royal piece.
    pub check: bool,
    /// No drop may attack another player's royal piece.
    pub check_by_drop: bool,
    /// No promotion may attack another player's royal piece.
    pub check_by_promotion: bool,
    /// In check, the royal piece may move only to capture the one piece checking it.
    pub royal_flight: bool,
}

impl Forbids {
    pub fn new(checked: &Checked) -> Forbids {
        let has = |kind| checked.forbidden.contains(&kind);
        Forbids {
            check: has(Forbidden::Check),
            check_by_drop: has(Forbidden::CheckByDrop),
            check_by_promotion: has(Forbidden::CheckByPromotion),
            royal_flight: has(Forbidden::RoyalFlight),
        }
    }

    /// Whether any turn is forbidden beyond royal safety.
    pub fn any(self) -> bool {
        self != Forbids::default()
    }
}
