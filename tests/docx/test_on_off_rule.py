"""One on/off rule (ECMA-376 ST_OnOff) for every flag the engine reads.

A flag spelled ``On`` or ``0`` must mean the same whether it hides a run's text, turns on
paragraph autospacing or marks a comment resolved: a reader that disagreed would show a lawyer
text Word hides, or a comment thread Word shows as open as resolved.
"""

from __future__ import annotations

import pytest

from reviewer_app.docx import DocxReviewer
from tests.docx.test_comments import build, comment, comment_ex, end, read, ref, start
from tests.docx.test_comments import p as comment_p
from tests.docx.test_comments import r as comment_r
from tests.docx_factory import make_docx, p

SPELLINGS = [
    ("1", True),
    ("true", True),
    ("on", True),
    ("On", True),
    (" TRUE ", True),
    ("0", False),
    ("false", False),
    ("off", False),
    ("Off", False),
]


def _block(body: str):
    (block,) = DocxReviewer.from_bytes(make_docx(body)).snapshot().blocks
    return block


def _hidden_text_shows(val: str | None) -> bool:
    attr = "" if val is None else f' w:val="{val}"'
    runs = f'<w:r><w:t xml:space="preserve">Pay </w:t></w:r><w:r><w:rPr><w:vanish{attr}/></w:rPr><w:t>SECRET</w:t></w:r>'
    return "SECRET" in _block(p(runs=runs)).text


def _autospacing(val: str | None) -> bool | None:
    attr = "" if val is None else f' w:beforeAutospacing="{val}"'
    block = _block(p("Clause", ppr=f'<w:spacing w:before="120"{attr}/>'))
    return (block.direct_spacing or {}).get("beforeAutospacing")


def _resolved(val: str | None) -> bool:
    body = comment_p(start(1) + comment_r("the cap") + end(1) + ref(1))
    extended = comment_ex("00000001")
    extended = extended.replace(' w15:done="0"', "" if val is None else f' w15:done="{val}"')
    (found,) = read(build(body, comment(1, "Ann", ("Why?", "00000001")), extended))
    return found["resolved"]


@pytest.mark.parametrize(("val", "on"), SPELLINGS)
def test_every_reader_reads_an_st_onoff_spelling_the_same_way(val: str, on: bool) -> None:
    assert _hidden_text_shows(val) is not on
    assert _autospacing(val) is on
    assert _resolved(val) is on


def test_an_absent_value_means_what_each_place_defines() -> None:
    assert _hidden_text_shows(None) is False  # <w:vanish/> alone hides
    assert _autospacing(None) is None  # not stated: the style decides
    assert _resolved(None) is False  # a thread without w15:done is open


@pytest.mark.parametrize("val", ["yes", "none", ""])
def test_a_value_outside_st_onoff_counts_as_absent(val: str) -> None:
    assert _hidden_text_shows(val) is False
    assert _autospacing(val) is None
    assert _resolved(val) is False
