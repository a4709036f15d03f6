// The 3,026 hands of tests/data/public.jsonl through BatchScoreHands under MIL, over gRPC and
// over gRPC-Web, compared with the corpus as scripts/crosscheck.py compares them:
// - a win: OUTCOME_WIN, the same fan multiset (Chinese name, points, count) and total (the
//   corpus's 独听・边张 / 独听・嵌张 / 独听・单钓 are the rulebook's 边张 / 坎张 / 单钓将);
// - ERROR_FAN_LESS_THAN_8: OUTCOME_BELOW_MINIMUM with the oracle's fans and total;
// - ERROR_NOT_WIN: OUTCOME_NOT_WINNING_SHAPE, the total being the flowers alone;
// - any other error: an error entry with reason INVALID_HAND and violations.
// A score must carry no violations and say RULESET_MIL.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { after, before, test } from "node:test";
import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  type BatchScoreHandsResult,
  ClaimSource,
  MeldKind,
  Outcome,
  Ruleset,
  type ScoreHandRequestSchema,
  type ScoreHandResponse,
  Wind,
} from "../src/index.js";
import { nodeClient, type Protocol } from "../src/node.js";
import { ROOT, type Referee, startReferee } from "./server.js";

type Fans = [string, number, number][];
interface Case {
  id: string;
  melds: { kind: string; tiles: string[]; claimed_from: number }[];
  concealed: string[];
  win_tile: string;
  flowers: number;
  self_drawn: boolean;
  fourth_tile: boolean;
  kong_related: boolean;
  last_tile: boolean;
  seat_wind: number;
  prevalent_wind: number;
  expected: {
    total?: number;
    fans?: Fans;
    error?: string;
    oracle_total?: number;
    oracle_fans?: Fans;
  };
}

const CHUNK = 500;
const WAIT_NAMES: Record<string, string> = {
  "独听・边张": "边张",
  "独听・嵌张": "坎张",
  "独听・单钓": "单钓将",
};
const MELD_KINDS: Record<string, MeldKind> = {
  chow: MeldKind.CHOW,
  pung: MeldKind.PUNG,
  kong: MeldKind.KONG,
  concealed_kong: MeldKind.CONCEALED_KONG,
};
const CLAIM_SOURCES = [
  ClaimSource.UNSPECIFIED,
  ClaimSource.LEFT,
  ClaimSource.OPPOSITE,
  ClaimSource.RIGHT,
];
const WINDS = [Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH];
/** A number no Tile has: how the corpus's bad tile codes reach the referee. */
const OUT_OF_RANGE_TILE = 99;
const SUITS: Record<string, [number, number]> = {
  W: [0, 9],
  B: [9, 9],
  T: [18, 9],
  F: [27, 4],
  J: [31, 3],
};

/** A corpus tile code (W1 … J3) as a proto Tile number. */
function tile(code: string): number {
  const suit = SUITS[code[0] ?? ""];
  const n = Number(code.slice(1));
  if (code.length !== 2 || suit === undefined || !Number.isInteger(n)) {
    return OUT_OF_RANGE_TILE;
  }
  const [base, top] = suit;
  return n >= 1 && n <= top ? base + n : OUT_OF_RANGE_TILE;
}

function request(c: Case): MessageInitShape<typeof ScoreHandRequestSchema> {
  return {
    handInput: {
      case: "hand",
      value: {
        melds: c.melds.map((m) => ({
          kind: MELD_KINDS[m.kind] ?? MeldKind.UNSPECIFIED,
          tiles: m.tiles.map(tile),
          claimedFrom: CLAIM_SOURCES[m.claimed_from] ?? ClaimSource.UNSPECIFIED,
        })),
        standingTiles: c.concealed.map(tile),
        winningTile: tile(c.win_tile),
      },
    },
    context: {
      selfDrawn: c.self_drawn,
      robbingKong: c.kong_related && !c.self_drawn,
      replacementDraw: c.kong_related && c.self_drawn,
      lastTile: c.last_tile,
      lastCopy: c.fourth_tile,
      seatWind: WINDS[c.seat_wind] ?? Wind.UNSPECIFIED,
      prevalentWind: WINDS[c.prevalent_wind] ?? Wind.UNSPECIFIED,
      flowerCount: c.flowers,
    },
    ruleset: Ruleset.MIL,
  };
}

function multiset(fans: Fans): string[] {
  return fans.map(([name, points, count]) => `${WAIT_NAMES[name] ?? name}/${points}/${count}`).sort();
}

type Expected =
  | { kind: "INVALID" }
  | { kind: Outcome; fans: string[] | undefined; total: number };

function expectation(c: Case): Expected {
  const e = c.expected;
  if (e.error === undefined) {
    return { kind: Outcome.WIN, fans: multiset(e.fans ?? []), total: e.total ?? -1 };
  }
  if (e.error === "ERROR_FAN_LESS_THAN_8") {
    return {
      kind: Outcome.BELOW_MINIMUM,
      fans: multiset(e.oracle_fans ?? []),
      total: e.oracle_total ?? -1,
    };
  }
  if (e.error === "ERROR_NOT_WIN") {
    return { kind: Outcome.NOT_WINNING_SHAPE, fans: undefined, total: c.flowers };
  }
  return { kind: "INVALID" };
}

function judgeScore(expected: Expected, score: ScoreHandResponse): string | undefined {
  if (expected.kind === "INVALID") {
    return `expected a rejection, got ${Outcome[score.outcome]} total ${score.total}`;
  }
  const problems: string[] = [];
  if (score.outcome !== expected.kind) {
    problems.push(`outcome ${Outcome[score.outcome]} (expected ${Outcome[expected.kind]})`);
  }
  if (score.total !== expected.total) {
    problems.push(`total ${score.total} (expected ${expected.total})`);
  }
  const got = score.fans.map((f) => `${f.nameZh}/${f.points}/${f.count}`).sort();
  if (expected.fans !== undefined && got.join() !== expected.fans.join()) {
    problems.push(`fans ${got.join(" ")} (expected ${expected.fans.join(" ")})`);
  }
  if (score.violations.length > 0) {
    problems.push(`${score.violations.length} violations`);
  }
  if (score.ruleset !== Ruleset.MIL) {
    problems.push(`ruleset ${Ruleset[score.ruleset]}`);
  }
  return problems.length > 0 ? problems.join("; ") : undefined;
}

/** Why a batch entry disagrees with its case, or undefined. */
export function judge(c: Case, result: BatchScoreHandsResult | undefined): string | undefined {
  const expected = expectation(c);
  switch (result?.result.case) {
    case "score":
      return judgeScore(expected, result.result.value);
    case "error": {
      const error = result.result.value;
      const ok =
        expected.kind === "INVALID" && error.reason === "INVALID_HAND" && error.violations.length > 0;
      return ok ? undefined : `error entry ${error.reason} (expected ${String(expected.kind)})`;
    }
    default:
      return "no entry, or an entry with neither score nor error";
  }
}

const cases: Case[] = readFileSync(resolve(ROOT, "tests/data/public.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Case);

let referee: Referee;
before(async () => {
  referee = await startReferee();
});
after(async () => {
  await referee.stop();
});

test("the corpus has its 3,026 hands of every kind", () => {
  assert.equal(cases.length, 3026);
  const kinds = new Set(cases.map((c) => String(expectation(c).kind)));
  assert.equal(kinds.size, 4, [...kinds].join());
});

for (const protocol of ["grpc", "grpc-web"] as Protocol[]) {
  test(`BatchScoreHands over ${protocol}: 100% agreement with the corpus`, async () => {
    const client = nodeClient(referee.baseUrl, protocol);
    const failures: string[] = [];
    let agree = 0;
    for (let start = 0; start < cases.length; start += CHUNK) {
      const chunk = cases.slice(start, start + CHUNK);
      const answer = await client.batchScoreHands({
        requests: chunk.map(request),
        defaultRuleset: Ruleset.MIL,
      });
      assert.equal(answer.results.length, chunk.length, `results for the chunk at ${start}`);
      chunk.forEach((c, i) => {
        const problem = judge(c, answer.results[i]);
        if (problem === undefined) {
          agree += 1;
        } else {
          failures.push(`${c.id}: ${problem}`);
        }
      });
    }
    console.log(`${protocol}: ${agree}/${cases.length} agree`);
    assert.deepEqual(failures.slice(0, 20), []);
    assert.equal(agree, cases.length);
  });
}
