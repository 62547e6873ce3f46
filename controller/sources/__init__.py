"""Event sources: what feeds the game loop with table events.

- :mod:`controller.sources.table`: the physical table (reader back-end -> presence -> moves,
  seat buttons -> declarations);
- :mod:`controller.sources.virtual`: the virtual table (simulated players moving tagged tiles
  on virtual boards, read back through the real serial path);
- :mod:`controller.sources.simulation`: the in-process simulation (the director's events
  straight to the loop);
- :mod:`controller.sources.backends`: reader back-ends made from their config section.

A source is a callable taking the loop's :class:`~controller.sources.base.LoopPort` and
returning an async iterator of ``(event, source name)``; see :mod:`controller.sources.base`.
"""
