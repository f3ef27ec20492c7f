"""``ekko-memory hermes install|uninstall`` and the provider's settings, without Hermes:
the plugin folder, config.yaml edited without losing the user's settings, refusals that
change nothing. tests/hermes/ runs Hermes's own loader on the same folder."""

from __future__ import annotations

import builtins
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from ekko_memory.integrations.hermes import installer
from ekko_memory.integrations.hermes.settings import HermesSettings
from ekko_memory.interfaces.cli import main

USER_CONFIG = """\
# my Hermes settings
model:
  default: my-model   # the one I like
  base_url: http://127.0.0.1:8080/v1
memory:
  memory_enabled: true
  provider: honcho
  ekko:
    prefetch_tokens: '400'
display:
  show_commentary: false
"""


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(["hermes", *args, "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def test_install_puts_a_folder_hermes_loads_and_is_idempotent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "hermes"
    code, report, _ = cli(capsys, "install", "--hermes-home", str(home))
    assert code == 0 and report["plugin"] == "installed", report
    folder = home / "plugins" / "ekko"
    init = (folder / "__init__.py").read_text(encoding="utf-8")
    # What Hermes's loader looks for: the name it scans for, a register(ctx).
    assert "register_memory_provider" in init
    assert "from ekko_memory.integrations.hermes import register" in init
    manifest = (folder / "plugin.yaml").read_text(encoding="utf-8")
    assert "name: ekko" in manifest and "kind: exclusive" in manifest
    assert not (home / "config.yaml").exists()  # not asked to activate
    code, again, _ = cli(capsys, "install", "--hermes-home", str(home))
    assert code == 0 and again["plugin"] == "unchanged"
    # The folder only points at the installed package: its register is this package's.
    spec = importlib.util.spec_from_file_location(
        "_hermes_user_memory_ekko", folder / "__init__.py"
    )
    assert spec is not None and spec.loader is not None
    shim = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shim)
    from ekko_memory.integrations.hermes import register

    assert shim.register is register


def test_an_upgraded_package_rewrites_an_older_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "hermes"
    cli(capsys, "install", "--hermes-home", str(home))
    manifest = home / "plugins" / "ekko" / "plugin.yaml"
    manifest.write_text(manifest.read_text().replace("version:", "version: '0.0.1' #"))
    code, report, _ = cli(capsys, "install", "--hermes-home", str(home))
    assert code == 0 and report["plugin"] == "updated"
    assert "0.0.1" not in manifest.read_text()


def test_activate_selects_ekko_and_keeps_every_other_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "hermes"
    home.mkdir()
    (home / "config.yaml").write_text(USER_CONFIG, encoding="utf-8")
    code, report, _ = cli(capsys, "install", "--hermes-home", str(home), "--activate")
    assert code == 0, report
    assert (report["provider"], report["previousProvider"]) == ("ekko", "honcho")
    text = (home / "config.yaml").read_text(encoding="utf-8")
    # Only the provider changed: comments, order, quoting and other settings are kept.
    assert text == USER_CONFIG.replace("provider: honcho", "provider: ekko")
    code, again, _ = cli(capsys, "install", "--hermes-home", str(home), "--activate")
    assert again["previousProvider"] == "ekko"
    assert (home / "config.yaml").read_text(encoding="utf-8") == text


def test_activate_makes_a_config_when_there_is_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "hermes"
    code, report, _ = cli(capsys, "install", "--hermes-home", str(home), "--activate")
    assert code == 0 and report["previousProvider"] is None
    from ekko_memory.integrations.hermes.hermes_config import read_config

    assert read_config(home / "config.yaml") == {"memory": {"provider": "ekko"}}


def test_uninstall_takes_it_out_and_hermes_back_to_its_built_in_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "hermes"
    home.mkdir()
    (home / "config.yaml").write_text(USER_CONFIG, encoding="utf-8")
    cli(capsys, "install", "--hermes-home", str(home), "--activate")
    code, report, _ = cli(capsys, "uninstall", "--hermes-home", str(home))
    assert code == 0 and report["plugin"] == "removed" and report["provider"] == ""
    assert not (home / "plugins" / "ekko").exists()
    # The provider's settings stay (a later install finds them), as does everything else.
    text = (home / "config.yaml").read_text(encoding="utf-8")
    assert text == USER_CONFIG.replace("provider: honcho", "provider: ''")
    code, again, _ = cli(capsys, "uninstall", "--hermes-home", str(home))
    assert code == 0 and again["plugin"] == "absent"
    assert (home / "config.yaml").read_text(encoding="utf-8") == text


def test_uninstall_leaves_another_selected_provider_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "hermes"
    cli(capsys, "install", "--hermes-home", str(home))
    (home / "config.yaml").write_text(USER_CONFIG, encoding="utf-8")
    code, report, _ = cli(capsys, "uninstall", "--hermes-home", str(home))
    assert code == 0 and report["provider"] == "honcho"
    assert (home / "config.yaml").read_text(encoding="utf-8") == USER_CONFIG


def test_a_folder_of_someone_else_is_never_overwritten_or_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "hermes" / "plugins" / "ekko"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("# my own plugin\n")
    for action in ("install", "uninstall"):
        code, report, _ = cli(capsys, action, "--hermes-home", str(tmp_path / "hermes"))
        assert code == 2 and "not written by ekko-memory" in report["error"]["message"], report
    assert (folder / "__init__.py").read_text() == "# my own plugin\n"


def test_a_config_that_does_not_parse_is_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "hermes"
    home.mkdir()
    broken = "memory:\n  provider: [honcho\n"
    (home / "config.yaml").write_text(broken)
    code, report, _ = cli(capsys, "install", "--hermes-home", str(home), "--activate")
    assert code == 2 and "is not valid YAML" in report["error"]["message"]
    assert (home / "config.yaml").read_text() == broken
    assert not (home / "plugins").exists()  # refused before anything was written


def test_without_a_yaml_library_activate_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_import = builtins.__import__

    def no_yaml(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "yaml" or name.startswith("ruamel"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_yaml)
    home = tmp_path / "hermes"
    code, report, _ = cli(capsys, "install", "--hermes-home", str(home), "--activate")
    assert code == 2 and "ekko-memory[hermes]" in report["error"]["message"]
    assert not home.exists()


def test_a_python_without_hermes_is_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(installer, "_hermes_here", lambda: False)
    code, report, err = cli(capsys, "install", "--hermes-home", str(tmp_path / "h"))
    assert code == 0 and report["hermesImportable"] is False
    assert "Hermes Agent is not installed in this Python" in err


def test_hermes_home_comes_from_the_option_then_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HERMES_HOME", str(tmp_path / "env-home"))
    assert installer.resolve_hermes_home(str(tmp_path / "opt")) == tmp_path / "opt"
    assert installer.resolve_hermes_home(None) == tmp_path / "env-home"
    monkeypatch.delenv("HERMES_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert installer.resolve_hermes_home(None) == tmp_path / ".hermes"


def test_hermes_needs_an_action(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hermes"]) == 2
    assert "ACTION" in capsys.readouterr().err


# --- where the memories live --------------------------------------------------------


def test_the_workspace_store_follows_ekko_workspace_then_the_settings_then_hermes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EKKO_WORKSPACE", raising=False)
    monkeypatch.chdir(tmp_path)
    hermes = str(tmp_path / "hermes")
    plain = HermesSettings()
    assert plain.workspace_dir(hermes_home=hermes, agent_workspace=None) == tmp_path
    # Hermes names its workspace; its folder lives in the Hermes profile.
    assert plain.workspace_dir(hermes_home=hermes, agent_workspace="hermes") == (
        tmp_path / "hermes" / "ekko" / "hermes"
    )
    assert plain.workspace_dir(hermes_home=hermes, agent_workspace="../x") == (
        tmp_path / "hermes" / "ekko" / "x"
    )
    assert plain.workspace_dir(hermes_home=hermes, agent_workspace=str(tmp_path / "p")) == (
        tmp_path / "p"
    )
    configured = HermesSettings(workspace="$HERMES_HOME/my-memory")
    assert configured.workspace_dir(hermes_home=hermes, agent_workspace="hermes") == (
        tmp_path / "hermes" / "my-memory"
    )
    monkeypatch.setenv("EKKO_WORKSPACE", str(tmp_path / "from-env"))
    assert configured.workspace_dir(hermes_home=hermes, agent_workspace="hermes") == (
        tmp_path / "from-env"
    )


def test_the_user_store_follows_ekko_home_then_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EKKO_HOME")
    assert HermesSettings().user_home_dir(hermes_home=None) is None  # Ekko's ~/.ekko
    configured = HermesSettings(user_home=str(tmp_path / "mine"))
    assert configured.user_home_dir(hermes_home=None) == tmp_path / "mine"
    monkeypatch.setenv("EKKO_HOME", str(tmp_path / "env"))
    assert configured.user_home_dir(hermes_home=None) == tmp_path / "env"


def test_settings_that_do_not_fit_keep_their_defaults_and_say_so() -> None:
    settings, warnings = HermesSettings.from_mapping(
        {"extraction": "magic", "prefetch_tokens": "lots", "workspace": "  "}
    )
    assert settings == HermesSettings()
    assert len(warnings) == 2 and "extraction" in warnings[0]
    good, none = HermesSettings.from_mapping({"extraction": "rules", "prefetch_tokens": "400"})
    assert (good.extraction, good.prefetch_tokens, none) == ("rules", 400, [])


# --- hermes memory setup ekko (the questions; tests/hermes/ runs Hermes's command) ------


SCHEMA = [
    {"key": "workspace", "description": "workspace", "default": ""},
    {"key": "extraction", "description": "who", "default": "ekko", "choices": ["ekko", "rules"]},
    {"key": "llm_model", "description": "model", "env_var": "EKKO_LLM_MODEL",
     "when": {"extraction": "ekko"}},
    {"key": "llm_api_key", "description": "key", "secret": True, "env_var": "EKKO_LLM_API_KEY",
     "when": {"extraction": "ekko"}},
]  # fmt: skip


def asked(answers: list[str], current: dict[str, Any]) -> tuple[Any, list[str]]:
    from ekko_memory.integrations.hermes.setup_wizard import ask_all

    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if not answers:
            raise EOFError
        return answers.pop(0)

    return ask_all(SCHEMA, current, ask=ask, ask_secret=ask, say=prompts.append), prompts


def test_setup_skips_what_does_not_apply_and_keeps_what_is_not_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EKKO_LLM_MODEL", "qwen")
    result, prompts = asked(["", "rules"], {"workspace": "~/w"})
    assert result.settings == {"workspace": "~/w", "extraction": "rules"}
    assert result.env == {} and len(prompts) == 2  # no endpoint questions for rules
    # Enter keeps the model found in the environment; the secret is never shown.
    result, prompts = asked(["", "", "", "sk-1"], {})
    assert result.settings == {"extraction": "ekko"}
    assert result.env == {"EKKO_LLM_MODEL": "qwen", "EKKO_LLM_API_KEY": "sk-1"}
    assert "[qwen]" in prompts[2] and "sk-1" not in " ".join(prompts)
    # No terminal answers at all: nothing changes but the defaults.
    result, _ = asked([], {"extraction": "rules"})
    assert result.settings == {"extraction": "rules"} and result.env == {}


def test_the_env_file_keeps_its_other_lines(tmp_path: Path) -> None:
    from ekko_memory.integrations.hermes.setup_wizard import write_env

    env = tmp_path / ".env"
    env.write_text("# keys\nA=1\nEKKO_LLM_MODEL=old\n")
    write_env(env, {"EKKO_LLM_MODEL": "new", "EKKO_LLM_API_KEY": "k"})
    assert env.read_text() == "# keys\nA=1\nEKKO_LLM_MODEL=new\nEKKO_LLM_API_KEY=k\n"
    assert env.stat().st_mode & 0o777 == 0o600
