"""From scans to moves (TABLE.md): debounced presence per zone, one move per tile that moved.

Each scan carries its time; ``tick(now)`` handles what only the passing of time shows (a silent
reader, a tile read in two zones for too long). Output: Contract 3 ``move`` and ``anomaly``
events. Anomalies never move a tile; nothing here raises on bad input from the readers.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.tiles import Tile, copies_allowed


class ScanLike(Protocol):
    """What the tracker and enrollment need of a scan: firmware_bridge's ``ChannelScan`` fits."""

    @property
    def channel(self) -> str: ...

    @property
    def uids(self) -> frozenset[str]: ...

    @property
    def t(self) -> float: ...


WALL, DISCARD, RIVER = "wall", "discard", "river"
ZONE_RE = re.compile(r"^(rack:[1-4]|melds:[1-4]|discard|river|dora)$")
#: the latest pauses of the whole table kept (PresenceTracker._silence): one older than every
#: channel's last scan takes nothing off any count; each is a second long at least
PAUSES_KEPT = 8
Event = dict[str, Any]


@dataclass
class _Track:
    """What the tracker believes about one tagged tile."""

    uid: str
    tile: Tile
    zone: str | None = None  # where the game has it; None: off the table (the wall)
    channel: str | None = None  # the channel that last read it in ``zone``; None: unread
    last: float = 0.0  # when it was last read in ``zone``
    missed: float | None = None  # its channel's first scan without it since ``last`` (if later)
    since: float = 0.0  # when it arrived in ``zone``
    missing: bool = False  # left a rack or meld strip for nowhere (reported once)
    quarantined: bool = False  # a fifth copy: followed, but it never makes moves
    other: str | None = None  # another zone reading it at the same time
    other_channel: str = ""
    other_last: float = 0.0
    both_since: float | None = None
    both_reported: bool = False
    order: int = 0  # the tracker's n-th tile: settling goes in this order
    pending: str | None = None  # a rack or meld zone that has read it, not yet twice
    pending_channel: str = ""  # the channel of that zone's latest agreeing read
    pending_reads: int = 0


@dataclass
class _Channel:
    zone: str
    last_scan: float | None = None
    before: float | None = None  # the scan before the last (see _claim_readers_behind)
    uids: frozenset[str] = field(default_factory=frozenset)
    silent_reported: bool = False
    resync: float | None = None  # its board's latest resynchronisation (see ``resyncing``)


class PresenceTracker:
    """Turns ChannelScans into moves between zones.

    ``absent_after``: seconds a tile must go unread (while its reader keeps scanning) before it
    has left. ``move_window``: how long a tile may be read in two zones at once while it moves.
    ``silent_after``: seconds without a scan, while the table is heard, before a channel is
    reported silent. A pause of the whole table (no channel scanned for ``silent_after / 3``
    or more, then scans again: every board held up at once, a host that gave the boards' or
    the links' threads no CPU) is no channel's silence: it is taken off every channel's count.
    ``ghost_quiet``: at most one ``unknown_uid`` report per zone in this many seconds (garbled
    reads come in bursts; the next report counts the ones held back).
    ``confirm_reads``: how many agreeing reads a rack or meld-strip zone needs before it takes
    a tile from elsewhere (a single cross-read from a neighbouring coil is no move); a scan of
    the channel that read it last, without it, starts the count again. Boards count the two
    reads themselves and the service sets 1 for them (controller.sources.backends.confirm_reads:
    a board's snapshots repeat what it holds, which must not count as reads).
    """

    def __init__(
        self, channels: Mapping[str, str], registry: Mapping[str, Tile], *,
        absent_after: float = 0.4, move_window: float = 1.0, silent_after: float = 3.0,
        ghost_quiet: float = 5.0, confirm_reads: int = 2,
    ) -> None:
        for channel, zone in channels.items():
            if not ZONE_RE.match(zone):
                raise ValueError(f"channel {channel!r}: zone {zone!r} is not rack:N, melds:N, "
                                 "discard or river")
        self.registry = registry
        self.absent_after = absent_after
        self.move_window = move_window
        self.silent_after = silent_after
        self.ghost_quiet = ghost_quiet
        self.confirm_reads = confirm_reads
        self._pending: dict[str, set[str]] = {}  # channel -> UIDs counting agreeing reads
        self.hand_over = False
        self._channels = {name: _Channel(zone) for name, zone in channels.items()}
        self._tracks: dict[str, _Track] = {}
        # Settling after a scan looks only at the tiles that scan can change (see _settle):
        self._on: dict[str, set[str]] = {}  # channel -> UIDs of the tiles it holds (.channel)
        self._watch: set[str] = set()  # read in two zones, or gone but held back: every time
        self._ghosts: dict[tuple[str, str], float] = {}
        self._ghost_reports: dict[str, tuple[float, int]] = {}  # zone -> (last report, held)
        self._unmapped: set[str] = set()
        self._start: float | None = None
        self._latest: float | None = None  # the reader's clock: the newest scan's own time
        # the whole table unheard: (from, to)
        self._pauses: deque[tuple[float, float]] = deque(maxlen=PAUSES_KEPT)
        self._expected: dict[str, Counter[Tile]] = {}  # adopted after a restart, not yet read
        self._now: float | None = None  # the newest scan or tick time
        self._resumed_at: float | None = None  # when a finished hand was taken back (undo)
        self._to_wall: Counter[tuple[str, Tile]] = Counter()  # put-backs to the wall due

    # --- input ----------------------------------------------------------------------------------

    def scan(self, scan: ScanLike) -> list[Event]:
        """Take one channel's full set of UIDs; return the moves and anomalies it shows."""
        if self._start is None:
            self._start = scan.t
        if self._latest is not None and scan.t - self._latest >= self.silent_after / 3:
            self._pauses.append((self._latest, scan.t))  # no channel scanned in between
        self._latest = scan.t if self._latest is None else max(self._latest, scan.t)
        channel = self._channels.get(scan.channel)
        if channel is None:
            return self._unmapped_channel(scan.channel)
        channel.before, channel.last_scan = channel.last_scan, scan.t
        channel.uids, channel.silent_reported = scan.uids, False
        self._now = scan.t if self._now is None else max(self._now, scan.t)
        for uid in self._on.get(scan.channel, set()) - scan.uids:
            held = self._tracks[uid]
            if held.missed is None or held.missed <= held.last:
                held.missed = scan.t  # the first scan since its last read to miss it
        self._disagree(scan.channel, scan.uids)
        events: list[Event] = []
        for uid in sorted(scan.uids):
            tile = self.registry.get(uid)
            if tile is None:
                events.extend(self._unknown(uid, channel.zone, scan.t))
            else:
                events.extend(self._read(uid, tile, scan.channel, channel.zone, scan.t))
        events.extend(self._settle(scan.t, scan.channel))
        return events

    def scans(self, scans: Iterable[ScanLike]) -> list[Event]:
        """Take many scans in order (a convenience for tests and replays of raw scans)."""
        return [event for scan in scans for event in self.scan(scan)]

    def tick(self, now: float, waiting: Collection[str] = ()) -> list[Event]:
        """Let time pass: silent channels, tiles read in two zones too long. ``waiting``: the
        channels whose newer scan is queued, not yet taken, and the boards whose resync report
        is (firmware_bridge.readers.LatestScans.waiting): none of their channels is silent. A
        loop that gets to a burst of scans late may tick between its first scans and its last.

        Time is the reader's own clock (the newest scan's ``t``), not ``now``, once scans have
        come: a loop that gets to the scans late (load on the machine) does not make readers
        look silent. Only when the reader's clock has stood still for ten times
        ``silent_after`` (every reader quiet, a bridge without health reports) does ``now``
        count."""
        if self._latest is not None and now - self._latest < 10 * self.silent_after:
            now = min(now, self._latest)
        if self._start is None:
            self._start = now
        self._now = now if self._now is None else max(self._now, now)
        events = self._settle(now)
        for name, channel in self._channels.items():
            if name in waiting or name.partition("/")[0] in waiting:
                continue
            since = channel.last_scan if channel.last_scan is not None else self._start
            heard = since if channel.resync is None else max(since, channel.resync)
            if self._silence(heard, now) >= self.silent_after and not channel.silent_reported:
                channel.silent_reported = True
                events.append(_anomaly("reader_silent", channel=name, zone=channel.zone,
                                       message=f"channel {name} ({channel.zone}) has sent no "
                                       f"scan for {now - since:.1f} s: check its reader and "
                                       "cable; its tiles stay where they were"))
        self._ghosts = {k: t for k, t in self._ghosts.items() if now - t < 60.0}
        return events

    def _silence(self, since: float, now: float) -> float:
        """Seconds from ``since`` to ``now`` while the table was heard: the pauses of the
        whole table (see the class) do not count. Loaded run 25: the virtual boards' process
        got no CPU for over three seconds; the first board heard after it moved the readers'
        clock on, and every channel of the others was "silent" before its own scan came."""
        quiet = now - since
        for start, end in self._pauses:
            quiet -= max(0.0, min(end, now) - max(start, since))
        return quiet

    def _live(self, channel: _Channel, newest: float) -> bool:
        """Is a channel that has scanned still live at ``newest``: not reported silent, and
        less than ``silent_after`` of heard time behind it (``_sees``, ``_readers_behind``)?"""
        assert channel.last_scan is not None
        return (not channel.silent_reported
                and self._silence(channel.last_scan, newest) < self.silent_after)

    def resyncing(self, board: str, t: float) -> None:
        """Board ``board`` is being resynchronised at ``t`` (the reader's clock): its frames
        showed a gap, and its channels' scans wait for its snapshot (firmware_bridge's serial
        link posts none of a stale channel, and asks again every 50 ms). A board that is
        resynchronising is talking, so a channel is not silent before ``silent_after`` from the
        first resync since its last scan (after a held-up loop that scan is long ago, its
        board's next frames having been dropped meanwhile); a resync that never ends is silence
        all the same, ``silent_after`` after it began."""
        prefix = board + "/"
        for name, channel in self._channels.items():
            if name.startswith(prefix) and (channel.resync is None or (
                    channel.last_scan is not None and channel.resync <= channel.last_scan)):
                channel.resync = t  # the first of this resynchronisation

    def adopt(self, zones: Mapping[str, Iterable[Tile]]) -> None:
        """After a restart: the tiles the game has in each zone, by code. A tile first read
        where the game has an unread copy of its code is taken as already there (no move);
        read elsewhere, it moves from a zone where the game has one, else from the wall."""
        self._expected = {zone: Counter(tiles) for zone, tiles in zones.items()}

    def set_hand_over(self, over: bool) -> list[Event]:
        """Told by the game: while a hand is over, tiles leaving the table go back to the wall.

        A finished hand taken back (an operator's undo) is in play again; a tile last read
        before that and found gone only now was cleared to the wall while the hand was over.
        """
        if self.hand_over and not over:
            self._resumed_at = self._now
        self.hand_over = over
        events: list[Event] = []
        self._expected = {}  # cleared, or a new hand: a leftover adoption would hide a deal
        if over:
            for track in self._tracks.values():
                if track.missing:
                    events.extend(self._leave(track, WALL))
        return events

    def expect_to_wall(self, tiles: Iterable[tuple[str, Tile]]) -> None:
        """Told by the game: these (zone, tile) lie out of place and belong in the wall (an
        undone draw): such a tile leaving its zone goes back to the wall, it is not missing."""
        self._to_wall = Counter(tiles)

    def relabel(self, zone: str, tile: Tile, as_tile: Tile) -> str | None:
        """A misread corrected by the operator: the tile read as ``tile`` in ``zone`` is
        ``as_tile``, from now on (its tag's registry entry is wrong: enroll it again). Of
        several copies in the zone the one that arrived last is taken. Returns its UID."""
        tracks = [t for t in self._tracks.values()
                  if t.zone == zone and t.tile == tile and not t.quarantined]
        if not tracks:
            return None
        track = max(tracks, key=lambda t: t.since)
        track.tile = as_tile
        return track.uid

    # --- what the tracker believes ----------------------------------------------------------

    @property
    def latest(self) -> float | None:
        """The reader clock: the newest scan's own time (None before the first scan)."""
        return self._latest

    def cleared_since(self, t: float) -> bool:
        """Has every reader read nothing in a scan since ``t`` (the table swept at ``t``)?
        Readers that never scanned, or reported silent, do not hold it back."""
        return all(ch.last_scan >= t and not ch.uids for ch in self._channels.values()
                   if ch.last_scan is not None and not ch.silent_reported)

    def positions(self) -> dict[str, str]:
        """UID -> zone for every tile that has been on the table (``wall`` when off it)."""
        return {uid: t.zone or WALL for uid, t in self._tracks.items() if not t.quarantined}

    def describe(self, uid: str, now: float) -> str:
        """What the tracker believes of one UID and of the channels that read it, in words:
        for a warning that a move was not registered (what the operator or a developer needs
        to see why)."""
        track = self._tracks.get(uid)
        if track is None:
            return f"{uid}: never read"
        parts = [f"{uid}: in {track.zone or WALL}"]  # no tile code: it may be concealed
        if track.quarantined:
            parts.append("quarantined as a fifth copy")
        if track.missing:
            parts.append("reported missing")
        if track.other is not None:
            parts.append(f"also read in {track.other} on {track.other_channel} "
                         f"{now - track.other_last:.2f} s ago")
        for name, channel in sorted(self._channels.items()):
            if channel.last_scan is None or name not in (track.channel, track.other_channel) \
                    and uid not in channel.uids:
                continue
            parts.append(f"{name} ({channel.zone}) last scanned {now - channel.last_scan:.2f} s "
                         f"ago, {'reading' if uid in channel.uids else 'not reading'} it")
        return "; ".join(parts)

    def zone_tiles(self) -> dict[str, list[Tile]]:
        """Zone -> tile codes there (what the tracker believes, for monitors and checks)."""
        result: dict[str, list[Tile]] = {}
        for track in self._tracks.values():
            if track.zone is not None and not track.quarantined:
                result.setdefault(track.zone, []).append(track.tile)
        return {zone: sorted(tiles) for zone, tiles in sorted(result.items())}

    # --- reads ----------------------------------------------------------------------------------

    def _read(self, uid: str, tile: Tile, channel: str, zone: str, t: float) -> list[Event]:
        track = self._tracks.get(uid)
        if track is None:
            track = self._tracks[uid] = _Track(uid, tile, order=len(self._tracks))
        if track.zone == zone:
            self._place(track, channel)
            track.last, track.missing, track.pending = t, False, None
            return []
        if not self._agreed(track, channel, zone):
            return []
        if track.zone is None or track.channel is None:
            return self._appear(track, channel, zone, t)
        track.other, track.other_channel, track.other_last = zone, channel, t
        self._watch.add(uid)
        if not self._sees(track, t):
            return self._move(track, channel, zone, t)
        if track.both_since is None:
            track.both_since = t
        return []

    def _agreed(self, track: _Track, channel: str, zone: str) -> bool:
        """Has ``zone`` read the tile ``confirm_reads`` times without its reading channel
        missing it in between? Only rack and meld zones wait (the discard pad is read once)."""
        if self.confirm_reads <= 1 or not zone.startswith(("rack:", "melds:")):
            return True
        if track.pending != zone:
            track.pending, track.pending_reads = zone, 0
        track.pending_reads += 1
        track.pending_channel = channel
        self._pending.setdefault(channel, set()).add(track.uid)
        if track.pending_reads < self.confirm_reads:
            return False
        track.pending = None
        return True

    def _disagree(self, channel: str, uids: frozenset[str]) -> None:
        """A scan without a tile its channel read last for a pending zone: count again."""
        waiting = self._pending.get(channel)
        if not waiting:
            return
        for uid in list(waiting):
            track = self._tracks.get(uid)
            if track is None or track.pending is None or track.pending_channel != channel:
                waiting.discard(uid)
            elif uid not in uids:
                track.pending = None
                waiting.discard(uid)

    def _appear(self, track: _Track, channel: str, zone: str, t: float) -> list[Event]:
        """Read while off the table (or unread in the river): from the wall."""
        origin = self._adopted(track.tile, zone)
        if origin is not None:
            return self._move(track, channel, zone, t, origin=origin)
        in_play = Counter(
            other.tile for other in self._tracks.values()
            if other.channel is not None and other.zone not in (None, RIVER)
            and not other.quarantined
        )
        if zone != RIVER and in_play[track.tile] >= copies_allowed(track.tile):
            self._place(track, channel)
            track.zone, track.last, track.quarantined = zone, t, True
            return [_anomaly("fifth_copy", uid=track.uid, tile=track.tile, zone=zone,
                             message=f"a copy too many of {track.tile} ({track.uid}) in "
                             f"{zone}: ignored; take the tile off and check the registry")]
        return self._move(track, channel, zone, t, origin=WALL)

    def _adopted(self, tile: Tile, zone: str) -> str | None:
        """The zone where the game has an unread copy of ``tile`` (``zone`` itself first)."""
        candidates = [zone] + [z for z in self._expected if z not in (zone, RIVER)]
        for candidate in candidates:
            counts = self._expected.get(candidate)
            if counts and counts[tile] > 0:
                counts[tile] -= 1
                return candidate
        return None

    def _sees(self, track: _Track, t: float) -> bool:
        """Does the tile's own zone still read it, on its channel's latest scan? A channel gone
        silent (reported, or ``silent_after`` behind the newest scan) reads nothing, as in
        ``_readers_behind``: a dead reader does not hold the tile, a lagging board is waited
        for. (Judged by ``move_window`` before, a board whose thread was starved for a second
        lost the tile to the pad at once, and its next report, still holding it, took the
        discard back to the rack once the players had passed it to the river: loaded run 21.)"""
        channel = self._channels[track.channel] if track.channel else None
        if channel is None or channel.last_scan is None or track.uid not in channel.uids:
            return False
        return self._live(channel, t if self._latest is None else max(t, self._latest))

    def _move(self, track: _Track, channel: str, zone: str, t: float,
              origin: str | None = None) -> list[Event]:
        source = origin or track.zone or WALL
        quiet = track.quarantined
        self._place(track, channel)
        track.zone, track.last, track.missing = zone, t, False
        track.other, track.both_since, track.both_reported = None, None, False
        track.since = t
        if quiet or source == zone:
            return []
        return [{"move": {"tile": track.tile, "from": source, "to": zone, "uid": track.uid}}]

    # --- time -----------------------------------------------------------------------------------

    def _settle(self, now: float, scanned: str | None = None) -> list[Event]:
        """What time shows: tiles gone from their zone, tiles read in two zones.

        After a scan of channel ``scanned`` only the tiles that scan can change are looked at:
        those its channel holds (its time moved on), those it read, and those watched (read in
        two zones, whose verdict moves with time; or gone but held back while another reader
        is behind, whose verdict moves with other channels' scans). Every other tile was
        settled with the same facts before and stays as it is (a scan of a snapshot burst,
        a hundred scans, no longer walks every tile a hundred times). ``tick`` looks at all.
        """
        tracks = self._tracks
        if scanned is None:
            todo: Iterable[_Track] = tracks.values()
        else:
            uids = self._watch | self._on.get(scanned, set())
            todo = sorted((tracks[uid] for uid in uids), key=lambda track: track.order)
        events: list[Event] = []
        for track in todo:
            if track.zone is not None:
                if track.other is not None:
                    events.extend(self._two_zones(track, now))
                if self._gone(track):
                    events.extend(self._absent(track))
            if self._watched(track):
                self._watch.add(track.uid)
            else:
                self._watch.discard(track.uid)
        return events

    def _watched(self, track: _Track) -> bool:
        """Must every settling look at this tile: read in two zones, or gone from its zone
        (its reader has scanned for ``absent_after`` without it) but not yet settled?"""
        return track.zone is not None and (track.other is not None or self._gone(track))

    def _gone(self, track: _Track) -> bool:
        """Has the tile's channel gone on scanning for ``absent_after`` without it (and it is
        not already reported missing)?"""
        if track.channel is None or track.missing:
            return False
        last_scan = self._channels[track.channel].last_scan
        assert last_scan is not None  # a channel holds a tile only once it has read it
        return last_scan - track.last >= self.absent_after

    def _place(self, track: _Track, channel: str | None) -> None:
        """Set the channel that holds the tile, and the index of what each channel holds."""
        if track.channel is not None and track.channel != channel:
            self._on[track.channel].discard(track.uid)
        if channel is not None:
            self._on.setdefault(channel, set()).add(track.uid)
        track.channel = channel

    def _two_zones(self, track: _Track, now: float) -> list[Event]:
        """The tile is also read in ``track.other``: a move under way, or two tags, one UID."""
        assert track.other is not None
        other = self._channels[track.other_channel]
        if other.last_scan is not None and other.last_scan - track.other_last >= self.absent_after:
            track.other, track.both_since, track.both_reported = None, None, False
            return []
        if not self._sees(track, now):
            return self._move(track, track.other_channel, track.other, track.other_last)
        since = track.both_since if track.both_since is not None else now
        if now - since >= self.move_window and not track.both_reported:
            track.both_reported = True
            return [_anomaly("seen_in_two_zones", uid=track.uid, tile=track.tile,
                             zones=[track.zone, track.other],
                             message=f"{track.tile} ({track.uid}) is read in {track.zone} and "
                             f"{track.other} at once for {now - since:.1f} s: two tags with one "
                             "UID, or an antenna reading its neighbour; it stays in "
                             f"{track.zone}")]
        return []

    def _absent(self, track: _Track) -> list[Event]:
        if track.pending is not None and not track.quarantined:
            return []  # read once in a rack or meld zone: on its way there, not gone yet
        if track.quarantined:
            self._place(track, None)
            track.zone, track.quarantined = None, False
            return []
        if self.hand_over or self._cleared_before_undo(track):
            if self._readers_behind(self._departed(track)):
                # a move made as the hand ended (a discard on its way to the pad) is read by
                # another board, whose scans may come later under load: not cleared yet
                return []
            return self._leave(track, WALL)
        if track.zone is not None and self._to_wall[(track.zone, track.tile)] > 0:
            self._to_wall[(track.zone, track.tile)] -= 1  # put back in the wall
            return self._leave(track, WALL)
        if track.zone == DISCARD:
            if self._claim_readers_behind(self._departed(track)):
                return []  # it may be on a meld strip or rack whose reader has not spoken yet
            return self._leave(track, RIVER)
        if track.zone == RIVER:
            self._place(track, None)  # pushed off the river antenna: still out of play
            return []
        if self._readers_behind(self._departed(track)):
            return []  # a reader that may have it has not reported since: not missing yet
        track.missing = True
        return [_anomaly("tile_missing", uid=track.uid, tile=track.tile, zone=track.zone,
                         message=f"{track.tile} ({track.uid}) left {track.zone} and was not "
                         f"seen anywhere: put it back; the game still has it in {track.zone}")]

    def _cleared_before_undo(self, track: _Track) -> bool:
        """Last read while the hand was over, before an undo took the hand back: cleared."""
        return self._resumed_at is not None and track.last < self._resumed_at

    def _departed(self, track: _Track) -> float:
        """Since when must the other readers have scanned for their scans to show where the
        tile went: ``absent_after`` after it was last read, or, when later, its channel's first
        scan that missed it. The tile left at some time between the two reads of its own
        reader; when that reader was out for a while (its board unplugged, resynchronising)
        that may be long after the last read, and another reader's scans from before it say
        nothing of where the tile went (loaded run 24: a claimed discard taken to the river;
        docs/table.md, "A discard leaving the pad while a reader is down")."""
        due = track.last + self.absent_after
        # a miss from before the last read is earlier than ``due`` and so changes nothing
        return due if track.missed is None else max(due, track.missed)

    def _behind(self, due: float, channels: Iterable[_Channel]) -> bool:
        """Has one of ``channels`` (one that has scanned before) no scan since ``due`` (see
        ``_departed``)? Then it may still report the tile where it went."""
        return any(ch.last_scan is not None and ch.last_scan < due for ch in channels)

    def _readers_behind(self, due: float) -> bool:
        """Is a live reader (less than ``silent_after`` behind the newest scan, not reported
        silent) behind the tile's departure?

        Boards report on their own links: under load one link's scans can reach the tracker a
        while after another's. A tile that left its zone is missing only when every reader
        that could now hold it has spoken since; a dead reader does not hold the verdict back
        (it is reported silent).
        """
        newest = self._latest if self._latest is not None else due
        return self._behind(due, (ch for ch in self._channels.values()
                                  if ch.last_scan is not None and self._live(ch, newest)))

    def _claim_readers_behind(self, due: float) -> bool:
        """Is a rack or meld-strip reader behind the tile's departure from the pad?

        A tile that leaves the pad goes to the river only when every place it could have been
        claimed to has been read since: a board that is unplugged or resynchronising would
        otherwise turn a claim into "to river" and, when it is back, "from wall".

        Read since means scanned twice since: a board reports a tile at its second agreeing
        read (TABLE.md), so a scan it sends between the first read and the second does not
        show the claimed tile yet; the one after it does. (A board late by a few sweeps, its
        thread starved on a loaded host or its frames read late, sent exactly that: the
        claimed discard went "to river" and then "from wall" to the strip, issue 22.) Since
        ``due``: when the tile may have left (``_departed``).
        """
        return any(ch.last_scan is not None and (ch.before is None or ch.before < due)
                   for ch in self._channels.values() if ch.zone.startswith(("rack:", "melds:")))

    def _leave(self, track: _Track, to: str) -> list[Event]:
        """The tile left the table's antennas for ``to`` (river or wall)."""
        source = track.zone or WALL
        track.zone = RIVER if to == RIVER else None
        self._place(track, None)
        track.missing, track.other = False, None
        return [{"move": {"tile": track.tile, "from": source, "to": to, "uid": track.uid}}]

    # --- noise ----------------------------------------------------------------------------------

    def _unknown(self, uid: str, zone: str, t: float) -> list[Event]:
        last = self._ghosts.get((uid, zone))
        self._ghosts[(uid, zone)] = t
        if last is not None and t - last < self.absent_after:
            return []  # the same ghost, still there: reported when it appeared
        reported, held = self._ghost_reports.get(zone, (None, 0))
        if reported is not None and t - reported < self.ghost_quiet:
            self._ghost_reports[zone] = (reported, held + 1)
            return []
        self._ghost_reports[zone] = (t, 0)
        also = f" ({held} more unknown UIDs read there since the last report)" if held else ""
        return [_anomaly("unknown_uid", uid=uid, zone=zone, held_back=held,
                         message=f"tile {uid} is not in the registry: ignored (a ghost read "
                         "from a neighbouring antenna?); if it is a tile, run "
                         f"`mahjong-table enroll`{also}")]

    def _unmapped_channel(self, name: str) -> list[Event]:
        if name in self._unmapped:
            return []
        self._unmapped.add(name)
        return [_anomaly("unmapped_channel", channel=name,
                         message=f"channel {name} is not in the config's channel -> zone map: "
                         "its scans are ignored; add it under table.channels")]


def _anomaly(kind: str, **fields: Any) -> Event:
    return {"anomaly": {"kind": kind, **fields}}
