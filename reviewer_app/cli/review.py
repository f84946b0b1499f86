"""``reviewer review FILE --playbook P.yaml``: a playbook review from the terminal, as the app runs it.

The agent works through the playbook's positions
(:class:`~reviewer_app.agent.playbook.playbook_turn.PlaybookRun`, over the same headless session
``reviewer agent`` uses) and records a cited finding for each;
its fallback wording and its comments for the other side go into OUT as tracked changes and
comments (tracked mode), or wait as proposals in the review queue of OUT (review mode). Internal
notes never reach OUT. ``--issues`` writes the issues list (.docx table or .csv) for the client.
The findings are printed one line each, and the positions the model did not answer are named:
they are never guessed. The review and the conversation are saved for OUT, so opening OUT in the
app shows them in the Playbook panel and the chat.

Exit status as ``reviewer agent``'s: 0 the review finished (some positions may be unanswered,
as printed); 1 OUT or the issues list could not be written; 2 nothing was done (usage, FILE or
the playbook cannot be used, no model configured); 3 the model server failed (what was recorded
before is still saved and listed); 130 stopped with Ctrl-C (nothing saved).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from .agent import (
    EXIT_MODEL_FAILED,
    HeadlessSession,
    Printer,
    add_mode_option,
    add_model_options,
    agent_settings,
)
from .common import PROG, CliError, check_file, output_path, save_output

ISSUES_FORMATS = (".docx", ".csv")

_EPILOG = """\
exit status:
  0    the review finished (positions the model did not answer are listed, never guessed)
  1    OUT or ISSUES could not be written; FILE is unchanged
  2    nothing was done: a usage error, FILE or the playbook cannot be used, or no model is configured
  3    the model server failed; the findings recorded before are still saved and listed
  130  stopped with Ctrl-C; nothing was saved

The model and its server are chosen as for 'reviewer agent' (see 'reviewer agent --help')."""


def add_review_command(sub: Any) -> None:
    """The ``review`` parser."""
    review = sub.add_parser(
        "review",
        prog=f"{PROG} review",
        help="review FILE against a playbook of positions and list the findings",
        description=textwrap.fill(
            "Check FILE against a playbook (YAML): for each position the agent records whether the "
            "contract meets it, deviates or is silent, citing the clause, and proposes the fallback "
            "where it deviates. Its changes and comments for the other side are tracked changes and "
            "comments in OUT (or proposals, in review mode); internal notes stay out of OUT.",
            width=90,
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    review.add_argument("file", metavar="FILE", help="the .docx to review (it is not changed)")
    review.add_argument("--playbook", required=True, metavar="P.yaml", help="the playbook to check against")
    review.add_argument("-o", "--output", metavar="OUT", help="save the reviewed document here")
    review.add_argument("--issues", metavar="ISSUES", help="write the issues list here (.docx or .csv)")
    add_mode_option(review)
    add_model_options(review)
    review.add_argument(
        "--json", action="store_true", help="print every event, then the review, as JSON lines"
    )


def _issues_target(value: str | None) -> Path | None:
    if value is None:
        return None
    target = output_path("review", value)
    if target.suffix.lower() not in ISSUES_FORMATS:
        raise CliError(f'cannot write "{value}": the issues list is a .docx or a .csv file.')
    return target


def _load_playbook(path: str) -> Any:
    from ..agent.playbook.yaml_format import PlaybookError, load_playbook

    try:
        return load_playbook(path)
    except PlaybookError as exc:
        raise CliError(str(exc)) from None


def _print_review(review: Any, as_json: bool) -> None:
    """The findings, one line each, and the unanswered positions (on stdout)."""
    unanswered = [p.id for p in review.unanswered()]
    if as_json:
        findings = [f.to_dict() for f in review.findings.values()]
        line = {"kind": "playbook_review", "findings": findings, "unanswered": unanswered}
        sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
        return
    for position in review.playbook.positions:
        finding = review.findings.get(position.id)
        status = finding.effective_status if finding else "unanswered"
        where = ", ".join(c.block_id for c in finding.citations) if finding else ""
        sys.stdout.write(
            f"{status:<14} {position.id:<20} {position.title}" + (f"  [{where}]" if where else "") + "\n"
        )
    if unanswered:
        sys.stderr.write(
            f"{len(unanswered)} of {len(review.playbook.positions)} positions were not answered.\n"
        )


def run_review(ns: argparse.Namespace) -> int:
    """``reviewer review``."""
    from ..agent.playbook.findings_store import FindingsStore
    from ..agent.playbook.model import PlaybookReview
    from ..agent.playbook.playbook_turn import PlaybookRun

    target = output_path("review", ns.output) if ns.output else None
    issues = _issues_target(ns.issues)
    check_file(ns.file)
    playbook = _load_playbook(ns.playbook)
    headless = HeadlessSession.open(ns, target, agent_settings(ns))
    run = PlaybookRun(headless.session, PlaybookReview(playbook))
    stop_reason = headless.run(run.events(), Printer(ns.json))
    if stop_reason is None:
        return 130
    headless.finish(target, ns.json)
    if headless.keyed is not None:
        keyed, identity = headless.keyed, headless.identity
        save_output(lambda _: FindingsStore(headless.store).save(run.review, keyed, identity), keyed)
    if issues is not None:
        save_output(lambda path: _write_issues(path, run.review, headless), issues)
    _print_review(run.review, ns.json)
    return EXIT_MODEL_FAILED if stop_reason == "error" else 0


def _linked_operations(headless: HeadlessSession) -> list[dict[str, Any]]:
    """What a finding's proposal ids name: the review queue's proposals, or in tracked mode the
    operations applied in this run (the replay ledger keeps each as its canonical JSON)."""
    if headless.mode == "review":
        return headless.bridge.proposals()
    from ..agent.replay import ledger_for

    entries = ledger_for(headless.bridge).entries
    return [{"id": op_id, "operation": json.loads(entry.fingerprint)} for op_id, entry in entries.items()]


def _write_issues(path: Path, review: Any, headless: HeadlessSession) -> None:
    from ..agent.playbook.issues_list import write_issues_csv, write_issues_docx

    snapshot = headless.reviewer.snapshot()
    proposals = _linked_operations(headless)
    if path.suffix.lower() == ".csv":
        write_issues_csv(review, snapshot, path, proposals=proposals)
    else:
        write_issues_docx(
            review, snapshot, path, proposals=proposals, document_name=headless.session.document_name or ""
        )
