//! Self-play on a table model of its own (not the replay's transition): seeded hands played
//! by choosing only among the actions a [`Referee`] offers, several seats' claims settled by
//! the referee's arbitration. The engine and the service are both referees (the tests
//! `crates/mcr/tests/self_play.rs` and `tests/self_play_api.rs`).
#![allow(dead_code)]

use mcr::hand::{KongExposure, Meld};
use mcr::play::state::WallLeft;
use mcr::play::{
    Action, ClaimMade, DrawKind, Drawn, Event, Moment, Offer, OverriddenClaim, Record, SeatView,
    Stated, Wall,
};
use mcr::shape::shanten::shanten;
use mcr::{BySeat, Seat, Tile, Wind};

/// An action offered to a seat: for a win, its fan total (flowers excluded) and total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offered {
    pub action: Action,
    pub win: Option<(u32, u32)>,
}

/// The verdict on claims: the index that stands, those overridden, how many were illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub stands: Option<usize>,
    pub overridden: Vec<usize>,
    pub illegal: usize,
}

/// What the players ask: the legal actions of a view, the arbitration of claims.
pub trait Referee {
    fn legal(&self, view: &SeatView) -> Vec<Offered>;
    fn arbitrate(&self, offer: Offer, claims: &[ClaimMade]) -> Verdict;
}

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % (n as u64)).unwrap()
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// The table as this test keeps it.
pub struct Table {
    wall: Vec<Tile>,
    front: usize,
    back: usize,
    hands: [[u8; 34]; 4],
    melds: [Vec<Meld>; 4],
    visible: [u8; 34],
    prevalent: Wind,
    pub events: Vec<Event>,
    deal: BySeat<Vec<Drawn>>,
}

/// How a hand ended, as the table saw it: the winner with the fan and points of the win.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    Win(Seat, u32, [i64; 4]),
    DrawGame,
    /// An action not offered was spliced in at this event.
    Spliced(usize),
}

impl Table {
    fn new(rng: &mut Rng) -> Table {
        let mut wall: Vec<Tile> = Tile::ALL.iter().flat_map(|&t| [t; 4]).collect();
        for i in (1..wall.len()).rev() {
            wall.swap(i, rng.below(i + 1));
        }
        let mut hands = [[0u8; 34]; 4];
        let mut deal = BySeat::<Vec<Drawn>>::default();
        for (s, seat) in Seat::ALL.into_iter().enumerate() {
            for &t in &wall[13 * s..13 * s + 13] {
                hands[s][t.index()] += 1;
                deal[seat].push(Drawn::Tile(t));
            }
        }
        Table {
            back: wall.len(),
            wall,
            front: 52,
            hands,
            melds: Default::default(),
            visible: [0; 34],
            prevalent: Wind::ALL[rng.below(4)],
            events: Vec::new(),
            deal,
        }
    }

    fn left(&self) -> u16 {
        u16::try_from(self.back - self.front).unwrap()
    }

    fn view(&self, seat: Seat, moment: Moment) -> SeatView {
        SeatView {
            seat,
            prevalent_wind: self.prevalent,
            concealed: self.hands[seat.index()],
            melds: self.melds[seat.index()].clone(),
            flowers: 0,
            visible: self.visible,
            wall: Wall::with_left(WallLeft::Shared(self.left())),
            barred: false,
            moment,
        }
    }

    fn push(&mut self, seat: Seat, action: Action) {
        self.events.push(Event::new(seat, action));
    }

    pub fn record(&self, ended: &Ended) -> Record {
        let stated = match ended {
            Ended::Win(_, fan, scores) => Stated {
                fan: Some(i64::from(*fan)),
                scores: Some(BySeat::from_array(*scores)),
                circumstances: None,
            },
            Ended::DrawGame => Stated {
                fan: None,
                scores: Some(BySeat::default()),
                circumstances: None,
            },
            Ended::Spliced(_) => Stated::default(),
        };
        Record {
            prevalent_wind: self.prevalent,
            deal: self.deal.clone(),
            wall: None,
            events: self.events.clone(),
            draw_game: matches!(ended, Ended::DrawGame),
            stated,
        }
    }
}

fn points(winner: Seat, payer: Option<Seat>, total: u32) -> [i64; 4] {
    let total = i64::from(total);
    let mut p = [0i64; 4];
    for other in winner.others() {
        let pays = if payer.is_none_or(|s| s == other) {
            8 + total
        } else {
            8
        };
        p[other.index()] -= pays;
        p[winner.index()] += pays;
    }
    p
}

/// An action not among `offered` for this moment, if one can be found (the splice).
fn not_offered(view: &SeatView, offered: &[Offered], rng: &mut Rng) -> Option<Action> {
    let mut candidates = Vec::new();
    for t in Tile::ALL {
        match view.moment {
            Moment::Drew { tile, .. } => {
                candidates.extend([
                    Action::Discard(t),
                    Action::ConcealedKong(t),
                    Action::AddedKong(t),
                ]);
                if t == tile {
                    candidates.push(Action::Win(t));
                }
            }
            Moment::Claimed => candidates.push(Action::Discard(t)),
            Moment::Offered(Offer::Discard { tile, .. }) => {
                if t == tile {
                    candidates.extend([Action::Pung(t), Action::Kong(t), Action::Win(t)]);
                }
                if t.suit() == tile.suit()
                    && t.rank()
                        .zip(tile.rank())
                        .is_some_and(|(a, b)| a.abs_diff(b) <= 1)
                    && matches!(t.rank(), Some(2..=8))
                {
                    candidates.push(Action::Chow(t));
                }
            }
            Moment::Offered(Offer::AddedKong { .. }) | Moment::DrewFlower(_) => {}
        }
    }
    candidates.retain(|a| offered.iter().all(|o| o.action != *a));
    (!candidates.is_empty()).then(|| candidates[rng.below(candidates.len())])
}

/// A hand being played: the table, the generator, and where to splice an action not offered.
struct Game<'r> {
    table: Table,
    rng: Rng,
    referee: &'r dyn Referee,
    splice_at: Option<usize>,
    decisions: usize,
}

/// What comes next in a hand.
enum Next {
    Draw(Seat, DrawKind),
    Discard(Seat, Tile),
    End(Ended),
}

/// Plays one hand. With `splice`, at one random decision an action not offered is taken and
/// the hand stops there.
pub fn play(seed: u64, splice: bool, referee: &dyn Referee) -> (Table, Ended) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let table = Table::new(&mut rng);
    let splice_at = splice.then(|| rng.below(60));
    let mut game = Game {
        table,
        rng,
        referee,
        splice_at,
        decisions: 0,
    };
    let mut next = Next::Draw(Seat::East, DrawKind::Normal);
    loop {
        next = match next {
            Next::Draw(seat, kind) => game.draw(seat, kind),
            Next::Discard(seat, tile) => game.discard(seat, tile),
            Next::End(ended) => return (game.table, ended),
        };
    }
}

impl Game<'_> {
    /// The splice, when this decision is the one chosen for it.
    fn splice(&mut self, view: &SeatView, offered: &[Offered]) -> Option<Next> {
        self.decisions += 1;
        if Some(self.decisions) != self.splice_at {
            return None;
        }
        let action = not_offered(view, offered, &mut self.rng)?;
        self.table.push(view.seat, action);
        Some(Next::End(Ended::Spliced(self.table.events.len() - 1)))
    }

    /// `seat` draws and acts on its draw.
    fn draw(&mut self, seat: Seat, kind: DrawKind) -> Next {
        let table = &mut self.table;
        if table.left() == 0 {
            return Next::End(Ended::DrawGame);
        }
        let tile = if kind == DrawKind::AfterKong {
            table.back -= 1;
            table.wall[table.back]
        } else {
            table.front += 1;
            table.wall[table.front - 1]
        };
        table.hands[seat.index()][tile.index()] += 1;
        table.push(seat, Action::Draw(Drawn::Tile(tile)));
        let view = table.view(seat, Moment::Drew { tile, kind });
        let offered = self.referee.legal(&view);
        if let Some(next) = self.splice(&view, &offered) {
            return next;
        }
        let rng = &mut self.rng;
        let wins: Vec<&Offered> = offered.iter().filter(|a| a.win.is_some()).collect();
        let kongs: Vec<&Offered> = offered
            .iter()
            .filter(|a| matches!(a.action, Action::ConcealedKong(_) | Action::AddedKong(_)))
            .collect();
        let discards: Vec<&Offered> = offered
            .iter()
            .filter(|a| matches!(a.action, Action::Discard(_)))
            .collect();
        let chosen = if !wins.is_empty() && rng.chance(90) {
            wins[0]
        } else if !kongs.is_empty() && rng.chance(60) {
            kongs[rng.below(kongs.len())]
        } else {
            pick_discard(&self.table, seat, &discards, rng)
        };
        self.table.push(seat, chosen.action);
        match chosen.action {
            Action::Win(_) => {
                let (fan, total) = chosen.win.expect("a win is judged");
                Next::End(Ended::Win(seat, fan, points(seat, None, total)))
            }
            Action::ConcealedKong(t) => {
                self.table.hands[seat.index()][t.index()] -= 4;
                self.table.melds[seat.index()].push(Meld::Kong {
                    tile: t,
                    exposure: KongExposure::Concealed,
                });
                Next::Draw(seat, DrawKind::AfterKong)
            }
            Action::AddedKong(t) => self.added_kong(seat, t),
            Action::Discard(t) => Next::Discard(seat, t),
            other @ (Action::Draw(_)
            | Action::Flower(_)
            | Action::Chow(_)
            | Action::Pung(_)
            | Action::Kong(_)) => panic!("not offered on a draw: {other:?}"),
        }
    }

    fn added_kong(&mut self, seat: Seat, t: Tile) -> Next {
        self.table.hands[seat.index()][t.index()] -= 1;
        self.table.visible[t.index()] += 1;
        let offer = Offer::AddedKong {
            tile: t,
            from: seat,
        };
        if let Some(ended) = offer_round(&mut self.table, offer, self.referee, &mut self.rng) {
            return Next::End(ended);
        }
        let melds = &mut self.table.melds[seat.index()];
        let i = melds
            .iter()
            .position(|m| matches!(m, Meld::Pung { tile, .. } if *tile == t))
            .expect("an added kong has its pung");
        if let Meld::Pung { from, .. } = melds[i] {
            melds[i] = Meld::Kong {
                tile: t,
                exposure: KongExposure::Promoted(from),
            };
        }
        Next::Draw(seat, DrawKind::AfterKong)
    }

    /// `discarder` discards `discard`; the others claim it or the next seat draws.
    fn discard(&mut self, discarder: Seat, discard: Tile) -> Next {
        let table = &mut self.table;
        table.hands[discarder.index()][discard.index()] -= 1;
        table.visible[discard.index()] += 1;
        let offer = Offer::Discard {
            tile: discard,
            from: discarder,
        };
        let before = table.events.len();
        if let Some(ended) = offer_round(table, offer, self.referee, &mut self.rng) {
            return Next::End(ended);
        }
        if table.events.len() == before {
            return Next::Draw(discarder.next(), DrawKind::Normal);
        }
        // A claim stood: the claimer's event is the last.
        let claim = table.events.last().expect("the claim").clone();
        let claimer = claim.seat;
        let from = claimer.relation_to(discarder);
        let hand = &mut table.hands[claimer.index()];
        match claim.action {
            Action::Pung(t) => {
                hand[t.index()] -= 2;
                table.visible[t.index()] += 2;
                table.melds[claimer.index()].push(Meld::Pung { tile: t, from });
            }
            Action::Kong(t) => {
                hand[t.index()] -= 3;
                table.visible[t.index()] += 3;
                table.melds[claimer.index()].push(Meld::Kong {
                    tile: t,
                    exposure: KongExposure::Direct(from),
                });
                return Next::Draw(claimer, DrawKind::AfterKong);
            }
            Action::Chow(m) => {
                let (suit, r) = (m.suit().expect("suit"), m.rank().expect("rank"));
                for rank in r - 1..=r + 1 {
                    let t = Tile::numbered(suit, rank).expect("tile");
                    if t != discard {
                        hand[t.index()] -= 1;
                        table.visible[t.index()] += 1;
                    }
                }
                table.melds[claimer.index()].push(Meld::Chow {
                    first: Tile::numbered(suit, r - 1).expect("tile"),
                    claimed: Some(discard),
                });
            }
            other @ (Action::Draw(_)
            | Action::Flower(_)
            | Action::Discard(_)
            | Action::ConcealedKong(_)
            | Action::AddedKong(_)
            | Action::Win(_)) => panic!("not a claim that continues: {other:?}"),
        }
        // The claimer discards.
        let view = self.table.view(claimer, Moment::Claimed);
        let offered = self.referee.legal(&view);
        if let Some(next) = self.splice(&view, &offered) {
            return next;
        }
        let all: Vec<&Offered> = offered.iter().collect();
        let pick = pick_discard(&self.table, claimer, &all, &mut self.rng);
        self.table.push(claimer, pick.action);
        let Action::Discard(t) = pick.action else {
            panic!("after a claim only discards are offered: {pick:?}");
        };
        Next::Discard(claimer, t)
    }
}

/// Mostly the discard that leaves the hand nearest to ready (so that hands are won), now and
/// then any.
fn pick_discard<'a>(
    table: &Table,
    seat: Seat,
    discards: &[&'a Offered],
    rng: &mut Rng,
) -> &'a Offered {
    if rng.chance(15) {
        return discards[rng.below(discards.len())];
    }
    let hand = table.hands[seat.index()];
    let melds = table.melds[seat.index()].len();
    let distance = |a: &Offered| {
        let Action::Discard(t) = a.action else {
            return i8::MAX;
        };
        let mut left = hand;
        left[t.index()] -= 1;
        shanten(&left, melds)
    };
    let best = discards
        .iter()
        .map(|a| distance(a))
        .min()
        .unwrap_or(i8::MAX);
    let nearest: Vec<&&Offered> = discards.iter().filter(|a| distance(a) == best).collect();
    nearest[rng.below(nearest.len())]
}

/// Every other seat answers the offer from what `legal_actions` offers it; `arbitrate`
/// decides. A win ends the hand; another claim that stands is pushed as an event (with the
/// claims it overrode); nothing is pushed when all pass.
fn offer_round(
    table: &mut Table,
    offer: Offer,
    referee: &dyn Referee,
    rng: &mut Rng,
) -> Option<Ended> {
    let mut claims = Vec::new();
    let mut wins = Vec::new();
    for seat in offer.from().others() {
        let view = table.view(seat, Moment::Offered(offer));
        let offered = referee.legal(&view);
        if offered.is_empty() {
            continue;
        }
        let win = offered.iter().find(|a| a.win.is_some());
        let pick = match win {
            Some(w) if rng.chance(90) => Some(w),
            Some(_) | None if rng.chance(35) => Some(&offered[rng.below(offered.len())]),
            Some(_) | None => None,
        };
        if let Some(pick) = pick {
            wins.push(pick.win);
            claims.push(ClaimMade {
                seat,
                action: pick.action,
                view: Some(view),
            });
        }
    }
    if claims.is_empty() {
        return None;
    }
    let verdict = referee.arbitrate(offer, &claims);
    assert_eq!(
        verdict.illegal, 0,
        "an offered claim is illegal: {verdict:?}"
    );
    let stands = verdict.stands.expect("a legal claim stands");
    let claim = &claims[stands];
    let mut event = Event::new(claim.seat, claim.action);
    event.overridden = verdict
        .overridden
        .iter()
        .map(|&i| OverriddenClaim {
            seat: claims[i].seat,
            action: claims[i].action,
        })
        .collect();
    table.events.push(event);
    if let Action::Win(_) = claim.action {
        let (fan, total) = wins[stands].expect("a win is judged");
        let scores = points(claim.seat, Some(offer.from()), total);
        return Some(Ended::Win(claim.seat, fan, scores));
    }
    None
}
