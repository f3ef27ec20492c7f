#!/bin/sh
# Install the desktop entry, AppStream metainfo and icons for the current user
# (XDG_DATA_HOME, default ~/.local/share), so Ekko Memory appears in the app menu.
#
#   sh packaging/linux/install-desktop.sh              # or: make install-desktop
#   sh packaging/linux/install-desktop.sh --uninstall  # or: make uninstall-desktop
#
# The entry starts EKKO_EXEC when set, else the PyInstaller bundle (dist/ekko-memory/)
# when built, else this checkout's .venv launcher, else ekko-memory-gui from PATH.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
APP_ID=io.github.ekkomemory.EkkoMemory
DATA=${XDG_DATA_HOME:-$HOME/.local/share}
APPS="$DATA/applications"
METAINFO="$DATA/metainfo"
ICONS="$DATA/icons/hicolor"

refresh_caches() {
    # Optional helpers: menus pick the entry up without them, only later.
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$APPS" || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$ICONS/index.theme" ]; then
        gtk-update-icon-cache -q -t -f "$ICONS" || true
    fi
}

if [ "${1:-}" = "--uninstall" ]; then
    rm -f "$APPS/$APP_ID.desktop" "$METAINFO/$APP_ID.metainfo.xml"
    for icon in "$ICONS"/*/apps/"$APP_ID".png "$ICONS"/scalable/apps/"$APP_ID".svg; do
        rm -f "$icon"
    done
    refresh_caches
    echo "removed $APP_ID from $DATA"
    exit 0
fi

EXEC=${EKKO_EXEC:-}
if [ -z "$EXEC" ]; then
    if [ -x "$ROOT/dist/ekko-memory/ekko-memory-gui" ]; then
        EXEC="$ROOT/dist/ekko-memory/ekko-memory-gui"
    elif [ -x "$ROOT/.venv/bin/ekko-memory-gui" ]; then
        EXEC="$ROOT/.venv/bin/ekko-memory-gui"
    else
        EXEC=ekko-memory-gui
    fi
fi
# The Exec key has its own quoting rules; rather than escape every reserved character,
# accept paths without them and quote paths with spaces.
case "$EXEC" in
    *[\"\`\$\\%]*)
        echo "install-desktop: cannot put this path in a desktop entry: $EXEC" >&2
        exit 2
        ;;
    *" "*) EXEC_KEY="\"$EXEC\"" ;;
    *) EXEC_KEY="$EXEC" ;;
esac

mkdir -p "$APPS" "$METAINFO"
# In sed's replacement '|' (our delimiter) and '&' (the match) need a backslash.
SED_EXEC=$(printf '%s' "$EXEC_KEY" | sed 's/[|&]/\\&/g')
sed "s|^Exec=.*|Exec=$SED_EXEC|" "$HERE/$APP_ID.desktop" >"$APPS/$APP_ID.desktop"
cp "$HERE/$APP_ID.metainfo.xml" "$METAINFO/$APP_ID.metainfo.xml"
for dir in "$HERE"/icons/hicolor/*/apps; do
    size=$(basename "$(dirname "$dir")")
    mkdir -p "$ICONS/$size/apps"
    cp "$dir"/"$APP_ID".* "$ICONS/$size/apps/"
done
refresh_caches
echo "installed $APP_ID into $DATA (Exec=$EXEC_KEY)"
