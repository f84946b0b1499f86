"""Number formats: how a list counter value is spelled for each ``w:numFmt``.

Kept apart from :mod:`.numbering` (which decides *which* value a paragraph shows) because the
spelling rules (Roman numerals, letters, CJK counting, Hebrew, words) are a catalogue of their
own, each checked against LibreOffice on 51 values.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial


def _words(text: str) -> list[str]:
    return text.split()


_ROMAN_VALUES = (1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1)
_ROMAN = tuple(zip(_ROMAN_VALUES, _words("M CM D CD C XC L XL X IX V IV I"), strict=True))
_ONES = _words("zero one two three four five six seven eight nine ten eleven twelve thirteen")
_ONES += _words("fourteen fifteen sixteen seventeen eighteen nineteen")
_TENS = _words("- - twenty thirty forty fifty sixty seventy eighty ninety")
_IRREGULAR = _words("one two three five eight nine twelve")
_ORDINAL_WORDS = dict(zip(_IRREGULAR, _words("first second third fifth eighth ninth twelfth"), strict=True))
_LATIN = "abcdefghijklmnopqrstuvwxyz"
_ZH_DIGITS = "零一二三四五六七八九"
_HEBREW_UNITS, _HEBREW_TENS, _HEBREW_HUNDREDS = "אבגדהוזחט", "יכלמנסעפצ", "קרשת"
#: Alphabets of the letter formats, in the order LibreOffice 7.4 counts them.
_BIJECTIVE = {
    "hebrew2": "אבגדהוזחטיכלמנסעפצקרשת",
    "arabicAlpha": "أبتثجحخدذرزسشصضطظعغفقكلمنهوى",
    "arabicAbjad": "ابجدهوزحطيكلمنسعفصقرشتثخذضظغ",
    "russianLower": "абвгдежзиклмнопрстуфхцчшщыэюя",
}
#: Cyclic sign sets that LibreOffice only uses up to their length, then falls back to digits.
_SIGN_SETS = {"ideographTraditional": "甲乙丙丁戊己庚辛壬癸", "ideographZodiac": "子丑寅卯辰巳午未申酉戌亥"}
_CHINESE_FORMATS = _words("chineseCounting chineseCountingThousand japaneseCounting taiwaneseCounting")


def _roman(n: int) -> str:
    out = []
    for value, numeral in _ROMAN:
        count, n = divmod(n, value)
        out.append(numeral * count)
    return "".join(out)


def _repeated_letter(n: int, alphabet: str) -> str:
    """Word's and LibreOffice's Latin letter lists: a..z, then aa..zz, aaa.. (letter repeated)."""
    repeat, index = divmod(n - 1, len(alphabet))
    return alphabet[index] * (repeat + 1)


def _bijective(n: int, alphabet: str) -> str:
    """Spreadsheet-column style letters (א..ת, then אא, אב..), LibreOffice's non-Latin lists."""
    out = ""
    while n > 0:
        n, index = divmod(n - 1, len(alphabet))
        out = alphabet[index] + out
    return out


def _cardinal_words(n: int) -> str:
    """English spell-out as ICU (so LibreOffice) writes it: "one hundred one", "one thousand and one"."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _ONES[ones] if ones else "")
    for size, word in ((10**9, "billion"), (10**6, "million"), (1000, "thousand"), (100, "hundred")):
        if n >= size:
            head, rest = divmod(n, size)
            joiner = " and " if size >= 1000 and rest < 100 else " "
            return _cardinal_words(head) + " " + word + (joiner + _cardinal_words(rest) if rest else "")
    raise AssertionError("unreachable")


def _ordinal_words(n: int) -> str:
    words = _cardinal_words(n)
    cut = max(words.rfind(" "), words.rfind("-")) + 1
    last = words[cut:]
    if last in _ORDINAL_WORDS:
        last = _ORDINAL_WORDS[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return words[:cut] + last


def _ordinal_suffix(n: int) -> str:
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _chinese(n: int) -> str:
    """Chinese counting numerals (十一, 一百零一, 一千零一十); LibreOffice writes Japanese ones alike."""
    if n >= 10000:
        high, low = divmod(n, 10000)
        gap = _ZH_DIGITS[0] if 0 < low < 1000 else ""
        return _chinese(high) + "万" + gap + (_chinese(low) if low else "")
    out: list[str] = []
    zero_pending = False
    for unit, name in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = n // unit % 10
        if digit == 0:
            zero_pending = bool(out)
            continue
        if zero_pending:
            out.append(_ZH_DIGITS[0])
        zero_pending = False
        out.append(("" if digit == 1 and name == "十" and not out else _ZH_DIGITS[digit]) + name)
    return "".join(out) or _ZH_DIGITS[0]


def _hebrew_gematria(n: int) -> str:
    """Hebrew numerals (hebrew1) as LibreOffice writes them, thousands included ("ב כד")."""
    thousands, n = divmod(n, 1000)
    if thousands:
        head = _hebrew_gematria(thousands)
        return head + " " + _hebrew_gematria(n) if n else ("אלף" if thousands == 1 else head + " אלפים")
    out = _HEBREW_HUNDREDS[3] * (n // 400) + ("" if n % 400 < 100 else _HEBREW_HUNDREDS[n % 400 // 100 - 1])
    n %= 100
    if n in (15, 16):  # written 9+6 / 9+7, never as letters that spell a divine name
        return out + _HEBREW_UNITS[8] + _HEBREW_UNITS[n - 10]
    tens = "" if n < 10 else _HEBREW_TENS[n // 10 - 1]
    return out + tens + ("" if n % 10 == 0 else _HEBREW_UNITS[n % 10 - 1])


def _sign(n: int, signs: str) -> str:
    return signs[n - 1] if n <= len(signs) else str(n)


def _enclosed_circle(n: int) -> str:
    """①..⑳, ㉑..㉟, ㊱..㊿ (Unicode has circled numbers up to 50), then plain digits."""
    for low, high, base in ((1, 20, 0x2460), (21, 35, 0x3251), (36, 50, 0x32B1)):
        if low <= n <= high:
            return chr(base + n - low)
    return str(n)


def zero_pad_width(pattern: str | None) -> int:
    """Width of a Word 2010 custom zero-padded format ("001, 002, 003, ..."), 0 if another kind."""
    match = re.fullmatch(r"(0+1), 0*2, 0*3, \.\.\.", (pattern or "").strip())
    return len(match.group(1)) if match else 0


def format_number(value: int, num_fmt: str, custom_format: str | None = None) -> str:
    """Render one level's counter ``value`` in ``num_fmt`` (ST_NumberFormat) as LibreOffice 7.4 does.

    Formats LibreOffice shows as plain digits (decimalFullWidth, decimalEnclosedParen,
    thaiNumbers, ...) and unknown ones give plain digits here too, as do values below 1, which
    letters, Roman numerals and words cannot express.
    """
    if num_fmt == "none":
        return ""
    if num_fmt == "custom" and zero_pad_width(custom_format):
        return str(value).zfill(zero_pad_width(custom_format))
    render = _RENDERERS.get(num_fmt)
    return render(value) if render is not None and value >= 1 else str(value)


_RENDERERS: dict[str, Callable[[int], str]] = {
    "decimalZero": lambda n: str(n).zfill(2),
    "upperRoman": _roman,
    "lowerRoman": lambda n: _roman(n).lower(),
    "upperLetter": lambda n: _repeated_letter(n, _LATIN.upper()),
    "lowerLetter": lambda n: _repeated_letter(n, _LATIN),
    "ordinal": _ordinal_suffix,
    "cardinalText": lambda n: _cardinal_words(n).capitalize(),
    "ordinalText": lambda n: _ordinal_words(n).capitalize(),
    "decimalEnclosedCircle": _enclosed_circle,
    "hebrew1": _hebrew_gematria,
    **{fmt: _chinese for fmt in _CHINESE_FORMATS},
    **{fmt: partial(_bijective, alphabet=letters) for fmt, letters in _BIJECTIVE.items()},
    **{fmt: partial(_sign, signs=signs) for fmt, signs in _SIGN_SETS.items()},
}


#: Text in symbol fonts uses Private Use code points (U+F000 + the font's byte), or, in older
#: files, the byte itself ("·" in Symbol, "§" in Wingdings); either is shown as the Unicode
#: character the font draws there ("·" in Symbol is a bullet, not a middle dot), which every
#: machine can draw, where the symbol font itself is rarely installed outside Windows.
_SYMBOL_GLYPHS = {
    "symbol": dict(
        zip(
            b"\xb7\xa8\xde\x2d\xa7\xa9\xaa\xae\xac\xdc\xb0\xb1\xb4\xb8\xa3\xb3\xb9\xbb\xe0",
            "•♦⇒−♣♥♠→←⇐°±×÷≤≥≠≈◊",
            strict=True,
        )
    ),
    "wingdings": dict(
        zip(b"\xa7\xd8\xfc\x6c\x6e\x6f\x71\x75\x76\xa8\xa1\xe0\xfb\xfd\xfe", "▪➢✔●■□❑◆❖◻○➔✘☒☑", strict=True)
    ),
}
_ANY_FONT_BULLETS = dict(zip(b"\xb7\xa7\xd8\xfc\xa8\x6c\x6e", "•▪➢✔♦●■", strict=True))


def symbol_font_text(text: str, font: str | None) -> str:
    """``text`` written in ``font`` with the symbol font's characters as Unicode (see
    :data:`_SYMBOL_GLYPHS`); unchanged for other fonts and for characters not in the table."""
    symbols = _SYMBOL_GLYPHS.get((font or "").strip().lower())
    if symbols is None:
        return text
    return "".join(
        symbols.get(ord(ch) - 0xF000 if 0xF000 <= ord(ch) <= 0xF0FF else ord(ch), ch) for ch in text
    )


def bullet_text(lvl_text: str, font: str | None = None) -> str:
    """The visible bullet for a bullet level's ``w:lvlText`` written in ``font``.

    A private-use character the font's table does not name is a bullet Word users know by
    its byte whatever the font (``F0B7`` is the Symbol bullet even under Times New Roman).
    """
    shown = symbol_font_text(lvl_text, font)
    out = []
    for ch in shown:
        code = ord(ch)
        if 0xF000 <= code <= 0xF0FF:
            ch = _ANY_FONT_BULLETS.get(code - 0xF000, "•")
        out.append(ch)
    return "".join(out).strip()
