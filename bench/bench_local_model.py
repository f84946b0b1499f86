"""Preamble tokens per tool profile, and a review turn on the 300-page contract with an 8k-token model.

Tokens are the agent's stated estimate (JSON characters / 3.5; no tokenizer). The review turn
runs the real session against the scripted server on 127.0.0.1 playing a llama.cpp model with
an 8,192-token window: it reports the window on /props and refuses any request whose size plus
max_tokens is over it, so a turn that ends without an error kept every request under budget.

    .venv/bin/python bench/bench_local_model.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_reads import ensure_synthetic  # noqa: E402
from reviewer_app.agent import create_reviewer_bridge  # noqa: E402
from reviewer_app.agent.pipeline_turn import PIPELINE_SYSTEM  # noqa: E402
from reviewer_app.agent.profiles import definitions_for, options_for, preamble_tokens  # noqa: E402
from reviewer_app.agent.prompt import system_prompt  # noqa: E402
from reviewer_app.agent.session import AgentSession  # noqa: E402
from reviewer_app.agent.tools import to_anthropic_tools  # noqa: E402
from reviewer_app.docx import DocxReviewer  # noqa: E402
from reviewer_app.selftest.scripted_model_server import (  # noqa: E402
    FakeAnthropic,
    collect,
    fast_settings,
    reply,
    result_text,
    tool,
    tool_results,
    unfence,
)

WINDOW = 8192


def preambles() -> dict[str, tuple[int, int]]:
    """profile -> (tools offered, estimated tokens of system prompt + tools)."""
    out = {}
    for profile in ("full", "compact"):
        tools = to_anthropic_tools(definitions_for(profile, None))
        prompt = system_prompt(
            nonce="0" * 16, review_mode=True, options=options_for(profile, None), compact=profile == "compact"
        )
        out[profile] = (len(tools), preamble_tokens(prompt, tools))
    out["pipeline"] = (0, preamble_tokens(PIPELINE_SYSTEM.format(nonce="0" * 16), []))
    return out


def review_turn(path: Path) -> dict[str, Any]:
    reviewer = DocxReviewer.open(path)
    bridge = create_reviewer_bridge(reviewer)

    def section(request: dict[str, Any]) -> Any:
        outline = unfence(result_text(tool_results(request)[0]))
        return reply(tool("read_section", {"handle": outline["sections"][3]["handle"], "maxBlocks": 200}))

    def find(request: dict[str, Any]) -> Any:
        return reply(tool("find_text", {"query": "Agreement"}))

    def edit(request: dict[str, Any]) -> Any:
        match = unfence(result_text(tool_results(request)[0]))["matches"][0]
        op = {"type": "replaceInBlock", "blockId": match["blockId"], "find": "Agreement", "replace": "MSA"}
        return reply(tool("suggest_changes", {"operations": [op]}))

    script = [reply(tool("get_document_outline", {"maxDepth": 2})), section, find, edit, reply("Done.")]

    async def go(server: FakeAnthropic) -> list[Any]:
        async with AgentSession(bridge, fast_settings(server, idle_timeout_s=60.0)) as session:
            return await collect(session, "Review the definitions and use MSA.")

    with FakeAnthropic(script, context_tokens=WINDOW) as server:
        events = asyncio.run(go(server))
        requests = server.requests
        sizes = server.sizes
    errors = [e.message for e in events if e.kind == "error"]
    return {
        "requests": len(requests),
        "largest": max(s + r.body["max_tokens"] for s, r in zip(sizes, requests, strict=True)),
        "errors": errors,
        "edits": sum(1 for e in events if e.kind == "edit_batch"),
    }


def main() -> int:
    print("profile   tools  preamble tokens (est.)")
    for profile, (count, tokens) in preambles().items():
        print(f"{profile:9} {count:5}  {tokens:>8,}")
    result = review_turn(ensure_synthetic())
    print(
        f"300-page contract, {WINDOW:,}-token model: {result['requests']} requests, largest "
        f"{result['largest']:,} tokens with max_tokens, {result['edits']} edit batch(es), "
        f"errors: {result['errors']}"
    )
    return 0 if not result["errors"] and result["largest"] <= WINDOW else 1


if __name__ == "__main__":
    raise SystemExit(main())
