"""CLI commands for what agents may do: pin and unpin a memory, pause and resume memory.

Each takes the open service, the parsed arguments and the output, and returns an exit code.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ekko_memory.interfaces.cli_output import Output
from ekko_memory.models import PauseState

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService


def pin(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """pin ID: agents may read the memory but never change or delete it."""
    return _pin(mem, args, out, on=True)


def unpin(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """unpin ID: agents may change the memory again (under the usual rules)."""
    return _pin(mem, args, out, on=False)


def _pin(mem: MemoryService, args: argparse.Namespace, out: Output, *, on: bool) -> int:
    changed = mem.actions.pin(args.id) if on else mem.actions.unpin(args.id)
    if out.as_json:
        out.json(
            {
                "nodeId": args.id,
                "pinned": on,
                "changed": changed,
                # What an agent's change of a pinned memory is refused with.
                "reasonCode": "node.pinned" if on else None,
            }
        )
        return 0
    if on:
        out.text(
            f"Pinned {args.id}: agents may read it but not change or delete it."
            if changed
            else f"{args.id} was pinned already."
        )
    else:
        out.text(f"Unpinned {args.id}." if changed else f"{args.id} was not pinned.")
    return 0


def pause(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """pause: agents neither read nor write memory until ``resume``."""
    return _state(mem.pause(), out)


def resume(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """resume: agents read and write memory again."""
    return _state(mem.resume(), out)


def _state(state: PauseState, out: Output) -> int:
    if out.as_json:
        doc: dict[str, Any] = state.model_dump(mode="json", by_alias=True)
        out.json(doc)
        return 0
    if state.paused:
        since = f" since {state.since:%Y-%m-%d %H:%M} UTC" if state.since else ""
        out.text(
            f"Memory is paused{since}: agents neither read nor write it "
            "(run 'ekko-memory resume' to let them again)."
        )
    else:
        out.text("Memory is on: agents read and write it under the usual rules.")
    return 0
