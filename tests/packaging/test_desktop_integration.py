"""Linux desktop integration: the .desktop entry, the AppStream metainfo (validated with
``appstreamcli``), the icons rendered from the app's SVG, and the per-user installer."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from tests.packaging.conftest import PACKAGING, ROOT, load_packaging_module
from tests.requirements import missing

pytestmark = pytest.mark.timeout(60)

# Where the metainfo's screenshot URLs point: the repository's files, served by GitHub.
SCREENSHOT_URL_PREFIX = "https://raw.githubusercontent.com/ekkomemory/ekko-memory/main/"


def _tool(name: str) -> str:
    """A validator from Debian's packages: required in CI (.ci/run installs it), else optional."""
    path = shutil.which(name)
    if path is None:
        missing(f"{name} is not installed", "apt install appstream desktop-file-utils")
    return path


def _desktop_entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def _gui_scripts() -> dict[str, str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(data["project"]["gui-scripts"])


# --- AppStream metainfo -----------------------------------------------------------------


def test_the_metainfo_validates(bc: ModuleType) -> None:
    tool = _tool("appstreamcli")
    proc = subprocess.run(
        [tool, "validate", "--no-net", str(bc.METAINFO_FILE)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # Not even the advice level: errors (E), warnings (W) and infos (I) would all be news.
    issues = [line for line in proc.stdout.splitlines() if line[:2] in ("E:", "W:", "I:")]
    assert issues == []


def test_the_metainfo_describes_this_app(bc: ModuleType) -> None:
    root = ET.parse(bc.METAINFO_FILE).getroot()
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == bc.APP_ID
    assert root.findtext("name") == bc.APP_NAME
    launchable = root.find("launchable")
    assert launchable is not None and launchable.text == bc.DESKTOP_FILE.name
    assert bc.DESKTOP_FILE.is_file()
    binaries = [b.text for b in root.iter("binary")]
    assert binaries and set(binaries) <= set(_gui_scripts())
    releases = root.findall("releases/release")
    assert releases and releases[0].get("version") == bc.version()
    assert releases[0].find("description") is not None  # release notes


def test_every_screenshot_url_is_a_file_in_the_repository(bc: ModuleType, qapp: object) -> None:
    from PySide6.QtGui import QImage

    root = ET.parse(bc.METAINFO_FILE).getroot()
    shots = root.findall("screenshots/screenshot")
    assert len(shots) >= 2
    assert sum(s.get("type") == "default" for s in shots) == 1
    for shot in shots:
        assert shot.findtext("caption")
        image = shot.find("image")
        assert image is not None and image.text is not None
        assert image.text.startswith(SCREENSHOT_URL_PREFIX), image.text
        local = ROOT / image.text[len(SCREENSHOT_URL_PREFIX) :]
        assert local.is_file(), f"{image.text} is not in the repository"
        assert local.parent == ROOT / "docs" / "screenshots"
        picture = QImage(str(local))
        assert not picture.isNull()
        if image.get("width") or image.get("height"):  # optional in AppStream; true if given
            assert (picture.width(), picture.height()) == (
                int(image.get("width", 0)),
                int(image.get("height", 0)),
            ), local.name


# --- .desktop entry -------------------------------------------------------------------


def test_the_desktop_entry_validates(bc: ModuleType) -> None:
    tool = _tool("desktop-file-validate")
    proc = subprocess.run([tool, str(bc.DESKTOP_FILE)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0 and proc.stdout.strip() == "", proc.stdout + proc.stderr


def test_the_desktop_entry_starts_the_app_with_its_icon(bc: ModuleType) -> None:
    entry = _desktop_entry(bc.DESKTOP_FILE)
    assert entry["Type"] == "Application"
    assert entry["Name"] == bc.APP_NAME
    assert entry["Exec"].split()[0] in _gui_scripts()
    assert entry["Icon"] == bc.APP_ID
    assert entry["Terminal"] == "false"
    # Qt sets WM_CLASS's instance from the program's name (checked under Xvfb).
    assert entry["StartupWMClass"] == bc.EXE_NAME
    assert entry.get("Name[zh_CN]") and entry.get("Comment[zh_CN]")  # Chinese menus


# --- icons ----------------------------------------------------------------------------


def _icon_path(bc: ModuleType, size: int, base: Path | None = None) -> Path:
    hicolor = bc.HICOLOR if base is None else base / bc.HICOLOR.relative_to(bc.PACKAGING)
    return hicolor / f"{size}x{size}" / "apps" / f"{bc.APP_ID}.png"


def test_icons_come_in_the_standard_sizes(bc: ModuleType, qapp: object) -> None:
    from PySide6.QtGui import QImage

    assert bc.ICON_SIZES[0] == 16 and bc.ICON_SIZES[-1] == 512
    for size in bc.ICON_SIZES:
        image = QImage(str(_icon_path(bc, size)))
        assert (image.width(), image.height()) == (size, size), size
        assert image.hasAlphaChannel()
        assert image.pixelColor(0, 0).alpha() == 0  # transparent rounded corner
        body = image.pixelColor(size // 2, size // 5)  # the blue tile, above the lines
        assert body.alpha() == 255 and body.blue() > body.red(), (size, body.name())
    scalable = bc.HICOLOR / "scalable" / "apps" / f"{bc.APP_ID}.svg"
    assert scalable.read_bytes() == (bc.RESOURCES / "icons" / "app.svg").read_bytes()


def test_windows_and_macos_icons_hold_every_size(bc: ModuleType, qapp: object) -> None:
    from PySide6.QtGui import QImageReader

    for path, fmt, sizes in (
        (bc.WINDOWS_ICON, b"ico", [16, 24, 32, 48, 64, 128, 256]),
        (bc.MACOS_ICON, b"icns", [16, 32, 32, 64, 64, 128, 256, 256, 512, 512, 1024]),
    ):
        reader = QImageReader(str(path))
        assert reader.format() == fmt
        found = []
        for i in range(reader.imageCount()):
            reader.jumpToImage(i)
            image = reader.read()
            assert not image.isNull(), (path, i, reader.errorString())
            found.append(image.width())
        assert found == sizes, path


def test_the_committed_icons_are_rendered_from_the_current_svg(
    bc: ModuleType, qapp: object, tmp_path: Path
) -> None:
    """Re-render into a temporary folder: the committed PNGs must match (run ``make icons``)."""
    from PySide6.QtGui import QImage

    render_icons = load_packaging_module("render_icons")
    render_icons.render_all(tmp_path)
    for size in bc.ICON_SIZES:
        fresh = QImage(str(_icon_path(bc, size, tmp_path))).convertToFormat(
            QImage.Format.Format_ARGB32
        )
        committed = QImage(str(_icon_path(bc, size))).convertToFormat(QImage.Format.Format_ARGB32)
        a, b = bytes(fresh.constBits()), bytes(committed.constBits())
        assert len(a) == len(b)
        if a != b:  # another Qt version may antialias a little differently
            mean = sum(abs(x - y) for x, y in zip(a, b, strict=True)) / len(a)
            assert mean < 2.0, f"{size} px differs from app.svg by {mean:.1f}: run `make icons`"


# --- per-user install -----------------------------------------------------------------


def _install(
    tmp_path: Path, *args: str, exec_path: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "share"))
    if exec_path is not None:
        env["EKKO_EXEC"] = exec_path
    return subprocess.run(
        ["sh", str(PACKAGING / "linux" / "install-desktop.sh"), *args],
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
    )


def test_install_desktop_puts_the_entry_metainfo_and_icons_in_place(
    bc: ModuleType, tmp_path: Path
) -> None:
    exe = "/opt/Ekko Memory/ekko-memory-gui"
    proc = _install(tmp_path, exec_path=exe)
    assert proc.returncode == 0, proc.stderr
    share = tmp_path / "share"
    desktop = share / "applications" / bc.DESKTOP_FILE.name
    assert _desktop_entry(desktop)["Exec"] == f'"{exe}"'
    assert (
        share / "metainfo" / bc.METAINFO_FILE.name
    ).read_bytes() == bc.METAINFO_FILE.read_bytes()
    for size in bc.ICON_SIZES:
        installed = share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{bc.APP_ID}.png"
        assert installed.read_bytes() == _icon_path(bc, size).read_bytes()
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / f"{bc.APP_ID}.svg").is_file()
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(
            ["desktop-file-validate", str(desktop)], capture_output=True, text=True, timeout=30
        )
        assert check.returncode == 0, check.stdout

    proc = _install(tmp_path, "--uninstall")
    assert proc.returncode == 0, proc.stderr
    left = [p for p in share.rglob("*") if p.is_file() and bc.APP_ID in p.name]
    assert left == []


def test_install_desktop_refuses_a_path_it_cannot_quote(tmp_path: Path) -> None:
    proc = _install(tmp_path, exec_path="/opt/$HOME/ekko-memory-gui")
    assert proc.returncode == 2
    assert not (tmp_path / "share" / "applications").exists()
