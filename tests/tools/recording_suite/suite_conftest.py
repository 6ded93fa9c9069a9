"""The conftest.py of the pytest-recording suite (copied as ``conftest.py``), as written for it."""

import pytest


@pytest.fixture(scope="module")
def vcr_config():
    return {"filter_headers": ["authorization"], "decode_compressed_response": True}


def pytest_recording_configure(config, vcr):
    vcr.register_matcher("always", lambda recorded, sent: True)
