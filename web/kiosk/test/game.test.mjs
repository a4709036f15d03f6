// The score card's pure logic (src/game.ts) in Node: seats as the deal passes, the SettleHand
// request of a hand, the running totals, and reading a stored or imported game. The module
// is bundled on the fly with the locked esbuild; no browser, no referee.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const built = await esbuild.build({ entryPoints: [join(here, "../src/game.ts")], bundle: true, format: "esm", write: false, logLevel: "warning" });
const game = await import(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString("base64")}`);

const players = ["A", "B", "C", "D"];

test("the deal passes every hand and the prevailing wind every four (docs/rules/tiles-and-play.md#dealer-and-rounds)", () => {
  const g = game.newGame(players, "chinese-official-1998");
  assert.deepEqual(
    Array.from({ length: 16 }, (_, i) => [game.prevailing(i), game.dealer(g, i)]),
    Array.from({ length: 16 }, (_, i) => [Math.floor(i / 4), i % 4]),
  );
  // Hand 2 (0-based 1): B deals, so A sits North, C South, D West.
  assert.deepEqual([0, 1, 2, 3].map((p) => game.seatOf(g, 1, p)), [3, 0, 1, 2]);
  for (let i = 0; i < 16; i++) for (const w of [0, 1, 2, 3]) assert.equal(game.seatOf(g, i, game.playerAt(g, i, w)), w);
});

test("a table's own seating for a round moves who deals in it", () => {
  const g = game.newGame(players, "mil");
  g.seating[1] = [1, 0, 3, 2]; // South round: B East, A South, D West, C North at its start.
  assert.equal(game.dealer(g, 4), 1);
  assert.equal(game.dealer(g, 5), 0);
  assert.equal(game.dealer(g, 7), 2);
  assert.equal(game.seatOf(g, 4, 3), 2);
});

test("a hand's SettleHand request uses the seats of that hand", () => {
  const g = game.newGame(players, "chinese-official-1998");
  g.hands = [
    { kind: "draw", penalties: [] },
    { kind: "win", winner: 0, discarder: 2, value: { fan: 12 }, flowers: 1, penalties: [{ offender: 3, infraction: 17, points: 10 }] },
  ];
  const r = game.settleRequest(g, 1);
  // B deals hand 2: A is North (4), C is South (2), D is West (3).
  assert.equal(r.end, 2);
  assert.equal(r.winner, 4);
  assert.equal(r.discarder, 2);
  assert.deepEqual(r.winValue, { case: "fanCount", value: { fanTotal: 12, flowerCount: 1 } });
  assert.deepEqual(r.penalties, [{ offender: 3, infraction: 17, points: 10, victim: 0 }]);
  assert.deepEqual(game.deltasByPlayer(g, 1, [{ seat: 1, delta: -8 }, { seat: 2, delta: -20 }, { seat: 3, delta: -18 }, { seat: 4, delta: 36 }]), [36, -8, -20, -18]);
});

test("running totals add up hand by hand", () => {
  assert.deepEqual(game.runningTotals([[8, -8, 0, 0], [0, 0, 30, -30], [1, 2, 3, 4]]), [[8, -8, 0, 0], [8, -8, 30, -30], [9, -6, 33, -26]]);
});

test("a stored or imported game is read only when it is one", () => {
  const g = game.newGame(players, "mil");
  g.hands = [{ kind: "win", winner: 1, discarder: null, value: { notation: "[123m][789m][123p]55s89p7p", lastCopy: true, kong: false, lastTile: false }, flowers: 0, penalties: [] }];
  assert.deepEqual(game.readGame(JSON.parse(JSON.stringify(g))), g);
  assert.equal(game.readGame({ ...g, players: ["A", "B", "C"] }), null);
  assert.equal(game.readGame({ ...g, seating: [[0, 0, 1, 2], ...g.seating.slice(1)] }), null);
  assert.equal(game.readGame({ ...g, hands: [{ kind: "win", winner: 1, discarder: 1, value: { fan: 8 }, flowers: 0, penalties: [] }] }), null);
  assert.equal(game.readGame({ ...g, hands: Array(17).fill({ kind: "draw", penalties: [] }) }), null);
  assert.equal(game.readGame("not a game"), null);
});
