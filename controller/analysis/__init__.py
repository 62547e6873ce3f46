"""What each discard cost (issue 25): shanten, ukeire and the best discards of a seat at each of
its discards, replayed from a stored session through the game engine. Pure: the callers read
the event log (``controller.store``) and pass its records in.

    replay_session(records: Iterable[(seq, event)]) -> Replayed
    hand_review(replayed, hand, seat) -> {"hand", "seat", "discards": [...], "summary"}
    session_review(replayed, seats, hands, progress) -> {"ruleset", "hands", "summary"}
    shapes_for(name, specials, max_chows).shanten(counts, melds, chows_on_table) -> int
"""

from controller.analysis.moments import Moment, Moments, Replayed, replay_session
from controller.analysis.review import hand_review, session_review, summary
from controller.analysis.shanten import Shapes, shapes_for

__all__ = ["Moment", "Moments", "Replayed", "Shapes", "hand_review", "replay_session",
           "session_review", "shapes_for", "summary"]
