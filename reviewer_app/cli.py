"""The ``reviewer`` command: start the desktop app, or read a document from the terminal.

``reviewer [FILE]`` starts the app (on the bundled sample contract when no file is given);
``reviewer read FILE`` and ``reviewer outline FILE`` print what the agent would see, so a
document can be checked without a window, in scripts and in CI. The edit commands (``ops``,
``apply``, ``accept-all``, ``reject-all``, ``finalize``) run the same engine headless, for
pipelines that send the Markdown view to a model and write its answer back as tracked changes;
they never change FILE in place: the result goes to the file ``-o`` names.

This module must not import PySide6: the reading commands run on machines without a display
and the layer test imports it in a bare interpreter. The app is imported only when started.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .docx import DocxOpenError, DocxReviewer
from .docx.snapshot import Snapshot

PROG = "reviewer"
#: Exit status for "this file cannot be opened" (and for usage errors, as argparse does).
EXIT_CANNOT_OPEN = 2
COMMANDS = ("read", "outline", "ops", "apply", "accept-all", "reject-all", "finalize", "tools")
#: Exit status when the output file could not be written (the input was fine).
EXIT_CANNOT_WRITE = 1
#: Input JSON files larger than this are refused (edit batches are a few kilobytes).
MAX_JSON_BYTES = 64 * 1024 * 1024
#: Deepest heading level Word has (outline levels 0-8).
MAX_HEADING_LEVEL = 9

_USAGE = """\
reviewer [FILE]                            start the app (the sample contract when no FILE)
       reviewer read FILE [-f markdown|json]      print the document as the agent reads it
       reviewer outline FILE [-d N]               print the heading outline
       reviewer ops FILE BATCH.json -o OUT        apply a contract operation batch
       reviewer apply FILE EDITS.json -o OUT      apply the LLM pipeline's edit JSON
       reviewer accept-all|reject-all FILE -o OUT resolve tracked changes
       reviewer finalize FILE -o OUT              accept all changes, remove all comments
       reviewer tools schema [--format anthropic|openai]   print the agent's tool definitions
       reviewer tools run FILE --calls CALLS.jsonl [--mode tracked|review] [-o OUT]
       reviewer --version"""


class CliError(Exception):
    """A failure the user can act on: printed as ``reviewer: <message>`` with no traceback."""

    def __init__(self, message: str, code: int = EXIT_CANNOT_OPEN) -> None:
        super().__init__(message)
        self.code = code


# ----------------------------------------------------------------------------- parsers
def _app_parser() -> argparse.ArgumentParser:
    """Parser for ``reviewer [FILE]`` (the default: start the desktop app)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        usage=_USAGE,
        description="Review Word contracts with an AI agent; every change is a tracked change "
        "or a comment.",
        epilog="Run 'reviewer read --help' or 'reviewer outline --help' for the reading commands, "
        "'reviewer COMMAND --help' for the edit commands.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("file", nargs="?", help="the .docx to open (default: the sample contract)")
    # Smoke tests and packaging checks start the real app and need it to leave on its own.
    parser.add_argument("--quit-after", type=int, metavar="MS", help=argparse.SUPPRESS)
    return parser


def _depth(value: str) -> int:
    """argparse type for ``--depth``: a heading level from 1 to 9."""
    try:
        depth = int(value)
    except ValueError:
        depth = 0
    if not 1 <= depth <= MAX_HEADING_LEVEL:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {MAX_HEADING_LEVEL}")
    return depth


def _commands_parser() -> argparse.ArgumentParser:
    """Parser for the terminal commands (``read``, ``outline``)."""
    parser = argparse.ArgumentParser(prog=PROG, usage=_USAGE)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    read = sub.add_parser(
        "read",
        prog=f"{PROG} read",
        help="print the document as the agent reads it",
        description="Print the document as the agent reads it: blocks with ids, list labels, "
        "tracked changes and comments.",
    )
    read.add_argument("file", help="the .docx to read")
    read.add_argument(
        "-f", "--format", choices=("markdown", "json"), default="markdown", help="output format"
    )
    outline = sub.add_parser(
        "outline",
        prog=f"{PROG} outline",
        help="print the heading outline",
        description="Print the document's headings, indented by level, with labels and block ids.",
    )
    outline.add_argument("file", help="the .docx to read")
    outline.add_argument(
        "-d",
        "--depth",
        type=_depth,
        default=MAX_HEADING_LEVEL,
        metavar="N",
        help="show headings down to level N (1-9, default: all)",
    )
    _add_edit_commands(sub)
    _add_tools_commands(sub)
    return parser


_EXIT_CODES = """\
exit status:
  0  done: OUT was written{ran}
  1  OUT could not be written (disk full, no permission); FILE is unchanged
  2  nothing was done: a usage error (such as a missing -o), FILE cannot be opened{inputs}

FILE is never changed in place: the result is written (atomically) to the file -o names,
which may be FILE itself when you mean to overwrite it."""


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
    return parser


def _add_output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="OUT", help="where to write the result (required)")


def _add_edit_commands(sub: Any) -> None:
    """Parsers for ``ops``, ``apply``, ``accept-all``, ``reject-all`` and ``finalize``."""
    ops = _edit_parser(
        sub,
        "ops",
        "apply a contract operation batch",
        "Apply a document operation batch (tool contract §5.4: {version: 1, operations: [...]}) as "
        "tracked changes and comments, and print the result envelope as JSON.",
        ran=" (even when some operations were skipped: see \"skipped\" in the JSON;\n"
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
def _cannot_open(path: str, detail: str) -> CliError:
    """Phrase a refusal the way :class:`DocxOpenError` does, so every message reads alike."""
    return CliError(f'"{path}" cannot be opened: {detail}')


def check_file(path: str) -> Path:
    """Refuse missing files and folders before anything is read (exit 2, plain message)."""
    candidate = Path(path)
    if not candidate.exists():
        raise _cannot_open(path, "there is no such file.")
    if candidate.is_dir():
        raise _cannot_open(path, "it is a folder, not a Word document.")
    return candidate


def _open_reviewer(path: str, author: str | None = None) -> DocxReviewer:
    """Open ``path`` with the engine; a refusal becomes a :class:`CliError` with its message."""
    check_file(path)
    try:
        reviewer = DocxReviewer.open(path) if author is None else DocxReviewer.open(path, author=author)
        reviewer.snapshot()  # parse now, so a broken main part is refused here, as a refusal
    except DocxOpenError as exc:
        raise CliError(str(exc)) from None
    return reviewer


def _entry_value(entry: Any, *names: str) -> Any:
    """Read the first present field of an outline entry, whether a mapping or an object."""
    for name in names:
        value = entry.get(name) if isinstance(entry, dict) else getattr(entry, name, None)
        if value is not None:
            return value
    return None


def _outline_entries(snapshot: Snapshot, max_depth: int) -> list[Any] | None:
    """Entries from :mod:`reviewer_app.docx.outline` (the agent's outline), None without it."""
    try:
        from .docx import outline as outline_module
    except ImportError:
        return None
    get_outline = getattr(outline_module, "get_outline", None)
    if get_outline is None:
        return None
    result = get_outline(snapshot, max_depth=max_depth)
    if isinstance(result, dict):  # the tool's shape: {sections, totalSections, truncated}
        result = result.get("sections", [])
    return list(result)


def outline_lines(reviewer: DocxReviewer, max_depth: int = MAX_HEADING_LEVEL) -> list[str]:
    """One line per heading, indented two spaces per level below 1: ``label text  [id]``.

    Uses the engine's outline (the same one the agent's ``get_document_outline`` returns)
    when present; otherwise every content block with a heading level.
    """
    snapshot = reviewer.snapshot()
    rows: list[tuple[int, str | None, str, str]] = []
    entries = _outline_entries(snapshot, max_depth)
    if entries is not None:
        for entry in entries:
            block_id = str(_entry_value(entry, "headingBlockId", "heading_block_id", "id"))
            block = snapshot.block(block_id)
            level = int(_entry_value(entry, "level", "headingLevel", "heading_level") or 1)
            text = str(_entry_value(entry, "text") or (block.text if block else ""))
            rows.append((level, block.display_label if block else None, text, block_id))
    else:
        for block in snapshot.content_blocks():
            if block.heading_level and block.heading_level <= max_depth:
                rows.append((block.heading_level, block.display_label, block.text, block.id))
    lines = []
    for level, label, text, block_id in rows:
        flat = " ".join(text.split())
        shown = f"{label} {flat}" if label else flat
        lines.append(f"{'  ' * max(level - 1, 0)}{shown}  [{block_id}]")
    return lines


def _write(text: str) -> None:
    """Print ``text`` with one trailing newline."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


# ----------------------------------------------------------------------------- commands
def run_read(path: str, fmt: str) -> int:
    """``reviewer read``: the LLM view as Markdown, or as pretty-printed JSON."""
    reviewer = _open_reviewer(path)
    from .docx import llm_view

    if fmt == "json":
        data = llm_view.to_json(reviewer)
        if isinstance(data, str):  # already serialized: re-indent for people
            data = json.loads(data)
        _write(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        _write(llm_view.to_markdown(reviewer))
    return 0


def run_outline(path: str, max_depth: int = MAX_HEADING_LEVEL) -> int:
    """``reviewer outline``: headings indented by level."""
    reviewer = _open_reviewer(path)
    lines = outline_lines(reviewer, max_depth)
    _write("\n".join(lines) if lines else "(no headings)")
    return 0


# ----------------------------------------------------------------------------- edit commands
def _output_path(command: str, output: str | None) -> Path:
    """The ``-o`` target: required, and in a folder that exists (checked before any work)."""
    if not output:
        raise CliError(
            f"{command} needs -o OUT: it never changes FILE in place. Name the file to write "
            "(-o FILE overwrites FILE on purpose)."
        )
    target = Path(output)
    if target.is_dir():
        raise CliError(f'cannot write "{output}": it is a folder.')
    if not target.absolute().parent.is_dir():
        raise CliError(f'cannot write "{output}": the folder "{target.absolute().parent}" does not exist.')
    return target


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


def _save(reviewer: DocxReviewer, target: Path) -> None:
    """Write atomically; a failure is exit 1 (the input was fine, the output could not be written)."""
    try:
        reviewer.save(target)
    except OSError as exc:
        raise CliError(f'cannot write "{target}": {exc.strerror or exc}.', EXIT_CANNOT_WRITE) from None


def _dump(data: Any) -> None:
    _write(json.dumps(data, indent=2, ensure_ascii=False))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def run_ops(path: str, batch_path: str, output: str | None, author: str | None) -> int:
    """``reviewer ops``: a contract batch through ``DocxReviewer.apply_operations``; JSON out."""
    from .docx.edit.batch import ContractError

    target = _output_path("ops", output)
    reviewer = _open_reviewer(path, author)
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
        _save(reviewer, target)
    _dump(result)
    return 0


def run_apply(path: str, edits_path: str, output: str | None, author: str | None, as_json: bool) -> int:
    """``reviewer apply``: the pipeline's edit JSON (logic in :mod:`.docx.pipeline_edits`)."""
    from .docx.pipeline_edits import PipelineEditError, apply_pipeline_edits, status_line, summary

    target = _output_path("apply", output)
    reviewer = _open_reviewer(path, author)
    data = load_json_file(edits_path)
    try:
        records = apply_pipeline_edits(reviewer, data)
    except PipelineEditError as exc:
        shown = "standard input" if edits_path == "-" else f'"{edits_path}"'
        raise CliError(f"{shown} is not pipeline edit JSON: {exc}.") from None
    _save(reviewer, target)
    if as_json:
        _dump(records)
    else:
        _write("\n".join([*(status_line(r) for r in records), f"{summary(records)}; wrote {target}"]))
    return 0


def run_resolve(command: str, path: str, output: str | None, author: str | None) -> int:
    """``reviewer accept-all`` / ``reject-all``, optionally one author's changes only."""
    from .docx.edit.resolve import accept_all, reject_all

    target = _output_path(command, output)
    reviewer = _open_reviewer(path)
    accept = command == "accept-all"
    count = (accept_all if accept else reject_all)(reviewer.document, author=author)
    _save(reviewer, target)
    whose = f" by {author}" if author else ""
    _write(f"{'accepted' if accept else 'rejected'} {_plural(count, 'change')}{whose}; wrote {target}")
    return 0


def run_finalize(path: str, output: str | None, strip_metadata: bool) -> int:
    """``reviewer finalize``: accept everything, remove every comment, maybe blank metadata."""
    from .docx.edit.finalize import finalize

    target = _output_path("finalize", output)
    reviewer = _open_reviewer(path)
    done = finalize(reviewer.document, strip_metadata=strip_metadata)
    _save(reviewer, target)
    accepted, removed = (int(str(done.get(key, 0))) for key in ("changesAccepted", "commentsRemoved"))
    parts = [f"accepted {_plural(accepted, 'change')}", f"removed {_plural(removed, 'comment')}"]
    if strip_metadata:
        cleared = [str(name) for name in done.get("metadataCleared") or ()]  # type: ignore[attr-defined]
        parts.append(f"cleared metadata ({', '.join(cleared)})" if cleared else "no metadata to clear")
    _write(f"{', '.join(parts)}; wrote {target}")
    return 0


def _run_command(ns: argparse.Namespace) -> int:
    """Dispatch a parsed terminal command."""
    if ns.command == "read":
        return run_read(ns.file, ns.format)
    if ns.command == "outline":
        return run_outline(ns.file, ns.depth)
    if ns.command == "ops":
        return run_ops(ns.file, ns.batch, ns.output, ns.author)
    if ns.command == "apply":
        return run_apply(ns.file, ns.edits, ns.output, ns.author, ns.json)
    if ns.command in ("accept-all", "reject-all"):
        return run_resolve(ns.command, ns.file, ns.output, ns.author)
    if ns.command == "tools":
        return run_tools(ns)
    return run_finalize(ns.file, ns.output, ns.strip_metadata)


# ----------------------------------------------------------------------------- agent tools
def _add_tools_commands(sub: Any) -> None:
    """``tools schema`` and ``tools run``: the agent's tools without a model, for scripts and CI."""
    tools = sub.add_parser(
        "tools",
        prog=f"{PROG} tools",
        help="print the agent's tool definitions, or run tool calls against a document",
        description="The agent's 16 tools, headless: 'schema' prints their definitions, 'run' "
        "executes recorded tool calls against a document the way the agent would.",
    )
    actions = tools.add_subparsers(dest="tools_command", required=True, metavar="ACTION")
    schema = actions.add_parser("schema", prog=f"{PROG} tools schema", help="print the tool definitions")
    schema.add_argument(
        "--format", choices=("anthropic", "openai"), default="anthropic", help="provider shape"
    )
    run = actions.add_parser(
        "run",
        prog=f"{PROG} tools run",
        help="run tool calls (JSON lines) against FILE",
        description='Run one tool call per line of CALLS.jsonl ({"name": ..., "input": {...}}) in one '
        "document session and print one result envelope per line. Tracked mode writes changes as "
        "tracked changes and comments, saved to OUT when -o is given. Review mode writes nothing into "
        "the document: operations wait as proposals in the review queue the app shows for FILE (for "
        "OUT with -o).",
    )
    run.add_argument("file", metavar="FILE", help="the .docx to work on (it is not changed)")
    run.add_argument(
        "--calls", required=True, metavar="CALLS.jsonl", help="the calls ('-' reads standard input)"
    )
    run.add_argument("--mode", choices=("tracked", "review"), default="tracked", help="where changes go")
    run.add_argument("-o", "--output", metavar="OUT", help="save the document here afterwards (optional)")


def _tool_calls(path: str) -> list[tuple[int, Any]]:
    """(line number, decoded call) for every non-blank line; a bad line is kept as its message."""
    shown = "standard input" if path == "-" else f'"{path}"'
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            check = Path(path)
            if not check.is_file():
                raise CliError(f"{shown} cannot be read: there is no such file.")
            text = check.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"{shown} cannot be read: {exc}.") from None
    calls: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                calls.append((number, json.loads(line)))
            except (json.JSONDecodeError, RecursionError):
                calls.append((number, None))
    return calls


def run_tools(ns: argparse.Namespace) -> int:
    """``reviewer tools schema`` / ``reviewer tools run``."""
    from .agent.executor import execute_tool_call
    from .agent.tools import get_tool_definitions, to_anthropic_tools, to_openai_tools

    if ns.tools_command == "schema":
        convert = to_openai_tools if ns.format == "openai" else to_anthropic_tools
        _dump(convert(get_tool_definitions()))
        return 0
    target = _output_path("tools run", ns.output) if ns.output else None
    reviewer = _open_reviewer(ns.file)
    calls = _tool_calls(ns.calls)
    if ns.mode == "review":
        from .agent.review_queue import ReviewQueueBridge

        bridge: Any = ReviewQueueBridge(reviewer)
    else:
        from .agent.bridge import create_reviewer_bridge

        bridge = create_reviewer_bridge(reviewer)
    for number, call in calls:
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            expected = 'expected {"name": ..., "input": {...}}'
            envelope = {"ok": False, "error": f"line {number} is not a tool call: {expected}."}
        else:
            envelope = execute_tool_call(call["name"], call.get("input", {}), bridge)
        sys.stdout.write(json.dumps(envelope, ensure_ascii=False) + "\n")
    if target is not None:
        try:
            bridge.save_document(target) if ns.mode == "review" else reviewer.save(target)
        except OSError as exc:
            raise CliError(f'cannot write "{target}": {exc.strerror or exc}.', EXIT_CANNOT_WRITE) from None
    return 0


def run_app(path: str | None, quit_after_ms: int | None = None) -> int:
    """Start the desktop app; PySide6 is imported here and nowhere else in this module."""
    if path is not None:
        check_file(path)
    from .app import main as app_main

    return app_main(path, quit_after_ms=quit_after_ms)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``reviewer`` console script and of ``python -m reviewer_app``."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in COMMANDS:
            return _run_command(_commands_parser().parse_args(args))
        ns = _app_parser().parse_args(args)
        return run_app(ns.file, ns.quit_after)
    except CliError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return exc.code
    except BrokenPipeError:
        # `reviewer read big.docx | head`: the reader left; that is not an error.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
