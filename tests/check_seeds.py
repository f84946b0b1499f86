"""Seeded faults for the contract checks: copies of a contract, each with one known fault.

Every fault is written through the edit engine as a tracked change (so the checks must read
the accepted view), and comes with its answer key: the kind of finding expected and the
block it must point at (or, for a deleted definition, the term). Choices are made with a
random generator seeded by the file name, so the same corpus always gives the same faults.

Run as a script to write the copies and a ``KEY.json`` into a directory::

    python -m tests.check_seeds OUT_DIR
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.blocks import Block
from reviewer_app.docx.checks import definitions
from reviewer_app.docx.find import text_range

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "contracts"
SAMPLE = ROOT / "resources" / "samples" / "sample-msa.docx"
ROLE_NAMES = (
    "Customer",
    "Provider",
    "Supplier",
    "Company",
    "Contractor",
    "Partner",
    "Licensee",
    "Licensor",
    "Client",
)


def sources() -> list[Path]:
    """Every corpus contract and the bundled sample."""
    return sorted(CORPUS.glob("*.docx")) + [SAMPLE]


@dataclass(frozen=True)
class Seed:
    """One faulty copy: its bytes and what the checks must report."""

    source: str
    fault: str
    kinds: tuple[str, ...]
    block_ids: tuple[str, ...]
    subject: str
    data: bytes


def _body_blocks(reviewer: DocxReviewer) -> list[Block]:
    return [
        b
        for b in reviewer.snapshot().blocks
        if b.normalized and b.kind != "diagnostic" and len(b.text.split()) >= 8
    ]


def _apply(reviewer: DocxReviewer, *operations: dict) -> bytes:
    result = reviewer.apply_operations(
        {"version": 1, "mode": "tracked-changes", "operations": list(operations)}
    )
    assert result["status"] == "committed", result
    return reviewer.to_bytes()


def _replace(block: Block, start: int, end: int, text: str) -> dict:
    return {"id": "seed", "type": "replaceRange", "range": text_range(block, start, end), "replace": text}


def _append(block: Block, text: str) -> dict:
    """Insert ``text`` after the last word of the block (ranges cannot be empty: the word is
    replaced by itself plus the text)."""
    end = len(block.text.rstrip(" .;:"))
    start = max(block.text.rfind(" ", 0, end) + 1, 0)
    return _replace(block, start, end, block.text[start:end] + text)


def _swap(word: str) -> str:
    """The word with two different adjacent inner letters swapped: a typing slip."""
    i = next(k for k in range(len(word) // 2, len(word) - 1) if word[k] != word[k - 1])
    return word[: i - 1] + word[i] + word[i - 1] + word[i + 1 :]


def _uses(blocks: list[Block], phrase: str) -> Iterator[tuple[Block, int]]:
    pattern = re.compile(rf"(?<![\w“\"]){re.escape(phrase)}(?![\w”\"])")
    for block in blocks:
        for m in pattern.finditer(block.text):
            yield block, m.start()


def _defined(blocks: list[Block]) -> list[tuple[Block, definitions.Definition]]:
    return [(b, d) for b in blocks for d in definitions.find(b.text, False)]


def rename_use(path: Path, rng: random.Random) -> Seed | None:
    """One use of a defined term misspelt (two letters swapped)."""
    reviewer = DocxReviewer.open(path)
    blocks = _body_blocks(reviewer)
    choices = []
    for block, d in _defined(blocks):
        longest = max(d.term.split(), key=len)
        if len(longest) >= 6 and not longest.isupper():
            choices += [(u, pos, d.term) for u, pos in _uses(blocks, d.term) if u is not block]
    if not choices:
        return None
    block, pos, term = rng.choice(sorted(choices, key=lambda c: (c[0].id, c[1])))
    longest = max(term.split(), key=len)
    start = pos + term.index(longest)
    data = _apply(reviewer, _replace(block, start, start + len(longest), _swap(longest)))
    return Seed(path.name, "rename one use of a defined term", ("terms", "parties"), (block.id,), term, data)


def delete_definition(path: Path, rng: random.Random) -> Seed | None:
    """A definition removed while the term is still used at least twice."""
    reviewer = DocxReviewer.open(path)
    blocks = _body_blocks(reviewer)
    defined = _defined(blocks)
    titles = {b.text.strip().rstrip(":.") for b in reviewer.snapshot().blocks if len(b.text.split()) <= 8}
    choices = []
    for block, d in defined:
        if (
            len(d.term.split()) >= 2
            and not any(w.isupper() for w in d.term.split())
            and sum(1 for _, other in defined if other.term == d.term) == 1
            and not any(d.term in title for title in titles)
            and sum(1 for u, _ in _uses(blocks, d.term) if u is not block) >= 2
        ):
            choices.append((block, d))
    if not choices:
        return None
    block, d = rng.choice(choices)
    if d.form == "parenthetical":
        opening = block.text.rfind("(", 0, d.start)
        closing = block.text.find(")", d.end)
        operation = _replace(
            block, opening - 1 if block.text[opening - 1] == " " else opening, closing + 1, ""
        )
    else:
        operation = {"id": "seed", "type": "deleteBlock", "blockId": block.id}
    data = _apply(reviewer, operation)
    return Seed(path.name, "delete a definition", ("terms",), (), d.term, data)


def dangle_reference(path: Path, rng: random.Random) -> Seed | None:
    """A referenced clause deleted (one without sub-clauses), so references to it dangle."""
    reviewer = DocxReviewer.open(path)
    snapshot = reviewer.snapshot()
    numbered = {}
    for block in snapshot.blocks:
        label = block.display_label
        if block.normalized and label and re.fullmatch(r"\d+(\.\d+)+\.?", label):
            numbered[label.rstrip(".")] = block
    choices = []
    for number, target in numbered.items():
        if any(other.startswith(number + ".") for other in numbered):
            continue
        siblings = [n for n in numbered if n.rsplit(".", 1)[0] == number.rsplit(".", 1)[0]]
        if max(siblings, key=lambda n: int(n.rsplit(".", 1)[1])) != number:
            continue  # deleting it would renumber later clauses too
        citing = [u for u, _ in _uses(_body_blocks(reviewer), f"Section {number}") if u is not target]
        citing += [u for u, _ in _uses(_body_blocks(reviewer), f"clause {number}") if u is not target]
        if citing:
            choices.append((target, number, tuple(dict.fromkeys(u.id for u in citing))))
    if not choices:
        return None
    target, number, citing = rng.choice(choices)
    data = _apply(reviewer, {"id": "seed", "type": "deleteBlock", "blockId": target.id})
    return Seed(path.name, "renumber a clause so references dangle", ("references",), citing, number, data)


def change_figure(path: Path, rng: random.Random) -> Seed | None:
    """The figure of a words-and-figures pair changed (or such a pair inserted disagreeing)."""
    reviewer = DocxReviewer.open(path)
    blocks = _body_blocks(reviewer)
    pairs = [
        (b, m)
        for b in blocks
        for m in re.finditer(r"\b(?:thirty|sixty|ninety|ten|five|fifteen|forty-five) \((\d+)\)", b.text)
    ]
    if pairs:
        block, m = rng.choice(pairs)
        wrong = str(int(m.group(1)) + 15)
        data = _apply(reviewer, _replace(block, m.start(1), m.end(1), wrong))
    else:
        block = rng.choice(blocks)
        data = _apply(reviewer, _append(block, " within thirty (45) days"))
    return Seed(path.name, "change the figure in thirty (30)", ("numbers",), (block.id,), "", data)


def insert_placeholder(path: Path, rng: random.Random) -> Seed | None:
    """A placeholder typed into a paragraph that had none."""
    reviewer = DocxReviewer.open(path)
    blocks = [b for b in _body_blocks(reviewer) if not re.search(r"[\[{_]|TBD", b.text)]
    if not blocks:
        return None
    block = rng.choice(blocks)
    placeholder = rng.choice([" [●]", " [insert date]", " {client_name}", " ________", " [TBD]"])
    data = _apply(reviewer, _append(block, placeholder))
    return Seed(path.name, "insert a placeholder", ("blanks",), (block.id,), placeholder.strip(), data)


def misspell_party(path: Path, rng: random.Random) -> Seed | None:
    """One mid-sentence mention of a party (the most mentioned role name) misspelt."""
    reviewer = DocxReviewer.open(path)
    blocks = _body_blocks(reviewer)
    counts = {name: sum(1 for _ in _uses(blocks, name)) for name in ROLE_NAMES}
    name = max(ROLE_NAMES, key=lambda n: counts[n])
    if counts[name] < 3:
        return None
    uses = [
        (b, pos)
        for b, pos in _uses(blocks, name)
        if pos > 0 and b.text[pos - 1] == " " and b.text[pos - 2] not in ".:"
    ]
    if not uses:
        return None
    block, pos = rng.choice(uses)
    data = _apply(reviewer, _replace(block, pos, pos + len(name), _swap(name)))
    return Seed(path.name, "misspell a party", ("parties",), (block.id,), name, data)


SEEDERS: tuple[Callable[[Path, random.Random], Seed | None], ...] = (
    rename_use,
    delete_definition,
    dangle_reference,
    change_figure,
    insert_placeholder,
    misspell_party,
)


def seeds(path: Path) -> list[Seed]:
    """Every fault this contract can carry, each on its own copy."""
    out = []
    for seeder in SEEDERS:
        seed = seeder(path, random.Random(f"{path.name}:{seeder.__name__}"))
        if seed is not None:
            out.append(seed)
    return out


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    key = []
    for path in sources():
        for n, seed in enumerate(seeds(path)):
            name = f"{path.stem}.{n}.docx"
            (out / name).write_bytes(seed.data)
            key.append(
                {
                    "file": name,
                    "fault": seed.fault,
                    "kinds": list(seed.kinds),
                    "blockIds": list(seed.block_ids),
                    "subject": seed.subject,
                }
            )
    (out / "KEY.json").write_text(json.dumps(key, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
