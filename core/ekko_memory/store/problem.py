"""What is wrong with a store: the English sentence agents, the CLI and MCP read, and a
stable code with the specifics the sentence names, for an interface that says it in
the user's own language (the app) instead of parsing the sentence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# The kinds of store problems. The specifics (``Problem.args``) each one names:
#   directory, folder_not_writable, folder_on_read_only_mount, read_only_file,
#   read_only_mount, file_replaced: path
#   folder_uncreatable, io, not_a_database, read_only_unreadable: path, detail
#   locked: path, seconds
#   newer_schema: version, latest
#   readonly_needs_upgrade: path, version, latest
#   server_readonly_needs_upgrade: version, latest
#   backup_failed, migration_failed: version, detail
#   became_read_only, damaged, unreachable, auth, refused: location, detail
#   encoding: encoding
#   bad_url: detail
#   server_read_only, no_driver, global_read_only: nothing
# ``detail`` is the driver's or the system's own words (English), kept verbatim.
ReasonCode = Literal[
    "directory",
    "folder_uncreatable",
    "folder_not_writable",
    "folder_on_read_only_mount",
    "locked",
    "io",
    "not_a_database",
    "newer_schema",
    "backup_failed",
    "migration_failed",
    "readonly_needs_upgrade",
    "read_only_file",
    "read_only_mount",
    "read_only_unreadable",
    "file_replaced",
    "became_read_only",
    "damaged",
    "bad_url",
    "no_driver",
    "encoding",
    "server_read_only",
    "server_readonly_needs_upgrade",
    "unreachable",
    "auth",
    "refused",
    "global_read_only",
]


@dataclass(frozen=True)
class Problem:
    """One store problem: its code, its English sentence and the specifics it names."""

    code: ReasonCode
    text: str
    args: dict[str, str] = field(default_factory=dict)
