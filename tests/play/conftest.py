"""Every th play / th replay test: a private data directory, no colour, 80 columns."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_home(tmp_path, monkeypatch):
    """Records go to a temporary data directory; output is plain and 80 columns wide."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("TREEHOUSE_DEBUG", raising=False)
    return tmp_path
