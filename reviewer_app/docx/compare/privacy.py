"""Output-only privacy transforms for a diff or a redline (contract §10; inputs never change).

- ``remove-attribution``: ``creator`` and ``lastModifiedBy`` go; in a redline every revision and
  comment author becomes :data:`NEUTRAL_AUTHOR` (initials dropped, people.xml names neutralized).
- ``remove-timestamps``: ``created`` and ``modified`` go; in a redline revision and comment dates
  are removed (``w:date`` is optional in the schema).
- ``remove-descriptive-metadata``: ``title``, ``subject``, ``keywords`` and ``description`` go.

The report lists the transforms applied (contract order) and the metadata properties actually
removed: for a diff, those whose change was dropped from ``metadataChanges``; for a redline,
those that were present in ``core.xml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lxml import etree

from ..package import Package
from ..xmlutil import NS, W
from .errors import CompareOptionError
from .metadata import PROPERTIES, remove_properties

TRANSFORMS = ("remove-attribution", "remove-timestamps", "remove-descriptive-metadata")
REMOVES = {
    "remove-attribution": ("creator", "lastModifiedBy"),
    "remove-timestamps": ("created", "modified"),
    "remove-descriptive-metadata": ("title", "subject", "keywords", "description"),
}
#: The name every revision and comment author takes under ``remove-attribution``.
NEUTRAL_AUTHOR = "Author"
#: Parts (relationship type suffixes of the main part) whose revisions and comments carry authors.
_AUTHORED_PARTS = (
    "header",
    "footer",
    "footnotes",
    "endnotes",
    "comments",
    "commentsExtensible",
    "numbering",
    "styles",
)
_W15 = "{%s}" % NS["w15"]
_W16CEX = "{%s}" % NS["w16cex"]
_W16DU = "{http://schemas.microsoft.com/office/word/2023/wordml/word16du}"
#: Date attributes of revisions and comments (``w16du:dateUtc`` is Word's UTC twin of ``w:date``).
_DATES = (W + "date", _W16CEX + "dateUtc", _W16DU + "dateUtc")


def resolve_transforms(privacy: Any) -> list[str]:
    """The requested transforms in contract order; :class:`CompareOptionError` for anything else.

    ``privacy`` is ``None``, ``{"transforms": [...]}`` or the list itself.
    """
    if privacy is None:
        return []
    transforms = privacy.get("transforms") if isinstance(privacy, Mapping) else privacy
    if (
        isinstance(transforms, str)
        or not isinstance(transforms, list | tuple)
        or any(t not in TRANSFORMS for t in transforms)
    ):
        raise CompareOptionError(
            "privacy.transforms",
            transforms,
            "Version comparison received an unrecognized privacy transform; use any of "
            + ", ".join(TRANSFORMS)
            + ".",
        )
    return [t for t in TRANSFORMS if t in transforms]


def removed_properties(transforms: list[str]) -> list[str]:
    """Metadata properties the transforms remove, in contract order."""
    wanted = {p for t in transforms for p in REMOVES[t]}
    return [p for p in PROPERTIES if p in wanted]


def empty_report() -> dict[str, list[str]]:
    return {"appliedTransforms": [], "removedMetadataProperties": []}


def apply_to_diff(diff: dict[str, Any], transforms: list[str]) -> dict[str, Any]:
    """Drop metadata changes the transforms cover; report what was dropped (diff changed in place)."""
    if not transforms:
        return diff
    gone = set(removed_properties(transforms))
    dropped = {c["property"] for c in diff["metadataChanges"] if c["property"] in gone}
    diff["metadataChanges"] = [c for c in diff["metadataChanges"] if c["property"] not in gone]
    diff["privacyReport"] = {
        "appliedTransforms": list(transforms),
        "removedMetadataProperties": [p for p in PROPERTIES if p in dropped],
    }
    diff["summaryCounts"]["metadataChanged"] = len(diff["metadataChanges"])
    for story in diff["stories"]:
        story["summaryCounts"]["metadataChanged"] = 0
    return diff


def _authored_roots(package: Package, main_part: str) -> list[tuple[str, etree._Element]]:
    roots = [(main_part, package.xml(main_part))]
    seen = {main_part}
    for rel in package.relationships(main_part):
        suffix = rel.rel_type.rsplit("/", 1)[-1]
        if rel.external or suffix not in _AUTHORED_PARTS or rel.target in seen:
            continue
        if package.has_part(rel.target) and rel.target.endswith(".xml"):
            seen.add(rel.target)
            roots.append((rel.target, package.xml(rel.target)))
    return roots


def _neutralize(root: etree._Element, attribution: bool, timestamps: bool) -> bool:
    changed = False
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if attribution and W + "author" in el.attrib and el.get(W + "author") != NEUTRAL_AUTHOR:
            el.set(W + "author", NEUTRAL_AUTHOR)
            changed = True
        if attribution and W + "initials" in el.attrib:
            del el.attrib[W + "initials"]
            changed = True
        if timestamps:
            for name in _DATES:
                if name in el.attrib:
                    del el.attrib[name]
                    changed = True
    return changed


def _neutralize_people(package: Package, main_part: str) -> None:
    """people.xml: one neutral person instead of the real ones (their identities go too)."""
    name = package.related_part(main_part, "people")
    if name is None:
        return
    root = package.xml(name)
    persons = list(root.iter(_W15 + "person"))
    if not persons:
        return
    for extra in persons[1:]:
        extra.getparent().remove(extra)
    keep = persons[0]
    keep.set(_W15 + "author", NEUTRAL_AUTHOR)
    for child in list(keep):
        keep.remove(child)
    package.mark_dirty(name)


def apply_to_package(package: Package, main_part: str, transforms: list[str]) -> dict[str, list[str]]:
    """Rewrite the package's metadata, revisions and comments as the transforms say; the report."""
    if not transforms:
        return empty_report()
    removed = remove_properties(package, removed_properties(transforms))
    attribution = "remove-attribution" in transforms
    timestamps = "remove-timestamps" in transforms
    if attribution or timestamps:
        for name, root in _authored_roots(package, main_part):
            if _neutralize(root, attribution, timestamps):
                package.mark_dirty(name)
        if attribution:
            _neutralize_people(package, main_part)
    return {"appliedTransforms": list(transforms), "removedMetadataProperties": removed}
