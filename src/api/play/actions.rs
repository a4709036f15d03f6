//! `LegalActions`: a seat's view → every action it may take now, wins scored, claims
//! analysed on request.

use mcr::Violation;
use mcr::play::{LegalAction, legal_actions, legal_actions_with_calls};
use mcr::violation::FieldPath;

use super::super::accounting::violations::{Violations, rules_of};
use super::super::accounting::winning_hand::score_sheet;
use super::super::analysis::analysis_to_pb;
use super::super::hand::hand_to_pb;
use super::super::house_rules::fingerprint_text;
use super::super::pb;
use super::convert::{action_to_pb, circumstances_to_pb};
use super::view::view_from_pb;

/// `LegalActions`: the seat's legal actions, or every problem of its view.
pub fn legal_actions_of(
    request: &pb::LegalActionsRequest,
) -> Result<pb::LegalActionsResponse, Vec<Violation>> {
    let mut v = Violations::default();
    let rules = rules_of(request.ruleset, request.overrides.as_ref(), &mut v);
    let view = if let Some(view) = &request.view {
        view_from_pb(view, FieldPath::of("view"), &mut v)
    } else {
        v.0.push(super::super::values::value_invalid(
            FieldPath::of("view"),
            "the seat's view is required".to_owned(),
        ));
        None
    };
    let Some(view) = view.filter(|_| v.0.is_empty()) else {
        return Err(v.0);
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

fn option_to_pb(a: &LegalAction, rules: &mcr::Rules) -> pb::LegalOption {
    let (action, tile, flower) = action_to_pb(a.action);
    pb::LegalOption {
        action: action as i32,
        tile,
        flower,
        win: a
            .win
            .as_ref()
            .map(|w| score_sheet(w.hand.clone(), w.context, rules, w.scoring)),
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
