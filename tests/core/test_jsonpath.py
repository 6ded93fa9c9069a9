from __future__ import annotations

import pytest

from replay._core import jsonpath


def test_parse_names_indexes_and_wildcards() -> None:
    assert jsonpath.parse("messages[*].name") == ("messages", "*", "name")
    assert jsonpath.parse("tools[0].function") == ("tools", 0, "function")
    assert jsonpath.parse("model") == ("model",)


def test_without_drops_fields_and_leaves_the_input_alone() -> None:
    value = {"model": "a", "messages": [{"name": "x", "content": "hi"}, {"content": "yo"}]}
    paths = (jsonpath.parse("model"), jsonpath.parse("messages[*].name"))
    assert jsonpath.without(value, paths) == {"messages": [{"content": "hi"}, {"content": "yo"}]}
    assert value["model"] == "a" and value["messages"][0]["name"] == "x"


def test_without_a_list_index_removes_that_item() -> None:
    assert jsonpath.without({"a": [1, 2, 3]}, (jsonpath.parse("a[1]"),)) == {"a": [1, 3]}


def test_without_ignores_paths_that_are_not_there() -> None:
    assert jsonpath.without({"a": 1}, (jsonpath.parse("b.c"), jsonpath.parse("a.b"))) == {"a": 1}


def test_differences_name_leaf_paths_with_both_values() -> None:
    old = {"model": "m1", "messages": [{"content": "hi"}], "n": 1}
    new = {"model": "m2", "messages": [{"content": "ho"}], "stream": True, "n": 1}
    assert list(jsonpath.differences(old, new, "body")) == [
        ("body.messages[0].content", "hi", "ho"),
        ("body.model", "m1", "m2"),
        ("body.stream", None, True),
    ]


def test_differences_tell_types_apart() -> None:
    assert list(jsonpath.differences({"a": 1}, {"a": True})) == [("a", 1, True)]
    assert list(jsonpath.differences([1, 2], [1, 2, 3])) == [("", [1, 2], [1, 2, 3])]


def test_what_is_not_a_path_is_refused() -> None:
    for bad in ("", "messages[", "a..b", ".a", "a.", "a[x]"):
        with pytest.raises(ValueError, match="is not a JSON path"):
            jsonpath.parse(bad)
