//! Whose claim stands when several seats claim one discard or one added kong
//! (docs/rules/tiles-and-play.md#claims-priority): 和 > 碰/杠 > 吃; among wins the first counter-clockwise from the discarder (截和,
//! switch `multiple_winners`). A claim whose maker's view is given is checked against
//! [`legal_actions`]; one that is not legal is set aside with what the rules do to its
//! maker (R98 §14-2, §14-3, §14-6).

use crate::penalty::{Infraction, Offence, Ruling, rule};
use crate::ruleset::{MultipleWinners, Ruleset};
use crate::seat::Seat;

use super::legal::{Moment, Offer, SeatView, legal_actions, win_parts};
use super::record::{Action, chow_others};
use super::win::judge_parts;

/// One claim: who, what, and (optionally) the claimer's view to check it against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimMade {
    /// Who claims.
    pub seat: Seat,
    /// A chow (named by its middle tile), pung, kong or win.
    pub action: Action,
    /// The claimer's view at the offer, when known: the claim is then checked.
    pub view: Option<SeatView>,
}

/// A problem with the claims themselves: they cannot be arbitrated.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClaimProblem {
    /// The index of the claim.
    pub index: usize,
    /// What is wrong, for people.
    pub message: String,
}

/// A claim that is not legal, with what the rules do to its maker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalClaim {
    /// The index of the claim.
    pub index: usize,
    /// Why it is not legal, for people.
    pub message: String,
    /// The ruling on its maker: 错和 and the others for a false win, 空吃/空碰/空杠 for a call
    /// without the tiles, 错吃/错碰/错杠 for a call the rules do not allow.
    pub ruling: Option<Ruling>,
}

/// The result: the claim that stands, those it overrode, those set aside as illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arbitration {
    /// The index of the claim that stands; `None` when no legal claim was made.
    pub stands: Option<usize>,
    /// The legal claims overridden, in priority order.
    pub overridden: Vec<usize>,
    /// The claims that are not legal.
    pub illegal: Vec<IllegalClaim>,
}

/// Arbitrates `claims` on `offer`. Claims that cannot be made at all (by the offerer, twice
/// by one seat, not a claim, a chow by other than the next seat's tiles naming) are problems;
/// every one is reported.
pub fn arbitrate(
    offer: Offer,
    claims: &[ClaimMade],
    rules: &Ruleset,
) -> Result<Arbitration, Vec<ClaimProblem>> {
    let mut problems = Vec::new();
    for (index, claim) in claims.iter().enumerate() {
        let problem = if claim.seat == offer.from() {
            Some(format!(
                "{} offered the tile and cannot claim it",
                claim.seat
            ))
        } else if claims[..index].iter().any(|c| c.seat == claim.seat) {
            Some(format!("{} claims more than once", claim.seat))
        } else if !claim.action.is_claim_kind() {
            Some("a claim is a chow, pung, kong or win".to_owned())
        } else if matches!(offer, Offer::AddedKong { .. })
            && !matches!(claim.action, Action::Win(_))
        {
            Some("a tile added to a kong can only be robbed to win".to_owned())
        } else if !claim.action.claims_tile(offer.tile()) {
            Some(format!(
                "the claim does not name the offered {}",
                offer.tile()
            ))
        } else {
            None
        };
        if let Some(message) = problem {
            problems.push(ClaimProblem { index, message });
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut legal = Vec::new();
    let mut illegal = Vec::new();
    for (index, claim) in claims.iter().enumerate() {
        match judge_claim(offer, claim, rules) {
            Ok(()) => legal.push(index),
            Err((message, ruling)) => illegal.push(IllegalClaim {
                index,
                message,
                ruling,
            }),
        }
    }
    // Highest rank first; among equals, the first counter-clockwise from the offerer.
    legal.sort_by_key(|&i| {
        let c = &claims[i];
        (
            std::cmp::Reverse(c.action.claim_rank()),
            offer.from().turns_until(c.seat),
        )
    });
    let MultipleWinners::HeadBump = rules.play.multiple_winners;
    let mut order = legal.into_iter();
    Ok(Arbitration {
        stands: order.next(),
        overridden: order.collect(),
        illegal,
    })
}

/// A claim checked against its maker's view, when given.
fn judge_claim(
    offer: Offer,
    claim: &ClaimMade,
    rules: &Ruleset,
) -> Result<(), (String, Option<Ruling>)> {
    let Some(view) = &claim.view else {
        return Ok(());
    };
    let moment_fits = view.moment == Moment::Offered(offer);
    if view.seat != claim.seat || !moment_fits {
        return Err((
            "the view given is not the claimer's at this offer".to_owned(),
            None,
        ));
    }
    let offered = legal_actions(view, rules);
    if offered.iter().any(|a| a.action == claim.action) {
        return Ok(());
    }
    let seat = claim.seat;
    let infraction = match claim.action {
        Action::Win(tile) => {
            // The false declaration as the judge rules it (错和, 和错牌, 诈和, 有意诈和).
            let judged = judge_parts(&win_parts(view, tile, offer.win_source()), rules);
            let message = if view.barred {
                format!("{seat} lost the right to win this hand")
            } else {
                format!("{seat}'s hand with {tile} is not a win")
            };
            return Err((message, judged.ruling));
        }
        Action::Chow(_) if seat != offer.from().next() => Infraction::WrongChow,
        Action::Chow(_) => held_or(
            view,
            claim.action,
            Infraction::EmptyChow,
            Infraction::WrongChow,
        ),
        Action::Pung(_) => held_or(
            view,
            claim.action,
            Infraction::EmptyPung,
            Infraction::WrongPung,
        ),
        Action::Kong(_) => held_or(
            view,
            claim.action,
            Infraction::EmptyKong,
            Infraction::WrongKong,
        ),
        Action::Draw(_)
        | Action::Flower(_)
        | Action::Discard(_)
        | Action::ConcealedKong(_)
        | Action::AddedKong(_) => Infraction::WrongChow,
    };
    let ruling = rule(
        &Offence {
            offender: seat,
            infraction: infraction.clone(),
        },
        1,
        rules,
    )
    .ok();
    Err((
        format!(
            "{seat} cannot make this claim now ({})",
            infraction.kind().name_en()
        ),
        ruling,
    ))
}

/// The call's infraction: `empty` when the seat lacks the tiles it would show, `wrong` when it
/// has them but the rules do not allow the call now (the last discard, no replacement left).
fn held_or(view: &SeatView, action: Action, empty: Infraction, wrong: Infraction) -> Infraction {
    let c = &view.concealed;
    let has = match action {
        Action::Pung(t) => c[t.index()] >= 2,
        Action::Kong(t) => c[t.index()] >= 3,
        Action::Chow(middle) => match view.moment {
            Moment::Offered(Offer::Discard { tile, .. }) => chow_others(middle, tile)
                .is_some_and(|others| others.iter().all(|t| c[t.index()] > 0)),
            Moment::Offered(Offer::AddedKong { .. })
            | Moment::Drew { .. }
            | Moment::DrewFlower(_)
            | Moment::Claimed => false,
        },
        Action::Draw(_)
        | Action::Flower(_)
        | Action::Discard(_)
        | Action::ConcealedKong(_)
        | Action::AddedKong(_)
        | Action::Win(_) => false,
    };
    if has { wrong } else { empty }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_tiles;
    use crate::play::state::{Wall, WallLeft};
    use crate::tile::{Counts, Tile, Wind};

    fn tile(text: &str) -> Tile {
        parse_tiles(text).expect("a tile")[0]
    }

    fn claim(seat: Seat, action: Action) -> ClaimMade {
        ClaimMade {
            seat,
            action,
            view: None,
        }
    }

    fn discard(from: Seat, t: &str) -> Offer {
        Offer::Discard {
            tile: tile(t),
            from,
        }
    }

    /// `seat`'s view of `offer`, holding `concealed`.
    fn view(seat: Seat, concealed: &str, offer: Offer, barred: bool) -> SeatView {
        let mut counts: Counts = [0; 34];
        for t in parse_tiles(concealed).expect("tiles") {
            counts[t.index()] += 1;
        }
        SeatView {
            seat,
            prevalent_wind: Wind::East,
            concealed: counts,
            melds: Vec::new(),
            flowers: 0,
            visible: [0; 34],
            wall: Wall::with_left(WallLeft::Shared(40)),
            barred,
            moment: Moment::Offered(offer),
        }
    }

    #[test]
    fn a_win_comes_before_a_pung_and_a_pung_before_a_chow() {
        let offer = discard(Seat::East, "5m");
        let claims = [
            claim(Seat::South, Action::Chow(tile("5m"))),
            claim(Seat::West, Action::Pung(tile("5m"))),
            claim(Seat::North, Action::Win(tile("5m"))),
        ];
        let a = arbitrate(offer, &claims, &Ruleset::MIL).expect("well formed");
        assert_eq!(a.stands, Some(2));
        assert_eq!(a.overridden, [1, 0]);
        assert!(a.illegal.is_empty());
        // A kong ranks with the pung: it still comes before the chow.
        let claims = [
            claim(Seat::South, Action::Chow(tile("5m"))),
            claim(Seat::North, Action::Kong(tile("5m"))),
        ];
        let a = arbitrate(offer, &claims, &Ruleset::MIL).expect("well formed");
        assert_eq!((a.stands, a.overridden), (Some(1), vec![0]));
    }

    #[test]
    fn of_two_wins_the_first_counter_clockwise_from_the_discarder_stands() {
        // West discards: North comes before South.
        let offer = discard(Seat::West, "5m");
        let claims = [
            claim(Seat::South, Action::Win(tile("5m"))),
            claim(Seat::North, Action::Win(tile("5m"))),
        ];
        let a = arbitrate(offer, &claims, &Ruleset::MIL).expect("well formed");
        assert_eq!((a.stands, a.overridden), (Some(1), vec![0]));
        // East discards: South comes first.
        let offer = discard(Seat::East, "5m");
        let a = arbitrate(offer, &claims, &Ruleset::MIL).expect("well formed");
        assert_eq!((a.stands, a.overridden), (Some(0), vec![1]));
    }

    #[test]
    fn a_barred_seat_cannot_win_and_the_next_claim_stands() {
        let offer = discard(Seat::East, "5m");
        let mut barred = claim(Seat::North, Action::Win(tile("5m")));
        barred.view = Some(view(Seat::North, "1112345678999m", offer, true));
        let mut pung = claim(Seat::West, Action::Pung(tile("5m")));
        pung.view = Some(view(Seat::West, "55m258p258s147sEE", offer, false));
        let a = arbitrate(offer, &[barred, pung], &Ruleset::MIL).expect("well formed");
        assert_eq!(a.stands, Some(1));
        assert_eq!(a.illegal.len(), 1);
        assert_eq!(a.illegal[0].index, 0);
        assert!(a.illegal[0].message.contains("lost the right to win"));
        // Not barred, the same hand wins.
        let mut win = claim(Seat::North, Action::Win(tile("5m")));
        win.view = Some(view(Seat::North, "1112345678999m", offer, false));
        let a = arbitrate(offer, &[win], &Ruleset::MIL).expect("well formed");
        assert_eq!(a.stands, Some(0));
    }

    #[test]
    fn a_chow_by_other_than_the_next_seat_is_a_wrong_chow() {
        let offer = discard(Seat::East, "3m");
        let mut chow = claim(Seat::West, Action::Chow(tile("3m")));
        chow.view = Some(view(Seat::West, "24m258p258s147sEE", offer, false));
        let a = arbitrate(offer, &[chow], &Ruleset::MIL).expect("well formed");
        assert_eq!(a.stands, None);
        assert_eq!(a.illegal.len(), 1);
        assert!(a.illegal[0].message.contains("cannot make this claim"));
    }

    #[test]
    fn claims_that_cannot_be_made_at_all_are_problems() {
        let added = Offer::AddedKong {
            tile: tile("5m"),
            from: Seat::East,
        };
        let claims = [
            claim(Seat::East, Action::Win(tile("5m"))),
            claim(Seat::South, Action::Pung(tile("5m"))),
            claim(Seat::West, Action::Win(tile("6m"))),
            claim(Seat::North, Action::Discard(tile("5m"))),
        ];
        let problems = arbitrate(added, &claims, &Ruleset::MIL).expect_err("problems");
        let indices: Vec<usize> = problems.iter().map(|p| p.index).collect();
        assert_eq!(indices, [0, 1, 2, 3]);
    }

    #[test]
    fn a_view_of_another_moment_is_not_the_claimers() {
        let offer = discard(Seat::East, "5m");
        let mut win = claim(Seat::North, Action::Win(tile("5m")));
        // The view is of the tile robbed from a kong, not of this discard.
        let other = Offer::AddedKong {
            tile: tile("5m"),
            from: Seat::East,
        };
        win.view = Some(view(Seat::North, "1112345678999m", other, false));
        let a = arbitrate(offer, &[win], &Ruleset::MIL).expect("well formed");
        assert_eq!(a.stands, None);
        assert!(a.illegal[0].message.contains("not the claimer's"));
    }
}
