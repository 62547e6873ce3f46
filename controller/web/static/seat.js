// A seat's phone page: own hand and waits, and the claim / ready / Mahjong buttons. The seat
// token comes in the link's fragment (#token=...), is kept in localStorage and sent as the
// socket's first message and as a Bearer header, never in a URL the server sees.
"use strict";

import { api, h, liveSocket, replace, signed, statusBadge, syncClock } from "./common.js";
import { tiles } from "./tiles.js";

const position = Number(location.pathname.split("/").pop());
const token = pageToken();
let seat = null;

function pageToken() {
  const key = `seat-token-${position}`;
  const m = location.hash.match(/token=([^&]+)/);
  if (m) {
    localStorage.setItem(key, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname);
  }
  return localStorage.getItem(key);
}

function flash(text, ok) {
  const node = document.getElementById("flash");
  node.textContent = text;
  node.className = "flash " + (ok ? "ok" : "bad");
}

async function declare(call) {
  try {
    await api(`/api/seats/${position}/declare`, { method: "POST", token, body: { call } });
    flash(`${call}: accepted`, true);
  } catch (e) {
    flash(e.message, false);
  }
}

function render() {
  const table = seat.table || {};
  const hand = table.hand || {};
  const pub = (hand.seats || {})[String(position)] || {};
  document.getElementById("title").textContent = `Seat ${position}${seat.wind ? " · " + seat.wind : ""}`;
  replace("handinfo", hand.number ? `Hand ${hand.number} · ${hand.prevailing_wind} round` : "");
  replace("hand", seat.hand && seat.hand.length ? tiles(seat.hand) : h("span", { class: "muted" }, "no tiles"));
  replace("melds", (seat.melds || []).map((m) => tiles(m.tiles, { rowCls: "meld" })),
    seat.bonus && seat.bonus.length ? tiles(seat.bonus, { rowCls: "bonus" }) : null);
  replace("waits", seat.waits && seat.waits.length ? tiles(seat.waits) : h("span", { class: "muted" }, "not waiting yet"));
  const d = hand.discard;
  // A discard already on a claimant's strip is listed there only (not as hand.discard); it can
  // still be claimed by a call that outranks that claim.
  const live = d || (hand.claim && hand.claim.discard);
  const inPlay = hand.phase === "play" || hand.phase === "deal";
  document.getElementById("claim").disabled = !(inPlay && hand.claim_window && live && live.seat !== position);
  document.getElementById("ready").disabled = !inPlay || seat.ready || !(seat.waits && seat.waits.length);
  document.getElementById("ready").textContent = seat.ready ? "Ready ✓" : "Ready";
  document.getElementById("mahjong").disabled = !inPlay;
  const total = (table.totals || {})[String(position)] ?? 0;
  const result = hand.phase === "over" ? hand.result : null;
  const me = String(position);
  replace("notice", result ? h("div", { class: "panel over-note" },
    h("b", {}, result.result === "washout" ? "Washout: no scores" : String(result.winner) === me ? "You won!" : `Mahjong: ${(table.players || {})[String(result.winner)] || "seat " + result.winner}`),
    result.result === "washout" ? null : h("div", {}, `your hand scores ${(result.scores || {})[me] ?? 0}, net `,
      h("span", { class: ((result.net || {})[me] ?? 0) >= 0 ? "pos" : "neg" }, signed((result.net || {})[me] ?? 0)))) : null);
  replace("table",
    h("div", { class: "kv" },
      h("span", {}, "turn"), h("span", {}, hand.turn ? `${(table.players || {})[String(hand.turn)] || "seat " + hand.turn}${hand.turn === position ? " (you)" : ""}${hand.step ? " · " + hand.step : ""}` : "–"),
      h("span", {}, "discard"), h("span", {}, d ? tiles([d.tile], { rowCls: "small" }) : "–"),
      h("span", {}, "wall"), h("span", {}, `${hand.live_wall ?? "–"}`),
      h("span", {}, "my total"), h("span", { class: total >= 0 ? "pos" : "neg" }, signed(total)),
      h("span", {}, "my discards"), h("span", {}, tiles(pub.river || [], { rowCls: "small" }))),
    hand.last_violation ? h("div", { class: "violation" }, h("b", {}, hand.last_violation.rule), " ", hand.last_violation.message || "") : null);
}

for (const call of ["claim", "ready", "mahjong"]) {
  document.getElementById(call).addEventListener("click", () => declare(call));
}

if (!token) {
  replace("notice", h("p", { class: "error panel" },
    "This page needs the seat's link with its token: scan the QR code on the operator page."));
  statusBadge("conn", "refused: no token");
} else {
  liveSocket(`/ws/seats/${position}`, {
    first: { token },
    onMessage(msg) {
      if (msg.type !== "seat") return;
      syncClock(msg.server_time);
      seat = msg.seat;
      render();
    },
    onStatus: (s) => statusBadge("conn", s),
  });
}
