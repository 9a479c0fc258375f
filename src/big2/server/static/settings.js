// The settings menu in the page bar: language, four-colour deck, sound, forced passes.
import {el, setting, setSetting} from "./dom.js";
import {LANGUAGES, lang, setLang, t} from "./i18n.js";
import {isFourColor, setFourColor} from "./cards.js";
import {unlockAudio} from "./cues.js";

// Build the menu into *bar*; *onChange* redraws the page after a change.
export function settingsMenu(bar, onChange) {
  setFourColor(isFourColor());
  const select = el("select", {id: "lang", "aria-label": t("language")});
  for (const [code, name] of LANGUAGES) select.append(el("option", {value: code, text: name}));
  select.value = lang();
  select.addEventListener("change", () => { setLang(select.value); redraw(); });
  const four = el("input", {type: "checkbox", id: "four-color", checked: isFourColor()});
  four.addEventListener("change", () => {
    setFourColor(four.checked);
    setSetting("fourColor", four.checked);
    redraw();
  });
  const sound = el("input", {type: "checkbox", id: "sound", checked: setting("sound", false)});
  sound.addEventListener("change", () => {
    setSetting("sound", sound.checked);
    if (sound.checked) unlockAudio();
    redraw();
  });
  // forced passes (table page): pass for you when pass is your only play; on by default
  const auto = el("input", {type: "checkbox", id: "auto-pass", checked: setting("autoPass", true)});
  auto.addEventListener("change", () => { setSetting("autoPass", auto.checked); redraw(); });
  const summary = el("summary", {class: "pill", "aria-label": t("settings")}, "⚙");
  const labels = {
    lang: el("span", {}), four: el("span", {}), sound: el("span", {}), auto: el("span", {}),
  };
  const menu = el("details", {class: "settings", id: "settings"}, summary,
    el("div", {class: "menu"},
      el("label", {class: "menu-row"}, labels.lang, select),
      el("label", {class: "menu-row"}, four, labels.four),
      el("label", {class: "menu-row"}, sound, labels.sound),
      el("label", {class: "menu-row"}, auto, labels.auto)));
  function redraw() {
    labels.lang.textContent = t("language");
    labels.four.textContent = t("fourColor");
    labels.sound.textContent = t("sound");
    labels.auto.textContent = t("autoPass");
    summary.title = t("settings");
    select.setAttribute("aria-label", t("language"));
    onChange();
  }
  bar.append(menu);
  redraw();
  document.addEventListener("click", (ev) => { if (!menu.contains(ev.target)) menu.open = false; });
  return menu;
}
