"""Qt item models over the core's data: lazy, proxy-sorted, checked with qtmodeltester."""
