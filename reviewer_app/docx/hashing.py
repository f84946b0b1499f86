"""Text normalization, the contract's djb2 text hash, and the block-id grammar (contract §2.2-2.3).

The hash must be bit-exact with the contract's test vectors: the model echoes these values back
as preconditions, so a different hash would make every edit look stale.
"""

from __future__ import annotations

import operator
import re

#: JavaScript's ``\s``, the contract's whitespace, spelled out: Python's ``\s`` differs (it
#: matches U+001C-U+001F and misses U+FEFF), and a different set would change hashes.
_JS_WHITESPACE = "\t\n\x0b\x0c\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_WHITESPACE_RUN = re.compile(f"[{_JS_WHITESPACE}]+")
#: Characters on which Python's ``str.split()`` and JavaScript's ``\s`` disagree.
_SPLIT_DIFFERS = re.compile("[\x1c-\x1f\x85\ufeff]")
#: The contract's whitespace but the space: a text without any, without two spaces in a row and
#: without a space at either end is its own normal form (most paragraphs).
_OTHER_WHITESPACE = re.compile(f"[{_JS_WHITESPACE.replace(' ', '')}]")
_MODULUS = 2147483647
_HASH_PATTERN = re.compile(r"^h[0-9a-z]+$")
_SEQ_ID = re.compile(r"^seq-(\d{4,})$")
_BLANK_ID = re.compile(r"^blank-(\d{4,})$")
_PARA_ID = re.compile(r"^[0-9A-Fa-f]{1,8}$")
_DIGITS36 = "0123456789abcdefghijklmnopqrstuvwxyz"
#: Word's paraId values must be below 0x80000000; larger ones are folded into range.
PARA_ID_BOUND = 0x80000000


def normalize_text(text: str) -> str:
    """Collapse every run of Unicode whitespace (NBSP included) to one space and trim.

    Returns ``text`` itself when nothing changes, so a snapshot holds one string per block.
    """
    if text[:1] != " " and text[-1:] != " " and "  " not in text and _OTHER_WHITESPACE.search(text) is None:
        return text  # one search instead of a split and a join (a 300-page contract: 15,000 texts)
    if _SPLIT_DIFFERS.search(text) is None:
        out = " ".join(text.split())  # str.split agrees with JavaScript here, and is much faster
    else:
        out = _WHITESPACE_RUN.sub(" ", text).strip(" ")
    return text if out == text else out


def _base36(value: int) -> str:
    if value == 0:
        return "0"
    digits = []
    while value:
        value, rem = divmod(value, 36)
        digits.append(_DIGITS36[rem])
    return "".join(reversed(digits))


_POWERS: list[int] = [1]  # _POWERS[k] == 33**k % _MODULUS, grown on demand


def _powers_for(length: int) -> list[int]:
    if len(_POWERS) <= length:
        value = _POWERS[-1]
        for _ in range(len(_POWERS), length + 1):
            value = value * 33 % _MODULUS
            _POWERS.append(value)
    return _POWERS


def text_hash(text: str) -> str:
    """djb2 over code points modulo 2^31-1, rendered ``"h" + base36``; used raw for selections.

    The loop ``h = (h * 33 + c) mod p`` unrolls to ``5381·33^n + Σ c_i·33^(n-1-i) mod p``;
    evaluating that sum with C-level ``map``/``sum`` over precomputed powers gives the same
    value as the loop (reduction mod p commutes) about twenty times faster, which matters on a
    300-page contract where every block is hashed.
    """
    n = len(text)
    powers = _powers_for(n)
    codes = memoryview(text.encode("utf-32-le")).cast("I")
    # the last code point gets 33**0, the first 33**(n-1): pair reversed codes with powers
    total = 5381 * powers[n] + sum(map(operator.mul, reversed(codes), powers))
    return "h" + _base36(total % _MODULUS)


def block_text_hash(text: str) -> str:
    """The hash a block is identified by: :func:`text_hash` of its normalized text."""
    return text_hash(normalize_text(text))


def is_text_hash(value: object) -> bool:
    """True for strings shaped like a hash this module produces (``^h[0-9a-z]+$``)."""
    return isinstance(value, str) and _HASH_PATTERN.fullmatch(value) is not None


def is_reserved_id(value: str) -> bool:
    """True for ids shaped like the positional ``seq-``/``blank-`` ids the engine mints."""
    return value.startswith(("seq-", "blank-"))


def is_block_id(value: object) -> bool:
    """Accept paraId-like strings and exact ``seq-NNNN``/``blank-NNNN`` ids (legacy ``b-NNNN`` is not)."""
    if not isinstance(value, str) or not value:
        return False
    if is_reserved_id(value):
        return bool(_SEQ_ID.fullmatch(value) or _BLANK_ID.fullmatch(value))
    return _PARA_ID.fullmatch(value) is not None


def para_id_from_block_id(block_id: str) -> str | None:
    """The ``w14:paraId`` behind a block id, or None for positional ids."""
    return None if is_reserved_id(block_id) else block_id


def sequential_index(block_id: str) -> int | None:
    """``seq-0011`` → 11; None for any other shape."""
    m = _SEQ_ID.fullmatch(block_id)
    return int(m.group(1)) if m else None


def current_para_id(para_id: str) -> str:
    """Fold a paraId at or above Word's 31-bit bound into range (keeps ids Word would accept)."""
    if len(para_id) < 8 or (len(para_id) == 8 and para_id[0] in "01234567"):
        return para_id  # below the bound however it parses (most ids: asked for every paragraph)
    try:
        value = int(para_id, 16)
    except ValueError:
        return para_id
    if value >= PARA_ID_BOUND:
        return format(value % PARA_ID_BOUND, "08X")
    return para_id


def positional_id(prefix: str, ordinal: int) -> str:
    """``seq-0001`` / ``blank-0001``: zero-padded to at least four digits."""
    return f"{prefix}-{ordinal:04d}"
