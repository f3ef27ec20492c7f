"""``hermes memory setup ekko`` and ``hermes memory status``: Hermes's own command line
(in hermes-agent's environment) asking the provider's settings and saving them."""

from __future__ import annotations

import json
import stat
import subprocess
from pathlib import Path

from ekko_memory.integrations.hermes.hermes_config import read_config
from tests.hermes.conftest import clean_env, hermes_python


def hermes_cli(home: Path, *args: str, answers: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(hermes_python().parent / "hermes"), *args],
        input=answers,
        capture_output=True,
        text=True,
        timeout=120,
        env=clean_env(HERMES_HOME=str(home)),
        # No terminal: the secret prompt reads the piped answers, as a script would.
        start_new_session=True,
        check=False,
    )


def test_hermes_memory_setup_asks_and_saves_the_settings(tmp_path: Path) -> None:
    home = tmp_path / "hermes"
    home.mkdir()
    (home / "config.yaml").write_text("# mine\ndisplay:\n  show_commentary: false\n")
    (home / ".env").write_text("OTHER_KEY=keep-me\n")
    installed = subprocess.run(
        [str(hermes_python().parent / "ekko-memory"), "hermes", "install", "--hermes-home",
         str(home), "--json"],
        capture_output=True, text=True, timeout=60, env=clean_env(), check=False,
    )  # fmt: skip
    assert installed.returncode == 0 and json.loads(installed.stdout)["plugin"] == "installed"
    answers = "\n".join(
        [
            "",  # workspace: the default
            str(tmp_path / "me"),  # user_home
            "magic",  # not a choice: asked again
            "ekko",  # extraction
            "http://127.0.0.1:9/v1",  # llm_base_url
            "qwen",  # llm_model
            "sk-secret",  # llm_api_key
            "400",  # prefetch_tokens
        ]
    )
    done = hermes_cli(home, "memory", "setup", "ekko", answers=answers + "\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "choose one of: ekko, hermes, rules" in done.stdout
    assert str(home / "ekko" / "hermes" / ".ekko" / "memory.db") in done.stdout
    config = read_config(home / "config.yaml")
    assert config["memory"]["provider"] == "ekko"
    assert config["memory"]["ekko"] == {
        "user_home": str(tmp_path / "me"),
        "extraction": "ekko",
        "prefetch_tokens": "400",
    }
    assert config["display"] == {"show_commentary": False}
    assert (home / "config.yaml").read_text().startswith("# mine")
    env = (home / ".env").read_text().splitlines()
    assert env == [
        "OTHER_KEY=keep-me",
        "EKKO_LLM_BASE_URL=http://127.0.0.1:9/v1",
        "EKKO_LLM_MODEL=qwen",
        "EKKO_LLM_API_KEY=sk-secret",
    ]
    assert stat.S_IMODE((home / ".env").stat().st_mode) == 0o600
    # Hermes reports the provider active and available.
    status = hermes_cli(home, "memory", "status")
    assert "Provider:  ekko" in status.stdout and "available ✓" in status.stdout
