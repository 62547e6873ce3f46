"""Enrollment with scripted scans on the pad: order, resume, duplicates, ghosts; the command."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from controller.cli import main
from controller.table import Enrollment, EnrollmentProgress, TileRegistry
from controller.tiles import tile_set
from firmware_bridge.types import ChannelScan

PAD = "centre/0"


def uid(n: int) -> str:
    return f"04:00:00:{n >> 8:02X}:{n & 0xFF:02X}:00:01"


class Pad:
    """A person at the pad: each tile held there for a few scans, then lifted."""

    def __init__(self) -> None:
        self.t = 0.0

    def scan(self, *uids: str, channel: str = PAD) -> ChannelScan:
        self.t += 0.05
        return ChannelScan(channel, frozenset(uids), self.t)

    def place(self, tag: str, reads: int = 3) -> list[ChannelScan]:
        return [self.scan(tag) for _ in range(reads)] + [self.scan()]


def test_tiles_are_enrolled_in_set_order_with_progress() -> None:
    registry = TileRegistry(136)
    enrollment = Enrollment(registry, [PAD])
    pad = Pad()
    steps = []
    for n in range(6):
        for scan in pad.place(uid(n)):
            steps += enrollment.offer(scan)
    assert [s.kind for s in steps] == ["enrolled"] * 6
    assert [registry[uid(n)] for n in range(6)] == ["1b"] * 4 + ["2b"] * 2
    progress = enrollment.progress
    assert (progress.enrolled, progress.total, progress.next_tile) == (6, 136, "2b")
    assert progress.bar() == "6/136 [....................]"
    assert "2b" in steps[-1].message and uid(5) in steps[-1].message


def test_a_tile_left_on_the_pad_is_enrolled_once() -> None:
    registry = TileRegistry(144)
    enrollment = Enrollment(registry, [PAD])
    pad = Pad()
    steps = [s for _ in range(20) for s in enrollment.offer(pad.scan(uid(1)))]
    assert [s.kind for s in steps] == ["enrolled"]
    assert len(registry) == 1


def test_a_duplicate_uid_is_refused_with_a_clear_message() -> None:
    registry = TileRegistry(144)
    enrollment = Enrollment(registry, [PAD])
    pad = Pad()
    enrollment.run(pad.place(uid(1)))
    steps = [s for scan in pad.place(uid(1)) for s in enrollment.offer(scan)]
    assert [s.kind for s in steps] == ["duplicate"]
    assert steps[0].message == (f"UID {uid(1)} is already enrolled as 1b: take it off and "
                                "place a 1b")
    assert len(registry) == 1


def test_ghost_reads_are_refused_and_enroll_nothing() -> None:
    registry = TileRegistry(144)
    enrollment = Enrollment(registry, [PAD])
    pad = Pad()
    # A single passing read from a neighbouring antenna, then a garbled UID.
    steps = enrollment.offer(pad.scan(uid(7))) + enrollment.offer(pad.scan())
    steps += enrollment.offer(pad.scan("04:ZZ:19")) + enrollment.offer(pad.scan("04:ZZ:19"))
    assert [s.kind for s in steps] == ["ghost", "ghost"]
    assert "passing read" in steps[0].message and "not a tag UID" in steps[1].message
    assert len(registry) == 0 and enrollment.progress.next_tile == "1b"


def test_two_tags_on_the_pad_are_refused_until_one_is_left() -> None:
    registry = TileRegistry(144)
    enrollment = Enrollment(registry, [PAD])
    pad = Pad()
    steps = [s for _ in range(3) for s in enrollment.offer(pad.scan(uid(1), uid(2)))]
    assert [s.kind for s in steps] == ["crowded"]
    assert "leave only the 1b" in steps[0].message
    steps = [s for _ in range(2) for s in enrollment.offer(pad.scan(uid(2)))]
    assert [s.kind for s in steps] == ["enrolled"] and dict(registry) == {uid(2): "1b"}


def test_other_channels_are_ignored() -> None:
    enrollment = Enrollment(TileRegistry(144), [PAD])
    pad = Pad()
    assert [enrollment.offer(pad.scan(uid(1), channel="seat1/0")) for _ in range(3)] == [[]] * 3


def test_enrollment_resumes_where_it_stopped(tmp_path: Path) -> None:
    pad = Pad()
    first = Enrollment(TileRegistry.open(tmp_path, 136), [PAD])
    first.run(s for n in range(10) for s in pad.place(uid(n)))
    second = Enrollment(TileRegistry.open(tmp_path), [PAD])
    assert second.progress.enrolled == 10 and second.progress.next_tile == "3b"
    progress = second.run(s for n in range(200) for s in pad.place(uid(n)))
    assert progress.done and progress.enrolled == 136
    registry = TileRegistry.open(tmp_path)
    assert sorted(registry.values()) == sorted(tile_set(False))


def test_progress_json_for_the_dashboard() -> None:
    registry = TileRegistry(144)
    shown = EnrollmentProgress.of(registry, "hello").to_json()
    assert shown == {"enrolled": 0, "total": 144, "next_tile": "1b", "next_glyph": "\U0001f010",
                     "done": False, "bar": "0/144 [....................]", "message": "hello"}


def test_progress_counts_the_rule_sets_tile_set() -> None:
    """A 144-tile registry (flowers and seasons tagged too) counted for a game of 136 tiles
    (riichi, RULES.md 11: no bonus tiles): its bonus tiles count for nothing, and it is complete
    once the 136 are tagged; a 136-tile registry for a 144-tile game lacks the 8 bonus tiles."""
    registry = TileRegistry(144)
    registry.add(uid(0), "1f")
    registry.add(uid(1), "1b")
    shown = EnrollmentProgress.of(registry, bonus_tiles=False)
    assert (shown.enrolled, shown.total, shown.next_tile) == (1, 136, "1b")
    for n, tile in enumerate(tile_set(False)[1:], start=2):
        registry.add(uid(n), tile)
    shown = EnrollmentProgress.of(registry, bonus_tiles=False)
    assert (shown.enrolled, shown.total, shown.done) == (136, 136, True)
    assert not EnrollmentProgress.of(registry).done  # as a 144-tile set: 7 flowers and seasons
    small = TileRegistry(136)
    shown = EnrollmentProgress.of(small, bonus_tiles=True)
    assert (shown.enrolled, shown.total, shown.next_tile) == (0, 144, "1b")


def test_enroll_with_a_riichi_config_makes_a_136_tile_registry(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[session]\nruleset = "riichi"\n', encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    assert main(["enroll", "--data-dir", str(data), "--config", str(config), "--status"]) == 0
    assert capsys.readouterr().out.startswith("0/136 ")
    assert TileRegistry.open(data).set_size == 136


# --- the command ----------------------------------------------------------------------------


def _stdin(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))


def test_enroll_command_walks_and_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    lines = []
    for n in range(3):
        lines += [f"{PAD} {uid(n)}"] * 2 + [PAD]
    lines.append(json.dumps({"channel": PAD, "uids": [uid(0)], "t": 9.0}))
    _stdin(monkeypatch, lines)
    assert main(["enroll", "--data-dir", str(tmp_path), "--set", "136"]) == 0
    out = capsys.readouterr().out
    assert "0/136 [....................] next: place 1b \U0001f010 on the pad" in out
    assert "3/136 [....................] next: place 1b" in out
    assert "already enrolled as 1b" in out and "stopped at 3/136" in out
    _stdin(monkeypatch, [])
    assert main(["enroll", "--data-dir", str(tmp_path)]) == 0
    assert "3/136" in capsys.readouterr().out


def test_enroll_export_import_forget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "a", tmp_path / "b"
    source.mkdir()
    target.mkdir()
    registry = TileRegistry.open(source, 144)
    registry.add_all((uid(n), t) for n, t in enumerate(tile_set(True)[:50]))
    assert main(["enroll", "--data-dir", str(source), "--export", str(tmp_path / "t.csv")]) == 0
    assert main(["enroll", "--data-dir", str(target), "--import", str(tmp_path / "t.csv")]) == 0
    assert "50 tiles imported; 50/144" in capsys.readouterr().out
    assert dict(TileRegistry.open(target)) == dict(registry)
    assert main(["enroll", "--data-dir", str(target), "--forget", uid(49)]) == 0
    assert f"forgot {uid(49)} (4c)" in capsys.readouterr().out
    assert main(["enroll", "--data-dir", str(target), "--status"]) == 0
    assert "49/144" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["--forget", "04:00:00:99"], [], "UID 04:00:00:99 is not in the registry"),
        (["--import", "tiles.txt"], [], "name the file .json or .csv"),
        ([], ["{bad json"], "standard input line 1: not a scan"),
        (["--reader", "serial"], [], "needs --port PATH or --serial NUMBER"),
    ],
)
def test_enroll_errors_are_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    args: list[str], stdin: list[str], message: str,
) -> None:
    _stdin(monkeypatch, stdin)
    assert main(["enroll", "--data-dir", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
