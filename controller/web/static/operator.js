// The operator page, built for corrections: what just happened in words, undo with a preview of
// exactly what it takes back, a tile picker for a misread tile, sessions, reader health and the
// seats' links. Every admin call carries the admin token, which is kept only once the service
// has accepted it; nothing asks the admin API before that.
"use strict";

import {
  api, flashIn, forgetToken, h, keepToken, linkToken, livePage, peopleText, replace, rulesetWord, seatLabel, storedToken,
  num, t, tn,
} from "./common.js";
import { pickTile } from "./picker.js";
import { saying, tile, tileWords } from "./tiles.js";

const KEY = "admin-token";
let token = null;
let view = null;
let available = 0; // steps the game can take back
let reading = { tile: null, as: null };
let pollTimer = null;
let recentTimer = null;

const $ = (id) => document.getElementById(id);
const names = (p) => seatLabel(view, p);

// --- login ------------------------------------------------------------------------------------

async function accepted(candidate) {
  try {
    await api("/api/admin/readers", { token: candidate });
    return true;
  } catch (e) {
    if (e.status === 401) return false;
    throw e;
  }
}

async function logIn(candidate, where) {
  try {
    if (!(await accepted(candidate))) {
      showLogin(where === "typed" ? t("Wrong token: that is not this table's admin token. Check it and try again.")
        : where === "link" ? t("Wrong token: the link's token is not this table's admin token.")
          : t("The saved admin token no longer works (were the tokens made anew?): log in again."));
      if (where === "saved") forgetToken(KEY);
      return;
    }
  } catch (e) {
    showLogin(peopleText(e));
    return;
  }
  token = candidate;
  keepToken(KEY, token);
  $("login").hidden = true;
  document.body.classList.remove("locked");
  update();
  refresh();
  loadLinks();
  clearInterval(pollTimer);
  pollTimer = setInterval(refresh, 3000);
}

function showLogin(message) {
  token = null;
  clearInterval(pollTimer);
  $("login").hidden = false;
  document.body.classList.add("locked");
  if (message) flashIn("login-msg", message, false, 30);
  update();
}

$("login-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const typed = $("token-input").value.trim();
  if (!typed) return flashIn("login-msg", t("Paste the admin token first."), false);
  logIn(typed, "typed");
});

async function admin(path, { method = "GET", body = undefined } = {}) {
  try {
    return await api(`/api/admin/${path}`, { method, token, body });
  } catch (e) {
    if (e.status === 401) showLogin(t("The admin token was not accepted any more: log in again."));
    throw e;
  }
}

async function act(flash, label, path, body, method = "POST") {
  try {
    await admin(path, { method, body });
    flashIn(flash, t("{what}: done.", { what: label }), true);
    return true;
  } catch (e) {
    flashIn(flash, `${label}: ${peopleText(e)}`, false, 12);
    return false;
  }
}

// --- why a control is disabled ------------------------------------------------------------------

function tableWhy() {
  if (!token) return t("Log in first (above).");
  if (!view) return t("Waiting for the table…");
  const s = view.service || {};
  if (s.halted) return t("The service is not recording moves: {why}", { why: s.halted });
  if (!view.session || !view.session.active) return t("No session is running: start one below.");
  return null;
}

function handWhy() {
  const why = tableWhy();
  if (why) return why;
  const hand = view.hand;
  if (!hand || hand.phase === "over") return t("No hand is in play right now (the next one starts with the deal).");
  return null;
}

function undoWhy() {
  const why = tableWhy();
  if (why) return why;
  const text = $("undo-n").value.trim();
  const n = Number(text);
  if (!available) return t("Nothing to take back yet.");
  if (!/^\d+$/.test(text) || n < 1) return t("Enter a whole number of steps, from 1 to {n}.", { n: available });
  if (n > available) return tn("At most {n} step can be taken back.", "At most {n} steps can be taken back.", available);
  return null;
}

function reassignWhy() {
  const zone = $("re-zone").value;
  // the dora pad (riichi) may be corrected after the hand too: the win is scored again
  const why = zone === "dora" ? tableWhy() || (view.hand ? null : handWhy()) : handWhy();
  if (why) return why;
  if (zone === "discard" && !view.hand.discard) return t("Nothing is lying on the discard pad.");
  if (!reading.tile || !reading.as) return t("Pick the tile as the table read it and what it really is.");
  if (reading.tile === reading.as) return t("The two tiles are the same: pick what the tile really is.");
  return null;
}

function gate(button, whyNode, why) {
  $(button).disabled = !!why;
  $(whyNode).textContent = why || "";
}

function update() {
  gate("undo-btn", "undo-why", undoWhy());
  gate("reassign-btn", "reassign-why", reassignWhy());
  gate("washout", "washout-why", handWhy());
  const sessionWhy = !token ? t("Log in first (above).") : null;
  $("start").disabled = !!sessionWhy;
  $("stop").disabled = !!sessionWhy || !(view && view.session && view.session.active);
  $("undo-n").max = String(Math.max(1, available));
  zoneOptions();
}

// --- what happened, and what an undo takes back ---------------------------------------------------

async function loadRecent() {
  if (!token) return;
  try {
    const data = await admin("recent?count=10");
    available = data.available;
    replace("events", data.events.length ? data.events.map((s, i) => h("li", { class: i ? "" : "newest" }, saying(s)))
      : h("li", { class: "muted" }, t("Nothing yet in this session.")));
    update();
    await preview();
  } catch (e) {
    replace("events", h("li", { class: "error" }, peopleText(e)));
  }
}

async function preview() {
  const why = undoWhy();
  if (why) return replace("undo-preview", null);
  const n = Number($("undo-n").value);
  try {
    const p = await admin(`undo?count=${n}`);
    replace("undo-preview", h("div", {}, h("b", {}, t("Undo {n} takes back:", { n })),
      h("ol", { class: "takes-back" }, p.takes_back.map((s) => h("li", {}, saying(s)))),
      p.put_back.length ? h("div", { class: "putback-list" }, h("b", {}, t("Then put back on the table:") + " "),
        p.put_back.map((m) => h("span", { class: "pb" }, m.tile ? tile(m.tile, { cls: "inline" }) : t("a tile"),
          " " + t("from {from} to {to}", { from: m.from, to: m.to })))) : null));
  } catch (e) {
    replace("undo-preview", h("div", { class: "error" }, peopleText(e)));
  }
}

function soon() {
  // At most one refresh of the recent steps per 0.7 s, however fast the table plays.
  if (recentTimer) return;
  recentTimer = setTimeout(() => { recentTimer = null; loadRecent(); }, 700);
}

$("undo-n").addEventListener("input", () => { update(); preview(); });
$("undo-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const why = undoWhy();
  if (why) return flashIn("undo-flash", why, false);
  const n = Number($("undo-n").value);
  if (await act("undo-flash", t("Undo {n}", { n }), "undo", { count: n })) {
    $("undo-n").value = "1";
    loadRecent();
  }
});

// --- a misread tile ---------------------------------------------------------------------------------

function zoneOptions() {
  const select = $("re-zone");
  const keep = select.value;
  // Only the zones the operator can correct: the discard pad and the meld strips (tiles not yet
  // in a set, bonus tiles). A rack's tiles are concealed: its player corrects them on the seat
  // page (tap the tile, pick what it is).
  const zones = [["discard", t("the discard pad")]]
    .concat([1, 2, 3, 4].map((p) => [`melds:${p}`, t("{who}'s meld strip", { who: names(p) })]));
  if (view && view.riichi) zones.push(["dora", t("the dora pad")]); // riichi's indicators
  const same = [...select.options].map((o) => o.textContent).join("|") === zones.map((z) => z[1]).join("|");
  if (same) return;
  select.replaceChildren(...zones.map(([value, label]) => h("option", { value }, label)));
  select.value = keep || "discard";
}

function pickers() {
  // flowers and seasons can be misread too, where the game is played with them (not riichi)
  const bonus = (((view && view.session) || {}).options || {}).bonus_tiles !== false;
  replace("re-tile", pickTile((c) => { reading.tile = c; $("re-tile-name").textContent = tileWords(c); update(); },
    { selected: reading.tile, bonus, label: t("the tile as it was read") }));
  replace("re-as", pickTile((c) => { reading.as = c; $("re-as-name").textContent = tileWords(c); update(); },
    { selected: reading.as, bonus, label: t("what the tile really is") }));
}

$("re-zone").addEventListener("change", () => {
  const d = view && view.hand && view.hand.discard;
  if ($("re-zone").value === "discard" && d) {
    reading.tile = d.tile;
    $("re-tile-name").textContent = tileWords(d.tile);
    pickers();
  }
  const laid = ((view && view.riichi) || {}).dora_indicators || [];
  if ($("re-zone").value === "dora" && laid.length) { // the newest indicator, as read
    reading.tile = laid[laid.length - 1];
    $("re-tile-name").textContent = tileWords(reading.tile);
    pickers();
  }
  update();
});
$("reassign-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const why = reassignWhy();
  if (why) return flashIn("reassign-flash", why, false);
  const zone = $("re-zone").value;
  const where = $("re-zone").selectedOptions[0].textContent;
  const said = t("The {read} on {where} is a {real}", { read: tileWords(reading.tile), where, real: tileWords(reading.as) });
  if (await act("reassign-flash", said,
    "reassign", { zone, tile: reading.tile, as: reading.as })) {
    reading = { tile: null, as: null };
    $("re-tile-name").textContent = $("re-as-name").textContent = t("pick below");
    pickers();
    update();
  }
});

// --- the hand and the session ----------------------------------------------------------------------

$("washout").addEventListener("click", () => {
  if (confirm(t("End the hand in play as a washout? Nobody scores; the same dealer deals again."))) {
    act("washout-flash", t("End the hand"), "end-hand", { result: "washout" });
  }
});
// A new session's options as a form: one field per option of the chosen rule set, its default
// filled in; only the options changed from their defaults are sent.
let RULESETS = {};
const words = (k) => k.replace(/_/g, " ");
function optionFields() {
  const opts = (RULESETS[$("ruleset").value] || {}).options || {};
  const fields = Object.entries(opts).map(([k, d]) => {
    const id = `opt-${k}`;
    const input = typeof d === "boolean" ? h("input", { id, type: "checkbox", "data-opt": k })
      : typeof d === "number" ? h("input", { id, type: "number", "data-opt": k, value: String(d), style: "width:6rem" })
        : typeof d === "string" ? h("input", { id, type: "text", "data-opt": k, value: d, size: "12" })
          : h("input", { id, type: "text", "data-opt": k, "data-json": "1", value: JSON.stringify(d), size: "12" });
    if (typeof d === "boolean") input.checked = d;
    // The option's name as the rule set has it (RULES.md; an identifier, not translated).
    return h("label", { for: id, class: "opt" }, h("span", { translate: "no" }, words(k)), " ", input);
  });
  replace("options-fields", h("legend", {}, t("Options (the rule set's defaults shown)")), ...fields);
}
function optionValues() {
  const opts = (RULESETS[$("ruleset").value] || {}).options || {};
  const out = {};
  for (const input of document.querySelectorAll("#options-fields [data-opt]")) {
    const k = input.dataset.opt;
    let v = input.type === "checkbox" ? input.checked : input.type === "number" ? Number(input.value) : input.value.trim();
    if (input.dataset.json) {
      try { v = JSON.parse(v || "null"); } catch (_) { throw new Error(t("{option}: write it as {example} is written", { option: words(k), example: JSON.stringify(opts[k]) })); }
    }
    if (JSON.stringify(v) !== JSON.stringify(opts[k])) out[k] = v;
  }
  return out;
}
// The new session's rule set starts as the running one's (a riichi table's next session is
// riichi unless the operator picks another).
let rulesetPicked = false;
function followRunning() {
  const running = view && view.session && view.session.ruleset;
  const select = $("ruleset");
  if (rulesetPicked || !running || !RULESETS[running] || select.value === running) return;
  select.value = running;
  optionFields();
}
api("/api/rulesets").then((d) => { RULESETS = d.rulesets;
  const select = $("ruleset"); const chosen = select.value;
  select.replaceChildren(...Object.keys(RULESETS).map((n) => h("option", { value: n }, rulesetWord(n))));
  if (RULESETS[chosen]) select.value = chosen;
  optionFields(); followRunning(); }).catch(() => {});
$("ruleset").addEventListener("change", () => { rulesetPicked = true; optionFields(); });
$("session-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  let options = {};
  try { options = optionValues(); } catch (e) { return flashIn("session-flash", e.message, false, 12); }
  const ruleset = $("ruleset").value;
  const running = view && view.session && view.session.active;
  const hand = view && view.hand;
  const question = running
    ? (hand ? t("Start a new {ruleset} session? The running session (hand {n}) ends now; its log is kept.", { ruleset: rulesetWord(ruleset), n: hand.number })
      : t("Start a new {ruleset} session? The running session ends now; its log is kept.", { ruleset: rulesetWord(ruleset) }))
    : t("Start a new {ruleset} session?", { ruleset: rulesetWord(ruleset) });
  if (confirm(question)) act("session-flash", t("Start a session"), "session", { ruleset, options });
});
$("stop").addEventListener("click", () => {
  if (confirm(t("Stop the session? Its log is kept; the table stops taking moves."))) {
    act("session-flash", t("Stop the session"), "session", undefined, "DELETE");
  }
});

// --- health, enrollment and seat links -------------------------------------------------------------

async function refresh() {
  if (!token) return;
  try {
    const health = await api("/api/health");
    const rows = [[t("recording"), health.halted ? t("NO: {why}", { why: health.halted }) : t("yes")],
      [t("session"), health.session_active ? t("running") : t("stopped")], [t("events"), num(health.seq)],
      [t("screens connected"), health.clients], [t("queue"), health.queue_depth], [t("up for"), t("{s} s", { s: num(Math.round(health.uptime)) })]];
    const readers = await admin("readers");
    // the back-end's and the readers' names and their health messages are the service's own
    // (English, as in its log and the CLI)
    rows.push([t("readers"), h("span", { translate: "no" }, readers.backend)]);
    for (const [name, r] of Object.entries(readers.readers || {}).sort(([a], [b]) => a.localeCompare(b))) {
      rows.push([h("span", { translate: "no" }, name), [r.ok === false ? t("FAULT") : t("ok"),
        r.message ? h("span", { translate: "no" }, " · " + r.message) : null]]);
    }
    const enr = await admin("enrollment");
    replace("enrollment", enr.available
      ? h("div", {}, t("{n} of {total} tiles registered", { n: enr.enrolled ?? "?", total: enr.total ?? "?" }),
        enr.missing && enr.missing.length ? h("div", { class: "muted" }, t("missing: {tiles}", { tiles: enr.missing.join(" ") })) : null)
      // the registry's own message and note (the service's words, English as in the CLI)
      : enr.message ? h("span", { class: "muted", translate: "no" }, enr.message) : h("span", { class: "muted" }, t("no registry")),
      enr.note ? h("div", { class: "muted", translate: "no" }, enr.note) : null);
    replace("health", rows.flatMap(([k, v]) => [h("span", { class: "muted" }, k),
      h("span", {}, typeof v === "object" && v !== null ? v : String(v))]));
  } catch (e) {
    replace("health", h("span", { class: "error" }, peopleText(e)));
  }
}

async function loadLinks() {
  const cards = [];
  let hint = null;
  for (const p of [1, 2, 3, 4]) {
    try {
      const link = await admin(`seats/${p}/link`);
      hint = hint || link.hint;
      const res = await fetch(`/api/admin/seats/${p}/qr.svg`, { headers: { Authorization: `Bearer ${token}` } });
      if (!res.ok) throw Object.assign(new Error(res.statusText), { status: res.status });
      const box = h("div", {});
      box.innerHTML = await res.text(); // the service's own SVG
      const shown = link.url.replace(/#token=.*/, "#token=…");
      cards.push(h("div", { class: "qr" + (link.reachable ? "" : " unreachable") }, h("b", {}, names(p)), box,
        h("div", { class: "qr-url", translate: "no", title: t("the address the phone opens (its token is hidden here)") }, shown)));
    } catch (e) {
      cards.push(h("div", { class: "qr" }, `${names(p)}: ${peopleText(e)}`));
    }
  }
  // The hint marks commands and settings with backticks: shown as code.
  // (the hint is the service's words, controller/web/links.py: English, as in its log)
  const words = hint ? h("span", { translate: "no" }, hint.split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part))) : null;
  replace("reach", hint ? h("div", { class: "warn", role: "alert" }, h("b", {}, t("Phones cannot open these links yet.") + " "), words) : null);
  replace("qrs", cards);
}

// --- the live table -------------------------------------------------------------------------------

livePage("/ws", {
  type: "table",
  token: () => token, // the admin token: the operator's socket is let in even in a crowd
  onView(v) {
    const first = view === null;
    view = v;
    const hand = v.hand;
    replace("handinfo", hand ? `${t("Hand {n}", { n: hand.number })} · ${hand.phase === "deal" ? t("dealing") : hand.phase === "over" ? t("over") : t("in play")}` : "");
    replace("session-state", v.session && v.session.active
      ? h("div", {}, h("b", {}, t("running: {ruleset}", { ruleset: rulesetWord(v.session.ruleset) })), h("div", { class: "opts" },
        Object.entries(v.session.options || {}).map(([k, val], i) => [i ? " · " : "",
          // option names and their values as the rule set has them (identifiers: RULES.md)
          h("span", { translate: "no" }, `${words(k)}: `),
          typeof val === "boolean" ? (val ? t("yes") : t("no"))
            : typeof val === "object" && !Object.keys(val || {}).length ? t("none")
              : h("span", { translate: "no" }, typeof val === "object" ? JSON.stringify(val) : String(val).replace(/_/g, " "))])))
      : t("no session running"));
    if (first) pickers();
    followRunning();
    update();
    soon();
  },
});

$("tokens-cmd").textContent = "mahjong-table tokens --data-dir DIR";
pickers();
update();
const fromLink = linkToken();
const saved = storedToken(KEY);
if (fromLink) logIn(fromLink, "link");
else if (saved) logIn(saved, "saved");
else showLogin(null);
