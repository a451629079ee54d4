from __future__ import annotations

import pytest

from core.render import inline_markdown_html, markdown_html


def test_inline_and_display_math_become_mathml() -> None:
    out = markdown_html("Speed $v = u + at$ and\n\n$$\n\\frac{1}{2}mv^2\n$$")
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in out
    assert 'display="block"' in out
    assert "<mfrac>" in out and "$" not in out


def test_bad_tex_falls_back_to_code() -> None:
    assert inline_markdown_html(r"$\frac{1}{$") == r"<code>\frac{1}{</code>"


def test_dollar_amounts_are_not_math() -> None:
    assert "<math" not in markdown_html("costs $5 and $10")


@pytest.mark.parametrize(
    ("source", "forbidden"),
    [
        ("<script>alert(1)</script>hello", "<script"),
        ("<script>alert(1)</script>hello", "alert"),
        ('<img src="x.png" onerror="alert(1)">', "onerror"),
        ('<a href="#" onclick="steal()">x</a>', "onclick"),
        ("[click](javascript:alert(1))", "javascript:"),
        ('<a href="JaVaScRiPt:alert(1)">x</a>', "javascript"),
        ("<iframe src='https://evil'></iframe>", "<iframe"),
        ("<style>body{}</style>x", "<style"),
        ('$x$<math><mi onclick="a()">y</mi></math>', "onclick"),
    ],
)
def test_sanitizer_removes_active_content(source: str, forbidden: str) -> None:
    assert forbidden not in markdown_html(source).lower()


def test_safe_markup_survives() -> None:
    out = markdown_html("**bold** and [a link](https://example.org)")
    assert "<strong>bold</strong>" in out
    assert 'href="https://example.org"' in out
    assert 'rel="noopener noreferrer"' in out


def test_inline_rendering_drops_the_paragraph() -> None:
    assert inline_markdown_html("$12\\ \\mathrm{m}$").startswith("<math")


def test_the_fast_path_renders_exactly_what_markdown_would() -> None:
    from core.render import _full_markdown_html, _plain_paragraph_html

    texts = [
        "A body of mass $m = 2\\ \\mathrm{kg}$ moves at $v = 3\\ \\mathrm{m\\,s^{-1}}$.",
        "Both A and R are true and R is the correct explanation of A",
        "First paragraph with $x^2$.\n\nSecond one, plain.",
        "O'Neil's \"quoted\" value is 5 % of 20",
        "$\\frac{1}{2}mv^2$",
    ]
    for text in texts:
        fast = _plain_paragraph_html(text)
        assert fast is not None, text
        assert fast == _full_markdown_html(text), text
    for needs_markdown in ("- a list item", "**bold**", "a < b", "1. first", "line\nbreak"):
        assert _plain_paragraph_html(needs_markdown) is None, needs_markdown
