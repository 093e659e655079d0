"""The evidence under a revealed card: each paragraph says where it sits, but not the article's
title a second time (a web page's text before its first heading sits in the title's section)."""

from __future__ import annotations

from dataclasses import replace

from core.domain.model import Locator, SourceParagraph
from core.services.bootstrap import Services
from tui.widgets.review_card import evidence_view


def test_the_evidence_says_where_a_paragraph_sits_but_not_the_title_twice() -> None:
    title = "zlib Usage Example"
    intro = SourceParagraph("p_001", "We often get questions.", locator=Locator(section=(title,)))
    later = SourceParagraph("p_014", "The first thing we do.", locator=Locator(section=("Compression",)))
    plain = SourceParagraph("p_020", "No heading here.")
    lines = evidence_view(title, [(intro, []), (later, []), (plain, [])]).plain.split("\n")
    assert lines == [
        f"Evidence  {title}",
        "p_001  We often get questions.",
        "p_014  Compression",
        "The first thing we do.",
        "p_020  No heading here.",
    ]


def test_a_place_read_under_its_title_leaves_the_title_out() -> None:
    """The one rule of the context line (core.domain.context): a part that repeats the title,
    or the part before it, is said once; white space folded."""
    where = Locator(section=("Guide", "Install", "Linux"), page=3)
    assert where.label() == "p. 3 · Guide › Install › Linux"  # alone, the whole place
    assert where.label(under=" guide ") == "p. 3 · Install › Linux"
    assert where.label(under="Another article") == where.label()
    assert (
        Locator(section=("Install", "Guide")).label(under="Guide") == "Install › Guide"
    )  # only a leading one
    assert Locator(section=("Guide",)).label(under="Guide") == ""
    book = Locator(section=("Ownership", "Ownership", "Rules  of\nit"), chapter="My Book")
    assert book.label(under="My Book") == "Ownership › Rules of it"
    assert book.label() == "My Book · Ownership › Rules of it"
    assert book.path(under="My Book") == ["Ownership", "Rules of it"]  # the context line's parts


def test_a_search_hit_names_its_place_without_the_title_again() -> None:
    """A search hit says its title, then its place: not the title again when the page's first
    section is named after it."""
    from core.domain.search import SearchHit
    from tui.modals.search import hit_label

    hit = SearchHit(
        article_id=1,
        source_path="/tmp/a.html",
        title="zlib Usage Example",
        paragraph_id="p_001",
        position=0,
        unit_id=None,
        score=1.0,
        snippet="We often get questions.",
        locator=Locator(section=("zlib Usage Example",)),
    )
    assert hit_label(hit).plain.count("zlib Usage Example") == 1
    inner = replace(hit, locator=Locator(section=("zlib Usage Example", "Compression")))
    assert " · Compression" in hit_label(inner).plain and hit_label(inner).plain.count("zlib") == 1


def test_triage_names_an_evidence_place_without_its_title(samples: Services) -> None:
    """Triage's unit card says the title on its From line; an evidence line says only the
    place under it (the sample articles' paragraphs sit under their "# Title")."""
    from tui.widgets.unit_view import unit_details

    article = samples.library.articles()[0]
    units = samples.library.units(article.id)
    shown = [
        line
        for unit in units
        for line in unit_details(unit, article.title).plain.split("\n")
        if line.startswith("Evidence ")
    ]
    assert shown and all(article.title not in line.split("“")[0] for line in shown), shown
