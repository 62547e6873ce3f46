"""The table configuration: a TOML file validated strictly (unknown keys are errors that name the
key and its line), with defaults complete enough that ``serve --simulate`` needs no file at all.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

ZONE_RE = re.compile(r"^(rack:[1-4]|melds:[1-4]|discard|river)$")
CHANNEL_RE = re.compile(r"^[A-Za-z0-9_.-]+/[0-9]+$")
RULESETS = ("hua-bao", "swedish", "dmjl")


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the file, line and key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SeatConfig(_Strict):
    """One physical seat: an optional player name and the GPIO pins of its buttons and LED."""

    name: str | None = None
    call_pin: int | None = None
    ready_pin: int | None = None
    mahjong_pin: int | None = None
    led_pin: int | None = None


class TableConfig(_Strict):
    """Seats (positions 1-4) and the reader channel -> zone map (TABLE.md)."""

    seats: dict[str, SeatConfig] = Field(default_factory=dict)
    channels: dict[str, str] = Field(default_factory=dict)
    buzzer_pin: int | None = None

    @field_validator("seats")
    @classmethod
    def _positions(cls, v: dict[str, SeatConfig]) -> dict[str, SeatConfig]:
        for key in v:
            if key not in ("1", "2", "3", "4"):
                raise ValueError(f"seat {key!r} is not a position: use 1, 2, 3 or 4")
        return v

    @field_validator("channels")
    @classmethod
    def _zones(cls, v: dict[str, str]) -> dict[str, str]:
        for channel, zone in v.items():
            if not CHANNEL_RE.match(channel):
                raise ValueError(f"channel {channel!r} is not '<board>/<n>' (e.g. 'seat1/0')")
            if not ZONE_RE.match(zone):
                raise ValueError(
                    f"channel {channel!r}: zone {zone!r} is not rack:N, melds:N, discard or river"
                )
        return v


class Mfrc522Chip(_Strict):
    """One MFRC522 on the SPI bus: its chip-select GPIO and the channel names it serves."""

    board: str
    cs_pin: int
    antennas: int = Field(default=1, ge=1, le=16)


class Mfrc522Config(_Strict):
    spi_bus: int = 0
    spi_device: int = 0
    reset_pin: int = 25
    chips: list[Mfrc522Chip] = Field(default_factory=list)


class SerialConfig(_Strict):
    ports: list[str] = Field(default_factory=list)
    baudrate: int = 115200
    timeout: float = Field(default=0.5, gt=0)


class SimReadersConfig(_Strict):
    seed: int | None = None
    miss_rate: float = Field(default=0.0, ge=0.0, le=1.0)


class ReadersConfig(_Strict):
    """Which reader back-end serves the zones, and how scans become presence."""

    backend: Literal["mfrc522", "serial", "sim"] = "sim"
    scan_interval: float = Field(default=0.1, gt=0)
    absent_after: float = Field(default=0.4, gt=0)
    mfrc522: Mfrc522Config = Field(default_factory=Mfrc522Config)
    serial: SerialConfig = Field(default_factory=SerialConfig)
    sim: SimReadersConfig = Field(default_factory=SimReadersConfig)


class SessionConfig(_Strict):
    """The rule set and options a session starts with (admin may choose others)."""

    ruleset: str = "hua-bao"
    options: dict[str, Any] = Field(default_factory=dict)
    autostart: bool = True

    @field_validator("ruleset")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in RULESETS:
            raise ValueError(f"unknown rule set {v!r}: use one of {', '.join(RULESETS)}")
        return v


class TimersConfig(_Strict):
    """Call timers (rules 003): off by default; overruns are recorded, never enforced."""

    enabled: bool = False
    claim_seconds: float = Field(default=3.0, gt=0)
    turn_seconds: float = Field(default=10.0, gt=0)
    first_turn_seconds: float = Field(default=20.0, gt=0)


class DataConfig(_Strict):
    dir: Path = Path("data")


class ServerConfig(_Strict):
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=1, le=65535)
    public_url: str | None = None


class SimulationConfig(_Strict):
    """The in-process simulation (``serve --simulate``): seconds between table events."""

    pace: float = Field(default=0.5, ge=0.0)
    seed: int = 1
    hands: int | None = Field(default=None, ge=1)


class Config(_Strict):
    table: TableConfig = Field(default_factory=TableConfig)
    readers: ReadersConfig = Field(default_factory=ReadersConfig)
    session: SessionConfig = Field(default_factory=SessionConfig)
    timers: TimersConfig = Field(default_factory=TimersConfig)
    data: DataConfig = Field(default_factory=DataConfig)
    server: ServerConfig = Field(default_factory=ServerConfig)
    simulation: SimulationConfig = Field(default_factory=SimulationConfig)


def default_config() -> Config:
    """The configuration used when no file is given."""
    return Config()


def load_config(path: str | Path) -> Config:
    """Read and validate a TOML config; relative ``[data] dir`` is taken from the file's folder."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the config file: {exc.strerror or exc}") from None
    cfg = parse_config(text, str(p))
    if not cfg.data.dir.is_absolute():
        cfg = cfg.model_copy(
            update={"data": DataConfig(dir=(p.resolve().parent / cfg.data.dir))}
        )
    return cfg


def parse_config(text: str, name: str = "<config>") -> Config:
    """Validate TOML text; every problem is one line naming the file, line and key."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: not valid TOML: {exc}") from None
    try:
        return Config.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, text, name)) from None


def _describe(exc: ValidationError, text: str, name: str) -> str:
    """The first validation error as 'file:line: [section] key: message'."""
    err = exc.errors()[0]
    loc = [str(x) for x in err["loc"]]
    line = _find_line(text, loc)
    where = f"{name}:{line}" if line else name
    dotted = ".".join(loc)
    if err["type"] == "extra_forbidden":
        section = ".".join(loc[:-1]) or "top level"
        return f"{where}: unknown key {loc[-1]!r} in [{section}]: remove it or check its spelling"
    msg = err["msg"].removeprefix("Value error, ")
    return f"{where}: {dotted}: {msg}"


def _find_line(text: str, loc: list[str]) -> int | None:
    """Best-effort line number of the key at ``loc`` (sections as headers or dotted keys)."""
    section: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        header = re.match(r"^\[+\s*([^\]]+?)\s*\]+", line)
        if header:
            section = [s.strip().strip('"') for s in header.group(1).split(".")]
            if section == loc:
                return number
            continue
        key = re.match(r'^"?([^"=\s]+)"?\s*=', line)
        if key and section + key.group(1).split(".") == loc[: len(section) + 1]:
            return number
        if key and section == loc[:-1] and key.group(1) == loc[-1]:
            return number
    return None
