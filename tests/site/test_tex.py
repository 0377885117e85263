"""TeX as MathML for pages and plain text for titles; whatever a title holds, the markup
that reaches a page is MathML and escaped text only."""

from __future__ import annotations

import doctest

import pytest

from scholargraph.api.site import addresses, negotiate, tex


def test_the_modules_examples() -> None:
    for module in (tex, negotiate, addresses):
        failed, _ = doctest.testmod(module)
        assert failed == 0, module.__name__


@pytest.mark.parametrize(
    "title",
    [
        r"$\text{<img src=x onerror=alert(1)>}$",
        r"$\href{javascript:alert(1)}{x}$",
        r"$\style{background:url(x)}{x}$ and $\class{evil}{y}$",
        "<script>alert(1)</script> $x$",
        r'$\mathrm{"onmouseover="alert(1)}$',
    ],
)
def test_nothing_but_mathml_and_text_gets_through(title: str) -> None:
    html = str(tex.to_html(title))
    assert "<script" not in html and "<img" not in html
    assert "javascript:" not in html and "style=" not in html and "class=" not in html
    assert "onmouseover=" not in html or "&quot;" in html


def test_formulas_and_dollars() -> None:
    assert str(tex.to_html("Costs \\$5 and $x^2$")).startswith("Costs $5 and <math")
    assert "<math" not in str(tex.to_html("I paid $5 and $6 today"))
    assert 'display="block"' in str(tex.to_html(r"$$\sum_i i$$"))
    assert "<math" in str(tex.to_html(r"\(\mathcal{O}(n)\) time"))
    broken = str(tex.to_html(r"the $\begin{bad}$ case"))
    assert "<code>" in broken and "$" not in broken
    assert tex.to_plain(r"$\mathcal{O}(n \log n)$ sorting") == "𝒪(nlogn) sorting"


def test_slugs_leave_tex_out() -> None:
    assert addresses.paper_slug(r"Bounds for $x<1$ and $\alpha$-stable laws") == (
        "bounds-for-x-1-and-alpha-stable-laws"
    )
    assert addresses.paper_slug("$$") == "paper"
