//! `ReplayHand`: a whole hand's record (structured, or
//! Botzone's text) → every finding, the derived circumstances, the score and the points.

use mcr::play::botzone::{self, BotzoneMatch, RecordErrorCode, read_matches};
use mcr::play::{
    At, Drawn, Event, OverriddenClaim, PlayCode, PlayFinding, PlayState, Record, Replay,
    ReplayOptions, Seed, Stated, Unplayable, replay_record,
};
use mcr::violation::FieldPath;
use mcr::{BySeat, HandInput, Rules, Seat, Violation, ViolationCode};

use super::convert::{action_of, circumstances_from_pb, circumstances_to_pb, drawn_of, flower_of};
use crate::api::kit::accounts::accounts_to_pb;
use crate::api::kit::hand::hand_to_pb;
use crate::api::kit::house_rules::{KeptRules, fingerprint_text, rules_of};
use crate::api::kit::path::too_many;
use crate::api::kit::ruling::ruling_to_pb;
use crate::api::kit::score_sheet::scored_hand_sheet;
use crate::api::kit::values::{
    consequence_to_pb, replay_outcome_to_pb, required_seat, ruleset_to_pb, seat_number, seat_to_pb,
    tile_or_violation, tile_to_pb, value_invalid, win_source_to_pb, wind_from_pb,
};
use crate::api::kit::violations::Violations;
use crate::api::pb;
use crate::limits;

/// `ReplayHand`: the record refereed, or every problem that keeps it from being read.
pub fn replay_hand(
    request: &pb::ReplayHandRequest,
    kept: &KeptRules,
) -> Result<pb::ReplayHandResponse, Vec<Violation>> {
    let pb::ReplayHandRequest {
        record,
        ruleset,
        overrides,
        include_states,
        seed,
    } = request;
    let mut v = Violations::default();
    let record = record.as_ref().map(|r| match r {
        pb::replay_hand_request::Record::Structured(r) => RecordIn::Structured(r),
        pb::replay_hand_request::Record::BotzoneText(text) => RecordIn::Botzone(text),
    });
    let read = read_record(record, *ruleset, overrides.as_ref(), seed, kept, &mut v);
    let Some(record) = read.record() else {
        return Err(v.into_vec());
    };
    let options = ReplayOptions {
        snapshots: *include_states,
    };
    // Replayed even when the request has other problems: a deal that cannot be played is
    // reported with them.
    match replay_record(record, &read.rules.ruleset(), options, read.seed.as_ref()) {
        Ok(r) => v
            .or_value(())
            .map(|()| response(&r, read.botzone.as_ref(), &read.rules)),
        Err(unplayable) => {
            unplayable_violations(unplayable, read.botzone.as_ref(), &mut v);
            Err(v.into_vec())
        }
    }
}

/// The record of a play request: structured, or one match of Botzone's text.
#[derive(Debug, Clone, Copy)]
pub(super) enum RecordIn<'a> {
    /// `structured`.
    Structured(&'a pb::HandRecord),
    /// `botzone_text`.
    Botzone(&'a str),
}

/// A play request's record, rules and seed, read (`ReplayHand`, `NextActions`).
#[derive(Debug)]
pub(super) struct ReadRecord {
    /// The rules (the default ones when the request's are invalid).
    pub(super) rules: Rules,
    structured: Option<Record>,
    /// The match, for a record in Botzone's text (its lines and id).
    pub(super) botzone: Option<BotzoneMatch>,
    /// The seed, when one was given.
    pub(super) seed: Option<Seed>,
}

impl ReadRecord {
    /// The record, when it could be read.
    pub(super) fn record(&self) -> Option<&Record> {
        self.botzone
            .as_ref()
            .map(|m| &m.record)
            .or(self.structured.as_ref())
    }
}

/// Reads a play request's record (required), its rules (Botzone's text is scored under the
/// engine's default for it when no ruleset is named) and its seed (empty: none); every
/// problem is recorded in `v`.
pub(super) fn read_record(
    record: Option<RecordIn<'_>>,
    ruleset: i32,
    overrides: Option<&pb::RuleOverrides>,
    seed: &[u8],
    kept: &KeptRules,
    v: &mut Violations,
) -> ReadRecord {
    let ruleset = match record {
        Some(RecordIn::Botzone(_)) if ruleset == pb::Ruleset::Unspecified as i32 => {
            ruleset_to_pb(botzone::DEFAULT_RULESET) as i32
        }
        Some(RecordIn::Botzone(_) | RecordIn::Structured(_)) | None => ruleset,
    };
    let rules = rules_of(ruleset, overrides, kept, v);
    let (structured, botzone) = match record {
        None => {
            v.add(value_invalid(
                FieldPath::of("record"),
                "a record is required: `structured` or `botzone_text`".to_owned(),
            ));
            (None, None)
        }
        Some(RecordIn::Structured(r)) => (record_from_pb(r, v), None),
        Some(RecordIn::Botzone(text)) => (None, v.take(botzone_from_text(text))),
    };
    ReadRecord {
        rules,
        structured,
        botzone,
        seed: seed_of(seed, false, v),
    }
}

/// The seed of `bytes` at `seed` (32 bytes); empty is none, a violation when `required`.
pub(super) fn seed_of(bytes: &[u8], required: bool, v: &mut Violations) -> Option<Seed> {
    if bytes.is_empty() && !required {
        return None;
    }
    let seed = <[u8; 32]>::try_from(bytes).map(Seed::new);
    if seed.is_err() {
        v.add(value_invalid(
            FieldPath::of("seed"),
            format!("a seed is 32 bytes, found {}", bytes.len()),
        ));
    }
    seed.ok()
}

/// Why a record cannot be replayed, as the request's violations.
pub(super) fn unplayable_violations(
    unplayable: Unplayable,
    botzone: Option<&BotzoneMatch>,
    v: &mut Violations,
) {
    match unplayable {
        Unplayable::Deal(found) => deal_violations(found, botzone, v),
        Unplayable::Seed(problem) => v.add(problem),
    }
}

/// The problems of a deal that cannot be played, as the request's violations.
fn deal_violations(found: Vec<PlayFinding>, botzone: Option<&BotzoneMatch>, v: &mut Violations) {
    for f in found {
        let (path, message) = match (botzone, f.at) {
            (Some(m), at) => (
                FieldPath::of("botzone_text"),
                format!("line {}: {}", m.line_of(at), f.message),
            ),
            (None, At::Deal(seat)) => (
                FieldPath::of("structured")
                    .field("deal")
                    .index(seat.index()),
                f.message,
            ),
            (None, _) => (FieldPath::of("structured").field("deal"), f.message),
        };
        v.add(Violation::new(deal_code(f.code), path, message));
    }
}

/// The input code of a deal that cannot be played: a fifth copy, a seat dealt other than 13
/// tiles, a flower where the wall has none.
fn deal_code(code: PlayCode) -> ViolationCode {
    if code == PlayCode::TileCopiesExceeded {
        ViolationCode::TooManyCopies
    } else if code == PlayCode::DealSize {
        ViolationCode::TileCountWrong
    } else {
        ViolationCode::ValueInvalid
    }
}

/// The one match of Botzone's text, or the problem that keeps it from being read, at
/// `botzone_text` with its line.
fn botzone_from_text(text: &str) -> Result<BotzoneMatch, Violation> {
    if text.len() > limits::MAX_RECORD_TEXT_BYTES {
        return Err(value_invalid(
            FieldPath::of("botzone_text"),
            format!(
                "a record has at most {} bytes, found {}",
                limits::MAX_RECORD_TEXT_BYTES,
                text.len()
            ),
        ));
    }
    let mut matches = read_matches(text);
    if matches.len() != 1 {
        return Err(value_invalid(
            FieldPath::of("botzone_text"),
            format!("give exactly one match, found {}", matches.len()),
        ));
    }
    let (_, read) = matches.remove(0);
    read.map_err(|e| {
        let code = match e.code {
            RecordErrorCode::TileUnknown => ViolationCode::TileUnknown,
            RecordErrorCode::SeatInvalid => ViolationCode::SeatInvalid,
            RecordErrorCode::ChowInvalid => ViolationCode::ChowInvalid,
            RecordErrorCode::Syntax | RecordErrorCode::DealInvalid | RecordErrorCode::TooLong => {
                ViolationCode::ValueInvalid
            }
        };
        Violation::new(
            code,
            FieldPath::of("botzone_text"),
            format!("line {}: {}", e.line, e.message),
        )
    })
}

/// The structured record in domain terms; every problem is recorded in `v`.
fn record_from_pb(r: &pb::HandRecord, v: &mut Violations) -> Option<Record> {
    let over = [
        too_many(FieldPath::of("structured").field("deal"), r.deal.len(), 4),
        too_many(
            FieldPath::of("structured").field("events"),
            r.events.len(),
            mcr::play::record::MAX_EVENTS,
        ),
        too_many(
            FieldPath::of("structured").field("wall"),
            r.wall.len(),
            limits::MAX_WALL_TILES,
        ),
    ];
    let mut over: Vec<Violation> = over.into_iter().flatten().collect();
    for (i, d) in r.deal.iter().enumerate() {
        let base = FieldPath::of("structured").field("deal").index(i);
        over.extend(too_many(
            base.field("tiles"),
            d.tiles.len(),
            limits::MAX_DEALT_TILES,
        ));
        over.extend(too_many(base.field("flowers"), d.flowers.len(), 8));
    }
    for (i, e) in r.events.iter().enumerate() {
        let path = FieldPath::of("structured")
            .field("events")
            .index(i)
            .field("overridden");
        over.extend(too_many(path, e.overridden.len(), 3));
    }
    if !over.is_empty() {
        v.extend(over);
        return None;
    }
    let mut record = Record {
        prevalent_wind: v
            .take(wind_from_pb(
                r.prevalent_wind,
                FieldPath::of("structured").field("prevalent_wind"),
            ))
            .unwrap_or_default(),
        draw_game: r.draw_game,
        ..Record::default()
    };
    deal_from_pb(&r.deal, &mut record, v);
    if !r.wall.is_empty() {
        let mut wall = Vec::with_capacity(r.wall.len());
        for (i, w) in r.wall.iter().enumerate() {
            wall.extend(drawn_of(
                w.tile,
                w.flower,
                FieldPath::of("structured").field("wall").index(i),
                v,
            ));
        }
        record.wall = Some(wall);
    }
    record.events = events_from_pb(&r.events, v);
    record.stated = stated_of(r.stated.as_ref(), v);
    v.is_empty().then_some(record)
}

/// The four seats' deals into `record`.
fn deal_from_pb(deal: &[pb::SeatDeal], record: &mut Record, v: &mut Violations) {
    let mut dealt = [false; 4];
    if deal.len() != 4 {
        v.add(value_invalid(
            FieldPath::of("structured").field("deal"),
            format!(
                "give the deal of each of the four seats, found {}",
                deal.len()
            ),
        ));
    }
    for (i, d) in deal.iter().enumerate() {
        let field = FieldPath::of("structured").field("deal").index(i);
        let Some(seat) = v.take(required_seat(d.seat, field.field("seat"))) else {
            continue;
        };
        if std::mem::replace(&mut dealt[seat.index()], true) {
            v.add(Violation::new(
                ViolationCode::SeatInvalid,
                field.field("seat"),
                format!("{seat} is dealt twice"),
            ));
        }
        let mut tiles = Vec::with_capacity(d.tiles.len() + d.flowers.len());
        for (j, &t) in d.tiles.iter().enumerate() {
            tiles.extend(
                v.take(tile_or_violation(t, field.field("tiles").index(j)))
                    .map(Drawn::Tile),
            );
        }
        for (j, &f) in d.flowers.iter().enumerate() {
            tiles.extend(flower_of(f, field.field("flowers").index(j), v).map(Drawn::Flower));
        }
        record.deal[seat] = tiles;
    }
}

/// The events, each with its overridden claims.
fn events_from_pb(events: &[pb::PlayEvent], v: &mut Violations) -> Vec<Event> {
    let mut out = Vec::with_capacity(events.len());
    for (i, e) in events.iter().enumerate() {
        let field = FieldPath::of("structured").field("events").index(i);
        let seat = v.take(required_seat(e.seat, field.field("seat")));
        let action = action_of(e.action, e.tile, e.flower, field, v);
        let mut overridden = Vec::with_capacity(e.overridden.len());
        for (j, c) in e.overridden.iter().enumerate() {
            let field = field.field("overridden").index(j);
            let seat = v.take(required_seat(c.seat, field.field("seat")));
            let claim = action_of(c.action, c.tile, 0, field, v);
            if let Some(a) = claim
                && !a.is_claim_kind()
            {
                v.add(value_invalid(
                    field.field("action"),
                    "an overridden claim is a chow, pung, kong or win".to_owned(),
                ));
            }
            if let (Some(seat), Some(action)) = (seat, claim) {
                overridden.push(OverriddenClaim { seat, action });
            }
        }
        if let (Some(seat), Some(action)) = (seat, action) {
            out.push(Event {
                seat,
                action,
                overridden,
            });
        }
    }
    out
}

fn stated_of(stated: Option<&pb::StatedResult>, v: &mut Violations) -> Stated {
    let Some(said) = stated else {
        return Stated::default();
    };
    let scores = match said.scores.as_slice() {
        [] => None,
        &[east, south, west, north] => Some(BySeat::from_array(
            [east, south, west, north].map(i64::from),
        )),
        other => {
            v.add(value_invalid(
                FieldPath::of("structured").field("stated").field("scores"),
                format!(
                    "give four points (East first) or none, found {}",
                    other.len()
                ),
            ));
            None
        }
    };
    Stated {
        fan: said.fan.map(i64::from),
        scores,
        circumstances: said.circumstances.map(circumstances_from_pb),
    }
}

fn place_to_pb(at: At) -> (pb::FindingPlace, u32) {
    match at {
        At::Event(i) => (
            pb::FindingPlace::Event,
            u32::try_from(i).unwrap_or(u32::MAX),
        ),
        At::Deal(_) | At::End => (pb::FindingPlace::End, 0),
        At::StatedFan => (pb::FindingPlace::StatedFan, 0),
        At::StatedScores => (pb::FindingPlace::StatedScores, 0),
        At::StatedCircumstances => (pb::FindingPlace::StatedCircumstances, 0),
    }
}

pub(super) fn response(
    r: &Replay,
    botzone: Option<&BotzoneMatch>,
    rules: &Rules,
) -> pb::ReplayHandResponse {
    let findings = r
        .findings
        .iter()
        .map(|f| {
            let (place, event_index) = place_to_pb(f.at);
            pb::PlayFinding {
                place: place as i32,
                event_index,
                line: botzone.map_or(0, |m| u32::try_from(m.line_of(f.at)).unwrap_or(u32::MAX)),
                code: f.code.as_str().to_owned(),
                rule: f.code.rule().to_owned(),
                consequence: consequence_to_pb(f.consequence()) as i32,
                seat: seat_number(f.seat),
                message: f.message.clone(),
            }
        })
        .collect();
    let mut out = pb::ReplayHandResponse {
        findings,
        outcome: replay_outcome_to_pb(&r.end) as i32,
        accounts: r.payments.as_ref().map(accounts_to_pb).unwrap_or_default(),
        false_declarations: r
            .false_wins
            .iter()
            .filter_map(|w| w.ruling.as_ref().map(ruling_to_pb))
            .collect(),
        states: r.snapshots.iter().map(state_to_pb).collect(),
        rules_fingerprint: fingerprint_text(rules.fingerprint()),
        match_id: botzone.map(|m| m.id.clone()).unwrap_or_default(),
        ..pb::ReplayHandResponse::default()
    };
    if let Some(win) = r.win() {
        let (source, payer) = win_source_to_pb(win.source);
        out.winner = seat_to_pb(win.seat) as i32;
        out.win_source = source as i32;
        out.payer = seat_number(payer);
        out.winning_tile = tile_to_pb(win.tile);
        out.score = Some(scored_hand_sheet(
            win.hand.clone(),
            win.context,
            rules,
            win.scoring,
        ));
    }
    out.derived = r.end.circumstances().map(circumstances_to_pb);
    out
}

fn state_to_pb(state: &PlayState) -> pb::TableState {
    let seats = Seat::ALL
        .into_iter()
        .map(|seat| {
            let s = &state.seats()[seat];
            let melds = HandInput {
                melds: s.melds().iter().map(|m| m.to_input()).collect(),
                standing: Vec::new(),
                winning_tile: None,
            };
            pb::SeatTiles {
                seat: seat_to_pb(seat) as i32,
                concealed: s.concealed_tiles().into_iter().map(tile_to_pb).collect(),
                melds: hand_to_pb(&melds).melds,
                flowers: s.flowers().iter().map(|f| u32::from(f.number())).collect(),
                discards: s.discards().iter().map(|d| tile_to_pb(d.tile)).collect(),
                discards_taken: s.discards().iter().map(|d| d.taken).collect(),
                barred: s.barred(),
            }
        })
        .collect();
    let wall_left = match state.wall().left() {
        mcr::play::WallLeft::Shared(n) => u32::from(*n),
        mcr::play::WallLeft::PerSeat(left) => left.iter().map(|&n| u32::from(n)).sum(),
    };
    pb::TableState { seats, wall_left }
}
