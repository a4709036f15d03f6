//! `DealHand`: the deal and the wall of a 32-byte seed by the published algorithm
//! (`mcr::play::seed`, docs/deal.md), with its commitment.

use mcr::play::botzone::write_match;
use mcr::violation::FieldPath;
use mcr::{Seat, Violation, Wind};

use super::replay::seed_of;
use crate::api::kit::values::{seat_to_pb, tile_to_pb, wind_from_pb, wind_to_pb};
use crate::api::kit::violations::Violations;
use crate::api::pb;

/// `DealHand`: the seed's deal, or the problems of the request (a seed that is not 32 bytes,
/// a wind outside the enum).
pub fn deal_hand(request: &pb::DealHandRequest) -> Result<pb::DealHandResponse, Vec<Violation>> {
    let pb::DealHandRequest {
        seed,
        prevalent_wind,
    } = request;
    let mut v = Violations::default();
    let seed = seed_of(seed, true, &mut v);
    let wind = if *prevalent_wind == pb::Wind::Unspecified as i32 {
        Some(Wind::East)
    } else {
        v.take(wind_from_pb(
            *prevalent_wind,
            FieldPath::of("prevalent_wind"),
        ))
    };
    let (Some(seed), Some(wind)) = (seed, wind) else {
        return Err(v.into_vec());
    };
    let deal = seed.deal();
    let commitment = seed.commitment();
    let record = deal.record(wind);
    Ok(pb::DealHandResponse {
        botzone_text: write_match(&commitment, &record, None),
        commitment,
        prevalent_wind: wind_to_pb(wind) as i32,
        deal: Seat::ALL
            .into_iter()
            .map(|seat| pb::SeatDeal {
                seat: seat_to_pb(seat) as i32,
                tiles: deal.hands[seat].iter().map(|&t| tile_to_pb(t)).collect(),
                flowers: Vec::new(),
            })
            .collect(),
        wall: deal.wall.iter().map(|&t| tile_to_pb(t)).collect(),
    })
}
