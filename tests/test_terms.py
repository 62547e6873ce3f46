"""The `terms` gettext domain (docs/glossary.md, scripts/terms.py): every name the code can put
in its JSON has a translation in every shipped language, the catalogs are what the glossary
says, they compile with Babel, and the names agree with references the code did not make (the
rule books' names typed into tests/scoring/rule_book.py, the scenarios' expected violations,
RULES.md's yaku list, pymahjonggb's Chinese fan names)."""

from __future__ import annotations

import importlib.util
import io
import re
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from controller.i18n import LANGUAGES, folder
from controller.scoring import HandInput, ScoringError, score_hand
from tests.scoring import mcr_hands, riichi_hands

ROOT = Path(__file__).resolve().parent.parent
LANGS = LANGUAGES  # the shipped languages; each a column of the glossary
FOLDER = {lang: folder(lang) for lang in LANGS}
LOCALE = ROOT / "controller" / "locale"


@cache
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("terms_script", ROOT / "scripts" / "terms.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@cache
def ids() -> dict[str, list[str]]:
    return dict(script().term_ids())


@cache
def catalog(lang: str) -> Catalog:
    path = LOCALE / f"{FOLDER[lang]}" / "LC_MESSAGES" / "terms.po"
    with path.open("rb") as f:
        return read_po(f, locale=FOLDER[lang], domain="terms")


@cache
def template() -> Catalog:
    with (LOCALE / "terms.pot").open("rb") as f:
        return read_po(f)


def translated(lang: str, msgid: str) -> str:
    message = catalog(lang).get(msgid)
    return str(message.string or "") if message is not None else ""


# --- complete: every name of the code, in every language ----------------------------------------


def test_every_term_the_code_names_is_in_the_template_and_nothing_else() -> None:
    names = set(ids())
    in_pot = {m.id for m in template() if m.id}
    assert names - in_pot == set(), "run scripts/terms.py: the template lacks these"
    assert in_pot - names == set(), "run scripts/terms.py: the template has terms the code lost"


@pytest.mark.parametrize("lang", LANGS)
def test_every_term_is_translated_in_every_language(lang: str) -> None:
    missing = [m for m in ids() if not translated(lang, m)]
    assert missing == [], f"{lang}: no translation for {missing[:10]}"
    fuzzy = [m.id for m in catalog(lang) if m.id and m.fuzzy]
    assert fuzzy == []


def test_a_new_pattern_fails_until_the_glossary_names_it() -> None:
    """The check the script and these tests make, seen failing: a term the code has and the
    glossary lacks is a problem that names the row to add."""
    s = script()
    more = dict(ids())
    more["pung of a new kind"] = ["hua-bao item"]
    problems = s.problems(more, s.read_glossary())
    assert problems == ["'pung of a new kind' (hua-bao item) has no row in docs/glossary.md: "
                        "add one"]


def _groups() -> dict[str, set[str]]:
    """The terms a player reads side by side: one rule set's items (the riichi yaku, dora and
    yakuman together), the tiles, the winds, the violations."""
    out: dict[str, set[str]] = {}
    for msgid, uses in ids().items():
        for use in uses:
            key = use.split(" (")[0] if use.startswith("violation") else use
            key = "riichi" if key.startswith("riichi") and key != "riichi limit" else key
            out.setdefault(key, set()).add(msgid)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_terms_read_side_by_side_are_told_apart_in_every_language(lang: str) -> None:
    """Two items of one rule set (dmjl's doubling "big three dragons" and its limit hand "three
    great scholars"), two tiles, two violations never read the same in any language."""
    groups = _groups()
    assert {"tile", "tile code", "wind", "violation", "mcr fan", "riichi",
            "dmjl item"} <= set(groups)
    for key, names in groups.items():
        words: dict[str, list[str]] = {}
        for name in names:
            words.setdefault(translated(lang, name), []).append(name)
        same = {w: sorted(n) for w, n in words.items() if len(n) > 1}
        assert same == {}, f"{lang}, {key}: one word for several terms"


# --- the references the code did not make ------------------------------------------------------


def test_the_rule_books_item_names_are_all_translated() -> None:
    from tests.scoring.rule_book import BOOK, MCR_FANS

    names = {row[0] for rows in BOOK.values() for row in rows}
    names |= {n for fans in MCR_FANS.values() for n in fans}
    assert len(names) > 150
    for lang in LANGS:
        assert [n for n in sorted(names) if not translated(lang, n)] == [], lang


#: RULES.md section 11's yaku and yakuman, as it lists them
RULES_MD_YAKU = """riichi, ippatsu, menzen tsumo, pinfu, iipeikou, tanyao, yakuhai, haitei, houtei,
rinshan kaihou, chankan, double riichi, chiitoitsu, sanshoku doujun, ittsu, chanta, toitoi,
sanankou, sanshoku doukou, sankantsu, honroutou, shousangen, ryanpeikou, junchan, honitsu,
chinitsu, kokushi musou, suuankou, daisangen, shousuushii, daisuushii, tsuuiisou, chinroutou,
ryuuiisou, chuuren poutou, suukantsu, tenhou, chiihou, renhou, dora, ura dora, mangan, haneman,
baiman, sanbaiman, yakuman"""


def test_the_riichi_names_of_rules_md_are_all_translated() -> None:
    names = [n.strip() for n in RULES_MD_YAKU.replace("\n", " ").split(",")]
    assert len(names) == 46
    for lang in LANGS:
        assert [n for n in names if not translated(lang, n)] == [], lang
    # the Japanese names are Japanese: kanji or kana, never the romaji again
    assert [n for n in names if re.search(r"[a-z]", translated("ja", n))] == []


def test_the_scenarios_violations_are_all_translated() -> None:
    from tests.game.scenarios import SCENARIOS

    rules = {rule for make in SCENARIOS.values() for _, rule in make().violations}
    assert {"chow_not_from_previous", "claim_too_late"} <= rules
    for lang in LANGS:
        assert [r for r in sorted(rules) if not translated(lang, r)] == [], lang
        # a violation's words are words, not the code again
        assert [r for r in sorted(rules) if translated(lang, r) == r] == [], lang


def test_scored_items_of_every_rule_set_are_in_the_catalog() -> None:
    """What the scorer really says, hand by hand (Kajongg's cases, scored as dmjl and bmja):
    every item name is a term."""
    from tests.scoring.kajongg import read
    from tests.scoring.kajongg_cases import SCORES

    seen: set[str] = set()
    for _cls, hand, _dmjl, _bmja, seat, prevailing in SCORES:
        for ruleset in ("dmjl", "bmja"):
            try:  # a hand Kajongg expects not to be Mahjong in one of the two is refused
                items = score_hand(read(hand, ruleset, seat, prevailing).inp).items
            except ScoringError:
                continue
            seen |= {i.name for i in items}
    assert len(seen) > 30
    assert [n for n in sorted(seen) if not translated("de", n)] == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(riichi_hands.winning_hands(), mcr_hands.winning_hands()))
def test_whatever_a_random_riichi_or_mcr_hand_scores_is_a_translated_term(inp: HandInput) -> None:
    """Random complete hands of every shape (tests/scoring's strategies, built from sets, never
    from the scorer): each explained item, and the riichi limit, reads in every language."""
    try:
        result = score_hand(inp)
    except ScoringError:  # a riichi hand with no yaku: nothing is explained
        assume(False)
    names = {i.name for i in result.items} | ({result.limit_hand} if result.limit_hand else set())
    assert names
    for lang in LANGS:
        assert [n for n in sorted(names) if not translated(lang, n)] == [], lang


#: where pymahjonggb's Chinese name is not the Green Book's own (RULES.md's oracle, its wait
#: names as the Chinese Official Mahjong Helper writes them)
PYMAHJONGGB_ZH = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}


def test_the_chinese_fan_names_are_the_green_books_as_pymahjonggb_prints_them() -> None:
    pytest.importorskip("MahjongGB")
    from MahjongGB import MahjongFanCalculator

    from controller.scoring.mcr.fans import VALUE
    from tests.scoring.mcr_corpus import HANDS, hand_input
    from tests.scoring.mcr_oracle import NAME, oracle_args

    checked: dict[str, str] = {}
    for line in HANDS:
        try:
            fans = MahjongFanCalculator(**oracle_args(hand_input(line)), verbose=True)
        except TypeError:  # a hand it declines: nothing to compare
            continue
        for _value, _count, zh, en in fans:
            if NAME.get(en, en) in VALUE:  # not its "Concealed Kong and Melded Kong" (RULES.md 10)
                checked[NAME.get(en, en)] = PYMAHJONGGB_ZH.get(zh, zh)
    assert len(checked) >= 60  # the corpus earns most of the 81
    wrong = {en: (translated("zh-Hans", en), zh) for en, zh in checked.items()
             if translated("zh-Hans", en) != zh}
    assert wrong == {}


# --- the catalogs are sound gettext ------------------------------------------------------------


_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[sdif]")


@pytest.mark.parametrize("lang", LANGS)
def test_each_catalog_compiles_with_babel_and_keeps_its_placeholders(lang: str) -> None:
    cat = catalog(lang)
    assert str(cat.locale).replace("-", "_") == FOLDER[lang]
    assert [(m.id, errs) for m, errs in cat.check()] == []
    for m in cat:
        if m.id:
            want, got = _PLACEHOLDER.findall(str(m.id)), _PLACEHOLDER.findall(str(m.string))
            assert sorted(want) == sorted(got), f"{lang} {m.id!r}: the placeholders differ"
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    back = read_mo(io.BytesIO(buf.getvalue()))
    assert len([m for m in back if m.id]) == len([m for m in cat if m.id])
    t = Translations(buf, domain="terms")
    assert t.gettext("one suit only") == translated(lang, "one suit only")


def test_the_catalogs_say_what_the_rule_texts_say() -> None:
    """Spot checks against the source texts themselves (seeds 000, 001, 003; KJ; the Green
    Book; the EMA): a glossary edit that loses a source's own word fails here."""
    expect = {
        ("sv", "concealed pung of simples"): "Dold pong, 2–8",  # 001 "Dold Pong"
        ("sv", "only pungs/kongs, no chow"): "Pongspel",  # 001
        ("sv", "one suit plus winds or dragons"): "Halv färghand",  # 001
        ("sv", "three concealed pungs/kongs"): "Halvdold hand",  # 001
        ("sv", "east wind"): "Östan",  # 001
        ("de", "heavenly hand"): "Segen des Himmels",  # 000, KJ
        ("de", "big four joys"): "große vier Freuden",  # KJ
        ("de", "east wind"): "Ostwind",  # 000, 003
        ("zh-Hans", "Chicken Hand"): "无番和",  # GB
        ("zh-Hans", "Knitted Straight"): "组合龙",  # GB
        ("ja", "chiitoitsu"): "七対子",
        ("ja", "kokushi musou"): "国士無双",
        ("de", "pinfu"): "Pinfu",  # EMA-R romaji
    }
    assert {k: translated(*k) for k in expect} == expect


# --- the glossary and the catalogs agree --------------------------------------------------------


def test_the_glossary_and_the_catalogs_agree() -> None:
    s = script()
    glossary = s.read_glossary()
    assert glossary.problems == []
    assert s.problems(ids(), glossary) == []
    for msgid, row in glossary.rows.items():
        for lang in LANGS:
            got = translated(lang, msgid)
            assert got == row.words[lang], (
                f"{lang} {msgid!r}: the catalog says {got!r}, docs/glossary.md (line {row.line}) "
                f"{row.words[lang]!r}: run scripts/terms.py")


def test_a_code_reads_as_its_term_in_every_language() -> None:
    """``limit_hand`` carries a key (``hidden_treasure``) and a tile is a code (``5b``): the
    pages show each in the words of the term it names, in English too."""
    aliases = script().aliases()
    assert aliases["hidden_treasure"] == "hidden treasure" and aliases["5b"] == "5 bamboo"
    assert len(aliases) > 80
    for code, term in aliases.items():
        for lang in LANGS:
            want = term if lang == "en" else translated(lang, term)
            assert want and translated(lang, code) == want, (lang, code)
    assert translated("de", "gd") == "Grüner Drache" and translated("ja", "gd") == "發"


def test_the_script_finds_the_catalogs_current() -> None:
    assert script().main(["--check"]) == 0


def test_every_row_names_its_sources_and_every_source_is_explained() -> None:
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    keys = set(re.findall(r"^\| (\S+) \| ", text.split("### Vocabulary")[0], re.M)) - {"key"}
    assert {"000", "001", "KJ", "GB", "EMA-R", "desc"} <= keys
    for msgid, row in script().read_glossary().rows.items():
        used = {k.strip() for k in row.sources.split(",")}
        assert used and used <= keys, f"{msgid!r} (line {row.line}): sources {used - keys}"


def test_the_glossary_reader_refuses_a_broken_table(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    s = script()
    # the table below has the five first languages' columns (a sixth language adds none here)
    monkeypatch.setattr(s, "LANGUAGES", {lang: folder(lang) for lang in
                                         ("en", "de", "sv", "zh-Hans", "ja")})
    page = tmp_path / "g.md"
    page.write_text(
        "| msgid | en | de | sv | zh-Hans | ja | sources | notes |\n"
        "|---|---|---|---|---|---|---|---|\n"
        "| `pung` | pung | Pong | Pong | 刻子 | 刻子 | 000 | |\n"
        "| `pung` | pung | Pung | Pong | 刻子 | 刻子 | 003 | |\n"
        "| kong | kong | Kong | Kong | 杠 | 槓子 | 000 | |\n"
        "| `chow` | chow | Chow | Chow | 顺子 | 000 | |\n", encoding="utf-8")
    g = s.read_glossary(page)
    assert list(g.rows) == ["pung"] and g.rows["pung"].words["de"] == "Pong"
    assert [p.split(":")[0] for p in g.problems] == [
        "glossary line 4", "glossary line 5", "glossary line 6"]
