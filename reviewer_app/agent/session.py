"""``AgentSession``: one conversation about one document, driven turn by turn (agent-loop.md).

``async for event in session.send(text)`` runs one turn: the model is streamed through
``anthropic.AsyncAnthropic(...).messages.stream(...)`` with the 17 tools; every tool call it
makes is executed with ``execute_tool_call`` against the session's bridge, in order, on the
calling thread, and *both* outcomes go back as the tool_result (an error as the plain sentence
with ``is_error``), so the model sees every skip reason and can re-read and retry. The turn ends
when the model stops, when a budget cuts it, when the user stops it, or when the server fails;
the last event is always one ``turn_done`` (see :mod:`.events`).

Stopping: :meth:`AgentSession.cancel` ends the current await at once (the stream is closed),
keeps the results of tool calls that already ran (their changes are in the document or the
queue and are listed in ``turn_done.ran``), answers the calls that did not run with "not run:
stopped by the user", records "stopped by the user" in the transcript, and leaves the session
ready for the next message. Cancelling the consuming task (the chat's Stop button) does the same
bookkeeping, without the final event.

The session never retries a mutating call on its own (an operation id makes a resend a replay,
but the decision to resend is the model's), and it has no way to accept, reject or save.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any

from .context_budget import Budget, ContextTooSmallError, estimate_tokens, fit_result
from .events import (
    PIPELINE_SWITCH_MESSAGES,
    AgentEvent,
    ErrorEvent,
    ProfileChanged,
    Retry,
    TextDelta,
    ToolCall,
    TurnDone,
)
from .executor import ToolRun
from .history import NOT_RUN_ENDED, append_user_text, assistant_content, render, repair
from .host_tools import HostTool
from .model_info import discover
from .model_stream import ModelCaller, Response, StopGuard, Stopped, host_of_client
from .pipeline_turn import pipeline_turn
from .profiles import choose_profile, definitions_for, options_for, preamble_tokens
from .prompt import continuation_note, new_nonce, system_prompt
from .review_queue import ReviewQueueBridge
from .settings import AgentNotConfiguredError, AgentSettings, is_anthropic_endpoint
from .suggest_changes import SuggestChangesOptions
from .tool_registry import DOCUMENT_TEXT_TOOLS
from .tools import to_anthropic_tools
from .transcript import STOPPED_BY_USER, Transcript, TranscriptStore
from .turn_state import Turn
from .turn_tools import TurnTools

log = logging.getLogger(__name__)

NOT_RUN_STOPPED = f"not run: {STOPPED_BY_USER}"
CUT_BY_MAX_TOKENS = (
    "not run: your reply reached the max_tokens limit before this call was complete; send it again, "
    "smaller (fewer operations per call)"
)
CUT_NOTE_FOR_MODEL = "[Your previous turn was cut at the round-trip limit; the user may ask you to continue.]"
OTHER_CALL_BAD_JSON = (
    "not run: another call in the same reply had arguments that were not valid JSON; send it again"
)


#: how a server says the model takes no tools (Ollama: "<model> does not support tools")
NO_TOOLS = re.compile(
    r"does not support tools|tools? (?:are|is) not supported|tool use is not supported", re.I
)
#: tool calls with unreadable arguments before the session falls back to the pipeline
TOOL_FORMAT_FAILURES = 2


def _round_trip_refusal(limit: int) -> str:
    return f"not run: this turn reached its limit of {limit} model round trips"


def _round_trip_note(limit: int) -> str:
    return (
        f"The turn was cut after {limit} model round trips, the limit for one turn; the model's last "
        "tool calls were not run. Ask it to continue if there is more to do."
    )


def _bad_json_refusal(name: str, detail: str) -> str:
    return (
        f"The arguments of this {name} call were not valid JSON ({detail}); "
        "send the call again with a JSON object."
    )


class AgentSession:
    """One conversation about one document (see the module docstring)."""

    def __init__(
        self,
        bridge: Any,
        client_or_settings: Any = None,
        settings: AgentSettings | None = None,
        *,
        options: SuggestChangesOptions | None = None,
        review_mode: bool | None = None,
        document_name: str | None = None,
        transcript: Transcript | None = None,
        store: TranscriptStore | None = None,
        host_tools: Sequence[HostTool] = (),
    ) -> None:
        """``client_or_settings``: an ``anthropic.AsyncAnthropic`` (or anything with the same
        ``messages.stream``), or :class:`AgentSettings` (a client is made on the first turn and
        closed by :meth:`aclose`). ``transcript``: a saved conversation to continue; ``store``
        saves the transcript after every turn when the transcript names a document path.
        ``host_tools``: tools the app runs itself (:mod:`.host_tools`), offered after the 16 on
        each request they describe themselves for, counted in the budgets like any call.
        """
        if isinstance(client_or_settings, AgentSettings):
            settings = settings or client_or_settings
            client_or_settings = None
        self.settings = settings or AgentSettings.from_environment()
        self.bridge = bridge
        self._client = client_or_settings
        self._owns_client = client_or_settings is None
        self.host_options = options or SuggestChangesOptions(max_operations=self.settings.max_operations)
        self.review_mode = isinstance(bridge, ReviewQueueBridge) if review_mode is None else review_mode
        self.nonce = new_nonce()
        self.document_name = document_name
        self.host_tools = {tool.name: tool for tool in host_tools}
        #: the context window (a setting, or learned from the server on the first turn)
        self.context_window = self.settings.context_window
        self._room_asked = self.context_window is not None or is_anthropic_endpoint(self.settings.base_url)
        self._tool_format_failures = 0
        self.use_profile(self._chosen_profile())
        self.store = store
        self.transcript = transcript or Transcript()
        self.transcript.model = self.settings.model
        self._pending_note: str | None = None
        if self.transcript.messages:
            self._restore()
        self._guard = StopGuard()
        self._caller: ModelCaller | None = None
        self._timeout: Any = None
        self._turn: Turn | None = None
        #: the most recent turn (also after it ended or was cancelled): what ran, usage, counters
        self.last_turn: Turn | None = None

    # ------------------------------------------------------------------ profile and budget
    def use_profile(self, profile: str) -> None:
        """Give the model ``profile``'s tools, options and system prompt (see :mod:`.profiles`)."""
        self.profile = profile
        self.options = options_for(profile, self.host_options)
        self.tools = to_anthropic_tools(definitions_for(profile, self.host_options))
        self.system_prompt = system_prompt(
            nonce=self.nonce,
            review_mode=self.review_mode,
            options=self.options,
            document_name=self.document_name,
            max_round_trips=self.settings.max_round_trips,
            max_tool_calls=self.settings.max_tool_calls,
            max_live_reads=self.settings.max_live_reads,
            compact=profile == "compact",
        )

    def _chosen_profile(self) -> str:
        compact = definitions_for("compact", self.host_options)
        prompt = system_prompt(nonce=self.nonce, review_mode=self.review_mode, compact=True)
        weight = preamble_tokens(prompt, to_anthropic_tools(compact))
        settings = self.settings
        return choose_profile(settings.tool_profile, self.context_window, settings.max_tokens, weight)

    @property
    def budget(self) -> Budget | None:
        """What one request may spend, when the model's context window is known."""
        if self.context_window is None:
            return None
        return Budget(self.context_window, self.settings.max_tokens)

    async def _learn_room(self) -> None:
        """Ask a non-Anthropic server for its model's window once, and pick the profile it affords."""
        if self._room_asked:
            return
        self._room_asked = True
        info = await self._guard.run(discover(self.settings.base_url or "", self.settings.model))
        if info.context_window:
            self.context_window = info.context_window
            log.info("the model's context window is %s tokens (%s)", info.context_window, info.source)
            self.use_profile(self._chosen_profile())

    def _switch_to_pipeline(self, turn: Turn, reason: str) -> ProfileChanged:
        """Go on without tools (the model cannot call them); the event tells the user why."""
        log.info("switching to the pipeline: %s", reason)
        self.use_profile("pipeline")
        turn.response = None
        return ProfileChanged("pipeline", reason, PIPELINE_SWITCH_MESSAGES[reason])

    def _room_left(self, turn: Turn) -> int:
        """Tokens a new read result may take (large when unbounded).

        Half the room the conversation has under the window, less the results already collected
        for the same reply: the next read still fits, and older reads give way when they must
        (:meth:`.Budget.fit_history`).
        """
        budget = self.budget
        if budget is None:
            return 1 << 30
        room = budget.input_limit - preamble_tokens(self.system_prompt, self._offered_tools())
        pending = [{"role": "user", "content": list(turn.results)}] if turn.results else []
        return room // 2 - (estimate_tokens(render(pending, self.nonce)) if pending else 0)

    # ------------------------------------------------------------------ public API
    @property
    def messages(self) -> list[dict[str, Any]]:
        """The model-facing history (tool results unfenced; they are fenced when sent)."""
        return self.transcript.messages

    @property
    def busy(self) -> bool:
        return self._turn is not None

    def cancel(self) -> bool:
        """Stop the running turn as soon as possible; False when no turn is running."""
        if self._turn is None:
            return False
        self._guard.stop()
        return True

    async def aclose(self) -> None:
        """Close the client this session made (a client handed in belongs to the caller)."""
        if self._owns_client and self._client is not None:
            client, self._client, self._caller = self._client, None, None
            await client.close()

    async def __aenter__(self) -> AgentSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def send(self, text: str) -> AsyncIterator[AgentEvent]:
        """Run one turn for the user's ``text``, yielding its events (the last is ``turn_done``)."""
        if self._turn is not None:
            raise RuntimeError("A turn is already running in this session; stop it or wait for it to end.")
        turn = Turn(
            TurnTools(
                self.bridge,
                self.options,
                self.settings.max_tool_calls,
                self.settings.max_live_reads,
                self.review_mode,
                self.host_tools,
            )
        )
        turn.user_text = text
        self._turn = self.last_turn = turn
        self._guard.reset()
        self._append_user_text(text)
        self.transcript.log("user", text=text)
        try:
            async with contextlib.aclosing(self._run(turn)) as events:
                async for event in events:
                    self._record(event, turn)
                    if isinstance(event, TurnDone):
                        self._finish(turn)  # a consumer may stop iterating right after turn_done
                    yield event
        except (asyncio.CancelledError, GeneratorExit):
            if turn.stop_reason is not None:  # the consumer left after turn_done: nothing to settle
                raise
            await self._settle_stop(turn)
            self._record(
                TurnDone(
                    "cancelled",
                    dict(turn.usage),
                    turn.round_trips,
                    turn.tools.calls,
                    STOPPED_BY_USER,
                    turn.ran,
                ),
                turn,
            )
            raise
        finally:
            self._finish(turn)

    def _finish(self, turn: Turn) -> None:
        """The turn is over: the session takes the next message; the transcript is saved."""
        if self._turn is turn:
            self._turn = None
            self.save()

    def save(self) -> None:
        """Write the transcript (when a store and a document path are set); never the API key."""
        if self.store is None or not self.transcript.document_path:
            return
        try:
            self.store.save(self.transcript, secrets=(self.settings.api_key, self._client_key()))
        except OSError as error:
            log.warning("the transcript could not be saved: %s", error)

    # ------------------------------------------------------------------ the loop
    async def _run(self, turn: Turn) -> AsyncIterator[AgentEvent]:
        try:
            caller = self._model_caller()
        except AgentNotConfiguredError as error:
            self._pending_note = "[The previous request could not be sent: no model was configured.]"
            yield ErrorEvent(str(error), self.settings.host)
            yield self._done(turn, "error")
            return
        try:
            await self._learn_room()
            turn.tools.options = self.options
            while True:
                if self.profile == "pipeline":
                    async for event in pipeline_turn(self, turn, caller, turn.user_text):
                        yield event
                    answered = turn.response is not None and turn.response.message is not None
                    yield self._done(turn, "end_turn" if answered else "error")
                    return
                turn.round_trips += 1
                turn.response = response = Response()
                refused_tools = False
                async with contextlib.aclosing(caller.call(self._request(), response)) as stream:
                    async for event in stream:
                        if isinstance(event, ErrorEvent) and NO_TOOLS.search(event.message):
                            refused_tools = True
                            continue
                        yield event
                if refused_tools:  # the server says the model takes no tools: the pipeline instead
                    yield self._switch_to_pipeline(turn, "no_tools")
                    continue
                if response.bad_tool_json is not None:
                    self._tool_format_failures += 1
                if response.message is None:
                    self._pending_note = "[The previous request failed before you finished answering.]"
                    yield self._done(turn, "error")
                    return
                message = response.message
                turn.add_usage(message.usage)
                content = assistant_content(message)
                if content:
                    self.messages.append({"role": "assistant", "content": content})
                uses = [block for block in content if block["type"] == "tool_use"]
                stop_reason = "tool_use" if response.bad_tool_json else (message.stop_reason or "end_turn")
                if not uses:
                    if stop_reason == "pause_turn" and turn.round_trips < self.settings.max_round_trips:
                        continue
                    yield self._done(turn, stop_reason, self._note_for(stop_reason))
                    return
                refuse_all: str | None = None
                cut = False
                if stop_reason == "max_tokens":
                    refuse_all = CUT_BY_MAX_TOKENS
                elif turn.round_trips >= self.settings.max_round_trips:
                    refuse_all, cut = _round_trip_refusal(self.settings.max_round_trips), True
                turn.open_uses, turn.results = uses, []
                for index, use in enumerate(uses):
                    if self._guard.stopped:
                        raise Stopped
                    refusal = refuse_all
                    if response.bad_tool_json is not None:
                        last = index == len(uses) - 1
                        refusal = (
                            _bad_json_refusal(use["name"], response.bad_tool_json)
                            if last
                            else OTHER_CALL_BAD_JSON
                        )
                    async for event in self._call_tool(turn, use, refusal):
                        yield event
                self._close_results(turn, NOT_RUN_ENDED)
                if self._tool_format_failures >= TOOL_FORMAT_FAILURES:
                    yield self._switch_to_pipeline(turn, "bad_tool_format")
                if cut:
                    note = _round_trip_note(self.settings.max_round_trips)
                    self._pending_note = CUT_NOTE_FOR_MODEL
                    yield self._done(turn, "round_trip_limit", note)
                    return
                if self._guard.stopped:
                    raise Stopped
        except Stopped:
            await self._settle_stop(turn)
            yield self._done(turn, "cancelled", STOPPED_BY_USER)
        except ContextTooSmallError as error:
            self._close_results(turn, NOT_RUN_ENDED)
            self._pending_note = "[The previous request was too large for the model's context.]"
            yield ErrorEvent(str(error), self.settings.host)
            yield self._done(turn, "error")
        except Exception as error:  # a bug of ours must not take the app down with it
            log.exception("the agent loop failed")
            self._close_results(turn, NOT_RUN_ENDED)
            self._pending_note = "[The previous turn ended with an internal error.]"
            yield ErrorEvent(f"the agent stopped unexpectedly: {type(error).__name__}: {error}")
            yield self._done(turn, "error")

    async def _call_tool(
        self, turn: Turn, use: dict[str, Any], refusal: str | None
    ) -> AsyncIterator[AgentEvent]:
        """Run one tool_use block (or refuse it) and yield its events; its result is kept first."""
        name, args, use_id = use["name"], use["input"], use["id"]
        yield ToolCall(use_id, name, args)
        if self._guard.stopped:  # stopped on seeing the call: it does not start
            raise Stopped
        refusal = refusal or turn.tools.refusal(name)
        if refusal is not None:
            outcome = turn.tools.refused(use_id, name, refusal)
        else:
            run = await self._execute(turn, name, args)
            envelope = run.envelope
            if name in DOCUMENT_TEXT_TOOLS and envelope.get("ok") and self.budget is not None:
                envelope = {**envelope, "result": fit_result(envelope.get("result"), self._room_left(turn))}
            outcome = turn.tools.outcome(use_id, name, args, envelope, run.outcome)
        turn.last_outcome = outcome
        turn.results.append(outcome.block())
        yield outcome.result_event
        if outcome.edit_event is not None:
            yield outcome.edit_event

    async def _execute(self, turn: Turn, name: str, args: Any) -> ToolRun:
        if not self.settings.tools_in_thread:
            return turn.tools.execute(name, args)
        loop = asyncio.get_running_loop()
        turn.running = loop.run_in_executor(None, turn.tools.execute, name, args)
        try:
            run = await self._guard.run(asyncio.shield(turn.running))
        except Stopped:
            run = await turn.running  # a call that started keeps its result
            use = turn.open_uses[len(turn.results)]
            turn.results.append(turn.tools.outcome(use["id"], name, args, run.envelope).block())
            raise
        finally:
            if turn.running is not None and turn.running.done():
                turn.running = None
        return run

    async def _settle_stop(self, turn: Turn) -> None:
        """Bookkeeping for a stopped turn: finish a running tool, answer the rest, note it."""
        if turn.running is not None:
            with contextlib.suppress(BaseException):
                run = await turn.running
                if len(turn.results) < len(turn.open_uses):
                    use = turn.open_uses[len(turn.results)]
                    outcome = turn.tools.outcome(use["id"], use["name"], use["input"], run.envelope)
                    turn.results.append(outcome.block())
            turn.running = None
        response = turn.response
        partial = "".join(response.text) if response is not None and response.message is None else ""
        if partial.strip() and not turn.open_uses:
            self.messages.append({"role": "assistant", "content": [{"type": "text", "text": partial}]})
        self._close_results(turn, NOT_RUN_STOPPED)
        self.transcript.log("stopped", text=STOPPED_BY_USER, ran=turn.ran)
        self._pending_note = "[The user stopped your previous turn; the tool calls listed above ran.]"

    def _close_results(self, turn: Turn, reason: str) -> None:
        """Answer every open tool_use (missing ones with ``reason``) in one user message."""
        if not turn.open_uses:
            return
        answered = {block["tool_use_id"] for block in turn.results}
        for use in turn.open_uses:
            if use["id"] not in answered:
                turn.results.append(turn.tools.refused(use["id"], use["name"], reason).block())
        self.messages.append({"role": "user", "content": list(turn.results)})
        turn.open_uses, turn.results = [], []

    def _done(self, turn: Turn, stop_reason: str, note: str | None = None) -> TurnDone:
        turn.stop_reason = stop_reason
        return TurnDone(stop_reason, dict(turn.usage), turn.round_trips, turn.tools.calls, note, turn.ran)

    def _note_for(self, stop_reason: str) -> str | None:
        if stop_reason == "max_tokens":
            return f"The answer was cut at the max_tokens limit ({self.settings.max_tokens} tokens)."
        if stop_reason == "refusal":
            return "The model declined to continue."
        return None

    # ------------------------------------------------------------------ requests
    def _model_caller(self) -> ModelCaller:
        if self._caller is None:
            if self._client is None:
                self._client = self.settings.make_client()
            host = host_of_client(self._client, self.settings.host)
            self._caller = ModelCaller(self._client, self.settings, self._guard, host)
        return self._caller

    def _client_key(self) -> str | None:
        key = getattr(self._client, "api_key", None)
        return key if isinstance(key, str) else None

    def _request(self) -> dict[str, Any]:
        if self._timeout is None:
            self._timeout = self.settings.request_timeout()
        caching = self.settings.prompt_caching
        ephemeral = {"type": "ephemeral"}
        system: Any = self.system_prompt
        tools = self._offered_tools()
        max_tokens = self.settings.max_tokens
        budget = self.budget
        if budget is not None:
            fixed = preamble_tokens(self.system_prompt, tools)
            self.transcript.messages = budget.fit_history(
                fixed, self.messages, lambda m: estimate_tokens(self.rendered_messages(messages=m))
            )
            max_tokens = budget.reply
        if caching:
            system = [{"type": "text", "text": self.system_prompt, "cache_control": ephemeral}]
            tools = [*tools[:-1], {**tools[-1], "cache_control": ephemeral}] if tools else tools
        return {
            "model": self.settings.model,
            "max_tokens": max_tokens,
            "system": system,
            **({"tools": tools} if tools else {}),
            "messages": self.rendered_messages(cache_last=caching),
            "timeout": self._timeout,
        }

    def _offered_tools(self) -> list[dict[str, Any]]:
        """The profile's tools, then the host tools that offer themselves on this request."""
        if self.profile == "pipeline":
            return []
        offered = [d for tool in self.host_tools.values() if (d := tool.definition()) is not None]
        return [*self.tools, *offered]

    def rendered_messages(
        self, cache_last: bool = False, messages: list[dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """The history as it is sent: document-text results fenced with this session's nonce."""
        return render(self.messages if messages is None else messages, self.nonce, cache_last)

    # ------------------------------------------------------------------ history and transcript
    def _append_user_text(self, text: str) -> None:
        append_user_text(self.messages, text, self._pending_note)
        self._pending_note = None

    def _restore(self) -> None:
        """Continue a saved conversation: earlier reads left out, a summary of what was changed."""
        transcript = self.transcript
        transcript.messages = repair(transcript.restored_messages())
        self._pending_note = continuation_note(transcript.updated, transcript.continuation_summary())
        transcript.log("restored")

    def _record(self, event: AgentEvent, turn: Turn) -> None:
        """Log an event in the transcript (text deltas gathered into one assistant entry)."""
        if isinstance(event, TextDelta):
            turn.text_buffer.append(event.text)
            return
        if isinstance(event, Retry):
            turn.text_buffer.clear()
            self.transcript.log("retry", reason=event.reason, discarded=event.discarded)
            return
        if turn.text_buffer:
            incomplete = isinstance(event, ErrorEvent) or (
                isinstance(event, TurnDone) and event.stop_reason == "cancelled"
            )
            entry: dict[str, Any] = {"text": "".join(turn.text_buffer)}
            if incomplete:
                entry["incomplete"] = True
            self.transcript.log("assistant", **entry)
            turn.text_buffer.clear()
        data = event.to_dict()
        kind = data.pop("kind")
        if isinstance(event, TurnDone):
            self.transcript.add_usage(event.usage)
        self.transcript.log(kind, **data)


__all__ = ["AgentSession", "Turn"]
