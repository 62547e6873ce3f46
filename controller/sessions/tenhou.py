"""A riichi session as a tenhou.net/6 JSON log (the format the public viewers and the AI
reviewers read): one ``log`` entry per hand with its counters, start scores, dora and ura
indicators, each seat's deal, draws and discards with the call and riichi encodings, and the
result with the deltas and the yaku (docs/formats.md, "tenhou.net/6")."""

from __future__ import annotations

from typing import Any

from controller.sessions.kyoku import POSITIONS, Kyoku, Trace
from controller.tiles import WINDS, wind_code

#: table tile code -> tenhou number (11-19 man, 21-29 pin, 31-39 sou, 41-47 E S W N haku
#: hatsu chun); the table has no red fives (51-53)
SUITS = {"c": 10, "d": 20, "b": 30}
HONOURS = {"ew": 41, "sw": 42, "ww": 43, "nw": 44, "wd": 45, "gd": 46, "rd": 47}
TSUMOGIRI = 60
KANJI_WIND = {"ew": "東", "sw": "南", "ww": "西", "nw": "北"}
KANJI_DRAGON = {"wd": "白", "gd": "發", "rd": "中"}
LIMITS = {"mangan": "満貫", "haneman": "跳満", "baiman": "倍満", "sanbaiman": "三倍満",
          "yakuman": "役満"}
#: the EMA names of RULES.md 11 -> tenhou's words
YAKU = {
    "riichi": "立直", "ippatsu": "一発", "menzen tsumo": "門前清自摸和", "pinfu": "平和",
    "iipeikou": "一盃口", "tanyao": "断幺九", "haitei": "海底摸月", "houtei": "河底撈魚",
    "rinshan kaihou": "嶺上開花", "chankan": "槍槓", "double riichi": "両立直",
    "chiitoitsu": "七対子", "sanshoku doujun": "三色同順", "ittsu": "一気通貫",
    "chanta": "混全帯幺九",
    "toitoi": "対々和", "sanankou": "三暗刻", "sanshoku doukou": "三色同刻",
    "sankantsu": "三槓子", "honroutou": "混老頭", "shousangen": "小三元", "ryanpeikou": "二盃口",
    "junchan": "純全帯幺九", "honitsu": "混一色", "chinitsu": "清一色", "renhou": "人和",
    "dora": "ドラ", "ura dora": "裏ドラ",
    "kokushi musou": "国士無双", "suuankou": "四暗刻", "daisangen": "大三元",
    "shousuushii": "小四喜", "daisuushii": "大四喜", "tsuuiisou": "字一色", "chinroutou": "清老頭",
    "ryuuiisou": "緑一色", "chuuren poutou": "九蓮宝燈", "suukantsu": "四槓子", "tenhou": "天和",
    "chiihou": "地和",
}


def tile(code: str) -> int:
    if code in HONOURS:
        return HONOURS[code]
    return SUITS[code[1]] + int(code[0])


def export(tr: Trace, title: str = "") -> dict[str, Any]:
    """The whole log (a JSON object)."""
    log: dict[str, Any] = {
        "title": [title, ""],
        "name": tr.seat_names(),
        "rule": {"disp": "EMA riichi (mahjong-table), hanchan", "aka": 0, "aka51": 0,
                 "aka52": 0, "aka53": 0},
        "log": [_kyoku(tr, k) for k in tr.kyokus],
    }
    if tr.final is not None:
        sc: list[Any] = []
        for p in map(str, tr.order()):
            sc += [tr.final["points"][p] // 100, tr.final["result"][p]]
        log["sc"] = sc
    return log


def _kyoku(tr: Trace, k: Kyoku) -> list[Any]:
    round_no = WINDS.index(k.wind) * 4 + tr.seat(k.dealer)
    entry: list[Any] = [[round_no, k.honba, k.sticks],
                        [k.points[p] for p in tr.order()],
                        [tile(t) for t in k.dora],
                        [tile(t) for t in k.ura] if _riichi_win(k) else []]
    for pos in tr.order():
        takes, discards = _columns(tr, k, pos)
        entry += [sorted(tile(t) for t in k.haipai[pos]), takes, discards]
    entry.append(_result(tr, k))
    return entry


def _riichi_win(k: Kyoku) -> bool:
    return k.end.get("type") == "hora" and bool(k.ura)


def _columns(tr: Trace, k: Kyoku, pos: int) -> tuple[list[Any], list[Any]]:
    """The seat's draws (tiles, calls) and discards (tiles, 60 for the drawn tile, riichi,
    added and concealed kongs, 0 after an open kong)."""
    takes: list[Any] = []
    discards: list[Any] = []
    rel = {3: 0, 2: 2, 1: 4}  # where the marker goes: the player before, across, after
    for m in k.moves:
        if m.get("pos") != pos:
            continue
        kind = m["type"]
        if kind == "tsumo":
            takes.append(tile(m["tile"]))
        elif kind == "dahai":
            t: Any = TSUMOGIRI if m["tsumogiri"] else tile(m["tile"])
            discards.append(f"r{t}" if m["riichi"] else t)
        elif kind in ("chi", "pon", "daiminkan"):
            takes.append(_call(kind, m, rel[(m["target"] - pos) % 4]))
            if kind == "daiminkan":
                discards.append(0)
        elif kind == "ankan":
            t4 = [str(tile(x)) for x in sorted(m["consumed"])]
            discards.append("".join(t4[:3]) + "a" + t4[3])
        elif kind == "kakan":
            discards.append(_kakan(k, pos, m, rel))
    return takes, discards


def _call(kind: str, m: dict[str, Any], at: int) -> str:
    called = str(tile(m["tile"]))
    if kind == "chi":
        return "c" + called + "".join(_own(m))
    mark = "p" if kind == "pon" else "m"
    if kind == "daiminkan" and at == 4:
        at = 6
    return _marked(m, at, mark + called)


def _kakan(k: Kyoku, pos: int, m: dict[str, Any], rel: dict[int, int]) -> str:
    """The pung's string with ``k`` for ``p`` and the added tile after the called one."""
    pon = next(c for c in k.moves if c.get("pos") == pos and c["type"] == "pon"
               and c["tile"] == m["tile"])
    at = rel[(pon["target"] - pos) % 4]
    return _marked(pon, at, "k" + str(tile(pon["tile"])) + str(tile(m["tile"])))


def _own(m: dict[str, Any]) -> list[str]:
    """The call's own tiles as tenhou numbers, low first."""
    return [str(tile(t)) for t in sorted(m["consumed"], key=tile)]


def _marked(m: dict[str, Any], at: int, called: str) -> str:
    """The call's own tiles with the marked called tile where its discarder sits (``at``)."""
    parts = _own(m)
    parts.insert(at // 2, called)
    return "".join(parts)


#: tenhou's names of the abortive draws (docs/game.md "Abortive draws")
ABORTIVE = {"nine_terminals": "九種九牌", "four_winds_discarded": "四風連打",
            "four_riichi": "四家立直", "four_kongs_several_seats": "四槓散了",
            "three_rons": "三家和了"}


def _result(tr: Trace, k: Kyoku) -> list[Any]:
    end = k.end
    if end["type"] == "ryukyoku":
        if end["kind"] in ABORTIVE:  # tenhou writes an abortive draw's name alone
            return [ABORTIVE[end["kind"]]]
        word = "流し満貫" if end["kind"] == "nagashi_mangan" else "流局"
        return [word, [end["deltas"][p] for p in tr.order()]]
    out: list[Any] = ["和了"]
    for w in end["wins"]:
        out.append([w["deltas"][p] for p in tr.order()])
        who, target = tr.seat(w["pos"]), tr.seat(w["target"])
        pao = tr.seat(w["pao"]) if w.get("pao") else who
        out.append([who, target, pao, _points(w, k), *_yaku(w, k)])
    return out


def _points(w: dict[str, Any], k: Kyoku) -> str:
    """Tenhou's words for the value: "30符2飜2000点", "満貫2000-4000点", "40符1飜700点∀"."""
    score = w["score"]
    limit = score.get("limit_hand")
    head = LIMITS.get(limit or "", "") or f"{score.get('points')}符{score.get('doubles')}飜"
    pay = score.get("payments") or {}
    honba = int(score.get("honba") or 0)
    if "discarder" in pay:
        return f"{head}{pay['discarder'] - 300 * honba}点"
    if "each" in pay:
        return f"{head}{pay['each'] - 100 * honba}点∀"
    return f"{head}{pay.get('each_other', 0) - 100 * honba}-{pay.get('dealer', 0) - 100 * honba}点"


def _yaku(w: dict[str, Any], k: Kyoku) -> list[str]:
    out = []
    counts: dict[str, int] = {}
    for item in w["score"].get("items") or []:
        name = str(item.get("name"))
        han = int(item.get("points") or 0)
        word = YAKU.get(name, name)
        if name == "yakuhai":
            word = _yakuhai(item, w, k)
        if name in ("dora", "ura dora"):
            counts[word] = counts.get(word, 0) + han
            continue
        out.append(f"{word}(役満)" if han >= 13 or w["score"].get("limit_hand") == "yakuman"
                   and name in YAKU and han == 0 else f"{word}({han}飜)")
    out += [f"{word}({n}飜)" for word, n in counts.items()]
    return out


def _yakuhai(item: dict[str, Any], w: dict[str, Any], k: Kyoku) -> str:
    tiles = item.get("tiles") or []
    t = tiles[0] if tiles else ""
    if t in KANJI_DRAGON:
        return f"役牌 {KANJI_DRAGON[t]}"
    prevailing = wind_code(k.wind)
    return f"{'場風' if t == prevailing else '自風'} {KANJI_WIND.get(t, t)}"


__all__ = ["POSITIONS", "export", "tile"]
