"""Checks an operation's result before it is kept (the ``invalidResult`` guard, contract §5.7).

Schemas miss the mistakes that make Word report unreadable content (ooxml-rules §5.11), so
every element an operation touched is checked against those rules; a failure rolls the
operation back and tells the model, instead of leaving a document that cannot be opened.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from lxml import etree

from ..vocabulary import DELETED, INSERTED, REVISION_WRAPPERS
from ..xmlutil import W

_TEXT_BOX = W + "txbxContent"
_T, _INSTR = W + "t", W + "instrText"
#: Body content an operation may detach (direct-mode deletions); a part's root is never detached.
_CONTENT = frozenset(
    W + t
    for t in (
        "p",
        "tbl",
        "tr",
        "tc",
        "r",
        "sdt",
        "ins",
        "del",
        "hyperlink",
        "bookmarkStart",
        "bookmarkEnd",
        "commentRangeStart",
        "commentRangeEnd",
    )
)


#: Characters XML 1.0 (so no Word document) can hold that the engine does not clean away itself:
#: it drops C0 controls and mends lone surrogates, but U+FFFE and U+FFFF would fail deep in lxml.
_NOT_IN_XML = re.compile("[\ufffe\uffff]")


class InvalidResult(ValueError):
    """The checked XML breaks a rule; ``str()`` names the element and the rule."""


def unwritable_character(value: Any) -> str | None:
    """``U+FFFF`` (say) when a string anywhere in ``value`` holds a character no Word document can.

    Checked before an operation runs, so the model hears the real reason instead of the generic
    failure lxml's refusal would become.
    """
    if isinstance(value, str):
        found = _NOT_IN_XML.search(value)
        return f"U+{ord(found.group()):04X}" if found else None
    items = value.values() if isinstance(value, Mapping) else value if isinstance(value, list | tuple) else ()
    return next((c for c in map(unwritable_character, items) if c is not None), None)


def _path(el: etree._Element) -> str:
    return el.getroottree().getpath(el)


def check(elements: Iterable[etree._Element]) -> None:
    """Raise :class:`InvalidResult` when any element (or its subtree) breaks a writer rule."""
    for root in elements:
        if root.getparent() is None and root.tag in _CONTENT:
            continue  # content the operation removed (direct mode): no longer in the document
        for el in root.iter(_T, _INSTR):
            # the nearest revision wrapper decides, within the text's own story: a text box's
            # paragraphs are a story of their own, whatever wraps the run that holds the box
            nearest = next(el.iterancestors(*REVISION_WRAPPERS, _TEXT_BOX), None)
            if nearest is not None and nearest.tag in DELETED:
                raise InvalidResult(f"{_path(el)}: live text inside a deletion")
            if el.tag == _T and el.text and "\n" in el.text:
                raise InvalidResult(f"{_path(el)}: a line break inside w:t")
        for wrapper in root.iter(*REVISION_WRAPPERS):
            parent = wrapper.getparent()
            if parent is not None and parent.tag == W + "rPr":
                continue
            if wrapper.tag in INSERTED and any(True for _ in wrapper.iterancestors(*INSERTED)):
                raise InvalidResult(f"{_path(wrapper)}: an insertion nested in an insertion")
            if wrapper.tag in DELETED and any(True for _ in wrapper.iterancestors(*DELETED)):
                raise InvalidResult(f"{_path(wrapper)}: a deletion nested in a deletion")
            if wrapper.get(W + "id") is None or wrapper.get(W + "author") is None:
                raise InvalidResult(f"{_path(wrapper)}: a revision without id or author")
        for rpr in root.iter(W + "rPr"):
            change = rpr.find(W + "rPrChange")
            if change is not None and rpr[-1] is not change:
                raise InvalidResult(f"{_path(change)}: rPrChange is not the last child of rPr")
        for ppr in root.iter(W + "pPr"):
            change = ppr.find(W + "pPrChange")
            if change is not None and ppr[-1] is not change:
                raise InvalidResult(f"{_path(change)}: pPrChange is not the last child of pPr")
