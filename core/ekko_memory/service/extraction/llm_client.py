"""A small client for the OpenAI-compatible chat-completions API (OpenAI, Ollama, vLLM…).

Standard library only (the core stays light). Timeouts on every call, retries with
backoff on timeouts, connection errors, 429 and 5xx; other failures raise at once.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from typing import Any

from ekko_memory.service.config import LlmConfig
from ekko_memory.service.extraction.protocol import ExtractionFailed

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


class ChatClient:
    """POST {base_url}/chat/completions asking for a JSON object."""

    def __init__(self, config: LlmConfig, *, backoff_s: float = 0.5) -> None:
        self.config = config
        self.backoff_s = backoff_s

    @property
    def url(self) -> str:
        """The chat-completions endpoint."""
        return self.config.base_url.rstrip("/") + "/chat/completions"

    def complete_json(self, system: str, user: str) -> Any:
        """The model's reply parsed as JSON; ExtractionFailed when it cannot be had."""
        body = json.dumps(
            {
                "model": self.config.model,
                "temperature": 0,
                "response_format": {"type": "json_object"},
                "messages": [
                    {"role": "system", "content": system},
                    {"role": "user", "content": user},
                ],
            }
        ).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        last = ""
        for attempt in range(self.config.max_retries + 1):
            if attempt:
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.config.timeout_s) as resp:
                    payload = resp.read()
            except urllib.error.HTTPError as e:
                last = f"HTTP {e.code} from {self.url}"
                if e.code == 429 or e.code >= 500:
                    continue
                raise ExtractionFailed(last) from e
            except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
                last = f"no answer from {self.url}: {getattr(e, 'reason', e)}"
                continue
            return _parse(payload)
        raise ExtractionFailed(last + f" (after {self.config.max_retries + 1} attempts)")


def _parse(payload: bytes) -> Any:
    # Errors say what is wrong and where, never what the reply said: the model was shown
    # the user's messages and memories and may repeat them, and an error is kept (the
    # retry queue) and shown (reports, the app) long after a memory is deleted for good.
    try:
        content = json.loads(payload)["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError, RecursionError) as e:
        raise ExtractionFailed(
            f"not a chat-completions response ({len(payload)} bytes: {_why(e)})"
        ) from e
    if not isinstance(content, str):
        raise ExtractionFailed("the model returned no text")
    text = _FENCE.sub("", content.strip())
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ExtractionFailed(
            f"the model's reply is not JSON ({len(text)} characters: {_why(e)})"
        ) from e


def _why(e: Exception) -> str:
    """What went wrong, in words that quote nothing of the reply."""
    if isinstance(e, json.JSONDecodeError):
        return f"{e.msg} at character {e.pos}"
    if isinstance(e, KeyError | IndexError | TypeError):
        return "no choices[0].message.content"
    return type(e).__name__
