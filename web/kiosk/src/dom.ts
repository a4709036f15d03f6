// A small DOM builder and patcher, and the tile face element, shared by the kiosk's views.
import { type Lang } from "./i18n.js";
import { BACK_ID, faceId, faceSvg } from "./tiles-art.js";
import { type Kind, tileName, caption } from "./tiles.js";

// --- a small DOM patcher --------------------------------------------------------------------
// Every render builds a fresh tree and patches the page's tree to match it, element by element,
// instead of replacing it: a tap whose pointer-down and pointer-up straddle a render (an answer
// arriving) still lands on the same element, and focus, selection and scroll stay where they are.

type Handler = (e: Event) => void;
/** The handlers of an element, looked up when the event fires (so a patch can swap them). */
const handlers = new WeakMap<Element, Map<string, Handler>>();
const dispatching = new WeakMap<Element, Set<string>>();

function ensureDispatch(el: Element, type: string): void {
  let types = dispatching.get(el);
  if (!types) {
    types = new Set();
    dispatching.set(el, types);
  }
  if (!types.has(type)) {
    types.add(type);
    el.addEventListener(type, (e) => handlers.get(el)?.get(type)?.(e));
  }
}

function listen(el: Element, type: string, handler: Handler): void {
  let map = handlers.get(el);
  if (!map) {
    map = new Map();
    handlers.set(el, map);
  }
  map.set(type, handler);
  ensureDispatch(el, type);
}

/** Makes `current` (in the page) look and behave like `fresh` (just built). */
export function patch(current: Node, fresh: Node): void {
  if (current.nodeType !== fresh.nodeType || current.nodeName !== fresh.nodeName) {
    current.parentNode?.replaceChild(fresh, current);
    return;
  }
  if (current instanceof CharacterData) {
    if (current.data !== (fresh as CharacterData).data) current.data = (fresh as CharacterData).data;
    return;
  }
  if (!(current instanceof Element) || !(fresh instanceof Element)) return;
  for (const attr of Array.from(current.attributes)) {
    if (!fresh.hasAttribute(attr.name)) current.removeAttribute(attr.name);
  }
  for (const attr of Array.from(fresh.attributes)) {
    if (current.getAttribute(attr.name) !== attr.value) current.setAttribute(attr.name, attr.value);
  }
  const map = handlers.get(fresh) ?? new Map<string, Handler>();
  handlers.set(current, map);
  for (const type of map.keys()) ensureDispatch(current, type);
  const olds = Array.from(current.childNodes);
  const news = Array.from(fresh.childNodes);
  news.forEach((child, i) => {
    const old = olds[i];
    if (old) patch(old, child);
    else current.appendChild(child);
  });
  for (const extra of olds.slice(news.length)) extra.remove();
  if (current instanceof HTMLInputElement && current !== document.activeElement) {
    current.value = (fresh as HTMLInputElement).value;
  }
  if (current instanceof HTMLSelectElement) {
    current.value = (fresh as HTMLSelectElement).value;
  }
}

export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string | boolean | number | ((e: Event) => void)> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (typeof value === "function") {
      listen(el, key.slice(2).toLowerCase(), value);
    } else if (typeof value === "boolean") {
      if (value) el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

export type Props = Record<string, string | boolean | number | ((e: Event) => void)>;

/** A tile: its drawn face (the sprite's symbol) and a small caption under it. */
export function tileFace(k: Kind, lang: Lang, extra: Props = {}, tag: "button" | "span" = "span") {
  const cls = `tile ${k >= 27 ? "honor" : ["man", "pin", "sou"][Math.floor(k / 9)]} ${extra.class ?? ""}`;
  return h(
    tag,
    { ...extra, class: cls.trim(), title: tileName(k, lang), "aria-label": tileName(k, lang) },
    faceSvg(String(extra.class ?? "").split(" ").includes("back") ? BACK_ID : faceId(k)),
    h("span", { class: "cap", "aria-hidden": "true" }, caption(k, lang)),
  );
}
