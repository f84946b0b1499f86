"""Which function applies which operation type: filled by the ``ops_*`` modules on import."""

from __future__ import annotations

from collections.abc import Callable

from .batch import Operation
from .context import EditContext, Outcome

Handler = Callable[[EditContext, Operation], Outcome]
HANDLERS: dict[str, Handler] = {}


def handles(*types: str) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of ``types``."""

    def register(fn: Handler) -> Handler:
        for name in types:
            if name in HANDLERS:
                raise ValueError(f"two handlers for {name}")
            HANDLERS[name] = fn
        return fn

    return register
