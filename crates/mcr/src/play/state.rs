//! The state of a hand in play: the wall, each seat's tiles, melds, flowers and discards,
//! whose turn it is and what may follow.

use std::fmt;

use crate::hand::{KongExposure, Meld, add_meld_counts};
use crate::ruleset::{PlayRules, WallRule};
use crate::seat::{BySeat, Seat};
use crate::tile::{Counts, Tile, Wind};

use super::record::{DEALT_TILES, Drawn, Flower};

/// Draws after the deal from one shared 136-tile wall (84 = 136 − 4 × 13).
pub const SHARED_136_DRAWS: u16 = 84;
/// Draws after the deal from one shared 144-tile wall (92 = 144 − 4 × 13).
pub const SHARED_144_DRAWS: u16 = 92;
/// Draws from each seat's own wall under Botzone's judge (34 − 13).
pub const BOTZONE_SEAT_DRAWS: u8 = 21;

/// How a tile comes to be drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawKind {
    /// The draw of a turn.
    Normal,
    /// The replacement after the seat's own kong (a win on it is 杠上开花).
    AfterKong,
    /// The replacement after a flower shown in play.
    AfterFlower,
    /// The replacement of a dealt flower, before the dealer's first draw.
    DealtFlower,
}

/// Whose move it is and what it may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `seat` draws next.
    Draw {
        /// Who draws.
        seat: Seat,
        /// Which kind of draw.
        kind: DrawKind,
    },
    /// `seat` holds a full hand: it discards, declares a kong, shows a flower or wins.
    Act {
        /// Who acts.
        seat: Seat,
        /// The tile just drawn; `None` after a claim or after drawing a flower.
        drawn: Option<Tile>,
        /// How the last tile came (a win on it is self-drawn).
        kind: DrawKind,
        /// The seat just claimed a discard (chow or pung): it must discard, no kong.
        claimed: bool,
    },
    /// `seat` discarded `tile`: others may claim it, or the next seat draws.
    Discarded {
        /// The discarder.
        seat: Seat,
        /// The discard.
        tile: Tile,
        /// No draw can follow it (the last discard, 海底).
        last: bool,
    },
    /// `seat` adds `tile` to its melded pung: others may rob it, or `seat` draws a
    /// replacement.
    AddingKong {
        /// The seat adding the tile.
        seat: Seat,
        /// The tile added.
        tile: Tile,
    },
    /// The hand is over.
    Over(Ending),
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A seat won.
    Win(Seat),
    /// 荒牌.
    DrawGame,
    /// The state could no longer be known.
    Stopped,
}

/// A discard on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Discard {
    /// The tile.
    pub tile: Tile,
    /// Claimed by another seat (now in its meld) or won on.
    pub taken: bool,
}

/// One seat's tiles.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SeatState {
    concealed: Counts,
    melds: [Meld; 4],
    meld_count: u8,
    flowers_shown: u8,
    flowers_held: u8,
    discards: Vec<Discard>,
    barred: bool,
}

impl SeatState {
    fn empty() -> SeatState {
        SeatState {
            concealed: [0; 34],
            melds: [Meld::Pung {
                tile: Tile::ALL[0],
                from: None,
            }; 4],
            meld_count: 0,
            flowers_shown: 0,
            flowers_held: 0,
            discards: Vec::new(),
            barred: false,
        }
    }

    /// Counts of the concealed (standing) tiles.
    pub const fn concealed(&self) -> &Counts {
        &self.concealed
    }

    /// The concealed tiles, sorted.
    pub fn concealed_tiles(&self) -> Vec<Tile> {
        tiles_of(&self.concealed)
    }

    /// Number of concealed tiles.
    pub fn concealed_len(&self) -> usize {
        self.concealed.iter().map(|&n| usize::from(n)).sum()
    }

    /// The melds, in the order they were made.
    pub fn melds(&self) -> &[Meld] {
        &self.melds[..usize::from(self.meld_count)]
    }

    /// The flowers shown, in number order.
    pub fn flowers(&self) -> Vec<Flower> {
        (1..=8)
            .filter_map(Flower::new)
            .filter(|f| self.flowers_shown & f.bit() != 0)
            .collect()
    }

    /// Number of flowers shown.
    pub const fn flower_count(&self) -> u8 {
        // At most 8, so the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        let n = self.flowers_shown.count_ones() as u8;
        n
    }

    /// Whether the seat holds a flower it has not shown.
    pub const fn holds_flower(&self) -> bool {
        self.flowers_held != 0
    }

    pub(crate) const fn flowers_held(&self) -> u8 {
        self.flowers_held
    }

    pub(crate) const fn holds_this_flower(&self, flower: Flower) -> bool {
        self.flowers_held & flower.bit() != 0
    }

    /// The seat's discards, in order.
    pub fn discards(&self) -> &[Discard] {
        &self.discards
    }

    /// Whether the seat lost its right to win this hand (停和).
    pub const fn barred(&self) -> bool {
        self.barred
    }

    /// The melded pung of `tile`, if the seat has one (its index).
    pub(crate) fn pung_of(&self, tile: Tile) -> Option<usize> {
        self.melds()
            .iter()
            .position(|m| matches!(*m, Meld::Pung { tile: t, .. } if t == tile))
    }

    pub(crate) fn take(&mut self, drawn: Drawn) {
        match drawn {
            Drawn::Tile(t) => self.concealed[t.index()] += 1,
            Drawn::Flower(f) => self.flowers_held |= f.bit(),
        }
    }

    pub(crate) fn remove(&mut self, tile: Tile, copies: u8) {
        self.concealed[tile.index()] -= copies;
    }

    pub(crate) fn show_flower(&mut self, flower: Flower) {
        self.flowers_held &= !flower.bit();
        self.flowers_shown |= flower.bit();
    }

    pub(crate) fn push_meld(&mut self, meld: Meld) {
        let i = usize::from(self.meld_count);
        if i < 4 {
            self.melds[i] = meld;
            self.meld_count += 1;
        }
    }

    pub(crate) fn promote(&mut self, index: usize) {
        if let Meld::Pung { tile, from } = self.melds[index] {
            self.melds[index] = Meld::Kong {
                tile,
                exposure: KongExposure::Promoted(from),
            };
        }
    }

    pub(crate) fn push_discard(&mut self, tile: Tile) {
        self.discards.push(Discard { tile, taken: false });
    }

    pub(crate) fn mark_last_discard_taken(&mut self) {
        if let Some(d) = self.discards.last_mut() {
            d.taken = true;
        }
    }

    pub(crate) fn bar(&mut self) {
        self.barred = true;
    }
}

/// The wall: how many tiles are left to draw, and their order when the record gives it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WallLeft {
    /// One shared wall with this many tiles left.
    Shared(u16),
    /// Botzone: each seat's own wall with this many tiles left.
    PerSeat(BySeat<u8>),
}

/// The wall of a hand in play.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Wall {
    left: WallLeft,
    /// The tiles after the deal in drawing order, with the next index from the front and the
    /// end (exclusive) for replacements; shared walls only.
    order: Option<(Vec<Drawn>, usize, usize)>,
}

impl Wall {
    /// A full wall after the deal.
    pub fn new(rule: WallRule, order: Option<Vec<Drawn>>) -> Wall {
        let left = match rule {
            WallRule::Shared136 => WallLeft::Shared(SHARED_136_DRAWS),
            WallRule::Shared144 => WallLeft::Shared(SHARED_144_DRAWS),
            WallRule::Botzone => WallLeft::PerSeat(BySeat::new_with(|_| BOTZONE_SEAT_DRAWS)),
        };
        let order = match left {
            WallLeft::Shared(_) => order.map(|tiles| {
                let end = tiles.len();
                (tiles, 0, end)
            }),
            WallLeft::PerSeat(_) => None,
        };
        Wall { left, order }
    }

    /// A wall with `left` tiles left and no known order (a seat's view of it).
    pub const fn with_left(left: WallLeft) -> Wall {
        Wall { left, order: None }
    }

    /// What is left.
    pub const fn left(&self) -> &WallLeft {
        &self.left
    }

    /// Whether `seat` can draw (a turn's draw or a replacement).
    pub fn can_draw(&self, seat: Seat) -> bool {
        match &self.left {
            WallLeft::Shared(n) => *n > 0,
            WallLeft::PerSeat(left) => left[seat] > 0,
        }
    }

    /// The tile the given wall holds for `seat`'s next draw, when the record gives the wall.
    pub fn expected(&self, kind: DrawKind) -> Option<Drawn> {
        let (tiles, front, end) = self.order.as_ref()?;
        match kind {
            DrawKind::Normal => tiles.get(*front).copied(),
            DrawKind::AfterKong | DrawKind::AfterFlower | DrawKind::DealtFlower => {
                end.checked_sub(1).and_then(|i| tiles.get(i)).copied()
            }
        }
    }

    pub(crate) fn take(&mut self, seat: Seat, kind: DrawKind) {
        match &mut self.left {
            WallLeft::Shared(n) => *n = n.saturating_sub(1),
            WallLeft::PerSeat(left) => left[seat] = left[seat].saturating_sub(1),
        }
        if let Some((_, front, end)) = &mut self.order {
            match kind {
                DrawKind::Normal => *front += 1,
                DrawKind::AfterKong | DrawKind::AfterFlower | DrawKind::DealtFlower => {
                    *end = end.saturating_sub(1);
                }
            }
        }
    }

    /// Whether a discard by `discarder` now is the last one (no draw can follow it).
    pub fn discard_is_last(&self, discarder: Seat) -> bool {
        !self.can_draw(discarder.next())
    }

    /// Whether a self-drawn win by `seat` now is on the last tile (妙手回春): the shared wall
    /// is empty; under Botzone's judge, the next seat's wall is.
    pub fn drawn_is_last(&self, seat: Seat) -> bool {
        !self.can_draw(seat.next())
    }

    /// Whether `seat` may declare a concealed or added kong: a replacement is left (and,
    /// under Botzone's judge, the next seat can still draw).
    pub fn kong_from_hand_allowed(&self, seat: Seat) -> bool {
        match &self.left {
            WallLeft::Shared(n) => *n > 0,
            WallLeft::PerSeat(left) => left[seat] > 0 && left[seat.next()] > 0,
        }
    }

    /// Whether `claimer` may declare an exposed kong of a discard: a replacement is left
    /// (Botzone's judge does not look at the claimer's wall: an empty one ends the hand at the
    /// replacement draw).
    pub fn claimed_kong_allowed(&self, claimer: Seat) -> bool {
        match &self.left {
            WallLeft::Shared(n) => *n > 0,
            WallLeft::PerSeat(_) => {
                let _ = claimer;
                true
            }
        }
    }
}

/// The state of a hand in play.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayState {
    pub(crate) rules: PlayRules,
    pub(crate) prevalent_wind: Wind,
    pub(crate) seats: BySeat<SeatState>,
    pub(crate) wall: Wall,
    pub(crate) phase: Phase,
    /// Copies in sight: discards (taken or not), and the tiles of exposed melds.
    pub(crate) visible: Counts,
    /// Copies dealt or drawn so far.
    pub(crate) entered: Counts,
    /// Flowers dealt or drawn so far.
    pub(crate) flowers_entered: u8,
    /// No discard yet: dealt flowers may still be shown.
    pub(crate) opening: bool,
}

impl PlayState {
    /// The rules of play in force.
    pub const fn rules(&self) -> &PlayRules {
        &self.rules
    }

    /// The prevalent wind.
    pub const fn prevalent_wind(&self) -> Wind {
        self.prevalent_wind
    }

    /// Each seat's tiles.
    pub const fn seats(&self) -> &BySeat<SeatState> {
        &self.seats
    }

    /// The wall.
    pub const fn wall(&self) -> &Wall {
        &self.wall
    }

    /// Whose move it is.
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// Copies of each kind in sight of every seat: discards and exposed melds (never
    /// concealed kongs).
    pub const fn visible(&self) -> &Counts {
        &self.visible
    }

    pub(crate) fn empty(rules: PlayRules, prevalent_wind: Wind, wall: Wall) -> PlayState {
        PlayState {
            rules,
            prevalent_wind,
            seats: BySeat::new_with(|_| SeatState::empty()),
            wall,
            phase: Phase::Draw {
                seat: Seat::East,
                kind: DrawKind::Normal,
            },
            visible: [0; 34],
            entered: [0; 34],
            flowers_entered: 0,
            opening: true,
        }
    }
}

/// A state that breaks one of the invariants of play ([`PlayState::check_invariants`]): what
/// does not add up, for people.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Inconsistency(pub String);

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "inconsistent state of play: {}", self.0)
    }
}

impl std::error::Error for Inconsistency {}

impl PlayState {
    /// Checks what every state the transition leaves must satisfy, whatever the record:
    ///
    /// - tiles are conserved: each kind's copies in the seats' concealed tiles, melds and
    ///   discards not taken (and the tile being added to a kong) are the copies dealt and
    ///   drawn, at most 4, with the copies the given wall still holds at most 4 in all; each
    ///   flower dealt or drawn is held or shown by one seat;
    /// - the copies in sight are the discards and the exposed melds;
    /// - each seat's hand has the size the phase gives it: 13 tiles (a kong counted as 3, a
    ///   flower held as a tile), 14 for the seat to act, 12 for a seat replacing a dealt
    ///   flower;
    /// - the wall's count is its full count less the draws so far (the tiles dealt and drawn
    ///   less the 52 dealt), and a given wall's order is used up by as many draws.
    ///
    /// A test hook, cheap enough to run after every event.
    ///
    /// # Errors
    ///
    /// The first invariant broken, described.
    pub fn check_invariants(&self) -> Result<(), Inconsistency> {
        let broken = |what: String| Err(Inconsistency(what));
        // Tiles and flowers where the seats have them.
        let mut placed: Counts = [0; 34];
        let mut exposed: Counts = [0; 34];
        let mut flowers = 0u8;
        for seat in Seat::ALL {
            let s = &self.seats[seat];
            for (p, n) in placed.iter_mut().zip(s.concealed) {
                *p += n;
            }
            for &meld in s.melds() {
                let mut tiles = [0; 34];
                add_meld_counts(&mut tiles, meld);
                for (i, n) in tiles.into_iter().enumerate() {
                    placed[i] += n;
                    if meld.is_claimed() {
                        exposed[i] += n;
                    }
                }
            }
            for d in s.discards() {
                if !d.taken {
                    placed[d.tile.index()] += 1;
                    exposed[d.tile.index()] += 1;
                }
            }
            if s.flowers_shown & s.flowers_held != 0
                || flowers & (s.flowers_shown | s.flowers_held) != 0
            {
                return broken(format!("{seat} has a flower twice, or another seat's"));
            }
            flowers |= s.flowers_shown | s.flowers_held;
        }
        if let Phase::AddingKong { tile, .. } = self.phase {
            placed[tile.index()] += 1;
            exposed[tile.index()] += 1;
        }
        // A kong robbed to win: the tile added is in no hand (the state keeps no place for
        // it), one more in sight than the melds and discards show, beside another seat's
        // melded pung of it.
        if let Phase::Over(Ending::Win(winner)) = self.phase
            && let Some(robbed) = Tile::ALL.into_iter().find(|t| {
                self.visible[t.index()] == exposed[t.index()] + 1
                    && Seat::ALL
                        .into_iter()
                        .any(|s| s != winner && self.seats[s].pung_of(*t).is_some())
            })
        {
            placed[robbed.index()] += 1;
            exposed[robbed.index()] += 1;
        }
        if flowers != self.flowers_entered {
            return broken(format!(
                "the seats have flowers {flowers:#010b}, but {:#010b} came into play",
                self.flowers_entered
            ));
        }
        for t in Tile::ALL {
            let i = t.index();
            if placed[i] != self.entered[i] || placed[i] > 4 {
                return broken(format!(
                    "{} copies of {t} are in the seats' hands, melds and discards, {} came into play (phase {:?})",
                    placed[i], self.entered[i], self.phase
                ));
            }
            if exposed[i] != self.visible[i] {
                return broken(format!(
                    "{} copies of {t} are in sight, {} counted",
                    exposed[i], self.visible[i]
                ));
            }
        }
        self.check_hand_sizes()?;
        self.check_wall()
    }

    /// Each hand's size as the phase gives it.
    fn check_hand_sizes(&self) -> Result<(), Inconsistency> {
        let mut sizes = [0usize; 4];
        for seat in Seat::ALL {
            let s = &self.seats[seat];
            sizes[seat.index()] = s.concealed_len()
                + 3 * s.melds().len()
                + usize::try_from(s.flowers_held.count_ones()).unwrap_or(usize::MAX);
        }
        let expected = |seat: Seat| -> &'static [usize] {
            match self.phase {
                Phase::Act { seat: actor, .. } if actor == seat => &[14],
                Phase::Draw {
                    seat: drawer,
                    kind: DrawKind::DealtFlower,
                } if drawer == seat => &[12],
                Phase::Over(Ending::Win(winner)) if winner == seat => &[13, 14],
                Phase::Over(Ending::Stopped) => &[12, 13, 14],
                Phase::Act { .. }
                | Phase::Draw { .. }
                | Phase::Discarded { .. }
                | Phase::AddingKong { .. }
                | Phase::Over(Ending::Win(_) | Ending::DrawGame) => &[13],
            }
        };
        for seat in Seat::ALL {
            let size = sizes[seat.index()];
            if !expected(seat).contains(&size) {
                return Err(Inconsistency(format!(
                    "{seat} holds {size} tiles (a kong counted as 3) in phase {:?}",
                    self.phase
                )));
            }
        }
        if sizes.iter().filter(|&&n| n == 14).count() > 1 {
            return Err(Inconsistency(format!(
                "more than one seat holds 14 tiles: {sizes:?}"
            )));
        }
        Ok(())
    }

    /// The wall's count and order against the tiles come into play.
    fn check_wall(&self) -> Result<(), Inconsistency> {
        let entered = self.entered.iter().map(|&n| usize::from(n)).sum::<usize>()
            + usize::try_from(self.flowers_entered.count_ones()).unwrap_or(usize::MAX);
        let Some(draws) = entered.checked_sub(4 * DEALT_TILES) else {
            return Err(Inconsistency(format!(
                "{entered} tiles came into play, fewer than the deal's 52"
            )));
        };
        let (full, left) = match (&self.wall.left, self.rules.wall) {
            (WallLeft::Shared(n), WallRule::Shared136) => {
                (usize::from(SHARED_136_DRAWS), usize::from(*n))
            }
            (WallLeft::Shared(n), WallRule::Shared144) => {
                (usize::from(SHARED_144_DRAWS), usize::from(*n))
            }
            (WallLeft::PerSeat(left), WallRule::Botzone) => (
                4 * usize::from(BOTZONE_SEAT_DRAWS),
                left.entries().map(|(_, &n)| usize::from(n)).sum(),
            ),
            (
                WallLeft::Shared(_) | WallLeft::PerSeat(_),
                WallRule::Shared136 | WallRule::Shared144 | WallRule::Botzone,
            ) => {
                return Err(Inconsistency(format!(
                    "the wall {:?} is not the ruleset's {:?}",
                    self.wall.left, self.rules.wall
                )));
            }
        };
        if left + draws != full {
            return Err(Inconsistency(format!(
                "the wall has {left} tiles left after {draws} draws; it had {full}"
            )));
        }
        if let Some((tiles, front, end)) = &self.wall.order {
            let used = front + (tiles.len() - end);
            if front > end || *end > tiles.len() || used != draws {
                return Err(Inconsistency(format!(
                    "the given wall is used up to {front} and from {end} of {}, after {draws} draws",
                    tiles.len()
                )));
            }
            let mut all = self.entered;
            let mut flowers = self.flowers_entered;
            for drawn in &tiles[*front..*end] {
                match *drawn {
                    Drawn::Tile(t) => all[t.index()] += 1,
                    Drawn::Flower(f) if flowers & f.bit() == 0 => flowers |= f.bit(),
                    Drawn::Flower(f) => {
                        return Err(Inconsistency(format!(
                            "flower {} is in the wall and in play",
                            f.number()
                        )));
                    }
                }
            }
            if let Some(t) = Tile::ALL.iter().find(|t| all[t.index()] > 4) {
                return Err(Inconsistency(format!(
                    "{} copies of {t} in play and in the wall",
                    all[t.index()]
                )));
            }
        }
        Ok(())
    }
}

/// The tiles counted in `counts`, in tile order.
pub(crate) fn tiles_of(counts: &Counts) -> Vec<Tile> {
    Tile::ALL
        .iter()
        .flat_map(|&t| std::iter::repeat_n(t, usize::from(counts[t.index()])))
        .collect()
}
