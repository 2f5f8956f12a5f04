"""core/singleline.py: what counts as a control character in a one-line field."""

import pytest

from core.singleline import (
    NotSingleLine,
    check_single_line,
    control_characters,
    is_single_line,
)


@pytest.mark.parametrize("text", ["Yvonne de Haan", "Jürgen Müller", "O'Neill-Smith", "Ĳsbrand", ""])
def test_ordinary_names_are_single_line(text):
    assert is_single_line(text)
    assert check_single_line(text, "name") == text


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("Anna\nBos", ["U+000A"]),
        ("Anna\r\nBos", ["U+000A", "U+000D"]),
        ("Anna\x00", ["U+0000"]),
        ("Anna\tBos", ["U+0009"]),
        ("Anna\x7f", ["U+007F"]),
        ("Anna\x85Bos", ["U+0085"]),
        ("Anna\u2028Bos", ["U+2028"]),
    ],
)
def test_control_characters_are_named(text, codes):
    assert not is_single_line(text)
    assert control_characters(text) == codes
    with pytest.raises(NotSingleLine) as refused:
        check_single_line(text, "name")
    assert refused.value.codes == codes
