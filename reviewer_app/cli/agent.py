"""``reviewer agent FILE "instruction"``: one agent turn from the terminal, the same loop the app runs.

The answer streams to standard output; each tool call, its result and every edit (with its
status) are reported on standard error, so ``> answer.txt`` keeps only the prose. ``--json``
prints every event as one JSON line instead, for scripts. FILE is never changed in place: in
tracked mode the changes are saved to OUT (``-o``); in review mode they wait as proposals in the
review queue the app shows for OUT (or for FILE without ``-o``). The conversation is saved as
the document's transcript, so opening OUT in the app shows it, edit cards included.

Exit status: 0 the turn finished; 1 OUT could not be written; 2 nothing was done (usage, FILE
cannot be opened, no model configured); 3 the model server failed (what applied before is
still saved); 130 stopped with Ctrl-C (nothing saved). ``anthropic`` is imported only when the
command runs; nothing here imports PySide6.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .common import PROG, CliError, check_file, open_reviewer, output_path, review_save, save_output

EXIT_MODEL_FAILED = 3

_EPILOG = """\
exit status:
  0    the turn finished (OUT written when -o is given)
  1    OUT could not be written; FILE is unchanged
  2    nothing was done: a usage error, FILE cannot be opened, or no model is configured
  3    the model server failed; what applied before the failure is still saved to OUT
  130  stopped with Ctrl-C; nothing was saved

The model: --model / REVIEWER_MODEL; the server: --base-url / ANTHROPIC_BASE_URL (Anthropic's API
by default; any server speaking the Anthropic Messages API, e.g. Ollama, for offline work); the key
for Anthropic's API: the ANTHROPIC_API_KEY environment variable, else the one stored in Reviewer's
settings (keyring). That key is only ever sent to Anthropic over HTTPS: another server gets its own
key, REVIEWER_SERVER_API_KEY, else the server key stored for that URL in Reviewer's settings."""


def _add_local_model_options(parser: Any) -> None:
    """--context-window and --api, shared by ``agent`` and ``check-model``."""
    parser.add_argument(
        "--context-window",
        type=int,
        metavar="N",
        help="the model's context window in tokens (default: what an Ollama or llama.cpp server reports)",
    )
    parser.add_argument(
        "--api",
        choices=("anthropic", "openai"),
        help="the server's API: anthropic (Messages API, the default) or openai (/v1/chat/completions)",
    )


def add_mode_option(parser: Any) -> None:
    """--mode: where the agent's changes go (shared by ``agent`` and ``review``)."""
    parser.add_argument(
        "--mode",
        choices=("tracked", "review"),
        default="tracked",
        help="tracked: changes go into the document as tracked changes (default); review: proposals",
    )


def add_model_options(parser: Any) -> None:
    """The model and server options every command that runs the agent takes."""
    parser.add_argument("--model", metavar="M", help="the model name")
    parser.add_argument("--base-url", metavar="URL", help="the model server")
    parser.add_argument("--max-tokens", type=int, metavar="N", help="most tokens per model reply")
    _add_local_model_options(parser)


def add_agent_command(sub: Any) -> None:
    """The ``agent`` parser."""
    agent = sub.add_parser(
        "agent",
        prog=f"{PROG} agent",
        help="run one agent turn on FILE from the terminal",
        description=textwrap.fill(
            "Send one instruction to the agent about FILE and stream its answer. Every change it makes "
            "is a tracked change or a comment (tracked mode, saved to OUT) or a proposal waiting in the "
            "review queue (review mode); nothing is accepted, rejected or finalized.",
            width=90,
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    agent.add_argument("file", metavar="FILE", help="the .docx to work on (it is not changed)")
    agent.add_argument("instruction", help="what to do, in plain words")
    agent.add_argument("-o", "--output", metavar="OUT", help="save the document here afterwards")
    add_mode_option(agent)
    add_model_options(agent)
    agent.add_argument(
        "--profile",
        choices=("auto", "full", "compact", "pipeline"),
        help="what the model is given: auto (from the context window, the default), full, compact "
        "(six tools, for small models) or pipeline (no tools: the document as Markdown, edits as JSON)",
    )
    agent.add_argument("--json", action="store_true", help="print every event as a JSON line")


# ----------------------------------------------------------------------------- printing
class Printer:
    """Prose to stdout as it streams; tool activity to stderr; or JSON lines to stdout."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.at_line_start = True

    def __call__(self, event: Any) -> None:
        if self.as_json:
            sys.stdout.write(json.dumps(event.to_dict(), ensure_ascii=False, default=str) + "\n")
            sys.stdout.flush()
            return
        kind = event.kind
        if kind == "text_delta":
            sys.stdout.write(event.text)
            sys.stdout.flush()
            self.at_line_start = event.text.endswith("\n")
            return
        self._end_line()
        if kind == "tool_call":
            self._note(f"→ {event.name} {_short(event.input)}")
        elif kind == "tool_result":
            self._note(f"  {'ok' if event.ok else 'error'}: {event.summary}")
        elif kind == "edit_batch":
            from ..docx.edit.engine import target_block_id

            for row in event.operations:
                op = row.get("operation") if isinstance(row.get("operation"), dict) else {}
                target = target_block_id(op) or ""
                reason = f": {row['reason']}" if row.get("reason") else ""
                self._note(f"  [{row['status']}] {op.get('type', '?')} {target}{reason}")
            if event.error:
                self._note(f"  [rejected] {event.error}")
        elif kind == "retry":
            self._note(f"(the stream {event.reason}; trying once more)")
        elif kind == "profile_changed":
            self._note(event.message)
        elif kind == "error":
            self._note(f"error: {event.message}")
        elif kind == "turn_done":
            if event.note:
                self._note(event.note)
            usage = event.usage
            tokens = f"{usage.get('input_tokens', 0)} input / {usage.get('output_tokens', 0)} output tokens"
            self._note(
                f"({event.stop_reason}; {event.round_trips} model round trips, "
                f"{event.tool_calls} tool calls, {tokens})"
            )

    def _end_line(self) -> None:
        if not self.at_line_start:
            sys.stdout.write("\n")
            sys.stdout.flush()
            self.at_line_start = True

    @staticmethod
    def _note(text: str) -> None:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def _short(value: Any, limit: int = 100) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ----------------------------------------------------------------------------- the command
async def print_events(events: AsyncIterator[Any], session: Any, printer: Printer) -> str:
    """Print a run's events as they come; the stop reason of its last turn. Closes the session."""
    try:
        stop_reason = "error"
        async for event in events:
            printer(event)
            if event.kind == "turn_done":
                stop_reason = event.stop_reason
        return stop_reason
    finally:
        await session.aclose()


def agent_settings(ns: argparse.Namespace) -> Any:
    """The :class:`AgentSettings` the model options ask for; a CliError (exit 2) when unusable."""
    from ..agent.settings import AgentNotConfiguredError, AgentSettings

    if ns.max_tokens is not None and ns.max_tokens < 1:
        raise CliError("--max-tokens must be a positive whole number.")
    if ns.context_window is not None and ns.context_window < 1:
        raise CliError("--context-window must be a positive whole number.")
    settings = AgentSettings.from_environment(
        model=ns.model,
        base_url=ns.base_url,
        max_tokens=ns.max_tokens,
        context_window=ns.context_window,
        api_style=ns.api,
        tool_profile=getattr(ns, "profile", None),
    )
    try:
        settings.check()
    except AgentNotConfiguredError as exc:
        raise CliError(str(exc)) from None
    return settings


@dataclass
class HeadlessSession:
    """An agent session over FILE the way ``reviewer agent`` and ``reviewer review`` run one.

    The conversation belongs to the document that carries its changes (``keyed``: OUT, or FILE
    in review mode, whose queue holds the proposals); one already kept for it (the app's, or an
    earlier run's) is continued, never overwritten. :meth:`finish` saves OUT and then the
    transcript, only once the document it describes exists.
    """

    reviewer: Any
    bridge: Any
    session: Any
    store: Any
    mode: str
    keyed: Path | None
    identity: str

    @classmethod
    def open(cls, ns: argparse.Namespace, target: Path | None, settings: Any) -> HeadlessSession:
        from ..agent.session import AgentSession
        from ..agent.transcript import Transcript, TranscriptStore, document_identity

        reviewer = open_reviewer(ns.file)
        if ns.mode == "review":
            from ..agent.review_queue import ReviewQueueBridge

            bridge: Any = ReviewQueueBridge(reviewer)
        else:
            from ..agent.bridge import create_reviewer_bridge

            bridge = create_reviewer_bridge(reviewer)
        keyed = target if target is not None else (Path(ns.file) if ns.mode == "review" else None)
        identity = document_identity(reviewer)
        store = TranscriptStore()
        transcript = (store.load(keyed, identity) if keyed is not None else None) or Transcript(
            document_path=str(keyed.resolve()) if keyed is not None else None, identity=identity
        )
        session = AgentSession(bridge, settings, transcript=transcript, document_name=Path(ns.file).name)
        return cls(reviewer, bridge, session, store, ns.mode, keyed, identity)

    def run(self, events: AsyncIterator[Any], printer: Printer) -> str | None:
        """Stream ``events`` to the terminal; the last stop reason, or None after Ctrl-C."""
        import asyncio  # here, not at the top: every other command starts without it

        try:
            return asyncio.run(print_events(events, self.session, printer))
        except KeyboardInterrupt:
            sys.stderr.write("\nstopped; nothing was saved.\n")
            return None

    def finish(self, target: Path | None, quiet: bool) -> None:
        """Save OUT (tracked: the document; review: the document and its queue), then the transcript."""
        if target is not None:
            save_output(
                review_save(self.reviewer, self.bridge) if self.mode == "review" else self.reviewer.save,
                target,
            )
        elif self.mode == "tracked" and not quiet:
            sys.stderr.write("(no -o OUT: the changes were not saved)\n")
        self.session.store = self.store
        self.session.save()


def run_agent(ns: argparse.Namespace) -> int:
    """``reviewer agent``."""
    target = output_path("agent", ns.output) if ns.output else None
    check_file(ns.file)
    headless = HeadlessSession.open(ns, target, agent_settings(ns))
    stop_reason = headless.run(headless.session.send(ns.instruction), Printer(ns.json))
    if stop_reason is None:
        return 130
    headless.finish(target, ns.json)
    return EXIT_MODEL_FAILED if stop_reason == "error" else 0


# ----------------------------------------------------------------------------- check-model
def add_check_model_command(sub: Any) -> None:
    """The ``check-model`` parser: Settings ▸ Test connection, from a terminal (IT sets up a server)."""
    check = sub.add_parser(
        "check-model",
        prog=f"{PROG} check-model",
        help="send one tiny request to the model server and say whether it answers",
        description=textwrap.fill(
            "Send one streamed one-token request (no document text) to the model server with the "
            "settings the agent command would use, and print one sentence: who answered, or what to "
            "fix. Exit status 0 when the server answered, 3 when it did not.",
            width=90,
        ),
    )
    check.add_argument("--model", metavar="M", help="the model name")
    check.add_argument("--base-url", metavar="URL", help="the model server")
    _add_local_model_options(check)


def run_check_model(ns: argparse.Namespace) -> int:
    """``reviewer check-model``."""
    import asyncio

    from ..agent.connection_check import check_connection
    from ..agent.settings import AgentSettings

    settings = AgentSettings.from_environment(
        model=ns.model, base_url=ns.base_url, context_window=ns.context_window, api_style=ns.api
    )
    report = asyncio.run(check_connection(settings))
    (sys.stdout if report.ok else sys.stderr).write(report.message + "\n")
    return 0 if report.ok else EXIT_MODEL_FAILED
