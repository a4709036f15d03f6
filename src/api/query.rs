//! The requests that carry a hand to score (`ScoreHand`, `ValidateHand`, a batch's entries),
//! converted once into what the engine takes, and judged by one function.
//!
//! A [`ScoreQuery`] is built in one of two ways: from prost's message
//! ([`ScoreQuery::from_request`]), or from the request's bytes by the fast reader
//! ([`crate::api::fast::query`]), which falls back to the first for anything it does not read
//! itself. Both end in `ScoreQuery::settle`, which converts the context, the rules and the
//! view the same way. [`assess`] then validates and scores it. `AnalyzeHand` converts its
//! hand with the same `convert_hand`.

use mcr::house_rules::Rules;
use mcr::violation::FieldPath;
use mcr::{HandInput, Violation, WinContext};

use super::hand::{Artefacts, HandSource, draft_context, draft_hand};
use super::house_rules::rules_from_pb;
use super::path;
use super::pb;
use super::values::{detail_of, ruleset_from_pb, ruleset_to_pb, value_invalid, view_from_pb};
use crate::assessment::{self, Assessment, Scored};

/// What a batch's entries fall back on where they leave a field unspecified: its
/// `default_ruleset`, `default_view` and `default_overrides`, already checked, with the rules
/// they make built once. A lone call has none ([`Defaults::NONE`]).
#[derive(Debug, Clone)]
pub struct Defaults {
    /// The ruleset number (unspecified: the default ruleset).
    pub(crate) ruleset: i32,
    /// The view number (unspecified: the full sheet).
    pub(crate) view: i32,
    /// House rules over the ruleset.
    pub(crate) overrides: Option<pb::RuleOverrides>,
    /// `ruleset` with `overrides`, built: the rules of every entry that changes neither.
    pub(crate) rules: Option<Rules>,
}

impl Defaults {
    /// No defaults: what a request leaves unspecified stays so.
    pub const NONE: Defaults = Defaults {
        ruleset: pb::Ruleset::Unspecified as i32,
        view: pb::ScoreView::Unspecified as i32,
        overrides: None,
        rules: None,
    };

    /// A batch's `default_ruleset`, `default_view` and `default_overrides`, checked, the
    /// rules built.
    ///
    /// # Errors
    /// Every violation of the three fields.
    pub fn of_batch(
        ruleset: i32,
        view: i32,
        overrides: Option<&pb::RuleOverrides>,
    ) -> Result<Defaults, Vec<Violation>> {
        let mut violations = Vec::new();
        let id = ruleset_from_pb(ruleset)
            .map_err(|mut v| {
                *v.path = FieldPath::of("default_ruleset");
                violations.push(v);
            })
            .ok();
        let view = view_from_pb(view, FieldPath::of("default_view"))
            .map_err(|v| violations.push(v))
            .ok();
        let rules = id.and_then(|id| {
            rules_from_pb(
                ruleset_to_pb(id) as i32,
                overrides,
                FieldPath::of("default_overrides"),
            )
            .map_err(|v| violations.extend(v))
            .ok()
        });
        match (id, view, rules) {
            (Some(id), Some(view), Some(rules)) if violations.is_empty() => Ok(Defaults {
                ruleset: ruleset_to_pb(id) as i32,
                view: view as i32,
                overrides: overrides.cloned(),
                rules: Some(rules),
            }),
            _ => Err(violations),
        }
    }
}

/// A scoring request converted: the hand as far as it converts, the context, the rules and
/// the view, and every violation the conversion found.
#[derive(Debug, Clone)]
pub struct ScoreQuery {
    /// The hand as declared, not yet validated (`None`: absent, or notation that does not
    /// parse).
    pub hand: Option<HandInput>,
    /// What the domain's checks of `hand` should not report again.
    pub(crate) artefacts: Artefacts,
    /// The circumstances of the win.
    pub context: WinContext,
    /// The rules in effect (`None` when the ruleset or the house rules are invalid).
    pub rules: Option<Rules>,
    /// The ruleset to report: the one applied, or for an unknown ruleset the number given.
    pub ruleset: i32,
    /// The view to answer in (the full sheet when the one asked for is unknown).
    pub view: pb::ScoreView,
    /// Every violation of the conversion, in field order.
    pub violations: Vec<Violation>,
}

impl Default for ScoreQuery {
    fn default() -> Self {
        ScoreQuery {
            hand: None,
            artefacts: Artefacts::default(),
            context: WinContext::default(),
            rules: None,
            ruleset: pb::Ruleset::Unspecified as i32,
            view: pb::ScoreView::Full,
            violations: Vec::new(),
        }
    }
}

/// Equal when they ask the same: the rules compare by ruleset and fingerprint.
impl PartialEq for ScoreQuery {
    fn eq(&self, other: &Self) -> bool {
        let rules = |q: &ScoreQuery| q.rules.as_ref().map(|r| (r.id(), r.fingerprint()));
        self.hand == other.hand
            && self.artefacts == other.artefacts
            && self.context == other.context
            && rules(self) == rules(other)
            && self.ruleset == other.ruleset
            && self.view == other.view
            && self.violations == other.violations
    }
}

impl From<&pb::ScoreHandRequest> for ScoreQuery {
    fn from(request: &pb::ScoreHandRequest) -> Self {
        ScoreQuery::from_request(request, &Defaults::NONE)
    }
}

impl From<&pb::ValidateHandRequest> for ScoreQuery {
    /// Validation needs no score sheet: it is assessed in the basic view.
    fn from(request: &pb::ValidateHandRequest) -> Self {
        let pb::ValidateHandRequest {
            hand_input,
            context,
            ruleset,
            overrides,
        } = request;
        let mut query = ScoreQuery::default();
        query.hand = convert_hand(
            hand_input.as_ref().map(HandSource::from),
            &mut query.violations,
            &mut query.artefacts,
        );
        query.settle(
            context.as_ref(),
            *ruleset,
            pb::ScoreView::Basic as i32,
            overrides.as_ref(),
            &Defaults::NONE,
        );
        query
    }
}

impl ScoreQuery {
    /// A `ScoreHandRequest` (or a batch entry) as prost decodes it, its unspecified ruleset
    /// and view taken from `defaults` (its own overrides replace the default ones whole).
    pub fn from_request(request: &pb::ScoreHandRequest, defaults: &Defaults) -> Self {
        let mut query = ScoreQuery::default();
        query.fill(request, defaults);
        query
    }

    /// [`ScoreQuery::from_request`] into this query's allocations.
    pub(crate) fn fill(&mut self, request: &pb::ScoreHandRequest, defaults: &Defaults) {
        let pb::ScoreHandRequest {
            hand_input,
            context,
            ruleset,
            view,
            overrides,
        } = request;
        self.violations.clear();
        self.artefacts = Artefacts::default();
        self.hand = convert_hand(
            hand_input.as_ref().map(HandSource::from),
            &mut self.violations,
            &mut self.artefacts,
        );
        self.settle(
            context.as_ref(),
            *ruleset,
            *view,
            overrides.as_deref(),
            defaults,
        );
    }

    /// Converts the context, the rules and the view, the hand already converted: the last
    /// step of every constructor.
    pub(crate) fn settle(
        &mut self,
        context: Option<&pb::WinContext>,
        ruleset: i32,
        view: i32,
        overrides: Option<&pb::RuleOverrides>,
        defaults: &Defaults,
    ) {
        let (context, context_violations) = draft_context(context);
        self.context = context;
        self.violations.extend(context_violations);
        let or = |number: i32, default: i32| if number == 0 { default } else { number };
        let number = or(ruleset, defaults.ruleset);
        self.ruleset = ruleset_from_pb(number).map_or(number, |id| ruleset_to_pb(id) as i32);
        self.rules = match (&defaults.rules, overrides) {
            // The defaults' rules, built once: still the rules when the entry changes neither.
            (Some(rules), None) if number == defaults.ruleset => Some(rules.clone()),
            _ => rules_from_pb(
                number,
                overrides.or(defaults.overrides.as_ref()),
                FieldPath::of("overrides"),
            )
            .map_err(|v| self.violations.extend(v))
            .ok(),
        };
        self.view =
            view_from_pb(or(view, defaults.view), FieldPath::of("view")).unwrap_or_else(|v| {
                self.violations.push(v);
                pb::ScoreView::Full
            });
    }
}

/// Converts a request's hand, in either form, as far as it goes: violations appended to
/// `violations`, what the domain should not report again to `artefacts`.
pub(crate) fn convert_hand(
    source: Option<HandSource<'_>>,
    violations: &mut Vec<Violation>,
    artefacts: &mut Artefacts,
) -> Option<HandInput> {
    match source {
        None => {
            violations.push(value_invalid(
                FieldPath::of("hand_input"),
                "the request has no hand: set `notation` or `hand`".to_owned(),
            ));
            None
        }
        Some(HandSource::Notation(text)) => assessment::parse_notation(text)
            .map_err(|v| violations.push(v))
            .ok(),
        Some(HandSource::Hand(h)) => {
            let mut draft = draft_hand(h);
            violations.append(&mut draft.violations);
            *artefacts = draft.artefacts;
            Some(draft.input)
        }
    }
}

/// Validates and scores a query, collecting every violation: the conversion's first, then
/// the domain's (paths as in the request). Works out the score sheet only as far as the view
/// needs; a score is written into `spare` when there is one ([`assessment::assess_into`]).
pub fn assess(query: &ScoreQuery, spare: Option<Box<Scored>>) -> Assessment {
    let ScoreQuery {
        hand,
        artefacts,
        context,
        rules,
        ruleset: _,
        view,
        violations,
    } = query;
    match (hand, rules) {
        (Some(hand), Some(rules)) if violations.is_empty() => {
            match assessment::assess_into(hand, context, rules, detail_of(*view), spare) {
                Assessment::Invalid(violations) => {
                    Assessment::Invalid(violations.into_iter().map(path::hand_violation).collect())
                }
                scored @ Assessment::Scored(_) => scored,
            }
        }
        (hand, _) => {
            let mut violations = violations.clone();
            if let Some(hand) = hand
                && let Err(domain) = hand.validate(context)
            {
                violations.extend(
                    domain
                        .into_iter()
                        .filter(|v| !artefacts.cover(v))
                        .map(path::hand_violation),
                );
            }
            Assessment::Invalid(violations)
        }
    }
}
