"""One tool's facts in one value (:class:`ToolSpec`), and the ordered registry they are read from.

Before the specs, a tool's name, schema, description, handler, fencing, budget and summary sat in
six tables keyed by name; forgetting one (the fenced-reads table, say) silently left a tool's
document text unfenced. A spec carries them all, and whether its result is fenced is a decision
every spec must state: :class:`Fencing` has no default, and neither the spec nor the registry
accepts anything but a :class:`Fencing` for it. Every list the agent needs (the names in order,
the fenced tools, the live reads, the edit tools) is derived from :class:`ToolRegistry`.
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any


class Fencing(enum.Enum):
    """What the model is told a tool's result is: document text fenced as data, or the host's words."""

    #: the result carries the document's text (body, headings, comments, changes, a page): fenced,
    #: and left out when a conversation is restored (it would be stale)
    DOCUMENT_TEXT = "document text"
    #: an edit's summary, whose skip reasons and issues can quote the document: fenced, and kept
    #: when a conversation is restored, since it records what was changed
    EDIT_RESULT = "edit result"
    #: the host's own words only (a navigation flag): sent as is
    NONE = "none"


class Role(enum.Enum):
    """What a call does, which decides its budget and whether the chat shows it as an edit card."""

    READ = "read"
    #: a read of the live view (a laid-out page, the selection): counted against the live-read budget
    LIVE_READ = "live read"
    #: an edit whose every call shows its operations as cards
    EDIT = "edit"
    #: a comment-thread action: shown as a card only in Review mode, where it waits as a proposal
    COMMENT_ACTION = "comment action"
    #: moves the user's view; neither reads nor edits the document
    NAVIGATE = "navigate"


#: ``handler(bridge, args)``, or ``handler(bridge, args, options)`` for a spec with ``takes_options``
Handler = Callable[..., Any]


@dataclass(frozen=True, kw_only=True)
class ToolSpec:
    """Everything Reviewer knows about one tool, declared once.

    ``description`` and ``input_schema`` are what the model reads; for a spec that
    ``takes_options`` (suggest_changes, narrowed by the host's options) they are functions of those
    options and the handler receives them too. ``fencing`` must be given: see :class:`Fencing`.
    ``summary(result)`` is the chat's one line for a successful call. ``compact_description`` is
    the one-line description of the compact profile; None leaves the tool out of that profile.
    """

    name: str
    description: str | Callable[[Any], str]
    input_schema: Mapping[str, Any] | Callable[[Any], Mapping[str, Any]]
    handler: Handler
    fencing: Fencing
    role: Role
    summary: Callable[[Any], str]
    compact_description: str | None = None
    takes_options: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.fencing, Fencing):
            raise TypeError(
                f"tool {self.name!r}: fencing must be a Fencing (whether its result carries document "
                f"text is a decision every tool states), not {self.fencing!r}"
            )
        if not isinstance(self.role, Role):
            raise TypeError(f"tool {self.name!r}: role must be a Role, not {self.role!r}")
        shaped = callable(self.description) or callable(self.input_schema)
        if shaped != self.takes_options:
            raise TypeError(
                f"tool {self.name!r}: description and schema are functions of the options "
                "exactly when the spec takes_options"
            )

    @property
    def fenced(self) -> bool:
        """Whether a successful result reaches the model inside the document-content fence."""
        return self.fencing is not Fencing.NONE

    def definition(self, options: Any = None) -> dict[str, Any]:
        """The provider-neutral definition ``{"name", "description", "inputSchema"}`` (a fresh schema)."""
        if callable(self.description) and callable(self.input_schema):
            description, schema = self.description(options), self.input_schema(options)
        else:
            description, schema = str(self.description), copy.deepcopy(dict(self.input_schema))
        return {"name": self.name, "description": description, "inputSchema": schema}

    def run(self, bridge: Any, args: Any, options: Any = None) -> Any:
        """The handler's result (it raises ``ToolError`` to refuse)."""
        return self.handler(bridge, args, options) if self.takes_options else self.handler(bridge, args)


class ToolRegistry:
    """The tools in the order the model is offered them; every per-tool list is read from here."""

    def __init__(self, specs: Iterable[ToolSpec]) -> None:
        self._specs: dict[str, ToolSpec] = {}
        for spec in specs:
            self.register(spec)

    def register(self, spec: ToolSpec) -> None:
        """Add ``spec`` after the others; refused unless it is a complete :class:`ToolSpec`."""
        if not isinstance(spec, ToolSpec):
            raise TypeError(f"only a ToolSpec can be registered, not {type(spec).__name__}")
        if not isinstance(spec.fencing, Fencing):  # a spec made by bypassing its constructor
            raise TypeError(f"tool {spec.name!r} has no fencing decision")
        if spec.name in self._specs:
            raise ValueError(f"tool {spec.name!r} is registered twice")
        self._specs[spec.name] = spec

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    def get(self, name: str) -> ToolSpec | None:
        return self._specs.get(name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._specs)

    def named(self, *, fencing: Fencing | None = None, roles: Iterable[Role] = ()) -> frozenset[str]:
        """The names of the tools with this fencing and (when given) one of these roles."""
        wanted = frozenset(roles)
        return frozenset(
            spec.name
            for spec in self
            if (fencing is None or spec.fencing is fencing) and (not wanted or spec.role in wanted)
        )
