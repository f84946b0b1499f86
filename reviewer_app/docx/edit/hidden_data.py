"""What a clean copy must not carry beyond the visible text: macros, custom properties, document
variables, the attached template's path (with the author's login in it) and the thumbnail.

``finalize --strip-metadata`` is the copy that goes to the other side; each of these can leak
who wrote it, where it lived or what it was before. Every part removed takes its relationship,
content-type override and own ``.rels`` (and the parts only that ``.rels`` names) with it, so the
package stays consistent for Word and validators.
"""

from __future__ import annotations

from ..document import WordDocument
from ..package import Package
from ..xmlutil import NS, W

#: The main part's content type in a macro-enabled (.docm) and a plain (.docx) document.
MACRO_MAIN_TYPE = "application/vnd.ms-word.document.macroEnabled.main+xml"
PLAIN_MAIN_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
_VBA_PROJECT_TYPE = "application/vnd.ms-office.vbaProject"
_CT = "{%s}" % NS["ct"]
_R_ID = "{%s}id" % NS["r"]


def has_macros(package: Package) -> bool:
    """True when the document carries a VBA project (a .docm, or a .docx with one smuggled in)."""
    main = package.main_part
    return (
        package.content_type(main) == MACRO_MAIN_TYPE or package.related_part(main, "vbaProject") is not None
    )


def strip_hidden_data(doc: WordDocument) -> list[str]:
    """Remove macros, custom properties, thumbnail, document variables and the template path.

    Returns the names of what was removed (for ``metadataCleared``).
    """
    package = doc.package
    removed: list[str] = []
    if _drop_related(package, package.main_part, "vbaProject") or has_macros(package):
        _set_main_type(package, PLAIN_MAIN_TYPE)
        _drop_unused_default(package, _VBA_PROJECT_TYPE)
        removed.append("macros")
    if _drop_related(package, "", "custom-properties"):
        removed.append("customProperties")
    if _drop_related(package, "", "thumbnail"):
        removed.append("thumbnail")
    settings = package.related_part(package.main_part, "settings")
    if settings is not None:
        root = package.xml(settings)
        for tag, label in ((W + "docVars", "docVars"), (W + "attachedTemplate", "attachedTemplate")):
            for el in list(root.iter(tag)):
                rel_id = el.get(_R_ID)
                if rel_id:
                    package.remove_relationship(settings, rel_id)
                el.getparent().remove(el)
                removed.append(label)
                package.mark_dirty(settings)
    return removed


def _drop_related(package: Package, source: str, type_suffix: str) -> bool:
    """Remove every ``source`` relationship of this type and the parts behind it; True when any."""
    found = [r for r in package.relationships(source) if r.is_type(type_suffix)]
    for rel in found:
        package.remove_relationship(source, rel.rel_id)
        if not rel.external and package.has_part(rel.target):
            _drop_part(package, rel.target)
    return bool(found)


def _drop_part(package: Package, name: str) -> None:
    """Remove part ``name``, its override and its ``.rels`` with the internal parts it names."""
    for rel in package.relationships(name):
        if not rel.external and package.has_part(rel.target):
            _drop_part(package, rel.target)
    rels = package.relationships_part(name)
    if package.has_part(rels):
        package.remove_content_type_override(rels)
        package.remove_part(rels)
    package.remove_content_type_override(name)
    package.remove_part(name)
    package.invalidate_relationships(name)


def _set_main_type(package: Package, content_type: str) -> None:
    types = package.xml("[Content_Types].xml")
    for el in types.iter(_CT + "Override"):
        if el.get("PartName", "").lstrip("/") == package.main_part and el.get("ContentType") != content_type:
            el.set("ContentType", content_type)
            package.mark_dirty("[Content_Types].xml")


def _drop_unused_default(package: Package, content_type: str) -> None:
    """Drop the ``Default`` for ``content_type`` once no part has its extension (``.bin`` for VBA)."""
    types = package.xml("[Content_Types].xml")
    extensions = {name.rsplit(".", 1)[-1].lower() for name in package.part_names() if "." in name}
    for el in list(types.iter(_CT + "Default")):
        if el.get("ContentType") == content_type and el.get("Extension", "").lower() not in extensions:
            types.remove(el)
            package.mark_dirty("[Content_Types].xml")
