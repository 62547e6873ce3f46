# Debounced presence per channel: a tag is present from its first read and leaves after it has
# been missed for `debounce` consecutive scans. Produces the protocol's arrive/leave events.


class ChannelTracker:
    """Turns raw per-scan reads of every channel into debounced arrive/leave events."""

    def __init__(self, channels, debounce=3):
        self.channels = list(channels)
        self.debounce = debounce
        self.present = {}  # channel -> {uid: consecutive misses}
        for ch in self.channels:
            self.present[ch] = {}

    def update(self, channel, seen):
        """seen: the UIDs (bytes) read on channel this scan. Returns [(channel, present, uid)]."""
        events = []
        known = self.present[channel]
        for uid in seen:
            if uid not in known:
                events.append((channel, True, uid))
            known[uid] = 0
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
