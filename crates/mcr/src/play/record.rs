//! A hand's record as the play referee reads it: the table, the deal, the events in order,
//! optionally the wall itself, and what the record states of its own result.

use crate::seat::{BySeat, Seat};
use crate::tile::{Tile, Wind};

/// The most events a record may hold. A hand has at most 92 draws, as many discards and a
/// few claims: a longer record is not a hand.
pub const MAX_EVENTS: usize = 512;

/// The number of tiles a seat is dealt.
pub const DEALT_TILES: usize = 13;

/// One of the eight flowers (春夏秋冬梅兰竹菊), numbered 1–8 as written `H1`–`H8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Flower(u8);

impl Flower {
    /// The flower numbered `number` (1–8).
    pub const fn new(number: u8) -> Option<Flower> {
        if number >= 1 && number <= 8 {
            Some(Flower(number))
        } else {
            None
        }
    }

    /// The number 1–8.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The bit of this flower in a set of flowers.
    pub(crate) const fn bit(self) -> u8 {
        1 << (self.0 - 1)
    }
}

/// A tile that comes off the wall: one of the 34 kinds, or a flower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Drawn {
    /// A tile of the hand.
    Tile(Tile),
    /// A flower, shown and replaced (补花).
    Flower(Flower),
}

/// The two tiles a chow of `discard` with `middle` in the middle needs from the hand; `None`
/// when no such chow exists (an honour, a middle of rank 1 or 9, or not next to the discard).
pub(crate) fn chow_others(middle: Tile, discard: Tile) -> Option<[Tile; 2]> {
    let suit = middle.suit()?;
    let rank = middle.rank()?;
    if discard.suit() != Some(suit) || !(2..=8).contains(&rank) {
        return None;
    }
    let d = discard.rank()?;
    if d + 1 < rank || d > rank + 1 {
        return None;
    }
    let mut others = [middle; 2];
    let mut n = 0;
    for r in rank - 1..=rank + 1 {
        if r != d {
            others[n] = Tile::numbered(suit, r)?;
            n += 1;
        }
    }
    Some(others)
}

/// What a seat does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Draws a tile (after the previous discard, or a replacement after a kong or a flower).
    Draw(Drawn),
    /// Shows a flower held (drawn or dealt) and must then draw a replacement (补花).
    Flower(Flower),
    /// Discards a tile.
    Discard(Tile),
    /// 吃 the pending discard; the tile named is the chow's middle tile (as Botzone writes it).
    Chow(Tile),
    /// 碰 the pending discard.
    Pung(Tile),
    /// 明杠 on the pending discard with a concealed pung; a replacement draw follows.
    Kong(Tile),
    /// 暗杠 of four concealed tiles; a replacement draw follows.
    ConcealedKong(Tile),
    /// 加杠: the fourth tile added to the seat's own melded pung; robbing, or a replacement
    /// draw, follows.
    AddedKong(Tile),
    /// 和: on the tile just drawn, the pending discard, or the tile being added to a kong.
    Win(Tile),
}

impl Action {
    /// Whether the action claims another seat's tile (a chow, a pung or kong of a discard, a
    /// win on a discard or a robbed kong), the kinds a claim can be overridden by.
    pub const fn is_claim_kind(self) -> bool {
        match self {
            Action::Chow(_) | Action::Pung(_) | Action::Kong(_) | Action::Win(_) => true,
            Action::Draw(_)
            | Action::Flower(_)
            | Action::Discard(_)
            | Action::ConcealedKong(_)
            | Action::AddedKong(_) => false,
        }
    }

    /// Whether the action is a claim of `tile` (a chow by its middle tile, a pung, kong or win
    /// naming it).
    pub fn claims_tile(self, tile: Tile) -> bool {
        match self {
            Action::Chow(middle) => chow_others(middle, tile).is_some(),
            Action::Pung(t) | Action::Kong(t) | Action::Win(t) => t == tile,
            Action::Draw(_)
            | Action::Flower(_)
            | Action::Discard(_)
            | Action::ConcealedKong(_)
            | Action::AddedKong(_) => false,
        }
    }

    /// The claim's rank in priority (docs/rules/tiles-and-play.md#claims-priority: 和 > 碰/杠 > 吃); 0 for other actions.
    pub const fn claim_rank(self) -> u8 {
        match self {
            Action::Win(_) => 3,
            Action::Pung(_) | Action::Kong(_) => 2,
            Action::Chow(_) => 1,
            Action::Draw(_)
            | Action::Flower(_)
            | Action::Discard(_)
            | Action::ConcealedKong(_)
            | Action::AddedKong(_) => 0,
        }
    }
}

/// A claim made on the same tile and overridden by the event's own (shown as ignored).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OverriddenClaim {
    /// Who claimed.
    pub seat: Seat,
    /// The claim: a chow, pung, kong or win.
    pub action: Action,
}

/// One event of the record.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    /// Who acts.
    pub seat: Seat,
    /// What the seat does.
    pub action: Action,
    /// Other claims on the same tile that the record shows as overridden by this one.
    pub overridden: Vec<OverriddenClaim>,
}

impl Event {
    /// An event with no overridden claim.
    pub const fn new(seat: Seat, action: Action) -> Event {
        Event {
            seat,
            action,
            overridden: Vec::new(),
        }
    }
}

/// What a record states of its own result, to be checked against the log.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stated {
    /// The fan total of the win, flowers excluded.
    pub fan: Option<i64>,
    /// Each seat's net points for the hand.
    pub scores: Option<BySeat<i64>>,
    /// The circumstances of the win the record claims.
    pub circumstances: Option<Circumstances>,
}

/// The circumstances of a win, as the log shows them (docs/rules/fans.md#win-events).
#[allow(clippy::struct_excessive_bools)] // each flag is one circumstance of the rulebook
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Circumstances {
    /// Won on a tile the winner drew.
    pub self_drawn: bool,
    /// Self-drawn on the replacement after the winner's own kong (杠上开花).
    pub kong_replacement: bool,
    /// Won on the tile another seat added to a melded pung (抢杠和).
    pub robbing_kong: bool,
    /// The last tile of the wall (妙手回春) or the discard after it (海底捞月).
    pub last_tile: bool,
    /// The other three copies of the winning tile are in sight (和绝张); true on a robbed
    /// kong, though 抢杠和 excludes 和绝张 from the score.
    pub last_copy: bool,
}

/// A whole hand's record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Record {
    /// The prevalent wind (圈风). Seats are their seat winds; East deals and draws first.
    pub prevalent_wind: Wind,
    /// Each seat's 13 dealt tiles (flowers among them are shown and replaced before the
    /// dealer's first draw).
    pub deal: BySeat<Vec<Drawn>>,
    /// The wall after the deal, in drawing order, when the record gives it; replacement draws
    /// are taken from its end (R98 §7-7).
    pub wall: Option<Vec<Drawn>>,
    /// The events in order.
    pub events: Vec<Event>,
    /// The record ends its events with a draw game (荒牌).
    pub draw_game: bool,
    /// What the record states of its result.
    pub stated: Stated,
}
