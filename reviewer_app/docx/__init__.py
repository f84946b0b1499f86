"""The OOXML engine: safe package I/O, the block model, readers and (later) the edit engine.

No Qt and no network here; the agent and the UI build on this layer, never the reverse.
"""

from .errors import DocxOpenError
from .reviewer import DocxReviewer

__all__ = ["DocxOpenError", "DocxReviewer"]
