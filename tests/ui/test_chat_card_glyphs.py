"""What a comment operation's chat card prints: its label is a word every UI font has.

The card once labelled the comment with U+1F4AC (speech balloon). No font installed with the app
or on a plain desktop draws it, so Qt's fallback found nothing and the card showed a tofu box.
The label is text now; the person's or the model's own comment text is kept as written.
"""

from __future__ import annotations

from reviewer_app.ui.chat.describe import redline_html

COLORS = {"deleted": "#c00", "inserted": "#060"}


def _outside_basic_planes(text: str) -> list[str]:
    """Characters from the pictograph planes (U+1F000 and up), which text fonts do not cover."""
    return [char for char in text if ord(char) >= 0x1F000]


def test_a_comment_card_labels_its_comment_with_a_word_not_an_emoji() -> None:
    operation = {
        "type": "commentOnRange",
        "quote": "150 per cent",
        "comment": {"text": "Cap per contract year?"},
    }
    shown = redline_html(operation, None, COLORS)
    assert "<i>Comment: Cap per contract year?</i>" in shown
    assert _outside_basic_planes(shown) == []


def test_the_comment_text_itself_is_kept_as_written() -> None:
    operation = {"type": "commentOnBlock", "comment": "Agreed \U0001f44d"}
    shown = redline_html(operation, None, COLORS)
    assert _outside_basic_planes(shown) == ["\U0001f44d"]  # only the author's own emoji
