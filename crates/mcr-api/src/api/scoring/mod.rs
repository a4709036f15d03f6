//! The scoring family of the contract (`scoring.proto`): `ScoreHand`, `ValidateHand`,
//! `BatchScoreHands`, `ListFans` and `ParseHand`, each from its request to its response.
//!
//! Every request that carries a hand becomes a [`ScoreQuery`] and is judged by
//! [`query::assess`]; the result is written back by prost ([`crate::api::kit::score_sheet`]) for
//! `ValidateHand` and the JSON forms, straight to protobuf bytes for the gRPC scoring
//! responses ([`self::fast::wire`]).

pub mod fast;

use crate::api::kit::hand::hand_to_pb;
use crate::api::kit::values::{fan_to_pb, ruleset_from_pb, ruleset_to_pb, tile_to_pb};
use mcr::{Fan, FanSpec, Ruleset, Violation};

use self::fast::query::{BatchScoreHandsQuery, EntryBuffer};
use self::fast::wire::{BatchScoreHandsReply, BatchWriter, ScoreHandReply};
use crate::api::kit::house_rules::KeptRules;
use crate::api::kit::json::{self, JsonError};
use crate::api::kit::query::{self, Defaults, ScoreQuery};
use crate::api::kit::score_sheet::{score_response, validate_response};
use crate::api::pb;
use crate::assessment::{self, Assessment, Scored};
use std::sync::Arc;

/// Handles a `ScoreHand` request as prost decodes it: the itemised score, or
/// `OUTCOME_INVALID` with every violation. Never panics, whatever the request holds.
pub fn score_request(request: &pb::ScoreHandRequest, kept: &KeptRules) -> pb::ScoreHandResponse {
    let query = ScoreQuery::from(request);
    score_response(
        &query::assess(&query, kept, None),
        query.ruleset,
        query.view,
    )
}

/// Handles a `ValidateHand` request. Never panics, whatever the request holds.
pub fn validate_request(
    request: &pb::ValidateHandRequest,
    kept: &KeptRules,
) -> pb::ValidateHandResponse {
    validate_response(&query::assess(&ScoreQuery::from(request), kept, None))
}

/// Handles a `ScoreHand` call: the itemised score of a well-formed hand (a losing one
/// included), encoded as [`score_response`] would build it, or every violation of a
/// malformed one. Never panics, whatever the request holds.
pub fn score_hand(query: &ScoreQuery, kept: &KeptRules) -> Result<ScoreHandReply, Vec<Violation>> {
    match query::assess(query, kept, None) {
        Assessment::Invalid(violations) => Err(violations),
        Assessment::Scored(s) => Ok(ScoreHandReply::new(&s, query.view)),
    }
}

/// Handles a `BatchScoreHands` call: one result per request, in order, each a score or the
/// entry's violations (paths relative to the entry) under the reason
/// [`INVALID_HAND`](crate::api::kit::values::INVALID_HAND). The errors are a message prost cannot
/// decode, and a `default_ruleset`, `default_view` or `default_overrides` that is invalid.
/// The batch length is the caller's to limit.
///
/// # Errors
/// As [`BatchScoring::new`] and [`BatchScoring::score`].
pub fn batch_score_hands(
    request: BatchScoreHandsQuery,
    kept: &Arc<KeptRules>,
) -> Result<BatchScoreHandsReply, BatchRejection> {
    BatchScoring::new(request, kept)?.finish()
}

/// Why a batch gets no answer.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchRejection {
    /// prost cannot decode the message (an entry is not a `ScoreHandRequest`): prost's error,
    /// as if the message had not been read at all.
    Malformed(prost::DecodeError),
    /// `default_ruleset`, `default_view` or `default_overrides` is invalid.
    Invalid(Vec<Violation>),
}

/// A `BatchScoreHands` call answered a part at a time ([`batch_score_hands`] in steps), so
/// that a server can let other calls run between the parts, or answer parts on other
/// threads ([`BatchScoring::parts`]).
#[derive(Debug)]
pub struct BatchScoring {
    request: BatchScoreHandsQuery,
    /// The next entry to answer.
    next: usize,
    buffer: EntryBuffer,
    /// The batch's ruleset, view and house rules, checked, the rules built.
    defaults: Defaults,
    /// The house rules built lately, where the entries' own are found.
    kept: Arc<KeptRules>,
    reply: BatchWriter,
    /// The last score written, whose allocations serve the next entry's.
    spare: Option<Box<Scored>>,
}

impl BatchScoring {
    /// Starts answering `request`.
    ///
    /// # Errors
    /// An invalid `default_ruleset`, `default_view` or `default_overrides`, unless prost
    /// cannot decode the message: that comes first.
    pub fn new(
        request: BatchScoreHandsQuery,
        kept: &Arc<KeptRules>,
    ) -> Result<Self, BatchRejection> {
        let defaults = Defaults::of_batch(
            request.default_ruleset,
            request.default_view,
            request.default_overrides.as_ref(),
            kept,
        )
        .or_else(|violations| {
            request.check().map_err(BatchRejection::Malformed)?;
            Err(BatchRejection::Invalid(violations))
        })?;
        let view = pb::ScoreView::try_from(defaults.view).unwrap_or(pb::ScoreView::Full);
        Ok(BatchScoring {
            reply: BatchWriter::with_capacity(request.len(), view),
            request,
            next: 0,
            buffer: EntryBuffer::default(),
            defaults,
            kept: Arc::clone(kept),
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
            let query = self
                .request
                .entry(self.next, &mut self.buffer, &self.defaults)
                .map_err(BatchRejection::Malformed)?;
            // `len` counts the entries `entry` reads: there is one.
            let Some(query) = query else { break };
            let assessment = query::assess(query, &self.kept, self.spare.take());
            self.reply.push(&assessment, query.view);
            if let Assessment::Scored(scored) = assessment {
                self.spare = Some(scored);
            }
            self.next += 1;
        }
        Ok(self.next < self.request.len())
    }

    /// The bytes of the reply written so far (what the server charges to its budget of
    /// bytes held for clients as the batch is scored).
    pub fn answered_bytes(&self) -> usize {
        self.reply.written()
    }

    /// The reply, every entry answered.
    ///
    /// # Errors
    /// As [`BatchScoring::score`].
    pub fn finish(mut self) -> Result<BatchScoreHandsReply, BatchRejection> {
        while self.score(usize::MAX)? {}
        Ok(self.reply.finish())
    }

    /// The entries not yet answered as batches of up to `hands` entries each, in order, to
    /// answer apart (on other threads): their replies, appended in order, are the rest of the
    /// batch's reply.
    pub fn parts(&self, hands: usize) -> Vec<BatchScoring> {
        let hands = hands.max(1);
        let view = pb::ScoreView::try_from(self.defaults.view).unwrap_or(pb::ScoreView::Full);
        (self.next..self.request.len())
            .step_by(hands)
            .map(|start| {
                let request = self.request.part(start..start.saturating_add(hands));
                BatchScoring {
                    reply: BatchWriter::with_capacity(request.len(), view),
                    request,
                    next: 0,
                    buffer: EntryBuffer::default(),
                    defaults: self.defaults.clone(),
                    kept: Arc::clone(&self.kept),
                    spare: None,
                }
            })
            .collect()
    }
}

/// Handles a `ParseHand` call: notation in any of its forms read into the structured hand
/// (as written: standing tiles in their order, chows with their claimed tile), its canonical
/// notation, its glyphs and its tile counts. Text that is not notation is `NOTATION_SYNTAX`;
/// a hand that is not well formed under the default context, its violations.
pub fn parse_hand(request: &pb::ParseHandRequest) -> Result<pb::ParseHandResponse, Vec<Violation>> {
    let pb::ParseHandRequest { notation } = request;
    let input = assessment::parse_notation(notation).map_err(|v| vec![v])?;
    let hand = input.validate(&mcr::WinContext::default())?;
    let counts = hand.all_counts();
    Ok(pb::ParseHandResponse {
        hand: Some(hand_to_pb(&input)),
        notation: mcr::notation::format_canonical(&hand),
        glyphs: mcr::notation::format_glyphs(&hand),
        tile_counts: mcr::Tile::ALL
            .into_iter()
            .filter(|t| counts[t.index()] > 0)
            .map(|t| pb::TileCount {
                tile: tile_to_pb(t),
                count: u32::from(counts[t.index()]),
            })
            .collect(),
    })
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
                name_zh_hant,
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
                name_zh_hant: name_zh_hant.to_owned(),
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

/// Writes a assessment as a `ScoreHandResponse` in proto3 JSON (for front ends that work in
/// domain terms, such as the command line).
pub fn assessment_to_json(
    assessment: &Assessment,
    ruleset: mcr::RulesetId,
    pretty: bool,
) -> Result<String, JsonError> {
    let ruleset = ruleset_to_pb(ruleset) as i32;
    json::to_json::<pb::ScoreHandResponse>(
        &score_response(assessment, ruleset, pb::ScoreView::Full),
        pretty,
    )
}

/// One line of the JSON Lines protocol: a `ScoreHandRequest` in, a `ScoreHandResponse` out, or
/// `{"error": {"code": "REQUEST_UNPARSABLE", "message": …}}` when the line is not a request.
pub fn score_json_line(line: &str, kept: &KeptRules) -> String {
    match json::from_json::<pb::ScoreHandRequest>(line) {
        Err(e) => json::error_line("REQUEST_UNPARSABLE", &e.message),
        Ok(request) => {
            let response = score_request(&request, kept);
            json::to_json::<pb::ScoreHandResponse>(&response, false)
                .unwrap_or_else(|e| json::error_line("INTERNAL", &e.message))
        }
    }
}
