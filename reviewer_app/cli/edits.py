"""The edit commands of ``reviewer``: ``ops``, ``apply``, ``accept-all``, ``reject-all``, ``finalize``.

They run the engine headless, for pipelines that send the Markdown view to a model and write
its answer back as tracked changes. They never change FILE in place: the result goes to the
file ``-o`` names, which is checked before any work so a bad path costs nothing. Kept apart
from :mod:`.main` because they share a shape (FILE, ``-o OUT``, exit codes in ``--help``) that
the reading commands do not.

The engine modules each command needs are imported inside it, so ``reviewer read`` does not
pay for them; nothing here imports PySide6.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from ..docx import DocxReviewer
from ..docx.protection import TRACKED_ONLY_MESSAGE
from .common import (
    EXIT_CANNOT_OPEN,
    PROG,
    CliError,
    dump_json,
    open_reviewer,
    output_path,
    refuse_files_open_in_reviewer,
    save_output,
    write,
)

#: The edit commands, in the order ``reviewer --help`` lists them.
EDIT_COMMANDS = ("ops", "apply", "accept-all", "reject-all", "finalize")
#: Input JSON files larger than this are refused (edit batches are a few kilobytes).
MAX_JSON_BYTES = 64 * 1024 * 1024

_EXIT_CODES = """\
exit status:
  0  done: OUT was written{ran}
  1  OUT could not be written (disk full, no permission); FILE is unchanged
  2  nothing was done: a usage error (such as a missing -o), FILE cannot be opened,
     FILE or OUT is open in a Reviewer window (without --force){inputs}

FILE is never changed in place: the result is written (atomically) to the file -o names,
which may be FILE itself when you mean to overwrite it."""


# ----------------------------------------------------------------------------- parsers
def _edit_parser(
    sub: Any, name: str, help_text: str, description: str, ran: str = "", inputs: str = ""
) -> argparse.ArgumentParser:
    """One edit command: FILE, ``-o OUT`` and the exit codes in its ``--help``."""
    parser = sub.add_parser(
        name,
        prog=f"{PROG} {name}",
        help=help_text,
        description=textwrap.fill(description, width=90),
        epilog=_EXIT_CODES.format(ran=ran, inputs=inputs),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="the .docx to read (it is not changed)")
    parser.add_argument(
        "--force", action="store_true", help="go ahead even when FILE or OUT is open in a Reviewer window"
    )
    return parser


def _add_output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="OUT", help="where to write the result (required)")


def add_edit_commands(sub: Any) -> None:
    """Parsers for ``ops``, ``apply``, ``accept-all``, ``reject-all`` and ``finalize``."""
    ops = _edit_parser(
        sub,
        "ops",
        "apply a contract operation batch",
        "Apply a document operation batch (tool contract §5.4: {version: 1, operations: [...]}) as "
        "tracked changes and comments, and print the result envelope as JSON.",
        ran=' (even when some operations were skipped: see "skipped" in the JSON;\n'
        "     a dry run writes nothing)",
        inputs=",\n     BATCH.json is not valid JSON, or it is not a valid batch (its issues are printed)",
    )
    ops.add_argument("batch", metavar="BATCH.json", help="the batch ('-' reads standard input)")
    _add_output(ops)
    ops.add_argument("--author", metavar="NAME", help="author of the changes (default: Reviewer)")
    apply = _edit_parser(
        sub,
        "apply",
        "apply the LLM pipeline's edit JSON",
        'Apply {"modifications": [{blockIndex, originalContent, content, basis}]}, blockIndex as '
        "the <!-- b:N --> markers of 'reviewer read' number blocks. The operation is inferred: "
        "content -> replace, only originalContent -> delete, only basis -> comment; basis next to a "
        "change becomes a comment on it. Prints one status line per modification: applied, not "
        "found (with the block's current text), ambiguous (with the match count) or skipped (with "
        "the reason).",
        ran=" (even when some modifications were not applied: see the status lines)",
        inputs=",\n     EDITS.json is not valid JSON, or it has no modifications array",
    )
    apply.add_argument("edits", metavar="EDITS.json", help="the edit JSON ('-' reads standard input)")
    _add_output(apply)
    apply.add_argument("--author", metavar="NAME", help="author of the changes (default: Reviewer)")
    apply.add_argument("--json", action="store_true", help="print the statuses as a JSON list")
    for name, verb in (("accept-all", "accept"), ("reject-all", "reject")):
        resolve = _edit_parser(
            sub,
            name,
            f"{verb} every tracked change",
            f"{verb.capitalize()} every tracked change in every part of the document (or only one "
            "author's). Comments are kept.",
        )
        _add_output(resolve)
        resolve.add_argument("--author", metavar="NAME", help=f"{verb} only this author's changes")
    finalize = _edit_parser(
        sub,
        "finalize",
        "accept all changes and remove all comments",
        "Make the clean copy to send out: accept every tracked change, remove every comment "
        "(with its anchors and parts), and optionally blank the author and date metadata.",
    )
    _add_output(finalize)
    finalize.add_argument(
        "--strip-metadata", action="store_true", help="also blank creator, last editor, company and dates"
    )


# ----------------------------------------------------------------------------- helpers
def load_json_file(path: str) -> Any:
    """Read a JSON input file (``-`` = standard input); any problem is one plain :class:`CliError`."""
    shown = "standard input" if path == "-" else f'"{path}"'
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_JSON_BYTES + 1)
        else:
            candidate = Path(path)
            if not candidate.exists():
                raise CliError(f"{shown} cannot be read: there is no such file.")
            if candidate.is_dir():
                raise CliError(f"{shown} cannot be read: it is a folder, not a JSON file.")
            with candidate.open("rb") as fh:
                data = fh.read(MAX_JSON_BYTES + 1)
    except OSError as exc:
        raise CliError(f"{shown} cannot be read: {exc.strerror or exc}.") from None
    if len(data) > MAX_JSON_BYTES:
        raise CliError(f"{shown} is over the {MAX_JSON_BYTES:,}-byte limit for an edit file.")
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise CliError(f"{shown} is not valid JSON: it is not UTF-8 text.") from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise CliError(f"{shown} is not valid JSON: {exc.msg} ({where}).") from None
    except RecursionError:
        raise CliError(f"{shown} is not valid JSON: it is nested too deeply.") from None


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# ----------------------------------------------------------------------------- commands
def run_ops(path: str, batch_path: str, output: str | None, author: str | None) -> int:
    """``reviewer ops``: a contract batch through ``DocxReviewer.apply_operations``; JSON out."""
    from ..docx.edit.batch import ContractError

    target = output_path("ops", output)
    reviewer = open_reviewer(path, author)
    batch = load_json_file(batch_path)
    try:
        result = reviewer.apply_operations(batch)
    except ContractError as exc:
        shown = "standard input" if batch_path == "-" else f'"{batch_path}"'
        lines = [f"{PROG}: {shown} is not a valid document operation batch; nothing was written:"]
        lines += [str(issue.get("message", issue)) for issue in exc.issues]
        sys.stderr.write("\n".join(lines) + "\n")
        return EXIT_CANNOT_OPEN
    if result.get("status") != "previewed":  # a dry run changes nothing and writes nothing
        save_output(reviewer.save, target)
    dump_json(result)
    return 0


def run_apply(path: str, edits_path: str, output: str | None, author: str | None, as_json: bool) -> int:
    """``reviewer apply``: the pipeline's edit JSON (logic in :mod:`..docx.pipeline_edits`)."""
    from ..docx.pipeline_edits import PipelineEditError, apply_pipeline_edits, status_line, summary

    target = output_path("apply", output)
    reviewer = open_reviewer(path, author)
    data = load_json_file(edits_path)
    try:
        records = apply_pipeline_edits(reviewer, data)
    except PipelineEditError as exc:
        shown = "standard input" if edits_path == "-" else f'"{edits_path}"'
        raise CliError(f"{shown} is not pipeline edit JSON: {exc}.") from None
    save_output(reviewer.save, target)
    if as_json:
        dump_json(records)
    else:
        write("\n".join([*(status_line(r) for r in records), f"{summary(records)}; wrote {target}"]))
    return 0


def run_resolve(command: str, path: str, output: str | None, author: str | None) -> int:
    """``reviewer accept-all`` / ``reject-all``, optionally one author's changes only."""
    from ..docx.edit.resolve import accept_all, reject_all

    target = output_path(command, output)
    reviewer = open_reviewer(path)
    _refuse_protected(path, reviewer)
    accept = command == "accept-all"
    count = (accept_all if accept else reject_all)(reviewer.document, author=author)
    save_output(reviewer.save, target)
    whose = f" by {author}" if author else ""
    write(f"{'accepted' if accept else 'rejected'} {_plural(count, 'change')}{whose}; wrote {target}")
    return 0


def run_finalize(path: str, output: str | None, strip_metadata: bool) -> int:
    """``reviewer finalize``: accept everything, remove every comment, maybe blank metadata."""
    from ..docx.edit.finalize import finalize

    target = output_path("finalize", output)
    reviewer = open_reviewer(path)
    _refuse_protected(path, reviewer)
    done = finalize(reviewer.document, strip_metadata=strip_metadata)
    save_output(reviewer.save, target)
    accepted, removed = (int(str(done.get(key, 0))) for key in ("changesAccepted", "commentsRemoved"))
    parts = [f"accepted {_plural(accepted, 'change')}", f"removed {_plural(removed, 'comment')}"]
    if strip_metadata:
        cleared = [str(name) for name in done.get("metadataCleared") or ()]  # type: ignore[attr-defined]
        parts.append(f"cleared metadata ({', '.join(cleared)})" if cleared else "no metadata to clear")
    write(f"{', '.join(parts)}; wrote {target}")
    return 0


def _refuse_protected(path: str, reviewer: DocxReviewer) -> None:
    """Accepting, rejecting or finalizing would write untracked content into a file protected for
    tracked changes: say so and write nothing."""
    if reviewer.tracked_changes_only:
        raise CliError(f'"{path}": {TRACKED_ONLY_MESSAGE}', EXIT_CANNOT_OPEN)


def run_edit_command(ns: argparse.Namespace) -> int:
    """Dispatch a parsed edit command (one of :data:`EDIT_COMMANDS`)."""
    refuse_files_open_in_reviewer([ns.file, ns.output], ns.force)
    if ns.command == "ops":
        return run_ops(ns.file, ns.batch, ns.output, ns.author)
    if ns.command == "apply":
        return run_apply(ns.file, ns.edits, ns.output, ns.author, ns.json)
    if ns.command in ("accept-all", "reject-all"):
        return run_resolve(ns.command, ns.file, ns.output, ns.author)
    return run_finalize(ns.file, ns.output, ns.strip_metadata)
