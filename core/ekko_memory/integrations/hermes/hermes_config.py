"""Reading and editing Hermes's ``config.yaml`` without losing anything the user wrote.

Edits go through ruamel.yaml's round trip (comments, order and quoting kept) and fall
back to PyYAML (comments lost, said so); both come with hermes-agent, neither with Ekko's
core. The file is written under a temporary name and renamed, so an interrupted edit
leaves the old file; a file that does not parse is never rewritten.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

from ekko_memory.errors import InvalidInput

CONFIG_NAME = "config.yaml"


class YamlUnavailable(InvalidInput):
    """Neither ruamel.yaml nor PyYAML is installed (they come with hermes-agent)."""


def config_path(hermes_home: str | os.PathLike[str]) -> Path:
    """``$HERMES_HOME/config.yaml``."""
    return Path(hermes_home).expanduser() / CONFIG_NAME


def read_config(path: Path) -> dict[str, Any]:
    """The parsed file ({} when it does not exist); InvalidInput when it does not parse."""
    if not path.is_file():
        return {}
    text = path.read_text(encoding="utf-8-sig")
    try:
        import yaml
    except ImportError:
        data = _ruamel_load(text, path)
    else:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as e:
            raise InvalidInput(f"{path} is not valid YAML: {e}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise InvalidInput(f"{path} must hold a mapping of settings")
    return data


def provider_values(hermes_home: str | os.PathLike[str] | None) -> dict[str, Any]:
    """``memory.ekko`` of Hermes's config ({} when absent or unreadable: defaults apply)."""
    if hermes_home is None:
        return {}
    try:
        memory = read_config(config_path(hermes_home)).get("memory")
    except (InvalidInput, OSError):
        return {}
    section = memory.get("ekko") if isinstance(memory, dict) else None
    return dict(section) if isinstance(section, dict) else {}


def edit_config(path: Path, change: Callable[[MutableMapping[str, Any]], bool]) -> bool:
    """Apply ``change`` to the file's mapping and write it back when ``change`` says it
    changed something (returns that). The file's other settings are kept as they were."""
    text = path.read_text(encoding="utf-8-sig") if path.is_file() else ""
    data, dump = _load_for_edit(text, path)
    if not change(data):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".config.", suffix=".yaml.tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dump(data))
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


def check_editable(path: Path) -> None:
    """Raise what ``edit_config`` would (no YAML library, a file that does not parse),
    changing nothing."""
    _load_for_edit(path.read_text(encoding="utf-8-sig") if path.is_file() else "", path)


def section(data: MutableMapping[str, Any], name: str) -> MutableMapping[str, Any]:
    """``data[name]`` as a mapping, made when missing; InvalidInput when it is not one."""
    value = data.get(name)
    if value is None:
        value = data[name] = {}
    if not isinstance(value, MutableMapping):
        raise InvalidInput(f"'{name}' in config.yaml is not a mapping of settings")
    return value


Dump = Callable[[MutableMapping[str, Any]], str]


def _load_for_edit(text: str, path: Path) -> tuple[MutableMapping[str, Any], Dump]:
    """(the file's mapping, how to write it back): ruamel.yaml's round trip when it is
    installed, else PyYAML's."""
    try:
        from ruamel.yaml import YAML
        from ruamel.yaml.comments import CommentedMap
        from ruamel.yaml.error import YAMLError
    except ImportError:
        pass
    else:
        rt = YAML()
        rt.preserve_quotes = True
        try:
            data = rt.load(text) if text.strip() else None
        except YAMLError as e:
            raise InvalidInput(f"{path} is not valid YAML: {e}") from None

        def dump(value: MutableMapping[str, Any]) -> str:
            out = io.StringIO()
            rt.dump(value, out)
            return out.getvalue()

        return _mapping(CommentedMap() if data is None else data, path), dump
    try:
        import yaml
    except ImportError:
        raise YamlUnavailable(
            "editing config.yaml needs ruamel.yaml or PyYAML (both come with hermes-agent: "
            "pip install 'ekko-memory[hermes]')"
        ) from None
    try:
        data = yaml.safe_load(text) if text.strip() else None
    except yaml.YAMLError as e:
        raise InvalidInput(f"{path} is not valid YAML: {e}") from None

    def plain_dump(value: MutableMapping[str, Any]) -> str:
        return str(yaml.safe_dump(dict(value), allow_unicode=True, sort_keys=False))

    return _mapping({} if data is None else data, path), plain_dump


def _mapping(data: Any, path: Path) -> MutableMapping[str, Any]:
    if not isinstance(data, MutableMapping):
        raise InvalidInput(f"{path} must hold a mapping of settings")
    return data


def _ruamel_load(text: str, path: Path) -> Any:
    try:
        from ruamel.yaml import YAML
        from ruamel.yaml.error import YAMLError
    except ImportError:
        raise YamlUnavailable(
            "reading config.yaml needs PyYAML or ruamel.yaml (both come with hermes-agent)"
        ) from None
    try:
        return YAML(typ="safe").load(text)
    except YAMLError as e:
        raise InvalidInput(f"{path} is not valid YAML: {e}") from None
