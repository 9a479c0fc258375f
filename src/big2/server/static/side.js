// The side of the table page: the match's scores, the trick log (whole lines
// only), the rules with a link to How to play, and the finished deals.
import {$, api, el} from "./dom.js";
import {textCards} from "./cards.js";
import {t} from "./i18n.js";
import {S, fmt, game, nameOf, you} from "./tablestate.js";

let shownRecords = -1;

export function renderSide() {
  const st = S.state, tb = st.table, n = tb.players;
  const tbl = el("table", {class: "scores"});
  tbl.style.setProperty("--seats", n);  // each seat's share of the width (style.css)
  const head = el("tr", {}, el("th", {text: "#"}));
  for (let s = 0; s < n; s++) {
    head.append(el("th", {class: s === you() ? "mine" : "", text: nameOf(s), title: nameOf(s)}));
  }
  tbl.append(head);
  st.results.forEach((r, i) => {
    const row = el("tr", {}, el("td", {text: i + 1}));
    r.forEach(v => row.append(el("td", {text: fmt(v)})));
    tbl.append(row);
  });
  const tot = el("tr", {class: "total"}, el("td", {text: "Σ"}));
  st.totals.forEach(v => tot.append(el("td", {text: fmt(v)})));
  tbl.append(tot);
  $("scores").replaceChildren(tbl);

  const log = $("log");
  log.replaceChildren();
  const g = game();
  if (g) {
    for (const [seat, cards] of g.log) {
      log.append(el("li", {}, el("b", {text: nameOf(seat) + ": "}), textCards(cards, t("pass"))));
    }
  }
  log.scrollTop = log.scrollHeight;

  const rules = $("rules");
  rules.replaceChildren(el("p", {}, el("b", {text: st.rules.name})));
  const opts = Object.entries(st.rules.options);
  if (!opts.length) rules.append(el("p", {class: "muted", text: t("defaultRules")}));
  else {
    const ul = el("ul", {class: "opts"});
    for (const [k, v] of opts) {
      const text = Array.isArray(v) ? v.join(", ") || t("none") : v;
      ul.append(el("li", {text: `${k.replaceAll("_", " ")}: ${text}`}));
    }
    rules.append(ul);
  }
  rules.append(el("p", {class: "muted",
    text: tb.turn_time ? t("timerRule", tb.turn_time) : t("noTimer")}),
    el("p", {}, el("a", {id: "how-link", href: `/how?table=${encodeURIComponent(S.tableId)}`,
                         target: "_blank", text: t("howLink")})));
  if (st.results.length !== shownRecords) { shownRecords = st.results.length; loadRecords(); }
  showRecords();
  fitLog();
}

// The log shows whole lines only: its height is that of the last lines that fit in
// its CSS max-height, so the top line is never cut in half when it scrolls.
function fitLog() {
  const log = $("log");
  log.style.maxHeight = "";
  const room = parseFloat(getComputedStyle(log).maxHeight) || 220;
  if (log.scrollHeight <= room) return;
  let h = 0;
  for (const li of [...log.children].reverse()) {
    const lh = li.getBoundingClientRect().height;  // fractional: offsetHeight rounds
    if (h + lh > room) break;
    h += lh;
  }
  log.style.maxHeight = h + "px";
  log.scrollTop = log.scrollHeight;
}

// The finished deals of this table: fetched when a deal ends, drawn on every
// render (a language switch redraws them with the rest of the page).
let records = null;
async function loadRecords() {
  const list = await api(`/api/tables/${encodeURIComponent(S.tableId)}/records`).catch(() => null);
  if (list) { records = list; showRecords(); }
}
function showRecords() {
  const ul = $("records"), list = records || [];
  ul.replaceChildren();
  if (!list.length) { ul.append(el("li", {class: "muted", text: t("noneYet")})); return; }
  for (const r of list) {
    ul.append(el("li", {}, t("dealWon", r.deal, r.names[r.winner] || "?") + " ",
      el("a", {href: `/replay/${r.id}`, text: t("replay")}), " · ",
      el("a", {href: `/api/records/${r.id}/download`, text: t("download")})));
  }
}
