// The tile artwork, drawn here: one SVG sprite (a <symbol> per face) put in the page once and
// shown with <use href="#tile-5p">. Every face is geometry (circles, sticks, stroked
// glyphs), so no tile depends on a font: the numerals, 万, the winds and the dragons are
// stroke paths on a 10×10 grid, designed for this kiosk.
import { type Kind, code } from "./tiles.js";

/** A face's width and height (the viewBox of every symbol). */
export const FACE_W = 60;
export const FACE_H = 80;

const RED = "#c0262d";
const BLUE = "#1d4f91";
const GREEN = "#17794a";
const INK = "#1d232b";

/** Strokes on a 10×10 grid: each a polyline of [x, y] points. */
type Glyph = readonly (readonly (readonly [number, number])[])[];

const NUMERALS: readonly Glyph[] = [
  [[[1, 5], [9, 5]]],
  [[[2, 3], [8, 3]], [[1, 7.5], [9, 7.5]]],
  [[[2, 2], [8, 2]], [[3, 5], [7, 5]], [[1, 8.5], [9, 8.5]]],
  [
    [[1.5, 2], [1.5, 9]],
    [[1.5, 2], [8.5, 2], [8.5, 9]],
    [[1.5, 8.5], [8.5, 8.5]],
    [[4, 2], [4, 4.5], [3, 6.5]],
    [[6, 2], [6, 6], [7, 6.5]],
  ],
  [[[2, 1.5], [8, 1.5]], [[4.5, 1.5], [3.5, 8.5]], [[2.5, 4.8], [7, 4.8], [6.5, 8.5]], [[1, 8.5], [9, 8.5]]],
  [[[5, 0.8], [5.6, 2.2]], [[1.5, 3.5], [8.5, 3.5]], [[4, 5], [2, 8.8]], [[6, 5], [8, 8.8]]],
  [[[1, 5], [9, 3.8]], [[4, 1], [4, 8], [5, 8.8], [9, 8.8], [9, 7.3]]],
  [[[4, 2], [3.5, 5], [1, 8.8]], [[6, 2], [6.5, 5], [9, 8.8]]],
  [[[4, 1], [4, 5], [1.5, 9]], [[1.5, 3.5], [6.5, 3.5], [6.5, 8.5], [9, 8.5], [9, 7]]],
];

/** 万 (the characters suit). */
const WAN: Glyph = [[[1, 2], [9, 2]], [[4.5, 2], [4, 5.5], [1.5, 9]], [[4.2, 4.6], [8, 4.6], [7.5, 8.7], [6, 8.2]]];

/** 东 南 西 北 中 发. */
const HONORS: readonly Glyph[] = [
  [[[1.5, 2.6], [8.5, 2.6]], [[4.6, 0.8], [2.6, 5.6], [8.5, 5.6]], [[5.6, 3.6], [5.6, 9.6], [4.6, 9]], [[3.4, 7], [2, 8.6]], [[7, 7], [8.5, 8.6]]],
  [
    [[1, 2], [9, 2]],
    [[5, 0.4], [5, 3.5]],
    [[1.5, 3.5], [1.5, 9.6]],
    [[1.5, 3.5], [8.5, 3.5], [8.5, 9.6], [7.5, 9.1]],
    [[3.6, 4.4], [4.3, 5.4]],
    [[6.4, 4.4], [5.7, 5.4]],
    [[3, 6.1], [7, 6.1]],
    [[3, 7.6], [7, 7.6]],
    [[5, 6.1], [5, 9.6]],
  ],
  [
    [[1, 1.5], [9, 1.5]],
    [[1.5, 3.5], [1.5, 9.5]],
    [[1.5, 3.5], [8.5, 3.5], [8.5, 9.5]],
    [[1.5, 9], [8.5, 9]],
    [[4, 1.5], [4, 5.5], [2.8, 7]],
    [[6, 1.5], [6, 6.6], [7.2, 6.6]],
  ],
  [[[3.6, 1], [3.6, 9.2]], [[1, 4.6], [3.6, 4.6]], [[1, 8.2], [3.6, 6.8]], [[6.4, 1], [6.4, 8.6], [7, 9.2], [9, 9.2], [9, 7.6]], [[6.4, 5], [8.8, 3.6]]],
  [[[2, 3], [2, 7]], [[2, 3], [8, 3], [8, 7]], [[2, 7], [8, 7]], [[5, 0.5], [5, 9.5]]],
  [
    [[1, 3.6], [9, 3.6]],
    [[2.6, 1], [2.2, 3]],
    [[6.6, 0.8], [7.8, 2]],
    [[5, 3.6], [4, 6.6], [1.4, 9.5]],
    [[4.2, 5.6], [7.6, 5.6], [4.4, 9.2]],
    [[5.2, 7], [8.6, 9.5]],
  ],
];

function strokes(glyph: Glyph, x: number, y: number, size: number, color: string, weight = 1.15): string {
  const s = size / 10;
  const d = glyph
    .map((line) => line.map(([px, py], i) => `${i === 0 ? "M" : "L"}${round(x + px * s)} ${round(y + py * s)}`).join(""))
    .join("");
  return `<path d="${d}" fill="none" stroke="${color}" stroke-width="${round(weight * s)}" stroke-linecap="round" stroke-linejoin="round"/>`;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Positions of the pips of 1..9 dots or bamboo, in face units. */
const LAYOUTS: readonly (readonly (readonly [number, number])[])[] = [
  [[30, 40]],
  [[30, 22], [30, 58]],
  [[15, 17], [30, 40], [45, 63]],
  [[18, 22], [42, 22], [18, 58], [42, 58]],
  [[17, 18], [43, 18], [30, 40], [17, 62], [43, 62]],
  [[18, 16], [42, 16], [18, 40], [42, 40], [18, 64], [42, 64]],
  [[14, 12], [30, 20], [46, 28], [18, 48], [42, 48], [18, 67], [42, 67]],
  [[18, 12], [42, 12], [18, 31], [42, 31], [18, 49], [42, 49], [18, 68], [42, 68]],
  [[14, 16], [30, 16], [46, 16], [14, 40], [30, 40], [46, 40], [14, 64], [30, 64], [46, 64]],
];

function dot(x: number, y: number, r: number, color: string): string {
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="${color}"/><circle cx="${x}" cy="${y}" r="${round(r * 0.62)}" fill="#fff"/><circle cx="${x}" cy="${y}" r="${round(r * 0.32)}" fill="${color}"/>`;
}

function dots(n: number): string {
  const radius = [15, 10, 8, 8.5, 8, 7.5, 6.5, 6.5, 6.5][n - 1]!;
  const colors = (i: number) => {
    if (n === 1) return RED;
    if (n === 7) return i < 3 ? GREEN : RED;
    if (n === 5) return i === 2 ? RED : BLUE;
    if (n === 9) return [BLUE, RED, GREEN][Math.floor(i / 3)]!;
    if (n === 3) return [BLUE, RED, GREEN][i]!;
    return i % 2 === 0 ? BLUE : GREEN;
  };
  return LAYOUTS[n - 1]!.map(([x, y], i) => dot(x, y, radius, colors(i))).join("");
}

function stick(x: number, y: number, h: number, color: string): string {
  const w = 6.5;
  return `<rect x="${round(x - w / 2)}" y="${round(y - h / 2)}" width="${w}" height="${h}" rx="3" fill="${color}"/><rect x="${round(x - w / 2 - 0.5)}" y="${round(y - 1)}" width="${w + 1}" height="2" fill="#fff" opacity=".8"/>`;
}

/** Bamboo layouts that differ from the dots'. */
const STICKS: Partial<Record<number, readonly (readonly [number, number])[]>> = {
  3: [[30, 22], [17, 58], [43, 58]],
  7: [[30, 13], [14, 40], [30, 40], [46, 40], [14, 66], [30, 66], [46, 66]],
};

function bamboo(n: number): string {
  if (n === 1) {
    // One tall stick crossed by a leaf and a red knot: the 1 of bamboo, drawn plainly.
    return `${stick(30, 40, 56, GREEN)}<path d="M30 30 L14 18 M30 44 L46 32" stroke="${GREEN}" stroke-width="5" stroke-linecap="round"/><circle cx="30" cy="12" r="6" fill="${RED}"/>`;
  }
  const h = n <= 3 ? 26 : n <= 6 ? 20 : n === 7 ? 19 : 16;
  const red = (i: number) => (n === 5 && i === 2) || (n === 7 && i === 0) || (n === 9 && i % 3 === 1);
  const spots = STICKS[n] ?? LAYOUTS[n - 1]!;
  return spots.map(([x, y], i) => stick(x, y, n === 8 ? 15 : h, red(i) ? RED : GREEN)).join("");
}

function characters(n: number): string {
  return strokes(NUMERALS[n - 1]!, 14, 6, 32, INK, 1.3) + strokes(WAN, 12, 42, 36, RED, 1.25);
}

function honor(i: number): string {
  if (i === 6) {
    // 白: a blue frame.
    return `<rect x="11" y="14" width="38" height="52" rx="3" fill="none" stroke="${BLUE}" stroke-width="4"/><rect x="17" y="20" width="26" height="40" fill="none" stroke="${BLUE}" stroke-width="1.6"/>`;
  }
  const color = i === 4 ? RED : i === 5 ? GREEN : INK;
  return strokes(HONORS[i]!, 8, 18, 44, color, 1.15);
}

function faceOf(k: Kind): string {
  if (k < 9) return characters(k + 1);
  if (k < 18) return dots(k - 8);
  if (k < 27) return bamboo(k - 17);
  return honor(k - 27);
}

/** A flower face 1..8: petals in the colour of its set (seasons 1–4 red, plants 5–8 blue)
 * and its number as pips under it. */
function flowerFace(n: number): string {
  const color = n <= 4 ? RED : BLUE;
  const petals = [0, 72, 144, 216, 288]
    .map((a) => {
      const r = (a * Math.PI) / 180;
      return `<circle cx="${round(30 + 9 * Math.sin(r))}" cy="${round(30 - 9 * Math.cos(r))}" r="7" fill="${color}" opacity=".85"/>`;
    })
    .join("");
  const count = ((n - 1) % 4) + 1;
  const pips = Array.from({ length: count }, (_, i) => `<circle cx="${round(30 + (i - (count - 1) / 2) * 10)}" cy="64" r="3.5" fill="${GREEN}"/>`).join("");
  return `${petals}<circle cx="30" cy="30" r="5" fill="#f2b705"/><path d="M30 40 L30 54" stroke="${GREEN}" stroke-width="3"/>${pips}`;
}

const BACK = `<rect x="3" y="3" width="54" height="74" rx="6" fill="${GREEN}"/><rect x="10" y="10" width="40" height="60" rx="4" fill="none" stroke="#fff" stroke-width="2" opacity=".6"/><circle cx="30" cy="40" r="8" fill="none" stroke="#fff" stroke-width="2" opacity=".6"/>`;

/** The id of a face's symbol: tile-5p, tile-E, flower-3, tile-back. */
export function faceId(k: Kind): string {
  return `tile-${code(k)}`;
}
export const flowerId = (n: number) => `flower-${n}`;
export const BACK_ID = "tile-back";

/** The whole sprite: 34 tiles, 8 flowers, the back. */
export function spriteMarkup(): string {
  const symbol = (id: string, body: string) => `<symbol id="${id}" viewBox="0 0 ${FACE_W} ${FACE_H}">${body}</symbol>`;
  const tiles = Array.from({ length: 34 }, (_, k) => symbol(faceId(k), faceOf(k))).join("");
  const flowers = Array.from({ length: 8 }, (_, i) => symbol(flowerId(i + 1), flowerFace(i + 1))).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" class="sprite" width="0" height="0" aria-hidden="true" data-testid="tile-sprite"><defs>${tiles}${flowers}${symbol(BACK_ID, BACK)}</defs></svg>`;
}

/** Puts the sprite in the page (once). */
export function installSprite(doc: Document = document): void {
  if (doc.getElementById(BACK_ID)) return;
  const holder = doc.createElement("div");
  holder.innerHTML = spriteMarkup();
  doc.body.prepend(holder.firstElementChild!);
}

const SVG = "http://www.w3.org/2000/svg";

/** An <svg> showing one face of the sprite. */
export function faceSvg(id: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${FACE_W} ${FACE_H}`);
  svg.setAttribute("class", "face");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `#${id}`);
  svg.append(use);
  return svg;
}
