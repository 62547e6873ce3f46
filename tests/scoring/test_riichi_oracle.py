"""The project's riichi scorer against PyPI ``mahjong`` (an independent riichi calculator), hand
for hand on random complete hands of every kind, with its OptionalRules set to the options
tested. Where ``mahjong`` has no option for RULES.md's reading (several yakuman that do not add
up; renhou as "the higher of a mangan and the value without renhou"), the expected value is
worked out from ``mahjong``'s own answers (its yaku list; the hand scored without renhou), as
docs/scoring.md's riichi section says."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from mahjong.hand_calculating.hand import HandCalculator
from riichi_hands import winning_hands
from riichi_oracle import estimate, limit, paid, scores

from controller.scoring import HandInput, ScoringError, get_ruleset, score_hand
from controller.scoring.riichi.inputs import RHand, checked_hand, quick_hand

Expected = tuple[int, int | None, int, str | None]  # han, fu (None: not compared), score, limit
NO_YAKU = "no yaku"


def _tsumo(inp: HandInput) -> bool:
    return inp.win_source in ("wall", "replacement", "dealt")


def _open(inp: HandInput) -> bool:
    return any(not m.concealed for m in inp.melds)


def _from_response(inp: HandInput, res: Any) -> Expected:
    opts = inp.options or {}
    yakuman = [y for y in res.yaku if y.is_yakuman]
    if yakuman and not opts.get("multiple_yakuman"):  # RULES.md: yakuman do not add up
        han = max(y.han_open if _open(inp) and y.han_open else y.han_closed for y in yakuman)
        cost = scores(han, res.fu, inp, True)
        return han, res.fu, paid(cost, _tsumo(inp)), limit(cost, han, res.fu)
    return res.han, res.fu, paid(res.cost, _tsumo(inp)), limit(res.cost, res.han, res.fu)


def expected(inp: HandInput) -> Expected | str:
    opts = inp.options or {}
    if inp.first_discard and opts.get("renhou", "mangan") == "mangan":
        without = estimate(inp, renhou=False)  # RULES.md: the higher of a mangan and this
        if without.error == HandCalculator.ERR_NO_YAKU:
            cost = scores(5, 30, inp, False)
            return 5, None, paid(cost, False), "mangan"
        assert without.error is None, without.error
        han, fu, score, lim = _from_response(inp, without)
        if han >= 5:
            return han, fu, score, lim
        cost = scores(5, fu or 30, inp, False)
        return 5, None, paid(cost, False), "mangan"
    res = estimate(inp)
    if res.error == HandCalculator.ERR_NO_YAKU:
        return NO_YAKU
    assert res.error is None, res.error
    return _from_response(inp, res)


def ours(inp: HandInput) -> Expected | str:
    try:
        r = score_hand(inp)
    except ScoringError as exc:
        assert str(exc).startswith("no yaku"), exc
        return NO_YAKU
    assert r.doubles == sum(i.points for i in r.items)  # every han explained by an item
    return r.doubles, r.points, r.score, r.limit_hand


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(winning_hands())
def test_han_fu_score_and_limit_agree_with_mahjong(inp: HandInput) -> None:
    want = expected(inp)
    got = ours(inp)
    if isinstance(want, tuple) and isinstance(got, tuple) and want[1] is None:
        got = (got[0], None, got[2], got[3])
    assert got == want, (inp, score_hand(inp).to_json() if got != NO_YAKU else got)


# --- where mahjong scores otherwise than RULES.md (docs/scoring.md, riichi readings 1-3) --------


def _riichi(text: str, **kw: Any) -> HandInput:
    from controller.tiles import parse_hand

    h = parse_hand(text)
    base: dict[str, Any] = {"seat_wind": "south", "prevailing_wind": "east", "mahjong": True,
                            "winning_tile": h.concealed[-1], "win_source": "discard"}
    return HandInput("riichi", melds=h.melds, hand=h.concealed, **(base | kw))


def test_mahjong_adds_several_yakuman_where_the_ema_counts_one() -> None:
    """RULES.md: "several yakuman do not add up" (option multiple_yakuman)."""
    inp = _riichi("ewewew swswsw wwwwww nwnwnw rd rd", win_source="wall")
    res = estimate(inp)
    assert res.han == 39 and res.cost["total"] == 96000  # mahjong: three yakuman
    ours = score_hand(inp)
    assert (ours.doubles, ours.score, ours.limit_hand) == (13, 32000, "yakuman")
    assert expected(inp) == (13, res.fu, 32000, "yakuman")  # the test's reading of mahjong


def test_mahjong_adds_renhou_as_five_han_where_rules_md_takes_the_higher() -> None:
    """RULES.md: renhou `mangan`: "the hand scores the higher of a mangan and its value
    without renhou"; mahjong adds 5 han to the others (here 8 han, a baiman)."""
    inp = _riichi("1c2c3c 4c5c6c 7c8c9c 5b5b 2d3d4d", first_discard=True)
    res = estimate(inp)
    assert res.han == 8 and res.cost["main"] == 16000
    ours = score_hand(inp)
    assert (ours.doubles, ours.score, ours.limit_hand) == (5, 8000, "mangan")


def test_mahjong_has_no_option_for_a_two_fu_double_wind_pair() -> None:
    """RULES.md: "The pair of a wind that is both the seat's and the prevailing wind is 4 fu
    (option double_wind_pair_fu: 4 or 2)"; mahjong always counts 4."""
    inp = _riichi("2c2c2c 5d5d5d 1b2b3b swsw 6c7c8c", prevailing_wind="south",
                  flags=["riichi"], options={"double_wind_pair_fu": 2})
    assert estimate(inp).fu == 50
    assert score_hand(inp).points == 40


_FIELDS = [f for f in RHand.__slots__ if f != "_tiles"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(winning_hands())
def test_the_quick_path_makes_the_hand_the_full_checks_make(inp: HandInput) -> None:
    rs = get_ruleset("riichi", inp.options)
    quick = quick_hand(inp, rs)
    full = checked_hand(inp, rs)
    assert quick is not None and full is not None
    assert [getattr(quick, f) for f in _FIELDS] == [getattr(full, f) for f in _FIELDS]
