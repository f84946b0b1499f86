"""``reviewer review FILE --playbook P.yaml``: a playbook review from the terminal, against the scripted model.

The command runs the same session and the same playbook run as the app, with the real
``anthropic`` client pointed at the scripted server through ``--base-url``. The tests read back
what a lawyer gets: the reviewed document (fallback as a tracked change, the comment for the
other side, no internal note), the issues list (python-docx, CSV), the findings saved for the
app, and the lines printed.
"""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path
from typing import Any

import docx
import pytest

from reviewer_app.agent.playbook.findings_store import FindingsStore
from reviewer_app.agent.playbook.record_finding import RECORD_FINDING
from reviewer_app.agent.playbook.yaml_format import dump_playbook
from reviewer_app.agent.transcript import document_identity
from reviewer_app.cli import main
from reviewer_app.docx import DocxReviewer
from tests import agent_fixtures
from tests.fake_anthropic import TEST_KEY, FakeAnthropic, Status, reply, tool
from tests.playbook_fixtures import LAW, LAW_TEXT, NDA, PLAYBOOK, PURPOSE_FALLBACK, TERM, USE, cite, finding

free_documents = agent_fixtures.free_documents

SCRIPT = [
    reply("Proposing the fallback.", tool("suggest_changes", {"operations": [PURPOSE_FALLBACK]})),
    reply(
        "Recording.",
        tool(
            RECORD_FINDING,
            finding(
                "term",
                "deviates",
                cite(TERM, "two (2) years"),
                comment="We need three years.",
                commentAudience="external",
            ),
        ),
        tool(
            RECORD_FINDING,
            finding(
                "purpose",
                "deviates",
                cite(USE, "for any purpose whatsoever"),
                proposalIds=["purpose-fallback"],
            ),
        ),
        tool(
            RECORD_FINDING,
            finding("law", "meets", cite(LAW, LAW_TEXT), comment="INTERNAL: the client is fine."),
        ),
    ),
    reply("Two positions deviate."),
]


@pytest.fixture
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("ANTHROPIC_API_KEY", TEST_KEY)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    return TEST_KEY


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    contract = tmp_path / "nda.docx"
    contract.write_bytes(NDA)
    playbook = tmp_path / "mutual-nda.yaml"
    playbook.write_text(dump_playbook(PLAYBOOK), encoding="utf-8")
    return contract, playbook


def _review(files: tuple[Path, Path], *args: str, script: list[Any] = SCRIPT) -> tuple[int, FakeAnthropic]:
    contract, playbook = files
    with FakeAnthropic(list(script)) as server:
        code = main(
            ["review", str(contract), "--playbook", str(playbook), *args, "--base-url", server.base_url]
        )
    return code, server


def test_review_writes_the_document_the_issues_list_and_the_findings(
    files: tuple[Path, Path], tmp_path: Path, api_key: str, capsys: Any
) -> None:
    out, issues = tmp_path / "reviewed.docx", tmp_path / "issues.docx"
    code, _ = _review(files, "-o", str(out), "--issues", str(issues))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.out.splitlines()[-3:] == [
        f"deviates       term                 Term of confidentiality  [{TERM}]",
        f"deviates       purpose              Limited use  [{USE}]",
        f"meets          law                  Governing law  [{LAW}]",
    ]
    reviewed = DocxReviewer.open(out)
    assert {c["type"] for c in reviewed.changes()} == {"deletion", "insertion"}  # the fallback, tracked
    assert reviewed.snapshot().block(USE).text.endswith("Confidential Information solely for the Purpose.")
    assert [c["text"] for c in reviewed.comments()] == ["We need three years."]
    with zipfile.ZipFile(out) as package:
        assert not any(b"INTERNAL" in package.read(name) for name in package.namelist())
    table = docx.Document(str(issues)).tables[0]
    rows = [[cell.text for cell in row.cells] for row in table.rows]
    assert [row[1] for row in rows] == ["Status", "Deviates", "Deviates", "Meets"]
    purpose = next(row for row in rows if row[0].startswith("Limited use"))
    assert "solely for the Purpose" in purpose[4]
    law = next(row for row in rows if row[0].startswith("Governing law"))
    assert "INTERNAL: the client is fine." in law[6]
    saved = FindingsStore().load(out, document_identity(reviewed))
    assert saved is not None and saved.findings["purpose"].proposal_ids == ("purpose-fallback",)
    assert files[0].read_bytes() == NDA  # FILE is never changed


def test_review_mode_keeps_proposals_and_writes_a_csv_with_the_unanswered_position(
    files: tuple[Path, Path], tmp_path: Path, api_key: str, capsys: Any
) -> None:
    out, issues = tmp_path / "proposed.docx", tmp_path / "issues.csv"
    script = [
        reply("Proposing.", tool("suggest_changes", {"operations": [PURPOSE_FALLBACK]})),
        reply(
            "Recording.",
            tool(
                RECORD_FINDING,
                finding(
                    "purpose",
                    "deviates",
                    cite(USE, "for any purpose whatsoever"),
                    proposalIds=["purpose-fallback"],
                ),
            ),
        ),
        reply("I could not find the term or the governing law."),
        reply("Still nothing."),  # the follow-up turn for the two unanswered positions
    ]
    code, _ = _review(files, "--mode", "review", "-o", str(out), "--issues", str(issues), script=script)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "2 of 3 positions were not answered." in captured.err
    assert "unanswered     term" in captured.out
    assert DocxReviewer.open(out).changes() == []  # proposals wait for a person
    with issues.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["Position ID"], r["Status"]) for r in rows] == [
        ("purpose", "Deviates"),
        ("term", "Unanswered"),
        ("law", "Unanswered"),
    ]
    assert "solely for the Purpose" in rows[0]["Proposed text"]


def test_a_bad_playbook_or_issues_name_is_refused_before_any_work(
    files: tuple[Path, Path], tmp_path: Path, api_key: str, capsys: Any
) -> None:
    contract, playbook = files
    playbook.write_text(
        "name: NDA\ncontract_type: NDA\npositions:\n  - id: term\n    title: Term\n", encoding="utf-8"
    )
    code, server = _review(files)
    err = capsys.readouterr().err
    assert code == 2 and server.requests == []
    assert err.startswith("reviewer: mutual-nda.yaml, line ") and err.count("\n") == 1
    code, server = _review(files, "--issues", str(tmp_path / "issues.txt"))
    err = capsys.readouterr().err
    assert code == 2 and server.requests == []
    assert (
        err
        == f'reviewer: cannot write "{tmp_path / "issues.txt"}": the issues list is a .docx or a .csv file.\n'
    )


def test_a_model_failure_exits_3_and_keeps_the_findings_recorded_before(
    files: tuple[Path, Path], tmp_path: Path, api_key: str, capsys: Any
) -> None:
    out, issues = tmp_path / "partial.docx", tmp_path / "issues.csv"
    script = [
        reply("Recording.", tool(RECORD_FINDING, finding("law", "meets", cite(LAW, LAW_TEXT)))),
        Status(401, message="key revoked"),
    ]
    code, _ = _review(files, "-o", str(out), "--issues", str(issues), script=script)
    captured = capsys.readouterr()
    assert code == 3, captured.err
    assert "refused the request" in captured.err and "2 of 3 positions were not answered." in captured.err
    saved = FindingsStore().load(out, document_identity(DocxReviewer.open(out)))
    assert saved is not None and list(saved.findings) == ["law"]
    with issues.open(encoding="utf-8-sig", newline="") as handle:
        assert [r["Status"] for r in csv.DictReader(handle)] == ["Unanswered", "Unanswered", "Meets"]
