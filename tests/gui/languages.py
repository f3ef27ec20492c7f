"""A fixture that runs a test once in English and once in Chinese (the catalog installed
before the window is built; English again afterwards)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import QApplication, QLocale, QTranslator
from ekko_memory_gui.services.translation import install_translation, remove_translation


@pytest.fixture(params=["en", "zh_CN"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    loaded = install_translation(qapp, request.param)
    labels.reset()
    yield request.param
    remove_translation(qapp, loaded)
    for t in qapp.findChildren(QTranslator):
        qapp.removeTranslator(t)
    QLocale.setDefault(QLocale("en_US"))
    labels.reset()


def pick(language: str, *, en: str, zh: str) -> str:
    return zh if language == "zh_CN" else en
