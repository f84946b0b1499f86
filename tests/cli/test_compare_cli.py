"""``reviewer compare`` and ``reviewer redline`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reviewer_app.cli import main
from reviewer_app.docx import DocxReviewer
from tests.conftest import CORPUS, REPO_ROOT
from tests.docx_factory import make_docx, p

A = CORPUS / "public" / "pt_WC019-Hyperlink-Before.docx"
B = CORPUS / "public" / "pt_WC019-Hyperlink-After-1.docx"

pytestmark = pytest.mark.skipif(not (A.exists() and B.exists()), reason="corpus not available")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reviewer_app", *args],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=120,
    )


def test_compare_prints_the_llm_lines() -> None:
    proc = run("compare", str(A), str(B))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "Version diff: 0 added, 0 deleted, 2 modified, 0 format-changed, 0 moved, 1 unchanged",
        "~ [seq-0001] modified: Video [-provides-]{+gives+} a powerful way to help you prove your point.",
        "~ [seq-0003] modified: Lorem ipsum [-dolor -]sit amet, consectetuer adipiscing elit.",
    ]


def test_compare_json_and_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(A), str(B), "--json", "--include", "text,metadata"]) == 0
    diff = json.loads(capsys.readouterr().out)
    assert diff["summaryCounts"]["modified"] == 2
    assert {m["property"] for m in diff["metadataChanges"]} == {"revision", "modified"}
    assert main(["compare", str(A), str(B), "--privacy", "remove-timestamps", "--include", "metadata"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:] == [
        "Privacy transforms: remove-timestamps",
        "Removed metadata fields: modified",
        "~ metadata.revision: 2 -> 3",
    ]


def test_redline_writes_out_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "redline.docx"
    code = main(
        ["redline", str(A), str(B), "-o", str(out), "--author", "Counsel", "--privacy", "remove-timestamps"]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["output"] == str(out) and len(report["applied"]) == 2 and report["skipped"] == []
    assert report["privacyReport"]["appliedTransforms"] == ["remove-timestamps"]
    changes = DocxReviewer.open(out).changes()
    assert changes and {c["author"] for c in changes} == {"Counsel"}
    accepted = DocxReviewer.open(out)
    accepted.accept_all()
    assert [b["text"] for b in accepted.read_document()] == [
        b["text"] for b in DocxReviewer.open(B).read_document()
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["redline", "A_DOC", "B_DOC"], "needs -o OUT"),
        (["compare", "A_DOC", "missing.docx"], "there is no such file"),
        (["compare", "A_DOC", "B_DOC", "--privacy", "remove-names"], "unknown transform"),
        (["compare", "A_DOC", "B_DOC", "--include", "pictures"], "unknown scope"),
        (["redline", "A_DOC", "B_DOC", "-o", "OUT", "--base-view", "accepted"], "invalid choice"),
    ],
)
def test_refusals_exit_2_with_a_plain_message(tmp_path: Path, args: list[str], message: str) -> None:
    swap = {
        "A_DOC": str(A),
        "B_DOC": str(B),
        "OUT": str(tmp_path / "o.docx"),
        "missing.docx": str(tmp_path / "x.docx"),
    }
    proc = run(*[swap.get(a, a) for a in args])
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_hostile_input_is_refused_plainly(tmp_path: Path) -> None:
    bomb = CORPUS / "malformed" / "malformed_zipbomb-ratio.docx"
    if not bomb.exists():
        pytest.skip("malformed corpus not available")
    proc = run("redline", str(A), str(bomb), "-o", str(tmp_path / "o.docx"))
    assert proc.returncode == 2
    assert "The revised document cannot be compared" in proc.stderr and "zip bomb" in proc.stderr
    assert not (tmp_path / "o.docx").exists()


def test_help_lists_the_comparison_commands() -> None:
    proc = run("--help")
    assert "reviewer compare A B" in proc.stdout and "reviewer redline A B -o OUT" in proc.stdout


def test_redline_json_names_what_it_could_not_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A section break the revised version ends a clause later is not written as a tracked change:
    the JSON says so, with the revised paragraph it now follows."""
    sect = '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>'
    texts = ["First clause.", "Second clause.", "Third clause."]

    def ends_after(index: int) -> bytes:
        paras = [
            p(ppr=sect, runs=f"<w:r><w:t>{t}</w:t></w:r>") if i == index else p(t)
            for i, t in enumerate(texts)
        ]
        return make_docx("".join(paras) + sect)

    base, revised, out = tmp_path / "base.docx", tmp_path / "revised.docx", tmp_path / "redline.docx"
    base.write_bytes(ends_after(0))
    revised.write_bytes(ends_after(1))
    assert main(["redline", str(base), str(revised), "-o", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    (entry,) = report["skipped"]
    assert entry["reason"] == (
        'the section break after "Second clause." is not where the base has it and is not marked'
    )
    second = next(b for b in DocxReviewer.open(revised).snapshot().blocks if b.text == "Second clause.")
    assert entry["place"] == {"story": {"type": "main"}, "revisedBlockId": second.id}
