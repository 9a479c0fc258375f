// UI text in English, 繁體中文 and 简体中文: chosen from the browser's language,
// switched by the player (kept in localStorage). Card and hand names are the
// ones players say: Taiwan's and Hong Kong's written terms in 繁體, the
// mainland's in 简体 (docs/server.md says why).
import {setting, setSetting} from "./dom.js";
import CATALOGUE from "../i18n/catalogue.json" with {type: "json"};

// A language from navigator.languages: zh-TW, zh-HK, zh-MO and zh-Hant* read
// traditional characters, other zh (CN, SG, Hans) simplified; else English.
export function detect(langs) {
  for (const raw of langs || []) {
    const l = String(raw).toLowerCase();
    if (l.startsWith("zh")) {
      return /hant|-tw|-hk|-mo/.test(l) ? "zh-Hant" : "zh-Hans";
    }
    if (l.startsWith("en")) return "en";
  }
  return "en";
}

let current = setting("lang", null) || detect(navigator.languages || [navigator.language]);
export function lang() { return current; }
export function setLang(l) {
  current = l;
  setSetting("lang", l);
  document.documentElement.lang = l;
}
document.documentElement.lang = current;

// The words, [English, 繁體, 简体] each, from the one catalogue that the terminal reads too
// (src/big2/i18n/catalogue.json, served at /i18n/catalogue.json); {0}, {1}… are filled in
// by t(). A JSON module: loaded with the page's other modules, before any of them runs.
const S = CATALOGUE.strings;
export const LANGUAGES = CATALOGUE.languages;

const IDX = {"en": 0, "zh-Hant": 1, "zh-Hans": 2};

// The text of *key* in the current language with {0}, {1}… filled in.
export function t(key, ...args) {
  const row = S[key];
  if (!row) return key;
  const text = row[IDX[current] ?? 0];
  return text.replace(/\{(\d)\}/g, (_, i) => String(args[+i]));
}

// Fill every [data-i18n] element's text (and [data-i18n-title] titles) under *root*.
export function applyText(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-title]")) {
    node.title = t(node.dataset.i18nTitle);
    node.setAttribute("aria-label", node.title);
  }
}

// -- cards and plays as players say them -------------------------------------------
const SUIT_NAMES = CATALOGUE.suits;
const RANK_WORDS = {T: "10", J: "Jack", Q: "Queen", K: "King", A: "Ace"};
const RANK_PLURAL = {T: "10s", J: "jacks", Q: "queens", K: "kings", A: "aces", 2: "2s"};
const JOKER_NAMES = CATALOGUE.jokers;

// A card's spoken name: "Queen of hearts", 紅心Q, 红心Q.
export function cardName(name) {
  const i = IDX[current] ?? 0;
  if (JOKER_NAMES[name]) return JOKER_NAMES[name][i];
  const rank = name[0] === "T" ? "10" : name[0];
  if (i === 0) return `${RANK_WORDS[name[0]] || rank} of ${SUIT_NAMES[name[1]][0]}`;
  return SUIT_NAMES[name[1]][i] + rank;
}

function rankText(r) { return r === "T" ? "10" : r; }
function plural(r) { return RANK_PLURAL[r] || r + "s"; }

const KINDS = CATALOGUE.kinds;

// A kind's name (a Kind name from the server) in the page's language, or "".
export function kindLabel(kind) { return KINDS[kind] ? KINDS[kind][IDX[current] ?? 0] : ""; }

// A play's kind (a Kind name from the server) with its ranks, as players say it:
// "Full house, 9s over 4s", 葫蘆 9 帶 4. Plays with jokers get the kind alone.
export function kindText(kind, names) {
  const i = IDX[current] ?? 0;
  if (!kind || !KINDS[kind]) return "";
  const label = KINDS[kind][i];
  if (names.some(n => JOKER_NAMES[n])) return label;
  const counts = new Map();
  for (const n of names) counts.set(n[0], (counts.get(n[0]) || 0) + 1);
  const byCount = [...counts].sort((a, b) => b[1] - a[1]);
  const top = byCount[0][0];
  const zh = i > 0;
  switch (kind) {
    case "SINGLE": return zh ? `${label} ${cardName(names[0])}` : cardName(names[0]);
    case "PAIR": return t("pairOf", zh ? rankText(top) : plural(top));
    case "TRIPLE": return zh ? `${label} ${rankText(top)}` : `Three ${plural(top)}`;
    case "FULL_HOUSE": {
      const low = byCount[1][0];
      return zh ? t("fullHouseOver", label, rankText(top), rankText(low))
                : t("fullHouseOver", label, plural(top), plural(low));
    }
    case "FOUR_OF_A_KIND": case "FOUR_KICKER": case "FIVE_OF_A_KIND":
      return zh ? `${label} ${rankText(top)}` : `${label}, ${plural(top)}`;
    default: return label;
  }
}
