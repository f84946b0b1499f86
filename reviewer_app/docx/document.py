"""A Word document opened for reading: the package, its main story, styles, numbering and snapshot.

This is the one object the readers (stories, comments, changes, outline, search, views) and the
edit engine share; each looks parts up through the relationships held here, never by path.
"""

from __future__ import annotations

from lxml import etree

from . import xmlutil
from .blocks import Block, BodyWalker
from .errors import MissingPartError
from .numbering import NumberingDefinitions
from .package import Package
from .snapshot import Snapshot, SnapshotCache
from .styles import StyleIndex
from .weak_links import weak_method
from .xmlutil import W


class WordDocument:
    """The parsed main story of a package and the definitions its blocks are read with."""

    def __init__(self, package: Package) -> None:
        self.package = package
        self.main_part = package.main_part
        self.root = package.xml(self.main_part)
        body = self.root.find(W + "body")
        if body is None:
            raise MissingPartError(package.path, "its main document part has no body.")
        self.body: etree._Element = body
        self.reload_definitions()
        self._cache = SnapshotCache(weak_method(self._walk))  # the cache must not hold the document
        #: how many times the structure was reported changed (an undo record tells text-only acts apart)
        self.structure_changes = 0
        #: initials people chose for the comments they write now, by author name; the comments of
        #: anyone else get initials derived from the name
        self.chosen_initials: dict[str, str] = {}

    # ------------------------------------------------------------- parts
    def part_root(self, rel_type: str) -> etree._Element | None:
        """Root of the part the main part relates to with ``rel_type`` (None when absent)."""
        name = self.package.related_part(self.main_part, rel_type)
        return self.package.xml(name) if name else None

    def part_name(self, rel_type: str) -> str | None:
        """Name of the part the main part relates to with ``rel_type`` (None when absent)."""
        return self.package.related_part(self.main_part, rel_type)

    def reload_definitions(self) -> None:
        """Re-read styles and numbering (after the edit engine added a list or a style)."""
        self.styles = StyleIndex(self.part_root(xmlutil.REL_STYLES))
        self.numbering = NumberingDefinitions(self.part_root(xmlutil.REL_NUMBERING), self.styles)

    # ------------------------------------------------------------- snapshot
    def _walk(self) -> list[Block]:
        return BodyWalker(self.styles, self.numbering).walk(self.body)

    def snapshot(self) -> Snapshot:
        """Blocks and anchors of the main story as they are now."""
        return self._cache.snapshot()

    @property
    def version(self) -> int:
        """Increases with every reported change; lets callers tell a stale snapshot apart."""
        return self._cache.version

    def paragraphs_changed(self, paragraphs: list[etree._Element]) -> None:
        """The edit engine reports paragraphs whose text changed but whose structure did not."""
        self._cache.paragraphs_changed(paragraphs)

    def structure_changed(self) -> None:
        """The edit engine reports inserted/removed blocks or changed properties: walk again."""
        self.structure_changes += 1
        self._cache.invalidate()
