// The table page's shared state: the last state message and small queries on it.
import {t} from "./i18n.js";

export const S = {
  state: null,
  tableId: decodeURIComponent(location.pathname.split("/").pop()),
  send: () => {},
  flash: () => {},
};
export function you() { return S.state ? S.state.you : null; }
export function game() { return S.state ? S.state.game : null; }
export function myTurn() {
  const g = game();
  return !!g && you() !== null && g.to_move === you() && S.state.table.status === "playing";
}
export function nameOf(seat) { return S.state.table.seats[seat].name || t("seatN", seat + 1); }
export function fmt(n) { return n > 0 ? "+" + n : String(n); }
export function countText(n) { return n === 1 ? t("oneCard") : t("nCards", n); }
