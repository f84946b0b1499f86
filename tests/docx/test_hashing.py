"""Contract §2.2-2.3: the bit-exact hash vectors and the block-id grammar."""

from __future__ import annotations

import pytest

from reviewer_app.docx import hashing

VECTORS = [
    ("", "h45h"),
    ("Heading", "h7zrslk"),
    ("  Pay $50\tnow.  ", "hj8747b"),
    ("The supplier delivers the goods on time.", "huv9lbd"),
    ("Emoji 😀 ok", "ha9cay5"),
    ("Nadpis Č. 1", "h5santx"),
]


@pytest.mark.parametrize(("text", "expected"), VECTORS)
def test_contract_hash_vectors(text, expected):
    assert hashing.block_text_hash(text) == expected


def test_selected_text_hash_is_not_normalized():
    assert hashing.text_hash("  Pay $50\tnow.  ") != hashing.block_text_hash("  Pay $50\tnow.  ")


def test_normalize_uses_javascript_whitespace():
    assert hashing.normalize_text("\u00a0a\u2003\u2003b\ufeff") == "a b"
    # U+001C..U+001F are whitespace to Python's \s but not to JavaScript's
    assert hashing.normalize_text("a\x1cb") == "a\x1cb"


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("Pay the fees.", "Pay the fees."),
        (" Pay the fees.", "Pay the fees."),
        ("Pay the fees. ", "Pay the fees."),
        ("Pay  the fees.", "Pay the fees."),
        ("Pay\u00a0the fees.", "Pay the fees."),
        ("Pay the\u3000fees.", "Pay the fees."),
        ("Pay the fees.\ufeff", "Pay the fees."),
        (" ", ""),
    ],
)
def test_only_single_inner_spaces_are_already_normal(text, normal):
    """The quick answer for a text with single spaces only (most paragraphs) is the same as the
    full normalization: a space at either end, two spaces or any other whitespace still count."""
    assert hashing.normalize_text(text) == normal


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("1A2B3C4D", True),
        ("seq-0001", True),
        ("seq-12345", True),
        ("blank-0003", True),
        ("seq-001", False),
        ("b-0001", False),
        ("", False),
        ("seq-00a1", False),
        (17, False),
    ],
)
def test_block_id_grammar(value, ok):
    assert hashing.is_block_id(value) is ok


def test_id_helpers():
    assert hashing.sequential_index("seq-0011") == 11
    assert hashing.para_id_from_block_id("seq-0011") is None
    assert hashing.para_id_from_block_id("00AB12CD") == "00AB12CD"
    assert hashing.current_para_id("FFFFFFFF") == "7FFFFFFF"
    assert hashing.is_text_hash("h45h") and not hashing.is_text_hash("H45H")
    assert not hashing.is_text_hash("h45h\n") and not hashing.is_block_id("seq-0001\n")


def _reference_djb2(text: str) -> str:
    """The contract's definition, literally: one step per code point."""
    h = 5381
    for code in map(ord, text):
        h = (h * 33 + code) % 2147483647
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        h, rem = divmod(h, 36)
        out = digits[rem] + out
        if h == 0:
            return "h" + out


def test_fast_hash_equals_the_step_by_step_definition():
    import random

    rng = random.Random(7)
    alphabet = ["a", "Z", " ", "\t", "é", "Č", "中", "😀", "\U0010fffd", "\u0301"]
    for length in [0, 1, 2, 33, 500, 5000]:
        for _ in range(20):
            text = "".join(rng.choice(alphabet) for _ in range(length))
            assert hashing.text_hash(text) == _reference_djb2(text)
