"""The secrets a request carries are the same whether or not its body's redaction for the key
is handed on (:meth:`Redactor.with_secrets_of` skips looking for secret JSON values in a body
where that redaction found no secret field's name)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from secret_samples import GENERIC_FIELD_NAMES, SECRET_FIELD_NAMES

from replay._core.model import Request
from replay._core.redact import Redactor

NAMES = [*SECRET_FIELD_NAMES, *GENERIC_FIELD_NAMES, "model", "content", "token_id", "Secret"]
PIECES = st.one_of(
    st.sampled_from(['"', '\\"', ":", " ", ",", "{", "}", "[", "]", "\\", "-", ".", "e", "1"]),
    st.sampled_from(NAMES).map(lambda name: f'"{name}"'),
    st.sampled_from(NAMES).map(lambda name: f'"{name}": '),
    st.text("abcXYZ0123456789_-+/=.", min_size=0, max_size=30).map(lambda text: f'"{text}"'),
    st.from_regex(r"-?[0-9][0-9.eE+\-]{0,12}", fullmatch=True),
    st.sampled_from(["sk-proj-Ab3dEf6hIj9kLm2nOp5q", "hunter2hunter2XY", "Tk9nX2FiY2RlZjEyMz"]),
)
CONTENT_TYPES = [
    "application/json",
    None,
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=b",
]


@settings(max_examples=400, deadline=None)
@given(
    pieces=st.lists(PIECES, max_size=40),
    content_type=st.sampled_from(CONTENT_TYPES),
    authorization=st.sampled_from([None, "Bearer sk-test-0123456789abcdefghij"]),
)
def test_the_carried_secrets_are_the_same_with_the_body_redacted_for_the_key(
    pieces: list[str], content_type: str | None, authorization: str | None
) -> None:
    body = "".join(pieces).encode()
    headers = tuple(
        (name, value)
        for name, value in (("content-type", content_type), ("authorization", authorization))
        if value is not None
    )
    request = Request("POST", "https://api.example.com/v1/x?key=abcdefgh12345678", headers, body)
    redactor = Redactor(environ={})
    redacted = redactor.redacted_body(body, content_type)
    assert redacted.known == redactor.body(body, content_type)
    given_it, alone = redactor.with_secrets_of(request, redacted), redactor.with_secrets_of(request)
    assert (given_it.pattern.pattern, given_it.needles) == (alone.pattern.pattern, alone.needles)
