"""The pytest plugin: only hooks and fixtures."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "replay(path=None, **options): record/replay this test")
