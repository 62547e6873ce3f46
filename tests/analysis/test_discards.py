"""Each discard's analysis against independent references: the ``mahjong`` package's shanten
for every discard the seat could have made, ukeire counted from a model of the table built here
from the log's moves (not the engine's state), and the properties the review promises (the best
discard is never worse than the chosen one; no tile counted twice, none the seat could see)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.analysis import replay_session, session_review
from controller.analysis.discards import analyse, options, rank_of
from controller.analysis.shanten import shapes_for
from controller.game.state import Seat
from controller.players.director import run_session
from controller.scoring import get_ruleset
from controller.tiles import KIND_INDEX, KINDS
from tests.analysis.reference import package_shanten

RIICHI = get_ruleset("riichi")
SHAPES = shapes_for(RIICHI.name, RIICHI.specials, RIICHI.max_chows)


def counts(tiles: list[str]) -> list[int]:
    out = [0] * 34
    for t in tiles:
        out[KIND_INDEX[t]] += 1
    return out


def reference_options(hand: list[str], melds: int, seen: list[int]) -> dict[str, tuple[int, int]]:
    """kind -> (shanten left, ukeire) for each discard, by the package, with ``seen`` the copies
    the seat sees (its hand included)."""
    out = {}
    for tile in set(hand):
        rest = counts(hand)
        rest[KIND_INDEX[tile]] -= 1
        left = package_shanten(rest, melds == 0, melds == 0)
        ukeire = 0
        for k in range(34):
            if rest[k] < 4:
                rest[k] += 1
                if package_shanten(rest, melds == 0, melds == 0) < left:
                    ukeire += max(0, 4 - seen[k])
                rest[k] -= 1
        out[tile] = (left, ukeire)
    return out


@st.composite
def moments(draw: st.DrawFn) -> tuple[list[str], list[str], str]:
    """A 14-tile concealed hand (three copies of a kind at most), tiles the seat sees elsewhere
    (from the rest of the wall), and the tile it discards."""
    hand = sorted(draw(st.permutations([t for t in KINDS for _ in range(3)]))[:14])
    rest = [t for t in KINDS for _ in range(4)]
    for t in hand:
        rest.remove(t)
    seen = draw(st.lists(st.sampled_from(rest), max_size=40))
    seen = [t for t, n in Counter(seen).items() for _ in range(min(n, Counter(rest)[t]))]
    return hand, seen, draw(st.sampled_from(hand))


@settings(max_examples=25)
@given(moments())
def test_every_discard_is_ranked_as_the_references_count_it(
        moment: tuple[list[str], list[str], str]) -> None:
    hand, seen_elsewhere, chosen = moment
    seen = counts(hand + seen_elsewhere)
    unseen = [4 - n for n in seen]
    ranked = options(SHAPES, Seat(1, rack=tuple(hand)), unseen)
    expected = reference_options(hand, 0, seen)
    assert {o.tile: (o.shanten, o.ukeire) for o in ranked} == expected
    for o in ranked:  # never more than the copies the seat cannot see, never a fifth
        rest = counts(hand)
        rest[KIND_INDEX[o.tile]] -= 1
        assert o.ukeire <= sum(4 - seen[k] for k in range(34))
    rank = rank_of(ranked, chosen)
    mine = next(o for o in ranked if o.tile == chosen)
    assert ranked[0].shanten <= mine.shanten  # the best discard is never worse
    assert (ranked[0].shanten, -ranked[0].ukeire) <= (mine.shanten, -mine.ukeire)
    better = [o for o in ranked if (o.shanten, -o.ukeire) < (mine.shanten, -mine.ukeire)]
    assert rank == len(better) + 1 and (rank == 1) == (not better)


# --- a whole simulated riichi session, replayed through the engine --------------------------------


@cache
def session(seed: int) -> list[dict[str, Any]]:
    return run_session("riichi", {}, 1, seed=seed)[0]


def table_model(events: list[dict[str, Any]]) -> dict[int, dict[str, Counter[str]]]:
    """Where every tile lies before each event, from the moves alone (the director's logs have
    no refused event): seq -> zone -> tiles."""
    zones: dict[str, Counter[str]] = {}
    before = {}
    for seq, event in enumerate(events, start=1):
        before[seq] = {z: Counter(c) for z, c in zones.items()}
        move = event.get("move")
        if move:
            if move["from"] != "wall":
                zones[move["from"]][move["tile"]] -= 1
            if move["to"] != "wall":
                zones.setdefault(move["to"], Counter())[move["tile"]] += 1
    return before


def test_a_session_s_discards_agree_with_the_log_and_the_package() -> None:
    events = session(11)
    replayed = replay_session(enumerate(events, start=1))
    model = table_model(events)
    review = session_review(replayed)
    entries = [(r["hand"], r["seat"], d) for r in review["hands"] for d in r["discards"]]
    discards = [seq for seq, e in enumerate(events, start=1)
                if (e.get("move") or {}).get("to") == "discard"]
    assert sorted(d["seq"] for _, _, d in entries) == discards  # every discard, once
    for _hand, seat, entry in entries:
        event = events[entry["seq"] - 1]["move"]
        assert event == {"tile": entry["tile"], "from": f"rack:{seat}", "to": "discard"}
        zones = model[entry["seq"]]
        own = list(zones[f"rack:{seat}"].elements())
        melds = sum(zones.get(f"melds:{seat}", Counter()).values()) // 3  # kongs: 4 // 3 = 1
        shown = Counter[str]()
        for zone, tiles in zones.items():
            if zone in ("discard", "river", "dora") or zone.startswith("melds:"):
                shown += tiles
        seen = counts(own + list(shown.elements()))
        expected = reference_options(own, melds, seen)
        got = {o["tile"]: (o["shanten"], o["ukeire"]) for o in entry["best"]}
        # every legal discard (riichi and kuikae leave out some: test below) as counted here
        assert entry["tile"] in got and got.items() <= expected.items()
        assert entry["shanten_before"] == package_shanten(counts(own), melds == 0, melds == 0)
        assert entry["shanten_after"] == expected[entry["tile"]][0]
        assert entry["kept_best"] == (entry["chosen_rank"] == 1)
        assert (entry["furiten"] is None) == (entry["shanten_after"] != 0)
        if entry["shanten_after"] == 0:  # a wait among its own discards: furiten (RULES.md 11)
            rest = counts(own)
            rest[KIND_INDEX[entry["tile"]]] -= 1
            waits = {KINDS[k] for k in range(34) if rest[k] < 4 and package_shanten(
                [n + (i == k) for i, n in enumerate(rest)], melds == 0, melds == 0) == -1}
            mine = {d["tile"] for h, s, d in entries if (h, s) == (_hand, seat)
                    and d["seq"] <= entry["seq"]}
            if waits & mine:
                assert entry["furiten"] is True


def test_only_the_discards_the_rules_allow_are_ranked() -> None:
    """RULES.md 11: in riichi the seat discards the tile it drew; the riichi discard must leave
    the hand ready; after a call no kuikae tile. (Seed 0's hand has all three.)"""
    events = session(0)
    replayed = replay_session(enumerate(events, start=1))
    kinds = {"riichi": 0, "declared": 0, "kuikae": 0}
    for m in replayed.moments:
        rh = m.before.hand.rh  # type: ignore[union-attr]
        entry = analyse(m)
        tiles = [o["tile"] for o in entry["best"]]
        if m.seat in rh.riichi:
            drawn = next(e["move"]["tile"] for e in reversed(events[:m.seq - 1])
                         if (e.get("move") or {}).get("to") == f"rack:{m.seat}")
            assert tiles == [drawn] == [entry["tile"]] and entry["chosen_rank"] == 1
            kinds["riichi"] += 1
        elif rh.pending == m.seat:
            assert all(o["shanten"] == 0 for o in entry["best"]) and entry["shanten_after"] == 0
            kinds["declared"] += 1
        elif rh.kuikae:
            assert not set(tiles) & set(rh.kuikae)
            kinds["kuikae"] += 1
    assert all(kinds.values()), kinds


def test_sums_per_hand_and_session() -> None:
    replayed = replay_session(enumerate(session(11), start=1))
    review = session_review(replayed, seats=[2])
    total = [d for r in review["hands"] for d in r["discards"]]
    assert review["summary"]["seats"]["2"] == {
        "discards": len(total), "kept_best": sum(d["kept_best"] for d in total),
        "share": round(sum(d["kept_best"] for d in total) / len(total), 4)}
    for r in review["hands"]:
        assert r["summary"]["discards"] == len(r["discards"])


def test_an_undone_discard_is_not_reviewed() -> None:
    events = session(11)
    first = next(i for i, e in enumerate(events) if (e.get("move") or {}).get("to") == "discard")
    seat = int(events[first]["move"]["from"].split(":")[1])
    redo = [*events[:first + 1], {"correct": {"undo": 1}}, *events[first:]]
    replayed = replay_session(enumerate(redo, start=1))
    mine = [m for m in replayed.moments if m.hand == 1 and m.seat == seat]
    assert mine[0].seq == first + 3  # the discard made again after the undo, not the first
    assert analyse(mine[0])["tile"] == events[first]["move"]["tile"]


@settings(max_examples=6)
@given(st.sampled_from(("hua-bao", "swedish", "dmjl", "bmja", "mcr", "riichi")),
       st.integers(0, 10**6))
def test_no_tile_counted_that_the_seat_could_see(ruleset: str, seed: int) -> None:
    """At every discard of a simulated hand (claims, kongs, bonus tiles, dora), the copies
    counted as unseen are four less what the log's moves put in the seat's rack and in the open
    zones (pad, river, meld strips, dora pad), never more than four, never below zero."""
    from controller.analysis.discards import unseen_counts

    events = run_session(ruleset, {}, 1, seed=seed)[0]
    model = table_model(events)
    replayed = replay_session(enumerate(events, start=1))
    assert replayed.moments
    for m in replayed.moments:
        zones = model[m.seq]
        seen = Counter(zones[f"rack:{m.seat}"])
        for zone, tiles in zones.items():
            if zone in ("discard", "river", "dora") or zone.startswith("melds:"):
                seen += tiles
        expected = [max(0, 4 - seen[t]) for t in KINDS]
        assert unseen_counts(m.before.hand, m.seat) == expected  # type: ignore[arg-type]
        entry = analyse(m)
        assert entry["best"][0]["shanten"] <= entry["shanten_after"]
        assert entry["kept_best"] == (entry["chosen_rank"] == 1)
        for option in entry["best"]:
            assert 0 <= option["ukeire"] <= sum(expected)
