# Presence per channel: a tag is reported (a scan event, and in every snapshot) only once it has
# been read in two consecutive sweeps (the "two agreeing reads", hardware_docs/protocol.md), and
# leaves after it has been missed for `debounce` consecutive sweeps. A tag read in one sweep
# alone (a neighbour's coil reaching it, a garbled UID) is never reported. Produces the
# protocol's scan events.


class ChannelTracker:
    """Turns each sweep's reads of every channel into arrive / leave events."""

    def __init__(self, channels, debounce=3):
        self.channels = list(channels)
        self.debounce = debounce
        self.present = {}  # channel -> {uid: consecutive misses}: reported
        self.once = {}  # channel -> {uid}: read in the last sweep only, not reported
        for ch in self.channels:
            self.present[ch] = {}
            self.once[ch] = set()

    def update(self, channel, seen):
        """seen: the UIDs (bytes) read on channel this sweep. Returns [(channel, present, uid)]:
        present at the second read in a row, absent after `debounce` misses in a row."""
        events = []
        known = self.present[channel]
        once = self.once[channel]
        first = set()
        for uid in seen:
            if uid in known:
                known[uid] = 0
            elif uid in once:  # the second read in a row: now reported
                known[uid] = 0
                events.append((channel, True, uid))
            else:
                first.add(uid)
        self.once[channel] = first  # a first read not followed by a second is forgotten
        for uid in list(known):
            if uid in seen:
                continue
            known[uid] += 1
            if known[uid] >= self.debounce:
                del known[uid]
                events.append((channel, False, uid))
        return events

    def entries(self):
        """Every (channel, uid) currently reported, for a full snapshot."""
        out = []
        for ch in self.channels:
            for uid in sorted(self.present[ch]):
                out.append((ch, uid))
        return out

    def clear(self):
        for ch in self.channels:
            self.present[ch] = {}
            self.once[ch] = set()
