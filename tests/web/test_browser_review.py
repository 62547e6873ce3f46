"""The review page in headless Chromium (issue 25) at a TV's 1920x1080 and a phone's 390x844:
from the list to a hand, stepping with the arrow keys and the slider, the board at chosen steps
checked against the stored log replayed on its own (tests/web/review_support.py: each seat's
river and meld strip, the discard on the pad, the concealed count), the result at the end. One
stored session (hua-bao with claims, kongs, refused calls, undos; one riichi hand) served once
for the whole file. Screenshots go to test-artifacts/ or $SCREENSHOTS_DIR (scripts/screenshots)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.app import build
from controller.config import Config, SessionConfig
from controller.tiles import is_bonus
from tests.browser import ARTIFACTS, launched, open_page
from tests.web.review_support import Moment, Reference, record
from tests.web.support import served

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("SCREENSHOTS_DIR") or ARTIFACTS)


class Served:
    def __init__(self, base: str, data: Path, hua: int, riichi: int, seat2: str) -> None:
        self.base, self.hua, self.riichi, self.seat2 = base, hua, riichi, seat2
        db = data / "events.sqlite"
        self.refs = {hua: Reference(db, hua), riichi: Reference(db, riichi)}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("review-browser")
    data = root / "data"
    hua = record(data, "hua-bao", hands=2, seed=1)
    riichi = record(data, "riichi", hands=1, seed=6)
    system = build(Config(session=SessionConfig(autostart=False)), data)
    with served(system.app) as base:
        yield Served(base, data, hua, riichi, system.tokens.seats[2])


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(exist_ok=True)
    with launched() as chromium:
        yield chromium


def hand_seqs(ref: Reference, number: int) -> list[int]:
    """The stored events of hand ``number`` in the log's order: those after which the hand is
    that one, but for the table being cleared after it (tiles back to the wall)."""
    out = []
    for seq in ref.order:
        m = ref.moments[seq]
        hand = m.state.hand
        move = m.event.get("move") or {}
        clearing = m.accepted and move.get("to") == "wall" and hand is not None and \
            hand.phase == "over"
        if hand is not None and hand.number == number and not clearing:
            out.append(seq)
    return out


BOARD = """() => {
  const b = document.querySelector('#board');
  if (!b || b.dataset.seq === undefined) return null;
  const codes = (sel) => [...document.querySelectorAll(sel)]
    .map((t) => t.dataset.tile).filter(Boolean);
  const out = { seq: Number(b.dataset.seq), step: Number(b.dataset.step),
    pad: codes('#centre .pad .tile.big'), seats: {},
    stepno: document.querySelector('#stepno').textContent };
  for (const p of [1, 2, 3, 4]) {
    const count = document.querySelector(`#seat${p} .tiles.backs .count`);
    out.seats[p] = { river: codes(`#seat${p} .river-tiles .tile`),
      strip: codes(`#seat${p} .row.melds .tile`),
      concealed: count ? Number(count.textContent) : null };
  }
  return out;
}"""


def expected(m: Moment) -> dict[str, Any]:
    """The board after the stored event, from the game's state fields."""
    hand = m.state.hand
    assert hand is not None
    claim = hand.claim
    seats = {}
    for s in hand.seats:
        strip = [t for meld in s.melds for i, t in enumerate(meld.tiles)
                 if not (meld.concealed and len(meld.tiles) == 4 and i in (0, 3))]
        strip += list(s.forming) + list(s.bonus)
        if claim is not None and claim.seat == s.position and claim.discard_on_strip:
            strip.append(claim.tile)
        seats[str(s.position)] = {"river": list(s.river), "strip": Counter(strip),
                                  "concealed": sum(1 for t in s.rack if not is_bonus(t))}
    on_strip = claim is not None and claim.discard_on_strip
    pad = [hand.discard[0]] if hand.discard is not None and hand.taken is None and \
        not on_strip and hand.phase != "over" else []
    return {"seats": seats, "pad": pad, "over": hand.phase == "over"}


def check_board(page: Any, ref: Reference, seqs: list[int], step: int,
                own: tuple[str, ...] = ()) -> None:
    """The board at ``step`` shows the stored event ``seqs[step]`` and what lay where after it
    (``own``: the seats whose concealed tiles this viewer sees, face up instead of backs)."""
    board = page.wait_for_function(f"() => {{ const b = ({BOARD})(); "
                                   f"return b && b.step === {step} ? b : null; }}",
                                   timeout=30000, polling=50).json_value()
    assert board["seq"] == seqs[step], (step, board["seq"])
    assert board["stepno"] == f"step {step + 1} of {len(seqs)}"
    want = expected(ref.moments[seqs[step]])
    if want["over"]:
        return
    assert board["pad"] == want["pad"], step
    for p in "1234":
        got, exp = board["seats"][p], want["seats"][p]
        assert got["river"] == exp["river"], (step, p)
        assert Counter(got["strip"]) == exp["strip"], (step, p)
        assert got["concealed"] == (None if p in own else exp["concealed"]), (step, p)


@pytest.mark.parametrize("size", ["tv", "phone"])
def test_stepping_through_a_hand_with_keys_and_slider(site: Served, browser: Any,
                                                      size: str) -> None:
    errors: list[str] = []
    page = open_page(browser, size, errors, has_touch=size == "phone")
    page.goto(f"{site.base}/review")
    page.locator(f'[data-session="{site.hua}"] .hand-link').nth(1).click()  # the second hand
    page.wait_for_url(f"**/review/{site.hua}/2*")
    ref = site.refs[site.hua]
    seqs = hand_seqs(ref, ref.final.hands[1].number)
    check_board(page, ref, seqs, 0)
    for _ in range(60):
        page.keyboard.press("ArrowRight")
    check_board(page, ref, seqs, 60)
    page.keyboard.press("ArrowLeft")
    check_board(page, ref, seqs, 59)
    claimed = next(i for i, s in enumerate(seqs) if sum(
        len(seat.melds) for seat in ref.moments[s].state.hand.seats) > 0)  # type: ignore[union-attr]
    page.locator("#slider").fill(str(claimed))
    check_board(page, ref, seqs, claimed)
    page.locator("#slider").fill(str(len(seqs) * 2 // 3))
    check_board(page, ref, seqs, len(seqs) * 2 // 3)
    page.screenshot(path=str(SHOTS / f"review-{size}.png"))
    page.keyboard.press("End")
    check_board(page, ref, seqs, len(seqs) - 1)
    record_ = ref.final.hands[1]
    title = page.locator("#result .result h2").inner_text()
    assert ("Washout" in title) if record_.result == "washout" else ("Mahjong" in title)
    page.keyboard.press("Home")
    check_board(page, ref, seqs, 0)
    if size == "tv":  # play at the quickest speed until a few steps went by, then pause
        page.select_option("#speed", "8")
        page.click("#play")
        page.wait_for_function("() => Number(document.querySelector('#board').dataset.step) >= 3",
                               timeout=30000, polling=50)
        page.click("#play")
        assert page.locator("#play").inner_text() == "▶ play"
        paused = int(page.locator("#board").get_attribute("data-step") or -1)
        check_board(page, ref, seqs, paused)
    assert not errors, errors
    page.context.close()


def test_a_riichi_hand_shows_its_indicators(site: Served, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, "tv", errors)
    ref = site.refs[site.riichi]
    seqs = hand_seqs(ref, 1)
    page.goto(f"{site.base}/review/{site.riichi}/1")
    step = len(seqs) // 2
    page.wait_for_selector("#log li")
    page.locator("#slider").fill(str(step))
    check_board(page, ref, seqs, step)
    hand = ref.moments[seqs[step]].state.hand
    assert hand is not None and hand.rh is not None
    shown = [t.get_attribute("data-tile") for t in page.locator(".dora-tiles .tile").all()]
    assert shown == list(hand.rh.dora)
    assert not errors, errors
    page.context.close()


def test_the_board_and_the_seat_page_link_to_the_review(site: Served, browser: Any) -> None:
    """The board's history links each finished hand of the session under way; the seat page
    links to the review with its own tiles (the token it keeps), which then shows them."""
    errors: list[str] = []
    page = open_page(browser, "phone", errors, has_touch=True)
    page.goto(f"{site.base}/")
    page.locator(".history .hand-review").first.click()
    page.wait_for_url(f"**/review/{site.riichi}/1*")
    page.wait_for_selector("#log li")
    assert page.locator("#whoami").inner_text() == "public"
    assert page.locator(".own-tiles").count() == 0
    page.goto(f"{site.base}/seat/2#token={site.seat2}")
    page.wait_for_function("() => !!localStorage.getItem('seat-token-2')", timeout=30000)
    page.locator("#review-all").click()
    page.locator(f'[data-session="{site.riichi}"] .hand-link').first.click()
    page.wait_for_url(f"**/review/{site.riichi}/1*")
    page.wait_for_selector("#log li")
    page.keyboard.press("End")
    assert page.locator("#whoami").inner_text().startswith("seat 2")
    ref = site.refs[site.riichi]
    seqs = hand_seqs(ref, 1)
    page.locator("#slider").fill(str(len(seqs) // 2))
    check_board(page, ref, seqs, len(seqs) // 2, own=("2",))
    hand = ref.moments[seqs[len(seqs) // 2]].state.hand
    assert hand is not None
    own = [t.get_attribute("data-tile")
           for t in page.locator("#seat2 .own-tiles .tiles.own .tile").all()]
    assert Counter(own) == Counter(hand.seat(2).rack)
    assert page.locator(".own-tiles").count() == 1  # the session has not ended: its own only
    assert not errors, errors
    page.context.close()


def test_the_discard_analysis_beside_the_replay(site: Served, browser: Any) -> None:
    """With a seat's token the analysis route answers and the panel shows it beside the replay:
    the summary, and at a chosen step that seat's last discard up to that step (its tile and
    shanten), as the route gave them; the public gets no panel (the route refuses it)."""
    import json
    import urllib.request

    request = urllib.request.Request(
        f"{site.base}/api/review/{site.riichi}/1/analysis?seat=2",
        headers={"Authorization": f"Bearer {site.seat2}"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        got = json.load(answer)
    assert got["seat"] == 2 and got["discards"], got
    seqs = hand_seqs(site.refs[site.riichi], 1)
    step = len(seqs) // 2
    mine = [d for d in got["discards"] if d["seq"] <= seqs[step]]
    assert mine, "seat 2 discarded before the middle of the hand"
    last = mine[-1]
    # the panel's tile is the seat's own discard in the log at that seq
    moved = site.refs[site.riichi].moments[last["seq"]]
    assert moved.event["move"] == {"tile": last["tile"], "from": "rack:2", "to": "discard"}

    page = open_page(browser, "tv")
    page.goto(f"{site.base}/review/{site.riichi}/1#token={site.seat2}")
    page.wait_for_selector("#analysis:not([hidden])", timeout=30000)
    share = int(got["summary"]["share"] * 100 + 0.5)  # English writes 25% (CLDR's #,##0%)
    summary = page.locator("#analysis-summary").inner_text()
    assert summary.startswith(f"kept the best shape in {share}%"), summary
    assert f"({got['summary']['kept_best']} of {got['summary']['discards']})" in summary
    page.locator("#slider").fill(str(step))
    now = page.locator("#analysis-now")
    now.locator(".tile").first.wait_for(timeout=30000)
    assert now.locator(".tile").first.get_attribute("data-tile") == last["tile"]
    assert f"shanten {last['shanten_before']} → {last['shanten_after']}" in now.inner_text()
    page.screenshot(path=str(SHOTS / "review-analysis-tv.png"))
    page.goto(f"{site.base}/review/{site.riichi}/1")  # the public: no panel
    page.wait_for_selector("#log li")
    assert page.locator("#analysis").is_hidden()
    page.context.close()
