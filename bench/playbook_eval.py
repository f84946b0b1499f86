"""How well does a playbook review find what is wrong? ContractNLI's NDAs, scored per position.

ContractNLI (``../shared/datasets/contract-nli/dev.json``: 61 NDAs, Apache-2.0) labels each
contract against 17 hypotheses ("Receiving Party shall not reverse engineer ...") as
Entailment, Contradiction or NotMentioned, with the text spans that are the evidence. This
harness turns each contract into a .docx (python-docx, one paragraph per span, so every
evidence span is one block), the 17 hypotheses into a 17-position playbook (the hypothesis is
the standard position: Entailment means the contract meets it, Contradiction that it deviates,
NotMentioned that it is missing), runs ``reviewer review`` on each contract as a user would (a
process per contract, ``--json``), and reports per position:

- recall of Contradiction: of the contracts that fail the position, the share found ``deviates``;
- precision of ``deviates``: of the ``deviates`` findings, the share that are Contradictions;
- evidence: of the findings on positions the contract addresses (gold Entailment or
  Contradiction), the share citing at least one gold evidence span;
- unanswered positions, and the tokens the model server reported, per contract.

It also times ``record_finding``'s own work per call (validation and recording, no model),
kept and refused, on the longest contract and on any ``--overhead-on`` documents (the 300-page
synthetic contract of ``bench_reads.py``, say), against the 5 ms target.

    python bench/playbook_eval.py --scripted [--limit N] [--overhead-on FILE.docx]   # the scoring, proven
    python bench/playbook_eval.py --model M [--base-url URL] [--limit N]   # a real or local model

``--scripted`` serves a scripted model on 127.0.0.1 that reads each contract with
read_document and answers every position from the gold labels, citing the gold spans: every
score must then be 1.0, which proves the harness end to end (``--mistakes`` makes it answer some
positions wrongly on purpose, for the tests). The user data folder of the ``reviewer review``
processes is a folder under ``--out``, so the runs leave no transcripts in the real one.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import docx  # noqa: E402

from reviewer_app.agent.bridge import create_reviewer_bridge  # noqa: E402
from reviewer_app.agent.playbook.model import Playbook, PlaybookReview, Position  # noqa: E402
from reviewer_app.agent.playbook.record_finding import RECORD_FINDING, record_finding_tool  # noqa: E402
from reviewer_app.agent.playbook.yaml_format import dump_playbook  # noqa: E402
from reviewer_app.docx import DocxReviewer  # noqa: E402
from reviewer_app.selftest.scripted_model_server import (  # noqa: E402
    FakeAnthropic,
    Reply,
    reply,
    result_text,
    tool,
    unfence,
)

DATASET = ROOT.parent / "shared" / "datasets" / "contract-nli" / "dev.json"
STATUS_OF_LABEL = {"Entailment": "meets", "Contradiction": "deviates", "NotMentioned": "missing"}
OVERHEAD_TARGET_MS = 5.0
#: characters XML 1.0 cannot hold (a few contracts were extracted from PDFs with control codes)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_TASK_DOCUMENT = re.compile(r'Review this contract \("([^"]+)"\)')
_TASK_POSITIONS = "The positions (the lawyer's own, as JSON):\n"


# ----------------------------------------------------------------------------- the data set
@dataclass
class Case:
    """One contract: its .docx, and per position the gold label and evidence block ids."""

    doc_id: str
    path: Path
    gold: dict[str, tuple[str, frozenset[str]]]
    block_ids: list[str]


def load_dataset(path: Path = DATASET) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def contract_playbook(labels: dict[str, Any]) -> Playbook:
    """One position per hypothesis, in the data set's numbering order (nda-1 … nda-20)."""
    positions = tuple(
        Position(
            id=key,
            title=label["short_description"],
            question=f"Does the contract provide that: {label['hypothesis']}",
            standard=label["hypothesis"],
            guidance=(
                "meets: the contract says this; deviates: the contract says the opposite or rules it "
                "out; missing: the contract does not address it."
            ),
        )
        for key, label in sorted(labels.items(), key=lambda item: int(item[0].split("-")[1]))
    )
    return Playbook(name="ContractNLI NDA", contract_type="NDA", positions=positions)


def write_contract(document: dict[str, Any], folder: Path) -> Case:
    """The contract as a .docx, one paragraph per non-blank span; gold evidence as block ids."""
    text = document["text"]
    written: list[int] = []
    out = docx.Document()
    for index, (start, end) in enumerate(document["spans"]):
        span = _NOT_XML.sub("", text[start:end]).strip()
        if span:
            out.add_paragraph(span)
            written.append(index)
    path = folder / f"nda-{document['id']}.docx"
    out.save(str(path))
    blocks = [b for b in DocxReviewer.open(path).snapshot().blocks if b.kind == "paragraph"]
    block_ids = [b.id for b in blocks if b.text.strip()]
    if len(block_ids) != len(written):
        raise RuntimeError(f"{path.name}: {len(written)} paragraphs written, {len(block_ids)} blocks read")
    block_of = dict(zip(written, block_ids, strict=True))
    annotations = document["annotation_sets"][0]["annotations"]
    gold = {
        key: (value["choice"], frozenset(block_of[s] for s in value["spans"] if s in block_of))
        for key, value in annotations.items()
    }
    return Case(str(document["id"]), path, gold, block_ids)


# ----------------------------------------------------------------------------- the scripted model
def _task(messages: list[dict[str, Any]]) -> str:
    """The latest playbook task the model was given."""
    for message in reversed(messages):
        content = message["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for block in blocks:
            if block.get("type") == "text" and _TASK_POSITIONS in block["text"]:
                return block["text"]
    raise ValueError("no playbook task in the conversation")


def gold_model(
    cases: dict[str, Case], mistakes: Iterable[tuple[str, str]] = ()
) -> Callable[[dict[str, Any]], Reply]:
    """A scripted model answering from the gold labels: read_document, then one record_finding
    per position of the task citing the gold spans, then a summary. For a (doc_id, position) in
    ``mistakes`` it answers wrongly on purpose (meets and deviates swapped, missing made deviates)
    and cites a block that is no evidence."""
    wrong = set(mistakes)

    def answer(request: dict[str, Any]) -> Reply:
        messages = request["messages"]
        content = messages[-1]["content"]
        results = [b for b in content if b.get("type") == "tool_result"] if isinstance(content, list) else []
        if not results:
            return reply("I will read the contract first.", tool("read_document", {}))
        called = [b["name"] for b in messages[-2]["content"] if b.get("type") == "tool_use"]
        if called != ["read_document"]:
            return reply("Every position of this part is recorded.")
        task = _task(messages)
        case = cases[Path(json.loads(f'"{_TASK_DOCUMENT.search(task).group(1)}"')).stem.removeprefix("nda-")]
        read = unfence(result_text(results[0]))
        blocks = {b["blockId"]: b["text"] for b in (read if isinstance(read, list) else read["blocks"])}
        asked = [p["id"] for p in json.loads(task.split(_TASK_POSITIONS, 1)[1])]
        calls = [
            tool(RECORD_FINDING, _gold_finding(case, pid, blocks, (case.doc_id, pid) in wrong))
            for pid in asked
        ]
        return reply("Recording the findings.", *calls)

    return answer


def _gold_finding(case: Case, position_id: str, blocks: dict[str, str], wrong: bool) -> dict[str, Any]:
    label, evidence = case.gold[position_id]
    status = STATUS_OF_LABEL[label]
    cited = sorted(evidence)
    if wrong:
        status = {"meets": "deviates", "deviates": "meets", "missing": "deviates"}[status]
        cited = [next(b for b in case.block_ids if b not in evidence)]
    citations = [{"blockId": b, "quote": blocks[b][:80]} for b in cited] if status != "missing" else []
    return {
        "positionId": position_id,
        "status": status,
        "citations": citations,
        "explanation": f"The gold label is {label}." if not wrong else "A deliberate mistake.",
    }


# ----------------------------------------------------------------------------- running reviewer review
@dataclass
class Outcome:
    """What one ``reviewer review`` run gave: findings by position, unanswered ids, tokens."""

    findings: dict[str, dict[str, Any]] = field(default_factory=dict)
    unanswered: list[str] = field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    exit_code: int = 0
    seconds: float = 0.0
    error: str = ""


def run_review(case: Case, playbook: Path, args: list[str], env: dict[str, str]) -> Outcome:
    """``reviewer review CASE --playbook P --json -o OUT`` in its own process."""
    out = case.path.with_name(case.path.stem + "-reviewed.docx")
    command = [sys.executable, "-m", "reviewer_app", "review", str(case.path), "--playbook", str(playbook)]
    started = time.perf_counter()
    proc = subprocess.run(
        [*command, "-o", str(out), "--json", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=1800,
    )
    outcome = Outcome(exit_code=proc.returncode, seconds=time.perf_counter() - started)
    for line in proc.stdout.splitlines():
        event = json.loads(line)
        if event["kind"] == "turn_done":
            outcome.input_tokens += int(event["usage"].get("input_tokens", 0))
            outcome.output_tokens += int(event["usage"].get("output_tokens", 0))
        elif event["kind"] == "playbook_review":
            outcome.findings = {f["positionId"]: f for f in event["findings"]}
            outcome.unanswered = list(event["unanswered"])
    if proc.returncode:
        outcome.error = (
            proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
        )
    return outcome


# ----------------------------------------------------------------------------- scoring
def _share(hits: int, total: int) -> float | None:
    return round(hits / total, 3) if total else None


def score(playbook: Playbook, cases: list[Case], outcomes: dict[str, Outcome]) -> dict[str, Any]:
    """Per position and overall: recall of Contradiction, precision of deviates, evidence share."""
    rows = []
    totals = {
        "contradictions": 0,
        "found": 0,
        "deviates": 0,
        "right": 0,
        "addressed": 0,
        "cited": 0,
        "unanswered": 0,
    }
    for position in playbook.positions:
        counts = dict.fromkeys(totals, 0)
        for case in cases:
            label, evidence = case.gold[position.id]
            finding = outcomes[case.doc_id].findings.get(position.id)
            status = finding["status"] if finding else None
            counts["unanswered"] += finding is None
            counts["contradictions"] += label == "Contradiction"
            counts["found"] += label == "Contradiction" and status == "deviates"
            counts["deviates"] += status == "deviates"
            counts["right"] += status == "deviates" and label == "Contradiction"
            if finding is not None and label != "NotMentioned":
                counts["addressed"] += 1
                counts["cited"] += any(c["blockId"] in evidence for c in finding["citations"])
        for key, value in counts.items():
            totals[key] += value
        rows.append({"position": position.id, "title": position.title, **_rates(counts)})
    return {"positions": rows, "overall": _rates(totals)}


def _rates(counts: dict[str, int]) -> dict[str, Any]:
    return {
        "contradictions": counts["contradictions"],
        "recall_contradiction": _share(counts["found"], counts["contradictions"]),
        "deviates": counts["deviates"],
        "precision_deviates": _share(counts["right"], counts["deviates"]),
        "evidence_share": _share(counts["cited"], counts["addressed"]),
        "unanswered": counts["unanswered"],
    }


# ----------------------------------------------------------------------------- record_finding's overhead
def measure_overhead(path: Path, playbook: Playbook, runs: int = 200) -> dict[str, Any]:
    """record_finding's own time per call on the document at ``path`` (no model, no comment), in ms.

    ``kept``: a valid finding citing a block spread over the document with a quote from the end
    of its text; ``refused``: the same with a quote in no block, so the refusal also looks for the
    quote in every other block (its index is built once per document version; that first build
    is in ``refused``'s max).
    """
    reviewer = DocxReviewer.open(path)
    bridge = create_reviewer_bridge(reviewer)
    snapshot = reviewer.snapshot()
    blocks = snapshot.content_blocks()
    review = PlaybookReview(playbook)
    tool = record_finding_tool(lambda: review)
    report: dict[str, Any] = {"document": path.name, "blocks": len(blocks)}
    for case, quote_of in (
        ("kept", lambda b: b.text[-60:]),
        ("refused", lambda b: "text in no block at all"),
    ):
        times = []
        for n in range(runs):
            block = blocks[(n * 7919) % len(blocks)]
            position = playbook.positions[n % len(playbook.positions)]
            citation = {"blockId": block.id, "quote": quote_of(block)}
            args = {"positionId": position.id, "status": "meets", "citations": [citation], "explanation": "x"}
            started = time.perf_counter()
            envelope = tool.handler(args, bridge)
            times.append((time.perf_counter() - started) * 1000)
            if envelope["ok"] != (case == "kept"):
                raise RuntimeError(f"record_finding answered {envelope} to a call meant to be {case}")
        times.sort()
        report[case] = {
            "median_ms": round(statistics.median(times), 3),
            "p95_ms": round(times[int(len(times) * 0.95) - 1], 3),
            "max_ms": round(times[-1], 3),
        }
    return report


# ----------------------------------------------------------------------------- the command
def evaluate(
    out: Path,
    *,
    limit: int | None = None,
    scripted: bool = True,
    mistakes: Iterable[tuple[str, str]] = (),
    model_args: list[str] | None = None,
    dataset: Path = DATASET,
    overhead_on: Iterable[Path] = (),
) -> dict[str, Any]:
    """Build the contracts and the playbook under ``out``, review each, and score; the report."""
    data = load_dataset(dataset)
    out.mkdir(parents=True, exist_ok=True)
    playbook = contract_playbook(data["labels"])
    playbook_file = out / "contract-nli.yaml"
    playbook_file.write_text(dump_playbook(playbook), encoding="utf-8")
    documents = data["documents"][:limit] if limit else data["documents"]
    cases = [write_contract(document, out) for document in documents]
    env = {**os.environ, "XDG_DATA_HOME": str(out / "user-data")}
    outcomes: dict[str, Outcome] = {}
    if scripted:
        server = FakeAnthropic([gold_model({c.doc_id: c for c in cases}, mistakes)] * (8 * len(cases) + 8))
        with server:
            args = ["--base-url", server.base_url, "--model", "scripted-gold"]
            env["ANTHROPIC_API_KEY"] = env.get("ANTHROPIC_API_KEY") or "scripted-gold-key"
            for case in cases:
                outcomes[case.doc_id] = run_review(case, playbook_file, args, env)
    else:
        for case in cases:
            outcomes[case.doc_id] = run_review(case, playbook_file, model_args or [], env)
    longest = max(cases, key=lambda c: c.path.stat().st_size)
    report = score(playbook, cases, outcomes)
    report["contracts"] = [
        {
            "id": c.doc_id,
            "exit": outcomes[c.doc_id].exit_code,
            "error": outcomes[c.doc_id].error,
            "unanswered": len(outcomes[c.doc_id].unanswered),
            "input_tokens": outcomes[c.doc_id].input_tokens,
            "output_tokens": outcomes[c.doc_id].output_tokens,
            "seconds": round(outcomes[c.doc_id].seconds, 1),
        }
        for c in cases
    ]
    report["tokens"] = {
        "input": sum(o.input_tokens for o in outcomes.values()),
        "output": sum(o.output_tokens for o in outcomes.values()),
    }
    report["record_finding_overhead"] = [measure_overhead(p, playbook) for p in (longest.path, *overhead_on)]
    return report


def _cell(value: Any) -> str:
    return "  -  " if value is None else f"{value:5.2f}" if isinstance(value, float) else f"{value:5}"


def print_report(report: dict[str, Any]) -> None:
    columns = ("contr", "recall", "dev", "prec", "evid", "unans")
    print(f"{'position':<8} {'title':<48} " + " ".join(f"{c:>5}" for c in columns))
    for row in [*report["positions"], {"position": "all", "title": "", **report["overall"]}]:
        values = [
            row[k] for k in ("contradictions", "recall_contradiction", "deviates", "precision_deviates")
        ]
        values += [row["evidence_share"], row["unanswered"]]
        print(f"{row['position']:<8} {row['title'][:48]:<48} " + " ".join(_cell(v) for v in values))
    contracts = report["contracts"]
    failed = [c for c in contracts if c["exit"]]
    print(
        f"contracts: {len(contracts)}, failed runs: {len(failed)}"
        + "".join(f"\n  {c['id']}: {c['error']}" for c in failed)
    )
    tokens = report["tokens"]
    per_contract = tokens["input"] // max(len(contracts), 1)
    spent = f"{tokens['input']:,} input, {tokens['output']:,} output"
    print(f"tokens: {spent} ({per_contract:,} input per contract)")
    for overhead in report["record_finding_overhead"]:
        times = ", ".join(
            f"{case} median {overhead[case]['median_ms']} / p95 {overhead[case]['p95_ms']} / max "
            f"{overhead[case]['max_ms']} ms"
            for case in ("kept", "refused")
        )
        print(f"record_finding per call on {overhead['document']} ({overhead['blocks']} blocks): {times}")
    print(f"(target: <= {OVERHEAD_TARGET_MS} ms per call)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scripted", action="store_true", help="answer from the gold labels (no real model)")
    parser.add_argument("--limit", type=int, help="only the first N contracts")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "bench" / "out" / "playbook-eval", help="working folder"
    )
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    parser.add_argument("--model", help="the model (without --scripted)")
    parser.add_argument("--base-url", help="the model server (without --scripted)")
    parser.add_argument(
        "--mistakes", nargs="*", default=[], metavar="DOC:POSITION", help="scripted wrong answers"
    )
    ns = parser.parse_args(argv)
    model_args = [
        *(["--model", ns.model] if ns.model else []),
        *(["--base-url", ns.base_url] if ns.base_url else []),
    ]
    mistakes = [tuple(m.split(":", 1)) for m in ns.mistakes]
    report = evaluate(
        ns.out,
        limit=ns.limit,
        scripted=ns.scripted,
        mistakes=mistakes,
        model_args=model_args,
        overhead_on=ns.overhead_on,
    )
    print_report(report)
    if ns.json is not None:
        ns.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
