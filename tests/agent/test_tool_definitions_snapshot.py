"""The tool list each profile sends the model, byte for byte as it was before the tool specs.

``tests/data/tool_definitions_by_profile.json`` was written from the tables the specs replaced
(``tools._INPUT_SCHEMAS``, ``tool_descriptions.DESCRIPTIONS``, ``profiles.COMPACT_TOOLS``): a
model sees exactly the same names, descriptions and schemas, in the same order, for the default
surface and for one narrowed by host options. After a deliberate change to what the model is
told, regenerate it with ``python -m tests.agent.test_tool_definitions_snapshot``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.agent.profiles import definitions_for
from reviewer_app.agent.suggest_changes import SuggestChangesOptions
from reviewer_app.agent.tools import to_anthropic_tools

SNAPSHOT = Path(__file__).parents[1] / "data" / "tool_definitions_by_profile.json"
OPTIONS: dict[str, SuggestChangesOptions | None] = {
    "default": None,
    "narrowed": SuggestChangesOptions(
        operation_types=("replaceInBlock", "deleteBlock", "formatRange"),
        review_meta="required",
        max_operations=7,
        document_version="v-1",
    ),
}
PROFILES = ("full", "compact", "pipeline")


def _sent(profile: str, options: SuggestChangesOptions | None) -> str:
    """The tool list as the Anthropic request carries it, as JSON text."""
    return json.dumps(to_anthropic_tools(definitions_for(profile, options)), ensure_ascii=False, indent=1)


def _all() -> dict[str, Any]:
    return {f"{p}/{label}": json.loads(_sent(p, o)) for p in PROFILES for label, o in OPTIONS.items()}


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("label", OPTIONS)
def test_the_tool_list_sent_to_the_model_is_unchanged(profile: str, label: str) -> None:
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))[f"{profile}/{label}"]
    assert _sent(profile, OPTIONS[label]) == json.dumps(expected, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    SNAPSHOT.write_text(json.dumps(_all(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
