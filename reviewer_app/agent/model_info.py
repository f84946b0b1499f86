"""What a local model server says about its model: the context window, and whether it calls tools.

Ollama answers ``POST /api/show {"model": name}`` with ``model_info`` (``<arch>.context_length``:
what the model was trained for) and ``parameters`` (a ``num_ctx N`` line when the model file sets
the window the server actually runs); llama.cpp's server answers ``GET /props`` with
``default_generation_settings.n_ctx`` (the ``--ctx-size`` it runs). The window a request must fit
is the one the server *runs*, so ``num_ctx`` wins over the trained length, and Ollama without
``num_ctx`` is taken at its own default (:data:`OLLAMA_DEFAULT_NUM_CTX`) unless the trained length
is smaller. Ollama's ``capabilities`` list says whether the model takes tools.

Only the configured server is asked (no other host), with a short time-out, and a server that
answers neither (Anthropic's API, LM Studio) simply leaves the window unknown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

#: Ollama's window when neither the model file nor the request sets num_ctx (Ollama 0.6+)
OLLAMA_DEFAULT_NUM_CTX = 4096
_NUM_CTX = re.compile(r"^\s*num_ctx\s+(\d+)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class ModelInfo:
    """What was learned; None where the server did not say."""

    context_window: int | None = None
    #: where the window came from, for the sentence the user reads
    source: str = ""
    calls_tools: bool | None = None


def from_ollama_show(data: Any) -> ModelInfo:
    """Read Ollama's ``/api/show`` answer (see the module docstring)."""
    if not isinstance(data, dict):
        return ModelInfo()
    tools = data.get("capabilities")
    calls_tools = "tools" in tools if isinstance(tools, list) else None
    match = _NUM_CTX.search(str(data.get("parameters") or ""))
    if match:
        return ModelInfo(int(match.group(1)), "Ollama num_ctx", calls_tools)
    info = data.get("model_info") if isinstance(data.get("model_info"), dict) else {}
    trained = next(
        (int(v) for k, v in info.items() if k.endswith(".context_length") and isinstance(v, int | float)),
        None,
    )
    if trained is None:
        return ModelInfo(None, "", calls_tools)
    return ModelInfo(min(trained, OLLAMA_DEFAULT_NUM_CTX), "Ollama default num_ctx", calls_tools)


def from_llama_props(data: Any) -> ModelInfo:
    """Read llama.cpp's ``/props`` answer: ``default_generation_settings.n_ctx``."""
    settings = data.get("default_generation_settings") if isinstance(data, dict) else None
    n_ctx = settings.get("n_ctx") if isinstance(settings, dict) else None
    if isinstance(n_ctx, int) and n_ctx > 0:
        return ModelInfo(n_ctx, "llama.cpp n_ctx")
    return ModelInfo()


def _root(base_url: str) -> str:
    """The server's root: a base URL ending in ``/v1`` (OpenAI style) loses it."""
    root = base_url.rstrip("/")
    return root[:-3] if root.endswith("/v1") else root


async def discover(base_url: str, model: str, timeout_s: float = 3.0) -> ModelInfo:
    """Ask the server at ``base_url`` about ``model``: Ollama first, then llama.cpp; never raises."""
    import httpx2

    root = _root(base_url)
    try:
        async with httpx2.AsyncClient(timeout=timeout_s) as client:
            for method, path, reader, body in (
                ("POST", "/api/show", from_ollama_show, {"model": model}),
                ("GET", "/props", from_llama_props, None),
            ):
                try:
                    response = await client.request(method, root + path, json=body)
                    if response.status_code != 200:
                        continue
                    info = reader(response.json())
                except (httpx2.HTTPError, ValueError):
                    continue
                if info.context_window or info.calls_tools is not None:
                    return info
    except Exception:  # an unusable URL is the connection check's to report, not this probe's
        return ModelInfo()
    return ModelInfo()
