"""Build small, exact .docx packages for unit tests from WordprocessingML snippets.

Tests state the XML they mean instead of relying on a generator's defaults, so each rule of the
contract is exercised on exactly the markup it is about.
"""

from __future__ import annotations

import io
import zipfile

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NAMESPACES = (
    f'xmlns:w="{W_NS}" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'mc:Ignorable="w14 w15"'
)
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_PART_TYPES = {
    "styles": (
        "word/styles.xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
    ),
    "numbering": (
        "word/numbering.xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml",
    ),
    "footnotes": (
        "word/footnotes.xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
    ),
    "comments": (
        "word/comments.xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml",
    ),
    "header": (
        "word/header1.xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml",
    ),
    "header2": (
        "word/header2.xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml",
    ),
    "footer": (
        "word/footer1.xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml",
    ),
    "settings": (
        "word/settings.xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml",
    ),
}
_ROOTS = {
    "styles": "styles",
    "numbering": "numbering",
    "footnotes": "footnotes",
    "comments": "comments",
    "header": "hdr",
    "header2": "hdr",
    "footer": "ftr",
    "settings": "settings",
}
#: relationship types of the parts whose key is not their type
_ROOTS_REL = {"header2": "header"}


def make_docx(body: str, **parts: str) -> bytes:
    """A package whose ``w:body`` holds ``body``; ``styles=``, ``numbering=``... add those parts.

    Each extra part is given as the inner XML of its root element; the n-th part is ``rIdn``
    (``header2=`` is a second header, for a section naming two).
    """
    types = [
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>',
        '<Default Extension="xml" ContentType="application/xml"/>',
        '<Override PartName="/word/document.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>',
    ]
    rels = []
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for i, (kind, inner) in enumerate(parts.items(), start=1):
            name, ctype = _PART_TYPES[kind]
            types.append(f'<Override PartName="/{name}" ContentType="{ctype}"/>')
            rel_type = _ROOTS_REL.get(kind, kind)
            rels.append(f'<Relationship Id="rId{i}" Type="{_REL}{rel_type}" Target="{name[5:]}"/>')
            z.writestr(
                name, f'<?xml version="1.0"?><w:{_ROOTS[kind]} {NAMESPACES}>{inner}</w:{_ROOTS[kind]}>'
            )
        z.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            + "".join(types)
            + "</Types>",
        )
        z.writestr(
            "_rels/.rels",
            '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{_REL}officeDocument" Target="word/document.xml"/></Relationships>',
        )
        z.writestr(
            "word/_rels/document.xml.rels",
            '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + "".join(rels)
            + "</Relationships>",
        )
        z.writestr(
            "word/document.xml",
            f'<?xml version="1.0"?><w:document {NAMESPACES}><w:body>{body}</w:body></w:document>',
        )
    return out.getvalue()


def p(text: str = "", para_id: str | None = None, ppr: str = "", runs: str | None = None) -> str:
    """A paragraph with one plain run (or the given ``runs`` XML)."""
    pid = f' w14:paraId="{para_id}"' if para_id else ""
    content = (
        runs if runs is not None else (f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>' if text else "")
    )
    return f"<w:p{pid}>{f'<w:pPr>{ppr}</w:pPr>' if ppr else ''}{content}</w:p>"


def heading_styles() -> str:
    """styles.xml content with Normal and Heading1..3 (outline levels 0..2)."""
    styles = [
        '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
    ]
    for level in (1, 2, 3):
        styles.append(
            f'<w:style w:type="paragraph" w:styleId="Heading{level}"><w:name w:val="heading {level}"/>'
            f'<w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="{level - 1}"/></w:pPr></w:style>'
        )
    styles.append('<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style>')
    return "".join(styles)


def template_parts() -> dict[str, bytes]:
    """The parts of python-docx's default template by name: a package laid out as Word writes one,
    for tests that replace or add parts of it."""
    import docx  # python-docx loads slowly; only the tests that build on its template pay for it

    buffer = io.BytesIO()
    docx.Document().save(buffer)
    with zipfile.ZipFile(buffer) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def zip_parts(parts: dict[str, bytes]) -> bytes:
    """A package holding ``parts`` (name → bytes), deflated, in the order given."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return out.getvalue()
