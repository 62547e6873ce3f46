// The pages' words in the reader's language (docs/i18n.md). The catalogs come from the service
// (GET /api/i18n/LANG/DOMAIN.json, compiled from the gettext .po files), never from strings in
// this code: t("Seat {n}", {n: 3}), tn("{n} hand", "{n} hands", n), term("Pung") for a rule term
// (the `terms` domain), num(30000) -> "30,000" / "30.000" / "30 000", when(seconds) for a date
// and time. The language: this device's choice for this kind of page (the switch in the page's
// bar, kept in localStorage), else the table's `[server] language`, else the browser's.
// Served by the table and the club (one file for both services).
"use strict";

const KIND = (() => {
  const first = location.pathname.split("/").filter(Boolean)[0] || "";
  return ["seat", "operator", "player", "tournament", "review"].includes(first) ? first : "board";
})();
const KEY = `lang:${KIND}`;
const catalogs = { messages: {}, terms: {} };
let language = "en";
let languages = [{ code: "en", name: "English" }];
let plural = (n) => Number(n !== 1);

/** Gettext's Plural-Forms expression (C syntax in n) as a function; anything else is refused. */
function pluralRule(expr) {
  if (typeof expr !== "string" || !/^[\sn0-9?:<>=!&|%()]*$/.test(expr)) return (n) => Number(n !== 1);
  return new Function("n", `return Number(${expr});`);
}

async function getJSON(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

async function load() {
  const asked = new URLSearchParams(location.search).get("lang");
  try {
    const info = await getJSON("/api/i18n");
    languages = info.languages;
    const known = (code) => code && (code === "en-XA" || languages.some((l) => l.code === code));
    const kept = localStorage.getItem(KEY);
    language = known(asked) ? asked : known(kept) ? kept : info.language;
    const [messages, terms] = await Promise.all(["messages", "terms"].map((d) =>
      getJSON(`/api/i18n/${encodeURIComponent(language)}/${d}.json`)));
    catalogs.messages = messages.messages || {};
    catalogs.terms = terms.messages || {};
    plural = pluralRule(messages.plural);
  } catch (e) {
    console.error("the page's language could not be loaded; English is shown", e);
    language = "en";
  }
  document.documentElement.lang = language === "en-XA" ? "en" : language;
}
await load();

/** The page's language (a BCP 47 code: en, de, sv, zh-Hans, ja; en-XA the pseudo-language). */
export function lang() { return language; }

function fill(text, values) {
  if (!values) return text;
  return text.replace(/\{([a-z_0-9]+)\}/g, (all, k) => (values[k] === undefined ? all : String(values[k])));
}

/** A message in the page's language, its {placeholders} filled from `values`. */
export function t(message, values) {
  const found = catalogs.messages[message];
  return fill(typeof found === "string" && found ? found : message, values);
}

/** A message with elements in it: tx("on {who}'s strip", {who: el}) -> [text, el, text], for h(). */
export function tx(message, values) {
  const out = [];
  let at = 0;
  const text = t(message);
  for (const m of text.matchAll(/\{([a-z_0-9]+)\}/g)) {
    const v = (values || {})[m[1]];
    if (v === undefined) continue;
    out.push(text.slice(at, m.index), typeof v === "number" ? String(v) : v);
    at = m.index + m[0].length;
  }
  out.push(text.slice(at));
  return out.filter((x) => x !== "");
}

/** A message with plural forms: tn("{n} tile", "{n} tiles", n) ({n} is filled with n). */
export function tn(singular, pluralText, n, values) {
  const forms = catalogs.messages[singular];
  const text = Array.isArray(forms) ? forms[plural(n)] ?? forms[forms.length - 1] : n === 1 ? singular : pluralText;
  return fill(text, { n, ...(values || {}) });
}

/** A rule term (pattern, fan, yaku, tile or call name as the JSON has it) in the page's
 *  language: the `terms` catalog; a term it lacks is shown as the JSON names it. */
export function term(name) {
  if (name === null || name === undefined) return "";
  const found = catalogs.terms[name];
  if (typeof found === "string" && found) return found;
  // en-XA: a term the terms catalog lacks is still marked as gone through term() (the
  // completeness test of the terms domain finds the missing translation itself).
  return language === "en-XA" ? `⟦${name}⟧` : String(name);
}

const intlLocale = () => (language === "en-XA" ? "en" : language);
/** A number as the language writes it: 30,000 (en), 30.000 (de), 30 000 (sv). */
export function num(n, options) {
  return new Intl.NumberFormat(intlLocale(), options).format(Number(n || 0));
}
/** A moment (seconds since 1970) as the language writes a date and time. */
export function when(seconds) {
  if (!seconds) return "–";
  const text = new Intl.DateTimeFormat(intlLocale(), { dateStyle: "medium", timeStyle: "short" })
    .format(new Date(seconds * 1000));
  return language === "en-XA" ? `⟦${text}⟧` : text;
}

/** The marked parts of the page's HTML (data-i18n, data-i18n-attr) in the page's language. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.textContent.split(/\s+/).filter(Boolean).join(" "));
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of node.dataset.i18nAttr.split(",").map((x) => x.trim()).filter(Boolean)) {
      if (node.hasAttribute(name)) node.setAttribute(name, t(node.getAttribute(name).split(/\s+/).join(" ").trim()));
    }
  }
}

/** The language switch: each language in its own words; the choice is kept on this device for
 *  this kind of page (the seat page apart from the board) and the page reloads in it. */
export function languageSwitch() {
  const select = document.createElement("select");
  select.className = "lang-switch";
  select.id = "lang-switch";
  select.setAttribute("translate", "no");
  select.setAttribute("aria-label", t("Language"));
  select.title = t("Language");
  const shown = languages.some((l) => l.code === language) ? languages
    : [...languages, { code: language, name: language }];
  for (const l of shown) {
    const option = document.createElement("option");
    option.value = l.code;
    option.textContent = l.name;
    option.lang = l.code;
    select.appendChild(option);
  }
  select.value = language;
  select.addEventListener("change", () => {
    localStorage.setItem(KEY, select.value);
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    const next = url.pathname + url.search + location.hash;
    // the same address with a fragment (a review's #seat=2) would only scroll: load it again
    if (next === location.pathname + location.search + location.hash) location.reload();
    else location.replace(next);
  });
  return select;
}

// The club's pages are classic scripts: they reach these through window.i18n.
window.i18n = { lang, num, t, term, tn, tx, when };

function install() {
  translatePage();
  const bar = document.querySelector("header.bar, header");
  const place = document.getElementById("lang") || bar;
  if (place && !document.getElementById("lang-switch")) place.appendChild(languageSwitch());
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", install);
else install();
