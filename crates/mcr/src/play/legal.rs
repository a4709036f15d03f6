//! What a seat may do now (docs/rules/tiles-and-play.md): from its own view of the table — its
//! tiles, what is in sight, the wall and what it is asked — every legal action, each win
//! with its full score.
//!
//! The view is what a game server knows of one seat; [`PlayState::view`] takes it from a
//! replayed state. The actions follow the same rules as the transition ([`super::step`]),
//! written here from the seat's side: a self-play test checks that every action offered
//! here is accepted there.

use crate::analysis::{Analysis, InPlay, analyze};
use crate::declaration::WinSource;
use crate::hand::{HandInput, KongExposure, Meld, MeldInput, WinContext};
use crate::ruleset::{AddedKongTile, LastDiscardClaims, Ruleset};
use crate::seat::Seat;
use crate::tile::{Counts, Tile, Wind};

use super::record::{Action, Flower, chow_others};
use super::state::{DrawKind, Phase, PlayState, Wall, tiles_of};
use super::win::{JudgedWin, WinParts, circumstances, judge_if_win};

/// What the seat is asked to decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Moment {
    /// The seat drew `tile` and holds a full hand: discard, kong or win.
    Drew {
        /// The tile drawn.
        tile: Tile,
        /// How it was drawn.
        kind: DrawKind,
    },
    /// The seat drew a flower: it shows it (补花).
    DrewFlower(Flower),
    /// The seat just claimed a chow or pung: it discards.
    Claimed,
    /// Another seat offers a tile (a discard, or a tile added to its melded pung): claim it
    /// or pass.
    Offered(Offer),
}

/// What is offered to the others: a discard, or a tile added to a melded pung.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Offer {
    /// A discard.
    Discard {
        /// The discard.
        tile: Tile,
        /// Who discarded it.
        from: Seat,
    },
    /// A tile added to a melded pung (only a win may rob it).
    AddedKong {
        /// The tile.
        tile: Tile,
        /// Who adds it.
        from: Seat,
    },
}

impl Offer {
    /// The seat that offered the tile.
    #[must_use]
    pub const fn from(self) -> Seat {
        match self {
            Offer::Discard { from, .. } | Offer::AddedKong { from, .. } => from,
        }
    }

    /// The tile offered.
    #[must_use]
    pub const fn tile(self) -> Tile {
        match self {
            Offer::Discard { tile, .. } | Offer::AddedKong { tile, .. } => tile,
        }
    }

    /// Where a win on the offered tile comes from: the discard, or the robbed kong.
    #[must_use]
    pub const fn win_source(self) -> WinSource {
        match self {
            Offer::Discard { from, .. } => WinSource::Discard { discarder: from },
            Offer::AddedKong { from, .. } => WinSource::RobbingKong { robbed: from },
        }
    }
}

/// One seat's view of the table at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// The seat.
    pub seat: Seat,
    /// The prevalent wind.
    pub prevalent_wind: Wind,
    /// The seat's concealed tiles (the tile just drawn among them).
    pub concealed: Counts,
    /// The seat's melds.
    pub melds: Vec<Meld>,
    /// Flowers the seat has shown.
    pub flowers: u8,
    /// Copies in sight outside the seat's concealed tiles: every discard (claimed ones
    /// included), every exposed meld (the seat's own too), the tile being added to a kong;
    /// never concealed kongs.
    pub visible: Counts,
    /// The wall.
    pub wall: Wall,
    /// The seat lost its right to win this hand (停和).
    pub barred: bool,
    /// What the seat is asked.
    pub moment: Moment,
}

/// An action the seat may take, a win with its judgement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalAction {
    /// The action.
    pub action: Action,
    /// For a win: the hand scored with the circumstances of the moment.
    pub win: Option<Box<JudgedWin>>,
    /// For a chow, pung or kong of a discard, when asked for ([`call_analysis`]): the hand
    /// it leaves, analysed as a hand in play.
    pub call: Option<Box<CallAnalysis>>,
}

/// What a claim leaves: the hand after it and its analysis — after a chow or pung the
/// discard table (the seat discards next), after a kong the waiting hand (a replacement
/// comes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallAnalysis {
    /// The hand after the claim: the melds with the new one, the concealed tiles left.
    pub hand: HandInput,
    /// Its analysis (docs/rules/winning-shapes.md#waits, the fans of each wait as [`crate::analysis`] scores them).
    pub analysis: Analysis,
}

impl PlayState {
    /// The view of `seat` when it has a decision to make now; `None` when it has none (it
    /// is another seat's turn and nothing is offered, or the hand is over).
    pub fn view(&self, seat: Seat) -> Option<SeatView> {
        let holder = &self.seats[seat];
        let moment = match self.phase {
            Phase::Act {
                seat: actor,
                drawn,
                kind,
                claimed,
            } if actor == seat => match (claimed, drawn) {
                (true, _) => Moment::Claimed,
                (false, Some(tile)) => Moment::Drew { tile, kind },
                (false, None) => Moment::DrewFlower(held_flower(holder.flowers_held())?),
            },
            Phase::Discarded {
                seat: from, tile, ..
            } if from != seat => Moment::Offered(Offer::Discard { tile, from }),
            Phase::AddingKong { seat: from, tile } if from != seat => {
                Moment::Offered(Offer::AddedKong { tile, from })
            }
            Phase::Act { .. }
            | Phase::Discarded { .. }
            | Phase::AddingKong { .. }
            | Phase::Draw { .. }
            | Phase::Over(_) => return None,
        };
        Some(SeatView {
            seat,
            prevalent_wind: self.prevalent_wind,
            concealed: *holder.concealed(),
            melds: holder.melds().to_vec(),
            flowers: holder.flower_count(),
            visible: self.visible,
            wall: self.wall.clone(),
            barred: holder.barred(),
            moment,
        })
    }
}

fn held_flower(bits: u8) -> Option<Flower> {
    (1..=8)
        .filter_map(Flower::new)
        .find(|f| bits & f.bit() != 0)
}

/// Every legal action of the view's seat now, in a stable order: wins first, then kongs,
/// claims (pung, kong, chows from the lowest), flowers, discards by tile. Passing (not
/// claiming) is always allowed and not listed.
pub fn legal_actions(view: &SeatView, rules: &Ruleset) -> Vec<LegalAction> {
    let mut out = Vec::new();
    let seat = view.seat;
    let c = &view.concealed;
    let play = rules.play;
    match view.moment {
        Moment::Drew { tile, .. } => {
            push_win(view, tile, WinSource::SelfDrawn, rules, &mut out);
            if view.wall.kong_from_hand_allowed(seat) {
                for t in Tile::ALL {
                    if c[t.index()] == 4 {
                        out.push(plain(Action::ConcealedKong(t)));
                    }
                }
                for meld in &view.melds {
                    if let Meld::Pung { tile: t, .. } = *meld
                        && c[t.index()] > 0
                        && (play.added_kong_tile == AddedKongTile::AnyHeld || t == tile)
                    {
                        out.push(plain(Action::AddedKong(t)));
                    }
                }
            }
            push_discards(c, &mut out);
        }
        Moment::DrewFlower(f) => out.push(plain(Action::Flower(f))),
        Moment::Claimed => push_discards(c, &mut out),
        Moment::Offered(offer) => {
            push_win(view, offer.tile(), offer.win_source(), rules, &mut out);
            let Offer::Discard { tile, from } = offer else {
                // A tile added to a kong may only be robbed to win.
                return out;
            };
            let last = view.wall.discard_is_last(from);
            if last && play.last_discard_claims == LastDiscardClaims::WinsOnly {
                return out;
            }
            if c[tile.index()] >= 2 {
                out.push(plain(Action::Pung(tile)));
            }
            if c[tile.index()] >= 3 && view.wall.claimed_kong_allowed(seat) {
                out.push(plain(Action::Kong(tile)));
            }
            if seat == from.next() {
                for middle in chow_middles(c, tile) {
                    out.push(plain(Action::Chow(middle)));
                }
            }
        }
    }
    out
}

fn plain(action: Action) -> LegalAction {
    LegalAction {
        action,
        win: None,
        call: None,
    }
}

/// [`legal_actions`] with each claim's [`CallAnalysis`].
pub fn legal_actions_with_calls(view: &SeatView, rules: &Ruleset) -> Vec<LegalAction> {
    let mut actions = legal_actions(view, rules);
    for a in &mut actions {
        a.call = call_analysis(view, a.action, rules).map(Box::new);
    }
    actions
}

/// The hand a chow, pung or kong of the pending discard leaves, analysed; `None` for any
/// other action or a claim the view cannot make.
pub fn call_analysis(view: &SeatView, action: Action, rules: &Ruleset) -> Option<CallAnalysis> {
    let Moment::Offered(Offer::Discard { tile, from }) = view.moment else {
        return None;
    };
    let source = view.seat.relation_to(from);
    let (meld, from_hand): (Meld, Vec<Tile>) = match action {
        Action::Pung(t) if t == tile => (Meld::Pung { tile, from: source }, vec![tile; 2]),
        Action::Kong(t) if t == tile => (
            Meld::Kong {
                tile,
                exposure: KongExposure::Direct(source),
            },
            vec![tile; 3],
        ),
        Action::Chow(middle) => {
            let others = chow_others(middle, tile)?;
            let first = Tile::from_index(middle.index_u8() - 1)?;
            (
                Meld::Chow {
                    first,
                    claimed: Some(tile),
                },
                others.to_vec(),
            )
        }
        Action::Pung(_)
        | Action::Kong(_)
        | Action::Draw(_)
        | Action::Flower(_)
        | Action::Discard(_)
        | Action::ConcealedKong(_)
        | Action::AddedKong(_)
        | Action::Win(_) => return None,
    };
    let mut concealed = view.concealed;
    for t in &from_hand {
        let n = concealed.get_mut(t.index())?;
        *n = n.checked_sub(1)?;
    }
    // Seen outside the hand: what is in sight less the hand's own exposed melds and the
    // claimed tile, which the new meld now holds.
    let mut seen = view.visible;
    for m in view.melds.iter().filter(|m| m.is_claimed()) {
        let mut tiles = [0u8; 34];
        crate::hand::add_meld_counts(&mut tiles, *m);
        for (s, t) in seen.iter_mut().zip(tiles) {
            *s = s.saturating_sub(t);
        }
    }
    seen[tile.index()] = seen[tile.index()].saturating_sub(1);
    let mut melds: Vec<MeldInput> = view.melds.iter().map(|m| m.to_input()).collect();
    melds.push(meld.to_input());
    let hand = HandInput {
        melds,
        standing: tiles_of(&concealed),
        winning_tile: None,
    };
    let in_play = InPlay::new(&hand, &tiles_of(&seen)).ok()?;
    let context = WinContext {
        seat_wind: view.seat.wind(),
        prevalent_wind: view.prevalent_wind,
        flowers: view.flowers,
        ..WinContext::default()
    };
    Some(CallAnalysis {
        analysis: analyze(&in_play, &context, rules),
        hand,
    })
}

fn push_discards(c: &Counts, out: &mut Vec<LegalAction>) {
    for t in Tile::ALL {
        if c[t.index()] > 0 {
            out.push(plain(Action::Discard(t)));
        }
    }
}

/// The middle tiles of the chows the hand can make with `discard`, lowest first.
fn chow_middles(c: &Counts, discard: Tile) -> Vec<Tile> {
    let (Some(suit), Some(rank)) = (discard.suit(), discard.rank()) else {
        return Vec::new();
    };
    (rank.saturating_sub(1)..=rank + 1)
        .filter_map(|m| Tile::numbered(suit, m))
        .filter(|&middle| {
            chow_others(middle, discard)
                .is_some_and(|others| others.iter().all(|t| c[t.index()] > 0))
        })
        .collect()
}

/// The win on `tile` from `source`, when it is one (at or above the minimum) and the seat
/// may still win.
fn push_win(
    view: &SeatView,
    tile: Tile,
    source: WinSource,
    rules: &Ruleset,
    out: &mut Vec<LegalAction>,
) {
    if view.barred {
        return;
    }
    if let Some(judged) = judge_if_win(&win_parts(view, tile, source), rules) {
        out.push(LegalAction {
            action: Action::Win(tile),
            win: Some(Box::new(judged)),
            call: None,
        });
    }
}

/// The seat's declaration of 和 on `tile` from `source` now, as the judge reads it: its
/// tiles, and the circumstances of the moment read as the replay reads them.
pub(crate) fn win_parts(view: &SeatView, tile: Tile, source: WinSource) -> WinParts<'_> {
    let kind = match view.moment {
        Moment::Drew { kind, .. } => kind,
        Moment::DrewFlower(_) | Moment::Claimed | Moment::Offered(_) => DrawKind::Normal,
    };
    WinParts {
        seat: view.seat,
        concealed: &view.concealed,
        melds: &view.melds,
        flowers: view.flowers,
        prevalent_wind: view.prevalent_wind,
        tile,
        source,
        circumstances: circumstances(
            &view.wall,
            view.seat,
            source,
            kind,
            view.visible[tile.index()],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_tiles;
    use crate::play::state::WallLeft;

    fn tile(text: &str) -> Tile {
        parse_tiles(text).expect("a tile")[0]
    }

    fn counts(text: &str) -> Counts {
        let mut c = [0; 34];
        for t in parse_tiles(text).expect("tiles") {
            c[t.index()] += 1;
        }
        c
    }

    /// South's view: `concealed`, no meld, 40 tiles left on the shared wall.
    fn view(concealed: &str, moment: Moment) -> SeatView {
        SeatView {
            seat: Seat::South,
            prevalent_wind: Wind::East,
            concealed: counts(concealed),
            melds: Vec::new(),
            flowers: 0,
            visible: [0; 34],
            wall: Wall::with_left(WallLeft::Shared(40)),
            barred: false,
            moment,
        }
    }

    fn actions(view: &SeatView, rules: &Ruleset) -> Vec<Action> {
        legal_actions(view, rules)
            .into_iter()
            .map(|a| a.action)
            .collect()
    }

    fn discard_by(from: Seat, t: &str) -> Moment {
        Moment::Offered(Offer::Discard {
            tile: tile(t),
            from,
        })
    }

    #[test]
    fn no_kong_from_the_hand_when_no_replacement_is_left() {
        let drew = Moment::Drew {
            tile: tile("9s"),
            kind: DrawKind::Normal,
        };
        let mut v = view("1111m258p258s147sE", drew);
        assert!(actions(&v, &Ruleset::MIL).contains(&Action::ConcealedKong(tile("1m"))));
        v.wall = Wall::with_left(WallLeft::Shared(0));
        let none = actions(&v, &Ruleset::MIL);
        assert!(!none.iter().any(|a| matches!(a, Action::ConcealedKong(_))));
        assert!(none.contains(&Action::Discard(tile("1m"))));
    }

    #[test]
    fn no_claimed_kong_when_no_replacement_is_left() {
        let mut rules = Ruleset::MIL;
        rules.play.last_discard_claims = LastDiscardClaims::All;
        let mut v = view("111m258p258s147sE", discard_by(Seat::North, "1m"));
        let both = actions(&v, &rules);
        assert!(
            both.contains(&Action::Kong(tile("1m"))) && both.contains(&Action::Pung(tile("1m")))
        );
        // The last discard, claims allowed: the pung stands, the kong has no replacement.
        v.wall = Wall::with_left(WallLeft::Shared(0));
        assert_eq!(actions(&v, &rules), [Action::Pung(tile("1m"))]);
    }

    #[test]
    fn chow_only_from_the_seat_on_the_left() {
        // South sits after East: East's discard may be chowed, West's may not.
        let from_left = view("24m258p258s147sEE", discard_by(Seat::East, "3m"));
        assert!(actions(&from_left, &Ruleset::MIL).contains(&Action::Chow(tile("3m"))));
        let from_across = view("24m258p258s147sEE", discard_by(Seat::North, "3m"));
        assert!(
            actions(&from_across, &Ruleset::MIL)
                .iter()
                .all(|a| !matches!(a, Action::Chow(_))),
            "{:?}",
            actions(&from_across, &Ruleset::MIL)
        );
    }

    #[test]
    fn on_the_last_discard_only_a_win_may_be_claimed_when_the_switch_says_so() {
        let mut v = view("11m258p258s147sEE", discard_by(Seat::East, "1m"));
        v.wall = Wall::with_left(WallLeft::Shared(0));
        let mut rules = Ruleset::MIL;
        rules.play.last_discard_claims = LastDiscardClaims::WinsOnly;
        assert!(actions(&v, &rules).is_empty());
        rules.play.last_discard_claims = LastDiscardClaims::All;
        assert_eq!(actions(&v, &rules), [Action::Pung(tile("1m"))]);
    }

    #[test]
    fn the_added_kong_tile_follows_the_switch() {
        // A melded pung of 5p and a 5p held, but the tile just drawn is 9s.
        let drew = Moment::Drew {
            tile: tile("9s"),
            kind: DrawKind::Normal,
        };
        let mut v = view("5p258s147sEES9s", drew);
        v.melds = vec![Meld::Pung {
            tile: tile("5p"),
            from: None,
        }];
        let mut rules = Ruleset::MIL;
        rules.play.added_kong_tile = AddedKongTile::JustDrawn;
        assert!(!actions(&v, &rules).contains(&Action::AddedKong(tile("5p"))));
        rules.play.added_kong_tile = AddedKongTile::AnyHeld;
        assert!(actions(&v, &rules).contains(&Action::AddedKong(tile("5p"))));
        // Drawn now: allowed under both.
        v.moment = Moment::Drew {
            tile: tile("5p"),
            kind: DrawKind::Normal,
        };
        rules.play.added_kong_tile = AddedKongTile::JustDrawn;
        assert!(actions(&v, &rules).contains(&Action::AddedKong(tile("5p"))));
    }

    #[test]
    fn a_tile_added_to_a_kong_may_only_be_robbed_to_win() {
        // Nine Gates: waits on every character.
        let robbing = Moment::Offered(Offer::AddedKong {
            tile: tile("5m"),
            from: Seat::East,
        });
        let v = view("1112345678999m", robbing);
        assert_eq!(actions(&v, &Ruleset::MIL), [Action::Win(tile("5m"))]);
        // The same tile discarded: the win, then the pung and the chows.
        let v = view("1112345678999m", discard_by(Seat::East, "5m"));
        let all = actions(&v, &Ruleset::MIL);
        assert_eq!(all[0], Action::Win(tile("5m")));
        assert!(all.contains(&Action::Chow(tile("5m"))));
    }

    #[test]
    fn a_barred_seat_is_offered_no_win() {
        let mut v = view("1112345678999m", discard_by(Seat::West, "5m"));
        assert!(actions(&v, &Ruleset::MIL).contains(&Action::Win(tile("5m"))));
        v.barred = true;
        assert!(!actions(&v, &Ruleset::MIL).contains(&Action::Win(tile("5m"))));
    }

    #[test]
    fn an_offer_names_its_win_source() {
        let t = tile("5m");
        assert_eq!(
            Offer::Discard {
                tile: t,
                from: Seat::West
            }
            .win_source(),
            WinSource::Discard {
                discarder: Seat::West
            }
        );
        assert_eq!(
            Offer::AddedKong {
                tile: t,
                from: Seat::North
            }
            .win_source(),
            WinSource::RobbingKong {
                robbed: Seat::North
            }
        );
    }
}
