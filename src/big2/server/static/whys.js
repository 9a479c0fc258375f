// One sentence of why (big2.bots.rules_based.reasons.Why, sent as {key, args, text}) in the page's
// language: the review's "why" and the hint's reason. English is the server's own text;
// Chinese is the catalogue's row for the key (its "whys" and "whyGroups", the rows the
// terminal fills too: src/big2/i18n/catalogue.json, served at /i18n/catalogue.json), with
// cards and plays named as on the rest of the page.
import CATALOGUE from "../i18n/catalogue.json" with {type: "json"};
import {labels} from "./cards.js";
import {kindLabel, lang} from "./i18n.js";

const WHYS = CATALOGUE.whys;
const GROUPS = CATALOGUE.whyGroups;
const IDX = {"zh-Hant": 1, "zh-Hans": 2};

// {name}, {name.field} or {name|one|many}, as big2.i18n.reason reads them.
const BLANK = /\{(\w+)(?:\.(\w+)|\|([^|}]*)\|([^}]*))?\}/g;

function cards(names) { return labels(names ? String(names).split(" ") : []); }

// An argument as words: a play {cards, kind}, card names, or as is.
function arg(name, v) {
  if (v && typeof v === "object") {
    const kind = kindLabel(v.kind);
    return kind ? `${kind} ${cards(v.cards)}` : cards(v.cards);
  }
  if (name === "cards") return cards(v);
  return String(v);
}

// The reason in the page's language ("" for none).
export function reasonText(reason) {
  if (!reason) return "";
  const i = IDX[lang()];
  const row = WHYS[reason.key];
  if (i === undefined || !row) return reason.text || "";
  const a = reason.args || {};
  return row[i].replace(BLANK, (_, name, field, one, many) => {
    if (one !== undefined) return a[name] === 1 ? one : many;
    if (name === "group") return (GROUPS[a.group] || GROUPS.group)[i].replace("{rank}", a.rank);
    if (field) return cards(a[name] && a[name][field]);
    return arg(name, a[name]);
  });
}
