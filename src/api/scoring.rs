//! The scoring family of the contract (`scoring.proto`): `ScoreHand`, `ValidateHand`,
//! `BatchScoreHands` and `ListFans`, each from its request to its response.
//!
//! A request's hand and context are converted ([`super::hand`]), validated and scored by
//! [`crate::assessment`], and the result written back: by prost for `ValidateHand` and the
//! JSON forms, straight to protobuf bytes for the gRPC scoring responses
//! ([`super::fast::wire`]).

use super::hand::{Artefacts, HandDraft, HandSource, draft_context, draft_hand, hand_to_pb};
use super::house_rules::{fingerprint_text, rules_from_pb};
use super::values::{
    detail_of, element_kind_to_pb, fan_to_pb, outcome_to_pb, ruleset_from_pb, ruleset_to_pb,
    shape_to_pb, shown_to_pb, tile_to_pb, value_invalid, view_from_pb, violation_to_pb,
};
use mcr::house_rules::Rules;
use mcr::violation::FieldPath;
use mcr::{Element, Fan, FanLine, FanSpec, HandInput, Outcome, Reading, Ruleset, Violation};
use std::sync::Arc;

use super::fast::query::{
    BatchEntry, BatchScoreHandsQuery, CleanRequest, EntryBuffer, ScoreHandQuery,
};
use super::fast::wire::{BatchScoreHandsReply, BatchWriter, ScoreHandReply};
use super::json::{self, JsonError};
use super::path;
use super::pb;
use crate::assessment::{self, Assessment, Detail, Scored};

/// What a request asks for besides its hand and context: proto numbers as given, and its
/// house rules.
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    /// The ruleset.
    pub ruleset: i32,
    /// The score view (the full sheet when unspecified).
    pub view: i32,
    /// House rules over the ruleset (absent: none).
    pub overrides: Option<&'a pb::RuleOverrides>,
    /// The rules of `ruleset` with `overrides`, already built and checked (a batch's
    /// defaults), or `None` to build them.
    pub rules: Option<&'a Rules>,
}

impl<'a> Asked<'a> {
    /// The ruleset, view and house rules a request asks for: its own, these defaults where
    /// it leaves them unspecified (its own overrides replace the default ones whole).
    pub(crate) fn under(
        self,
        ruleset: i32,
        view: i32,
        overrides: Option<&'a pb::RuleOverrides>,
    ) -> Asked<'a> {
        let or = |number: i32, default: i32| if number == 0 { default } else { number };
        let ruleset = or(ruleset, self.ruleset);
        Asked {
            ruleset,
            view: or(view, self.view),
            overrides: overrides.or(self.overrides),
            // Built for the defaults: still the rules when the request changes neither.
            rules: self
                .rules
                .filter(|_| ruleset == self.ruleset && overrides.is_none()),
        }
    }
}

/// What [`assess_parts`] makes of a request.
#[derive(Debug)]
pub struct Assessed {
    /// The assessment.
    pub assessment: Assessment,
    /// The ruleset to report: the one applied, or for an unknown ruleset the number given.
    pub ruleset: i32,
    /// The view to answer in (the full sheet when the one asked for is unknown).
    pub view: pb::ScoreView,
}

/// Converts, validates and scores the parts of a request, collecting every violation:
/// the conversion's first (hand, context, ruleset, view), then the domain's. Works out the
/// score sheet only as far as the view needs.
pub fn assess_parts(
    hand: Option<HandSource<'_>>,
    context: Option<&pb::WinContext>,
    asked: Asked<'_>,
) -> Assessed {
    let mut violations = Vec::new();
    let mut draft: Option<HandDraft> = None;
    match hand {
        None => violations.push(value_invalid(
            FieldPath::of("hand_input"),
            "the request has no hand: set `notation` or `hand`".to_owned(),
        )),
        Some(HandSource::Notation(text)) => match assessment::parse_notation(text) {
            Ok(input) => draft = Some(HandDraft::clean(input)),
            Err(v) => violations.push(v),
        },
        Some(HandSource::Hand(h)) => {
            let mut d = draft_hand(h);
            violations.append(&mut d.violations);
            draft = Some(d);
        }
    }
    assess_draft(
        draft.as_ref().map(|d| (&d.input, &d.artefacts)),
        violations,
        context,
        asked,
        None,
    )
}

/// [`assess_parts`] from the hand's draft on, `violations` holding the hand's; a score is
/// written into `spare` when there is one ([`assessment::assess_into`]).
pub(crate) fn assess_draft(
    draft: Option<(&HandInput, &Artefacts)>,
    mut violations: Vec<Violation>,
    context: Option<&pb::WinContext>,
    asked: Asked<'_>,
    spare: Option<Box<Scored>>,
) -> Assessed {
    let Asked {
        ruleset,
        view,
        overrides,
        rules: built,
    } = asked;
    let (context, context_violations) = draft_context(context);
    violations.extend(context_violations);
    let reported_ruleset = ruleset_from_pb(ruleset).map_or(ruleset, |id| ruleset_to_pb(id) as i32);
    let building;
    let rules = if let Some(rules) = built {
        Some(rules)
    } else {
        building = rules_from_pb(ruleset, overrides, FieldPath::of("overrides"));
        building
            .as_ref()
            .map_err(|v| violations.extend_from_slice(v))
            .ok()
    };
    let view = view_from_pb(view, FieldPath::of("view")).unwrap_or_else(|v| {
        violations.push(v);
        pb::ScoreView::Full
    });
    let detail = detail_of(view);
    let assessed = |assessment| Assessed {
        assessment,
        ruleset: reported_ruleset,
        view,
    };

    match (draft, rules) {
        (Some((input, _)), Some(rules)) if violations.is_empty() => assessed(
            match assessment::assess_into(input, &context, rules, detail, spare) {
                Assessment::Invalid(violations) => {
                    Assessment::Invalid(violations.into_iter().map(path::hand_violation).collect())
                }
                scored @ Assessment::Scored(_) => scored,
            },
        ),
        (draft, _) => {
            if let Some((input, artefacts)) = draft
                && let Err(domain) = input.validate(&context)
            {
                violations.extend(
                    domain
                        .into_iter()
                        .filter(|v| !artefacts.cover(v))
                        .map(path::hand_violation),
                );
            }
            assessed(Assessment::Invalid(violations))
        }
    }
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
        name_zh_hant: spec.name_zh_hant.to_owned(),
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
pub(crate) fn fan_line_numbers(line: &FanLine) -> pb::FanLine {
    pb::FanLine {
        fan: fan_to_pb(line.fan),
        name_zh: String::new(),
        name_en: String::new(),
        name_zh_hant: String::new(),
        points: u32::from(line.points),
        count: u32::from(line.count),
        total_points: line.total(),
        element_indices: Vec::new(),
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
pub(crate) fn scored_to_pb(s: &Scored, view: pb::ScoreView) -> pb::ScoreHandResponse {
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
        ruleset: ruleset_to_pb(s.ruleset) as i32,
        rules_fingerprint: fingerprint_text(s.fingerprint),
        glyphs: String::new(),
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
            glyphs: s.glyphs(),
            ..numbers
        },
    }
}

/// A assessment as a `ScoreHand` response in `view`; `ruleset` is reported as is for an
/// invalid input.
pub fn score_response(
    assessment: &Assessment,
    ruleset: i32,
    view: pb::ScoreView,
) -> pb::ScoreHandResponse {
    match assessment {
        Assessment::Invalid(violations) => pb::ScoreHandResponse {
            outcome: pb::Outcome::Invalid as i32,
            violations: violations.iter().map(violation_to_pb).collect(),
            ruleset,
            ..pb::ScoreHandResponse::default()
        },
        Assessment::Scored(s) => scored_to_pb(s, view),
    }
}

/// A assessment as a `ValidateHand` response: the first violations, clipped
/// ([`crate::limits::shown_violations`]).
pub fn validate_response(assessment: &Assessment) -> pb::ValidateHandResponse {
    match assessment {
        Assessment::Invalid(violations) => pb::ValidateHandResponse {
            valid: false,
            violations: crate::limits::shown_violations(violations)
                .map(shown_to_pb)
                .collect(),
            winning_shape: false,
            reaches_minimum: false,
            outcome: pb::Outcome::Invalid as i32,
            rules_fingerprint: String::new(),
        },
        Assessment::Scored(s) => pb::ValidateHandResponse {
            valid: true,
            violations: Vec::new(),
            winning_shape: s.is_winning_shape(),
            reaches_minimum: s.scoring.outcome == Outcome::Win,
            outcome: outcome_to_pb(s.scoring.outcome) as i32,
            rules_fingerprint: fingerprint_text(s.fingerprint),
        },
    }
}

/// Handles a `ScoreHand` request: the itemised score, or `OUTCOME_INVALID` with every violation.
/// Never panics, whatever the request holds.
pub fn score_request(request: &pb::ScoreHandRequest) -> pb::ScoreHandResponse {
    let assessed = assess_score_request(request, UNSPECIFIED);
    score_response(&assessed.assessment, assessed.ruleset, assessed.view)
}

/// No defaults for [`assess_score_request`]: what the request leaves unspecified stays so.
pub(crate) const UNSPECIFIED: Asked<'static> = Asked {
    ruleset: pb::Ruleset::Unspecified as i32,
    view: pb::ScoreView::Unspecified as i32,
    overrides: None,
    rules: None,
};

/// Judges a `ScoreHand` request (or a batch entry), its unspecified ruleset and view taken
/// from `defaults`.
pub(crate) fn assess_score_request(
    request: &pb::ScoreHandRequest,
    defaults: Asked<'_>,
) -> Assessed {
    let pb::ScoreHandRequest {
        hand_input,
        context,
        ruleset,
        view,
        overrides,
    } = request;
    assess_parts(
        hand_input.as_ref().map(HandSource::from),
        context.as_ref(),
        defaults.under(*ruleset, *view, overrides.as_deref()),
    )
}

/// Judges a `ScoreHand` request (or a batch entry) as the server reads it, its unspecified
/// ruleset and view taken from `defaults`: the same assessment as for the message prost
/// decodes from the same bytes.
pub(crate) fn assess_query(query: ScoreHandQuery, defaults: Asked<'_>) -> Assessed {
    match query {
        ScoreHandQuery::Decoded(request) => assess_score_request(&request, defaults),
        ScoreHandQuery::Clean(request) => assess_clean(&request, defaults, None),
    }
}

/// Judges a request with a clean structured hand (see [`assess_query`]), a score written
/// into `spare` when there is one.
pub(crate) fn assess_clean(
    request: &CleanRequest,
    defaults: Asked<'_>,
    spare: Option<Box<Scored>>,
) -> Assessed {
    let CleanRequest {
        hand,
        context,
        ruleset,
        view,
    } = request;
    assess_draft(
        Some((hand, &Artefacts::default())),
        Vec::new(),
        context.as_ref(),
        defaults.under(*ruleset, *view, None),
        spare,
    )
}

/// Handles a `ValidateHand` request. Never panics, whatever the request holds.
pub fn validate_request(request: &pb::ValidateHandRequest) -> pb::ValidateHandResponse {
    let pb::ValidateHandRequest {
        hand_input,
        context,
        ruleset,
        overrides,
    } = request;
    // Validation needs no score sheet: the numbers are enough.
    let assessed = assess_parts(
        hand_input.as_ref().map(HandSource::from),
        context.as_ref(),
        Asked {
            ruleset: *ruleset,
            view: pb::ScoreView::Basic as i32,
            overrides: overrides.as_ref(),
            rules: None,
        },
    );
    validate_response(&assessed.assessment)
}

/// Handles a `ScoreHand` call: the itemised score of a well-formed hand (a losing one
/// included), encoded as [`score_response`] would build it, or every violation of a
/// malformed one. Never panics, whatever the request holds.
pub fn score_hand(request: ScoreHandQuery) -> Result<ScoreHandReply, Vec<Violation>> {
    let assessed = assess_query(request, UNSPECIFIED);
    match assessed.assessment {
        Assessment::Invalid(violations) => Err(violations),
        Assessment::Scored(s) => Ok(ScoreHandReply::new(&s, assessed.view)),
    }
}

/// Handles a `BatchScoreHands` call: one result per request, in order, each a score or the
/// entry's violations (paths relative to the entry) under the reason [`INVALID_HAND`](super::values::INVALID_HAND). The
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
    pub(crate) request: BatchScoreHandsQuery,
    /// The next entry to answer.
    pub(crate) next: usize,
    pub(crate) buffer: EntryBuffer,
    /// The batch's ruleset and view (its overrides are `default_overrides`).
    pub(crate) defaults: Asked<'static>,
    /// The batch's house rules, already checked.
    pub(crate) default_overrides: Option<pb::RuleOverrides>,
    /// The default ruleset with `default_overrides`, built once for the entries that change
    /// neither.
    pub(crate) default_rules: Option<Arc<Rules>>,
    pub(crate) reply: BatchWriter,
    /// The last score written, whose allocations serve the next entry's.
    pub(crate) spare: Option<Box<Scored>>,
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
                *v.path = FieldPath::of("default_ruleset");
                violations.push(v);
            })
            .ok();
        let default_view = view_from_pb(request.default_view, FieldPath::of("default_view"))
            .map_err(|v| violations.push(v))
            .ok();
        let mut default_rules = None;
        if let (Some(id), Some(overrides)) = (default_ruleset, &request.default_overrides) {
            match rules_from_pb(
                ruleset_to_pb(id) as i32,
                Some(overrides),
                FieldPath::of("default_overrides"),
            ) {
                Ok(rules) => default_rules = Some(Arc::new(rules)),
                Err(v) => violations.extend(v),
            }
        }
        let (Some(default_ruleset), Some(default_view), true) =
            (default_ruleset, default_view, violations.is_empty())
        else {
            request.check().map_err(BatchRejection::Malformed)?;
            return Err(BatchRejection::Invalid(violations));
        };
        let reply = BatchWriter::with_capacity(request.len(), default_view);
        let default_overrides = request.default_overrides.take();
        Ok(BatchScoring {
            request,
            next: 0,
            buffer: EntryBuffer::default(),
            defaults: Asked {
                ruleset: ruleset_to_pb(default_ruleset) as i32,
                view: default_view as i32,
                overrides: None,
                rules: None,
            },
            default_overrides,
            default_rules,
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
        let defaults = Asked {
            overrides: self.default_overrides.as_ref(),
            rules: self.default_rules.as_deref(),
            ..self.defaults
        };
        while self.next < end {
            let assessed = match self.request.entry(self.next, &mut self.buffer) {
                Ok(Some(BatchEntry::Clean(request))) => {
                    assess_clean(request, defaults, self.spare.take())
                }
                Ok(Some(BatchEntry::Decoded(request))) => assess_score_request(request, defaults),
                // Only a part leaves an entry unread ([`BatchScoring::parts`]): it stops there,
                // its entries not all answered.
                Ok(Some(BatchEntry::LeftToProst)) => break,
                // Not reached: `len` counts the entries `entry` reads. Should it happen, the
                // batch ends here rather than never.
                Ok(None) => {
                    debug_assert!(false, "entry {} of {} missing", self.next, end);
                    self.next = usize::MAX;
                    break;
                }
                Err(e) => return Err(BatchRejection::Malformed(e)),
            };
            self.reply.push(&assessed.assessment, assessed.view);
            if let Assessment::Scored(scored) = assessed.assessment {
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

    /// The entries not yet answered as parts of up to `hands` entries each, in order, to
    /// answer apart (on other threads): their replies, appended in order, are the rest of the
    /// batch's reply.
    pub fn parts(&self, hands: usize) -> Vec<BatchPart> {
        let hands = hands.max(1);
        let view = pb::ScoreView::try_from(self.defaults.view).unwrap_or(pb::ScoreView::Full);
        (self.next..self.request.len())
            .step_by(hands)
            .map(|start| {
                let request = self.request.part(start..start.saturating_add(hands));
                BatchPart(BatchScoring {
                    reply: BatchWriter::with_capacity(request.len(), view),
                    request,
                    next: 0,
                    buffer: EntryBuffer::default(),
                    defaults: self.defaults,
                    default_overrides: self.default_overrides.clone(),
                    default_rules: self.default_rules.clone(),
                    spare: None,
                })
            })
            .collect()
    }

    /// Has prost read the whole message unless every entry is clean, so that parts
    /// ([`BatchScoring::parts`]) made after can answer every entry.
    ///
    /// # Errors
    /// As [`BatchScoring::score`].
    pub fn read_all(&mut self) -> Result<(), BatchRejection> {
        self.request.check().map_err(BatchRejection::Malformed)
    }
}

/// Consecutive entries of a batch, answered on their own ([`BatchScoring::parts`]).
#[derive(Debug)]
pub struct BatchPart(BatchScoring);

impl BatchPart {
    /// The reply to every entry of the part, or `None` when one of them is prost's to read
    /// and prost has not read the message yet ([`BatchScoring::read_all`]).
    pub fn answer(mut self) -> Option<BatchScoreHandsReply> {
        match self.0.score(usize::MAX) {
            Ok(false) => Some(self.0.reply.finish()),
            Ok(true) | Err(_) => None,
        }
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
    json::score_response_to_json(
        &score_response(assessment, ruleset, pb::ScoreView::Full),
        pretty,
    )
}

/// One line of the JSON Lines protocol: a `ScoreHandRequest` in, a `ScoreHandResponse` out, or
/// `{"error": {"code": "REQUEST_UNPARSABLE", "message": …}}` when the line is not a request.
pub fn score_json_line(line: &str) -> String {
    match json::score_request_from_json(line) {
        Err(e) => json::error_line("REQUEST_UNPARSABLE", &e.message),
        Ok(request) => {
            let response = score_request(&request);
            json::score_response_to_json(&response, false)
                .unwrap_or_else(|e| json::error_line("INTERNAL", &e.message))
        }
    }
}
