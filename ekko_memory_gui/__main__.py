"""``python -m ekko_memory_gui`` starts the app."""

from ekko_memory_gui.app import main

raise SystemExit(main())
