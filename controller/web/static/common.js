// Shared by the pages: a self-reconnecting WebSocket, token handling, API calls, small helpers.
"use strict";

export const WINDS = { east: "E", south: "S", west: "W", north: "N" };

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
 * The page's token: from the URL fragment (#token=...; a fragment is never sent to the
 * server, so it cannot land in a log), remembered in localStorage under `key`.
 */
export function pageToken(key) {
  const m = location.hash.match(/token=([^&]+)/);
  if (m) {
    localStorage.setItem(key, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname);
  }
  return localStorage.getItem(key);
}

export async function api(path, { method = "GET", token = null, body = undefined } = {}) {
  const headers = { Accept: "application/json" };
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
    throw err;
  }
  return data;
}

/**
 * A WebSocket that reconnects by itself (1 s, 2 s, ... up to 10 s). `first` is sent on open
 * (the seat token). onStatus gets "live" | "connecting" | "refused: ...".
 */
export function liveSocket(path, { onMessage, onStatus, first = null }) {
  let delay = 1000;
  let stopped = false;
  // flow=ack: this page acknowledges each message, so the service never lets states pile up.
  const url = () => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}?flow=ack`;
  function open() {
    onStatus && onStatus("connecting");
    const ws = new WebSocket(url());
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
        onStatus && onStatus(`refused: ${ev.reason || "not allowed"}`);
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
  node.textContent = status === "live" ? "live" : status;
  node.className = "conn " + (status === "live" ? "ok" : status.startsWith("refused") ? "bad" : "wait");
}

export function signed(n) {
  return n > 0 ? `+${n}` : `${n}`;
}

export function seatLabel(view, pos) {
  const seat = view && view.hand && view.hand.seats && view.hand.seats[String(pos)];
  const wind = seat && seat.wind ? seat.wind : "";
  const name = (view && view.players && view.players[String(pos)]) || `Seat ${pos}`;
  return wind ? `${name} · ${wind}` : name;
}
