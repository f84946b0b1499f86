"""``ChatBridge``: the live editor bridge, remembering the edit engine's last result for the cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..live_bridge import LiveEditorBridge


class ChatBridge(LiveEditorBridge):
    """The live bridge, keeping the engine's last result so Direct-mode cards learn their changes.

    The executor hands the model a summary without revision ids; the card needs them to accept
    or reject exactly the tracked changes its operation made.
    """

    last_result: Mapping[str, Any] | None = None

    def apply_document_operations(self, batch: Mapping[str, Any]) -> dict[str, Any]:
        result = super().apply_document_operations(batch)
        self.last_result = result
        return result
