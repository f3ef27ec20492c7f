"""``python -m ekko_memory``: the ``ekko-memory`` command line."""

import sys

from ekko_memory.interfaces.cli import main

if __name__ == "__main__":
    sys.exit(main())
