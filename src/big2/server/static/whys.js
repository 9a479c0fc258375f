// One sentence of why (big2.bots.rules_based.reasons.Why, sent as {key, args, text}) in the page's
// language: the review's "why" and the hint's reason. English is the server's own text;
// Chinese is built here from the key, with cards and plays named as on the rest of the page.
import {labels} from "./cards.js";
import {kindLabel, lang} from "./i18n.js";

// [繁體, 简体]; {name} fills in an argument (a play, a group, cards, a name or a count).
const W = {
  goesOut: ["一手出完", "一手出完"],
  keepsTwo: ["留住 {cards} 保持控制權", "留住 {cards} 保持控制权"],
  allBreak: ["能壓過桌面的出法都會拆散你的牌", "能压过桌面的出法都会拆散你的牌"],
  blocks: ["擋住只剩 {left} 張牌的 {name}", "挡住只剩 {left} 张牌的 {name}"],
  keepsLead: ["沒人壓得過：你保住出牌權", "没人压得过：你保住出牌权"],
  leadsPlan: ["先出你牌型中最弱的一組（再 {rest} 手出完）", "先出你牌型中最弱的一组（再 {rest} 手出完）"],
  playsPlan: ["出你牌型中的一組（再 {rest} 手出完）", "出你牌型中的一组（再 {rest} 手出完）"],
  cheapestBreaks: ["壓過桌面最省的出法，但拆了{group}", "压过桌面最省的出法，但拆了{group}"],
  bestGoesOut: ["{best} 一手出完", "{best} 一手出完"],
  nextOnOne: ["下家 {name} 只剩一張：出{made} 可能讓他出完",
              "下家 {name} 只剩一张：出{made} 可能让他出完"],
  nextOnOneStop: ["下家 {name} 只剩一張：出{made} 可能讓他出完，{best} 才擋得住",
                  "下家 {name} 只剩一张：出{made} 可能让他出完，{best} 才挡得住"],
  passWinning: ["手上有沒人壓得過的牌（{best}）卻不出", "手上有没人压得过的牌（{best}）却不出"],
  passThreat: ["{name} 只剩 {left} 張還不出", "{name} 只剩 {left} 张还不出"],
  passWorse: ["不出，但 {best} 更好", "不出，但 {best} 更好"],
  spendsTwo: ["用掉了 {cards}：較好的出法留著它保持控制權", "用掉了 {cards}：较好的出法留着它保持控制权"],
  breaks: ["拆了{group}", "拆了{group}"],
  passBetter: ["較好的做法是不出，保持牌型完整", "较好的做法是不出，保持牌型完整"],
  sheds: ["只出 {n} 張，{best} 能出 {k} 張", "只出 {n} 张，{best} 能出 {k} 张"],
  unbeatable: ["{best} 沒人壓得過：贏下這一輪", "{best} 没人压得过：赢下这一轮"],
  tooWeak: ["太小，擋不住只剩 {left} 張的 {name}", "太小，挡不住只剩 {left} 张的 {name}"],
  spends: ["用了 {made}，其實 {best} 就夠", "用了 {made}，其实 {best} 就够"],
};
const GROUPS = {pair: ["一對", "一对"], triple: ["三條", "三条"], four: ["四條", "四条"],
                group: ["一組", "一组"]};

// An argument as words: a play {cards, kind}, a group {group, rank}, card names, or as is.
function arg(name, v, i) {
  if (name === "group") return null;  // filled from group and rank together
  if (v && typeof v === "object") {
    const cards = labels(v.cards ? v.cards.split(" ") : []);
    const kind = kindLabel(v.kind);
    return kind ? `${kind} ${cards}` : cards;
  }
  if (name === "cards") return labels(String(v).split(" "));
  return String(v);
}

// The reason in the page's language ("" for none).
export function reasonText(reason) {
  if (!reason) return "";
  const i = {"zh-Hant": 0, "zh-Hans": 1}[lang()];
  const row = W[reason.key];
  if (i === undefined || !row) return reason.text || "";
  const a = reason.args || {};
  return row[i].replace(/\{(\w+)\}/g, (_, name) => {
    if (name === "group") return `${(GROUPS[a.group] || GROUPS.group)[i]} ${a.rank}`;
    return arg(name, a[name], i);
  });
}
