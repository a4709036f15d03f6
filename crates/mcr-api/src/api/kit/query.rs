//! The requests that carry a hand to score (`ScoreHand`, `ValidateHand`, a batch's entries),
//! converted once into what the engine takes, and judged by one function.
//!
//! A [`ScoreQuery`] is built in one of two ways: from prost's message
//! ([`ScoreQuery::from_request`]), or from the request's bytes by the fast reader
//! ([`crate::api::scoring::fast::query`]), which falls back to the first for anything it does not read
//! itself. Both end in `ScoreQuery::settle`, which converts the context, the rules and the
//! view the same way. [`assess`] then validates and scores it. `AnalyzeHand` converts its
//! hand with the same `convert_hand`.

use mcr::house_rules::Rules;
use mcr::violation::FieldPath;
use mcr::{HandInput, Violation, WinContext};

use super::hand::{Artefacts, HandDraft, HandSource, draft_context, draft_hand};
use super::house_rules::{KeptRules, rules_from_pb};
use super::path;
use super::values::{detail_of, ruleset_from_pb, ruleset_to_pb, value_invalid, view_from_pb};
use super::violations::Violations;
use crate::api::pb;
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

/// The rules a query asks for: known at once for a standard ruleset (or a batch's default
/// rules); for house rules, what they are built from, to be built or found among the house
/// rules kept when the query is judged ([`ScoreQuery::rules`]).
#[derive(Debug, Clone)]
pub(crate) enum AskedRules {
    /// The ruleset is not one of the enum (its violation is the query's).
    Invalid,
    /// The rules in effect.
    Known(Rules),
    /// `ruleset` with `overrides`; their violations, if any, go at `at` among the query's
    /// (in field order).
    House {
        ruleset: i32,
        overrides: Box<pb::RuleOverrides>,
        at: usize,
    },
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
        kept: &KeptRules,
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
                kept,
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
    /// The rules asked for ([`ScoreQuery::rules`] gives those in effect).
    pub(crate) rules: AskedRules,
    /// The ruleset to report: the one applied, or for an unknown ruleset the number given.
    pub ruleset: i32,
    /// The view to answer in (the full sheet when the one asked for is unknown).
    pub view: pb::ScoreView,
    /// Every violation of the conversion, in field order.
    pub violations: Violations,
}

impl Default for ScoreQuery {
    fn default() -> Self {
        ScoreQuery {
            hand: None,
            artefacts: Artefacts::default(),
            context: WinContext::default(),
            rules: AskedRules::Invalid,
            ruleset: pb::Ruleset::Unspecified as i32,
            view: pb::ScoreView::Full,
            violations: Violations::default(),
        }
    }
}

/// Equal when they ask the same: known rules compare by ruleset and fingerprint, house rules
/// by what they are built from.
impl PartialEq for AskedRules {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (AskedRules::Invalid, AskedRules::Invalid) => true,
            (AskedRules::Known(a), AskedRules::Known(b)) => {
                (a.id(), a.fingerprint()) == (b.id(), b.fingerprint())
            }
            (
                AskedRules::House {
                    ruleset,
                    overrides,
                    at,
                },
                AskedRules::House {
                    ruleset: ruleset_b,
                    overrides: overrides_b,
                    at: at_b,
                },
            ) => (ruleset, overrides, at) == (ruleset_b, overrides_b, at_b),
            (AskedRules::Invalid, AskedRules::Known(_) | AskedRules::House { .. })
            | (AskedRules::Known(_), AskedRules::Invalid | AskedRules::House { .. })
            | (AskedRules::House { .. }, AskedRules::Invalid | AskedRules::Known(_)) => false,
        }
    }
}

/// Equal when they ask the same.
impl PartialEq for ScoreQuery {
    fn eq(&self, other: &Self) -> bool {
        self.hand == other.hand
            && self.artefacts == other.artefacts
            && self.context == other.context
            && self.rules == other.rules
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
    /// The rules in effect, house rules built or found in `kept`, or the violations of the
    /// query with those of its rules in field order when the ruleset or the house rules are
    /// invalid.
    pub fn rules(&self, kept: &KeptRules) -> Result<Rules, Vec<Violation>> {
        match &self.rules {
            AskedRules::Invalid => Err(self.violations.as_slice().to_vec()),
            AskedRules::Known(rules) => Ok(rules.clone()),
            AskedRules::House {
                ruleset,
                overrides,
                at,
            } => rules_from_pb(*ruleset, Some(overrides), FieldPath::of("overrides"), kept)
                .map_err(|found| {
                    let mut violations = self.violations.as_slice().to_vec();
                    violations.splice(*at..*at, found);
                    violations
                }),
        }
    }

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
        self.context = draft_context(context, &mut self.violations);
        let or = |number: i32, default: i32| if number == 0 { default } else { number };
        let number = or(ruleset, defaults.ruleset);
        self.ruleset = ruleset_from_pb(number).map_or(number, |id| ruleset_to_pb(id) as i32);
        self.rules = match (&defaults.rules, overrides.or(defaults.overrides.as_ref())) {
            // The defaults' rules, built once: still the rules when the entry changes neither.
            (Some(rules), _) if overrides.is_none() && number == defaults.ruleset => {
                AskedRules::Known(rules.clone())
            }
            (_, None) => match ruleset_from_pb(number) {
                Ok(id) => AskedRules::Known(Rules::Standard(id)),
                Err(v) => {
                    self.violations.add(v);
                    AskedRules::Invalid
                }
            },
            (_, Some(overrides)) => AskedRules::House {
                ruleset: number,
                overrides: Box::new(overrides.clone()),
                at: self.violations.len(),
            },
        };
        self.view =
            view_from_pb(or(view, defaults.view), FieldPath::of("view")).unwrap_or_else(|v| {
                self.violations.add(v);
                pb::ScoreView::Full
            });
    }
}

/// Converts a request's hand, in either form, as far as it goes: violations appended to
/// `violations`, what the domain should not report again to `artefacts`.
pub(crate) fn convert_hand(
    source: Option<HandSource<'_>>,
    violations: &mut Violations,
    artefacts: &mut Artefacts,
) -> Option<HandInput> {
    match source {
        None => {
            violations.add(value_invalid(
                FieldPath::of("hand_input"),
                "the request has no hand: set `notation` or `hand`".to_owned(),
            ));
            None
        }
        Some(HandSource::Notation(text)) => assessment::parse_notation(text)
            .map_err(|v| violations.add(v))
            .ok(),
        Some(HandSource::Hand(h)) => {
            let HandDraft {
                input,
                violations: found,
                artefacts: made,
            } = draft_hand(h);
            violations.extend(found.into_vec());
            *artefacts = made;
            Some(input)
        }
    }
}

/// Validates and scores a query, collecting every violation: the conversion's first, then
/// the domain's (paths as in the request). Works out the score sheet only as far as the view
/// needs; a score is written into `spare` when there is one ([`assessment::assess_into`]).
pub fn assess(query: &ScoreQuery, kept: &KeptRules, spare: Option<Box<Scored>>) -> Assessment {
    let ScoreQuery {
        hand,
        artefacts,
        context,
        rules: _,
        ruleset: _,
        view,
        violations,
    } = query;
    match (hand, query.rules(kept)) {
        (Some(hand), Ok(rules)) if violations.is_empty() => {
            match assessment::assess_into(hand, context, &rules, detail_of(*view), spare) {
                Assessment::Invalid(violations) => {
                    Assessment::Invalid(violations.into_iter().map(path::hand_violation).collect())
                }
                scored @ Assessment::Scored(_) => scored,
            }
        }
        (hand, rules) => {
            let mut violations = match rules {
                Ok(_) => violations.as_slice().to_vec(),
                Err(with_rules) => with_rules,
            };
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
