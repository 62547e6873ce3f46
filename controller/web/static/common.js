// Shared by the pages: a self-reconnecting WebSocket, token handling, API calls, small helpers.
"use strict";

import { lang, num, t, term } from "./i18n.js";
import { ruleWords } from "./rules.js";

export { lang, num, t, term, tn, tx, when } from "./i18n.js";

/** h("div", {class: "x"}, "text", child) -> element. */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return node;
}

export function replace(id, ...children) {
  const node = document.getElementById(id);
  if (node) node.replaceChildren(...children.flat(Infinity).filter((c) => c));
  return node;
}

/**
 * Tokens. A link carries its token in the URL fragment (#token=...; a fragment is never sent to
 * the server, so it cannot land in a log). linkToken() takes it out of the address bar; the page
 * keeps it (keepToken) only once the service has accepted it, so a wrong token is never stored.
 */
export function linkToken() {
  const m = location.hash.match(/token=([^&]+)/);
  if (!m) return null;
  history.replaceState(null, "", location.pathname + location.search);
  return decodeURIComponent(m[1]);
}
export function storedToken(key) { return localStorage.getItem(key); }
export function keepToken(key, token) { localStorage.setItem(key, token); }
export function forgetToken(key) { localStorage.removeItem(key); }

export async function api(path, { method = "GET", token = null, body = undefined } = {}) {
  // The server's words (the operator's recent steps, the undo preview) in the page's language.
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (_) { data = null; }
  if (!res.ok) {
    const detail = data && data.detail;
    const msg = typeof detail === "string" ? detail : Array.isArray(detail)
      ? detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ") : res.statusText;
    const err = new Error(msg || `HTTP ${res.status}`);
    err.status = res.status;
    err.data = data;
    throw err;
  }
  return data;
}

/** An error from api() in words for the people at the table, not for developers. */
export function peopleText(e, who = "admin") {
  if (!e || e.status === undefined) return t("Cannot reach the service: is it running? The page tries again by itself.");
  if (e.status === 401) return who === "admin" ? t("The admin token was not accepted: log in again.")
    : t("This page's link is not (or no longer) the link of this seat: scan the seat's code again.");
  const v = e.data && e.data.violation;
  if (e.status === 409 && v && (v.message || v.rule)) return violationText(v);
  if (e.status === 503) return t("Nothing is recorded right now: {why}", { why: e.message });
  if (e.status === 422) return t("That entry is not valid: check the fields and try again.");
  return e.message;
}

/**
 * A WebSocket that reconnects by itself (1 s, 2 s, ... up to 10 s). `first` is sent on open
 * (the seat token). `token()` (if given) is shown at the handshake as the subprotocol
 * token.TOKEN: a token holder's socket gets in even when anonymous ones fill the service's
 * share. onStatus gets "live" | "connecting" | "refused: ...".
 */
export function liveSocket(path, { onMessage, onStatus, first = null, token = null }) {
  let delay = 1000;
  let stopped = false;
  // flow=ack: this page acknowledges each message, so the service never lets states pile up.
  const url = () => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}?flow=ack`;
  function open() {
    onStatus && onStatus("connecting");
    const shown = token ? token() : null;
    const ws = shown ? new WebSocket(url(), ["mahjong-table", `token.${shown}`]) : new WebSocket(url());
    ws.onopen = () => {
      if (first) ws.send(JSON.stringify(first));
    };
    ws.onmessage = (ev) => {
      delay = 1000;
      onStatus && onStatus("live");
      try { onMessage(JSON.parse(ev.data)); } catch (e) { console.error(e); }
      // Acknowledge: the service then sends the latest state, never a stale backlog.
      if (ws.readyState === WebSocket.OPEN) ws.send('{"ack":1}');
    };
    ws.onclose = (ev) => {
      if (ev.code === 4401 || ev.code === 4404) {
        stopped = true;
        onStatus && onStatus(`refused: ${ev.reason || t("not allowed")}`);
        return;
      }
      if (stopped) return;
      onStatus && onStatus("connecting");
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 10000);
    };
  }
  open();
  return { stop() { stopped = true; } };
}

/**
 * The one live connection of every page: a self-reconnecting socket to `path` that passes the
 * messages of `type` (table | seat) to onView, keeps the clock in step, shows the connection
 * badge (#conn) and the "not recording" banner (#halted). onRefused(reason) when the service
 * closes the socket for a wrong token.
 */
export function livePage(path, { type, onView, first = null, onRefused = null, token = null }) {
  return liveSocket(path, {
    first,
    token,
    onMessage(msg) {
      if (msg.type !== type) return;
      syncClock(msg.server_time);
      const view = msg[type];
      const table = type === "table" ? view : view.table || {};
      const halted = document.getElementById("halted");
      const why = table.service && table.service.halted;
      if (halted) {
        halted.hidden = !why;
        halted.textContent = why ? t("Not recording moves: {why}", { why }) : "";
      }
      onView(view);
    },
    onStatus(s) {
      statusBadge("conn", s);
      if (s.startsWith("refused") && onRefused) onRefused(s.slice(9));
    },
  });
}

/** Server time minus local time, so countdowns follow the service's clock. */
let skew = 0;
export function syncClock(serverTime) {
  if (typeof serverTime === "number") skew = serverTime - Date.now() / 1000;
}
export function secondsLeft(deadline) {
  if (typeof deadline !== "number") return null;
  return deadline - (Date.now() / 1000 + skew);
}

export function statusBadge(id, status) {
  const node = document.getElementById(id);
  if (!node) return;
  node.textContent = status === "live" ? t("live") : status === "connecting" ? t("connecting")
    : status.startsWith("refused") ? t("refused: {why}", { why: status.slice(9) }) : status;
  node.className = "conn " + (status === "live" ? "ok" : status.startsWith("refused") ? "bad" : "wait");
}

export function signed(n) {
  return n > 0 ? `+${num(n)}` : n < 0 ? `-${num(-n)}` : num(0);
}

export const WIND_NAMES = ["east", "south", "west", "north"];

/** A seat's or the round's wind as the contract names it ("east") in the page's words. */
export function windWord(wind) {
  return wind ? term(wind) : "";
}

/** A wind's one letter (the seat's badge on the board and the review) in the page's words. */
export function windLetter(wind) {
  return { east: t("E"), south: t("S"), west: t("W"), north: t("N") }[wind] || "?";
}

/** A player's name as the service gives it; an unnamed seat ("Seat 2", or none) in the page's
 *  words. */
export function personName(name, pos) {
  return name && name !== `Seat ${pos}` ? name : t("Seat {n}", { n: pos });
}

export function seatLabel(view, pos) {
  const seat = view && view.hand && view.hand.seats && view.hand.seats[String(pos)];
  const wind = seat && seat.wind ? windWord(seat.wind) : "";
  const name = personName(view && view.players && view.players[String(pos)], pos);
  return wind ? `${name} · ${wind}` : name;
}

/** A rule set's name (as the API has it) in the page's words. */
export function rulesetWord(name) {
  return { "hua-bao": t("hua-bao"), swedish: t("swedish"), dmjl: t("dmjl"), bmja: t("bmja"), mcr: t("mcr"),
    riichi: t("riichi (EMA)") }[name] || name || "";
}

/** A violation in the page's words: the rule's sentence (rules.js) in the page's language;
 *  on an English page the engine's own message, which names the particulars. */
export function violationText(v) {
  if (!v) return "";
  if (lang() === "en" && v.message) return v.message;
  return ruleWords(v.rule) || v.message || "";
}

/** A short message that clears itself after `seconds` (never stays for hands on end). */
export function flashIn(id, text, ok, seconds = 6) {
  const node = document.getElementById(id);
  if (!node) return;
  node.textContent = text;
  node.className = "flash " + (ok ? "ok" : "bad");
  clearTimeout(node._clear);
  node._clear = setTimeout(() => { node.textContent = ""; node.className = "flash"; }, seconds * 1000);
}
