# Presence per channel: a tag is reported at its first read and once more at its second
# consecutive read (the host's "two agreeing reads", docs/table.md), and leaves after it has
# been missed for `debounce` consecutive sweeps. Produces the protocol's scan events.


class ChannelTracker:
    """Turns each sweep's reads of every channel into arrive / confirm / leave events."""

    def __init__(self, channels, debounce=3):
        self.channels = list(channels)
        self.debounce = debounce
        self.present = {}  # channel -> {uid: consecutive misses}
        self.streak = {}  # channel -> {uid: consecutive reads, up to 2}
        for ch in self.channels:
            self.present[ch] = {}
            self.streak[ch] = {}

    def update(self, channel, seen):
        """seen: the UIDs (bytes) read on channel this sweep. Returns [(channel, present, uid)]:
        present at the first read and again at the second read in a row."""
        events = []
        known = self.present[channel]
        streak = self.streak[channel]
        for uid in seen:
            reads = streak.get(uid, 0) + 1
            if uid not in known or reads == 2:
                events.append((channel, True, uid))
            known[uid] = 0
            streak[uid] = min(reads, 2)
        for uid in list(known):
            if uid in seen:
                continue
            known[uid] += 1
            streak.pop(uid, None)
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
            self.streak[ch] = {}
