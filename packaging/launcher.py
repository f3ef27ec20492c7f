"""PyInstaller's entry script for the desktop app: the same ``main`` as ``ekko-memory-gui``."""

from __future__ import annotations

from ekko_memory_gui.app import main

if __name__ == "__main__":
    raise SystemExit(main())
