// Re-takes the kiosk's pictures in docs/ from the running binary (headless Chromium):
//   docs/kiosk.png         a hand scored (the kiosk's own tiles) above a game's score card;
//   docs/kiosk-replay.png  a Botzone record replayed to its end;
//   docs/kiosk-phone.png   the hand in play on a phone.
// Usage: node web/kiosk/pictures.mjs (after cargo build --release; MAHJONG_REFEREE_BIN as
// for the tests; FONTCONFIG_FILE as .ci/web.sh sets it, to show the page without a tile font).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startSession, tid } from "./test/harness.mjs";

const WIDTH = 1180;
const session = await startSession({ width: WIDTH, height: 950 });
const { page, referee } = session;
const open = async (query) => {
  await page.goto(`${referee.baseUrl}/kiosk/?${query}`);
  await page.locator("#app header").waitFor();
};

// A hand: the win of the README, one fan line lit.
await open(`hand=${encodeURIComponent("[123m][789m][123p]55s89p7p")}&ruleset=mil&selfDrawn=1&lang=en`);
await page.locator(`${tid("sheet")}[data-pending="0"]`).waitFor();
await page.locator(tid("fan-line")).first().click();
const hand = await page.screenshot({ clip: { x: 0, y: 0, width: WIDTH, height: 950 } });

// A game: 16 hands given by their fan totals, a draw and a penalty among them.
const hands = [
  [0, 1, 8], [2, null, 12], null, [3, 0, 24], [1, 2, 17], [1, null, 9], "penalty", [0, 3, 16],
  [2, 1, 8], [3, null, 32], [0, 2, 10], null, [1, 0, 48], [2, null, 8], [3, 1, 13], [0, null, 64],
].map((h) =>
  h === null
    ? { kind: "draw", penalties: [] }
    : h === "penalty"
      ? { kind: "draw", penalties: [{ offender: 2, infraction: 17, points: 10 }] }
      : { kind: "win", winner: h[0], discarder: h[1], value: { fan: h[2] }, flowers: h[0] === 2 ? 1 : 0, penalties: [] },
);
const order = [0, 1, 2, 3];
const game = { version: 1, players: ["王芳", "Bo", "陈晨", "Dee"], seating: [order, order, order, order], hands, ruleset: "chinese-official-1998", lateMinutes: [0, 0, 0, 0] };
await open("view=game&lang=en");
await page.evaluate((g) => localStorage.setItem("mahjong-kiosk.game.v1", JSON.stringify(g)), game);
await open("view=game&lang=en");
await page.locator(`${tid("game")}[data-computing="0"]`).waitFor();
await page.locator(tid("ranking")).waitFor();
// The seating rows are left out of the picture (the card is what it shows).
await page.locator(".card-panel .seating").evaluate((el) => (el.style.display = "none"));
const panel = page.locator(".card-panel");
const card = await panel.screenshot();

// The two, one above the other, composed in the page (a canvas): no image library.
const composed = await page.evaluate(
  async ({ top, bottom }) => {
    const load = async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      return image;
    };
    const [a, b] = [await load(top), await load(bottom)];
    const canvas = document.createElement("canvas");
    canvas.width = a.width;
    canvas.height = a.height + b.height + 16;
    const g = canvas.getContext("2d");
    g.fillStyle = "#f6f4ee";
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.drawImage(a, 0, 0);
    g.drawImage(b, Math.round((a.width - b.width) / 2), a.height + 16);
    return canvas.toDataURL("image/png").split(",")[1];
  },
  { top: hand.toString("base64"), bottom: card.toString("base64") },
);
writeFileSync(join(ROOT, "docs/kiosk.png"), Buffer.from(composed, "base64"));

// A replay at its end.
const text = readFileSync(join(ROOT, "tests/data/replay-public.txt"), "utf8").split("\nMatch ")[0].trim();
await page.setViewportSize({ width: 1024, height: 950 });
await open("view=replay&lang=en");
await page.locator(tid("replay-text")).fill(text);
await page.locator(tid("replay-load")).click();
await page.locator(tid("replay-last")).click();
await page.locator(tid("replay-winner")).waitFor();
await page.locator(".replay-board").screenshot({ path: join(ROOT, "docs/kiosk-replay.png") });

// The hand in play on a phone.
await page.setViewportSize({ width: 390, height: 844 });
await open(`hand=${encodeURIComponent("[123p]234m567s88sEE")}&lang=zh`);
await page.locator(`${tid("sheet")}[data-pending="0"]`).waitFor();
await page.locator(tid("sheet")).screenshot({ path: join(ROOT, "docs/kiosk-phone.png") });

assert(session.problems.length === 0, session.problems.join("\n"));
await session.stop();
console.log("docs/kiosk.png, docs/kiosk-replay.png, docs/kiosk-phone.png written");

function assert(ok, message) {
  if (!ok) throw new Error(message);
}
