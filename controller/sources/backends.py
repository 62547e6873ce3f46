"""Reader back-ends made from their config section: one factory per back-end, registered by
name (as Klipper loads a module from its config section, or gpiozero picks a pin factory).

    backend = open_reader(config, buttons=True)   # not started; BridgeConfigError if unusable

A new back-end is one function here, decorated with ``@reader_factory("name")``, taking the
``[readers]`` section and returning a ``firmware_bridge.readers.ReaderBackend``; its own
section goes in ``controller.config.ReadersConfig`` (and the name in its ``backend`` Literal).
"""

from __future__ import annotations

from collections.abc import Callable

from controller.config import Config, ReadersConfig
from firmware_bridge.errors import BridgeConfigError
from firmware_bridge.readers import ReaderBackend, open_backend
from firmware_bridge.seat_io import WithSeatIO

ReaderFactory = Callable[[ReadersConfig], ReaderBackend]
#: back-end name -> the factory that makes it from the [readers] section
FACTORIES: dict[str, ReaderFactory] = {}
#: back-ends whose boards sweep and report a tag only after two reads in a row (the firmware's
#: and the virtual boards' rule, hardware_docs/protocol.md): the host takes their reports as
#: already confirmed. The Pi's direct SPI back-end (``mfrc522``) reports every sweep's reads:
#: the host's tracker counts the two agreeing reads itself.
BOARD_CONFIRMED = frozenset({"serial", "sim"})


def reader_factory(name: str) -> Callable[[ReaderFactory], ReaderFactory]:
    """Register the factory of the back-end called ``name``."""

    def register(factory: ReaderFactory) -> ReaderFactory:
        FACTORIES[name] = factory
        return factory

    return register


@reader_factory("serial")
def serial_readers(readers: ReadersConfig) -> ReaderBackend:
    section = readers.serial
    if not section.ports and not section.boards:
        raise BridgeConfigError("the serial back-end has no boards: list their USB serial numbers "
                                "in [readers.serial] boards (`mahjong-table readers` shows them), "
                                "or their device paths in ports")
    return open_backend("serial", ports=list(section.ports), serials=list(section.boards),
                        names=dict(section.boards), baudrate=section.baudrate)


@reader_factory("sim")
def sim_readers(readers: ReadersConfig) -> ReaderBackend:
    return open_backend("sim", seed=readers.sim.seed)


@reader_factory("mfrc522")
def mfrc522_readers(readers: ReadersConfig) -> ReaderBackend:
    spi = readers.mfrc522
    if not spi.chips:
        raise BridgeConfigError(
            "the mfrc522 back-end has no chips: list them in [readers.mfrc522] chips, e.g. "
            "[{bus = 0, device = 0, pin_rst = 25}]")
    # cycle_s: a pause between poll cycles, so that a table of few chips does not spin
    return open_backend("mfrc522", readers=spi.readers(), board=spi.board,
                        speed_hz=spi.speed_hz, cycle_s=readers.scan_interval / 2)


def open_reader(config: Config, buttons: bool = False) -> ReaderBackend:
    """The configured back-end, not started. With ``buttons`` and seat pins or a buzzer in
    ``[table]``, it comes wrapped in ``WithSeatIO`` so that button presses join the scans."""
    factory = FACTORIES.get(config.readers.backend)
    if factory is None:
        raise BridgeConfigError(f"unknown reader back-end {config.readers.backend!r}: choose one "
                                f"of {', '.join(sorted(FACTORIES))}")
    backend = factory(config.readers)
    table = config.table
    if buttons and (table.seat_pins() or table.buzzer_pin is not None):
        return WithSeatIO(backend, table.seat_pins(), table.buzzer_pin)
    return backend


def confirm_reads(config: Config) -> int:
    """The presence tracker's ``confirm_reads`` for the configured back-end: 1 where the boards
    confirm (their reports are two agreeing reads already), else 2."""
    return 1 if config.readers.backend in BOARD_CONFIRMED else 2


def channel_map(config: Config) -> dict[str, str]:
    """Channel -> zone: ``[table.channels]``, or the virtual table's own layout for ``sim``."""
    if config.table.channels:
        return dict(config.table.channels)
    if config.readers.backend != "sim":
        return {}
    from firmware_bridge.sim import default_layout

    return {f"{b.name}/{n}": label for b in default_layout() for n, label in b.labels().items()}
