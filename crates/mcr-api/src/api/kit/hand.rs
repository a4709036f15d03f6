//! Request hands and contexts, proto → domain and back.
//!
//! Proto → domain collects *every* violation: unknown or unspecified tiles (`TILE_UNKNOWN`),
//! enum numbers outside their range and required enums left unspecified (`VALUE_INVALID`);
//! then [`mcr::HandInput::validate`] adds the domain's own violations. Every prost struct is
//! destructured exhaustively, so a new proto field is a compile error here until it is
//! handled.

use super::values::{
    claim_from_pb, claim_of, claim_to_pb, meld_kind_from_pb, meld_kind_of, meld_kind_to_pb,
    tile_from_pb, tile_or_violation, tile_to_pb, wind_from_pb, wind_to_pb,
};
use mcr::violation::{FieldPath, Step};
use mcr::{
    Claim, HandInput, MeldInput, MeldKind, Tile, Violation, ViolationCode, WinContext, WinMethod,
    Wind,
};

use super::violations::Violations;
use crate::api::pb;

/// A proto hand converted as far as it goes.
///
/// When some tiles are unknown, `input` holds stand-in tiles in their places so that the
/// domain can still check everything else (tile count, copies, the other melds, the context)
/// without reporting problems the unknown tiles make up: each stand-in is a tile kind that
/// appears nowhere else in the hand, so it never makes a fifth copy or a context conflict.
pub(crate) struct HandDraft {
    pub(crate) input: HandInput,
    pub(crate) violations: Violations,
    pub(crate) artefacts: Artefacts,
}

/// The melds of a [`HandDraft`] whose domain checks are meaningless (none in a hand
/// converted without a problem).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Artefacts {
    /// Melds whose kind is unknown: every domain check of them is meaningless.
    pub(crate) unknown_kind: Vec<usize>,
    /// Melds with stand-in tiles: the domain's shape checks of them are meaningless.
    pub(crate) stand_ins: Vec<usize>,
}

impl HandDraft {
    /// A hand converted without a problem.
    pub(crate) fn clean(input: HandInput) -> Self {
        HandDraft {
            input,
            violations: Violations::default(),
            artefacts: Artefacts::default(),
        }
    }
}

impl Artefacts {
    /// Whether there are none (a hand converted without a problem).
    pub(crate) fn is_empty(&self) -> bool {
        self.unknown_kind.is_empty() && self.stand_ins.is_empty()
    }

    /// Whether a domain violation only restates a problem the conversion already reported.
    pub(crate) fn cover(&self, v: &Violation) -> bool {
        // Only a violation at a meld (`hand.melds[i]` or below) can restate one.
        let [
            Step::Field("hand"),
            Step::Field("melds"),
            Step::Index(meld),
            ..,
        ] = v.path.steps()
        else {
            return false;
        };
        let shape_code = match v.code {
            ViolationCode::ChowInvalid
            | ViolationCode::PungInvalid
            | ViolationCode::KongInvalid => true,
            ViolationCode::TileCountWrong
            | ViolationCode::TooManyCopies
            | ViolationCode::TooManyMelds
            | ViolationCode::MeldTileCount
            | ViolationCode::ChowNotFromLeft
            | ViolationCode::ConcealedKongClaimed
            | ViolationCode::WinningTileMissing
            | ViolationCode::TileUnknown
            | ViolationCode::ContextConflict
            | ViolationCode::FlowerCount
            | ViolationCode::ValueInvalid
            | ViolationCode::NotationSyntax
            | ViolationCode::SeatInvalid
            | ViolationCode::InfractionUnknown
            | ViolationCode::PenaltyAmountOutOfRange
            | ViolationCode::ValueNegative
            | ViolationCode::WinnerIsPayer
            | ViolationCode::WinnerBarred
            | ViolationCode::ClaimInvalid
            | ViolationCode::PenaltyOutOfScope
            | ViolationCode::WinValueMissing
            | ViolationCode::WinValueForDraw => false,
        };
        self.unknown_kind.contains(meld) || (shape_code && self.stand_ins.contains(meld))
    }
}

/// Hands out stand-ins for unknown tiles: tile kinds absent from the rest of the hand.
pub(crate) struct StandIns {
    pub(crate) free: Vec<Tile>,
    pub(crate) used: u8,
}

impl StandIns {
    pub(crate) fn new(known: &[Tile]) -> Self {
        let mut free: Vec<Tile> = Tile::ALL
            .into_iter()
            .filter(|t| !known.contains(t))
            .collect();
        free.reverse();
        StandIns { free, used: 0 }
    }

    /// A kind of its own (for the winning tile); call it before [`StandIns::next`].
    pub(crate) fn exclusive(&mut self) -> Option<Tile> {
        self.free.pop()
    }

    /// The next stand-in: up to four copies of each free kind. `None` once they run out,
    /// which takes well over a hundred unknown tiles; those are then left out.
    fn next(&mut self) -> Option<Tile> {
        if self.used == 4 {
            self.free.pop();
            self.used = 0;
        }
        let t = self.free.last().copied()?;
        self.used += 1;
        Some(t)
    }
}

/// A meld with its values decoded; `None` where a value was invalid.
pub(crate) struct MeldDraft {
    pub(crate) kind: Option<MeldKind>,
    pub(crate) tiles: Vec<Option<Tile>>,
    pub(crate) claimed_from: Option<Claim>,
    pub(crate) promoted: bool,
    pub(crate) claimed_tile: Option<Tile>,
}

/// The tiles of a proto hand decoded, before stand-ins.
pub(crate) struct Decoded {
    pub(crate) melds: Vec<MeldDraft>,
    pub(crate) standing: Vec<Option<Tile>>,
    /// `Ok(None)`: not set; `Err(())`: an unknown number.
    pub(crate) winning: Result<Option<Tile>, ()>,
    /// Every tile that decoded, to keep stand-ins apart from them.
    pub(crate) known: Vec<Tile>,
}

pub(crate) fn decode_hand(hand: &pb::Hand, violations: &mut Violations) -> Decoded {
    let pb::Hand {
        melds,
        standing_tiles,
        winning_tile,
    } = hand;
    let mut known = Vec::new();
    let mut decode =
        |number: i32, path: FieldPath, violations: &mut Violations| match tile_or_violation(
            number, path,
        ) {
            Ok(t) => {
                known.push(t);
                Some(t)
            }
            Err(v) => {
                violations.add(v);
                None
            }
        };
    let mut meld_drafts = Vec::with_capacity(melds.len());
    for (i, meld) in melds.iter().enumerate() {
        let pb::Meld {
            kind,
            tiles,
            claimed_from,
            promoted,
            claimed_tile,
        } = meld;
        let meld = FieldPath::of("hand").field("melds").index(i);
        let kind = meld_kind_from_pb(*kind, meld.field("kind"))
            .map_err(|v| violations.add(v))
            .ok();
        let tiles = tiles
            .iter()
            .enumerate()
            .map(|(j, &t)| decode(t, meld.field("tiles").index(j), violations))
            .collect();
        let claimed_from = claim_from_pb(*claimed_from, meld.field("claimed_from"))
            .map_err(|v| violations.add(v))
            .unwrap_or(None);
        // Not a tile of the hand: kept apart from `known`, no stand-in needed.
        let claimed_tile = if *claimed_tile == pb::Tile::Unspecified as i32 {
            None
        } else {
            tile_or_violation(*claimed_tile, meld.field("claimed_tile"))
                .map_err(|v| violations.add(v))
                .ok()
        };
        meld_drafts.push(MeldDraft {
            kind,
            tiles,
            claimed_from,
            promoted: *promoted,
            claimed_tile,
        });
    }
    let standing = standing_tiles
        .iter()
        .enumerate()
        .map(|(j, &t)| {
            let path = FieldPath::of("hand").field("standing_tiles").index(j);
            decode(t, path, violations)
        })
        .collect();
    // An unset winning tile is missing (the domain says so); a wrong number is unknown.
    let winning = if *winning_tile == pb::Tile::Unspecified as i32 {
        Ok(None)
    } else {
        decode(
            *winning_tile,
            FieldPath::of("hand").field("winning_tile"),
            violations,
        )
        .map(Some)
        .ok_or(())
    };
    Decoded {
        melds: meld_drafts,
        standing,
        winning,
        known,
    }
}

/// The hand as declared when every number in it is valid: one pass, nothing but the
/// hand's own allocations. `None` sends the hand to [`draft_hand`]'s full account.
pub(crate) fn clean_hand(hand: &pb::Hand) -> Option<HandInput> {
    let pb::Hand {
        melds,
        standing_tiles,
        winning_tile,
    } = hand;
    let tiles = |numbers: &[i32]| -> Option<Vec<Tile>> {
        numbers.iter().map(|&n| tile_from_pb(n)).collect()
    };
    let melds = melds
        .iter()
        .map(|meld| {
            let pb::Meld {
                kind,
                tiles: meld_tiles,
                claimed_from,
                promoted,
                claimed_tile,
            } = meld;
            Some(MeldInput {
                kind: meld_kind_of(*kind)?,
                tiles: tiles(meld_tiles)?,
                claimed_from: claim_of(*claimed_from).ok()?,
                promoted: *promoted,
                claimed_tile: optional_tile_of(*claimed_tile).ok()?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(HandInput {
        melds,
        standing: tiles(standing_tiles)?,
        winning_tile: optional_tile_of(*winning_tile).ok()?,
    })
}

/// An optional tile field: `Ok(None)` when unspecified, `Err` with the number when it is
/// not a tile.
pub(crate) fn optional_tile_of(number: i32) -> Result<Option<Tile>, i32> {
    if number == pb::Tile::Unspecified as i32 {
        Ok(None)
    } else {
        tile_from_pb(number).map(Some).ok_or(number)
    }
}

pub(crate) fn draft_hand(hand: &pb::Hand) -> HandDraft {
    clean_hand(hand).map_or_else(|| draft_faulty_hand(hand), HandDraft::clean)
}

/// The full account of a hand with invalid numbers: every violation, stand-ins in place.
pub(crate) fn draft_faulty_hand(hand: &pb::Hand) -> HandDraft {
    let mut violations = Violations::default();
    let decoded = decode_hand(hand, &mut violations);
    let mut stand_ins = StandIns::new(&decoded.known);
    let winning_tile = match decoded.winning {
        Ok(t) => t,
        Err(()) => stand_ins.exclusive(),
    };
    let mut unknown_kind = Vec::new();
    let mut with_stand_ins = Vec::new();
    let mut melds = Vec::with_capacity(decoded.melds.len());
    for (i, m) in decoded.melds.into_iter().enumerate() {
        if m.tiles.iter().any(Option::is_none) {
            with_stand_ins.push(i);
        }
        let tiles: Vec<Tile> = m
            .tiles
            .into_iter()
            .filter_map(|t| t.or_else(|| stand_ins.next()))
            .collect();
        let kind = m.kind.unwrap_or_else(|| {
            unknown_kind.push(i);
            // Any kind will do: the domain's checks of this meld are dropped.
            if tiles.len() == 4 {
                MeldKind::Kong
            } else {
                MeldKind::Pung
            }
        });
        melds.push(MeldInput {
            kind,
            tiles,
            claimed_from: m.claimed_from,
            promoted: m.promoted,
            claimed_tile: m.claimed_tile,
        });
    }
    let standing = decoded
        .standing
        .into_iter()
        .filter_map(|t| t.or_else(|| stand_ins.next()))
        .collect();
    HandDraft {
        input: HandInput {
            melds,
            standing,
            winning_tile,
        },
        violations,
        artefacts: Artefacts {
            unknown_kind,
            stand_ins: with_stand_ins,
        },
    }
}

/// Converts a proto hand into a domain hand as declared, or every conversion violation
/// (`TILE_UNKNOWN`, `VALUE_INVALID`). The domain checks ([`HandInput::validate`]) are not run.
pub fn hand_from_pb(hand: &pb::Hand) -> Result<HandInput, Vec<Violation>> {
    let HandDraft {
        input, violations, ..
    } = draft_hand(hand);
    violations.or_value(input)
}

/// A domain hand as declared, as proto.
pub fn hand_to_pb(hand: &HandInput) -> pb::Hand {
    let HandInput {
        melds,
        standing,
        winning_tile,
    } = hand;
    pb::Hand {
        melds: melds
            .iter()
            .map(|m| {
                let MeldInput {
                    kind,
                    tiles,
                    claimed_from,
                    promoted,
                    claimed_tile,
                } = m;
                pb::Meld {
                    kind: meld_kind_to_pb(*kind) as i32,
                    tiles: tiles.iter().map(|&t| tile_to_pb(t)).collect(),
                    claimed_from: claim_to_pb(*claimed_from) as i32,
                    promoted: *promoted,
                    claimed_tile: claimed_tile.map_or(pb::Tile::Unspecified as i32, tile_to_pb),
                }
            })
            .collect(),
        standing_tiles: standing.iter().map(|&t| tile_to_pb(t)).collect(),
        winning_tile: winning_tile.map_or(pb::Tile::Unspecified as i32, tile_to_pb),
    }
}

/// A proto context converted as far as it goes: unknown winds are replaced by East, their
/// violations recorded in `violations`.
pub(crate) fn draft_context(
    context: Option<&pb::WinContext>,
    violations: &mut Violations,
) -> WinContext {
    let Some(context) = context else {
        return WinContext::default();
    };
    let pb::WinContext {
        self_drawn,
        robbing_kong,
        replacement_draw,
        last_tile,
        last_copy,
        seat_wind,
        prevalent_wind,
        flower_count,
    } = *context;
    let mut wind = |number, field| {
        wind_from_pb(number, FieldPath::of("context").field(field)).unwrap_or_else(|v| {
            violations.add(v);
            Wind::East
        })
    };
    let seat_wind = wind(seat_wind, "seat_wind");
    let prevalent_wind = wind(prevalent_wind, "prevalent_wind");
    WinContext {
        method: if self_drawn {
            WinMethod::SelfDrawn
        } else {
            WinMethod::Discard
        },
        robbing_kong,
        replacement_draw,
        last_tile,
        last_copy,
        seat_wind,
        prevalent_wind,
        // More than 255 is as wrong as 9: the domain reports FLOWER_COUNT_INVALID.
        flowers: u8::try_from(flower_count).unwrap_or(u8::MAX),
    }
}

/// Converts a proto context (absent means the default: a discard, East/East, no flowers).
pub fn context_from_pb(context: Option<&pb::WinContext>) -> Result<WinContext, Vec<Violation>> {
    let mut violations = Violations::default();
    let context = draft_context(context, &mut violations);
    violations.or_value(context)
}

/// A domain context as proto.
pub fn context_to_pb(context: &WinContext) -> pb::WinContext {
    let WinContext {
        method,
        robbing_kong,
        replacement_draw,
        last_tile,
        last_copy,
        seat_wind,
        prevalent_wind,
        flowers,
    } = *context;
    pb::WinContext {
        self_drawn: match method {
            WinMethod::SelfDrawn => true,
            WinMethod::Discard => false,
        },
        robbing_kong,
        replacement_draw,
        last_tile,
        last_copy,
        seat_wind: wind_to_pb(seat_wind) as i32,
        prevalent_wind: wind_to_pb(prevalent_wind) as i32,
        flower_count: u32::from(flowers),
    }
}

/// The hand of a request, in either form.
#[derive(Debug, Clone, Copy)]
pub enum HandSource<'a> {
    /// Calculator notation.
    Notation(&'a str),
    /// Structured.
    Hand(&'a pb::Hand),
}

impl<'a> From<&'a pb::score_hand_request::HandInput> for HandSource<'a> {
    fn from(input: &'a pb::score_hand_request::HandInput) -> Self {
        match input {
            pb::score_hand_request::HandInput::Notation(n) => HandSource::Notation(n),
            pb::score_hand_request::HandInput::Hand(h) => HandSource::Hand(h),
        }
    }
}

impl<'a> From<&'a pb::validate_hand_request::HandInput> for HandSource<'a> {
    fn from(input: &'a pb::validate_hand_request::HandInput) -> Self {
        match input {
            pb::validate_hand_request::HandInput::Notation(n) => HandSource::Notation(n),
            pb::validate_hand_request::HandInput::Hand(h) => HandSource::Hand(h),
        }
    }
}

impl<'a> From<&'a pb::analyze_hand_request::HandInput> for HandSource<'a> {
    fn from(input: &'a pb::analyze_hand_request::HandInput) -> Self {
        match input {
            pb::analyze_hand_request::HandInput::Notation(n) => HandSource::Notation(n),
            pb::analyze_hand_request::HandInput::Hand(h) => HandSource::Hand(h),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Numbers around every enum's range: valid ones, unspecified and out of range.
    pub(crate) fn number() -> impl Strategy<Value = i32> {
        prop_oneof![8 => 0..=35i32, 1 => -2..=40i32]
    }

    pub(crate) fn pb_hand() -> impl Strategy<Value = pb::Hand> {
        let meld = (
            prop_oneof![4 => 1..=4i32, 1 => -1..=6i32],
            prop::collection::vec(number(), 0..=5),
            prop_oneof![4 => 0..=3i32, 1 => -1..=5i32],
            any::<bool>(),
            prop_oneof![4 => Just(0i32), 1 => number()],
        )
            .prop_map(
                |(kind, tiles, claimed_from, promoted, claimed_tile)| pb::Meld {
                    kind,
                    tiles,
                    claimed_from,
                    promoted,
                    claimed_tile,
                },
            );
        (
            prop::collection::vec(meld, 0..=5),
            prop::collection::vec(number(), 0..=14),
            number(),
        )
            .prop_map(|(melds, standing_tiles, winning_tile)| pb::Hand {
                melds,
                standing_tiles,
                winning_tile,
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// The one-pass conversion agrees with the full account: it succeeds exactly when
        /// the full account finds no violation, and then yields the same hand.
        #[test]
        fn the_clean_path_agrees_with_the_full_account(hand in pb_hand()) {
            let full = draft_faulty_hand(&hand);
            match clean_hand(&hand) {
                Some(input) => {
                    prop_assert!(full.violations.is_empty(), "{:?}", full.violations);
                    prop_assert_eq!(input, full.input);
                }
                None => prop_assert!(!full.violations.is_empty()),
            }
        }
    }
}
