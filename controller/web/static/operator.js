// The operator page: sessions, corrections, service and reader health, enrollment progress and
// the seats' QR links. Every call carries the admin token (from #token=... or typed in).
"use strict";

import { api, h, liveSocket, pageToken, replace, statusBadge } from "./common.js";

let token = pageToken("admin-token");
const ZONES = ["rack:1", "rack:2", "rack:3", "rack:4", "melds:1", "melds:2", "melds:3", "melds:4", "discard", "river"];

function flash(text, ok) {
  const node = document.getElementById("flash");
  node.textContent = text;
  node.className = "flash " + (ok ? "ok" : "bad");
}

async function admin(path, method = "GET", body = undefined) {
  try {
    return await api(`/api/admin/${path}`, { method, token, body });
  } catch (e) {
    if (e.status === 401) showLogin();
    throw e;
  }
}

async function act(label, path, body, method = "POST") {
  try {
    await admin(path, method, body);
    flash(`${label}: done`, true);
  } catch (e) {
    flash(`${label}: ${e.message}`, false);
  }
}

function showLogin() {
  document.getElementById("login").hidden = false;
}

function on(id, event, fn) {
  document.getElementById(id).addEventListener(event, (ev) => { ev.preventDefault(); fn(); });
}

on("login-form", "submit", () => {
  token = document.getElementById("token-input").value.trim();
  localStorage.setItem("admin-token", token);
  document.getElementById("login").hidden = true;
  refresh();
  loadQrs();
});
on("session-form", "submit", () => {
  let options = {};
  const text = document.getElementById("options").value.trim();
  if (text) {
    try { options = JSON.parse(text); } catch (_) { flash("options: not valid JSON, e.g. {\"limit\": 500}", false); return; }
  }
  act("start session", "session", { ruleset: document.getElementById("ruleset").value, options });
});
on("stop", "click", () => {
  if (confirm("Stop the session? Its log is kept; the table stops taking moves.")) act("stop session", "session", undefined, "DELETE");
});
on("undo-form", "submit", () => act("undo", "undo", { count: Number(document.getElementById("undo-n").value) }));
on("reassign-form", "submit", () => act("reassign", "reassign", {
  zone: document.getElementById("re-zone").value, tile: document.getElementById("re-tile").value.trim(),
  as: document.getElementById("re-as").value.trim(),
}));
on("washout", "click", () => {
  if (confirm("End the hand in play as a washout?")) act("end hand", "end-hand", { result: "washout" });
});
document.getElementById("re-zone").replaceChildren(...ZONES.map((z) => h("option", {}, z)));

async function refresh() {
  try {
    const health = await api("/api/health");
    const rows = [["recording", health.halted ? `NO: ${health.halted}` : "yes"],
      ["session", health.session_active ? "running" : "stopped"], ["events", health.seq],
      ["clients", health.clients], ["queue", health.queue_depth], ["uptime", `${Math.round(health.uptime)} s`]];
    if (token) {
      const readers = await admin("readers");
      rows.push(["backend", readers.backend]);
      for (const [name, r] of Object.entries(readers.readers || {}).sort(([a], [b]) => a.localeCompare(b))) {
        rows.push([name, `${r.ok === false ? "FAULT" : "ok"}${r.message ? " · " + r.message : ""}`]);
      }
      const enr = await admin("enrollment");
      replace("enrollment", enr.available
        ? h("div", {}, `${enr.enrolled ?? "?"} of ${enr.total ?? "?"} tiles registered`, enr.missing && enr.missing.length ? h("div", { class: "muted" }, `missing: ${enr.missing.join(" ")}`) : null)
        : h("span", { class: "muted" }, enr.message || "no registry"),
        enr.note ? h("div", { class: "muted" }, enr.note) : null);
    }
    replace("health", rows.flatMap(([k, v]) => [h("span", { class: "muted" }, k), h("span", {}, String(v))]));
  } catch (e) {
    replace("health", h("span", { class: "error" }, e.message));
  }
}

async function loadQrs() {
  if (!token) return;
  const cards = [];
  for (const p of [1, 2, 3, 4]) {
    try {
      const res = await fetch(`/api/admin/seats/${p}/qr.svg`, { headers: { Authorization: `Bearer ${token}` } });
      if (!res.ok) throw new Error(res.status === 401 ? "admin token needed" : res.statusText);
      const card = h("div", { class: "qr" }, h("b", {}, `Seat ${p}`));
      const box = h("div", {});
      box.innerHTML = await res.text(); // the service's own SVG
      card.appendChild(box);
      cards.push(card);
    } catch (e) {
      cards.push(h("div", { class: "qr" }, `Seat ${p}: ${e.message}`));
    }
  }
  replace("qrs", cards);
}

liveSocket("/ws", {
  onMessage(msg) {
    if (msg.type !== "table") return;
    const v = msg.table;
    const halted = document.getElementById("halted");
    halted.hidden = !(v.service && v.service.halted);
    halted.textContent = v.service && v.service.halted ? `Not recording moves: ${v.service.halted}` : "";
    const hand = v.hand;
    replace("handinfo", hand ? `Hand ${hand.number} · ${hand.phase}` : "");
    replace("session-state", v.session && v.session.active
      ? h("div", {}, h("b", {}, `running: ${v.session.ruleset}`), h("div", { class: "opts" },
        Object.entries(v.session.options || {}).map(([k, val]) => `${k}=${JSON.stringify(val)}`).join("  ")))
      : "no session running");
  },
  onStatus: (s) => statusBadge("conn", s),
});

if (!token) showLogin();
refresh();
loadQrs();
setInterval(refresh, 3000);
