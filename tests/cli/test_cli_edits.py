"""The edit commands of ``reviewer`` as a user runs them: fresh processes, outputs, exit codes.

``ops``, ``apply``, ``accept-all``, ``reject-all`` and ``finalize`` must never change FILE unless
``-o`` names it, must refuse bad input with one plain line (exit 2, nothing written), and must
write documents that open again with exactly the changes and comments intended.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from reviewer_app.docx import DocxReviewer
from tests.checkers import schema_errors
from tests.conftest import CORPUS, REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
AUTHOR = "Pipeline AI"
#: The sample's own reviewer, whose tracked changes and comments are already in the file.
OTHER = "Priya Shah (Harbour Bank counsel)"
EDITS = {
    "modifications": [
        {
            "blockIndex": 54,
            "originalContent": "best care",
            "content": "reasonable care",
            "basis": "Too onerous.",
        },
        {
            "blockIndex": 44,
            "originalContent": "Schedule 2 (Charges);",
            "content": "",
            "basis": "Covered elsewhere.",
        },
        {"blockIndex": 46, "originalContent": "", "content": "", "basis": "Check SOW precedence."},
        {"blockIndex": 47, "originalContent": "nothing like this", "content": "x", "basis": ""},
        {"blockIndex": 48, "originalContent": "the", "content": "THE", "basis": ""},
        {"blockIndex": 55, "originalContent": "use personnel", "content": "use personnel", "basis": ""},
    ]
}


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str


def cli(*args: str | Path, stdin: str | None = None) -> Run:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "reviewer_app", *map(str, args)],
        cwd=REPO_ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    copy = tmp_path / "contract.docx"
    shutil.copyfile(SAMPLE, copy)
    return copy


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def block_id(path: Path, index: int) -> str:
    return DocxReviewer.open(path).read_document()[index]["blockId"]


def assert_plain_refusal(run: Run) -> None:
    """Exit 2, one ``reviewer: ...`` line on stderr, no traceback."""
    assert run.code == 2, run
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("reviewer: "), run.stderr
    assert "Traceback" not in run.stderr


# ----------------------------------------------------------------------------- ops
def test_ops_applies_a_batch_and_prints_the_envelope(sample: Path, tmp_path: Path) -> None:
    target = block_id(sample, 54)
    batch = {
        "version": 1,
        "operations": [
            {
                "id": "a",
                "type": "replaceInBlock",
                "blockId": target,
                "find": "best care",
                "replace": "due care",
            },
            {"id": "b", "type": "replaceInBlock", "blockId": "NOSUCH", "find": "x", "replace": "y"},
        ],
    }
    out = tmp_path / "out.docx"
    run = cli("ops", sample, write_json(tmp_path / "batch.json", batch), "-o", out, "--author", AUTHOR)
    assert run.code == 0, run.stderr
    envelope = json.loads(run.stdout)
    assert envelope["version"] == 1 and envelope["status"] == "committed"
    assert [a["id"] for a in envelope["applied"]] == ["a"]
    assert [s["id"] for s in envelope["skipped"]] == ["b"] and envelope["issues"][0]["code"] == "missingBlock"
    assert run.stdout == json.dumps(envelope, indent=2, ensure_ascii=False) + "\n"
    changes = [c for c in DocxReviewer.open(out).changes() if c["author"] == AUTHOR]
    assert {(c["type"], c["text"]) for c in changes} == {("deletion", "best"), ("insertion", "due")}
    assert digest(sample) == digest(SAMPLE)


def test_ops_refuses_an_invalid_batch_and_writes_nothing(sample: Path, tmp_path: Path) -> None:
    batch = {"version": 1, "operations": [{"id": "a", "type": "replaceInBlock", "blockId": "x", "find": 3}]}
    out = tmp_path / "out.docx"
    run = cli("ops", sample, write_json(tmp_path / "batch.json", batch), "-o", out)
    assert run.code == 2 and run.stdout == ""
    assert "operations[0].find: expected a string." in run.stderr.splitlines()
    assert "operations[0].replace: is required." in run.stderr.splitlines()
    assert "Traceback" not in run.stderr
    assert not out.exists()


def test_ops_dry_run_writes_nothing(sample: Path, tmp_path: Path) -> None:
    target = block_id(sample, 54)
    op = {"id": "a", "type": "replaceInBlock", "blockId": target, "find": "best", "replace": "due"}
    out = tmp_path / "out.docx"
    run = cli(
        "ops", sample, "-", "-o", out, stdin=json.dumps({"version": 1, "dryRun": True, "operations": [op]})
    )
    assert run.code == 0, run.stderr
    assert json.loads(run.stdout)["status"] == "previewed"
    assert not out.exists()


# ----------------------------------------------------------------------------- apply
def test_apply_prints_statuses_and_writes_our_changes(sample: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.docx"
    run = cli("apply", sample, write_json(tmp_path / "edits.json", EDITS), "-o", out, "--author", AUTHOR)
    assert run.code == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert len(lines) == 7
    assert lines[0].startswith("[0] b:54 applied: replaceInBlock (comment ")
    assert lines[1].startswith("[1] b:44 applied: deleteBlock (comment ")
    assert lines[2].startswith("[2] b:46 applied: commentOnBlock (comment ")
    assert (
        lines[3]
        == '[3] b:47 not found: originalContent is not in block 47; its current text: "Commencement and term"'
    )
    assert lines[4].startswith("[4] b:48 ambiguous: originalContent occurs 2 times")
    assert lines[5].startswith("[5] b:55 skipped: this operation would not change the document")
    assert lines[6] == f"3 applied, 1 not found, 1 ambiguous, 1 skipped; wrote {out}"
    reviewer = DocxReviewer.open(out)
    ours = {(c["type"], c["text"]) for c in reviewer.changes() if c["author"] == AUTHOR}
    assert {("deletion", "best"), ("insertion", "reasonable"), ("deletion", "Schedule 2 (Charges);")} <= ours
    texts = {c["text"] for c in reviewer.comments() if c["author"] == AUTHOR}
    assert texts == {"Too onerous.", "Covered elsewhere.", "Check SOW precedence."}
    assert digest(sample) == digest(SAMPLE)
    assert schema_errors(out) == 0


def test_apply_json_lists_the_records(sample: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.docx"
    run = cli("apply", sample, "-", "-o", out, "--json", stdin=json.dumps(EDITS))
    assert run.code == 0, run.stderr
    records = json.loads(run.stdout)
    assert [r["status"] for r in records] == [
        "applied",
        "applied",
        "applied",
        "not found",
        "ambiguous",
        "skipped",
    ]
    assert records[3]["currentText"] == "Commencement and term"
    assert records[4]["matches"] == 2
    assert records[5]["code"] == "noopOperation"
    assert {c["author"] for c in DocxReviewer.open(out).comments() if c["text"] == "Too onerous."} == {
        "Reviewer"
    }


def test_apply_refuses_edit_json_without_modifications(sample: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.docx"
    run = cli("apply", sample, write_json(tmp_path / "e.json", {"edits": []}), "-o", out)
    assert_plain_refusal(run)
    assert 'is not pipeline edit JSON: expected an object with a "modifications" array' in run.stderr
    assert not out.exists()


# ----------------------------------------------------------------------------- resolving
@pytest.fixture
def redlined(sample: Path, tmp_path: Path) -> Path:
    """The sample with our edits and comments on top of its own tracked changes and comments."""
    out = tmp_path / "redlined.docx"
    run = cli("apply", sample, write_json(tmp_path / "edits.json", EDITS), "-o", out, "--author", AUTHOR)
    assert run.code == 0, run.stderr
    return out


def test_accept_all_and_reject_all_leave_no_changes(redlined: Path, tmp_path: Path) -> None:
    total = len(DocxReviewer.open(redlined).changes())
    for command, verb in (("accept-all", "accepted"), ("reject-all", "rejected")):
        out = tmp_path / f"{command}.docx"
        run = cli(command, redlined, "-o", out)
        assert run.code == 0, run.stderr
        assert run.stdout.startswith(f"{verb} ") and run.stdout.strip().endswith(f"; wrote {out}")
        reviewer = DocxReviewer.open(out)
        assert reviewer.changes() == []
        assert len(reviewer.comments()) == len(DocxReviewer.open(redlined).comments())  # comments stay
        assert schema_errors(out) == 0
    assert total > 0


def test_accept_all_for_one_author(redlined: Path, tmp_path: Path) -> None:
    out = tmp_path / "ours-accepted.docx"
    run = cli("accept-all", redlined, "-o", out, "--author", AUTHOR)
    assert run.code == 0, run.stderr
    assert f" by {AUTHOR}; wrote" in run.stdout
    left = DocxReviewer.open(out).changes()
    assert left and {c["author"] for c in left} == {OTHER}
    text = {b["text"] for b in DocxReviewer.open(out).read_document()}
    assert any("reasonable care" in t for t in text)


def test_finalize_leaves_no_changes_and_no_comments(redlined: Path, tmp_path: Path) -> None:
    out = tmp_path / "final.docx"
    run = cli("finalize", redlined, "-o", out, "--strip-metadata")
    assert run.code == 0, run.stderr
    assert run.stdout.startswith("accepted ") and "removed " in run.stdout and "metadata" in run.stdout
    reviewer = DocxReviewer.open(out)
    assert reviewer.changes() == [] and reviewer.comments() == []
    assert schema_errors(out) == 0


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    "args",
    [
        ("ops", "{file}", "{json}"),
        ("apply", "{file}", "{json}"),
        ("accept-all", "{file}"),
        ("reject-all", "{file}"),
        ("finalize", "{file}"),
    ],
)
def test_every_edit_command_needs_o(sample: Path, tmp_path: Path, args: tuple[str, ...]) -> None:
    edits = write_json(tmp_path / "e.json", {"modifications": []})
    before = digest(sample)
    run = cli(*(a.format(file=sample, json=edits) for a in args))
    assert_plain_refusal(run)
    assert f"{args[0]} needs -o OUT" in run.stderr
    assert digest(sample) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["contract.docx", "e.json"]


def test_o_naming_file_overwrites_it_on_purpose(sample: Path, tmp_path: Path) -> None:
    run = cli("apply", sample, write_json(tmp_path / "e.json", EDITS), "-o", sample, "--author", AUTHOR)
    assert run.code == 0, run.stderr
    assert digest(sample) != digest(SAMPLE)
    assert any(c["author"] == AUTHOR for c in DocxReviewer.open(sample).changes())


@pytest.mark.parametrize("command", ["ops", "apply"])
@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"modifications": [', "is not valid JSON: Expecting value (line 1, column 20)."),
        ("\xff\xfe{}", "is not valid JSON: it is not UTF-8 text."),
        ("", "is not valid JSON: Expecting value (line 1, column 1)."),
    ],
)
def test_malformed_json_is_one_line(
    sample: Path, tmp_path: Path, command: str, content: str, expected: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content.encode("latin-1"))
    out = tmp_path / "out.docx"
    run = cli(command, sample, bad, "-o", out)
    assert_plain_refusal(run)
    assert f'"{bad}" {expected}' in run.stderr
    assert not out.exists()


def test_missing_json_and_unopenable_file_and_bad_output_folder(sample: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.docx"
    run = cli("apply", sample, tmp_path / "none.json", "-o", out)
    assert_plain_refusal(run)
    assert "cannot be read: there is no such file." in run.stderr
    edits = write_json(tmp_path / "e.json", EDITS)
    broken = CORPUS / "malformed" / "malformed_truncated-zip.docx"
    if broken.exists():
        run = cli("apply", broken, edits, "-o", out)
        assert_plain_refusal(run)
        assert "cannot be opened: the file is damaged or incomplete" in run.stderr
    run = cli("finalize", sample, "-o", tmp_path / "no" / "such" / "out.docx")
    assert_plain_refusal(run)
    assert "does not exist" in run.stderr
    run = cli("finalize", sample, "-o", tmp_path)
    assert_plain_refusal(run)
    assert "it is a folder" in run.stderr
    assert not out.exists()


def test_help_documents_the_exit_codes() -> None:
    for command in ("ops", "apply", "accept-all", "reject-all", "finalize"):
        run = cli(command, "--help")
        assert run.code == 0
        assert "exit status:" in run.stdout and "\n  2  nothing was done" in run.stdout, command
    usage = cli("--help").stdout
    for line in (
        "reviewer ops FILE BATCH.json -o OUT",
        "reviewer apply FILE EDITS.json -o OUT",
        "reviewer finalize FILE -o OUT",
    ):
        assert line in usage


# ----------------------------------------------------------------------------- LibreOffice
@pytest.mark.libreoffice
def test_libreoffice_loads_the_intended_changes(redlined: Path, lo_reading) -> None:
    before = lo_reading(SAMPLE, accept_reject=True)
    after = lo_reading(redlined, accept_reject=True)
    assert after["load_ok"]
    ours = [(c["type"], c["text"]) for c in after["tracked_changes"] if c["author"] == AUTHOR]
    assert sorted(ours) == sorted(
        [("delete", "best"), ("insert", "reasonable"), ("delete", "Schedule 2 (Charges);"), ("delete", "\n")]
    )
    comments = {c["text"]: c["anchor_text"] for c in after["comments"] if c["author"] == AUTHOR}
    assert "reasonable" in comments["Too onerous."]  # on the change (or on the new text)
    assert "Schedule 2 (Charges);" in comments["Covered elsewhere."]
    assert "Check SOW precedence." in comments
    accepted = after["accept_all"]["paragraphs"]
    assert any("perform the Services with the reasonable care, skill" in t for t in accepted)
    assert not any(t == "Schedule 2 (Charges);" for t in accepted)
    assert after["reject_all"]["paragraphs"] == before["reject_all"]["paragraphs"]
