//! Conversions between the `mahjong.v1` messages and the domain.
//!
//! Proto → domain collects *every* violation: unknown or unspecified tiles (`TILE_UNKNOWN`),
//! enum numbers outside their range and required enums left unspecified (`VALUE_INVALID`),
//! a missing hand (`VALUE_INVALID` on `hand_input`) and notation syntax errors
//! (`NOTATION_SYNTAX`); then [`mcr::HandInput::validate`] adds the domain's own violations.
//! Every prost struct is destructured exhaustively, so a new proto field is a compile error
//! here until it is handled.
//!
//! Domain → proto turns a [`Judgement`] into a response.

use mcr::{
    Claim, Element, ElementKind, Fan, FanLine, FanSpec, HandInput, MeldInput, MeldKind, Outcome,
    Reading, Ruleset, RulesetId, Shape, Tile, Violation, ViolationCode, WinContext, WinMethod,
    Wind,
};

use super::pb;
use super::query::{BatchEntry, BatchScoreHandsQuery, CleanRequest, EntryBuffer, ScoreHandQuery};
use super::wire::{BatchScoreHandsReply, BatchWriter, ScoreHandReply};
use crate::referee::{self, Detail, Judgement, Scored};

// ---------------------------------------------------------------------------------------------
// Single values, proto → domain

/// The tile with this proto number (1..=34), if any.
pub fn tile_from_pb(number: i32) -> Option<Tile> {
    let index = number.checked_sub(1)?;
    Tile::from_index(u8::try_from(index).ok()?)
}

/// The proto number of a tile (its dense index plus one).
pub fn tile_to_pb(tile: Tile) -> i32 {
    // A tile index is below 34, so this never falls back.
    i32::try_from(tile.index() + 1).unwrap_or(0)
}

/// A proto tile as a domain tile, or a `TILE_UNKNOWN` violation on `field`.
fn tile_or_violation(number: i32, field: String) -> Result<Tile, Violation> {
    tile_from_pb(number).ok_or_else(|| {
        let what = if number == pb::Tile::Unspecified as i32 {
            "a tile is required here (TILE_UNSPECIFIED given)".to_owned()
        } else {
            format!("{number} is not a tile number (expected 1..34, TILE_1M..TILE_WHITE)")
        };
        Violation::new(ViolationCode::TileUnknown, field, what)
    })
}

fn value_invalid(field: &str, message: String) -> Violation {
    Violation::new(ViolationCode::ValueInvalid, field.to_owned(), message)
}

/// A proto wind; unspecified is East.
pub fn wind_from_pb(number: i32, field: &str) -> Result<Wind, Violation> {
    match pb::Wind::try_from(number) {
        Ok(pb::Wind::Unspecified | pb::Wind::East) => Ok(Wind::East),
        Ok(pb::Wind::South) => Ok(Wind::South),
        Ok(pb::Wind::West) => Ok(Wind::West),
        Ok(pb::Wind::North) => Ok(Wind::North),
        Err(_) => Err(value_invalid(
            field,
            format!("{number} is not a wind (expected WIND_EAST..WIND_NORTH)"),
        )),
    }
}

/// A domain wind as proto.
pub fn wind_to_pb(wind: Wind) -> pb::Wind {
    match wind {
        Wind::East => pb::Wind::East,
        Wind::South => pb::Wind::South,
        Wind::West => pb::Wind::West,
        Wind::North => pb::Wind::North,
    }
}

/// A proto ruleset; unspecified is Chinese Official 1998.
pub fn ruleset_from_pb(number: i32) -> Result<RulesetId, Violation> {
    match pb::Ruleset::try_from(number) {
        Ok(pb::Ruleset::Unspecified | pb::Ruleset::ChineseOfficial1998) => {
            Ok(RulesetId::ChineseOfficial1998)
        }
        Ok(pb::Ruleset::Mil) => Ok(RulesetId::Mil),
        Ok(pb::Ruleset::GreenBook2006) => Ok(RulesetId::GreenBook2006),
        Err(_) => Err(value_invalid(
            "ruleset",
            format!(
                "{number} is not a ruleset (expected RULESET_CHINESE_OFFICIAL_1998, RULESET_MIL or RULESET_GREEN_BOOK_2006)"
            ),
        )),
    }
}

/// A domain ruleset as proto.
pub fn ruleset_to_pb(id: RulesetId) -> pb::Ruleset {
    match id {
        RulesetId::ChineseOfficial1998 => pb::Ruleset::ChineseOfficial1998,
        RulesetId::Mil => pb::Ruleset::Mil,
        RulesetId::GreenBook2006 => pb::Ruleset::GreenBook2006,
    }
}

/// The meld kind with this proto number; `None` for unspecified and unknown numbers.
pub(super) fn meld_kind_of(number: i32) -> Option<MeldKind> {
    match pb::MeldKind::try_from(number).ok()? {
        pb::MeldKind::Chow => Some(MeldKind::Chow),
        pb::MeldKind::Pung => Some(MeldKind::Pung),
        pb::MeldKind::Kong => Some(MeldKind::Kong),
        pb::MeldKind::ConcealedKong => Some(MeldKind::ConcealedKong),
        pb::MeldKind::Unspecified => None,
    }
}

/// A proto score view; unspecified is the full sheet.
pub fn view_from_pb(number: i32, field: &str) -> Result<pb::ScoreView, Violation> {
    match pb::ScoreView::try_from(number) {
        Ok(pb::ScoreView::Unspecified | pb::ScoreView::Full) => Ok(pb::ScoreView::Full),
        Ok(pb::ScoreView::Basic) => Ok(pb::ScoreView::Basic),
        Err(_) => Err(value_invalid(
            field,
            format!("{number} is not a score view (expected SCORE_VIEW_BASIC or SCORE_VIEW_FULL)"),
        )),
    }
}

/// A proto meld kind; unspecified is a violation.
pub fn meld_kind_from_pb(number: i32, field: &str) -> Result<MeldKind, Violation> {
    meld_kind_of(number).ok_or_else(|| {
        value_invalid(
            field,
            if number == pb::MeldKind::Unspecified as i32 {
                "the meld kind is required (MELD_KIND_UNSPECIFIED given)".to_owned()
            } else {
                format!(
                    "{number} is not a meld kind (expected MELD_KIND_CHOW..MELD_KIND_CONCEALED_KONG)"
                )
            },
        )
    })
}

/// A domain meld kind as proto.
pub fn meld_kind_to_pb(kind: MeldKind) -> pb::MeldKind {
    match kind {
        MeldKind::Chow => pb::MeldKind::Chow,
        MeldKind::Pung => pb::MeldKind::Pung,
        MeldKind::Kong => pb::MeldKind::Kong,
        MeldKind::ConcealedKong => pb::MeldKind::ConcealedKong,
    }
}

/// The claim source with this proto number (`None`: not stated); the number back when it
/// is unknown.
pub(super) fn claim_of(number: i32) -> Result<Option<Claim>, i32> {
    match pb::ClaimSource::try_from(number).map_err(|_| number)? {
        pb::ClaimSource::Unspecified => Ok(None),
        pb::ClaimSource::Left => Ok(Some(Claim::Left)),
        pb::ClaimSource::Opposite => Ok(Some(Claim::Opposite)),
        pb::ClaimSource::Right => Ok(Some(Claim::Right)),
    }
}

/// A proto claim source; unspecified is "not stated".
pub fn claim_from_pb(number: i32, field: &str) -> Result<Option<Claim>, Violation> {
    claim_of(number).map_err(|number| {
        value_invalid(
            field,
            format!(
                "{number} is not a claim source (expected CLAIM_SOURCE_LEFT, CLAIM_SOURCE_OPPOSITE or CLAIM_SOURCE_RIGHT)"
            ),
        )
    })
}

/// A domain claim source as proto.
pub fn claim_to_pb(claim: Option<Claim>) -> pb::ClaimSource {
    match claim {
        None => pb::ClaimSource::Unspecified,
        Some(Claim::Left) => pb::ClaimSource::Left,
        Some(Claim::Opposite) => pb::ClaimSource::Opposite,
        Some(Claim::Right) => pb::ClaimSource::Right,
    }
}

// ---------------------------------------------------------------------------------------------
// Hands and contexts, proto → domain

/// A proto hand converted as far as it goes.
///
/// When some tiles are unknown, `input` holds stand-in tiles in their places so that the
/// domain can still check everything else (tile count, copies, the other melds, the context)
/// without reporting problems the unknown tiles make up: each stand-in is a tile kind that
/// appears nowhere else in the hand, so it never makes a fifth copy or a context conflict.
struct HandDraft {
    input: HandInput,
    violations: Vec<Violation>,
    artefacts: Artefacts,
}

/// The melds of a [`HandDraft`] whose domain checks are meaningless (none in a hand
/// converted without a problem).
#[derive(Debug, Default)]
struct Artefacts {
    /// Melds whose kind is unknown: every domain check of them is meaningless.
    unknown_kind: Vec<usize>,
    /// Melds with stand-in tiles: the domain's shape checks of them are meaningless.
    stand_ins: Vec<usize>,
}

impl HandDraft {
    /// A hand converted without a problem.
    fn clean(input: HandInput) -> Self {
        HandDraft {
            input,
            violations: Vec::new(),
            artefacts: Artefacts::default(),
        }
    }
}

impl Artefacts {
    /// Whether a domain violation only restates a problem the conversion already reported.
    fn cover(&self, v: &Violation) -> bool {
        let of_meld = |i: &usize| {
            let prefix = format!("hand.melds[{i}]");
            v.field
                .strip_prefix(&prefix)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
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
        self.unknown_kind.iter().any(of_meld) || (shape_code && self.stand_ins.iter().any(of_meld))
    }
}

/// Hands out stand-ins for unknown tiles: tile kinds absent from the rest of the hand.
struct StandIns {
    free: Vec<Tile>,
    used: u8,
}

impl StandIns {
    fn new(known: &[Tile]) -> Self {
        let mut free: Vec<Tile> = Tile::ALL
            .into_iter()
            .filter(|t| !known.contains(t))
            .collect();
        free.reverse();
        StandIns { free, used: 0 }
    }

    /// A kind of its own (for the winning tile); call it before [`StandIns::next`].
    fn exclusive(&mut self) -> Option<Tile> {
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
struct MeldDraft {
    kind: Option<MeldKind>,
    tiles: Vec<Option<Tile>>,
    claimed_from: Option<Claim>,
    promoted: bool,
}

/// The tiles of a proto hand decoded, before stand-ins.
struct Decoded {
    melds: Vec<MeldDraft>,
    standing: Vec<Option<Tile>>,
    /// `Ok(None)`: not set; `Err(())`: an unknown number.
    winning: Result<Option<Tile>, ()>,
    /// Every tile that decoded, to keep stand-ins apart from them.
    known: Vec<Tile>,
}

fn decode_hand(hand: &pb::Hand, violations: &mut Vec<Violation>) -> Decoded {
    let pb::Hand {
        melds,
        standing_tiles,
        winning_tile,
    } = hand;
    let mut known = Vec::new();
    let mut decode =
        |number: i32, field: String, violations: &mut Vec<Violation>| match tile_or_violation(
            number, field,
        ) {
            Ok(t) => {
                known.push(t);
                Some(t)
            }
            Err(v) => {
                violations.push(v);
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
        } = meld;
        let field = format!("hand.melds[{i}]");
        let kind = meld_kind_from_pb(*kind, &format!("{field}.kind"))
            .map_err(|v| violations.push(v))
            .ok();
        let tiles = tiles
            .iter()
            .enumerate()
            .map(|(j, &t)| decode(t, format!("{field}.tiles[{j}]"), violations))
            .collect();
        let claimed_from = claim_from_pb(*claimed_from, &format!("{field}.claimed_from"))
            .map_err(|v| violations.push(v))
            .unwrap_or(None);
        meld_drafts.push(MeldDraft {
            kind,
            tiles,
            claimed_from,
            promoted: *promoted,
        });
    }
    let standing = standing_tiles
        .iter()
        .enumerate()
        .map(|(j, &t)| decode(t, format!("hand.standing_tiles[{j}]"), violations))
        .collect();
    // An unset winning tile is missing (the domain says so); a wrong number is unknown.
    let winning = if *winning_tile == pb::Tile::Unspecified as i32 {
        Ok(None)
    } else {
        decode(*winning_tile, "hand.winning_tile".to_owned(), violations)
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
fn clean_hand(hand: &pb::Hand) -> Option<HandInput> {
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
            } = meld;
            Some(MeldInput {
                kind: meld_kind_of(*kind)?,
                tiles: tiles(meld_tiles)?,
                claimed_from: claim_of(*claimed_from).ok()?,
                promoted: *promoted,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let winning_tile = if *winning_tile == pb::Tile::Unspecified as i32 {
        None
    } else {
        Some(tile_from_pb(*winning_tile)?)
    };
    Some(HandInput {
        melds,
        standing: tiles(standing_tiles)?,
        winning_tile,
    })
}

fn draft_hand(hand: &pb::Hand) -> HandDraft {
    clean_hand(hand).map_or_else(|| draft_faulty_hand(hand), HandDraft::clean)
}

/// The full account of a hand with invalid numbers: every violation, stand-ins in place.
fn draft_faulty_hand(hand: &pb::Hand) -> HandDraft {
    let mut violations = Vec::new();
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
    let draft = draft_hand(hand);
    if draft.violations.is_empty() {
        Ok(draft.input)
    } else {
        Err(draft.violations)
    }
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
                } = m;
                pb::Meld {
                    kind: meld_kind_to_pb(*kind) as i32,
                    tiles: tiles.iter().map(|&t| tile_to_pb(t)).collect(),
                    claimed_from: claim_to_pb(*claimed_from) as i32,
                    promoted: *promoted,
                }
            })
            .collect(),
        standing_tiles: standing.iter().map(|&t| tile_to_pb(t)).collect(),
        winning_tile: winning_tile.map_or(pb::Tile::Unspecified as i32, tile_to_pb),
    }
}

/// A proto context converted as far as it goes: unknown winds are replaced by East.
fn draft_context(context: Option<&pb::WinContext>) -> (WinContext, Vec<Violation>) {
    let Some(context) = context else {
        return (WinContext::default(), Vec::new());
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
    let mut violations = Vec::new();
    let mut wind = |number, field| {
        wind_from_pb(number, field).unwrap_or_else(|v| {
            violations.push(v);
            Wind::East
        })
    };
    let seat_wind = wind(seat_wind, "context.seat_wind");
    let prevalent_wind = wind(prevalent_wind, "context.prevalent_wind");
    let context = WinContext {
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
    };
    (context, violations)
}

/// Converts a proto context (absent means the default: a discard, East/East, no flowers).
pub fn context_from_pb(context: Option<&pb::WinContext>) -> Result<WinContext, Vec<Violation>> {
    let (context, violations) = draft_context(context);
    if violations.is_empty() {
        Ok(context)
    } else {
        Err(violations)
    }
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

// ---------------------------------------------------------------------------------------------
// Requests

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

/// What a request asks for besides its hand and context: proto numbers as given.
#[derive(Debug, Clone, Copy)]
pub struct Asked {
    /// The ruleset.
    pub ruleset: i32,
    /// The score view (the full sheet when unspecified).
    pub view: i32,
}

impl Asked {
    /// The ruleset and view a request asks for: its own numbers, these defaults where it
    /// leaves them unspecified.
    fn under(self, ruleset: i32, view: i32) -> Asked {
        let or = |number: i32, default: i32| if number == 0 { default } else { number };
        Asked {
            ruleset: or(ruleset, self.ruleset),
            view: or(view, self.view),
        }
    }
}

/// How much of the score sheet a view shows (unspecified is the full sheet).
pub(super) fn detail_of(view: pb::ScoreView) -> Detail {
    match view {
        pb::ScoreView::Basic => Detail::Totals,
        pb::ScoreView::Unspecified | pb::ScoreView::Full => Detail::Sheet,
    }
}

/// What [`judge_pb`] makes of a request.
#[derive(Debug)]
pub struct Judged {
    /// The judgement.
    pub judgement: Judgement,
    /// The ruleset to report: the one applied, or for an unknown ruleset the number given.
    pub ruleset: i32,
    /// The view to answer in (the full sheet when the one asked for is unknown).
    pub view: pb::ScoreView,
}

/// Converts, validates and scores the parts of a request, collecting every violation:
/// the conversion's first (hand, context, ruleset, view), then the domain's. Works out the
/// score sheet only as far as the view needs.
pub fn judge_pb(
    hand: Option<HandSource<'_>>,
    context: Option<&pb::WinContext>,
    asked: Asked,
) -> Judged {
    let mut violations = Vec::new();
    let mut draft: Option<HandDraft> = None;
    match hand {
        None => violations.push(value_invalid(
            "hand_input",
            "the request has no hand: set `notation` or `hand`".to_owned(),
        )),
        Some(HandSource::Notation(text)) => match referee::parse_notation(text) {
            Ok(input) => draft = Some(HandDraft::clean(input)),
            Err(v) => violations.push(v),
        },
        Some(HandSource::Hand(h)) => {
            let mut d = draft_hand(h);
            violations.append(&mut d.violations);
            draft = Some(d);
        }
    }
    judge_draft(
        draft.as_ref().map(|d| (&d.input, &d.artefacts)),
        violations,
        context,
        asked,
        None,
    )
}

/// [`judge_pb`] from the hand's draft on, `violations` holding the hand's; a score is
/// written into `spare` when there is one ([`referee::judge_reusing`]).
fn judge_draft(
    draft: Option<(&HandInput, &Artefacts)>,
    mut violations: Vec<Violation>,
    context: Option<&pb::WinContext>,
    asked: Asked,
    spare: Option<Box<Scored>>,
) -> Judged {
    let Asked { ruleset, view } = asked;
    let (context, context_violations) = draft_context(context);
    violations.extend(context_violations);
    let ruleset_id = ruleset_from_pb(ruleset)
        .map_err(|v| violations.push(v))
        .ok();
    let reported_ruleset = ruleset_id.map_or(ruleset, |id| ruleset_to_pb(id) as i32);
    let view = view_from_pb(view, "view").unwrap_or_else(|v| {
        violations.push(v);
        pb::ScoreView::Full
    });
    let detail = detail_of(view);
    let judged = |judgement| Judged {
        judgement,
        ruleset: reported_ruleset,
        view,
    };

    match (draft, ruleset_id) {
        (Some((input, _)), Some(id)) if violations.is_empty() => {
            judged(referee::judge_reusing(input, &context, id, detail, spare))
        }
        (draft, _) => {
            if let Some((input, artefacts)) = draft
                && let Err(domain) = input.validate(&context)
            {
                violations.extend(
                    domain
                        .into_iter()
                        .filter(|v| !artefacts.cover(v))
                        .map(referee::api_field_path),
                );
            }
            judged(Judgement::Invalid(violations))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Domain → proto

/// A domain violation as proto.
pub fn violation_to_pb(v: &Violation) -> pb::Violation {
    let Violation {
        code,
        field,
        message,
    } = v;
    pb::Violation {
        code: code.as_str().to_owned(),
        field: field.clone(),
        message: message.clone(),
    }
}

/// A domain outcome as proto.
pub fn outcome_to_pb(outcome: Outcome) -> pb::Outcome {
    match outcome {
        Outcome::Win => pb::Outcome::Win,
        Outcome::BelowMinimum => pb::Outcome::BelowMinimum,
        Outcome::NotWinningShape => pb::Outcome::NotWinningShape,
    }
}

/// A fan as proto (the enum number is the fan id).
pub fn fan_to_pb(fan: Fan) -> i32 {
    i32::from(fan.id())
}

/// The fan with this proto number, if any.
pub fn fan_from_pb(number: i32) -> Option<Fan> {
    Fan::from_id(u8::try_from(number).ok()?)
}

/// A score sheet line as proto.
pub fn fan_line_to_pb(line: &FanLine) -> pb::FanLine {
    let FanLine {
        fan,
        points,
        count,
        elements,
    } = line;
    let spec = fan.spec();
    pb::FanLine {
        fan: fan_to_pb(*fan),
        name_zh: spec.name_zh.to_owned(),
        name_en: spec.name_en.to_owned(),
        points: u32::from(*points),
        count: u32::from(*count),
        total_points: line.total(),
        element_indices: elements
            .iter()
            .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
            .collect(),
    }
}

/// A score sheet line as proto without names or elements ([`pb::ScoreView::Basic`]).
fn fan_line_numbers(line: &FanLine) -> pb::FanLine {
    pb::FanLine {
        fan: fan_to_pb(line.fan),
        name_zh: String::new(),
        name_en: String::new(),
        points: u32::from(line.points),
        count: u32::from(line.count),
        total_points: line.total(),
        element_indices: Vec::new(),
    }
}

/// A domain shape as proto.
pub fn shape_to_pb(shape: Shape) -> pb::Shape {
    match shape {
        Shape::Standard => pb::Shape::Standard,
        Shape::SevenPairs => pb::Shape::SevenPairs,
        Shape::ThirteenOrphans => pb::Shape::ThirteenOrphans,
        Shape::HonorsAndKnitted => pb::Shape::HonorsAndKnitted,
        Shape::KnittedStraight => pb::Shape::KnittedStraight,
    }
}

/// A domain element kind as proto.
pub fn element_kind_to_pb(kind: ElementKind) -> pb::ElementKind {
    match kind {
        ElementKind::Chow => pb::ElementKind::Chow,
        ElementKind::Pung => pb::ElementKind::Pung,
        ElementKind::Kong => pb::ElementKind::Kong,
        ElementKind::Pair => pb::ElementKind::Pair,
        ElementKind::KnittedStraight => pb::ElementKind::KnittedStraight,
        ElementKind::Single => pb::ElementKind::Single,
    }
}

/// A reading element as proto.
pub fn element_to_pb(element: &Element) -> pb::ReadingElement {
    let Element {
        kind,
        tiles,
        declared,
        claimed,
    } = element;
    pb::ReadingElement {
        kind: element_kind_to_pb(*kind) as i32,
        tiles: tiles.iter().map(|&t| tile_to_pb(t)).collect(),
        declared: *declared,
        claimed: *claimed,
    }
}

/// A reading as proto.
pub fn reading_to_pb(reading: &Reading) -> pb::Reading {
    pb::Reading {
        shape: shape_to_pb(reading.shape()) as i32,
        elements: reading.elements().iter().map(element_to_pb).collect(),
    }
}

/// A score as a response in `view`.
fn scored_to_pb(s: &Scored, view: pb::ScoreView) -> pb::ScoreHandResponse {
    let scoring = &s.scoring;
    let numbers = pb::ScoreHandResponse {
        outcome: outcome_to_pb(scoring.outcome) as i32,
        fans: Vec::new(),
        fan_total: scoring.fan_total,
        flower_points: scoring.flower_points,
        total: scoring.total,
        violations: Vec::new(),
        reading: None,
        notation: String::new(),
        ruleset: ruleset_to_pb(s.ruleset.id) as i32,
    };
    match detail_of(view) {
        Detail::Totals => pb::ScoreHandResponse {
            fans: s.lines.iter().map(fan_line_numbers).collect(),
            ..numbers
        },
        Detail::Sheet => pb::ScoreHandResponse {
            fans: s.lines.iter().map(fan_line_to_pb).collect(),
            reading: scoring.reading.as_ref().map(|r| pb::Reading {
                shape: shape_to_pb(r.shape()) as i32,
                elements: s.elements.iter().map(element_to_pb).collect(),
            }),
            notation: s.notation(),
            ..numbers
        },
    }
}

/// A judgement as a `ScoreHand` response in `view`; `ruleset` is reported as is for an
/// invalid input.
pub fn score_response(
    judgement: &Judgement,
    ruleset: i32,
    view: pb::ScoreView,
) -> pb::ScoreHandResponse {
    match judgement {
        Judgement::Invalid(violations) => pb::ScoreHandResponse {
            outcome: pb::Outcome::Invalid as i32,
            violations: violations.iter().map(violation_to_pb).collect(),
            ruleset,
            ..pb::ScoreHandResponse::default()
        },
        Judgement::Scored(s) => scored_to_pb(s, view),
    }
}

/// A judgement as a `ValidateHand` response.
pub fn validate_response(judgement: &Judgement) -> pb::ValidateHandResponse {
    match judgement {
        Judgement::Invalid(violations) => pb::ValidateHandResponse {
            valid: false,
            violations: violations.iter().map(violation_to_pb).collect(),
            winning_shape: false,
            reaches_minimum: false,
            outcome: pb::Outcome::Invalid as i32,
        },
        Judgement::Scored(s) => pb::ValidateHandResponse {
            valid: true,
            violations: Vec::new(),
            winning_shape: s.is_winning_shape(),
            reaches_minimum: s.scoring.outcome == Outcome::Win,
            outcome: outcome_to_pb(s.scoring.outcome) as i32,
        },
    }
}

/// Handles a `ScoreHand` request: the itemised score, or `OUTCOME_INVALID` with every violation.
/// Never panics, whatever the request holds.
pub fn score_request(request: &pb::ScoreHandRequest) -> pb::ScoreHandResponse {
    let judged = judge_score_request(request, UNSPECIFIED);
    score_response(&judged.judgement, judged.ruleset, judged.view)
}

/// No defaults for [`judge_score_request`]: what the request leaves unspecified stays so.
const UNSPECIFIED: Asked = Asked {
    ruleset: pb::Ruleset::Unspecified as i32,
    view: pb::ScoreView::Unspecified as i32,
};

/// Judges a `ScoreHand` request (or a batch entry), its unspecified ruleset and view taken
/// from `defaults`.
fn judge_score_request(request: &pb::ScoreHandRequest, defaults: Asked) -> Judged {
    let pb::ScoreHandRequest {
        hand_input,
        context,
        ruleset,
        view,
    } = request;
    judge_pb(
        hand_input.as_ref().map(HandSource::from),
        context.as_ref(),
        defaults.under(*ruleset, *view),
    )
}

/// Judges a `ScoreHand` request (or a batch entry) as the server reads it, its unspecified
/// ruleset and view taken from `defaults`: the same judgement as for the message prost
/// decodes from the same bytes.
fn judge_query(query: ScoreHandQuery, defaults: Asked) -> Judged {
    match query {
        ScoreHandQuery::Decoded(request) => judge_score_request(&request, defaults),
        ScoreHandQuery::Clean(request) => judge_clean(&request, defaults, None),
    }
}

/// Judges a request with a clean structured hand (see [`judge_query`]), a score written
/// into `spare` when there is one.
fn judge_clean(request: &CleanRequest, defaults: Asked, spare: Option<Box<Scored>>) -> Judged {
    let CleanRequest {
        hand,
        context,
        ruleset,
        view,
    } = request;
    judge_draft(
        Some((hand, &Artefacts::default())),
        Vec::new(),
        context.as_ref(),
        defaults.under(*ruleset, *view),
        spare,
    )
}

/// Handles a `ValidateHand` request. Never panics, whatever the request holds.
pub fn validate_request(request: &pb::ValidateHandRequest) -> pb::ValidateHandResponse {
    let pb::ValidateHandRequest {
        hand_input,
        context,
        ruleset,
    } = request;
    // Validation needs no score sheet: the numbers are enough.
    let judged = judge_pb(
        hand_input.as_ref().map(HandSource::from),
        context.as_ref(),
        Asked {
            ruleset: *ruleset,
            view: pb::ScoreView::Basic as i32,
        },
    );
    validate_response(&judged.judgement)
}

// ---------------------------------------------------------------------------------------------
// gRPC requests: malformed input is an error, not a response

/// The `ErrorInfo` reason of a malformed hand, in a `ScoreHand` status and in a batch's
/// error results alike.
pub const INVALID_HAND: &str = "INVALID_HAND";

/// Handles a `ScoreHand` call: the itemised score of a well-formed hand (a losing one
/// included), encoded as [`score_response`] would build it, or every violation of a
/// malformed one. Never panics, whatever the request holds.
pub fn score_hand(request: ScoreHandQuery) -> Result<ScoreHandReply, Vec<Violation>> {
    let judged = judge_query(request, UNSPECIFIED);
    match judged.judgement {
        Judgement::Invalid(violations) => Err(violations),
        Judgement::Scored(s) => Ok(ScoreHandReply::new(&s, judged.view)),
    }
}

/// Handles a `BatchScoreHands` call: one result per request, in order, each a score or the
/// entry's violations (paths relative to the entry) under the reason [`INVALID_HAND`]. The
/// errors are a message prost cannot decode, and a `default_ruleset` or `default_view`
/// outside its enum. The batch length is the caller's to limit.
///
/// # Errors
/// As [`BatchScoring::new`] and [`BatchScoring::score`].
pub fn batch_score_hands(
    request: BatchScoreHandsQuery,
) -> Result<BatchScoreHandsReply, BatchRejection> {
    BatchScoring::new(request)?.finish()
}

/// Why a batch gets no answer.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchRejection {
    /// prost cannot decode the message (an entry is not a `ScoreHandRequest`): prost's error,
    /// as if the message had not been read at all.
    Malformed(prost::DecodeError),
    /// `default_ruleset` or `default_view` is outside its enum.
    Invalid(Vec<Violation>),
}

/// A `BatchScoreHands` call answered a part at a time ([`batch_score_hands`] in steps), so
/// that a server can let other calls run between the parts.
#[derive(Debug)]
pub struct BatchScoring {
    request: BatchScoreHandsQuery,
    /// The next entry to answer.
    next: usize,
    buffer: EntryBuffer,
    defaults: Asked,
    reply: BatchWriter,
    /// The last score written, whose allocations serve the next entry's.
    spare: Option<Box<Scored>>,
}

impl BatchScoring {
    /// Starts answering `request`.
    ///
    /// # Errors
    /// A `default_ruleset` or `default_view` outside its enum, unless prost cannot decode
    /// the message: that comes first.
    pub fn new(mut request: BatchScoreHandsQuery) -> Result<Self, BatchRejection> {
        let mut violations = Vec::new();
        let default_ruleset = ruleset_from_pb(request.default_ruleset)
            .map_err(|mut v| {
                "default_ruleset".clone_into(&mut v.field);
                violations.push(v);
            })
            .ok();
        let default_view = view_from_pb(request.default_view, "default_view")
            .map_err(|v| violations.push(v))
            .ok();
        let (Some(default_ruleset), Some(default_view)) = (default_ruleset, default_view) else {
            request.check().map_err(BatchRejection::Malformed)?;
            return Err(BatchRejection::Invalid(violations));
        };
        let reply = BatchWriter::with_capacity(request.len(), default_view);
        Ok(BatchScoring {
            request,
            next: 0,
            buffer: EntryBuffer::default(),
            defaults: Asked {
                ruleset: ruleset_to_pb(default_ruleset) as i32,
                view: default_view as i32,
            },
            reply,
            spare: None,
        })
    }

    /// Answers up to `hands` more entries, in order; whether any are left.
    ///
    /// # Errors
    /// When prost cannot decode the message (found as the entries are read): the batch gets
    /// no answer.
    pub fn score(&mut self, hands: usize) -> Result<bool, BatchRejection> {
        let end = self.next.saturating_add(hands).min(self.request.len());
        while self.next < end {
            let judged = match self.request.entry(self.next, &mut self.buffer) {
                Ok(Some(BatchEntry::Clean(request))) => {
                    judge_clean(request, self.defaults, self.spare.take())
                }
                Ok(Some(BatchEntry::Decoded(request))) => {
                    judge_score_request(request, self.defaults)
                }
                // Not reached: `len` counts the entries `entry` reads. Should it happen, the
                // batch ends here rather than never.
                Ok(None) => {
                    debug_assert!(false, "entry {} of {} missing", self.next, end);
                    self.next = usize::MAX;
                    break;
                }
                Err(e) => return Err(BatchRejection::Malformed(e)),
            };
            self.reply.push(&judged.judgement, judged.view);
            if let Judgement::Scored(scored) = judged.judgement {
                self.spare = Some(scored);
            }
            self.next += 1;
        }
        Ok(self.next < self.request.len())
    }

    /// The reply, every entry answered.
    ///
    /// # Errors
    /// As [`BatchScoring::score`].
    pub fn finish(mut self) -> Result<BatchScoreHandsReply, BatchRejection> {
        while self.score(usize::MAX)? {}
        Ok(self.reply.finish())
    }
}

/// Handles a `ListFans` call: every fan with its points and exclusions under the ruleset.
/// The only error is a ruleset outside the enum.
pub fn list_fans(request: &pb::ListFansRequest) -> Result<pb::ListFansResponse, Vec<Violation>> {
    let pb::ListFansRequest { ruleset } = request;
    let rules = Ruleset::get(ruleset_from_pb(*ruleset).map_err(|v| vec![v])?);
    let sorted = |fans: &mut dyn Iterator<Item = Fan>| {
        let mut numbers: Vec<i32> = fans.map(fan_to_pb).collect();
        numbers.sort_unstable();
        numbers
    };
    let fans = Fan::ALL
        .into_iter()
        .map(|fan| {
            let FanSpec {
                fan: _,
                name_zh,
                name_en,
                points: _,
                excludes,
                excludes_for_its_sets,
            } = *fan.spec();
            pb::FanInfo {
                fan: fan_to_pb(fan),
                number: u32::from(fan.id()),
                name_zh: name_zh.to_owned(),
                name_en: name_en.to_owned(),
                points: u32::from(rules.points(fan)),
                excludes: sorted(
                    &mut excludes
                        .iter()
                        .copied()
                        .filter(|&excluded| rules.excludes(fan, excluded)),
                ),
                excludes_for_its_sets: sorted(&mut excludes_for_its_sets.iter().copied()),
            }
        })
        .collect();
    Ok(pb::ListFansResponse {
        ruleset: ruleset_to_pb(rules.id) as i32,
        fans,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Numbers around every enum's range: valid ones, unspecified and out of range.
    fn number() -> impl Strategy<Value = i32> {
        prop_oneof![8 => 0..=35i32, 1 => -2..=40i32]
    }

    fn pb_hand() -> impl Strategy<Value = pb::Hand> {
        let meld = (
            prop_oneof![4 => 1..=4i32, 1 => -1..=6i32],
            prop::collection::vec(number(), 0..=5),
            prop_oneof![4 => 0..=3i32, 1 => -1..=5i32],
            any::<bool>(),
        )
            .prop_map(|(kind, tiles, claimed_from, promoted)| pb::Meld {
                kind,
                tiles,
                claimed_from,
                promoted,
            });
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
