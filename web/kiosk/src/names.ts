// Names the referee sends, in the page's language.
import type { Lang } from "./i18n.js";

/** A fan's name: 简体, 繁體 (from the referee; 简体 where it has none) or English. */
export function fanName(f: { nameZh: string; nameEn: string; nameZhHant: string }, lang: Lang): string {
  return lang === "en" ? f.nameEn : lang === "hant" ? f.nameZhHant || f.nameZh : f.nameZh;
}
