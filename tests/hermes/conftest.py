"""Hermes Agent itself, from the package index, in an environment of its own.

hermes-agent pins its dependencies exactly (pydantic, httpx, packaging… and mcp 1.x in
its [mcp] extra, where this project's MCP server needs mcp 2.x), so it does not share the
project's environment: ``make hermes-venv`` (a step of ``make test``) builds
``build/hermes-venv`` with hermes-agent and this checkout installed as a Hermes user
would (``pip install -e '.[hermes]'``). The tests talk to Hermes in that environment
through ``driver.py``: one process per test module (Hermes takes seconds to import),
one Hermes home with ``ekko`` installed and selected by ``ekko-memory hermes install
--activate``, and a scripted model on loopback (``scripted_llm.py``). Each test gives
its agents Ekko stores of their own (``EKKO_WORKSPACE``, ``EKKO_HOME``).
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.hermes.scripted_llm import ScriptedLLM
from tests.requirements import missing

ROOT = Path(__file__).resolve().parents[2]
PYTHON_ENV = "EKKO_HERMES_PYTHON"
# Hermes's first agent imports and probes for several seconds on a busy machine.
ANSWER_TIMEOUT_S = 120.0


def hermes_python() -> Path:
    """The Python of hermes-agent's environment (``$EKKO_HERMES_PYTHON`` overrides)."""
    override = os.environ.get(PYTHON_ENV)
    python = Path(override) if override else ROOT / "build" / "hermes-venv" / "bin" / "python"
    if not python.is_file():
        missing(f"hermes-agent's own environment ({python})", "make hermes-venv")
    return python


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without the settings of Ekko, Hermes and model APIs
    (a developer's own must not reach the Hermes under test), plus ``extra``."""
    drop = ("EKKO_", "HERMES_", "OPENAI_", "ANTHROPIC_", "OPENROUTER_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(extra)
    return env


@dataclass
class Hermes:
    """One Hermes process running ``driver.py``."""

    proc: subprocess.Popen[str]
    home: Path
    answers: queue.Queue[str]

    def send(self, op: str, **args: Any) -> Any:
        """Run one command; its answer (the driver's error fails the test)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"op": op, **args}, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()
        try:
            line = self.answers.get(timeout=ANSWER_TIMEOUT_S)
        except queue.Empty:
            pytest.fail(f"Hermes did not answer {op!r} in {ANSWER_TIMEOUT_S:.0f} s{self._tail()}")
        answer = json.loads(line)
        if "error" in answer:
            pytest.fail(f"Hermes failed at {op!r}:\n{answer['error']}{self._tail()}")
        return answer["ok"]

    def _tail(self) -> str:
        said = (self.home / "driver.stderr").read_text(encoding="utf-8", errors="replace")
        return "\n--- Hermes's stderr (end) ---\n" + said[-3000:]

    def agent(self, session: str, stores: Path, **args: Any) -> Any:
        """A new Hermes agent whose Ekko stores live under ``stores``."""
        env = {"EKKO_WORKSPACE": str(stores / "ws"), "EKKO_HOME": str(stores / "home")}
        return self.send("agent", session=session, env=env, **args)

    def log(self, name: str = "errors.log") -> str:
        """A log of Hermes's (errors.log: warnings and errors)."""
        path = self.home / "logs" / name
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


@pytest.fixture(scope="module")
def llm() -> Iterator[ScriptedLLM]:
    server = ScriptedLLM()
    yield server
    server.close()


@pytest.fixture(scope="module")
def hermes_home(tmp_path_factory: pytest.TempPathFactory, llm: ScriptedLLM) -> Path:
    """A Hermes home with ``ekko`` installed and selected by Ekko's own command, Hermes's
    built-in memory on (its writes are mirrored), and the scripted model as Hermes's
    configured one."""
    home = tmp_path_factory.mktemp("hermes-home")
    (home / "config.yaml").write_text(
        "# a user's Hermes settings\n"
        f"model:\n  provider: custom\n  base_url: {llm.url}\n  default: scripted\n"
        "memory:\n  memory_enabled: true\n  user_profile_enabled: true\n  provider: ''\n",
        encoding="utf-8",
    )
    cli = hermes_python().parent / "ekko-memory"
    done = subprocess.run(
        [str(cli), "hermes", "install", "--hermes-home", str(home), "--activate", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["hermesImportable"] is True and report["provider"] == "ekko", report
    return home


@pytest.fixture(scope="module")
def hermes(hermes_home: Path, llm: ScriptedLLM) -> Iterator[Hermes]:
    stderr = (hermes_home / "driver.stderr").open("w", encoding="utf-8")
    proc = subprocess.Popen(
        [str(hermes_python()), str(Path(__file__).with_name("driver.py")), llm.url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        encoding="utf-8",
        env=clean_env(HERMES_HOME=str(hermes_home), PYTHONUNBUFFERED="1"),
    )
    answers: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            answers.put(line)

    threading.Thread(target=read, daemon=True).start()
    running = Hermes(proc, hermes_home, answers)
    ready = json.loads(answers.get(timeout=ANSWER_TIMEOUT_S))
    assert ready["ready"], ready
    yield running
    try:
        assert proc.stdin is not None
        proc.stdin.write('{"op": "exit"}\n')
        proc.stdin.flush()
        proc.wait(timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait(timeout=10)
    finally:
        stderr.close()
