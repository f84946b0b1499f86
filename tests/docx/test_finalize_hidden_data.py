"""The clean copy carries nothing hidden: ``finalize --strip-metadata`` removes macros, custom
properties, document variables, the attached template's path and the thumbnail, and the file
stays valid (schema checker) and opens in LibreOffice. Opening a macro-enabled file says so.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from tests.checkers import schema_errors
from tests.cli_runner import run_reviewer
from tests.docx_factory import make_docx, p

_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail"
_RELS_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
_MACRO_MAIN = "application/vnd.ms-word.document.macroEnabled.main+xml"
_PLAIN_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
_CUSTOM = (
    '<?xml version="1.0"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
    'custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
    '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="MatterNumber">'
    "<vt:lpwstr>2024-0117 Harbour Bank</vt:lpwstr></property></Properties>"
)
_SETTINGS = (
    '<w:attachedTemplate r:id="rIdTpl"/>'
    '<w:docVars><w:docVar w:name="ClientCode" w:val="HB-7731"/></w:docVars>'
)


def _rels(*rels: str) -> str:
    return f'<?xml version="1.0"?><Relationships xmlns="{_RELS_NS}">{"".join(rels)}</Relationships>'


def macro_document_with_hidden_data() -> bytes:
    """A .docm-style package: VBA project (with its own .rels), custom.xml, thumbnail, settings."""
    base = zipfile.ZipFile(io.BytesIO(make_docx(p("Clean text"), settings=_SETTINGS)))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in base.infolist():
            data = base.read(info).decode()
            if info.filename == "[Content_Types].xml":
                data = data.replace(_PLAIN_MAIN, _MACRO_MAIN).replace(
                    "</Types>",
                    '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>'
                    '<Default Extension="jpeg" ContentType="image/jpeg"/>'
                    '<Override PartName="/word/vbaData.xml" ContentType="application/vnd.ms-word.vbaData+xml"/>'
                    '<Override PartName="/docProps/custom.xml" '
                    'ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/></Types>',
                )
            elif info.filename == "_rels/.rels":
                data = data.replace(
                    "</Relationships>",
                    f'<Relationship Id="rIdC" Type="{_REL}custom-properties" Target="docProps/custom.xml"/>'
                    f'<Relationship Id="rIdT" Type="{_PKG}" Target="docProps/thumbnail.jpeg"/></Relationships>',
                )
            elif info.filename == "word/_rels/document.xml.rels":
                data = data.replace(
                    "</Relationships>",
                    '<Relationship Id="rIdVba" Type="http://schemas.microsoft.com/office/2006/relationships/'
                    'vbaProject" Target="vbaProject.bin"/></Relationships>',
                )
            z.writestr(info.filename, data)
        z.writestr("word/vbaProject.bin", b"\xd0\xcf\x11\xe0 stand-in for a VBA storage")
        z.writestr(
            "word/_rels/vbaProject.bin.rels",
            _rels(
                '<Relationship Id="rId1" Type="http://schemas.microsoft.com/office/2006/relationships/'
                'wordVbaData" Target="vbaData.xml"/>'
            ),
        )
        z.writestr(
            "word/vbaData.xml",
            '<?xml version="1.0"?><wne:vbaSuppData xmlns:wne="http://schemas.microsoft.com/office/word/2006/wordml"/>',
        )
        z.writestr("docProps/custom.xml", _CUSTOM)
        z.writestr("docProps/thumbnail.jpeg", b"\xff\xd8\xff\xe0 not really a picture")
        z.writestr(
            "word/_rels/settings.xml.rels",
            _rels(
                f'<Relationship Id="rIdTpl" Type="{_REL}attachedTemplate" '
                'Target="file:///C:/Users/jdoe.harbourlaw/Templates/HB%20Litigation.dotm" TargetMode="External"/>'
            ),
        )
    return out.getvalue()


def test_opening_a_macro_document_warns(tmp_path: Path) -> None:
    source = tmp_path / "brief.docm"
    source.write_bytes(macro_document_with_hidden_data())
    run = run_reviewer("read", source)
    assert run.returncode == 0, run.stderr
    assert run.stderr == (
        f'reviewer: warning: "{source}" contains macros (a VBA project); Reviewer never runs them, '
        "and finalize --strip-metadata removes them.\n"
    )
    assert "Clean text" in run.stdout
    plain = tmp_path / "plain.docx"
    plain.write_bytes(make_docx(p("Clean text")))
    assert run_reviewer("read", plain).stderr == ""


def test_finalize_strip_metadata_leaves_nothing_hidden(tmp_path: Path, lo_inspect) -> None:
    source = tmp_path / "brief.docm"
    source.write_bytes(macro_document_with_hidden_data())
    out = tmp_path / "clean.docx"
    run = run_reviewer("finalize", source, "-o", out, "--strip-metadata")
    assert run.returncode == 0, run.stderr
    assert "macros, customProperties, thumbnail, docVars, attachedTemplate" in run.stdout

    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        texts = {n: z.read(n).decode("utf-8", "replace") for n in names}
    assert not {n for n in names if "vba" in n.lower() or "custom" in n or "thumbnail" in n}
    everything = "".join(texts.values())
    for leak in ("vbaProject", "vbaData", "custom.xml", "thumbnail", "jdoe.harbourlaw", "HB-7731", "docVar"):
        assert leak not in everything, leak
    assert _MACRO_MAIN not in texts["[Content_Types].xml"] and _PLAIN_MAIN in texts["[Content_Types].xml"]
    assert schema_errors(out) == 0
    assert "Clean text" in str(lo_inspect(out))
    assert run_reviewer("read", out).stderr == ""  # no macro warning for the clean copy
