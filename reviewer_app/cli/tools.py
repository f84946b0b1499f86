"""``reviewer tools schema`` and ``reviewer tools run``: the agent's tools without a model.

Scripts and CI use them to see exactly what the model is offered and to replay recorded tool
calls against a document, in tracked mode (changes written into the document) or review mode
(proposals queued for the app). Kept apart from :mod:`.main` because they speak the agent's
layer, not the engine's; the agent modules are imported only when a command runs, and nothing
here imports PySide6.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .common import PROG, CliError, dump_json, open_reviewer, output_path, review_save, save_output


def add_tools_commands(sub: Any) -> None:
    """``tools schema`` and ``tools run``: the agent's tools without a model, for scripts and CI."""
    tools = sub.add_parser(
        "tools",
        prog=f"{PROG} tools",
        help="print the agent's tool definitions, or run tool calls against a document",
        description="The agent's tools, headless: 'schema' prints their definitions, 'run' "
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
    from ..agent.executor import execute_tool_call
    from ..agent.tools import get_tool_definitions, to_anthropic_tools, to_openai_tools

    if ns.tools_command == "schema":
        convert = to_openai_tools if ns.format == "openai" else to_anthropic_tools
        dump_json(convert(get_tool_definitions()))
        return 0
    target = output_path("tools run", ns.output) if ns.output else None
    reviewer = open_reviewer(ns.file)
    calls = _tool_calls(ns.calls)
    if ns.mode == "review":
        from ..agent.review_queue import ReviewQueueBridge

        bridge: Any = ReviewQueueBridge(reviewer)
    else:
        from ..agent.bridge import create_reviewer_bridge

        bridge = create_reviewer_bridge(reviewer)
    for number, call in calls:
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            expected = 'expected {"name": ..., "input": {...}}'
            envelope = {"ok": False, "error": f"line {number} is not a tool call: {expected}."}
        else:
            envelope = execute_tool_call(call["name"], call.get("input", {}), bridge)
        sys.stdout.write(json.dumps(envelope, ensure_ascii=False) + "\n")
    if target is not None:
        save_output(review_save(reviewer, bridge) if ns.mode == "review" else reviewer.save, target)
    return 0
