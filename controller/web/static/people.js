// Players by name, penalties, the club's round timer and the past sessions: one module for the
// dashboard, the seat page and the operator page (which part runs is chosen by the page).
// It reads the public /api/table every two seconds; a seat or operator call carries the token
// the page already keeps (localStorage), never in a URL.
"use strict";

import { api, h, num, personName, replace, rulesetWord, secondsLeft, signed, t, term, tn, tx, when } from "./common.js";
import { handLabels, historyList, seatWords } from "./results.js";

const POS = ["1", "2", "3", "4"];
let view = null;

// This module's own styles (kept here so the shared style sheet stays as it is).
document.head.append(h("style", {}, `
.club-round { font-size: 1.4rem; margin: .4rem 0; }
.club-round.over { background: #fde2d6; color: #1b1b1b; }
ol.past li { margin: .3rem 0; }
#join input { font-size: 1.1rem; }`));

function nameOf(p) {
  return personName(view && view.players && view.players[String(p)], p);
}

async function refresh(then) {
  try {
    view = await api("/api/table");
    then();
  } catch (_) { /* the page's own socket shows the connection state */ }
}

function penaltyLine(p, i) {
  const names = (s) => {
    const named = p.names && p.names[String(s)];
    return named && named !== `Seat ${s}` ? named : nameOf(s);
  };
  const what = p.kind === "deduction" ? t("{who} loses {amount} (deduction)", { who: names(p.seat), amount: num(p.amount) })
    : p.kind === "chombo" ? t("{who}: the hand is void and replayed, 20 off the result", { who: names(p.seat) })
      : p.payments.map((x) => t("{payer} pays {payee} {amount}", { payer: names(x.from), payee: names(x.to), amount: num(x.amount) })).join(", ");
  const label = { false_mahjong: t("false Mahjong"), transfer: t("transfer"), deduction: t("deduction"), chombo: term("chombo") }[p.kind] || p.kind;
  return h("li", { class: p.cancelled ? "muted" : "" },
    t("Penalty {n} ({kind}, hand {hand}): {what}", { n: i + 1, kind: label, hand: p.hand, what })
    + (p.reason ? " · " + p.reason : "") + (p.cancelled ? " · " + t("taken back") : ""));
}

function roundBanner() {
  const r = view && view.round;
  if (!r || !r.round) return null;
  const left = secondsLeft(r.ends_at);
  const text = left === null ? "" : left > 0
    ? t("{time} left", { time: `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")}` })
    : t("time is up: the hand in play is the round's last");
  return h("div", { class: "panel club-round" + (left !== null && left <= 0 ? " over" : ""), id: "round-banner" },
    h("b", {}, t("Round {n}", { n: r.round })), " · ", h("span", { class: "round-left" }, text));
}

function penaltiesAndDeductions() {
  const list = (view && view.penalties) || [];
  if (!list.length) return null;
  const ded = (view && view.deductions) || {};
  // By seat: a seat's holder may have changed (each deduction's line names who it was for).
  const apart = POS.filter((p) => ded[p]).map((p) => `${t("seat {n}", { n: p })} −${num(ded[p])}`).join(", ");
  return h("div", {}, h("h3", {}, t("Penalties")), h("ol", { class: "penalties" }, list.map(penaltyLine)),
    apart ? h("p", {}, t("Deductions (apart from the totals): {list}", { list: apart })) : null);
}

// --- the dashboard -----------------------------------------------------------------------------

async function openSession(id, box) {
  const s = await api(`/api/sessions/${id}`);
  const current = (p) => personName(s.names && s.names[String(p)], p);
  box.replaceChildren(
    h("p", {}, h("a", { href: `/api/sessions/${id}/export?format=csv`, download: `session-${id}.csv` }, t("export CSV")),
      " · ", h("a", { href: `/api/sessions/${id}/export?format=jsonl`, download: `session-${id}.jsonl` }, t("export JSON lines"))),
    s.hands.length ? h("p", {}, h("a", { href: `/review/${id}/1` }, t("review the hands step by step"))) : null,
    s.hands.length ? historyList({ hands: s.hands }, current, (i) => `/review/${id}/${i}`) : h("p", { class: "muted" }, t("no finished hand")),
    (s.penalties || []).length ? h("ol", {}, s.penalties.map(penaltyLine)) : null);
}

async function loadPast() {
  const data = await api("/api/sessions");
  const rows = data.sessions.map((s) => {
    const box = h("div", { class: "past-body" });
    // Four places; a seat whose holder changed lists each holder's part (docs/club.md).
    // riichi: each place's points and result in thousands (RULES.md 11), not the nets
    const finals = (s.places || []).map((x) => `${x.place}. ` + x.holders.map((y) => `${seatWords(y.label)}` + (x.final_points != null && x.holders.length === 1
      ? ` ${num(Number(x.final_points))} (${signed(x.result)})` : ` ${signed(y.score)}`)).join(" + ")).join(" · ")
      + (s.finished ? "" : " " + t("(provisional)"));
    return h("li", { "data-session": s.session },
      h("button", { class: "linkish", onclick: () => (box.childNodes.length ? box.replaceChildren() : openSession(s.session, box)) },
        [when(s.started), rulesetWord(s.ruleset), tn("{n} hand", "{n} hands", s.hands), s.ended ? "" : t("running")].filter(Boolean).join(" · ")),
      h("div", { class: "muted" }, finals),
      s.damaged ? h("div", { class: "error" }, t("damaged log: {why}; the hands before it are shown (mahjong-table recover)", { why: s.damaged })) : null,
      box);
  });
  replace("past", rows.length ? h("ol", { class: "past" }, rows) : h("p", { class: "muted" }, t("no session yet")));
}

function tablePage() {
  const main = document.querySelector("main");
  main.prepend(h("div", { id: "club-round" }));
  main.append(h("section", { class: "session" }, h("div", { id: "penalty-box" })),
    h("section", { class: "session", id: "past-sessions" }, h("h2", {}, t("Past sessions")), h("div", { id: "past" })));
  let hands = -1;
  const tick = () => refresh(() => {
    replace("club-round", roundBanner());
    replace("penalty-box", penaltiesAndDeductions());
    const count = `${(view.hands || []).length}/${(view.session || {}).ruleset}/${(view.session || {}).active}`;
    if (count !== hands) { hands = count; loadPast().catch(() => {}); }
  });
  tick();
  setInterval(tick, 2000);
}

// --- the seat page: "who is playing here?" -------------------------------------------------------

function seatPage() {
  const position = Number(location.pathname.split("/").pop());
  // Read when needed: the seat page keeps the token once the service has accepted it.
  const token = () => localStorage.getItem(`seat-token-${position}`);
  const main = document.querySelector("main");
  main.prepend(h("div", { id: "club-round" }), h("section", { class: "panel", id: "join" }));
  let roster = [];
  api("/api/roster").then((r) => { roster = r.players; }).catch(() => {});
  let editing = false;
  const form = () => {
    const input = h("input", { id: "join-name", list: "join-roster", maxlength: "40", placeholder: t("your name"), autocomplete: "off" });
    const msg = h("span", { class: "join-msg" });
    const send = async (ev) => {
      ev.preventDefault();
      try {
        await api(`/api/seats/${position}/player`, { method: "POST", token: token(), body: { name: input.value.trim() } });
        editing = false;
        refresh(draw);
      } catch (e) { msg.textContent = e.status === 401 ? t("this page needs the seat's link (scan its QR code)") : e.message; }
    };
    return h("form", { onsubmit: send }, h("label", { for: "join-name" }, t("Who is playing here?") + " "), input,
      h("datalist", { id: "join-roster" }, roster.map((n) => h("option", { value: n }))),
      h("button", { type: "submit", id: "join-button" }, t("Join")), " ", msg);
  };
  const draw = () => {
    replace("club-round", roundBanner());
    const mine = view && view.names && view.names[String(position)];
    const button = document.getElementById("join-button");
    if (button) button.disabled = !token();
    if (editing) return;
    if (!mine) { editing = true; replace("join", form()); draw(); return; }
    replace("join", h("div", { id: "joined" }, tx("{name} plays here", { name: h("b", {}, mine) }), " ",
      h("button", { type: "button", class: "linkish", onclick: () => { editing = true; replace("join", form()); draw(); } }, t("not you?"))));
  };
  refresh(draw);
  setInterval(() => refresh(draw), 2000);
}

// --- the operator page: names and penalties -------------------------------------------------------

function operatorPage() {
  const token = () => localStorage.getItem("admin-token");
  const main = document.querySelector("main");
  const msg = h("p", { id: "people-msg" });
  const say = (t) => { msg.textContent = t; };
  const call = async (method, path, body) => {
    try { await api(path, { method, token: token(), body }); say(t("done")); refresh(draw); }
    catch (e) { say(e.status === 401 ? t("log in with the admin token first") : e.message); }
  };
  const seatSel = (id) => h("select", { id }, POS.map((p) => h("option", { value: p }, t("seat {n}", { n: p }))));
  const nameIn = h("input", { id: "assign-name", maxlength: "40", placeholder: t("name (empty frees the seat)") });
  const amount = h("input", { id: "penalty-amount", type: "number", min: "1", placeholder: t("amount") });
  const kind = h("select", { id: "penalty-kind" }, [["transfer", t("transfer: pays")], ["false_mahjong", t("false Mahjong: pays each other player")], ["deduction", t("deduction from the score")],
    ["chombo", t("chombo: hand replayed, 20 off the result")]].map(([v, l]) => h("option", { value: v }, l)));
  const reason = h("input", { id: "penalty-reason", maxlength: "200", placeholder: t("reason") });
  // (not inside the tx() below: pybabel does not extract a t() in another call's arguments)
  const fromIn = h("input", { id: "holder-from", type: "number", min: "1", placeholder: t("first hand") });
  const toIn = h("input", { id: "holder-to", type: "number", min: "1", placeholder: t("(last)") });
  main.append(h("section", { class: "panel", id: "people" },
    h("h2", {}, t("Players")), h("div", { id: "people-names" }),
    h("div", {}, seatSel("assign-seat"), nameIn, h("button", { type: "button", id: "assign", onclick: () =>
      call("POST", "/api/admin/players", { seat: Number(document.getElementById("assign-seat").value), name: nameIn.value.trim() || null }) }, t("Seat"))),
    h("div", {}, tx("Swap {a} and {b}", { a: seatSel("swap-a"), b: seatSel("swap-b") }), h("button", { type: "button", id: "swap", onclick: () =>
      call("POST", "/api/admin/players/swap", { a: Number(document.getElementById("swap-a").value), b: Number(document.getElementById("swap-b").value) }) }, t("Swap"))),
    h("h3", {}, t("Who held a seat from which hand")),
    h("p", { class: "muted" }, t("A correction in the log: the finished hands from this hand on (to the last one given, or while the seat's record names the same holder) become this holder's; hands just before it recorded as theirs go back to the seat's holder before them. Empty name: nobody named.")),
    h("div", {}, seatSel("holder-seat"), h("input", { id: "holder-name", maxlength: "40", placeholder: t("name (empty: nobody named)") }),
      " ", tx("from hand {from} to {to}", { from: fromIn, to: toIn }),
      h("button", { type: "button", id: "holder-give", onclick: () => {
        const val = (id) => document.getElementById(id).value;
        const body = { seat: Number(val("holder-seat")), name: val("holder-name").trim() || null, from: Number(val("holder-from")) };
        if (val("holder-to")) body.to = Number(val("holder-to"));
        call("POST", "/api/admin/holder", body);
      } }, t("Correct"))),
    h("h2", {}, t("Penalty")),
    h("div", {}, kind, " ", seatSel("penalty-seat"), " ", h("span", { id: "penalty-to-part" }, tx("to {to}", { to: seatSel("penalty-to") })), " ", amount, " ", reason,
      h("button", { type: "button", id: "penalty-give", onclick: () => {
        const k = kind.value;
        const body = { kind: k, reason: reason.value.trim() || null };
        const seat = Number(document.getElementById("penalty-seat").value);
        if (k === "transfer") { body.from = seat; body.to = Number(document.getElementById("penalty-to").value); } else body.seat = seat;
        if (amount.value && k !== "chombo") body.amount = Number(amount.value);
        call("POST", "/api/admin/penalty", body);
      } }, t("Give"))),
    h("div", { id: "penalty-list" }), msg));
  kind.onchange = () => draw();
  const draw = () => {
    replace("people-names", h("p", {}, POS.map((p) => `${p}: ${nameOf(p)}`).join(" · ")));
    // chombo is riichi's penalty (RULES.md 11): offered, and first, in a riichi session only
    const riichi = ((view && view.session) || {}).ruleset === "riichi";
    const chombo = kind.querySelector("option[value='chombo']");
    chombo.hidden = chombo.disabled = !riichi;
    if (riichi && !kind.dataset.riichi) { kind.dataset.riichi = "1"; kind.value = "chombo"; }
    if (!riichi && kind.value === "chombo") kind.value = "transfer";
    const k = kind.value;
    document.getElementById("penalty-to-part").hidden = k !== "transfer";
    amount.hidden = k === "chombo";
    const list = (view && view.penalties) || [];
    replace("penalty-list", h("ol", {}, list.map((p, i) => {
      const li = penaltyLine(p, i);
      // a chombo voided its hand: an undo (Take back moves) brings both back
      if (!p.cancelled && p.kind === "chombo") li.append(" ", h("span", { class: "muted" }, t("(an undo takes it back)")));
      else if (!p.cancelled) li.append(" ", h("button", { type: "button", class: "linkish", onclick: () => call("DELETE", `/api/admin/penalty/${i + 1}`) }, t("take back")));
      return li;
    })));
  };
  refresh(draw);
  setInterval(() => refresh(draw), 3000);
}

const page = document.body.classList;
if (page.contains("table-page")) tablePage();
else if (page.contains("seat-page")) seatPage();
else operatorPage();
export { handLabels };
