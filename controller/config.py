"""The table configuration: a TOML file validated strictly (unknown keys are errors that name the
key and its line), with defaults complete enough that ``serve --simulate`` needs no file at all.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from controller.i18n import LANGUAGES

ZONE_RE = re.compile(r"^(rack:[1-4]|melds:[1-4]|discard|river|dora)$")
CHANNEL_RE = re.compile(r"^[A-Za-z0-9_.-]+/[0-9]+$")
#: the scorer's PLAYABLE (tests/web/test_config.py)
RULESETS = ("hua-bao", "swedish", "dmjl", "bmja", "mcr", "riichi")


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the file, line and key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class SeatConfig(_Strict):
    """One physical seat: an optional player name and the GPIO pins of its buttons and LED."""

    name: str | None = None
    call_pin: int | None = None
    ready_pin: int | None = None
    mahjong_pin: int | None = None
    led_pin: int | None = None

    @model_validator(mode="after")
    def _buttons(self) -> SeatConfig:
        given = [self.call_pin, self.ready_pin, self.mahjong_pin]
        if any(p is not None for p in given) and None in given:
            raise ValueError("give all three button pins (call_pin, ready_pin, mahjong_pin) "
                             "or none")
        if self.led_pin is not None and None in given:
            raise ValueError("led_pin needs the seat's button pins too (call_pin, ready_pin, "
                             "mahjong_pin): the seat I/O drives a seat's buttons and LED together")
        return self

    def pins(self) -> dict[str, int]:
        """The seat's GPIOs as firmware_bridge.seat_io.SeatPins takes them (empty: none)."""
        if self.call_pin is None or self.ready_pin is None or self.mahjong_pin is None:
            return {}
        pins = {"call": self.call_pin, "ready": self.ready_pin, "mahjong": self.mahjong_pin}
        return pins | ({"led": self.led_pin} if self.led_pin is not None else {})


class TableConfig(_Strict):
    """Seats (positions 1-4) and the reader channel -> zone map (TABLE.md)."""

    seats: dict[str, SeatConfig] = Field(default_factory=dict)
    channels: dict[str, str] = Field(default_factory=dict)
    buzzer_pin: int | None = None
    #: the seat pages show each player's waits; false for competitive play
    show_waits: bool = True

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
                    f"channel {channel!r}: zone {zone!r} is not rack:N, melds:N, discard, river "
                    "or dora"
                )
        return v

    def seat_pins(self) -> dict[int, dict[str, int]]:
        """Position -> button and LED pins, for the seats that have buttons wired."""
        return {int(k): seat.pins() for k, seat in sorted(self.seats.items()) if seat.pins()}

    def gpio_pins(self) -> list[int]:
        """Every GPIO of the seat buttons, LEDs and the buzzer."""
        pins = [p for seat in self.seat_pins().values() for p in seat.values()]
        return pins + ([self.buzzer_pin] if self.buzzer_pin is not None else [])


class Mfrc522Chip(_Strict):
    """One MFRC522 on the Pi's SPI bus (firmware_bridge.mfrc522_backend.ReaderSpec).

    ``channel`` is n in the channel name "<board>/<n>" (default: the chip's place in the list);
    ``pin_cs`` a GPIO chip select for more chips than hardware CE lines (hardware_docs/wiring.md).
    """

    bus: int = Field(ge=0, le=6)
    device: int = Field(ge=0, le=2)
    pin_rst: int = Field(ge=0, le=27)
    pin_cs: int | None = Field(default=None, ge=0, le=27)
    channel: int | None = Field(default=None, ge=0, le=63)


class Mfrc522Config(_Strict):
    """MFRC522 chips polled in turn by one thread; their channels are "<board>/<channel>"."""

    board: str = Field(default="spi", pattern=r"^[A-Za-z0-9_.-]+$")
    speed_hz: int = Field(default=1_000_000, ge=10_000, le=10_000_000)
    chips: list[Mfrc522Chip] = Field(default_factory=list)

    @field_validator("chips")
    @classmethod
    def _distinct(cls, v: list[Mfrc522Chip]) -> list[Mfrc522Chip]:
        channels = [c.channel if c.channel is not None else i for i, c in enumerate(v)]
        for n in channels:
            if channels.count(n) > 1:
                raise ValueError(f"two chips have channel {n}: give each its own `channel`")
        selects = [(c.bus, c.device) for c in v if c.pin_cs is None]
        for bus, device in selects:
            if selects.count((bus, device)) > 1:
                raise ValueError(f"two chips on bus {bus} device {device} without pin_cs: give "
                                 "each its own device, or GPIO chip selects (pin_cs)")
        mixed = {(c.bus, c.device) for c in v if c.pin_cs is not None} & set(selects)
        if mixed:
            bus, device = min(mixed)
            raise ValueError(f"bus {bus} device {device} has chips with and without pin_cs: chips "
                             "with GPIO chip selects share a device with nothing else")
        return v

    def readers(self) -> list[dict[str, int]]:
        """The chips as firmware_bridge's mfrc522 back-end takes them (``readers=``)."""
        return [{k: v for k, v in c.model_dump().items() if v is not None} for c in self.chips]

    def pins(self) -> list[int]:
        """Every GPIO the chips use (reset and chip-select lines)."""
        return [p for c in self.chips for p in (c.pin_rst, c.pin_cs) if p is not None]


class SerialConfig(_Strict):
    """Boards on USB serial: by device path (``ports``, e.g. /dev/serial/by-id/...) and/or by
    their USB serial number (``boards``: serial number -> the board name its channels take,
    seat1..seat4 or centre; written at commissioning, hardware_docs/commissioning.md)."""

    ports: list[str] = Field(default_factory=list)
    boards: dict[str, str] = Field(default_factory=dict)
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
    port: int = Field(default=8080, ge=0, le=65535)  # 0: any free port
    public_url: str | None = None
    max_ws_clients: int = Field(default=500, ge=1, le=100_000)
    #: Of max_ws_clients, kept for token holders (seats, operator): anonymous sockets never
    #: take them (issue 22). And the anonymous sockets one address may hold.
    ws_reserved: int = Field(default=50, ge=0, le=100_000)
    ws_per_address: int = Field(default=100, ge=1, le=100_000)
    #: Seconds a client has to send a request's headers; then 408 and the connection closes.
    header_seconds: float = Field(default=10.0, gt=0, le=3600, allow_inf_nan=False)
    #: The CPU the service's threads run on: "auto" (the last one, with two or more), "off",
    #: or a number (controller/web/cpu.py).
    cpu: int | Literal["auto", "off"] = Field(default="auto", union_mode="left_to_right")
    #: The pages' language when a device has not chosen one (docs/i18n.md); none: each
    #: browser's Accept-Language.
    language: str | None = None

    @field_validator("language")
    @classmethod
    def _language(cls, value: str | None) -> str | None:
        if value is not None and value not in LANGUAGES:
            raise ValueError(f"{value!r} is not a language of the table: use one of "
                             f"{', '.join(LANGUAGES)} (or leave it out: each browser's own)")
        return value


class SimulationConfig(_Strict):
    """The in-process simulation (``serve --simulate``): seconds between table events."""

    pace: float = Field(default=0.5, ge=0.0, le=3600.0, allow_inf_nan=False)
    seed: int = 1
    hands: int | None = Field(default=None, ge=1)
    #: The virtual boards: milliseconds between scans and between full snapshots (the
    #: firmware's own are 20 and 250; the virtual table's defaults are quicker, for tests).
    scan_ms: float = Field(default=2.0, ge=1.0, le=1000.0, allow_inf_nan=False)
    snapshot_ms: float = Field(default=50.0, ge=10.0, le=10000.0, allow_inf_nan=False)
    #: The virtual boards in a process of their own, as real boards are devices of their own.
    boards_apart: bool = False


class ClubConfig(_Strict):
    """[club]: publish to the club's broker (``serve --club-broker`` and its options override
    these); ``credentials`` is the file ``mahjong-table club enrol-table NAME -o FILE`` wrote."""

    broker: str | None = Field(default=None, pattern=r"^[^\s]+$")
    credentials: Path | None = None
    ca: Path | None = None
    insecure_broker: bool = False


class ReviewConfig(_Strict):
    """[review]: the review pages of stored hands (docs/review.md). A seat's token sees its own
    concealed tiles throughout and, once the session has ended, the other seats' too; false
    keeps the other seats' concealed tiles hidden from seat tokens for good (the operator
    still sees every tile)."""

    reveal_after_session: bool = True


class Config(_Strict):
    table: TableConfig = Field(default_factory=TableConfig)
    readers: ReadersConfig = Field(default_factory=ReadersConfig)
    session: SessionConfig = Field(default_factory=SessionConfig)
    timers: TimersConfig = Field(default_factory=TimersConfig)
    data: DataConfig = Field(default_factory=DataConfig)
    server: ServerConfig = Field(default_factory=ServerConfig)
    simulation: SimulationConfig = Field(default_factory=SimulationConfig)
    club: ClubConfig = Field(default_factory=ClubConfig)
    review: ReviewConfig = Field(default_factory=ReviewConfig)

    @model_validator(mode="after")
    def _pins_once(self) -> Config:
        # one GPIO driven by two parts would make both misbehave in ways hard to see
        table = self.table.gpio_pins()
        for pin in table:
            if table.count(pin) > 1:
                raise ValueError(f"GPIO {pin} is given twice in [table] (buttons, LEDs, buzzer): "
                                 "give each its own pin")
        if self.readers.backend != "mfrc522":
            return self
        chips = self.readers.mfrc522.chips
        cs = [c.pin_cs for c in chips if c.pin_cs is not None]
        rst = {c.pin_rst for c in chips}
        for pin in cs:
            if cs.count(pin) > 1 or pin in rst:
                raise ValueError(f"GPIO {pin} is used twice by [readers.mfrc522] chips: give each "
                                 "chip its own pin_cs, apart from the reset pins")
        for pin in self.readers.mfrc522.pins():
            if pin in table:
                raise ValueError(f"GPIO {pin} is both a reader pin ([readers.mfrc522]) and a "
                                 "seat button, LED or buzzer pin ([table]): move one")
        return self


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
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{p}: not UTF-8 text (byte {exc.start}): save the config as "
                          "UTF-8") from None
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
    except RecursionError:
        raise ConfigError(f"{name}: not a table configuration: arrays or tables nested too "
                          "deeply") from None
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
    if not loc:  # a check across sections: its message names the keys
        return f"{where}: {err['msg'].removeprefix('Value error, ')}"
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
