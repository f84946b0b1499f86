"""Which clause a block sits in, read in document order: a definitions clause (its terms may be
defined without quotes) or the parties clause (its parenthetical definitions name parties).

Shared by the per-block facts and by the reading of deleted definitions, so both agree on
where a definitions clause begins and ends.
"""

from __future__ import annotations

import re

from ..blocks import Block

_DEFINITIONS_HEADING = re.compile(r"\b(?:definitions?|interpretation|defined terms)\b", re.I)
_PARTIES_HEADING = re.compile(r"^\s*(?:the\s+)?parties\b", re.I)


class ClauseTracker:
    """Follows headings block by block: a definitions clause lasts until a heading of its level
    or above, the parties clause until the next heading."""

    __slots__ = ("_definitions_level", "in_parties")

    def __init__(self) -> None:
        self._definitions_level: int | None = None
        self.in_parties = False

    @property
    def in_definitions(self) -> bool:
        return self._definitions_level is not None

    def read(self, block: Block) -> None:
        """Take the next block (with text) in document order into account."""
        level = block.heading_level
        if level is None or len(block.text.split()) > 10:
            return
        if self._definitions_level is not None and level <= self._definitions_level:
            self._definitions_level = None
        if _DEFINITIONS_HEADING.search(block.text):
            self._definitions_level = level
        self.in_parties = bool(_PARTIES_HEADING.match(block.text))
