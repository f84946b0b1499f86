"""The words a document writes in lower case, which tell an ordinary word (``Service Credit``:
the document also writes "service" and "credit") from a name or a misspelling.

Blocks alike share one word set (a schedule's repeated cells and clauses), so the words are
counted per distinct set rather than per block: a 300-page contract has some 14,000 blocks but
a few thousand distinct texts, and an edit changes the counts of one set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import chain


class Vocabulary:
    """Lower-case words, kept current as blocks' word sets come and go; ``word in vocabulary``
    asks whether some block writes it."""

    def __init__(self, sets: Iterable[frozenset[str]] = ()) -> None:
        self._sets: Counter[frozenset[str]] = Counter(sets)  # blocks per distinct set
        self._words: Counter[str] = Counter(chain.from_iterable(self._sets))  # sets per word

    def __contains__(self, word: object) -> bool:
        return word in self._words

    def add(self, words: frozenset[str]) -> None:
        """A block with these words came."""
        self._sets[words] += 1
        if self._sets[words] == 1:
            self._words.update(words)

    def remove(self, words: frozenset[str]) -> None:
        """A block with these words went."""
        self._sets[words] -= 1
        if self._sets[words]:
            return
        del self._sets[words]
        for word in words:
            self._words[word] -= 1
            if not self._words[word]:
                del self._words[word]
