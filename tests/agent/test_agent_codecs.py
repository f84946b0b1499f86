"""Contract §3 / §11 codecs.test: the handles a model copies between tool calls, accepted and refused."""

from __future__ import annotations

from typing import Any

import pytest

from reviewer_app.agent.codecs import (
    as_integer,
    decode_comment_id,
    decode_range_handle,
    decode_section_handle,
    decode_story_handle,
)
from reviewer_app.docx import DocxReviewer
from tests.conftest import REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"

# ---- comment ids ------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["0", "7", "17", "007", "123456789", "9007199254740991"])
def test_comment_id_accepts_decimal_digit_strings(value: str) -> None:
    assert decode_comment_id(value) == value


@pytest.mark.parametrize(
    "value",
    [
        "17abc",  # no prefix matching
        "abc17",
        "-17",
        "+17",
        " 17",
        "17 ",
        "1e3",
        "1.0",
        "",
        "9007199254740992",  # 2^53: past the safe-integer bound
        "99999999999999999999999",
        "\u0661\u0667",  # Arabic-Indic digits are digits to str.isdigit, not to Word
        "\u00b2",
        17,
        17.0,
        True,
        None,
        ["17"],
        {"id": "17"},
    ],
)
def test_comment_id_refuses_anything_else(value: Any) -> None:
    assert decode_comment_id(value) is None


# ---- story handles ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"type": "main"}, {"type": "main"}),
        ({"type": "header", "relationshipId": "rId9"}, {"type": "header", "relationshipId": "rId9"}),
        ({"type": "footer", "relationshipId": "rId10"}, {"type": "footer", "relationshipId": "rId10"}),
        ({"type": "footnote", "noteId": 3}, {"type": "footnote", "noteId": 3}),
        ({"type": "endnote", "noteId": 0}, {"type": "endnote", "noteId": 0}),
        ({"type": "footnote", "noteId": 3.0}, {"type": "footnote", "noteId": 3}),
    ],
)
def test_story_handle_accepts_the_three_shapes(value: dict[str, Any], expected: dict[str, Any]) -> None:
    decoded = decode_story_handle(value)
    assert decoded == expected
    assert decoded is not value


@pytest.mark.parametrize(
    "value",
    [
        {},
        {"type": "body"},
        {"type": "Main"},
        {"type": "main", "relationshipId": "rId1"},
        {"type": "header"},
        {"type": "header", "relationshipId": ""},
        {"type": "header", "relationshipId": 7},
        {"type": "footer", "relationshipId": "rId1", "noteId": 1},
        {"type": "footnote"},
        {"type": "footnote", "noteId": "3"},
        {"type": "footnote", "noteId": True},
        {"type": "footnote", "noteId": 1.5},
        {"type": "endnote", "noteId": float("nan")},
        {"type": "endnote", "noteId": 2**53},
        {"type": "endnote", "relationshipId": "rId1"},
        None,
        "main",
        ["main"],
    ],
)
def test_story_handle_refuses_other_shapes(value: Any) -> None:
    assert decode_story_handle(value) is None


# ---- section handles --------------------------------------------------------------------------------

SECTION = {
    "type": "headingSection",
    "story": "main",
    "headingBlockId": "121F4E0D",
    "headingTextHash": "hwlgks8",
    "headingLevel": 1,
}


@pytest.mark.parametrize("level", [1, 5, 9])
def test_section_handle_accepts_levels_one_to_nine(level: int) -> None:
    value = {**SECTION, "headingLevel": level}
    decoded = decode_section_handle(value)
    assert decoded == value
    assert decoded is not value


def test_section_handle_reads_an_integral_float_level_as_an_integer() -> None:
    decoded = decode_section_handle({**SECTION, "headingLevel": 2.0})
    assert decoded is not None
    assert decoded["headingLevel"] == 2
    assert isinstance(decoded["headingLevel"], int)


@pytest.mark.parametrize(
    "change",
    [
        {"story": "header"},  # the story must be main
        {"story": None},
        {"type": "section"},
        {"headingLevel": 0},  # level >= 1
        {"headingLevel": 10},
        {"headingLevel": -1},
        {"headingLevel": 1.5},
        {"headingLevel": True},
        {"headingLevel": "1"},
        {"headingTextHash": "H123"},
        {"headingTextHash": "h"},
        {"headingTextHash": "hab-c"},
        {"headingTextHash": 123},
        {"headingBlockId": ""},
        {"headingBlockId": 5},
        {"extra": 1},
    ],
)
def test_section_handle_refuses_each_broken_field(change: dict[str, Any]) -> None:
    assert decode_section_handle({**SECTION, **change}) is None


@pytest.mark.parametrize("missing", list(SECTION))
def test_section_handle_requires_every_key(missing: str) -> None:
    assert decode_section_handle({k: v for k, v in SECTION.items() if k != missing}) is None


@pytest.mark.parametrize("value", [None, "handle", [SECTION], 1])
def test_section_handle_refuses_non_objects(value: Any) -> None:
    assert decode_section_handle(value) is None


# ---- range handles ----------------------------------------------------------------------------------

RANGE = {
    "type": "textRange",
    "story": "main",
    "blockId": "1D82476C",
    "startOffset": 173,
    "endOffset": 181,
    "selectedTextHash": "hmhew8n",
}


def test_range_handle_accepts_the_find_text_shape() -> None:
    decoded = decode_range_handle(RANGE)
    assert decoded == RANGE
    assert decoded is not RANGE
    assert decode_range_handle({**RANGE, "startOffset": 0, "endOffset": 1}) is not None


def test_range_handle_reads_integral_float_offsets_as_integers() -> None:
    decoded = decode_range_handle({**RANGE, "startOffset": 4.0, "endOffset": 9.0})
    assert decoded is not None
    assert (decoded["startOffset"], decoded["endOffset"]) == (4, 9)
    assert all(isinstance(decoded[k], int) for k in ("startOffset", "endOffset"))


@pytest.mark.parametrize(
    "change",
    [
        {"endOffset": 173},  # end must be greater than start
        {"endOffset": 100},
        {"startOffset": -1},
        {"startOffset": 1.5},
        {"startOffset": "173"},
        {"startOffset": True},
        {"endOffset": None},
        {"selectedTextHash": "nothash"},
        {"selectedTextHash": "h"},
        {"selectedTextHash": "hABC"},
        {"type": "range"},
        {"story": "header"},
        {"blockId": ""},
        {"blockId": 1},
        {"extra": True},
    ],
)
def test_range_handle_refuses_each_broken_field(change: dict[str, Any]) -> None:
    assert decode_range_handle({**RANGE, **change}) is None


@pytest.mark.parametrize("missing", list(RANGE))
def test_range_handle_requires_every_key(missing: str) -> None:
    assert decode_range_handle({k: v for k, v in RANGE.items() if k != missing}) is None


@pytest.mark.parametrize("value", [None, "range", [RANGE], 3])
def test_range_handle_refuses_non_objects(value: Any) -> None:
    assert decode_range_handle(value) is None


# ---- what the reads produce round-trips ---------------------------------------------------------------


@pytest.fixture(scope="module")
def reviewer() -> DocxReviewer:
    return DocxReviewer.open(SAMPLE)


def test_every_outline_handle_decodes_to_itself(reviewer: DocxReviewer) -> None:
    sections = reviewer.get_outline(9)["sections"]
    assert sections
    for entry in sections:
        assert decode_section_handle(entry["handle"]) == entry["handle"]


def test_every_story_handle_decodes_to_itself(reviewer: DocxReviewer) -> None:
    handles = [story["handle"] for story in reviewer.list_stories()]
    assert {h["type"] for h in handles} >= {"main", "header", "footer", "footnote"}
    for handle in handles:
        assert decode_story_handle(handle) == handle


def test_every_find_text_range_decodes_to_itself(reviewer: DocxReviewer) -> None:
    matches = reviewer.find_text("Supplier")["matches"]
    assert matches
    for match in matches:
        assert decode_range_handle(match["range"]) == match["range"]


def test_comment_ids_read_from_a_document_decode(reviewer: DocxReviewer) -> None:
    for comment in reviewer.comments():
        assert decode_comment_id(comment["id"]) == comment["id"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [(3, 3), (3.0, 3), (-2, -2), (True, None), (1.5, None), (float("inf"), None), ("3", None), (None, None)],
)
def test_as_integer(value: Any, expected: int | None) -> None:
    assert as_integer(value) == expected
