"""Opening safely and saving faithfully: hostile files, limits, byte-identical round trips."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest

from reviewer_app.docx import DocxOpenError, DocxReviewer, limits
from reviewer_app.docx.errors import (
    MissingPartError,
    NotADocxError,
    PackageTooLargeError,
    PasswordProtectedError,
    StrictOoxmlError,
    TruncatedPackageError,
    UnsafeXmlError,
)
from reviewer_app.docx.package import Package
from tests.docx_factory import make_docx, p

MALFORMED_EXPECTED = {
    "malformed_encrypted-ole-not-zip.docx": (PasswordProtectedError, "save an unprotected copy"),
    "malformed_truncated-zip.docx": (TruncatedPackageError, "damaged or incomplete"),
    "malformed_missing-document-xml.docx": (
        MissingPartError,
        "main document part (word/document.xml) is missing",
    ),
    "malformed_zipbomb-ratio.docx": (PackageTooLargeError, "zip bomb"),
    "malformed_xxe-external-entity.docx": (UnsafeXmlError, "DTD or entities"),
}


def test_every_malformed_file_gets_its_specific_error(malformed_files):
    assert sorted(f.name for f in malformed_files) == sorted(MALFORMED_EXPECTED)
    for path in malformed_files:
        kind, phrase = MALFORMED_EXPECTED[path.name]
        with pytest.raises(kind) as caught:
            DocxReviewer.open(path)
        assert isinstance(caught.value, DocxOpenError)
        assert phrase in str(caught.value)
        assert "Traceback" not in str(caught.value)


def test_xxe_entity_is_never_resolved(malformed_files):
    path = next(f for f in malformed_files if "xxe" in f.name)
    with pytest.raises(UnsafeXmlError) as caught:
        DocxReviewer.open(path)
    assert "root:" not in str(caught.value)


def test_not_a_zip_and_legacy_doc_are_told_apart():
    with pytest.raises(NotADocxError, match="not a zip"):
        DocxReviewer.from_bytes(b"%PDF-1.7 not a word file")
    ole_without_encryption = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600
    with pytest.raises(NotADocxError, match="Word 97-2003"):
        DocxReviewer.from_bytes(ole_without_encryption)


def test_compression_ratio_over_the_limit_is_refused(monkeypatch):
    data = make_docx(p("x" * 5000))
    monkeypatch.setattr(limits, "RATIO_FLOOR_BYTES", 10)
    monkeypatch.setattr(limits, "MAX_COMPRESSION_RATIO", 2)
    with pytest.raises(PackageTooLargeError, match="compressed"):
        DocxReviewer.from_bytes(data)


def test_too_many_members_is_refused(monkeypatch):
    monkeypatch.setattr(limits, "MAX_MEMBERS", 3)
    with pytest.raises(PackageTooLargeError, match="safety limit"):
        DocxReviewer.from_bytes(make_docx(p("x")))


def test_main_part_is_found_through_relationships_not_a_fixed_path():
    original = zipfile.ZipFile(io.BytesIO(make_docx(p("Moved main part"))))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for info in original.infolist():
            data = original.read(info)
            name = info.filename
            if name == "word/document.xml":
                name = "content/main.xml"
            elif name == "_rels/.rels":
                data = data.replace(b"word/document.xml", b"content/main.xml")
            elif name == "[Content_Types].xml":
                data = data.replace(b"/word/document.xml", b"/content/main.xml")
            if name != "word/_rels/document.xml.rels":
                z.writestr(name, data)
    reviewer = DocxReviewer.from_bytes(out.getvalue())
    assert reviewer.package.main_part == "content/main.xml"
    assert reviewer.read_document()[0]["text"] == "Moved main part"


def _rewrite(data: bytes, member: str, old: bytes, new: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            content = src.read(info)
            dst.writestr(info.filename, content.replace(old, new) if info.filename == member else content)
    return out.getvalue()


def test_strict_ooxml_is_refused_with_a_clear_message():
    data = _rewrite(
        make_docx(p("x")),
        "_rels/.rels",
        b"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument",
        b"http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument",
    )
    with pytest.raises(StrictOoxmlError, match="Strict Open XML"):
        DocxReviewer.from_bytes(data)
    strict_body = _rewrite(
        make_docx(p("x")),
        "word/document.xml",
        b"http://schemas.openxmlformats.org/wordprocessingml/2006/main",
        b"http://purl.oclc.org/ooxml/wordprocessingml/main",
    )
    with pytest.raises(StrictOoxmlError):
        DocxReviewer.from_bytes(strict_body)


def _members(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return [(i.filename, z.read(i)) for i in z.infolist() if not i.is_dir()]


def test_round_trip_keeps_every_member_byte_identical(public_corpus_files):
    for path in public_corpus_files:
        reviewer = DocxReviewer.open(path)
        reviewer.snapshot()  # reading parses parts; it must not make them dirty
        reviewer.list_stories()
        assert _members(reviewer.to_bytes()) == _members(path.read_bytes()), path.name


def test_only_changed_parts_are_rewritten(public_corpus_files):
    path = next(f for f in public_corpus_files if f.name == "pt_RA001-Tracked-Revisions-01.docx")
    package = Package.open(path)
    root = package.xml(package.main_part)
    root.find(".//{*}t").text = "Changed"
    package.mark_dirty(package.main_part)
    before = dict(_members(path.read_bytes()))
    after = _members(package.to_bytes())
    assert [name for name, _ in after] == list(before)
    changed = [name for name, data in after if data != before[name]]
    assert changed == [package.main_part]


def test_save_is_atomic_and_leaves_no_temporary_files(tmp_path: Path, monkeypatch):
    target = tmp_path / "contract.docx"
    target.write_bytes(b"previous version")
    reviewer = DocxReviewer.from_bytes(make_docx(p("New")))

    def crash(*_args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        reviewer.save(target)
    assert target.read_bytes() == b"previous version"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["contract.docx"]
    monkeypatch.undo()
    reviewer.save(target)
    assert DocxReviewer.open(target).read_document()[0]["text"] == "New"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["contract.docx"]


def test_a_binary_part_added_is_saved_with_its_content_type() -> None:
    """A picture a redline copies in: saved byte for byte, typed, and not added twice."""
    package = Package.from_bytes(make_docx(p("One")))
    image = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    package.put_bytes("word/media/image1.png", image, "image/png")
    with pytest.raises(ValueError):
        package.put_bytes("word/media/image1.png", image, "image/png")
    saved = Package.from_bytes(package.to_bytes())
    assert saved.read_bytes("word/media/image1.png") == image
    assert saved.content_type("word/media/image1.png") == "image/png"
