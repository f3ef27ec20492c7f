"""The first run: what an empty workspace shows instead of an empty list.

What Ekko is, how an agent gets connected (Hermes Agent with one command, MCP clients
with a configuration snippet, each with a Copy button), "Open the demo" and "Add a
memory". Built-in recipes and tips are not "my memories": they never hide this.
"""

from __future__ import annotations

import asyncio
import functools
import json
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ekko_memory_gui.qt import (
    QFrame,
    QGuiApplication,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ekko_memory_gui.services.fonts import mono_font
from ekko_memory_gui.views.widgets import section_title, text_label

HERMES_COMMAND = "ekko-memory hermes install --activate"


def ekko_command() -> str:
    """The ``ekko-memory`` beside this interpreter when there is one, else the bare name."""
    here = Path(sys.executable).parent / (
        "ekko-memory.exe" if sys.platform == "win32" else "ekko-memory"
    )
    return str(here) if here.is_file() else "ekko-memory"


def mcp_snippet(workspace: str) -> str:
    """An MCP client's configuration entry (Claude Desktop, Cursor…) for this workspace."""
    args = ["--workspace", workspace, "mcp", "--user-id", "me"]
    entry = {"mcpServers": {"ekko-memory": {"command": ekko_command(), "args": "ARGS"}}}
    # The arguments on one line: the entry stays short enough to read at a glance.
    one_line = json.dumps(args, ensure_ascii=False)
    return json.dumps(entry, indent=2, ensure_ascii=False).replace('"ARGS"', one_line)


async def prepare_demo() -> tuple[Path, Path]:
    """Fill a demo workspace in a temporary folder (off the GUI thread): its own user
    store, so the user's memories are not touched. Returns (workspace, user home)."""
    from ekko_memory.demo import create_demo_workspace

    root = Path(tempfile.mkdtemp(prefix="ekko-demo-"))
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ekko-demo") as pool:
        report = await asyncio.get_running_loop().run_in_executor(
            pool, functools.partial(create_demo_workspace, root)
        )
    return report.workspace, report.user_home


class _CopyBlock(QWidget):
    """Text to copy (read-only, monospace) with its Copy button."""

    def __init__(self, name: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QPlainTextEdit(text)
        self.text.setReadOnly(True)
        self.text.setFont(mono_font())
        self.text.setAccessibleName(name)
        self.text.setTabChangesFocus(True)
        lines = text.count("\n") + 1
        self.text.setFixedHeight(14 + lines * self.text.fontMetrics().lineSpacing())
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.copy_button = QPushButton(self.tr("Copy"))
        self.copy_button.setAccessibleName(self.tr("Copy: {what}").format(what=name))
        self.copy_button.clicked.connect(self.copy)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.text, 1)
        row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)

    def set_text(self, text: str) -> None:
        self.text.setPlainText(text)
        lines = text.count("\n") + 1
        self.text.setFixedHeight(14 + lines * self.text.fontMetrics().lineSpacing())

    def copy(self) -> str:
        text = self.text.toPlainText()
        QGuiApplication.clipboard().setText(text)
        self.copy_button.setText(self.tr("Copied"))
        return text


class FirstRunPanel(QScrollArea):
    """The welcome an empty workspace shows."""

    open_demo = Signal()
    new_memory = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("firstRun")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAccessibleName(self.tr("Welcome to Ekko Memory"))
        body = QWidget()
        body.setObjectName("firstRunBody")
        v = QVBoxLayout(body)
        v.setContentsMargins(24, 18, 24, 18)
        v.setSpacing(8)

        self.heading = text_label(self.tr("Welcome to Ekko Memory"), role="title")
        self.heading.setObjectName("firstRunTitle")
        self.about = text_label(
            self.tr(
                "Ekko is your AI agent's long-term memory, kept on this computer. When you "
                "tell your agent “I don't eat cilantro” or “reply in English from now on”, "
                "it remembers that here, and uses it in later conversations. You can read, "
                "change and delete every memory in this window; changes the agent is not "
                "sure about wait in the Inbox for you."
            )
        )
        self.about.setObjectName("firstRunAbout")

        self.hermes = _CopyBlock(self.tr("Command for Hermes Agent"), HERMES_COMMAND)
        self.hermes.setObjectName("hermesCommand")
        self.mcp = _CopyBlock(self.tr("Configuration for MCP clients"), mcp_snippet("."))
        self.mcp.setObjectName("mcpSnippet")

        self.demo_button = QPushButton(self.tr("Open the demo"))
        self.demo_button.setObjectName("openDemoButton")
        self.demo_button.setProperty("role", "primary")
        self.demo_button.setAccessibleDescription(
            self.tr("A sample workspace with memories, conversations and inbox items")
        )
        self.demo_button.clicked.connect(self.open_demo)
        self.add_button = QPushButton(self.tr("Add a memory yourself"))
        self.add_button.setObjectName("firstRunAddButton")
        self.add_button.clicked.connect(self.new_memory)
        buttons = QHBoxLayout()
        buttons.addWidget(self.demo_button)
        buttons.addWidget(self.add_button)
        buttons.addStretch(1)

        v.addWidget(self.heading)
        v.addWidget(self.about)
        v.addLayout(buttons)
        v.addWidget(section_title(self.tr("Connect your agent")))
        v.addWidget(
            text_label(
                self.tr(
                    "Hermes Agent: run this once in a terminal (in Hermes's own environment), "
                    "then start Hermes again:"
                )
            )
        )
        v.addWidget(self.hermes)
        v.addWidget(
            text_label(
                self.tr(
                    "Claude Desktop, Cursor and other MCP clients: add this to the client's "
                    "MCP configuration (Claude Desktop: claude_desktop_config.json; Cursor: "
                    ".cursor/mcp.json), then restart the client:"
                )
            )
        )
        v.addWidget(self.mcp)
        v.addWidget(
            text_label(
                self.tr(
                    "Help ▸ User guide walks through the rest: the inbox, editing and "
                    "forgetting, export and backups."
                ),
                role="muted",
            )
        )
        v.addStretch(1)
        self.setWidget(body)

    def set_workspace(self, location: str) -> None:
        """The MCP snippet names the open workspace's folder."""
        self.mcp.set_text(mcp_snippet(location))
