//! A declaration of 和: who declared, and where the declared tile came from.

use crate::hand::WinMethod;
use crate::seat::Seat;
use crate::violation::{FieldPath, Violation, ViolationCode};

/// Where the winning tile came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinSource {
    /// 自摸: drawn by the winner (including a replacement draw after a kong or a flower).
    SelfDrawn,
    /// 点和: on another player's discard.
    Discard {
        /// The player who discarded the tile.
        discarder: Seat,
    },
    /// 抢杠和: on the tile another player added to a melded pung.
    RobbingKong {
        /// The player whose promoted kong was robbed; pays as a discarder.
        robbed: Seat,
    },
}

impl WinSource {
    /// The player who pays 8 + 基本分 alone (discarder or robbed player); `None` when
    /// self-drawn.
    pub const fn payer(self) -> Option<Seat> {
        match self {
            WinSource::SelfDrawn => None,
            WinSource::Discard { discarder } => Some(discarder),
            WinSource::RobbingKong { robbed } => Some(robbed),
        }
    }

    /// How the winning tile was obtained, in the terms of [`crate::hand::WinContext`].
    pub const fn method(self) -> WinMethod {
        match self {
            WinSource::SelfDrawn => WinMethod::SelfDrawn,
            WinSource::Discard { .. } | WinSource::RobbingKong { .. } => WinMethod::Discard,
        }
    }
}

/// A declaration of 和: who declared and on which tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Declaration {
    /// The player declaring 和.
    pub declarer: Seat,
    /// Where the declared tile came from.
    pub source: WinSource,
}

impl Declaration {
    /// Every problem with the declaration itself (a declarer paying himself), below `at`.
    pub fn violations(&self, at: FieldPath) -> Vec<Violation> {
        let mut v = Vec::new();
        let (payer, role, who) = match self.source {
            WinSource::SelfDrawn => return v,
            WinSource::Discard { discarder } => (discarder, "discarder", "discarder"),
            WinSource::RobbingKong { robbed } => (robbed, "robbed", "player whose kong is robbed"),
        };
        if payer == self.declarer {
            v.push(Violation::new(
                ViolationCode::WinnerIsPayer,
                at.field("source").field(role),
                format!(
                    "{} cannot win on a tile of his own: the winner and the {who} are the same seat",
                    self.declarer
                ),
            ));
        }
        v
    }
}
