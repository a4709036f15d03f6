//! `LegalActions`: a seat's view → every action it may take now, wins scored, claims
//! analysed on request.

use mcr::Violation;
use mcr::play::{LegalAction, legal_actions, legal_actions_with_calls};
use mcr::violation::FieldPath;

use super::convert::{action_to_pb, circumstances_to_pb};
use super::view::view_from_pb;
use crate::api::kit::hand::hand_to_pb;
use crate::api::kit::house_rules::fingerprint_text;
use crate::api::kit::house_rules::{KeptRules, rules_of};
use crate::api::kit::in_play::analysis_to_pb;
use crate::api::kit::score_sheet::scored_hand_sheet;
use crate::api::kit::violations::Violations;
use crate::api::pb;

/// `LegalActions`: the seat's legal actions, or every problem of its view.
pub fn legal_actions_of(
    request: &pb::LegalActionsRequest,
    kept: &KeptRules,
) -> Result<pb::LegalActionsResponse, Vec<Violation>> {
    let mut v = Violations::default();
    let rules = rules_of(request.ruleset, request.overrides.as_ref(), kept, &mut v);
    let view = if let Some(view) = &request.view {
        view_from_pb(view, FieldPath::of("view"), &mut v)
    } else {
        v.add(crate::api::kit::values::value_invalid(
            FieldPath::of("view"),
            "the seat's view is required".to_owned(),
        ));
        None
    };
    let Some(view) = view.filter(|_| v.is_empty()) else {
        return Err(v.into_vec());
    };
    let ruleset = rules.ruleset();
    let actions = if request.call_analysis {
        legal_actions_with_calls(&view, &ruleset)
    } else {
        legal_actions(&view, &ruleset)
    };
    Ok(pb::LegalActionsResponse {
        actions: actions.iter().map(|a| option_to_pb(a, &rules)).collect(),
        rules_fingerprint: fingerprint_text(rules.fingerprint()),
    })
}

pub(super) fn option_to_pb(a: &LegalAction, rules: &mcr::Rules) -> pb::LegalOption {
    let (action, tile, flower) = action_to_pb(a.action);
    pb::LegalOption {
        action: action as i32,
        tile,
        flower,
        win: a
            .win
            .as_ref()
            .map(|w| scored_hand_sheet(w.hand.clone(), w.context, rules, w.scoring)),
        win_circumstances: a.win.as_ref().map(|w| circumstances_to_pb(w.circumstances)),
        call: a.call.as_ref().map(|c| pb::CallAnalysis {
            hand: Some(hand_to_pb(&c.hand)),
            analysis: Some(analysis_to_pb(
                &c.analysis,
                rules.clone(),
                pb::ScoreView::Basic,
            )),
        }),
    }
}
