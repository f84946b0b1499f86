"""Package metadata (``docProps/core.xml``) as the comparison reads and the privacy rules rewrite it.

Nine core properties are compared (contract §10). A property that is absent or empty reads as
``None``; ``revision`` reads as a number when it is one; dates read as ISO 8601 UTC with
milliseconds (``2024-01-02T03:04:05.000Z``), the form the contract's JSON uses, whatever
precision the file wrote.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from lxml import etree

from .. import xmlutil
from ..package import Package
from ..xmlutil import NS
from .errors import CompareInputError

PROPERTIES = (
    "title",
    "subject",
    "creator",
    "keywords",
    "description",
    "lastModifiedBy",
    "revision",
    "created",
    "modified",
)
_TAGS = {
    "title": "{%s}title" % NS["dc"],
    "subject": "{%s}subject" % NS["dc"],
    "creator": "{%s}creator" % NS["dc"],
    "keywords": "{%s}keywords" % NS["cp"],
    "description": "{%s}description" % NS["dc"],
    "lastModifiedBy": "{%s}lastModifiedBy" % NS["cp"],
    "revision": "{%s}revision" % NS["cp"],
    "created": "{%s}created" % NS["dcterms"],
    "modified": "{%s}modified" % NS["dcterms"],
}
#: Largest ``core.xml`` read (a real one is under 2 KB); larger is refused, not parsed.
MAX_CORE_PROPERTIES_BYTES = 1024 * 1024


def core_part(package: Package) -> str | None:
    """Name of the core-properties part (None when the package has none)."""
    return package.related_part("", xmlutil.REL_CORE_PROPERTIES)


def core_root(package: Package, role: str) -> tuple[str, etree._Element] | None:
    """(part name, parsed root) of ``core.xml``; ``core-properties-too-large`` past the cap."""
    name = core_part(package)
    if name is None:
        return None
    if len(package.read_bytes(name)) > MAX_CORE_PROPERTIES_BYTES:
        raise CompareInputError(
            "core-properties-too-large",
            role,
            f"its document properties (docProps/core.xml) exceed {MAX_CORE_PROPERTIES_BYTES:,} bytes.",
        )
    return name, package.xml(name)


def _date(text: str) -> str:
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return text.strip()
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def _value(prop: str, el: etree._Element | None) -> Any:
    text = (el.text or "").strip() if el is not None else ""
    if not text:
        return None
    if prop == "revision":
        return int(text) if text.isdigit() else text
    if prop in ("created", "modified"):
        return _date(text)
    return el.text


def read_properties(package: Package, role: str) -> dict[str, Any]:
    """The nine compared properties of a package (None for each when it has no core.xml)."""
    found = core_root(package, role)
    root = found[1] if found is not None else None
    return {prop: _value(prop, root.find(_TAGS[prop]) if root is not None else None) for prop in PROPERTIES}


def metadata_changes(base: dict[str, Any], revised: dict[str, Any]) -> list[dict[str, Any]]:
    """``{property, baseValue, revisedValue}`` for each property that differs, in contract order."""
    return [
        {"property": prop, "baseValue": base[prop], "revisedValue": revised[prop]}
        for prop in PROPERTIES
        if base[prop] != revised[prop]
    ]


def remove_properties(package: Package, props: list[str], role: str = "base") -> list[str]:
    """Remove ``props`` from the package's ``core.xml``; return those that were there (contract order)."""
    found = core_root(package, role)
    if found is None:
        return []
    name, root = found
    removed = []
    for prop in PROPERTIES:
        if prop not in props:
            continue
        present = root.findall(_TAGS[prop])
        for el in present:
            root.remove(el)
        if present:
            removed.append(prop)
    if removed:
        package.mark_dirty(name)
    return removed
