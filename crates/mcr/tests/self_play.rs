//! Self-play: seeded hands played by choosing only among what [`legal_actions`] offers, with
//! several seats' claims settled by [`arbitrate`], on a table model of this test's own (not
//! the replay's transition). Each hand is written in Botzone's format and replayed: the
//! replay must find nothing and agree on the winner, the fan and the points. Then an action
//! `legal_actions` does not offer, spliced into such a hand, must be a finding at its line.

use mcr::hand::{KongExposure, Meld};
use mcr::play::botzone::{read_match, write_match};
use mcr::play::state::WallLeft;
use mcr::play::{
    Action, ClaimMade, DrawKind, Drawn, Event, LegalAction, Moment, Offer, OverriddenClaim, Record,
    ReplayEnd, ReplayOptions, SeatView, Stated, Wall, arbitrate, legal_actions, replay,
};
use mcr::shape::shanten::shanten;
use mcr::{BySeat, Ruleset, Seat, Tile, Wind};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

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
struct Table {
    wall: Vec<Tile>,
    front: usize,
    back: usize,
    hands: [[u8; 34]; 4],
    melds: [Vec<Meld>; 4],
    visible: [u8; 34],
    prevalent: Wind,
    events: Vec<Event>,
    deal: BySeat<Vec<Drawn>>,
}

/// How a hand ended, as the table saw it: the winner with the fan and points of the win.
#[derive(Debug, PartialEq, Eq)]
enum Ended {
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

    fn record(&self, ended: &Ended) -> Record {
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
fn not_offered(view: &SeatView, offered: &[LegalAction], rng: &mut Rng) -> Option<Action> {
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
            Moment::Discard { tile, .. } => {
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
            Moment::AddedKong { .. } | Moment::DrewFlower(_) => {}
        }
    }
    candidates.retain(|a| offered.iter().all(|o| o.action != *a));
    (!candidates.is_empty()).then(|| candidates[rng.below(candidates.len())])
}

/// A hand being played: the table, the generator, and where to splice an action not offered.
struct Game<'r> {
    table: Table,
    rng: Rng,
    rules: &'r Ruleset<'r>,
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
fn play(seed: u64, splice: bool, rules: &Ruleset) -> (Table, Ended) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let table = Table::new(&mut rng);
    let splice_at = splice.then(|| rng.below(60));
    let mut game = Game {
        table,
        rng,
        rules,
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
    fn splice(&mut self, view: &SeatView, offered: &[LegalAction]) -> Option<Next> {
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
        let offered = legal_actions(&view, self.rules);
        if let Some(next) = self.splice(&view, &offered) {
            return next;
        }
        let rng = &mut self.rng;
        let wins: Vec<&LegalAction> = offered.iter().filter(|a| a.win.is_some()).collect();
        let kongs: Vec<&LegalAction> = offered
            .iter()
            .filter(|a| matches!(a.action, Action::ConcealedKong(_) | Action::AddedKong(_)))
            .collect();
        let discards: Vec<&LegalAction> = offered
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
                let w = chosen.win.as_ref().expect("a win is judged");
                let scores = points(seat, None, w.scoring.total);
                Next::End(Ended::Win(seat, w.scoring.fan_total, scores))
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
        if let Some(ended) = offer_round(&mut self.table, offer, self.rules, &mut self.rng) {
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
        if let Some(ended) = offer_round(table, offer, self.rules, &mut self.rng) {
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
        let offered = legal_actions(&view, self.rules);
        if let Some(next) = self.splice(&view, &offered) {
            return next;
        }
        let all: Vec<&LegalAction> = offered.iter().collect();
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
    discards: &[&'a LegalAction],
    rng: &mut Rng,
) -> &'a LegalAction {
    if rng.chance(15) {
        return discards[rng.below(discards.len())];
    }
    let hand = table.hands[seat.index()];
    let melds = table.melds[seat.index()].len();
    let distance = |a: &LegalAction| {
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
    let nearest: Vec<&&LegalAction> = discards.iter().filter(|a| distance(a) == best).collect();
    nearest[rng.below(nearest.len())]
}

/// Every other seat answers the offer from what `legal_actions` offers it; `arbitrate`
/// decides. A win ends the hand; another claim that stands is pushed as an event (with the
/// claims it overrode); nothing is pushed when all pass.
fn offer_round(table: &mut Table, offer: Offer, rules: &Ruleset, rng: &mut Rng) -> Option<Ended> {
    let mut claims = Vec::new();
    let mut wins = Vec::new();
    for seat in offer.from().others() {
        let moment = match offer {
            Offer::Discard { tile, from } => Moment::Discard { tile, from },
            Offer::AddedKong { tile, from } => Moment::AddedKong { tile, from },
        };
        let view = table.view(seat, moment);
        let offered = legal_actions(&view, rules);
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
            wins.push(pick.win.clone());
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
    let verdict = arbitrate(offer, &claims, rules).expect("claims offered are well formed");
    assert!(
        verdict.illegal.is_empty(),
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
        let w = wins[stands].as_ref().expect("a win is judged");
        let scores = points(claim.seat, Some(offer.from()), w.scoring.total);
        return Some(Ended::Win(claim.seat, w.scoring.fan_total, scores));
    }
    None
}

const HANDS: u64 = 2_000;

#[test]
fn hands_played_from_the_legal_actions_replay_without_a_finding() {
    let rules = Ruleset::MIL;
    let (mut wins, mut draws, mut claims) = (0, 0, 0);
    for seed in 0..HANDS {
        let (table, ended) = play(seed, false, &rules);
        let record = table.record(&ended);
        claims += record
            .events
            .iter()
            .filter(|e| e.action.is_claim_kind())
            .count();
        // Through Botzone's text and back, as a log would travel.
        let text = write_match(&format!("self-{seed}"), &record, None);
        let lines: Vec<&str> = text.lines().collect();
        let m = read_match(&lines).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let r = replay(&m.record, &rules, ReplayOptions::default());
        assert!(
            r.violations.is_empty(),
            "seed {seed}: {:?}\n{text}",
            r.violations
        );
        match ended {
            Ended::Win(seat, fan, scores) => {
                wins += 1;
                let w = r.win().unwrap_or_else(|| panic!("seed {seed}: no win"));
                assert_eq!((w.seat, w.scoring.fan_total), (seat, fan), "seed {seed}");
                assert_eq!(
                    r.deltas().map(BySeat::into_array),
                    Some(scores),
                    "seed {seed}"
                );
            }
            Ended::DrawGame => {
                draws += 1;
                assert_eq!(r.end, ReplayEnd::DrawGame, "seed {seed}");
            }
            Ended::Spliced(_) => unreachable!(),
        }
    }
    // The hands are varied: wins and draw games, and claims are made.
    eprintln!("{wins} wins, {draws} draw games, {claims} claims");
    assert!(
        wins > HANDS / 10 && draws > HANDS / 10,
        "{wins} wins, {draws} draws"
    );
    assert!(claims > usize::try_from(HANDS).unwrap(), "{claims} claims");
}

#[test]
fn an_action_not_offered_is_a_finding_at_its_line() {
    let rules = Ruleset::MIL;
    let mut spliced = 0;
    for seed in 0..HANDS / 2 {
        let (table, ended) = play(seed, true, &rules);
        let Ended::Spliced(index) = ended else {
            continue;
        };
        spliced += 1;
        let record = table.record(&ended);
        let r = replay(&record, &rules, ReplayOptions::default());
        let first = r.violations.first().unwrap_or_else(|| {
            panic!(
                "seed {seed}: {:?} at event {index} passed",
                record.events[index]
            )
        });
        assert_eq!(
            first.at,
            mcr::play::At::Event(index),
            "seed {seed}: {:?} → {:?}",
            record.events[index],
            r.violations
        );
    }
    assert!(spliced > 500, "{spliced} hands spliced");
}
