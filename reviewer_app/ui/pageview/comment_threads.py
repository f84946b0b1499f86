"""The document's comments by id, and the thread a balloon or a click shows for one of them.

Word threads are flat: a root comment, then its replies. The markup filter's hidden reviewers
(Show Markup ▸ by reviewer) are left out: their comments are neither ballooned nor highlighted,
so the layout hands :attr:`CommentThreads.hidden` to the builders.
"""

from __future__ import annotations

from ...docx.comments import CommentRecord, comment_records
from ...docx.document import WordDocument


class CommentThreads:
    """The comments of ``document``; those by ``hidden_authors`` are hidden."""

    def __init__(self, document: WordDocument, hidden_authors: frozenset[str]) -> None:
        self._hidden_authors = hidden_authors
        self.comments: dict[str, CommentRecord] = {}
        #: ids of the comments written by the hidden reviewers
        self.hidden: frozenset[str] = frozenset()
        self.read(document)

    def read(self, document: WordDocument) -> None:
        """Read every comment of ``document`` (again, after a reply, resolution or new comment)."""
        self.comments = {c.id: c for c in comment_records(document)}
        hidden = self._hidden_authors
        self.hidden = frozenset(c.id for c in self.comments.values() if (c.author or "") in hidden)

    def thread(self, comment_id: str) -> list[CommentRecord]:
        """The thread holding ``comment_id``: its root comment, then the replies; the hidden
        reviewers' comments are left out."""
        root = self.comments.get(comment_id)
        if root is None:
            return []
        root = self.comments.get(root.thread_id, root)
        thread = [root] + [c for c in self.comments.values() if c.is_reply and c.thread_id == root.id]
        return [c for c in thread if c.id not in self.hidden] if self.hidden else thread
