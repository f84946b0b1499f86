"""``reviewer agent FILE "instruction"``: one turn from the terminal against the fake model server.

The command runs the same session as the app, with the real ``anthropic`` client pointed at
the fake server through ``--base-url``: the answer streams to stdout, tool activity goes to
stderr, the changes are saved to OUT, and the conversation is saved as OUT's transcript.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.agent.proposal_store import ProposalStore
from reviewer_app.agent.transcript import TranscriptStore, document_identity
from reviewer_app.cli import main
from reviewer_app.docx import DocxReviewer
from tests import agent_fixtures
from tests.agent.test_agent_session import FLOW
from tests.agent_fixtures import CLAUSE, SAMPLE
from tests.conftest import REPO_ROOT
from tests.fake_anthropic import TEST_KEY, FakeAnthropic, Status, reply, tool

INSTRUCTION = "In clause 1.2, say MSA."


free_documents = agent_fixtures.free_documents


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    copy = tmp_path / "contract.docx"
    shutil.copyfile(SAMPLE, copy)
    return copy


@pytest.fixture
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("ANTHROPIC_API_KEY", TEST_KEY)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    return TEST_KEY


def ours(path: Path) -> list[tuple[str, str]]:
    return sorted(
        (c["type"], c["text"]) for c in DocxReviewer.open(path).changes() if c["author"] == "Reviewer"
    )


def test_agent_command_end_to_end(sample: Path, tmp_path: Path, api_key: str, capsys: Any) -> None:
    out = tmp_path / "out.docx"
    before = sample.read_bytes()
    with FakeAnthropic(list(FLOW)) as server:
        code = main(["agent", str(sample), INSTRUCTION, "-o", str(out), "--base-url", server.base_url])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert (
        len(server.requests) == 5
        and server.requests[0].body["messages"][0]["content"][-1]["text"] == INSTRUCTION
    )
    assert "I will start from the outline." in captured.out and "body of this MSA" in captured.out
    assert (
        "→ get_document_outline" in captured.err
        and "[skipped] replaceInBlock 0CA7A4E8: `find` matches" in captured.err
    )
    assert (
        f"[applied] replaceInBlock {CLAUSE}" in captured.err
        and "(end_turn; 5 model round trips" in captured.err
    )
    assert sample.read_bytes() == before  # FILE is never changed in place
    assert ours(out) == [("deletion", "Agreement"), ("insertion", "MSA")]
    transcript = TranscriptStore().load(out, document_identity(DocxReviewer.open(out)))
    assert transcript is not None and transcript.model
    assert [[op["status"] for op in b["operations"]] for b in transcript.edit_batches()] == [
        ["skipped"],
        ["applied"],
    ]
    assert TEST_KEY not in TranscriptStore().file_for(out, transcript.identity).read_text(encoding="utf-8")


def test_a_second_run_on_the_same_document_continues_its_conversation(
    sample: Path, tmp_path: Path, api_key: str, capsys: Any
) -> None:
    out = tmp_path / "out.docx"
    with FakeAnthropic([reply("First."), reply("Second.")]) as server:
        assert main(["agent", str(sample), "One.", "-o", str(out), "--base-url", server.base_url]) == 0
        assert main(["agent", str(out), "Two.", "-o", str(out), "--base-url", server.base_url]) == 0
    capsys.readouterr()
    messages = server.requests[1].body["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert "restored from an earlier session" in messages[2]["content"][0]["text"]
    transcript = TranscriptStore().load(out, document_identity(DocxReviewer.open(out)))
    assert transcript is not None and [e["text"] for e in transcript.entries if e["kind"] == "user"] == [
        "One.",
        "Two.",
    ]


def test_json_events(sample: Path, tmp_path: Path, api_key: str, capsys: Any) -> None:
    with FakeAnthropic(
        [reply("Reading.", tool("read_comments", {})), reply("There are comments.")]
    ) as server:
        code = main(["agent", str(sample), "Any comments?", "--json", "--base-url", server.base_url])
    assert code == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [e["kind"] for e in events if e["kind"] != "text_delta"] == [
        "tool_call",
        "tool_result",
        "turn_done",
    ]
    assert events[-1]["stop_reason"] == "end_turn"


def test_review_mode_writes_proposals_not_changes(
    sample: Path, tmp_path: Path, api_key: str, capsys: Any
) -> None:
    out = tmp_path / "proposed.docx"
    with FakeAnthropic(list(FLOW)) as server:
        code = main(
            [
                "agent",
                str(sample),
                INSTRUCTION,
                "--mode",
                "review",
                "-o",
                str(out),
                "--base-url",
                server.base_url,
            ]
        )
    err = capsys.readouterr().err
    assert code == 0, err
    assert "[queued] replaceInBlock" in err
    assert "Mode: review" in server.requests[0].body["system"][0]["text"]
    assert ours(out) == []
    (proposal,) = ProposalStore(out).proposals
    assert proposal["operation"]["replace"] == "body of this MSA"


def test_no_model_configured(sample: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    assert main(["agent", str(sample), "hello"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("reviewer: No API key is configured")
        and "ANTHROPIC_API_KEY" in err
        and "keyring" in err
    )


def test_model_failure_exits_3_and_keeps_what_applied(
    sample: Path, tmp_path: Path, api_key: str, capsys: Any
) -> None:
    out = tmp_path / "partial.docx"
    edit = {
        "type": "replaceInBlock",
        "blockId": CLAUSE,
        "find": "body of this Agreement",
        "replace": "body of this MSA",
    }
    script = [reply(tool("suggest_changes", {"operations": [edit]})), Status(401, message="key revoked")]
    with FakeAnthropic(script) as server:
        code = main(["agent", str(sample), "Edit.", "-o", str(out), "--base-url", server.base_url])
    err = capsys.readouterr().err
    assert code == 3
    assert f"error: the model server at {server.base_url.removeprefix('http://')} refused the request" in err
    assert ours(out) == [("deletion", "Agreement"), ("insertion", "MSA")]


def test_missing_file_and_help(tmp_path: Path, capsys: Any) -> None:
    assert main(["agent", str(tmp_path / "nope.docx"), "hi"]) == 2
    assert "there is no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["agent", "--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    assert "exit status:" in text and "ANTHROPIC_API_KEY" in text and "--base-url URL" in text
    assert 'reviewer agent FILE "instruction"' in main_usage(capsys)


def main_usage(capsys: Any) -> str:
    with pytest.raises(SystemExit):
        main(["--help"])
    return capsys.readouterr().out


def test_as_a_real_process(sample: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.docx"
    env = dict(os.environ, ANTHROPIC_API_KEY=TEST_KEY, PYTHONIOENCODING="utf-8")
    with FakeAnthropic(
        [reply(tool("get_document_outline", {})), reply("The contract has 86 sections.")]
    ) as server:
        proc = subprocess.run(
            [sys.executable, "-m", "reviewer_app", "agent", str(sample), "Outline?", "-o", str(out)]
            + ["--base-url", server.base_url, "--model", "claude-fake-2"],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "The contract has 86 sections."
    assert server.requests[0].body["model"] == "claude-fake-2"
    assert out.exists()


def test_check_model_says_who_answered_or_what_to_fix(api_key: str, capsys: Any) -> None:
    with FakeAnthropic([reply("OK"), Status(401, message="invalid x-api-key")]) as server:
        assert main(["check-model", "--base-url", server.base_url, "--model", "qwen3-coder"]) == 0
        answered = capsys.readouterr()
        assert main(["check-model", "--base-url", server.base_url]) == 3
        refused = capsys.readouterr()
        assert (
            server.requests[0].body["model"] == "qwen3-coder" and server.requests[0].body["max_tokens"] == 1
        )
    assert "answered as" in answered.out and not answered.err
    assert "refused the API key (HTTP 401: invalid x-api-key)" in refused.err and not refused.out
