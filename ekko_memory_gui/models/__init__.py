"""Qt item models over the core's data: lazy, sorted by the store, checked with qtmodeltester."""
