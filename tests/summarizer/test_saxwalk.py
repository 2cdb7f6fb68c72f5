"""The C walker on libxml2's events gives what walk.py's parser-target walker gives.

walk.py's ``_Walker`` is the reference (``walk_events``); the C module
``unob.summarizer._saxwalk`` (``walk_c``) must produce an equal
``Walked`` for every input: real pages, fixtures and generated HTML soup.
"""

from __future__ import annotations

import gzip
import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from test_extract_props import _html

from unob.summarizer import walk as W
from unob.summarizer.charset import to_utf8

REPO = Path(__file__).resolve().parents[2]
PAGES = sorted((REPO / "tests" / "data" / "article-extraction-benchmark" / "html").glob("*.gz"))
FIXTURES = sorted((REPO / "tests" / "summarizer" / "fixtures").glob("*.html*"))


def _c_walker() -> ModuleType:
    try:
        module = importlib.import_module("unob.summarizer._saxwalk")
    except ImportError:
        pytest.skip("unob was installed without its C extensions")
    # Configured with this process's walk module, compiled or sources.
    module.configure(*W._c_config())
    return module


def _plain(walked: W.Walked) -> dict[str, Any]:
    """A Walked as plain values; captured text pieces joined (only their join counts)."""
    out: dict[str, Any] = {}
    for name in W.Walked.__dataclass_fields__:
        value = getattr(walked, name)
        if name in ("headings", "links", "images"):
            value = [
                tuple(
                    "".join(getattr(item, f)) if f == "pieces" else getattr(item, f)
                    for f in type(item).__dataclass_fields__
                )
                for item in value
            ]
        out[name] = value
    return out


def _assert_same(data: bytes, tree: ModuleType) -> None:
    assert _plain(W.walk_c(data, tree)) == _plain(W.walk_events(data))


def _read(path: Path) -> bytes:
    data = path.read_bytes()
    return to_utf8(gzip.decompress(data) if path.name.endswith(".gz") else data, None)


def test_real_pages_and_fixtures() -> None:
    tree = _c_walker()
    paths = PAGES + FIXTURES
    assert len(paths) > 181
    for path in paths:
        _assert_same(_read(path), tree)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html=_html)
def test_html_soup(html: str) -> None:
    _assert_same(html.encode("utf-8", "surrogatepass"), _c_walker())


@pytest.mark.parametrize(
    "html",
    [
        "",  # no element: "Document is empty"
        "<![CDATA[x]]>",  # no element, and no exception from lxml either
        "<title>a \n b</title><title>second</title><h1><title>in heading</title></h1>",
        '<script type=" Application/LD+JSON ">{"a": 1}</script><script>x()</script>',
        '<html lang=" de "><body lang="en"><p>x</p>',
        '<h2><a id="" name="n">t</a></h2><h2><a href="#frag">u</a></h2><h2><a href="#">v</a></h2>',
        '<section id="s"><h1>T¶</h1></section><div id="d"><p>x</p><h2>late</h2></div>',
        "<a href=/x>1<h3>in link</h3>2</a><area href=/y alt=map>",
        "<pre>  one line  </pre><pre>\n  a\n   b  \n\n</pre><code>c <code>d</code></code>",
        '<p>a<span class="hidden">b</span><em style="display: none">c</em><b hidden>d</b>e</p>',
        '<div role=" Navigation "><p>x</p></div><span role="banner" class="x">y</span>',
        "<p>q: <q>quoted</q> tt: <tt>mono</tt></p>",
        '<img data-src="lazy.png" src="data:x" alt="a"><time datetime="2020-01-01">t</time>',
        "<p>" + "<span>x</span>" * 300 + "</p>" + "".join(f"<t{i}>y</t{i}>" for i in range(200)),
    ],
)
def test_edge_cases(html: str) -> None:
    _assert_same(html.encode(), _c_walker())


@pytest.mark.parametrize(
    "html",
    [
        # An attribute value past libxml2's 10 MB limit stops the parse, after
        # which libxml2 may still deliver an event that lxml ignores.
        b'<div><p>a</p><p title="' + b"h" * 11_000_000 + b'">x</p></div>',
        b'<p>a</p><a href="' + b"h" * 11_000_000 + b'">x</a>',
    ],
)
def test_a_parse_that_libxml2_stops(html: bytes) -> None:
    _assert_same(html, _c_walker())


def test_a_failed_configure_keeps_the_configuration() -> None:
    module = _c_walker()
    config = list(W._c_config())
    config[18] = module.__file__  # a loaded module without libxml2's functions
    with pytest.raises(ImportError):
        module.configure(*config)
    assert module.walk(b"<p>still works</p>").b_text == ["still works"]


def test_walk_takes_bytes() -> None:
    module = _c_walker()
    with pytest.raises(TypeError):
        module.walk("<p>x</p>")
    assert module.walk(b"<p>x</p>").b_text == ["x"]
    assert module.walk(memoryview(b"<p>y</p>")).b_text == ["y"]


def test_an_error_in_a_callback_is_raised_not_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python error inside libxml2's callbacks stops the parse and is raised."""
    module = _c_walker()

    def broken(*args: object) -> None:
        raise RuntimeError("broken rule")

    config = list(W._c_config())
    config[7] = broken  # _read_img
    module.configure(*config)
    try:
        with pytest.raises(RuntimeError, match="broken rule"):
            module.walk(b"<p>a<img src=x.png>b</p><p>more</p>")
        assert module.walk(b"<p>fine</p>").b_text == ["fine"]
    finally:
        module.configure(*W._c_config())


def test_inline_location_tags_keep_their_text() -> None:
    """<q> and <tt> are inline with a location bit; their text was once dropped."""
    walked = W.walk_events(b"<p>say <q>hello</q> to <tt>tt</tt></p>")
    assert walked.b_text == ["say hello to tt"]


def test_one_line_pre_is_stripped() -> None:
    walked = W.walk_events(b"<pre>\x0c  x = 1  </pre><pre>  a\n    b</pre>")
    assert walked.b_text == ["x = 1", "  a\n    b"]
