"""CLI commands for what agents may do (pin and unpin a memory, pause and resume memory)
and for forgetting everything about a word, a selection, or all of it.

Each takes the open service, the parsed arguments and the output, and returns an exit code.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ekko_memory.interfaces.cli_output import (
    EXIT_DECLINED,
    EXIT_FAILED,
    EXIT_USAGE,
    CliError,
    Output,
    plural,
)
from ekko_memory.models import ForgetPreview, PauseState

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


def check_forget_about(args: argparse.Namespace) -> None:
    """Usage errors of ``forget-about``."""
    if (args.word is None) == (not args.id):
        raise CliError(EXIT_USAGE, "give a word, or memories with --id (one of the two)")


def forget_about(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """forget-about WORD | --id ID…: the memories, their versions, the messages and the
    summaries about a word (or a selection), after a preview in counts."""
    keep = bool(args.keep_messages)
    if args.word is not None:
        preview = mem.preview_forget_about(args.word, include_messages=not keep)
    else:
        preview = mem.preview_forget_about(node_ids=args.id, include_messages=not keep)
    return _forget(mem, preview, args, out)


def delete_all(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """delete-all: every memory (and, unless --keep-messages, the conversation log and its
    summaries), after a preview in counts."""
    return _forget(mem, mem.preview_delete_all(include_messages=not args.keep_messages), args, out)


def _preview_json(preview: ForgetPreview) -> dict[str, Any]:
    doc: dict[str, Any] = preview.model_dump(mode="json", by_alias=True, exclude={"plan"})
    return doc


def _preview_text(preview: ForgetPreview) -> str:
    c = preview.counts()
    what = (
        f"{plural(c['memories'], 'memory', 'memories')} "
        f"({plural(c['versions'], 'version', 'versions')}), "
        f"{plural(c['messages'], 'message', 'messages')}, "
        f"{plural(c['summaries'], 'summary', 'summaries')}"
    )
    titles = "".join(f"\n  {t}" for t in preview.titles)
    return f"Would forget {what}:{titles}" if titles else f"Would forget {what}."


def _forget(
    mem: MemoryService, preview: ForgetPreview, args: argparse.Namespace, out: Output
) -> int:
    if args.dry_run or preview.empty:
        if out.as_json:
            out.json({**_preview_json(preview), "dryRun": bool(args.dry_run)})
        else:
            out.text(_preview_text(preview) if not preview.empty else "Nothing matches.")
            if args.dry_run:
                out.text("Dry run: nothing was changed.")
        return 0
    if not args.yes:
        out.note(_preview_text(preview))
        if not out.ask("Forget these for good? This cannot be undone. [y/N]"):
            raise CliError(
                EXIT_DECLINED,
                "not confirmed; nothing was forgotten (add --yes to skip the question)",
            )
    result = mem.forget_previewed(preview)
    for w in result.report.warnings:
        out.note(f"warning: {w}")
    leaked = result.report.verification is not None and bool(result.report.verification.leaks)
    if out.as_json:
        out.json(
            {
                "memories": result.memories,
                "versions": result.versions,
                "messages": result.messages,
                "summaries": result.summaries,
                "report": {**result.report.to_json(), "counts": result.report.counts()},
            }
        )
    else:
        out.text(
            f"Forgot {plural(result.memories, 'memory', 'memories')} "
            f"({plural(result.versions, 'version', 'versions')}), "
            f"{plural(result.messages, 'message', 'messages')}, "
            f"{plural(result.summaries, 'summary', 'summaries')}."
        )
        v = result.report.verification
        if v is not None:
            out.text(
                "The files were searched afterwards: nothing left."
                if v.clean
                else "The files were searched afterwards: some text is still there (see --json)."
            )
    return EXIT_FAILED if leaked else 0
