#!/bin/sh
# Build the macOS app: "dist/Ekko Memory.app" (plus the one-folder dist/ekko-memory/).
# UNTESTED: written and reviewed on Linux; see packaging/README.md ("Windows and macOS").
#
#   sh packaging/macos/build.sh
#
# Needs Python 3.11+ from python.org or Homebrew. Builds for the machine's architecture
# (arm64 or x86_64); the app is not signed or notarized, so Gatekeeper asks on first start
# (right-click > Open), or sign it: codesign --deep -s "Developer ID Application: …".
set -eu
cd "$(dirname "$0")/../.."

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[gui,package]'
.venv/bin/pyinstaller --noconfirm --distpath dist --workpath build/pyinstaller \
    packaging/ekko-memory.spec

# The same smoke test as on Linux, offscreen: opens a demo workspace and exits 0.
demo=$(mktemp -d)
QT_QPA_PLATFORM=offscreen EKKO_HOME="$demo/home" \
    "dist/Ekko Memory.app/Contents/MacOS/ekko-memory-gui" --demo "$demo/demo" --smoke-test

hdiutil create -volname "Ekko Memory" -srcfolder "dist/Ekko Memory.app" -ov -format UDZO \
    dist/ekko-memory-macos.dmg
echo "built dist/Ekko Memory.app and dist/ekko-memory-macos.dmg"
