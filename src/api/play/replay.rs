//! `ReplayHand`: a whole hand's record (structured, or
//! Botzone's text) → every finding, the derived circumstances, the score and the points.

use mcr::play::botzone::{BotzoneMatch, RecordErrorCode, read_matches};
use mcr::play::{
    At, Consequence, Drawn, Event, OverriddenClaim, PlayCode, PlayFinding, PlayState, Record,
    Replay, ReplayEnd, ReplayOptions, Stated, replay_dealt,
};
use mcr::violation::FieldPath;
use mcr::{BySeat, HandInput, Rules, Seat, Violation, ViolationCode};

use super::super::accounting::offence::ruling_to_pb;
use super::super::accounting::payments::accounts_to_pb;
use super::super::accounting::violations::{Violations, rules_of};
use super::super::accounting::winning_hand::score_sheet;
use super::super::hand::hand_to_pb;
use super::super::house_rules::fingerprint_text;
use super::super::path::too_many;
use super::super::pb;
use super::super::values::{
    required_seat, seat_number, seat_to_pb, tile_or_violation, tile_to_pb, value_invalid,
    win_source_to_pb, wind_from_pb,
};
use super::convert::{action_of, circumstances_from_pb, circumstances_to_pb, drawn_of, flower_of};
use crate::limits;

/// `ReplayHand`: the record refereed, or every problem that keeps it from being read.
pub fn replay_hand(
    request: &pb::ReplayHandRequest,
) -> Result<pb::ReplayHandResponse, Vec<Violation>> {
    let mut v = Violations::default();
    let botzone = matches!(
        request.record,
        Some(pb::replay_hand_request::Record::BotzoneText(_))
    );
    let ruleset = if botzone && request.ruleset == pb::Ruleset::Unspecified as i32 {
        pb::Ruleset::Mil as i32
    } else {
        request.ruleset
    };
    let rules = rules_of(ruleset, request.overrides.as_ref(), &mut v);
    let (structured, botzone_match) = match &request.record {
        None => {
            v.0.push(value_invalid(
                FieldPath::of("record"),
                "a record is required: `structured` or `botzone_text`".to_owned(),
            ));
            (None, None)
        }
        Some(pb::replay_hand_request::Record::Structured(r)) => (record_from_pb(r, &mut v), None),
        Some(pb::replay_hand_request::Record::BotzoneText(text)) => match botzone_from_text(text) {
            Ok(m) => (None, Some(m)),
            Err(e) => {
                v.0.push(e);
                (None, None)
            }
        },
    };
    let record = botzone_match
        .as_ref()
        .map(|m| &m.record)
        .or(structured.as_ref());
    let ruleset_in_force = rules.ruleset();
    // The deal is dealt once: its problems are the request's, its state is replayed.
    let dealt = record.map(|record| {
        PlayState::deal(
            ruleset_in_force.play,
            record.prevalent_wind,
            &record.deal,
            record.wall.clone(),
        )
    });
    let state = match dealt {
        Some(Ok(state)) => Some(state),
        Some(Err(found)) => {
            deal_violations(found, botzone_match.as_ref(), &mut v);
            None
        }
        None => None,
    };
    let (Some(record), Some(state)) = (record, state) else {
        return Err(v.0);
    };
    if !v.0.is_empty() {
        return Err(v.0);
    }
    let options = ReplayOptions {
        snapshots: request.include_states,
    };
    let r = replay_dealt(state, record, &ruleset_in_force, options);
    Ok(response(&r, botzone_match.as_ref(), &rules))
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
        v.0.push(Violation::new(deal_code(f.code), path, message));
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
        v.0.extend(over);
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
    v.0.is_empty().then_some(record)
}

/// The four seats' deals into `record`.
fn deal_from_pb(deal: &[pb::SeatDeal], record: &mut Record, v: &mut Violations) {
    let mut dealt = [false; 4];
    if deal.len() != 4 {
        v.0.push(value_invalid(
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
            v.0.push(Violation::new(
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
                v.0.push(value_invalid(
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
            v.0.push(value_invalid(
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

fn consequence_to_pb(c: Consequence) -> pb::Consequence {
    match c {
        Consequence::Noted => pb::Consequence::Noted,
        Consequence::Corrected => pb::Consequence::Corrected,
        Consequence::Void => pb::Consequence::Void,
        Consequence::LosesRightToWin => pb::Consequence::LosesRightToWin,
        Consequence::Stops => pb::Consequence::Stops,
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

fn response(r: &Replay, botzone: Option<&BotzoneMatch>, rules: &Rules) -> pb::ReplayHandResponse {
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
        outcome: match r.end {
            ReplayEnd::Win(_) => pb::ReplayOutcome::Win,
            ReplayEnd::DrawGame => pb::ReplayOutcome::DrawGame,
            ReplayEnd::NoResult => pb::ReplayOutcome::NoResult,
        } as i32,
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
        out.score = Some(score_sheet(
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
