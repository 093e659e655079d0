"""`memoryrush export markdown DIR`: one Obsidian-friendly Markdown file per article's deck.

Each file: YAML front matter (title, source, tags, language, dates, and our marker), the summary,
then each unit of the article's deck with its type, context line, tags, questions and quotes (blockquotes
ending with the paragraph id and locator). A unit Browse moved to another article's deck is in
that article's file, its heading naming the source article its quotes are from. Names are
stable: the title made safe for every file system, plus " (N)" only when another article
already has that name.

Whose file is it? A file is ours when its front matter carries `memoryrush_article:
"<library id>/<article id>"`; that line is how a second export finds the file again (even after
the title changed) and updates it in place. Anything the reader wrote below the line
`MARKER` is kept on every export. A file at our name that is not ours (no marker, or another
library's) is never touched: the article gets the next free name instead. A file of ours whose
generated part the reader edited (its digest no longer matches `memoryrush_digest`) is left as
it is and reported, unless `force` is given.

A file of ours whose article has no unit the export takes any more (all rejected since, or moved
to another deck) is updated too, its generated part saying so ("No confirmed unit."): left
alone, it went on listing units since rejected. Only articles the export covers (all, or those
it names) are; an article deleted from the library keeps its file as it is.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from core.domain.context import context_line
from core.domain.export import ExportArticle, ExportFilter, ExportResult, ExportUnit
from core.services.export.files import atomic_path
from core.services.export.guard import ExportError
from core.storage import export as export_repo
from core.text import sanitize

MARKER = "<!-- memoryrush: write your own notes below this line; exports keep them -->"
_KEY_ARTICLE = "memoryrush_article"
_KEY_DIGEST = "memoryrush_digest"
_UNSAFE = re.compile(r'[\\/:*?"<>|#^\[\]\x00-\x1f\x7f]+')
# Markdown (and Obsidian) syntax characters: escaped so article text stays text
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~=$%^&])")
Progress = Callable[[int, int], None]


def md_text(text: str) -> str:
    """Untrusted text as Markdown text: control characters out, syntax characters escaped,
    lines that would start a heading, list or rule made plain."""
    clean = _MD_SPECIAL.sub(r"\\\1", sanitize(text))
    return re.sub(r"(?m)^(\s*)([-+]|\d+[.)])", r"\1\\\2", clean)


def _yaml(value: object) -> str:
    """A YAML scalar or flow list: JSON is valid YAML, and quoting keeps any title safe."""
    return json.dumps(value, ensure_ascii=False)


def _date(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).date().isoformat()


def file_stem(title: str) -> str:
    stem = _UNSAFE.sub(" ", sanitize(title, single_line=True)).strip(" .")
    stem = re.sub(r"\s+", " ", stem)[:120].strip(" .")
    return stem or "Untitled"


def _tag(tag: str) -> str:
    return re.sub(r"[^\w/-]+", "-", sanitize(tag, single_line=True).strip()).strip("-")


def render_body(
    article: ExportArticle,
    units: list[ExportUnit],
    sources: dict[int, ExportArticle] | None = None,
    f: ExportFilter = ExportFilter(),
) -> str:
    """The generated part below the front matter (what the digest covers): the article's deck.
    `sources`: the source articles of units moved into it from elsewhere, by id; `f`: the units
    the export takes, named when there is none."""
    lines = [f"# {md_text(article.title)}", ""]
    if article.summary.strip():
        lines += ["## Summary", "", md_text(article.summary.strip()), ""]
    lines += ["## Memory units", ""]
    if not units:
        lines += [_nothing(f), ""]
    for n, unit in enumerate(units, start=1):
        head = f"### {n}. {unit.memory_type}" + (" · yours" if unit.yours else "")
        if unit.status != "confirmed":
            head += f" · {unit.status}"
        source = (sources or {}).get(unit.article_id)
        if unit.article_id != article.id and source is not None:  # its quotes are the source's
            head += f" · from {md_text(source.title)}"
        where = context_line((source or article).title, unit.locator)  # the quotes' article
        lines += [head, "", f"*{md_text(where)}*", "", md_text(unit.content), ""]
        if unit.tags:
            lines += [" ".join(f"#{t}" for t in (_tag(x) for x in unit.tags) if t), ""]
        for q in unit.quotes:
            cited = " · ".join(p for p in (q.paragraph_id, q.locator.label()) if p)
            lines += [*(f"> {line}" for line in md_text(q.quote).splitlines() or [""]), f"> — {cited}", ""]
        for question in unit.questions:
            label = "Cloze" if question.kind == "cloze" else "Q"
            lines.append(f"- **{label}:** {md_text(question.question)}")
            lines.append(f"  **A:** {md_text(question.answer)}")
        if unit.questions:
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _nothing(f: ExportFilter) -> str:
    """What a file without units says: 'No confirmed unit.' (the statuses the export takes)."""
    narrower = (
        " this export takes (its types, tags or origin)" if f.memory_types or f.tags or f.origin else ""
    )
    return f"No {' or '.join(f.statuses) or 'matching'} unit{narrower}."


def _front_matter(library: str, article: ExportArticle, units: list[ExportUnit], digest: str) -> str:
    tags = sorted({t for u in units for t in (_tag(x) for x in u.tags) if t})
    updated = max([u.updated_at for u in units], default=article.added_at)
    fields = {
        "title": sanitize(article.title, single_line=True),
        "source": sanitize(article.source_path, single_line=True),
        "tags": ["memoryrush", *tags],
        "language": article.language,
        "created": _date(article.added_at),
        "updated": _date(updated),
        _KEY_ARTICLE: f"{library}/{article.id}",
        _KEY_DIGEST: digest,
    }
    return "---\n" + "".join(f"{k}: {_yaml(v)}\n" for k, v in fields.items()) + "---\n\n"


@dataclass(frozen=True, slots=True)
class _Existing:
    marker: str | None  # our memoryrush_article value, or None when not ours
    digest: str | None
    body: str  # the generated part as it is now
    notes: str  # what the reader wrote below MARKER


def _read(path: Path, *, head_only: bool = False) -> _Existing:
    """What a file holds; `head_only` reads just enough for the front matter (a scan of a big vault)."""
    try:
        if head_only:
            with path.open("rb") as fh:
                text = fh.read(8192).decode("utf-8", errors="replace")
        else:
            text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return _Existing(None, None, "", "")
    if not text.startswith("---\n") or "\n---\n" not in text[4:]:
        return _Existing(None, None, "", "")
    head, _, rest = text[4:].partition("\n---\n")
    values: dict[str, str] = {}
    for line in head.splitlines():
        key, sep, raw = line.partition(": ")
        if sep:
            try:
                values[key] = json.loads(raw)
            except ValueError:
                values[key] = raw
    body, _, notes = rest.lstrip("\n").partition(MARKER + "\n")
    return _Existing(values.get(_KEY_ARTICLE), values.get(_KEY_DIGEST), body.rstrip("\n") + "\n", notes)


@dataclass
class _Folder:
    """The export folder: which of its files are ours, by article marker."""

    root: Path
    library: str
    ours: dict[str, Path] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)

    def scan(self) -> None:
        for path in sorted(self.root.glob("*.md")):
            self.taken.add(path.name.casefold())
            found = _read(path, head_only=True).marker
            if isinstance(found, str) and found.startswith(f"{self.library}/"):
                self.ours.setdefault(found, path)

    def place(self, article: ExportArticle) -> Path:
        key = f"{self.library}/{article.id}"
        if key in self.ours:
            return self.ours[key]
        stem = file_stem(article.title)
        n = 1
        name = f"{stem}.md"
        while name.casefold() in self.taken:
            n += 1
            name = f"{stem} ({n}).md"
        self.taken.add(name.casefold())
        self.ours[key] = self.root / name
        return self.root / name


def export_markdown(
    folder: Path, f: ExportFilter, *, force: bool = False, progress: Progress | None = None
) -> ExportResult:
    """Write or update one file per article with units the filter takes."""
    folder = folder.expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create the folder {folder}: {exc.strerror or exc}") from exc
    library = export_repo.library_id()
    place = _Folder(folder, library)
    place.scan()
    ids = export_repo.deck_ids(f)
    articles = export_repo.articles(ids)
    emptied = export_repo.articles(_left_without_units(place, f, ids))
    total = len(ids) + len(emptied)
    notes: list[str] = []
    units_written = 0
    for done, article_id in enumerate(ids, start=1):
        article = articles[article_id]
        units = _units_of(f, article_id)
        units_written += len(units)
        moved_in = {u.article_id for u in units} - articles.keys()
        if moved_in:
            articles.update(export_repo.articles(sorted(moved_in)))
        path = place.place(article)
        skipped = _written_or_said(
            done - 1, total, partial(_write, path, library, article, units, articles, f, force=force)
        )
        if skipped:
            notes.append(skipped)
        if progress is not None:
            progress(done, total)
    for done, article in enumerate(emptied.values(), start=len(ids) + 1):
        skipped = _written_or_said(
            done - 1, total, partial(_write, place.place(article), library, article, [], {}, f, force=force)
        )
        if skipped:
            notes.append(skipped)
        if progress is not None:
            progress(done, total)
    return ExportResult(str(folder), len(ids), units_written, 0, 0, tuple(notes))


def _written_or_said(before: int, total: int, write: Callable[[], str | None]) -> str | None:
    """One file's write; when it fails (a full disk), the error also says that the files before
    it were written, each whole (re-attack: only the failing file was named, "nothing was written
    there", while 2 of 4 files stood in the folder)."""
    try:
        return write()
    except ExportError as exc:
        if not before:
            raise
        raise ExportError(
            f"{exc}. The {before} {'file' if before == 1 else 'files'} before it (of {total}) "
            f"{'was' if before == 1 else 'were'} written, each whole: export again once there is room"
        ) from exc


def _left_without_units(place: _Folder, f: ExportFilter, ids: list[int]) -> list[int]:
    """Articles with a file of ours in the folder, covered by this export, that have no unit it
    takes: their file still lists what an earlier export wrote."""
    prefix = f"{place.library}/"
    found = (key.removeprefix(prefix) for key in place.ours)
    exported = set(ids)
    return sorted(
        int(n)
        for n in found
        if n.isdigit() and int(n) not in exported and (not f.article_ids or int(n) in f.article_ids)
    )


def _units_of(f: ExportFilter, article_id: int) -> list[ExportUnit]:
    """The units of the article's deck the filter takes: its own first, in article order, then
    those moved in from other articles."""
    one = ExportFilter(
        article_ids=(article_id,),
        statuses=f.statuses,
        memory_types=f.memory_types,
        tags=f.tags,
        origin=f.origin,
    )
    units = [u for batch in export_repo.iter_units(one) for u in batch]
    return sorted(units, key=lambda u: (u.article_id != article_id, u.article_id, u.position, u.id))


def _write(
    path: Path,
    library: str,
    article: ExportArticle,
    units: list[ExportUnit],
    sources: dict[int, ExportArticle],
    f: ExportFilter,
    *,
    force: bool,
) -> str | None:
    """Write one file; returns a note when the file was left alone."""
    body = render_body(article, units, sources, f)
    digest = _digest(body)
    notes = ""
    if path.exists():
        existing = _read(path)
        notes = existing.notes
        if existing.digest is not None and existing.digest != _digest(existing.body) and not force:
            return (
                f"{path.name}: you edited the generated part, so it was not updated "
                f"(write below the notes line, or pass --force to replace it)"
            )
        if existing.body == body and existing.digest == digest:
            return None  # unchanged: the file (and its modification time) stay as they are
    text = _front_matter(library, article, units, digest) + body + "\n" + MARKER + "\n" + notes
    with atomic_path(path) as partial:
        partial.write_text(text, encoding="utf-8")
    return None


def _digest(body: str) -> str:
    return hashlib.sha1(body.encode("utf-8")).hexdigest()[:16]
