"""Replays the urllib3 adapter's calls in a process of its own, every connection blocked.

    python tests/urllib3_replay.py CASSETTE BEDROCK_URL LLM_URL RESULTS.json

Sends other credentials than the recording did (dummy AWS keys, no session token's value
the same, another API key). RESULTS has, for each call, what it returned (or the traceback),
and every connection attempt that was blocked.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path
from typing import Any

from urllib3_clients import (
    bedrock_converse,
    bedrock_converse_stream,
    bedrock_invoke_stream,
    requests_chat,
    urllib3_chat,
    urllib3_stream,
)

import replay
from replay._adapters.network import NetworkGuard

DUMMY_AWS = ("AKIAIOSFODNN7DUMMY00", "dummy-secret-key", "dummy-session-token")
DUMMY_KEY = "sk-dummy-replay-key-000000"

if __name__ == "__main__":
    cassette, bedrock_url, llm_url, results_path = sys.argv[1:5]
    calls = {
        "bedrock": lambda: bedrock_converse(bedrock_url, *DUMMY_AWS),
        "converse_stream": lambda: bedrock_converse_stream(bedrock_url, *DUMMY_AWS),
        "invoke_stream": lambda: bedrock_invoke_stream(bedrock_url, *DUMMY_AWS),
        "requests": lambda: requests_chat(llm_url, DUMMY_KEY),
        "urllib3": lambda: urllib3_chat(llm_url, DUMMY_KEY),
        "stream": lambda: urllib3_stream(llm_url, DUMMY_KEY),
    }
    results: dict[str, Any] = {}
    with NetworkGuard() as guard, replay.use_cassette(cassette, "none"):
        for name, call in calls.items():
            try:
                results[name] = {"value": call(), "error": None}
            except Exception:
                results[name] = {"value": None, "error": traceback.format_exc()}
    results["blocked"] = [str(attempt) for attempt in guard.blocked]
    Path(results_path).write_text(json.dumps(results, indent=1))
