"""Where shipped data (schema rules, global memories, icons, translations) lives.

Works from a source checkout, an installed wheel and a PyInstaller bundle alike.
"""

from __future__ import annotations

import sys
from pathlib import Path


def resources_dir() -> Path:
    """The ``resources/`` folder: bundle, installed package, or repository checkout."""
    bundle = getattr(sys, "_MEIPASS", None)
    candidates = []
    if bundle:
        candidates.append(Path(bundle) / "resources")
    here = Path(__file__).resolve().parent
    candidates.append(here / "_resources")  # wheel: force-included beside the package
    candidates.append(
        here.parent.parent / "resources"
    )  # checkout: core/ekko_memory/../../resources
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        "Ekko Memory resources not found in: " + ", ".join(map(str, candidates))
    )


def resource_path(*parts: str) -> Path:
    """A path inside ``resources/``."""
    return resources_dir().joinpath(*parts)
