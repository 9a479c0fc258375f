// UI text in English, 繁體中文 and 简体中文: chosen from the browser's language,
// switched by the player (kept in localStorage). Card and hand names are the
// ones players say: Taiwan's and Hong Kong's written terms in 繁體, the
// mainland's in 简体 (docs/server.md says why).
import {setting, setSetting} from "./dom.js";

export const LANGUAGES = [["en", "English"], ["zh-Hant", "繁體中文"], ["zh-Hans", "简体中文"]];

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

// [English, 繁體, 简体]; {0}, {1}… are filled in by t().
const S = {
  lobbyTitle: ["Big Two — lobby", "大老二 — 大廳", "锄大地 — 大厅"],
  gameName: ["Big Two", "大老二", "锄大地"],
  gameNames: ["Big Two · Deuces · Pusoy Dos · Dai Di", "大老二 · 鋤大D", "锄大地 · 大老二"],
  playBigTwo: ["Play Big Two", "玩大老二", "玩锄大地"],
  heroText: ["Make a table, share its link with friends, and bots fill the empty seats.",
             "開一張枱，把連結傳給朋友，空位由電腦補上。",
             "开一张桌，把链接发给朋友，空位由电脑补上。"],
  newTable: ["New table", "開新枱", "开新桌"],
  yourName: ["Your name", "你的名字", "你的名字"],
  tableName: ["Table name", "枱名", "桌名"],
  rulesLabel: ["Rules", "規則", "规则"],
  playersLabel: ["Players", "人數", "人数"],
  seatsLabel: ["Seats (seat 1 is you)", "座位（1 號是你）", "座位（1 号是你）"],
  dealsLabel: ["Deals in the match", "局數", "局数"],
  turnTimer: ["Turn timer", "出牌時限", "出牌时限"],
  off: ["off", "不限", "不限"],
  houseRules: ["House rules (options over the preset)", "自訂規則", "自定义规则"],
  create: ["Create table and sit down", "開枱並坐下", "开桌并坐下"],
  openTables: ["Open tables", "進行中的牌枱", "进行中的牌桌"],
  recentDeals: ["Recent deals", "最近的牌局", "最近的牌局"],
  loading: ["loading…", "載入中…", "载入中…"],
  noTables: ["No open tables yet: create one.", "暫時沒有牌枱：開一張吧。",
             "暂时没有牌桌：开一张吧。"],
  noneYet: ["none yet", "暫無", "暂无"],
  findTable: ["Find a table (name or rules)", "搜尋牌枱（名稱或規則）", "搜索牌桌（名称或规则）"],
  openOnly: ["Open seats only", "只看有空位的", "只看有空位的"],
  showMore: ["Show more", "顯示更多", "显示更多"],
  noMatch: ["No table matches.", "沒有符合的牌枱。", "没有符合的牌桌。"],
  joinSeat: ["Join seat {0}", "坐 {0} 號位", "坐 {0} 号位"],
  backToSeat: ["Back to my seat", "回到我的座位", "回到我的座位"],
  watch: ["Watch", "旁觀", "旁观"],
  friendSeat: ["friend (open seat)", "朋友（空位）", "朋友（空位）"],
  botLevel: ["{0} bot", "{0}電腦", "{0}电脑"],
  easy: ["easy", "簡單", "简单"], medium: ["medium", "中等", "中等"],
  hard: ["hard", "困難", "困难"], expert: ["expert", "專家", "专家"],
  seatN: ["Seat {0}", "{0} 號位", "{0} 号位"],
  typeName: ["Type your name.", "請輸入名字。", "请输入名字。"],
  typeNameFirst: ["Type your name first, then join.", "請先輸入名字再加入。",
                  "请先输入名字再加入。"],
  cannotCreate: ["Cannot create the table: {0}", "無法開枱：{0}", "无法开桌：{0}"],
  twoDecks: ["two decks (house rules: decks)", "兩副牌（自訂規則：decks）",
             "两副牌（自定义规则：decks）"],
  waitingForPlayers: ["waiting for players", "等待玩家", "等待玩家"],
  dealOf: ["deal {0}", "第 {0} 局", "第 {0} 局"],
  dealOfN: ["deal {0} of {1}", "第 {0}/{1} 局", "第 {0}/{1} 局"],
  nPlayers: ["{0} players", "{0} 人", "{0} 人"],
  won: ["{0} won", "{0} 勝", "{0} 胜"],
  replay: ["replay", "重播", "回放"],
  download: ["download", "下載", "下载"],
  // the table
  connecting: ["connecting…", "連線中…", "连接中…"],
  online: ["online", "已連線", "已连接"],
  reconnecting: ["reconnecting…", "重新連線…", "重新连接…"],
  notConnected: ["not connected", "未連線", "未连接"],
  notSaved: ["Not saved, try again", "未儲存，請再試一次", "未保存，请再试一次"],
  retry: ["Try again", "再試一次", "再试一次"],
  waiting: ["waiting", "等待中", "等待中"],
  play: ["Play", "出牌", "出牌"],
  pass: ["Pass", "過", "过"],
  hint: ["Hint", "提示", "提示"],
  clear: ["Clear", "清除", "清除"],
  sortRank: ["Sort: rank", "排序：點數", "排序：点数"],
  sortSuit: ["Sort: suit", "排序：花色", "排序：花色"],
  scores: ["Scores", "分數", "分数"],
  trickLog: ["This trick & log", "本輪與紀錄", "本轮与记录"],
  finishedDeals: ["Finished deals", "已完成的牌局", "已完成的牌局"],
  yourHand: ["your hand", "你的手牌", "你的手牌"],
  openSeat: ["open seat", "空位", "空位"],
  bot: ["bot", "電腦", "电脑"],
  away: ["away", "離開", "离开"],
  outOfTrick: ["out of trick", "已過", "已过"],
  nCards: ["{0} cards", "{0} 張", "{0} 张"],
  oneCard: ["1 card", "1 張", "1 张"],
  oneLeft: ["⚠ one card left!", "⚠ 只剩一張！", "⚠ 只剩一张！"],
  wentOut: ["★ went out", "★ 出完", "★ 出完"],
  passed: ["passed", "過", "过"],
  waitingDots: ["Waiting for players…", "等待玩家…", "等待玩家…"],
  newDeal: ["New deal", "新一局", "新一局"],
  newTrick: ["New trick", "新一輪", "新一轮"],
  yourLeadWith: ["Your lead — include {0}", "你先出 — 要包括 {0}", "你先出 — 要包括 {0}"],
  yourLead: ["Your lead — play anything", "你先出 — 隨便出", "你先出 — 随便出"],
  yourTurnBeat: ["Your turn — beat it or pass", "輪到你 — 壓過或過", "轮到你 — 压过或过"],
  yourTurn: ["Your turn", "輪到你", "轮到你"],
  toPlay: ["{0} to play", "輪到 {0}", "轮到 {0}"],
  playerWentOut: ["{0} went out!", "{0} 出完了！", "{0} 出完了！"],
  hintIs: ["Hint ({1}): {0}", "提示（{1}）：{0}", "提示（{1}）：{0}"],
  hintPass: ["Hint ({0}): pass", "提示（{0}）：過", "提示（{0}）：过"],
  hintFallback: [" ({0} took over {1} s, so the quick bot answered)",
                 "（{0} 超過 {1} 秒，由快速電腦代答）", "（{0} 超过 {1} 秒，由快速电脑代答）"],
  hintWhy: [": {0}", "：{0}", "：{0}"],
  timesUp: ["Time's up — a bot played {0} for you", "時間到 — 電腦替你出了 {0}",
            "时间到 — 电脑替你出了 {0}"],
  timesUpPass: ["Time's up — a bot passed for you", "時間到 — 電腦替你過了",
                "时间到 — 电脑替你过了"],
  noLegalWith: ["No legal play holds {0}", "沒有合法的出法包括 {0}", "没有合法的出法包括 {0}"],
  linkCopied: ["link copied", "已複製連結", "已复制链接"],
  shareLink: ["Share this link with friends:", "把這個連結傳給朋友：", "把这个链接发给朋友："],
  copy: ["Copy", "複製", "复制"],
  startNow: ["Start now — bots take the open seats", "現在開始 — 空位由電腦補上",
             "现在开始 — 空位由电脑补上"],
  takeSeat: ["Take a seat", "選座位", "选座位"],
  sitIn: ["Sit in seat {0}", "坐 {0} 號位", "坐 {0} 号位"],
  matchOver: ["Match over", "比賽結束", "比赛结束"],
  winsDeal: ["{0} wins the deal", "{0} 贏了這局", "{0} 赢了这局"],
  sideWinsDeal: ["{0} win the deal as partners", "{0} 同隊贏了這局", "{0} 同队赢了这局"],
  sideWinsMatch: ["{0} win the match as partners.", "{0} 同隊贏得比賽。", "{0} 同队赢得比赛。"],
  partner: ["partner", "隊友", "队友"],
  winsMatch: ["{0} wins the match.", "{0} 贏得比賽。", "{0} 赢得比赛。"],
  player: ["Player", "玩家", "玩家"],
  cardsLeft: ["Cards left", "剩牌", "剩牌"],
  why: ["Why", "計法", "计法"],
  deal: ["Deal", "本局", "本局"],
  total: ["Total", "總分", "总分"],
  backToLobby: ["Back to the lobby", "回到大廳", "回到大厅"],
  nextDeal: ["Next deal", "下一局", "下一局"],
  waitingOthers: ["Waiting for the others…", "等其他人…", "等其他人…"],
  nextIn: ["Next deal in {0}s", "{0} 秒後下一局", "{0} 秒后下一局"],
  watching: ["You are watching: no hand is shown to spectators.", "你在旁觀：不會顯示手牌。",
             "你在旁观：不会显示手牌。"],
  typeNameJoin: ["type your name first", "請先輸入名字", "请先输入名字"],
  defaultRules: ["The default game: 3♦ leads, suits ♦<♣<♥<♠, Hong Kong straights, "
                 + "classic scoring.", "標準玩法：3♦ 先出，花色 ♦<♣<♥<♠，香港順子，傳統計分。",
                 "标准玩法：3♦ 先出，花色 ♦<♣<♥<♠，香港顺子，传统计分。"],
  timerRule: ["Turn timer: {0}s (then a bot plays for you)", "出牌時限：{0} 秒（之後電腦代出）",
              "出牌时限：{0} 秒（之后电脑代出）"],
  noTimer: ["No turn timer", "不限時", "不限时"],
  none: ["none", "無", "无"],
  dealWon: ["Deal {0}: {1} won", "第 {0} 局：{1} 勝", "第 {0} 局：{1} 胜"],
  settings: ["Settings", "設定", "设置"],
  language: ["Language", "語言", "语言"],
  fourColor: ["Four-colour deck", "四色牌", "四色牌"],
  sound: ["Sounds: your turn, plays, deal end", "音效：輪到你、出牌、牌局結束",
    "音效：轮到你、出牌、牌局结束"],
  autoPass: ["Pass automatically when you cannot play", "無牌可出時自動過", "无牌可出时自动过"],
  autoPassed: ["Nothing beats it — passed for you", "無牌大得過 — 已自動過", "没有牌大得过 — 已自动过"],
  seatLabel: ["{0}, {1}", "{0}，{1}", "{0}，{1}"],
  toMove: ["to play", "出牌中", "出牌中"],
  playedBy: ["{0} played", "{0} 出了", "{0} 出了"],
  seatPassed: ["{0} passed", "{0} 過", "{0} 过"],
  reactions: ["Quick reactions", "快速表情", "快速表情"],
  react_thumbs: ["Thumbs up", "讚", "赞"], react_wow: ["Wow", "哇", "哇"],
  react_laugh: ["Ha ha", "哈哈", "哈哈"], react_gg: ["Good game", "打得好", "打得好"],
  rematch: ["Rematch", "再來一局", "再来一局"],
  howToPlay: ["How to play", "玩法", "玩法"],
  review: ["Review", "覆盤", "复盘"], reviewing: ["Reviewing…", "覆盤中…", "复盘中…"],
  reviewTitle: ["Review a player's decisions", "覆盤：評估玩家的每步決定", "复盘：评估玩家的每步决定"],
  reviewAbout: ["The strongest bot (expert) judges each decision that had a choice: the "
    + "expected points of the play made against the best play found.",
    "最強電腦（expert）評估每個可選擇的決定：所出牌的預期得分對比找到的最佳出法。",
    "最强电脑（expert）评估每个可选择的决定：所出牌的预期得分对比找到的最佳出法。"],
  reviewBy: ["judged by {0}", "評估者：{0}", "评估者：{0}"],
  reviewWait: ["Thinking: a few seconds…", "思考中：需要幾秒…", "思考中：需要几秒…"],
  reviewSummary: ["{0}: {1} decisions reviewed · inaccuracies: {2} · mistakes: {3}",
    "{0}：評估了 {1} 個決定 · 不準確：{2} · 失誤：{3}",
    "{0}：评估了 {1} 个决定 · 不准确：{2} · 失误：{3}"],
  reviewPartial: ["(stopped after {0} s: the rest was not judged)",
    "（{0} 秒後停止：其餘未評估）", "（{0} 秒后停止：其余未评估）"],
  reviewBest: ["best", "最佳", "最佳"], reviewBestFound: ["best found:", "最佳：", "最佳："],
  reviewGo: ["Show this play", "顯示這一手", "显示这一手"],
  duplicate: ["Replay with expert", "由 expert 重打", "由 expert 重打"],
  duplicating: ["Replaying…", "重打中…", "重打中…"],
  duplicateAbout: ["Or deal the same cards again with the strongest bot (expert) in the chosen "
    + "seat, the other seats the same bots: its score beside the seat's, and the decisions "
    + "where it plays otherwise.",
    "或用同一副牌重打：所選座位由最強電腦（expert）代打，其他座位照舊：比較兩者得分，並標出它會出得不同的決定。",
    "或用同一副牌重打：所选座位由最强电脑（expert）代打，其他座位照旧：比较两者得分，并标出它会出得不同的决定。"],
  duplicateWait: ["Replaying the deal: up to half a minute…", "重打這局：最多約半分鐘…",
    "重打这局：最多约半分钟…"],
  duplicateSummary: ["Same cards: {0} {1} · expert {2} · expert chooses otherwise at {3} of "
    + "{4} decisions", "同一副牌：{0} {1} · expert {2} · {4} 個決定中有 {3} 個 expert 會出得不同",
    "同一副牌：{0} {1} · expert {2} · {4} 个决定中有 {3} 个 expert 会出得不同"],
  duplicateBy: ["played by {0}", "代打：{0}", "代打：{0}"],
  duplicateExpert: ["expert:", "expert：", "expert："],
  duplicateDeal: ["The expert's deal", "expert 打的這局", "expert 打的这局"],
  mark_inaccuracy: ["inaccuracy ({0})", "不準確（{0}）", "不准确（{0}）"],
  mark_mistake: ["mistake ({0})", "失誤（{0}）", "失误（{0}）"],
  howGoal: ["Be the first to play all your cards. The {0} leads the first trick; then "
    + "each player in turn beats the last play or passes, and when everyone else has passed "
    + "the last to play leads anything.",
    "最先出完手牌者勝。持{0}者先出；之後輪流出更大的牌或過，其他人都過後，最後出牌者自由出牌。",
    "最先出完手牌者胜。持{0}者先出；之后轮流出更大的牌或过，其他人都过后，最后出牌者自由出牌。"],
  howRanks: ["Ranks, lowest to highest", "點數，由小到大", "点数，由小到大"],
  howSuits: ["Suits break ties, lowest to highest", "同點數比花色，由小到大", "同点数比花色，由小到大"],
  howLowest: ["A single or a pair of the same rank: the higher suit wins.",
    "同點數的單張或對子，花色大者勝。", "同点数的单张或对子，花色大者胜。"],
  howPlays: ["Plays", "牌型", "牌型"],
  howFollow: ["Beat the last play with a higher play of the same number of cards, or pass.",
    "用張數相同、更大的牌壓過上一手，或過。", "用张数相同、更大的牌压过上一手，或过。"],
  howFive: ["Five-card hands, lowest to highest", "五張牌型，由小到大", "五张牌型，由小到大"],
  howFive_kind: ["A higher kind beats a lower one; within a kind, the higher hand wins.",
    "牌型大者勝；同牌型比大小。", "牌型大者胜；同牌型比大小。"],
  "howFive_same-kind": ["A five-card hand beats only one of its own kind.",
    "五張牌只能壓同一牌型。", "五张牌只能压同一牌型。"],
  "howFive_top-card": ["Any five-card hand beats one with a lower top card.",
    "任何五張牌型，最大一張較大者勝。", "任何五张牌型，最大一张较大者胜。"],
  howStraights: ["Straights allowed, lowest to highest", "可用的順子，由小到大",
    "可用的顺子，由小到大"],
  howLink: ["How to play", "玩法", "玩法"],
  playedKind: ["{0}: {1}", "{0}：{1}", "{0}：{1}"],
  // score reasons, in plain words (How to play's Scoring section says the rules)
  sWentOut: ["went out", "出完", "出完"],
  sCollects: ["went out first: collects {0} from the others", "最先出完：向其他人收 {0}",
              "最先出完：向其他人收 {0}"],
  sPlace: ["out {0}", "第 {0} 個出完", "第 {0} 个出完"],
  sCards: ["{0} cards left", "剩 {0} 張", "剩 {0} 张"],
  sOneCard: ["1 card left", "剩 1 張", "剩 1 张"],
  sWhole: ["counted ×3: all {0} cards still in hand", "算 3 倍：{0} 張一張未出",
           "算 3 倍：{0} 张一张未出"],
  sMost: ["counted ×2: {0} or more of the {1} cards still in hand",
          "算 2 倍：{1} 張中還剩 {0} 張或以上", "算 2 倍：{1} 张中还剩 {0} 张或以上"],
  sTwo: ["doubled for holding a 2", "手上有 2：加倍", "手上有 2：加倍"],
  sBomb: ["doubled for holding a four of a kind or straight flush",
          "手上有鐵支或同花順：加倍", "手上有铁支或同花顺：加倍"],
  sTwos: ["doubled for each of {1} 2s held (×{0})", "手上有 {1} 張 2：每張加倍（×{0}）",
          "手上有 {1} 张 2：每张加倍（×{0}）"],
  sBombs: ["doubled for each of {1} fours of a kind or straight flushes held (×{0})",
           "手上有 {1} 組鐵支或同花順：每組加倍（×{0}）", "手上有 {1} 组铁支或同花顺：每组加倍（×{0}）"],
  sOnTwo: ["doubled: the winner went out on a 2", "贏家以 2 出完：加倍", "赢家以 2 出完：加倍"],
  sOnBomb: ["doubled: the winner went out on a four of a kind or straight flush",
            "贏家以鐵支或同花順出完：加倍", "赢家以铁支或同花顺出完：加倍"],
  sTwosCount: ["+{0}: each 2 left counts twice", "+{0}：剩下的 2 每張算兩張",
               "+{0}：剩下的 2 每张算两张"],
  sTeams: ["teams: {0} cards left on this side, {1} on the other",
           "組隊：本隊剩 {0} 張，對方剩 {1} 張", "组队：本队剩 {0} 张，对方剩 {1} 张"],
  sAdjusted: ["({0})", "（{0}）", "（{0}）"],
  // How to play: scoring
  howScoring: ["Scoring", "計分", "计分"],
  howScoreTable: ["At the end of each deal the result table shows each player's cards left "
    + "and which of these made their score.", "每局結束時，結果表列出每位玩家的剩牌，以及上面哪幾條決定了分數。",
    "每局结束时，结果表列出每位玩家的剩牌，以及上面哪几条决定了分数。"],
  scClassicPay: ["The first player out wins the deal; every other player pays them 1 point "
    + "for each card left in hand.", "最先出完的人贏這一局；其他人每剩一張牌付給他 1 分。",
    "最先出完的人赢这一局；其他人每剩一张牌付给他 1 分。"],
  scMultiplier: ["With {0} or more of the {1} cards left, each card counts 2; with all {1} "
    + "(none played), each counts 3.", "剩 {0} 張或以上（共 {1} 張）每張算 2 分；{1} 張全未出每張算 3 分。",
    "剩 {0} 张或以上（共 {1} 张）每张算 2 分；{1} 张全未出每张算 3 分。"],
  scTwosEach: ["Each 2 still in hand doubles what that player pays (two 2s: ×4).",
    "手上每剩一張 2，付的分加倍（兩張 2：×4）。", "手上每剩一张 2，付的分加倍（两张 2：×4）。"],
  scTwosAny: ["Any 2 still in hand doubles what that player pays, once.",
    "手上剩有 2，付的分加倍一次。", "手上剩有 2，付的分加倍一次。"],
  scBombs: ["Each four of a kind or straight flush still held doubles it again.",
    "手上每留一組鐵支或同花順，再加倍。", "手上每留一组铁支或同花顺，再加倍。"],
  scWinningPlay: ["Going out on a 2 (or a pair of 2s), a four of a kind or a straight flush "
    + "doubles what everyone pays.", "以 2（或一對 2）、鐵支或同花順出完，所有人付的分加倍。",
    "以 2（或一对 2）、铁支或同花顺出完，所有人付的分加倍。"],
  scExample: ["Example: 10 cards left with one 2 among them: 10 × 2 = 20, doubled for the 2: "
    + "pays 40.", "例子：剩 10 張，其中有一張 2：10 × 2 = 20，因為 2 加倍：付 40 分。",
    "例子：剩 10 张，其中有一张 2：10 × 2 = 20，因为 2 加倍：付 40 分。"],
  scCount: ["Each card left in hand is a point lost; the first player out loses nothing.",
    "手上每剩一張牌扣 1 分；最先出完的人不扣分。", "手上每剩一张牌扣 1 分；最先出完的人不扣分。"],
  scCountTwos: ["A 2 left counts as two cards.", "剩下的 2 算兩張。", "剩下的 2 算两张。"],
  scPenalty: ["Each card left in hand counts against its player; the first out scores 0.",
    "手上每剩一張牌都算罰分；最先出完的人得 0 分。", "手上每剩一张牌都算罚分；最先出完的人得 0 分。"],
  scPenaltyEnd: ["The match ends when someone's penalty reaches {0}; the lowest penalty wins.",
    "有人罰分達到 {0} 時比賽結束，罰分最少者勝。", "有人罚分达到 {0} 时比赛结束，罚分最少者胜。"],
  scRanking: ["Players score by the order they go out: the first {0} points, the next one "
    + "fewer, and so on down to 0.", "按出完的先後計分：第一個出完得 {0} 分，之後每位少 1 分，最後一位 0 分。",
    "按出完的先后计分：第一个出完得 {0} 分，之后每位少 1 分，最后一位 0 分。"],
  // puzzles
  puzzlesTitle: ["Puzzles", "殘局題", "残局题"],
  puzzlesLink: ["Puzzles", "殘局題", "残局题"],
  puzzlesAboutHidden: ["Only your hand is shown, with the others' counts and the cards played; "
    + "the answer holds however the unseen cards lie.",
    "只看得到你自己的手牌、別人剩幾張和已出的牌；無論未見的牌怎樣分佈，答案都成立。",
    "只看得到你自己的手牌、别人剩几张和已出的牌；无论未见的牌怎样分布，答案都成立。"],
  puzzleHidden: ["hidden hands", "暗牌", "暗牌"],
  puzzleOut: ["out", "已出完", "已出完"],
  puzzlePlayed: ["played {0}", "已出 {0}", "已出 {0}"],
  puzzleStep: ["Step {0} of {1}: {2}", "第 {0}/{1} 步：{2}", "第 {0}/{1} 步：{2}"],
  puzzleStepFirst: ["back to the position", "回到題目", "回到题目"],
  puzzleStepBack: ["back one step", "上一步", "上一步"],
  puzzleStepNext: ["forward one step", "下一步", "下一步"],
  puzzleStepLast: ["to the end of the line", "到最後", "到最后"],
  puzzleRetry: ["Try again", "再試一次", "再试一次"],
  puzzleRulesOf: ["Rules: {0}", "規則：{0}", "规则：{0}"],
  puzzlePlayers: ["{0} players", "{0} 人", "{0} 人"],
  puzzleSuits: ["suits {0}", "花色 {0}", "花色 {0}"],
  puzzleStraights: ["straights {0}", "順子 {0}", "顺子 {0}"],
  puzzleFinish: ["no going out on {0}", "不能以{0}出完", "不能以{0}出完"],
  "finish_single-2": ["a single 2", "單張 2", "单张 2"],
  "finish_pair-2": ["a pair of 2s", "一對 2", "一对 2"],
  "finish_any-2": ["a play with a 2", "含 2 的牌", "含 2 的牌"],
  finish_2S: ["a play with the 2♠", "含黑桃 2 的牌", "含黑桃 2 的牌"],
  puzzleHowLink: ["How to play these rules", "這套規則怎樣玩", "这套规则怎样玩"],
  preset_classic: ["classic", "經典", "经典"],
  preset_taiwan: ["Taiwan", "台灣", "台湾"],
  "preset_hong-kong": ["Hong Kong", "香港", "香港"],
  preset_pagat: ["pagat.com", "pagat.com 規則", "pagat.com 规则"],
  "preset_vietnam-straights": ["Vietnam straights", "越南順子", "越南顺子"],
  preset_philippines: ["Philippines", "菲律賓", "菲律宾"],
  preset_singapore: ["Singapore", "新加坡", "新加坡"],
  preset_malaysia: ["Malaysia", "馬來西亞", "马来西亚"],
  preset_indonesia: ["Indonesia", "印尼", "印尼"],
  preset_hawaii: ["Hawaii", "夏威夷", "夏威夷"],
  preset_president: ["President", "大老二總統", "大老二总统"],
  puzzlesAbout: ["Every hand is shown.", "所有手牌都攤開。", "所有手牌都摊开。"],
  // what a puzzle is: big2.puzzles.DEFINITION word for word (tests/server/test_puzzle_api.py)
  puzzleDefinition: ["Exactly one legal play lets you go out first, whatever the others do "
    + "(they may play together against you); the natural play does not.",
    "只有一種合法出法能讓你最先出完，無論別人怎樣出（他們可以聯手對付你）；順手的出法不行。",
    "只有一种合法出法能让你最先出完，无论别人怎样出（他们可以联手对付你）；顺手的出法不行。"],
  puzzleDaily: ["Puzzle of the day", "每日一題", "每日一题"],
  puzzleBand: ["Band", "難度", "难度"], bandAll: ["all", "全部", "全部"],
  band_easy: ["easy", "易", "易"], band_medium: ["medium", "中", "中"],
  band_hard: ["hard", "難", "难"],
  puzzleCheck: ["Play it", "出這手", "出这手"],
  puzzleAnswer: ["Show the answer", "看答案", "看答案"],
  puzzleNext: ["Next puzzle", "下一題", "下一题"],
  puzzleYou: ["You", "你", "你"], puzzleSeat: ["Seat {0}", "{0} 號位", "{0} 号位"],
  puzzleTitle: ["Puzzle {0} · {1} · {2}", "第 {0} 題 · {1} · {2}", "第 {0} 题 · {1} · {2}"],
  puzzleYouLead: ["The table is empty: you lead.", "桌面沒有牌：你先出。", "桌面没有牌：你先出。"],
  puzzleTable: ["To beat: {0}, played by {1}.", "要壓過：{1} 出的 {0}。", "要压过：{1} 出的 {0}。"],
  puzzleIllegal: ["That is not a legal play here.", "這手牌現在不能出。", "这手牌现在不能出。"],
  puzzleRight: ["Right! {0}", "答對了！{0}", "答对了！{0}"],
  puzzleWrongLine: ["Not this one, it loses: {0}", "不對，這樣會輸：{0}", "不对，这样会输：{0}"],
  puzzleOtherDeal: ["(You could not see the other hands: this is a deal of the unseen cards "
    + "that fits what you saw, and your play loses in it.)",
    "（你看不到別人的牌：這是一種符合你所見的未見牌分佈，你這手在其中會輸。）",
    "（你看不到别人的牌：这是一种符合你所见的未见牌分布，你这手在其中会输。）"],
  puzzleHint: ["Hint: the answer is a {0}; you go out in {1} plays of your own.",
    "提示：答案是{0}；你自己再出 {1} 手就出完。", "提示：答案是{0}；你自己再出 {1} 手就出完。"],
  puzzleShown: ["The answer: {0}", "答案：{0}", "答案：{0}"],
  puzzleProgress: ["Solved {0} of {1} · streak {2} · best {3}", "已解 {0}/{1} · 連勝 {2} · 最佳 {3}",
    "已解 {0}/{1} · 连胜 {2} · 最佳 {3}"],
  lineYouPlay: ["you play {0}", "你出 {0}", "你出 {0}"],
  lineYouPass: ["you pass", "你過", "你过"],
  lineSeatPlays: ["{0} plays {1}", "{0} 出 {1}", "{0} 出 {1}"],
  lineSeatPasses: ["{0} passes", "{0} 過", "{0} 过"],
  lineYouOut: ["you go out first", "你最先出完", "你最先出完"],
  lineSeatOut: ["{0} goes out first", "{0} 最先出完", "{0} 最先出完"],
  lineSep: ["; ", "；", "；"], lineEnd: [": {0}.", "：{0}。", "：{0}。"],
  // the match's result
  placeN: ["{0}", "第 {1} 名", "第 {1} 名"],
  tieMatch: ["Tied for first: {0} with {1} each.", "並列第一：{0}，各 {1} 分。",
             "并列第一：{0}，各 {1} 分。"],
  and: [" and ", "、", "、"],
  // replay
  replayTitle: ["Replay", "重播", "回放"],
  theDeal: ["The deal", "發牌", "发牌"],
  autoplay: ["Autoplay", "自動播放", "自动播放"],
  stop: ["Stop", "停止", "停止"],
  first: ["start (Home)", "開頭（Home）", "开头（Home）"],
  last: ["end (End)", "結尾（End）", "结尾（End）"],
  prevPlay: ["back one play (←)", "上一手（←）", "上一手（←）"],
  nextPlay: ["forward one play (→)", "下一手（→）", "下一手（→）"],
  prevTrick: ["back one trick (↑)", "上一輪（↑）", "上一轮（↑）"],
  nextTrick: ["forward one trick (↓)", "下一輪（↓）", "下一轮（↓）"],
  copyLink: ["Copy link to this position", "複製此位置的連結", "复制此位置的链接"],
  position: ["position", "位置", "位置"],
  trickN: ["trick {0}", "第 {0} 輪", "第 {0} 轮"],
  wentOutScores: ["{0} went out. Scores: {1}", "{0} 出完。分數：{1}", "{0} 出完。分数：{1}"],
};

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
const SUIT_NAMES = {
  D: ["diamonds", "方塊", "方块"], C: ["clubs", "梅花", "梅花"],
  H: ["hearts", "紅心", "红心"], S: ["spades", "黑桃", "黑桃"],
};
const RANK_WORDS = {T: "10", J: "Jack", Q: "Queen", K: "King", A: "Ace"};
const RANK_PLURAL = {T: "10s", J: "jacks", Q: "queens", K: "kings", A: "aces", 2: "2s"};
const JOKER_NAMES = {RJ: ["Red Joker", "大鬼", "大王"], BJ: ["Black Joker", "小鬼", "小王"]};

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

const KINDS = {
  SINGLE: ["Single", "單張", "单张"], PAIR: ["Pair", "對子", "对子"],
  TRIPLE: ["Triple", "三條", "三条"], TWO_PAIRS: ["Two pairs", "兩對", "两对"],
  FOUR_OF_A_KIND: ["Four of a kind", "四條", "四条"],
  FIVE_TWO_PAIRS: ["Two pairs and a card", "兩對帶一張", "两对带一张"],
  FIVE_TRIPS: ["Three of a kind and two cards", "三條帶兩張", "三条带两张"],
  STRAIGHT: ["Straight", "順子", "顺子"], FLUSH: ["Flush", "同花", "同花"],
  FULL_HOUSE: ["Full house", "葫蘆", "葫芦"], FOUR_KICKER: ["Four of a kind", "鐵支", "铁支"],
  STRAIGHT_FLUSH: ["Straight flush", "同花順", "同花顺"], PAIR_RUN: ["Run of pairs", "連對", "连对"],
  DRAGON: ["Dragon", "一條龍", "一条龙"], FIVE_OF_A_KIND: ["Five of a kind", "五條", "五条"],
};

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
    case "PAIR": return zh ? `${["", "一對", "一对"][i]} ${rankText(top)}`
                           : `Pair of ${plural(top)}`;
    case "TRIPLE": return zh ? `${label} ${rankText(top)}` : `Three ${plural(top)}`;
    case "FULL_HOUSE": {
      const low = byCount[1][0];
      return zh ? `${label} ${rankText(top)} ${["", "帶", "带"][i]} ${rankText(low)}`
                : `${label}, ${plural(top)} over ${plural(low)}`;
    }
    case "FOUR_OF_A_KIND": case "FOUR_KICKER": case "FIVE_OF_A_KIND":
      return zh ? `${label} ${rankText(top)}` : `${label}, ${plural(top)}`;
    default: return label;
  }
}
