// Every RPC of mahjong.v1.MahjongService once over gRPC (HTTP/2) and once over gRPC-Web
// (HTTP/1.1), against the real binary; the expected figures are those of the README.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  Consequence,
  Fan,
  HandEnd,
  HandState,
  Infraction,
  NextPhase,
  Outcome,
  PlayAction,
  ReplayOutcome,
  Ruleset,
  Seat,
  Tile,
  WinSource,
  WinVerdict,
} from "../src/index.js";
import { nodeClient, type Protocol } from "../src/node.js";
import { type Referee, startReferee } from "./server.js";

const E23 = "[123m][789m][123p]55s89p7p";

// A short hand in Botzone's format: North wins 清龙 on West's discard of W6.
const RECORD = `Match syn-8282-31
Wind 3
Player 0 Deal W8 B4 T6 W4 B7 T4 W3 B1 W9 T9 T7 F4 T2
Player 1 Deal W3 B4 T3 B1 B2 B8 F2 T8 J3 T2 W1 W9 T4
Player 2 Deal W5 F1 J3 T4 B9 J3 T5 W4 B1 J1 W8 W6 F2
Player 3 Deal B8 J2 B2 T1 F3 B9 B1 B6 B7 B5 W4 B3 W5
Player 0 Draw T2
Player 0 Play B1
Player 1 Draw F1
Player 1 Play T3
Player 2 Chi T4
Player 2 Play F2
Player 3 Draw F3
Player 3 Play T1
Player 0 Draw W2
Player 0 Play B7
Player 1 Draw T8
Player 1 Play F1
Player 2 Draw B3
Player 2 Play F1
Player 3 Draw B4
Player 3 Play J2
Player 0 Draw B3
Player 0 Play F4
Player 1 Draw T1
Player 1 Play W9
Player 2 Draw W4
Player 2 Play W6
Player 3 Hu W6
Fan 20 清龙*1+门前清*1+喜相逢*1+缺一门*1
Score -8 -8 -28 44`;

let referee: Referee;
before(async () => {
  referee = await startReferee();
});
after(async () => {
  await referee.stop();
});

for (const protocol of ["grpc", "grpc-web"] as Protocol[]) {
  describe(`over ${protocol}`, () => {
    const client = () => nodeClient(referee.baseUrl, protocol);

    test("ScoreHand itemises a self-drawn 三色双龙会 under MIL", async () => {
      const score = await client().scoreHand({
        handInput: { case: "notation", value: E23 },
        context: { selfDrawn: true },
        ruleset: Ruleset.MIL,
      });
      assert.equal(score.outcome, Outcome.WIN);
      assert.equal(score.total, 18);
      assert.equal(score.ruleset, Ruleset.MIL);
      const lines = score.fans.map((f) => [f.nameZh, f.nameEn, f.points, f.count]);
      assert.deepEqual(lines, [
        ["三色双龙会", "Three-Suited Terminal Chows", 16, 1],
        ["边张", "Edge Wait", 1, 1],
        ["自摸", "Self-Drawn", 1, 1],
      ]);
      const chows = score.fans[0];
      assert.ok(chows && chows.elementIndices.length === 5, "the fan names its five sets");
      assert.equal(score.reading?.elements.length, 5);
    });

    test("ValidateHand: a valid win, and a hand one tile short", async () => {
      const good = await client().validateHand({
        handInput: { case: "notation", value: E23 },
        context: { selfDrawn: true },
      });
      assert.equal(good.valid, true);
      assert.equal(good.winningShape, true);
      assert.equal(good.reachesMinimum, true);
      assert.equal(good.outcome, Outcome.WIN);
      const short = await client().validateHand({
        handInput: { case: "notation", value: "[123m][789m][123p]5s89p7p" },
      });
      assert.equal(short.valid, false);
      assert.ok(short.violations.length > 0);
      assert.equal(short.outcome, Outcome.INVALID);
    });

    test("BatchScoreHands answers in order, a bad hand as an error entry", async () => {
      const batch = await client().batchScoreHands({
        requests: [
          { handInput: { case: "notation", value: E23 }, context: { selfDrawn: true } },
          { handInput: { case: "notation", value: "[123m]x" } },
          { handInput: { case: "notation", value: E23 } },
        ],
        defaultRuleset: Ruleset.MIL,
      });
      assert.equal(batch.results.length, 3);
      const [first, second, third] = batch.results;
      assert.equal(first?.result.case, "score");
      assert.equal(first?.result.case === "score" && first.result.value.total, 18);
      assert.equal(second?.result.case, "error");
      assert.equal(second?.result.case === "error" && second.result.value.reason, "INVALID_HAND");
      assert.equal(third?.result.case === "score" && third.result.value.total, 17);
    });

    test("ListFans: the 81 fans of MIL with names and points", async () => {
      const list = await client().listFans({ ruleset: Ruleset.MIL });
      assert.equal(list.ruleset, Ruleset.MIL);
      const numbered = list.fans.filter((f) => f.number >= 1 && f.number <= 81);
      assert.equal(numbered.length, 81);
      const chows = list.fans.find((f) => f.fan === Fan.THREE_SUITED_TERMINAL_CHOWS);
      assert.equal(chows?.nameZh, "三色双龙会");
      assert.equal(chows?.points, 16);
    });

    test("SettleHand: a discard win with two empty pungs", async () => {
      const settled = await client().settleHand({
        end: HandEnd.DISCARD,
        winner: Seat.SOUTH,
        discarder: Seat.WEST,
        winValue: { case: "fanCount", value: { fanTotal: 13, flowerCount: 1 } },
        penalties: [
          { offender: Seat.NORTH, infraction: Infraction.EMPTY_PUNG },
          { offender: Seat.NORTH, infraction: Infraction.EMPTY_PUNG },
        ],
      });
      const deltas = settled.accounts.map((a) => [Seat[a.seat], a.delta]);
      assert.deepEqual(deltas, [
        ["EAST", -8],
        ["SOUTH", 38],
        ["WEST", -22],
        ["NORTH", -13],
      ]);
      assert.equal(settled.result?.basicPoints, 14);
      assert.equal(settled.unpaidPenalties, 5);
      assert.equal(settled.rulings.length, 2);
    });

    test("AdjudicatePenalty: a win declared while not ready", async () => {
      const ruled = await client().adjudicatePenalty({
        declaredWin: {
          declarer: Seat.NORTH,
          source: WinSource.DISCARD,
          discarder: Seat.EAST,
          winningHand: { handInput: { case: "notation", value: "[123p][789p][123s]25m79s5m" } },
        },
        ruleset: Ruleset.GREEN_BOOK_2006,
      });
      assert.equal(ruled.judgement?.verdict, WinVerdict.NOT_READY_WIN);
      const deltas = ruled.accounts.map((a) => [Seat[a.seat], a.delta]);
      assert.deepEqual(deltas, [
        ["EAST", 10],
        ["SOUTH", 10],
        ["WEST", 10],
        ["NORTH", -30],
      ]);
    });

    test("AnalyzeHand: a ready hand whose waits differ in value", async () => {
      const analysis = await client().analyzeHand({
        handInput: { case: "notation", value: "23456789m55pSSS" },
        ruleset: Ruleset.MIL,
        visibleTiles: [Tile.TILE_1M, Tile.TILE_7M, Tile.TILE_7M],
      });
      assert.equal(analysis.state, HandState.WAITING);
      assert.equal(analysis.shanten, 0);
      const waits = analysis.waits.map((w) => [
        Tile[w.tile],
        w.remaining,
        w.onDiscard?.outcome,
        w.onDiscard?.total,
        w.winsSelfDrawn,
      ]);
      assert.deepEqual(waits, [
        ["TILE_1M", 3, Outcome.WIN, 20, true],
        ["TILE_4M", 3, Outcome.BELOW_MINIMUM, 5, false],
        ["TILE_7M", 1, Outcome.BELOW_MINIMUM, 5, false],
      ]);
      assert.equal(analysis.readyToWin, true);
    });

    test("ParseHand reads glyphs, z honours and a claimed chow tile", async () => {
      const parsed = await client().parseHand({
        notation: "[🀙🀚🀛,2] 🀇🀈🀉 1z1z1z 5z5z 🀄🀄 7z",
      });
      assert.equal(parsed.notation, "[123p2]123mEEECCPPC");
      assert.equal(parsed.glyphs, "[🀙🀚🀛2]🀇🀈🀉🀀🀀🀀🀄🀄🀆🀆🀄");
      assert.equal(parsed.hand?.melds[0]?.claimedTile, Tile.TILE_2P);
      const counts = parsed.tileCounts.map((c) => [Tile[c.tile], c.count]);
      assert.equal(counts.length, 9);
      assert.deepEqual(counts[6], ["TILE_EAST", 3]);
    });

    test("ComputeStandings: places, session scores and shared standard points", async () => {
      const standings = await client().computeStandings({
        players: [
          { name: "A", sessions: [{ handResults: [112] }] },
          { name: "B", sessions: [{ handResults: [20] }] },
          { name: "C", sessions: [{ handResults: [-88], lateMinutes: 12 }] },
          { name: "D", sessions: [{ handResults: [20] }] },
        ],
        ruleset: Ruleset.MIL,
      });
      const rows = standings.standings.map((s) => [
        s.place,
        s.name,
        s.totalScore,
        s.standardPoints?.numerator,
        s.standardPoints?.denominator,
      ]);
      assert.deepEqual(rows, [
        [1, "A", 612, 4, 1],
        [2, "B", 520, 3, 2],
        [2, "D", 520, 3, 2],
        [4, "C", 392, 0, 1],
      ]);
    });

    test("ReplayHand: a Botzone record refereed, and a chow from across the table", async () => {
      const legal = await client().replayHand({
        record: { case: "botzoneText", value: RECORD },
        includeStates: true,
      });
      assert.equal(legal.matchId, "syn-8282-31");
      assert.deepEqual(legal.findings, []);
      assert.equal(legal.outcome, ReplayOutcome.WIN);
      assert.equal(legal.winner, Seat.NORTH);
      assert.equal(legal.payer, Seat.WEST);
      assert.equal(legal.score?.fanTotal, 20);
      assert.deepEqual(
        legal.accounts.map((a) => a.delta),
        [-8, -8, -28, 44],
      );
      assert.equal(legal.states.length, 24, "after the deal and each of the 23 events");
      assert.equal(legal.states[23]?.seats[2]?.melds.length, 1, "West's chow");
      // East (player 0) chows South's T3 with T2 T4 instead of West: not from its left.
      const wrong = await client().replayHand({
        record: { case: "botzoneText", value: RECORD.replace("Player 2 Chi T4", "Player 0 Chi T3") },
      });
      const found = wrong.findings.map((f) => [f.line, f.code, f.consequence]);
      assert.deepEqual(found.slice(0, 2), [
        [11, "CHOW_NOT_FROM_LEFT", Consequence.LOSES_RIGHT_TO_WIN],
        [12, "OUT_OF_TURN", Consequence.STOPS],
      ]);
      assert.equal(wrong.outcome, ReplayOutcome.NO_RESULT);
    });

    test("LegalActions and ArbitrateClaims: a pung with what it leaves, a win first", async () => {
      const tiles = (...t: Tile[]) => t;
      const view = {
        seat: Seat.SOUTH,
        concealed: tiles(
          Tile.TILE_1M, Tile.TILE_1M, Tile.TILE_2P, Tile.TILE_3P, Tile.TILE_4P, Tile.TILE_5P,
          Tile.TILE_6P, Tile.TILE_7P, Tile.TILE_7S, Tile.TILE_8S, Tile.TILE_9S, Tile.TILE_5S,
          Tile.TILE_EAST,
        ),
        visibleTiles: [Tile.TILE_1M],
        moment: { case: "discard" as const, value: { tile: Tile.TILE_1M, from: Seat.EAST } },
        wallLeft: 40,
      };
      const legal = await client().legalActions({ view, ruleset: Ruleset.MIL, callAnalysis: true });
      assert.deepEqual(
        legal.actions.map((a) => [a.action, a.tile]),
        [[PlayAction.PUNG, Tile.TILE_1M]],
      );
      assert.equal(legal.actions[0]?.call?.hand?.standingTiles.length, 11);
      assert.ok(legal.actions[0]?.call?.analysis?.discards.some((d) => d.shanten === 0));
      const verdict = await client().arbitrateClaims({
        offer: { case: "discard", value: { tile: Tile.TILE_1M, from: Seat.EAST } },
        claims: [
          { seat: Seat.SOUTH, action: PlayAction.PUNG, tile: Tile.TILE_1M, view },
          { seat: Seat.NORTH, action: PlayAction.WIN, tile: Tile.TILE_1M },
          { seat: Seat.WEST, action: PlayAction.WIN, tile: Tile.TILE_1M },
        ],
      });
      assert.equal(verdict.stands, 2, "West is first counter-clockwise from East");
      assert.deepEqual(verdict.overridden, [1, 0]);
      assert.deepEqual(verdict.illegal, []);
    });

    test("DealHand and NextActions: the seed's deal and first draw, a record in play", async () => {
      const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
      const dealt = await client().dealHand({ seed });
      assert.match(dealt.commitment, /^[0-9a-f]{64}$/);
      assert.deepEqual(
        dealt.deal.map((d) => d.tiles.length),
        [13, 13, 13, 13],
      );
      assert.equal(dealt.wall.length, 84);
      // The dealt header is a hand whose dealer draws next: the wall's first tile.
      const first = await client().nextActions({
        record: { case: "botzoneText", value: dealt.botzoneText },
        seed,
      });
      assert.equal(first.phase, NextPhase.DRAW);
      assert.deepEqual([first.nextDraw?.seat, first.nextDraw?.tile], [Seat.EAST, dealt.wall[0]]);
      // RECORD cut after West's chow (its 11th line): West, and only West, discards.
      const cut = RECORD.split("\n").slice(0, 11).join("\n");
      const inPlay = await client().nextActions({ record: { case: "botzoneText", value: cut } });
      assert.equal(inPlay.phase, NextPhase.ACT);
      assert.deepEqual(
        inPlay.decisions.map((d) => d.seat),
        [Seat.WEST],
      );
      assert.ok(inPlay.nextLines.length > 0);
      assert.ok(inPlay.nextLines.every((l) => l.startsWith("Player 2 Play ")), `${inPlay.nextLines}`);
      assert.deepEqual(inPlay.replay?.findings, []);
    });

    test("DescribeRuleset: every switch, and a 0-fan room's fingerprint on its scores", async () => {
      const overrides = { minimumFan: 0 };
      const rules = await client().describeRuleset({ ruleset: Ruleset.MIL, overrides });
      const minimum = rules.switches.find((s) => s.name === "minimum_fan");
      assert.equal(minimum?.value, "0");
      assert.equal(rules.switches.length, 25);
      assert.match(rules.rulesFingerprint, /^[0-9a-f]{16}$/);
      // E47B, 4 fan: a win in the 0-fan room, scored under the described rules.
      const score = await client().scoreHand({
        handInput: { case: "notation", value: "[123s][456s]45567m99p6m" },
        ruleset: Ruleset.MIL,
        overrides,
      });
      assert.equal(score.outcome, Outcome.WIN);
      assert.equal(score.rulesFingerprint, rules.rulesFingerprint);
    });
  });
}
