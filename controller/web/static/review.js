// The review of stored hands (issue 25, docs/review.md). /review lists the table's sessions
// and their hands; /review/SESSION/HAND steps through one hand event by event: the board as the
// table showed it after each stored event (the service replays the log through the game and
// sends its own views: this page draws them, it decides nothing), the event in words, the
// violations and corrections where they happened, the result at the end. A slider, buttons,
// the arrow keys and play/pause at a chosen speed. Whose concealed tiles show is the
// service's answer for the token: none (the public), a seat's, or the operator's.
// The fragment says which stored token to use: #seat=N (the seat page's), #operator, or
// #token=TOKEN; no fragment is the public review.
"use strict";

import { api, forgetToken, h, lang, num, personName, replace, rulesetWord, signed, storedToken, t, term, violationText, when, windLetter, windWord } from "./common.js";
import { resultPanel, roundWord } from "./results.js";
import { markRiichiDiscard, pointsEl, riichiCounters, riichiFlag, riichiTitle, tenpaiWord } from "./riichi.js";
import { backs, saying, sortTiles, tile, tiles } from "./tiles.js";

const $ = (id) => document.getElementById(id);

let data = null; // GET /api/review/S/H
let at = 0; // the frame shown
let timer = null;
let analysis = null; // GET /api/review/S/H/analysis, when the service answers it
let diffsOf = null;

// --- whose review ------------------------------------------------------------------------------

function viewerToken() {
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.has("token")) {
    sessionStorage.setItem("review-token", frag.get("token"));
    history.replaceState(null, "", location.pathname + location.search + "#as=link");
  }
  if (frag.has("token") || frag.get("as") === "link") return sessionStorage.getItem("review-token");
  if (frag.has("operator")) return storedToken("admin-token");
  const seat = Number(frag.get("seat"));
  if (seat >= 1 && seat <= 4) return storedToken(`seat-token-${seat}`);
  return null;
}
/** Why a link meant for a seat or the operator shows the public review: no token kept here. */
function missingToken() {
  const frag = new URLSearchParams(location.hash.slice(1));
  if (token || !(frag.has("seat") || frag.has("operator"))) return null;
  return h("p", { class: "muted" }, frag.has("operator")
    ? t("This browser holds no operator token: log in on the operator page, then open the review again. Shown: the public review.")
    : t("This browser holds no token of that seat: open the seat's page from its QR code, then the review from there. Shown: the public review."));
}
const token = viewerToken();
const fragment = location.hash; // kept on the links between the review's pages

// --- the list ---------------------------------------------------------------------------------

function handLink(s, hd) {
  const who = (p) => ((hd.names || {})[String(p)]) || windWord((hd.winds || {})[String(p)]) || t("Seat {n}", { n: p });
  const won = hd.result === "mahjong" ? t("Mahjong: {who}", { who: (hd.winners || [hd.winner]).map(who).join(", ") })
    : hd.result === "washout" ? t("washout") : t("under way");
  return h("li", {}, h("a", { href: `/review/${s.session}/${hd.hand}${fragment}`, class: "hand-link" },
    t("Hand {n}", { n: hd.hand })), ` · ${[roundWord(hd.prevailing_wind), won].filter(Boolean).join(" · ")}`);
}

async function showList() {
  $("list").hidden = false;
  $("to-list").hidden = true;
  replace("handinfo", t("every stored session"));
  try {
    const res = await api("/api/review");
    const cards = res.sessions.map((s) => h("article", { class: "review-session", "data-session": s.session },
      h("h2", {}, [t("Session {n}", { n: s.session }), rulesetWord(s.ruleset), when(s.started)].join(" · ")),
      h("div", { class: "muted" }, Object.entries(s.players || {}).map(([p, n]) => personName(n, p)).join(", "), " · ", s.finished ? t("finished") : t("not finished")),
      s.damaged ? h("div", { class: "error" }, t("Damaged: {why} (the hands before it are listed)", { why: s.damaged })) : null,
      s.hands.length ? h("ol", { class: "hands" }, s.hands.map((hd) => handLink(s, hd)))
        : h("p", { class: "muted" }, t("No hand has finished in this session."))));
    replace("list", cards.length ? cards : h("p", { class: "muted" }, t("No session is stored yet.")));
  } catch (e) {
    replace("list", h("p", { class: "error" }, t("Cannot load the sessions: {why}. Reload the page to try again.", { why: e.message })));
  }
}

// --- the board of one frame -------------------------------------------------------------------

function label(frame, p) {
  const seat = ((frame.hand || {}).seats || {})[String(p)] || {};
  const name = (data.names || {})[String(p)];
  const wind = windWord(seat.wind);
  return name ? `${name} · ${wind}` : (wind ? wind[0].toUpperCase() + wind.slice(1) : personName(null, p));
}

/** A zone as the JSON names it (rack:2, discard, river, wall, melds:3) in the page's words. */
function zoneWords(zone) {
  const [kind, pos] = String(zone || "").split(":");
  const who = pos ? label(data.frames[at] || {}, Number(pos)) : "";
  return { rack: t("{who}'s rack", { who }), melds: t("{who}'s meld strip", { who }), discard: t("the discard pad"),
    river: t("the river"), wall: t("the wall") }[kind] || zone;
}

function meldEl(m) {
  const codes = m.tiles || [];
  if (m.concealed && codes.length === 4) {
    const row = h("span", { class: "tiles meld concealed-kong", title: t("concealed kong of {tile}", { tile: codes[0] }) });
    codes.forEach((c, i) => row.appendChild(tile(i === 0 || i === 3 ? null : c, { back: i === 0 || i === 3 })));
    return row;
  }
  return tiles(codes, { rowCls: `meld ${m.kind || ""}` });
}

function concealedRow(frame, p, seat, hand) {
  const result = hand.phase === "over" && hand.result ? hand.result : null;
  const detail = result ? (result.details || {})[String(p)] : null;
  const own = (frame.own || {})[String(p)];
  if (detail && (detail.hand || !frame.riichi)) {
    const net = (result.net || {})[String(p)] ?? 0;
    return h("span", {}, tiles(sortTiles(detail.hand || []), { rowCls: "revealed" }),
      h("span", { class: "pill" }, num((result.scores || {})[String(p)] ?? 0)),
      h("span", { class: "net " + (net >= 0 ? "pos" : "neg") }, signed(net)));
  }
  if (own) {
    return h("span", { class: "own-tiles", title: t("concealed tiles (shown to you in this review)") },
      tiles(sortTiles(own.hand || []), { rowCls: "own" }),
      (own.waits || []).length ? h("span", { class: "muted waits" }, ` ${t("waits")} `, tiles(own.waits, { rowCls: "mini" })) : null);
  }
  return backs(seat.concealed_count || 0);
}

function seatPanel(frame, p, seat, hand) {
  const r = frame.riichi;
  const names = (q) => label(frame, q);
  const head = h("div", { class: "seat-head" },
    h("span", { class: "wind", title: windWord(seat.wind) }, windLetter(seat.wind)),
    h("span", { class: "seat-name" }, label(frame, p)),
    r ? pointsEl(r, p, names, diffsOf === p, (q) => { diffsOf = diffsOf === q ? null : q; show(at); }) : null,
    hand.dealer === p ? h("span", { class: "flag dealer" }, t("dealer")) : null,
    r ? riichiFlag(r, p) : seat.ready ? h("span", { class: "flag ready" }, t("ready")) : null,
    r && hand.phase === "over" ? tenpaiWord(r, p) : null,
    seat.dead ? h("span", { class: "flag dead" }, t("dead hand")) : null);
  const river = tiles(seat.river || [], { rowCls: "river-tiles" });
  if (r) markRiichiDiscard(river, r, p);
  return [head,
    h("div", { class: "row concealed" }, concealedRow(frame, p, seat, hand)),
    h("div", { class: "row melds" }, (seat.melds || []).map(meldEl),
      (seat.forming || []).length ? tiles(seat.forming, { rowCls: "forming", cls: "forming" }) : null,
      (seat.bonus || []).length ? tiles(seat.bonus, { rowCls: "bonus" }) : null),
    h("div", { class: "row river" }, river)];
}

function centre(frame, hand) {
  const names = (q) => label(frame, q);
  const r = hand.result;
  if (hand.phase === "over" && r) {
    const title = frame.riichi ? riichiTitle(r, names) : r.result === "washout" ? t("Washout") : t("Mahjong: {who}", { who: names(r.winner) });
    return [h("div", { class: "over" }, h("div", { class: "over-title" }, title)),
      frame.riichi ? riichiCounters(frame.riichi, hand) : null];
  }
  const d = hand.discard;
  return [
    hand.phase === "deal" ? h("div", { class: "dealing" }, t("{who} deals", { who: names(hand.dealer) })) : null,
    h("div", { class: "pad" + (hand.claim_window ? " open" : "") },
      d ? tile(d.tile, { cls: "big last" }) : h("span", { class: "muted" }, t("discard pad")),
      d ? h("div", { class: "pad-from" }, t("from {who}", { who: names(d.seat) })) : null,
      (hand.claimants || []).map((c) => h("div", { class: "claimant" }, t("{who} calls {call}", { who: names(c.seat), call: term(c.call) })))),
    frame.riichi ? riichiCounters(frame.riichi, hand) : null,
    h("div", { class: "wall-count" }, h("span", { class: "wall-n" }, hand.live_wall === undefined || hand.live_wall === null ? "–" : num(hand.live_wall)),
      h("span", { class: "wall-l" }, ` ${t("in the wall")}`)),
    (hand.out_of_place || []).length ? h("div", { class: "putback" }, h("b", {}, `${t("Put back:")} `),
      hand.out_of_place.map((m) => h("span", {}, m.tile ? tile(m.tile, { cls: "inline" }) : t("a tile"), ` ${zoneWords(m.zone)} → ${zoneWords(m.back_to)} `))) : null,
  ];
}

function violationEl(frame) {
  const v = frame.violation;
  if (!v) return null;
  return h("div", { class: "violation", role: "alert" }, h("b", {}, term(v.rule)),
    h("span", { class: "v-rule", translate: "no" }, ` (${v.rule})`), h("div", {}, saying(violationText(v))));
}

// --- stepping ---------------------------------------------------------------------------------

function show(i) {
  if (!data || !data.frames.length) return;
  at = Math.max(0, Math.min(data.frames.length - 1, i));
  const frame = data.frames[at];
  const hand = frame.hand;
  const rec = data.record || {};
  replace("handinfo", [t("Session {n}", { n: data.session }), t("hand {n}", { n: data.hand }), roundWord(rec.prevailing_wind),
    rulesetWord(data.ruleset)].filter(Boolean).join(" · "));
  for (const p of [1, 2, 3, 4]) {
    const seat = ((hand || {}).seats || {})[String(p)] || {};
    const node = replace(`seat${p}`, hand ? seatPanel(frame, p, seat, hand) : h("div", { class: "muted" }, personName(null, p)));
    node.classList.toggle("turn", !!hand && hand.turn === p && hand.phase === "play");
    node.classList.toggle("dealer", !!hand && hand.dealer === p);
  }
  replace("centre", hand ? centre(frame, hand) : null);
  const slider = $("slider");
  slider.value = String(at);
  const stepText = t("step {n} of {count}", { n: num(at + 1), count: num(data.frames.length) });
  slider.setAttribute("aria-valuetext", stepText);
  replace("stepno", stepText);
  replace("seqno", `· ${t("event {seq}", { seq: frame.seq })}`);
  $("board").dataset.seq = String(frame.seq);
  $("board").dataset.step = String(at);
  replace("words", h("div", { class: "said" + (frame.kind === "correct" ? " correction" : "") }, saying(frame.words)),
    // the engine's own notes are English (as its violation messages): shown on an English page
    lang() === "en" ? (frame.announcements || []).map((a) => h("div", { class: "announce" }, saying(a))) : null);
  replace("violation", violationEl(frame));
  const over = hand && hand.phase === "over" && hand.result;
  replace("result", over ? resultPanel(hand.result, (q) => label(frame, q), `${t("Hand {n}", { n: data.hand })} · `) : null);
  for (const li of $("log").children) li.classList.toggle("now", Number(li.dataset.step) === at);
  const now = $("log").querySelector("li.now");
  if (now && now.scrollIntoView) now.scrollIntoView({ block: "nearest" });
  showAnalysis(frame);
  const url = new URL(location.href);
  url.searchParams.set("seq", String(frame.seq));
  history.replaceState(null, "", url.pathname + url.search + location.hash);
}

function logList() {
  return data.frames.map((f, i) => h("li", {
    "data-step": i, class: (f.accepted ? "" : "refused ") + (f.kind === "correct" ? "correction" : ""),
    onclick: () => { pause(); show(i); },
  }, saying(f.words)));
}

function play() {
  if (timer) return pause();
  if (at >= data.frames.length - 1) show(0);
  $("play").textContent = `⏸ ${t("pause")}`;
  const tick = () => {
    if (at >= data.frames.length - 1) return pause();
    show(at + 1);
    timer = setTimeout(tick, 1000 / Number($("speed").value));
  };
  timer = setTimeout(tick, 1000 / Number($("speed").value));
}

function pause() {
  clearTimeout(timer);
  timer = null;
  $("play").textContent = `▶ ${t("play")}`;
}

function controls() {
  $("first").onclick = () => { pause(); show(0); };
  $("prev").onclick = () => { pause(); show(at - 1); };
  $("next").onclick = () => { pause(); show(at + 1); };
  $("last").onclick = () => { pause(); show(data.frames.length - 1); };
  $("play").onclick = play;
  $("slider").oninput = (e) => { pause(); show(Number(e.target.value)); };
  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "SELECT" || e.target.tagName === "INPUT" && e.target.type !== "range")) return;
    const go = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: data.frames.length - 1 }[e.key];
    if (go !== undefined) {
      e.preventDefault();
      pause();
      show(go);
    } else if (e.key === " ") {
      e.preventDefault();
      play();
    }
  });
}

// --- the discard analysis (served beside the replay when the service has it) -----------------

async function loadAnalysis(seat) {
  analysis = null;
  try {
    analysis = await api(`/api/review/${data.session}/${data.hand}/analysis?seat=${seat}`, { token });
  } catch (_) {
    analysis = null; // 404 (no analysis here) or 403 (not this viewer's): no panel
  }
  $("analysis").hidden = !analysis;
  if (analysis) show(at);
}

function bestEl(b) {
  return h("span", { class: "best" }, tile(b.tile, { cls: "inline" }), ` ${num(b.shanten)} / ${num(b.ukeire)} `);
}

function showAnalysis(frame) {
  if (!analysis) return;
  const s = analysis.summary || {};
  replace("analysis-summary", t("kept the best shape in {share} of discards ({kept} of {count})", {
    share: num(s.share || 0, { style: "percent" }), kept: num(s.kept_best ?? 0), count: num(s.discards ?? 0) }));
  const done = (analysis.discards || []).filter((d) => d.seq <= frame.seq);
  const d = done[done.length - 1];
  if (!d) return replace("analysis-now", h("div", { class: "muted" }, t("no discard of this seat yet")));
  const notes = [d.furiten === true ? term("furiten") : null, d.has_yaku === false ? t("no yaku") : null].filter(Boolean);
  replace("analysis-now", h("div", { class: "a-now" + (d.seq === frame.seq ? " this" : "") },
    h("div", {}, `${d.seq === frame.seq ? t("This discard:") : t("Last discard:")} `, tile(d.tile, { cls: "inline" }),
      ` · ${t("shanten {before} → {after} · rank {rank}", { before: num(d.shanten_before), after: num(d.shanten_after), rank: num(d.chosen_rank) })}`,
      d.kept_best ? h("b", { class: "pos" }, ` · ${t("best")}`) : h("b", { class: "neg" }, ` · ${t("not the best")}`)),
    h("div", { class: "muted" }, `${t("best (shanten / tiles that improve):")} `, (d.best || []).map(bestEl)),
    notes.length ? h("div", { class: "neg" }, notes.join(" · ")) : null));
}

function analysisSeats() {
  const v = data.viewer || {};
  const select = $("analysis-seat");
  const seats = v.role === "seat" ? [v.seat] : [1, 2, 3, 4];
  select.replaceChildren(...seats.map((p) => h("option", { value: p }, label(data.frames[0] || {}, p))));
  select.disabled = seats.length === 1;
  select.onchange = () => loadAnalysis(Number(select.value));
  loadAnalysis(seats[0]);
}

// --- one hand ---------------------------------------------------------------------------------

async function showHand(session, hand) {
  $("replay").hidden = false;
  $("to-list").href = `/review${fragment}`;
  try {
    data = await api(`/api/review/${session}/${hand}`, { token });
  } catch (e) {
    if (e.status === 401 && token) forgetToken("review-token");
    replace("notice", h("p", { class: "error" }, e.status === 404 ? t("No such hand: {why}", { why: e.message })
      : e.status === 401 ? t("This link's token is not accepted: open the review again from the seat page or the operator page.")
        : t("Cannot load the hand: {why}. Reload the page to try again.", { why: e.message })));
    return;
  }
  const v = data.viewer;
  replace("notice", missingToken());
  replace("whoami", v.role === "operator" ? t("operator: every tile")
    : v.role === "operator-live" ? t("operator: no concealed tile while the hand is in play") : v.role === "seat"
    ? (v.concealed.length > 1 ? t("seat {n}: every tile (the session has ended)", { n: v.seat }) : t("seat {n}: your own tiles", { n: v.seat }))
    : t("public"));
  if (data.damaged) replace("notice", h("p", { class: "error" }, t("This session's log is damaged ({why}): the review ends where it can be read.", { why: data.damaged })));
  $("slider").max = String(Math.max(0, data.frames.length - 1));
  replace("log", logList());
  controls();
  const wanted = Number(new URLSearchParams(location.search).get("seq"));
  const start = data.frames.findIndex((f) => f.seq === wanted);
  show(start >= 0 ? start : 0);
  analysisSeats();
}

const parts = location.pathname.split("/").filter(Boolean);
if (parts.length === 3) showHand(Number(parts[1]), Number(parts[2]));
else showList();
