"""Render the app icon (``resources/icons/app.svg``) for the desktops, with Qt's QSvgRenderer.

    .venv/bin/python packaging/render_icons.py            # rewrite the committed icons
    .venv/bin/python packaging/render_icons.py --out DIR  # somewhere else (the tests)

Writes the freedesktop hicolor PNGs (16…512 px) and the scalable SVG under
``packaging/linux/icons/hicolor``, a Windows ``.ico`` and a macOS ``.icns``. Both
containers hold PNG images (Windows Vista+, macOS 10.7+ read them), written here by
hand so the script needs nothing beyond PySide6. Run it after changing ``app.svg`` and
commit the results: the build machines then need no rendering step.
"""

from __future__ import annotations

import argparse
import os
import shutil
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bundle_config as bc

SVG = bc.RESOURCES / "icons" / "app.svg"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# icns entry types holding PNG data, by pixel size (the @2x types reuse a bigger image).
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"ic11", 32),
    (b"icp6", 64),
    (b"ic12", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic13", 256),
    (b"ic09", 512),
    (b"ic14", 512),
    (b"ic10", 1024),
)


def render(renderer: QSvgRenderer, size: int) -> QImage:
    """The SVG drawn into a transparent ``size``×``size`` ARGB image."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image


def png_bytes(image: QImage) -> bytes:
    """The image encoded as PNG."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError("PNG encoding failed")
    buffer.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """A Windows icon file with one PNG entry per size (the 256 px entry stores 0 for 256)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    entries, blobs = b"", b""
    offset = 6 + 16 * len(pngs)
    for size, png in sorted(pngs.items()):
        side = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        blobs += png
        offset += len(png)
    return header + entries + blobs


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    """A macOS icon file with PNG entries."""
    body = b"".join(
        kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def render_all(out: Path | None = None) -> list[Path]:
    """Write every icon under ``out`` (default: the repository's packaging/); returns the files."""
    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    assert app is not None
    base = out or bc.PACKAGING
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise RuntimeError(f"not a valid SVG: {SVG}")
    sizes = sorted(set(bc.ICON_SIZES) | set(ICO_SIZES) | {size for _, size in ICNS_TYPES})
    pngs = {size: png_bytes(render(renderer, size)) for size in sizes}
    written = []
    hicolor = base / bc.HICOLOR.relative_to(bc.PACKAGING)
    for size in bc.ICON_SIZES:
        path = hicolor / f"{size}x{size}" / "apps" / f"{bc.APP_ID}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pngs[size])
        written.append(path)
    scalable = hicolor / "scalable" / "apps" / f"{bc.APP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SVG, scalable)
    written.append(scalable)
    for target, data in (
        (bc.WINDOWS_ICON, ico_bytes({s: pngs[s] for s in ICO_SIZES})),
        (bc.MACOS_ICON, icns_bytes(pngs)),
    ):
        path = base / target.relative_to(bc.PACKAGING)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line: render into packaging/ (or ``--out DIR``) and list what was written."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=None, help="folder instead of packaging/")
    args = p.parse_args(argv)
    for path in render_all(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
