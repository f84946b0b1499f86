"""Who and when a change is attributed to, and the ids it gets (ooxml-rules §5.1-5.2).

One counter serves every revision element in every part, seeded above the highest id any
part already uses (headers and notes included), so a new change never shares an id with an
existing one; comment ids are their own family, equally unique. New paragraphs get
``w14:paraId`` values no part uses yet. A fixed ``RevisionStamp`` makes all of it repeatable
for tests and for a bridge that must produce the same document twice.
"""

from __future__ import annotations

import random
import weakref
from dataclasses import dataclass
from datetime import UTC, datetime

from lxml import etree

from ..document import WordDocument
from ..vocabulary import COMMENT_ELEMENTS, REVISION_ELEMENTS
from ..xmlutil import W14, W

_MAX_ID = 2**31 - 1


@dataclass(frozen=True, slots=True)
class RevisionStamp:
    """A fixed date (ISO 8601, UTC) and a floor for new ids, for repeatable output."""

    date: str
    id_seed: int = 0


def utc_now() -> str:
    """Now in UTC, to the second, as Word writes ``w:date`` (``2026-11-29T12:00:00Z``)."""
    return datetime.now(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def _story_roots(doc: WordDocument) -> list[etree._Element]:
    """Roots of every part that can hold revisions, comments or paragraphs."""
    roots = [doc.root]
    package = doc.package
    for rel in package.relationships(doc.main_part):
        if rel.external or not package.has_part(rel.target) or not rel.target.endswith(".xml"):
            continue
        if rel.rel_type.rsplit("/", 1)[-1] in ("header", "footer", "footnotes", "endnotes", "comments"):
            roots.append(package.xml(rel.target))
    return roots


_ID_TAGS = tuple(REVISION_ELEMENTS | COMMENT_ELEMENTS)
_ID, _PARA_ID, _P, _TR = W + "id", W14 + "paraId", W + "p", W + "tr"

#: The stamper an act on a document minted from, with the document version it holds at (see
#: :func:`keep_stamper`): seeding a stamper scans every part (~40 ms with 2,000 comments), and the
#: edit engine's stamper for a new comment after a reply can continue the reply's counters.
_KEPT: weakref.WeakKeyDictionary[WordDocument, tuple[int, Stamper]] = weakref.WeakKeyDictionary()


def keep_stamper(doc: WordDocument, stamper: Stamper) -> None:
    """``stamper`` minted every id ``doc`` gained since it was seeded, up to ``doc`` as it is now:
    a stamper made for this version (with the same fixed stamp) continues from its counters."""
    _KEPT[doc] = (doc.version, stamper)


def kept_stamper(doc: WordDocument) -> Stamper | None:
    """The stamper kept for ``doc`` when nothing changed it since (else None)."""
    held = _KEPT.get(doc)
    return held[1] if held is not None and held[0] == doc.version else None


class Stamper:
    """Mints revision ids, comment ids and paraIds, and stamps author and date."""

    def __init__(self, doc: WordDocument, author: str, stamp: RevisionStamp | None = None) -> None:
        self.author = author
        self.stamp = stamp
        self._rng = random.Random(stamp.id_seed if stamp else None)
        revision_max = comment_max = 0
        self._doc = doc
        self._para_ids: set[str] | None = None  # scanned on the first new paragraph
        kept = kept_stamper(doc)
        if kept is not None and kept.stamp == stamp:
            self._next_revision, self._next_comment = kept._next_revision, kept._next_comment
            self._para_ids = kept._para_ids
            return
        # lxml filters by tag and reads attributes in C; visiting every element in Python cost
        # ~200 ms per batch on a 300-page contract
        for root in _story_roots(doc):
            for el in root.iter(*_ID_TAGS):
                raw = el.get(_ID)
                if raw is not None and raw.isdigit():
                    if el.tag in COMMENT_ELEMENTS:
                        comment_max = max(comment_max, int(raw))
                    else:
                        revision_max = max(revision_max, int(raw))

        floor = stamp.id_seed if stamp else 0
        self._next_revision = max(revision_max, floor) + 1
        self._next_comment = comment_max + 1

    @property
    def date(self) -> str:
        """The ``w:date`` for a change made now (or the fixed stamp's date)."""
        return self.stamp.date if self.stamp else utc_now()

    def revision_id(self) -> str:
        """A fresh revision id, unique across every part."""
        value = self._next_revision
        if value > _MAX_ID:
            raise OverflowError("revision ids exhausted")
        self._next_revision += 1
        return str(value)

    @property
    def next_revision_id(self) -> int:
        """The id the next revision would get (reported as ``nextRevisionId``)."""
        return self._next_revision

    def comment_id(self) -> str:
        """A fresh comment id, above every comment id in use."""
        value = self._next_comment
        self._next_comment += 1
        return str(value)

    def para_id(self) -> str:
        """A fresh ``w14:paraId``: 8 hex digits below 0x80000000, unused in the package."""
        taken = self.read_para_ids()
        while True:
            candidate = format(self._rng.randrange(1, 0x80000000), "08X")
            if candidate not in taken:
                taken.add(candidate)
                return candidate

    def read_para_ids(self) -> set[str]:
        """The paraIds in use (read from every part the first time), which :meth:`para_id` avoids."""
        if self._para_ids is None:
            # w14:paraId lives on paragraphs and table rows only
            self._para_ids = {
                value.upper()
                for root in _story_roots(self._doc)
                for el in root.iter(_P, _TR)
                if (value := el.get(_PARA_ID))
            }
        return self._para_ids

    def attributes(self) -> dict[str, str]:
        """``w:id``, ``w:author``, ``w:date`` for a new revision element."""
        return {W + "id": self.revision_id(), W + "author": self.author, W + "date": self.date}
