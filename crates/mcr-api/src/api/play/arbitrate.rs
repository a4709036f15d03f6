//! `ArbitrateClaims`: the claims on one offered tile → the one that stands, those
//! overridden, and those not legal with their rulings.

use mcr::Violation;
use mcr::play::{ClaimMade, Offer, arbitrate};
use mcr::violation::FieldPath;

use super::convert::{action_of, offered_of};
use super::view::view_from_pb;
use crate::api::kit::house_rules::fingerprint_text;
use crate::api::kit::house_rules::{KeptRules, rules_of};
use crate::api::kit::ruling::ruling_to_pb;
use crate::api::kit::values::{required_seat, value_invalid};
use crate::api::kit::violations::Violations;
use crate::api::pb;

/// `ArbitrateClaims`: the verdict on the claims, or every problem with them.
pub fn arbitrate_claims(
    request: &pb::ArbitrateClaimsRequest,
    kept: &KeptRules,
) -> Result<pb::ArbitrateClaimsResponse, Vec<Violation>> {
    let mut v = Violations::default();
    if request.claims.len() > 3 {
        return Err(vec![value_invalid(
            FieldPath::of("claims"),
            format!(
                "at most 3 elements are accepted here, found {}",
                request.claims.len()
            ),
        )]);
    }
    let rules = rules_of(request.ruleset, request.overrides.as_ref(), kept, &mut v);
    let offer = match &request.offer {
        None => {
            v.add(value_invalid(
                FieldPath::of("offer"),
                "say what is offered: `discard` or `added_kong`".to_owned(),
            ));
            None
        }
        Some(pb::arbitrate_claims_request::Offer::Discard(o)) => {
            offered_of(*o, FieldPath::of("offer").field("discard"), &mut v)
                .map(|(tile, from)| Offer::Discard { tile, from })
        }
        Some(pb::arbitrate_claims_request::Offer::AddedKong(o)) => {
            offered_of(*o, FieldPath::of("offer").field("added_kong"), &mut v)
                .map(|(tile, from)| Offer::AddedKong { tile, from })
        }
    };
    let mut claims = Vec::with_capacity(request.claims.len());
    for (i, c) in request.claims.iter().enumerate() {
        let field = FieldPath::of("claims").index(i);
        let seat = v.take(required_seat(c.seat, field.field("seat")));
        let action = action_of(c.action, c.tile, 0, field, &mut v);
        let view = c
            .view
            .as_ref()
            .map(|view| view_from_pb(view, field.field("view"), &mut v));
        if let (Some(seat), Some(action)) = (seat, action) {
            claims.push(ClaimMade {
                seat,
                action,
                view: view.flatten(),
            });
        }
    }
    let Some(offer) = offer.filter(|_| v.is_empty()) else {
        return Err(v.into_vec());
    };
    let ruleset = rules.ruleset();
    let verdict = arbitrate(offer, &claims, &ruleset).map_err(|problems| {
        problems
            .into_iter()
            .map(|p| {
                Violation::new(
                    mcr::ViolationCode::ClaimInvalid,
                    FieldPath::of("claims").index(p.index),
                    p.message,
                )
            })
            .collect::<Vec<_>>()
    })?;
    let index = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
    Ok(pb::ArbitrateClaimsResponse {
        stands: verdict.stands.map(index),
        overridden: verdict.overridden.iter().map(|&i| index(i)).collect(),
        illegal: verdict
            .illegal
            .iter()
            .map(|c| pb::IllegalClaim {
                index: index(c.index),
                message: c.message.clone(),
                ruling: c.ruling.as_ref().map(ruling_to_pb),
            })
            .collect(),
        rules_fingerprint: fingerprint_text(rules.fingerprint()),
    })
}
