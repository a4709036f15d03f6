// A game's score card, as data: four players, up to 16 hands (4 prevailing winds × 4 dealers),
// each a win or a draw game with its penalties. Pure functions only (no DOM, no calls): who
// sits where at each hand, the SettleHand request of a hand, the running totals from the
// referee's answers, the ComputeStandings request, and reading a stored or imported game.
//
// Seating (docs/rules/tiles-and-play.md#dealer-and-rounds): East deals; the deal passes to the next seat after every hand, won
// or not, so at hand i of a round the player who sat South at the round's start is East. A
// game is four rounds (圈) of four hands, East round first. Whether the players change seats
// between rounds the rules do not say: the table chooses (`seating`, one order per round).

/** Winds and seats as 0..3: East, South, West, North. */
export type Wind = 0 | 1 | 2 | 3;
/** A player as 0..3, the index in `Game.players`. */
export type Player = 0 | 1 | 2 | 3;

export const HANDS_PER_GAME = 16;

/** An offence of one hand; `infraction` is the proto Infraction value. */
export interface GamePenalty {
  offender: Player;
  infraction: number;
  /** The graded amount, for the infractions that need one. */
  points?: number;
  /** The victim, for exposing another player's tiles. */
  victim?: Player;
}

/** How a win's value is given: the hand itself (scored by the referee) or its fan total. */
export type WinValue =
  | { notation: string; lastCopy?: boolean; kong?: boolean; lastTile?: boolean }
  | { fan: number };

export type GameHand =
  | { kind: "win"; winner: Player; discarder: Player | null; value: WinValue; flowers: number; penalties: GamePenalty[] }
  | { kind: "draw"; penalties: GamePenalty[] };

export interface Game {
  version: 1;
  players: [string, string, string, string];
  /** For each round, the players at East, South, West, North when it starts. */
  seating: [Player[], Player[], Player[], Player[]];
  hands: GameHand[];
  ruleset: string;
  /** Whole minutes each player was late (R98 §13), 0 mostly. */
  lateMinutes: [number, number, number, number];
}

export function newGame(players: [string, string, string, string], ruleset: string): Game {
  const order: Player[] = [0, 1, 2, 3];
  return { version: 1, players, seating: [order, [...order], [...order], [...order]], hands: [], ruleset, lateMinutes: [0, 0, 0, 0] };
}

/** The prevailing wind of hand `i` (0-based). */
export function prevailing(i: number): Wind {
  return Math.min(3, Math.floor(i / 4)) as Wind;
}

/** The seat wind of `player` at hand `i`. */
export function seatOf(game: Game, i: number, player: Player): Wind {
  const order = game.seating[prevailing(i)];
  const start = order.indexOf(player);
  return ((start - (i % 4) + 4) % 4) as Wind;
}

/** The player in seat `wind` at hand `i`. */
export function playerAt(game: Game, i: number, wind: Wind): Player {
  const order = game.seating[prevailing(i)];
  return order[(wind + (i % 4)) % 4]!;
}

/** The dealer (East) of hand `i`. */
export const dealer = (game: Game, i: number): Player => playerAt(game, i, 0);

/** Proto enum values: Seat and Wind are 1 + the wind; HandEnd 1 self-drawn, 2 discard, 4 draw. */
const seatValue = (w: Wind) => w + 1;

/** The SettleHand request of hand `i`, as a plain init object for the client. */
export function settleRequest(game: Game, i: number) {
  const hand = game.hands[i]!;
  const seat = (p: Player) => seatValue(seatOf(game, i, p));
  const penalties = hand.penalties.map((p) => ({
    offender: seat(p.offender),
    infraction: p.infraction,
    points: p.points ?? 0,
    victim: p.victim === undefined ? 0 : seat(p.victim),
  }));
  if (hand.kind === "draw") return { end: 4, penalties, ruleset: game.ruleset };
  const selfDrawn = hand.discarder === null;
  const value = hand.value;
  const winValue =
    "fan" in value
      ? { case: "fanCount" as const, value: { fanTotal: value.fan, flowerCount: hand.flowers } }
      : {
          case: "winningHand" as const,
          value: {
            handInput: { case: "notation" as const, value: value.notation },
            context: {
              selfDrawn,
              robbingKong: !!value.kong && !selfDrawn,
              replacementDraw: !!value.kong && selfDrawn,
              lastTile: !!value.lastTile,
              lastCopy: !!value.lastCopy,
              seatWind: seat(hand.winner),
              prevalentWind: prevailing(i) + 1,
              flowerCount: hand.flowers,
            },
          },
        };
  return {
    end: selfDrawn ? 1 : "notation" in value && value.kong ? 3 : 2,
    winner: seat(hand.winner),
    discarder: hand.discarder === null ? 0 : seat(hand.discarder),
    winValue,
    penalties,
    ruleset: game.ruleset,
  };
}

/** Per player, the points of one hand, from the referee's per-seat accounts. */
export function deltasByPlayer(game: Game, i: number, accounts: readonly { seat: number; delta: number }[]): number[] {
  const out = [0, 0, 0, 0];
  for (const a of accounts) out[playerAt(game, i, (a.seat - 1) as Wind)] = a.delta;
  return out;
}

/** The totals after each hand: row i is the sum of rows 0..i. */
export function runningTotals(deltas: readonly (readonly number[])[]): number[][] {
  const sum = [0, 0, 0, 0];
  return deltas.map((row) => {
    row.forEach((d, p) => (sum[p] = sum[p]! + d));
    return [...sum];
  });
}

/** The ComputeStandings request of a game: one session per player at one table. */
export function standingsRequest(game: Game, deltas: readonly (readonly number[])[]) {
  return {
    players: game.players.map((name, p) => ({
      name,
      sessions: [{ handResults: deltas.map((row) => row[p]!), lateMinutes: game.lateMinutes[p]!, table: 0 }],
    })),
    ruleset: game.ruleset,
  };
}

const isPlayer = (v: unknown): v is Player => v === 0 || v === 1 || v === 2 || v === 3;
const isCount = (v: unknown, max: number) => typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= max;

function readPenalty(v: unknown): GamePenalty | null {
  if (typeof v !== "object" || v === null) return null;
  const p = v as Record<string, unknown>;
  if (!isPlayer(p.offender) || !isCount(p.infraction, 64)) return null;
  const out: GamePenalty = { offender: p.offender, infraction: p.infraction as number };
  if (p.points !== undefined) {
    if (!isCount(p.points, 1000)) return null;
    out.points = p.points as number;
  }
  if (p.victim !== undefined) {
    if (!isPlayer(p.victim)) return null;
    out.victim = p.victim;
  }
  return out;
}

function readHand(v: unknown): GameHand | null {
  if (typeof v !== "object" || v === null) return null;
  const hand = v as Record<string, unknown>;
  const penalties = Array.isArray(hand.penalties) ? hand.penalties.map(readPenalty) : [];
  if (penalties.some((p) => p === null)) return null;
  const ps = penalties as GamePenalty[];
  if (hand.kind === "draw") return { kind: "draw", penalties: ps };
  if (hand.kind !== "win" || !isPlayer(hand.winner)) return null;
  if (hand.discarder !== null && (!isPlayer(hand.discarder) || hand.discarder === hand.winner)) return null;
  if (!isCount(hand.flowers, 8)) return null;
  const value = hand.value as Record<string, unknown> | null;
  if (typeof value !== "object" || value === null) return null;
  let win: WinValue;
  if (typeof value.notation === "string" && value.notation.length <= 200) {
    win = { notation: value.notation, lastCopy: value.lastCopy === true, kong: value.kong === true, lastTile: value.lastTile === true };
  } else if (isCount(value.fan, 10000)) {
    win = { fan: value.fan as number };
  } else {
    return null;
  }
  return { kind: "win", winner: hand.winner, discarder: hand.discarder as Player | null, value: win, flowers: hand.flowers as number, penalties: ps };
}

/** A game from stored or imported JSON, or null when it is not one. */
export function readGame(v: unknown): Game | null {
  if (typeof v !== "object" || v === null) return null;
  const g = v as Record<string, unknown>;
  if (g.version !== 1 || !Array.isArray(g.players) || g.players.length !== 4) return null;
  if (!g.players.every((n) => typeof n === "string" && n.length <= 40)) return null;
  if (!Array.isArray(g.seating) || g.seating.length !== 4) return null;
  for (const order of g.seating) {
    if (!Array.isArray(order) || order.length !== 4 || new Set(order).size !== 4 || !order.every(isPlayer)) return null;
  }
  if (!Array.isArray(g.hands) || g.hands.length > HANDS_PER_GAME) return null;
  const hands = g.hands.map(readHand);
  if (hands.some((x) => x === null)) return null;
  const late = Array.isArray(g.lateMinutes) && g.lateMinutes.length === 4 && g.lateMinutes.every((m) => isCount(m, 1000)) ? g.lateMinutes : [0, 0, 0, 0];
  return {
    version: 1,
    players: g.players as Game["players"],
    seating: g.seating as Game["seating"],
    hands: hands as GameHand[],
    ruleset: typeof g.ruleset === "string" ? g.ruleset : "chinese-official-1998",
    lateMinutes: late as Game["lateMinutes"],
  };
}
