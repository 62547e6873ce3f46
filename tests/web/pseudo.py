"""The pseudo-language check of a page (issue 26; tests/web/test_browser_i18n.py and
test_browser_i18n_riichi.py): in en-XA every catalog string is bracketed ⟦...⟧ and 40 % longer,
so text outside brackets is hard-coded English, and a page that fits in it fits in any of the
shipped languages. A page is loaded once and looked at at a phone's 390 px and a TV's 1920 px
(the window resized: the pages follow a resize)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SIZES = {"phone": {"width": 390, "height": 844}, "tv": {"width": 1920, "height": 1080}}

# Text outside the pseudo-language's brackets (and in the attributes a person reads: placeholder,
# title, aria-label): what no page may show. Left out: code (commands),
# the tile faces (svg), what is marked translate="no" (the language switch, rule-set option
# names, the service's own status messages), what is not rendered, and the data a page shows as
# it is (``data``: the players' and the tables' names).
UNBRACKETED = """(data) => {
  const parts = [];  // the rendered text in document order; a sentence may hold a tile face
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("script,style,svg,code,[translate=no]")) continue;
    if (!el.getClientRects().length) continue;
    parts.push(n.textContent);
  }
  // and what a person reads in an attribute: a field's hint, a tooltip, a screen reader's label
  for (const el of document.body.querySelectorAll("[placeholder],[title],[aria-label]")) {
    if (el.closest("svg,code,[translate=no]")) continue;
    for (const name of ["placeholder", "title", "aria-label"]) {
      // a tile's tooltip starts with its code (RULES.md section 1: "nw: north wind"), the same
      // in every language
      const code = /^([1-9][bcd]|[eswn]w|[rgw]d|[1-4][fs]): /;
      if (el.hasAttribute(name)) parts.push(el.getAttribute(name).replace(code, ""));
    }
  }
  let rest = parts.join("\u0001"), before = null;
  while (rest !== before) { before = rest; rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ""); }  // nested too
  for (const name of data || []) rest = rest.split(name).join("");
  return rest.split("\u0001").filter((x) => /[A-Za-z]{2,}/.test(x)).map((x) => x.trim());
}"""
# Wider than the screen, or text cut off in a box that hides its overflow (or a button).
OVERFLOW = """() => {
  const found = [];
  const wide = document.documentElement.scrollWidth - window.innerWidth;
  if (wide > 1) found.push(`page: ${wide}px wider than the screen`);
  for (const el of document.body.querySelectorAll("*")) {  // the innermost that stick out
    const out = (x) => x.getBoundingClientRect().right > window.innerWidth + 1;
    if (out(el) && ![...el.children].some(out) && !el.closest(".scroll,svg")) {
      found.push(`out: ${el.tagName}.${el.className} ${el.textContent.trim().slice(0, 40)}`);
    }
  }
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("svg,[translate=no]") || !el.getClientRects().length) continue;
    if (!el.textContent.trim()) continue;
    const cs = getComputedStyle(el);
    const clips = ["hidden", "clip"].includes(cs.overflowX) || el.tagName === "BUTTON";
    if (clips && el.scrollWidth > el.clientWidth + 1) {
      found.push(`${el.tagName}.${el.className}: ${el.textContent.trim().slice(0, 50)}`);
    }
  }
  return found;
}"""
CLEAN = f"(data) => ({UNBRACKETED})(data).length === 0 && ({OVERFLOW})().length === 0"


def problems(page: Any, data: list[str]) -> dict[str, list[str]]:
    """What the page shows wrongly now; when something is, the page is given until a generous
    deadline to settle (a resize's re-drawing comes an animation frame or a debounce later),
    and what is still wrong then is the answer."""
    english, overflow = page.evaluate(UNBRACKETED, data), page.evaluate(OVERFLOW)
    if english or overflow:
        try:
            page.wait_for_function(CLEAN, arg=data, timeout=15000, polling=200)
        except Exception:  # noqa: BLE001 - still wrong: said below
            pass
        english, overflow = page.evaluate(UNBRACKETED, data), page.evaluate(OVERFLOW)
    return {"english": english[:8], "overflow": overflow[:8]} if english or overflow else {}


def look(page: Any, name: str, drawn: str, found: dict[str, Any], shots: Path,
         then: Any = None, data: tuple[str, ...] = ()) -> None:
    """Waits until the page has drawn what it shows (``drawn``, a JS condition), then looks at
    it at each size; what is wrong goes into ``found`` under the page's name and size (with a
    screenshot in ``shots``). ``then(page, size)``: more to do at a size (a tap), looked at
    again after it. ``data``: the names the page shows as they are."""
    try:
        page.wait_for_function(drawn, timeout=60000)
    except Exception:  # noqa: BLE001 - said with what the page shows
        found[name] = {"not drawn": page.inner_text("body")[:300]}
        return
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        steps = [None] + ([then] if then else [])
        for step in steps:
            if step is not None and not step(page, size):
                continue
            wrong = problems(page, list(data))
            if wrong:
                key = f"{name} {size}" + (" (after a tap)" if step else "")
                found[key] = wrong
                page.screenshot(path=str(shots / f"i18n-en-XA-{name.replace(' ', '-')}-{size}.png"))
