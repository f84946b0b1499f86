"""``reviewer tools schema`` and ``reviewer tools run``: the agent's tools from the terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from reviewer_app.agent.review_queue import ReviewQueueBridge
from reviewer_app.agent.tools import TOOL_NAMES
from reviewer_app.cli import main
from reviewer_app.docx import DocxReviewer
from tests.bridge_conformance import PAYMENT, fixture_docx

REPLACE = {
    "id": "pay-60",
    "type": "replaceInBlock",
    "blockId": PAYMENT,
    "find": "30 days",
    "replace": "60 days",
}


@pytest.fixture
def contract(tmp_path: Path) -> Path:
    path = tmp_path / "msa.docx"
    path.write_bytes(fixture_docx())
    return path


def write_calls(path: Path, *calls: object) -> Path:
    lines = [c if isinstance(c, str) else json.dumps(c) for c in calls]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def envelopes(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("fmt", ["anthropic", "openai"])
def test_schema(fmt, capsys):
    assert main(["tools", "schema", "--format", fmt]) == 0
    tools = json.loads(capsys.readouterr().out)
    names = [t["name"] if fmt == "anthropic" else t["function"]["name"] for t in tools]
    assert names == list(TOOL_NAMES)  # the contract's 16 and check_document
    if fmt == "anthropic":
        assert tools[0]["name"] == "read_document" and tools[0]["input_schema"]["type"] == "object"
    else:
        assert tools[0]["type"] == "function" and tools[0]["function"]["parameters"]["type"] == "object"


def test_schema_defaults_to_anthropic(capsys):
    assert main(["tools", "schema"]) == 0
    assert "input_schema" in json.loads(capsys.readouterr().out)[0]


def test_run_one_session_and_write_out(contract: Path, tmp_path: Path, capsys):
    calls = write_calls(
        tmp_path / "calls.jsonl",
        {"name": "find_text", "input": {"query": "30 days"}},
        {"name": "suggest_changes", "input": {"operations": [REPLACE]}},
        "",
        {"name": "suggest_changes", "input": {"operations": [REPLACE]}},
        {"name": "read_changes"},
        "not json",
        {"name": "read_page", "input": {"page": 1}},
        {"input": {}},
    )
    out = tmp_path / "out.docx"
    original = contract.read_bytes()
    assert main(["tools", "run", str(contract), "--calls", str(calls), "-o", str(out)]) == 0
    results = envelopes(capsys.readouterr().out)
    assert len(results) == 7
    assert results[0]["ok"] and results[0]["result"]["totalMatches"] == 1
    assert results[1]["result"]["applied"] == [{"id": "pay-60"}]
    assert results[2]["result"]["replayed"] == [{"id": "pay-60"}], "one session: the resend is replayed"
    assert {c["type"] for c in results[3]["result"]} == {"insertion", "deletion"}
    assert results[4] == {
        "ok": False,
        "error": 'line 6 is not a tool call: expected {"name": ..., "input": {...}}.',
    }
    assert results[5]["error"] == "This editor surface does not support read_page (no live paginated view)."
    assert not results[6]["ok"]
    assert contract.read_bytes() == original, "FILE is never changed in place"
    assert {c["type"] for c in DocxReviewer.open(out).changes()} == {"insertion", "deletion"}


def test_run_without_output_writes_nothing(contract: Path, tmp_path: Path, capsys):
    calls = write_calls(
        tmp_path / "calls.jsonl", {"name": "suggest_changes", "input": {"operations": [REPLACE]}}
    )
    assert main(["tools", "run", str(contract), "--calls", str(calls)]) == 0
    assert envelopes(capsys.readouterr().out)[0]["result"]["applied"] == [{"id": "pay-60"}]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["calls.jsonl", "msa.docx"]


def test_run_review_mode_queues_and_the_queue_follows_out(contract: Path, tmp_path: Path, capsys):
    calls = write_calls(
        tmp_path / "calls.jsonl", {"name": "suggest_changes", "input": {"operations": [REPLACE]}}
    )
    out = tmp_path / "review.docx"
    assert (
        main(["tools", "run", str(contract), "--calls", str(calls), "--mode", "review", "-o", str(out)]) == 0
    )
    assert envelopes(capsys.readouterr().out)[0]["result"]["queued"] == [{"id": "pay-60"}]
    reopened = ReviewQueueBridge(DocxReviewer.open(out))
    assert [p["id"] for p in reopened.proposals()] == ["pay-60"] and reopened.reviewer.changes() == []


def test_run_reads_standard_input(contract: Path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"name": "read_comments", "input": {}}) + "\n"))
    assert main(["tools", "run", str(contract), "--calls", "-"]) == 0
    assert envelopes(capsys.readouterr().out)[0]["result"][0]["id"] == "1"


def test_run_refuses_missing_inputs(contract: Path, tmp_path: Path, capsys):
    assert main(["tools", "run", str(contract), "--calls", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot be read: there is no such file" in capsys.readouterr().err
    calls = write_calls(tmp_path / "calls.jsonl", {"name": "read_document"})
    assert main(["tools", "run", str(tmp_path / "missing.docx"), "--calls", str(calls)]) == 2
    assert "cannot be opened" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["tools", "run", str(contract)])
    assert exit_info.value.code == 2
