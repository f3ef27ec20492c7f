"""``ekko-memory hermes install|uninstall``: Ekko as Hermes Agent's memory provider.

Neither opens a memory: they write (or remove) the provider's folder in Hermes's plugins
and, with ``--activate``, select ``ekko`` in Hermes's config.yaml (integrations/hermes/).
"""

from __future__ import annotations

import argparse
from typing import Any

from ekko_memory.integrations.hermes import installer
from ekko_memory.integrations.hermes.settings import PROVIDER_NAME
from ekko_memory.interfaces.cli_output import Output


def add_parser(sub: Any) -> None:
    """``hermes`` and its two commands on the CLI's subparsers (no store options: they
    open no memory)."""
    as_json = argparse.ArgumentParser(add_help=False)
    as_json.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="print JSON for scripts"
    )
    p = sub.add_parser(
        "hermes",
        parents=[as_json],
        help="install Ekko as Hermes Agent's memory provider 'ekko'",
        description="Install Ekko as Hermes Agent's memory provider 'ekko' (or take it out).",
    )
    actions = p.add_subparsers(dest="hermes_command", metavar="ACTION", parser_class=type(p))
    actions.required = True
    for name, fn, text in (
        ("install", run_install, "put the provider in $HERMES_HOME/plugins/ekko (idempotent)"),
        ("uninstall", run_uninstall, "take it out; Hermes goes back to its built-in memory"),
    ):
        a = actions.add_parser(name, parents=[as_json], help=text, description=text)
        a.add_argument(
            "--hermes-home",
            metavar="DIR",
            help="Hermes's home folder (default: Hermes's own answer, $HERMES_HOME, ~/.hermes)",
        )
        if name == "install":
            a.add_argument(
                "--activate",
                action="store_true",
                help="also select it: memory.provider: ekko in config.yaml",
            )
        a.set_defaults(run=fn, check=None, opens_memory=False)


def run_install(args: argparse.Namespace, out: Output) -> int:
    """hermes install."""
    report = installer.install(
        installer.resolve_hermes_home(args.hermes_home), activate=args.activate
    )
    _warn_if_elsewhere(report, out)
    if out.as_json:
        out.json(report.to_json())
        return 0
    out.text(f"Hermes provider 'ekko' {report.plugin}: {report.plugin_dir}")
    if report.provider is not None:
        before = report.previous_provider
        if before and before != report.provider:
            out.text(f"config.yaml: memory.provider is now ekko (was {before})")
        elif before == report.provider:
            out.text("config.yaml: memory.provider was already ekko")
        else:
            out.text("config.yaml: memory.provider is now ekko")
        out.text("Start a new Hermes session to use it.")
    else:
        out.text("Select it with 'ekko-memory hermes install --activate' or 'hermes memory setup'.")
    return 0


def run_uninstall(args: argparse.Namespace, out: Output) -> int:
    """hermes uninstall."""
    report = installer.uninstall(installer.resolve_hermes_home(args.hermes_home))
    if out.as_json:
        out.json(report.to_json())
        return 0
    if report.plugin == "removed":
        out.text(f"Removed {report.plugin_dir}")
    else:
        out.text(f"Not installed: {report.plugin_dir} does not exist")
    if report.previous_provider == PROVIDER_NAME:
        out.text("config.yaml: memory.provider is now '' (Hermes's built-in memory)")
    out.text("Your memories stay where they are (ekko-memory stats shows the files).")
    return 0


def _warn_if_elsewhere(report: installer.InstallReport, out: Output) -> None:
    if not report.hermes_importable:
        out.note(
            "warning: Hermes Agent is not installed in this Python; the provider loads only "
            "where Hermes can import ekko-memory: install it into Hermes's environment "
            "(e.g. ~/.hermes/hermes-agent/venv/bin/pip install 'ekko-memory[hermes]')"
        )
