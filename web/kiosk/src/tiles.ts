// The 34 tile kinds, their faces and names, and the hand notation of the referee
// (README "Hand notation"): melds in brackets, then the standing tiles, the winning tile last.

/** A tile kind: 0..8 characters 1-9, 9..17 dots, 18..26 bamboo, 27..30 E S W N, 31..33 C F P
 * (red, green, white). The proto Tile enum value is kind + 1. */
export type Kind = number;

export const KINDS: readonly Kind[] = Array.from({ length: 34 }, (_, i) => i);
import { type Lang, hant } from "./i18n.js";

const SUIT_LETTERS = ["m", "p", "s"] as const;
const HONOR_LETTERS = ["E", "S", "W", "N", "C", "F", "P"] as const;
const NUMERALS = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const SUIT_ZH = ["万", "饼", "条"];
const SUIT_EN = ["Characters", "Dots", "Bamboo"];
const HONOR_ZH = ["东", "南", "西", "北", "中", "发", "白"];
const HONOR_EN = ["East", "South", "West", "North", "Red", "Green", "White"];

export function isSuited(k: Kind): boolean {
  return k < 27;
}

/** The notation of one tile, e.g. "5p" or "E". */
export function code(k: Kind): string {
  return isSuited(k) ? `${(k % 9) + 1}${SUIT_LETTERS[Math.floor(k / 9)]}` : HONOR_LETTERS[k - 27]!;
}

/** The tile's name: 五饼 / 5 Dots, 东 / East. */
export function tileName(k: Kind, lang: Lang): string {
  if (lang === "hant") return hant(tileName(k, "zh"));
  if (isSuited(k)) {
    const suit = Math.floor(k / 9);
    return lang === "zh" ? `${NUMERALS[k % 9]}${SUIT_ZH[suit]}` : `${(k % 9) + 1} ${SUIT_EN[suit]}`;
  }
  return (lang === "zh" ? HONOR_ZH : HONOR_EN)[k - 27]!;
}

/** A short face caption: 5万 / 5m. */
export function caption(k: Kind, lang: Lang): string {
  if (lang === "hant") return hant(caption(k, "zh"));
  if (isSuited(k)) {
    return lang === "zh" ? `${(k % 9) + 1}${SUIT_ZH[Math.floor(k / 9)]}` : code(k);
  }
  return lang === "zh" ? HONOR_ZH[k - 27]! : HONOR_EN[k - 27]!;
}

export type MeldKind = "chow" | "pung" | "kong" | "concealed_kong";
/** Who a meld was claimed from: 1 left, 2 opposite, 3 right. */
export type From = 1 | 2 | 3;

export interface Meld {
  kind: MeldKind;
  /** The lowest tile of a chow, the tile of a pung or kong. */
  tile: Kind;
  from: From;
}

export interface Hand {
  melds: Meld[];
  standing: Kind[];
  winning: Kind | null;
}

export function meldTiles(m: Meld): Kind[] {
  switch (m.kind) {
    case "chow":
      return [m.tile, m.tile + 1, m.tile + 2];
    case "pung":
      return [m.tile, m.tile, m.tile];
    case "kong":
    case "concealed_kong":
      return [m.tile, m.tile, m.tile, m.tile];
  }
}

/** Whether a chow can start at `k` (a suited tile of rank 1..7). */
export function chowStart(k: Kind): boolean {
  return isSuited(k) && k % 9 <= 6;
}

/** Tiles as notation: runs of one suit share the letter ("123m5p", "EEC"). */
export function tilesText(tiles: readonly Kind[]): string {
  let out = "";
  let pending = "";
  let suit = -1;
  for (const k of tiles) {
    if (isSuited(k)) {
      const s = Math.floor(k / 9);
      if (suit !== -1 && s !== suit) {
        out += pending + SUIT_LETTERS[suit];
        pending = "";
      }
      suit = s;
      pending += String((k % 9) + 1);
    } else {
      if (suit !== -1) {
        out += pending + SUIT_LETTERS[suit];
        pending = "";
        suit = -1;
      }
      out += HONOR_LETTERS[k - 27];
    }
  }
  if (suit !== -1) out += pending + SUIT_LETTERS[suit];
  return out;
}

export function meldText(m: Meld): string {
  const tiles = tilesText(meldTiles(m));
  switch (m.kind) {
    case "chow":
      return `[${tiles}]`;
    case "pung":
      return m.from === 1 ? `[${tiles}]` : `[${tiles}${m.from}]`;
    case "kong":
      return `[${tiles}${m.from}]`;
    case "concealed_kong":
      return `[${tiles}]`;
  }
}

/** The hand as notation; the standing tiles sorted, the winning tile last. */
export function notation(hand: Hand): string {
  const standing = [...hand.standing].sort((a, b) => a - b);
  const winning = hand.winning === null ? [] : [hand.winning];
  return hand.melds.map(meldText).join("") + tilesText(standing) + tilesText(winning);
}

/** Tiles of notation text ("123m5pEE"), or null if the text is not only tiles. */
export function parseTiles(text: string): Kind[] | null {
  const out: Kind[] = [];
  let digits: number[] = [];
  for (const ch of text) {
    if (ch >= "1" && ch <= "9") {
      digits.push(Number(ch) - 1);
      continue;
    }
    const suit = SUIT_LETTERS.indexOf(ch as "m");
    if (suit >= 0) {
      if (digits.length === 0) return null;
      out.push(...digits.map((d) => suit * 9 + d));
      digits = [];
      continue;
    }
    const honor = HONOR_LETTERS.indexOf(ch as "E");
    if (honor >= 0 && digits.length === 0) {
      out.push(27 + honor);
      continue;
    }
    return null;
  }
  return digits.length === 0 ? out : null;
}

function parseMeld(inner: string): Meld | null {
  const claim = /^(.*[mpsESWNCFP])([1-3])?$/.exec(inner);
  if (!claim) return null;
  const tiles = parseTiles(claim[1]!);
  const from = (claim[2] === undefined ? 0 : Number(claim[2])) as 0 | From;
  if (!tiles || tiles.length < 3) return null;
  const [a, b, c] = tiles as [Kind, Kind, Kind];
  const same = tiles.every((t) => t === a);
  if (tiles.length === 4 && same) {
    return from === 0 ? { kind: "concealed_kong", tile: a, from: 1 } : { kind: "kong", tile: a, from };
  }
  if (tiles.length !== 3) return null;
  if (same) return { kind: "pung", tile: a, from: from === 0 ? 1 : from };
  const sorted = [a, b, c].sort((x, y) => x - y);
  if (chowStart(sorted[0]!) && sorted[1] === sorted[0]! + 1 && sorted[2] === sorted[0]! + 2 && from <= 1) {
    return { kind: "chow", tile: sorted[0]!, from: 1 };
  }
  return null;
}

/** A hand from notation, or null when the text is not something the builder can show
 * (it is then scored as typed, and the referee says what is wrong). */
export function parseNotation(text: string): Hand | null {
  const melds: Meld[] = [];
  let rest = text.replace(/\s+/g, "");
  for (;;) {
    const m = /^\[([^\]]*)\]/.exec(rest);
    if (!m) break;
    const meld = parseMeld(m[1]!);
    if (!meld) return null;
    melds.push(meld);
    rest = rest.slice(m[0].length);
  }
  const tiles = parseTiles(rest);
  if (!tiles) return null;
  // A hand one tile short (13 − 3·melds tiles) is a hand in play: no winning tile.
  if (tiles.length === Math.max(0, 13 - 3 * melds.length)) return { melds, standing: tiles, winning: null };
  const winning = tiles.length > 0 ? tiles[tiles.length - 1]! : null;
  return { melds, standing: tiles.slice(0, -1), winning };
}

/** Standing tiles the hand should have before the winning tile: 13 less 3 a meld. */
export function standingSlots(hand: Hand): number {
  return Math.max(0, 13 - 3 * hand.melds.length);
}
