// How to play: the rules of a preset (?preset=NAME) or of a table (?table=ID), drawn
// with the SVG cards: ranks, suits, each kind of play and the straights allowed.
import {$, api, el} from "./dom.js";
import {cardEl, preloadFaces} from "./cards.js";
import {applyText, cardName, kindLabel, t} from "./i18n.js";
import {settingsMenu} from "./settings.js";

let facts = null;

function cards(names, cls) {
  const row = el("div", {class: "how-cards " + (cls || "")});
  for (const c of names) row.append(cardEl(c));
  return row;
}

function draw() {
  applyText(document);
  document.title = `${t("howToPlay")} · ${t("gameName")}`;
  if (!facts) return;
  $("rules-name").textContent = facts.name;
  $("goal").textContent = t("howGoal", cardName(facts.lowest));
  $("ranks").replaceChildren(cards([...facts.ranks].map(r => r + "S"), "ranks"));
  $("suits").replaceChildren(cards([...facts.suits].map(s => "A" + s)));
  $("lowest").textContent = t("howLowest");
  const kind = (k) => el("div", {class: "how-kind", "data-kind": k.kind},
    el("h3", {text: kindLabel(k.kind) || k.label}), cards(k.cards));
  $("plays").replaceChildren(...facts.plays.map(kind));
  $("five").replaceChildren(...facts.five.map(kind));
  $("five-rule").textContent = t("howFive_" + facts.five_compare);
  $("straights").replaceChildren(...facts.straights.map(seq => el("li", {"data-seq": seq},
    el("span", {class: "seq", text: [...seq].map(r => r === "T" ? "10" : r).join(" ")}))));
  $("scoring").replaceChildren(...scoringLines(facts.scoring).map(([key, ...args]) =>
    el("li", {"data-line": key, text: t(key, ...args)})));
}

// The Scoring section's sentences for the rule set's method, as [key, args…].
function scoringLines(sc) {
  if (!sc) return [];
  const {whole, most} = sc;
  switch (sc.method) {
    case "classic": return [["scClassicPay"], ["scMultiplier", most, whole],
      [sc.twos_each ? "scTwosEach" : "scTwosAny"], ["scBombs"], ["scWinningPlay"],
      ["scExample"]];
    case "count": return [["scCount"], ...(sc.count_twos ? [["scCountTwos"]] : [])];
    case "penalty": return [["scPenalty"], ["scMultiplier", most, whole],
      ["scPenaltyEnd", sc.target]];
    case "ranking": return [["scRanking", sc.players - 1]];
    default: return [];
  }
}

async function init() {
  settingsMenu($("bar"), draw);
  const q = new URLSearchParams(location.search);
  const path = q.get("table") ? `/api/guide?table=${encodeURIComponent(q.get("table"))}`
    : `/api/guide?preset=${encodeURIComponent(q.get("preset") || "classic")}`
      + (q.get("players") ? `&players=${encodeURIComponent(q.get("players"))}` : "");
  const faces = preloadFaces();
  try { facts = await api(path); } catch (e) {
    $("goal").textContent = e.message;
    $("goal").classList.add("error-text");
    return;
  }
  await faces;
  draw();
  window.big2 = {get facts() { return facts; }};
}
init();
