"""A pytest-recording suite as its authors wrote it (copied as ``test_chat.py``).

Its cassettes are vcrpy YAML: a conversation of two turns to one URL, recorded with
``temperature`` 0.7 where the test now sends 0.2 (vcrpy matched on method and URL
only), and no ``Date`` header anywhere.
"""

import httpx
import pytest

URL = "http://127.0.0.1:9/v1/chat/completions"  # nothing listens there: replayed only


def chat(client, messages):
    body = {"model": "gpt-4o-mini", "messages": messages, "temperature": 0.2}
    reply = client.post(URL, json=body, headers={"Authorization": "Bearer sk-test-not-a-key"})
    reply.raise_for_status()
    return reply.json()


@pytest.mark.vcr
def test_conversation(vcr):
    history = [{"role": "user", "content": "Hi"}]
    with httpx.Client() as client:
        first = chat(client, history)
        history += [first["choices"][0]["message"], {"role": "user", "content": "How are you?"}]
        second = chat(client, history)
    assert first["choices"][0]["message"]["content"] == "Hello! How can I help?"
    assert second["choices"][0]["message"]["content"] == "Fine, thanks. And you?"
    assert (first["id"], first["created"]) == ("chatcmpl-9xYz8AbC7dEfGh1", 1718000000)
    assert vcr.play_count == 2
    assert vcr.all_played
    assert [request.method for request in vcr.requests] == ["POST", "POST"]


@pytest.mark.vcr("shared_greeting.yaml")
def test_named_cassette():
    with httpx.Client() as client:
        reply = chat(client, [{"role": "user", "content": "Greet me"}])
    assert reply["choices"][0]["message"]["content"] == "Greetings."


class TestSampling:
    @pytest.mark.vcr(match_on=["method", "uri"], record_mode="none")
    def test_same_question_twice(self, vcr):
        with httpx.Client() as client:
            answers = [chat(client, [{"role": "user", "content": "Pick a number"}]) for _ in "ab"]
        assert [a["choices"][0]["message"]["content"] for a in answers] == ["7", "3"]
        assert len(vcr.responses) == 2
