"""Settings ▸ Test connection: one streamed one-token request, against a real server on 127.0.0.1.

Each failure a person can meet while setting up (wrong key, a model the server lacks, nothing
listening, a server that never answers) must come back as a sentence that names what to fix,
never as an exception.
"""

from __future__ import annotations

import asyncio
import socket

from reviewer_app.agent.connection_check import PROBE_MESSAGES, check_connection
from reviewer_app.agent.settings import AgentSettings
from tests.fake_anthropic import FakeAnthropic, Status, fast_settings, reply


def test_a_server_that_answers_is_reported_with_its_model_and_time() -> None:
    with FakeAnthropic([reply("OK")]) as server:
        report = asyncio.run(check_connection(fast_settings(server)))
        (request,) = server.bodies
    assert report.ok, report.message
    assert report.message.startswith(f"127.0.0.1:{server.base_url.rsplit(':', 1)[1]} answered as ")
    assert 0 < report.elapsed_s < 5
    # the chat's own kind of request, but one token, no tools, no document text
    assert request["stream"] is True and request["max_tokens"] == 1 and request["model"] == "claude-fake-1"
    assert "tools" not in request and request["messages"] == list(PROBE_MESSAGES)


def test_a_refused_key_says_so() -> None:
    with FakeAnthropic([Status(401, message="invalid x-api-key")]) as server:
        report = asyncio.run(check_connection(fast_settings(server)))
    assert not report.ok
    assert "refused the API key" in report.message and "invalid x-api-key" in report.message


def test_an_unknown_model_names_the_model_and_the_usual_url_mistake() -> None:
    missing = Status(404, error_type="not_found_error", message="model: claude-nope")
    with FakeAnthropic([missing]) as server:
        report = asyncio.run(check_connection(fast_settings(server, model="claude-nope")))
    assert not report.ok
    assert "does not offer model 'claude-nope'" in report.message and "/v1" in report.message


def test_nothing_listening_names_the_address() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again before the check: nothing listens there
    settings = AgentSettings(base_url=f"http://127.0.0.1:{port}", api_key="k", connect_timeout_s=2.0)
    report = asyncio.run(check_connection(settings))
    assert not report.ok and report.message.startswith(f"Cannot reach 127.0.0.1:{port}")


def test_a_silent_server_is_given_up_on_after_the_time_limit() -> None:
    with FakeAnthropic([reply("OK", stall_after=0)]) as server:
        report = asyncio.run(check_connection(fast_settings(server), timeout_s=0.5))
    assert not report.ok and "did not answer" in report.message
    assert report.elapsed_s < 3


def test_no_key_for_anthropic_is_a_sentence_not_an_exception(monkeypatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    report = asyncio.run(check_connection(AgentSettings(api_key=None)))
    assert not report.ok and "key" in report.message.lower()
