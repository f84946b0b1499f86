"""The page view over the public corpus: every file lays out, page text reads back, page counts.

Page counts are compared with ``app_pages`` in the corpus manifest, the count Word saved in
``docProps/app.xml``. The page view lays documents out "as accepted" for this comparison
(Word's default All Markup view shows deletions in balloons, not in the text). Latin-script
documents with a known count must come within 15 %, except the files listed with a reason in
``tests/data/pageview_page_counts.tsv``; right-to-left and CJK documents are reported only.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout
from tests.conftest import CORPUS, REPO_ROOT, corpus_files
from tests.corpus_manifest import manifest

pytestmark = pytest.mark.corpus

EXCEPTIONS = REPO_ROOT / "tests" / "data" / "pageview_page_counts.tsv"
TOLERANCE = 0.15
_SPACE = re.compile(r"\s+")


def _exceptions() -> dict[str, str]:
    found: dict[str, str] = {}
    for line in EXCEPTIONS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, why = line.split("\t", 1)
        found[name] = why
    return found


def _is_latin(row: dict[str, str]) -> bool:
    """No right-to-left text, and CJK characters are at most 1 % of the text."""
    text = int(row.get("text_chars") or 0)
    return int(row.get("rtl_chars") or 0) == 0 and int(row.get("cjk_chars") or 0) <= 0.01 * max(text, 1)


def _squash(text: str) -> str:
    """The comparison key for page text: all whitespace removed (see the test's docstring)."""
    return _SPACE.sub("", text)


@pytest.mark.parametrize("path", corpus_files("public"), ids=lambda p: p.name)
def test_lays_out_and_reads_back(qapp, path: Path) -> None:
    """Every public file lays out in every mode, and its pages read back as its blocks.

    Joining each block's pieces over the pages, in page order, gives every content block's
    clean text, compared with all whitespace removed (a paragraph split over two pages keeps
    the line break between its halves; list labels, deleted text and pictures are in neither),
    and each page reads its blocks in document order. (Whole pages read one after another are
    not the block order: a table row running over a page boundary has cells on both pages.)
    The document is opened in place, never copied.
    """
    reviewer = DocxReviewer.open(path)
    snapshot = reviewer.snapshot()
    layout = PagedLayout(reviewer, "all", snapshot).build_all()
    assert layout.page_count() >= 1
    order = {b.id: i for i, b in enumerate(snapshot.blocks)}
    texts: dict[str, str] = {}
    for page in range(layout.page_count()):
        pieces = [(block_id, text) for block_id, text in layout.index.page_pieces(page) if block_id]
        positions = [order[block_id] for block_id, _text in pieces]
        assert positions == sorted(positions), f"page {page + 1} reads out of document order"
        for block_id, text in pieces:
            texts[block_id] = texts.get(block_id, "") + text
    read = {block_id: _squash(text) for block_id, text in texts.items() if _squash(text)}
    expected = {b.id: _squash(b.text) for b in snapshot.content_blocks() if _squash(b.text)}
    assert read == expected
    for mode in ("none", "original"):
        assert PagedLayout(reviewer, mode, snapshot).build_all().page_count() >= 1


def test_page_counts_against_word(qapp, capsys) -> None:
    """Print our page count beside Word's for every file; hold Latin-script files to 15 %."""
    by_file = manifest(split=None)
    if not by_file:
        pytest.skip("the corpus manifest is not available")
    exceptions = _exceptions()
    rows: list[tuple[str, int, int, str]] = []
    failures: list[str] = []
    for path in corpus_files("public"):
        row = by_file.get(path.name)
        if row is None:
            continue
        word = int(row.get("app_pages") or 0)
        ours = PagedLayout(DocxReviewer.open(path), "none").build_all().page_count()
        if word <= 0:
            status = "no count"
        elif not _is_latin(row):
            status = "not latin"
        elif path.name in exceptions:
            status = "exception"
        elif abs(ours - word) <= TOLERANCE * word + 1e-9:
            status = "ok"
        else:
            status = "OFF"
            failures.append(f"{path.name}: ours {ours}, Word {word}")
        rows.append((path.name, ours, word, status))
    with capsys.disabled():
        print("\npage view page counts (ours vs Word's app_pages):")
        for name, ours, word, status in rows:
            print(f"  {name[:56]:56} {ours:5} {word:5}  {status}")
        held = [r for r in rows if r[3] in ("ok", "OFF")]
        exact = sum(1 for r in held if r[1] == r[2])
        print(f"  {len(held)} held to ±15 %: {len(held) - len(failures)} within, {exact} exact")
    stale = [name for name in exceptions if name not in by_file]
    assert not stale, f"exceptions for files not in the corpus: {stale}"
    assert not failures, "page counts off by more than 15 %:\n" + "\n".join(failures)


#: Files worth looking at after a change to the page view (tables, shading, redline, borders, TOC).
LOOK_AT = (
    "docx4j_Docx4j_GettingStarted.docx",
    "d2p_240-DOP-1013A-Lay-Down-Tubulars.docx",
    "pt_RA001-Tracked-Revisions-01.docx",
    "pt_HC031-Complicated-Document.docx",
    "docx4j_sample-docx.docx",
    "pandoc_track_changes_move.docx",
)


def test_render_pages_to_look_at(qapp, artifacts_dir: Path) -> None:
    """Write the sample's first three pages and two pages of six corpus files as PNGs.

    They land in ``tests/_artifacts/pageview/`` (gitignored): look at them after changing the
    page view; compare with LibreOffice (``soffice --headless --convert-to pdf``).
    """
    from reviewer_app.ui.pageview.render import render_pngs

    out = artifacts_dir / "pageview"
    sample = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
    written = render_pngs(DocxReviewer.open(sample), [0, 1, 2], out, "all", dpi=80, prefix="sample-msa")
    assert len(written) == 3
    for name in LOOK_AT:
        path = CORPUS / "public" / name
        if not path.exists():
            continue
        written = render_pngs(DocxReviewer.open(path), [0, 1], out, "all", dpi=60, prefix=path.stem)
        assert written and all(p.stat().st_size > 1000 for p in written)
