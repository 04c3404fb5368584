"""The build as named steps, each a function from what the step before made to what the next needs:

    read_config -> read_chapters -> check_prose -> give_prose -> compute_figures -> render_markdown  (a Book)
    -> cite_works -> package_runtime -> copy_theme -> parse_scripts -> add_directive_files
    -> subset_math_font -> address_assets -> address_drawings -> render_pages -> check_links   (gather_pages)
    -> render_print_edition -> index_search -> print_pdf -> write_offline_manifest   (finish_site: a Site)
    -> write (the swap)

gather() runs every step but the last, so nothing touches the output folder until the whole site
is in memory (`serve` writes after gather_pages and again after finish_site: builder/serve.py);
write() puts it in a temporary sibling folder that is swapped in whole (builder/swap.py), so a
failed build leaves the old site and readers never find the output folder missing or half written. The chapter steps go chapter by chapter (read_chapter, compute_chapter,
render_chapter), which is also how tests look at one page (gather_chapter).
"""
from __future__ import annotations

import copy
import hashlib
import html
import json
import re
import shutil
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import jinja2

from engine.figures import FIGURES
from engine.given import NOTHING, Given

from . import fallbacks, links, offline, palette, print_edition, swap
from .favicon import PATH as FAVICON, favicon_svg
from .directives import REGISTRY
from .directives.base import Page
from .errors import BuildError, clip, describe, did_you_mean, display_path, read_source
from .expressions import ExpressionError, evaluate
from .cache import BuildCache, digest
from .figure_store import FigureStore
from .figures import FigureCache, RenderedFigure, check_parts, embed_json, model_file
from .inputs import given_for
from . import lockfile
from .markdown_render import render
from .math import MathFound
from .math_font import PATH as MATH_FONT, characters, math_font
from . import contents, text_fonts
from .pages import environment, stamp
from .paths import Paths
from .references import Bibliography, citing_chapters, uncited_warnings
from .references import load as load_bibliography
from .runtime import Runtime, from_distribution, from_npm
from .runtime import downloads as runtime_downloads
from .search import search_index
from .snapshot import make_snapshot
from .site_config import ChapterEntry, SiteConfig, load_site_config
from .source import ScannedSource, prose, scan
from .views import check_scripts
from .wheel import build_wheel


ROOT = Path(__file__).resolve().parents[1]
MARKER = "runtime.json"  # every build writes it; a folder without it is not ours to replace


@dataclass
class Chapter:
    entry: ChapterEntry
    slug: str
    title: str
    html: str
    figures: list[RenderedFigure]
    source: ScannedSource  # the line-aware scan: directives and expressions with their lines
    blocks: list  # what each directive of `source` computed (or drafted), in the same order
    references: list  # the works it cites, in citation-number order
    math: MathFound  # the kinds of formula it holds

    @property
    def url(self) -> str:
        return f"{self.slug}.html"

    def split_title(self) -> tuple[str, str]:
        """The HTML up to the end of the `# Title` heading, and the rest: the page puts the status
        line between them, below the title."""
        head, sep, rest = self.html.partition("</h1>")
        return (head + sep, rest) if sep else ("", self.html)

    @property
    def has_live_figure(self) -> bool:
        """A figure whose view can ask Python: only then does the page have a runtime status line."""
        return any(f.live for f in self.figures)

    @property
    def uses_python(self) -> bool:
        """A live figure or an exercise: only then does the page carry the runtime's config."""
        return any(REGISTRY[use.name].needs_python(use, block) for use, block in zip(self.source.directives, self.blocks))

    def arguments(self, name: str) -> list[str]:
        """What its uses of directive `name` are called, in page order (its quizzes' ids, its exercises'
        names): the contents page counts the reader's progress against them."""
        return [use.argument for use in self.source.directives if use.name == name]

    @property
    def scripts(self) -> list[str]:
        """The script elements its directives need, each once, in the registry's order."""
        used = {use.name for use in self.source.directives}
        return list(dict.fromkeys(s for name, d in REGISTRY.items() if name in used for s in d.scripts))


ASSETS = "assets"  # the theme's files, under a folder named by their digest (address_assets)
PYODIDE = "pyodide"  # Pyodide's files and the engine's wheel, under a folder named by their digest


def _digest_files(files: dict[str, Path], cache: BuildCache) -> str:
    """One digest of files to copy, by name and content; kept while none of them changes on disk."""
    stamp = tuple((rel, str(src), src.stat().st_mtime_ns, src.stat().st_size) for rel, src in sorted(files.items()))
    return cache.get("copied files", stamp, lambda: digest(*[part for rel, src in sorted(files.items())
                                                             for part in (rel.encode(), src.read_bytes())]))


@dataclass
class Site:
    """Everything the write phase needs: file bytes by dist-relative path, and files to copy."""
    files: dict[str, bytes] = field(default_factory=dict)
    copies: dict[str, Path] = field(default_factory=dict)
    chapters: list[Chapter] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # `path:line: warning: ...`, for stderr
    notes: list[str] = field(default_factory=list)  # how this build differs from the usual, for stdout
    config: "Config | None" = None  # what every step reads
    cited_in: dict[str, list] = field(default_factory=dict)  # each cited work's key: the chapters citing it
    works: Bibliography | None = None  # the bibliography the pages show: none when no chapter cites a work
    runtime_config: dict | None = None  # what the worker boots with, embedded in the pages
    build_id: str = ""  # which build the pages are of (render_pages): nav.js follows a link in place only within one
    assets: str = ASSETS  # the folder of the theme's files, named by their content (address_assets)
    given: Given = NOTHING  # what the figures were given beyond their options (engine/given.py)


def _title(path: Path, toc_tokens) -> str:
    """The chapter's `# Title` as plain text: the toc's name is HTML-escaped text without tags,
    and templates escape what they write, so the title is unescaped here to be escaped once."""
    for token in toc_tokens:
        if token["level"] == 1:
            return html.unescape(token["name"])
    raise BuildError(path, 1, "a chapter must start with a '# Title' heading")


def _check_citations(path: Path, scanned: ScannedSource, bibliography: Bibliography | None) -> list:
    known = bibliography.entries if bibliography else {}
    for use in scanned.citations:
        for key in use.keys:
            if key not in known:
                if bibliography is None:
                    raise BuildError(path, use.line, f"citation [@{key}] but the content has no references.bib")
                raise BuildError(path, use.line, f"unknown citation key '{key}': not in "
                                                 f"{display_path(bibliography.path)}{did_you_mean(key, known)}")
    return [known[k] for k in scanned.cited_keys()]


def _code_error(path: Path, line: int, what: str, err: Exception) -> BuildError:
    """`chapter.md:line: figure 'x': engine/figures/x.py:31: KeyError: 'oops'`: where the figure (or
    other block) is used and where its code failed (build.py --traceback prints the whole traceback)."""
    return BuildError(path, line, f"{what}: {clip(describe(err, ROOT), 300)}")


@dataclass
class Source:
    """A chapter read: its file scanned line by line and its directives validated."""
    entry: ChapterEntry
    scanned: ScannedSource


@dataclass
class Computed:
    """A chapter's blocks computed and every inline expression's value: the figures' data and
    drawings, the quizzes' choices, the graded exercises. The scan it came from is left as read."""
    source: Source
    values: dict  # (line, column) -> the expression's value
    math: MathFound  # the kinds of formula its blocks' options typeset
    blocks: list  # what each directive computed (or drafted), in the order of source.scanned.directives


def read_chapter(entry: ChapterEntry, text: str | None = None) -> Source:
    """Scan the chapter (its file, or `text` read from it) and parse each directive at its line,
    then the rules across its page."""
    path = entry.path
    scanned = scan(path, read_source(path) if text is None else text, tuple(REGISTRY))
    for use in scanned.directives:
        try:
            REGISTRY[use.name].parse(use, path)
        except BuildError:
            raise
        except Exception as err:  # its model does not import (a syntax error) or fails reading its options
            raise _code_error(path, use.line, f"{use.name} '{use.argument}'", err) from err
    for name, directive in REGISTRY.items():
        directive.check_page([use for use in scanned.directives if use.name == name], path)
    return Source(entry, scanned)


def evaluate_expressions(source: Source, cache: BuildCache, given: Given = NOTHING, computed_only: bool = False) -> dict:
    """Every inline expression's value, by (line, column): the figures they read are computed, and
    nothing else (no drawing, no grading), so a wrong path into a figure's data is found early.
    With `computed_only`, only those whose figure the cache holds already: no model runs."""
    path = source.entry.path
    values = {}
    for use in source.scanned.expressions:
        if computed_only and not cache.figures.computed(use.expression.params, given):
            continue
        try:
            values[(use.line, use.start)] = evaluate(use.expression, lambda params: cache.figures.lookup(params, given))
        except ExpressionError as err:
            raise BuildError(path, use.line, str(err)) from None
        except Exception as err:  # the figure's own code failed: both places, the traceback on request
            raise _code_error(path, use.line, f"figure '{use.expression.name}'", err) from err
    return values


def _each_block(path, scanned, page: Page, hook: str) -> list:
    """Each directive's `hook` (compute, or draft) for the page, in order: a failure of its code (a
    model, a text, a fallback) is one path:line error at the block."""
    blocks = []
    for use in scanned.directives:
        try:
            blocks.append(getattr(REGISTRY[use.name], hook)(use, page))
        except BuildError:
            raise
        except Exception as err:
            raise _code_error(path, use.line, f"{use.name} '{use.argument}'", err) from err
    return blocks


def compute_chapter(source: Source, cache: BuildCache, given: Given, values: dict | None = None) -> Computed:
    """The chapter's expressions (unless `values` holds them already) and blocks computed, its
    figures given `given` (the series' prose and what is made from it: builder/inputs.py)."""
    entry, scanned = source.entry, source.scanned
    path = entry.path
    values = evaluate_expressions(source, cache, given) if values is None else values
    page = Page(path, entry.number, path.stem, cache, given)
    blocks = _each_block(path, scanned, page, "compute")
    return Computed(source, values, page.math, blocks)


def render_chapter(computed: Computed, bibliography: Bibliography | None = None,
                   templates: jinja2.Environment | None = None) -> Chapter:
    """The prose through Python-Markdown, each directive's block put in where it stood, made by its
    template in `templates` (the theme's; by default the repository's)."""
    entry, scanned = computed.source.entry, computed.source.scanned
    path = entry.path
    references = _check_citations(path, scanned, bibliography)
    numbers = {ref.key: i for i, ref in enumerate(references, 1)}
    text, marks = prose(scanned, computed.values)
    blocks = [(use, REGISTRY[use.name], block) for use, block in zip(scanned.directives, computed.blocks)]
    math = computed.math
    html, toc = render(path, text, marks, blocks, scanned, math, numbers, bibliography, templates)
    figures = [block for use, block in zip(scanned.directives, computed.blocks) if use.name == "figure"]
    return Chapter(entry, path.stem, _title(path, toc), html, figures, scanned, computed.blocks, references, math)


def gather_chapter(entry: ChapterEntry, cache: BuildCache, bibliography: Bibliography | None = None) -> Chapter:
    """One chapter through the three chapter steps (tests and tools that look at one page), as the
    series: its figures are given its own prose."""
    source = read_chapter(entry)
    return render_chapter(compute_chapter(source, cache, given_for([source], cache.figures)), bibliography)


@dataclass(frozen=True)
class Options:
    """How to build, as the command line, `serve` or a test asks."""
    paths: Paths
    runtime: Runtime
    cache: BuildCache  # `serve` keeps one across rebuilds
    live_reload: bool = False  # `serve`: pages reload on change, no service worker
    pdf: bool = False  # print the print edition as a PDF (seconds of Chromium: the command line's build)


@dataclass(frozen=True)
class Config:
    """The options and the series' own settings (site.toml, references.bib): every step reads it."""
    options: Options
    site: SiteConfig
    bibliography: Bibliography | None
    pdf: str | None  # the print edition's PDF, when this build prints one (asked for, and Chromium found)
    templates: jinja2.Environment  # the theme's
    palette: tuple[dict[str, str], dict[str, str]]  # the theme's colours: role -> '#rrggbb', light and dark


@dataclass
class Book:
    """The chapters as far as the steps have taken them: Source, then Computed, then Chapter."""
    config: Config
    chapters: list
    given: Given = NOTHING  # what the figures are given beyond their options (give_prose)


def read_config(options: Options) -> Config:
    paths = options.paths
    for name in FIGURES:
        check_parts(name, paths.theme)
    site = load_site_config(paths.content)
    pdf = print_edition.pdf_name(site.title) if options.pdf and print_edition.chromium() else None
    return Config(options, site, load_bibliography(paths.content, options.cache), pdf, environment(paths.theme),
                  (palette.load(paths.palette), palette.load_dark(paths.palette)))


def read_chapters(config: Config) -> Book:
    """Every chapter read, and its citations checked: a mistake in prose that needs no figure is
    reported before any figure is computed. So is a wrong path in an inline expression whose figure
    is computed already (serve's cache, or a warm one), as it costs a lookup, not a model's run.
    `serve` keeps each chapter read while its text and its models' code stay the same."""
    sources = []
    kept = config.options.cache.table("sources")
    for entry in config.site.chapters:
        text = read_source(entry.path)
        if kept.get(entry.path, (None,))[0] != (entry, text) or not _read_with_current_models(kept[entry.path][1]):
            kept[entry.path] = ((entry, text), read_chapter(entry, text))
        sources.append(kept[entry.path][1])
        _check_citations(entry.path, sources[-1].scanned, config.bibliography)
    for source in sources:  # its values are looked up again with the rest in compute_figures
        evaluate_expressions(source, config.options.cache, computed_only=True)  # no prose given yet: those wait
    return Book(config, sources)


def _read_with_current_models(source: Source) -> bool:
    """Whether the chapter's options were read into its models' current classes: `serve` keeps a
    chapter read while its text stays the same, but reloading a model binds a new Params class to
    its name, and the chapter is read again into that."""
    scanned = source.scanned
    params = [use.params for use in scanned.directives] + [use.expression.params for use in scanned.expressions]
    classes = {type(p) for p in params if type(p).__module__.startswith("engine.")}
    return all(getattr(sys.modules.get(cls.__module__), cls.__qualname__, None) is cls for cls in classes)


DRAFT_VALUE = "0"  # what an inline expression writes in a draft: a number, as most are, so formulas around it typeset


def draft_chapter(source: Source, cache: BuildCache, bibliography: Bibliography | None = None,
                  templates: jinja2.Environment | None = None) -> Chapter:
    """The chapter rendered before any engine work: each directive's draft for its block (its ids,
    its options' Markdown, no figure's data) and DRAFT_VALUE for every inline expression. Rendering
    it finds what the real render would in the prose (formulas, a '$' never closed, notes, blocks
    where none can go), and its ids are the page's ids for the link check."""
    entry, scanned = source.entry, source.scanned
    path = entry.path
    page = Page(path, entry.number, path.stem, cache)
    blocks = _each_block(path, scanned, page, "draft")
    values = {(use.line, use.start): DRAFT_VALUE for use in scanned.expressions}
    return render_chapter(Computed(source, values, page.math, blocks), bibliography, templates)


def _holds_expression(scanned: ScannedSource, line: int | None) -> bool:
    """Whether an inline expression stands on `line`: there an error of the draft may be the draft
    value's, not the author's, and waits for the real render."""
    return any(use.line == line for use in scanned.expressions)


def _unsure_ids(scanned: ScannedSource) -> bool:
    """Whether a heading holds an inline expression: its id, made from its text, then holds the value."""
    lines = scanned.lines
    for use in scanned.expressions:
        text, after = lines[use.line - 1], lines[use.line] if use.line < len(lines) else ""
        if text.lstrip().startswith("#") or re.fullmatch(r"[ ]{0,3}(=+|-+)[ ]*", after):
            return True
    return False


def check_prose(book: Book) -> Book:
    """Every chapter drafted (draft_chapter) and the links between the drafts checked, before any
    figure is computed: a mistake in prose stops the build in seconds, not after every figure. What
    a draft cannot settle waits for the final checks: an error on a line that holds an inline
    expression, a link to a file other than a page, an anchor on a page whose heading holds one.
    `serve` keeps each chapter's draft while its text, number and the bibliography stay the same."""
    config = book.config
    drafts, unsure = [], set()
    kept = config.options.cache.table("drafts")
    templates = stamp(config.templates)
    for source in book.chapters:
        scanned = source.scanned
        key = (source.entry, "\n".join(scanned.lines), config.bibliography, templates)
        if kept.get(source.entry.path, (None,))[0] != key:
            try:
                draft = draft_chapter(source, config.options.cache, config.bibliography, config.templates)
            except BuildError as err:
                if not _holds_expression(scanned, err.line):
                    raise
                unsure.add(source.entry.path.stem + ".html")
                continue
            draft = replace(draft, html=draft.html + _render(config, "_references.html", chapter=draft))
            kept[source.entry.path] = (key, draft)
        draft = kept[source.entry.path][1]
        drafts.append(draft)
        if _unsure_ids(scanned):
            unsure.add(draft.url)
    pages = {ch.url for ch in drafts} | unsure | {"index.html", "search.html", print_edition.PAGE}
    if any(ch.references for ch in drafts):
        pages.add("bibliography.html")
    links.check_links(drafts, pages, pages_only=True, unsure=frozenset(unsure))
    return book


def give_prose(book: Book) -> Book:
    """What the figures are given beyond their options, before any is computed: the series' prose
    (builder/corpus.py), and the files made from it that a figure reads (chapter 14's trained model,
    made once per prose and code: builder/inputs.py)."""
    figures = book.config.options.cache.figures
    return replace(book, given=given_for(book.chapters, figures, figures.drafting))


def compute_figures(book: Book) -> Book:
    """Every chapter's inline expressions first, then every chapter's blocks: a wrong path in an
    expression is reported once the figures expressions read are computed, before any drawing or grading."""
    cache, given = book.config.options.cache, book.given
    values = [evaluate_expressions(source, cache, given) for source in book.chapters]
    return replace(book, chapters=[compute_chapter(source, cache, given, v) for source, v in zip(book.chapters, values)])


def render_markdown(book: Book) -> Book:
    """Each chapter's HTML; `serve` keeps a chapter's while its text, its expressions' values, its
    blocks and the bibliography are the same (an edit to one model or one chapter renders few pages)."""
    config = book.config
    kept = config.options.cache.table("rendered")
    templates = stamp(config.templates)
    chapters = []
    for computed in book.chapters:
        source = computed.source
        blocks = computed.blocks
        math = (computed.math.inline, computed.math.display)  # as computed: rendering adds the prose's formulas to it
        key = (source.entry, "\n".join(source.scanned.lines), computed.values, blocks, math, config.bibliography,
               templates)
        if kept.get(source.entry.path, (None,))[0] != key:
            kept[source.entry.path] = (key, render_chapter(computed, config.bibliography, config.templates))
        chapters.append(kept[source.entry.path][1])
    return replace(book, chapters=chapters)


def _render(config: Config, template: str, **context) -> str:
    """A theme template rendered; a mistake in it is a BuildError at its file and line."""
    try:
        return config.templates.get_template(template).render(**context)
    except jinja2.TemplateError as err:
        raise BuildError(getattr(err, "filename", None) or config.options.paths.theme / "templates",
                         getattr(err, "lineno", None), f"template error: {err.message}") from None


def _page(site: Site, template: str, **context) -> bytes:
    """A page of the site: the template with what every page reads, and `context`."""
    config = site.config
    return _render(config, template, site=config.site, chapters=site.chapters, assets=site.assets,
                   live_reload=config.options.live_reload,
                   runtime_config=embed_json(site.runtime_config), bibliography=site.works, pdf=config.pdf,
                   build=site.build_id, reading_face=text_fonts.PRELOADED.name, **context).encode()


def cite_works(book: Book) -> Site:
    """The site starts from the chapters, each with the list of the works it cites below its text
    (where the link check and the print edition read it too); a warning for each work none cites."""
    config = book.config
    chapters = [replace(ch, html=ch.html + _render(config, "_references.html", chapter=ch)) for ch in book.chapters]
    site = Site(chapters=chapters, config=config, cited_in=citing_chapters(chapters), given=book.given)
    site.warnings += uncited_warnings(config.bibliography, site.cited_in)
    site.works = config.bibliography if site.cited_in else None  # nothing cited: no bibliography page, no link to one
    return site


def package_runtime(site: Site) -> Site:
    """Pyodide's core and the engine's wheel; runtime.json, the config the worker boots with, which
    the pages embed and which marks the output folder as a build of ours."""
    options = site.config.options
    paths, cache = options.paths, options.cache
    wheel_name, wheel = build_wheel(paths.engine, cache)
    # The engine beside Pyodide's packages (a folder named by its hash, so no cache keeps an old
    # one), registered in the shipped lock by pyodide-build's tooling: the worker loads it by name.
    # Without that tool the lock ships untouched and the worker loads the wheel by its URL.
    wheel_rel = f"{hashlib.sha256(wheel).hexdigest()[:12]}/{wheel_name}"
    copies = dict(options.runtime.files)
    lock_source = copies.pop(f"{PYODIDE}/pyodide-lock.json")
    engine_wheel = None
    if lockfile.available(paths.pyodide_cli):
        lock = lockfile.add_wheel(lock_source, wheel_rel, wheel, paths.pyodide_cli, cache)
    else:
        lock, engine_wheel = lock_source.read_bytes(), wheel_rel
        site.notes.append(lockfile.WITHOUT)
    # Pyodide's loader asks for its files by fixed names under one folder: the folder is named by
    # their digest instead (as the theme's, address_assets), and the lock, which changes with every
    # engine, by its own, so a new engine is not a new download of Pyodide.
    core = f"{PYODIDE}/{_digest_files(copies, cache)[:12]}"
    lock_name = f"pyodide-lock.{hashlib.sha256(lock).hexdigest()[:12]}.json"
    site.files[f"{core}/{lock_name}"] = lock
    site.files[f"{core}/{wheel_rel}"] = wheel
    site.copies.update({core + rel[len(PYODIDE):]: src for rel, src in copies.items()})
    # Python's start-up, restored by the worker: named by its own digest, as the lock is.
    snapshot, why_not = make_snapshot({rel[len(PYODIDE) + 1:]: src for rel, src in options.runtime.files.items()
                                       if not rel.endswith(".whl")}, paths)
    snapshot_name = None
    if snapshot:
        snapshot_name = f"snapshot.{hashlib.sha256(snapshot).hexdigest()[:12]}.bin.gz"
        site.files[f"{core}/{snapshot_name}"] = snapshot
    else:
        site.notes.append(why_not)
    served = {rel[len(core) + 1:]: src.stat().st_size for rel, src in site.copies.items() if rel.startswith(core + "/")}
    served |= {rel[len(core) + 1:]: len(data) for rel, data in site.files.items() if rel.startswith(core + "/")}
    site.runtime_config = options.runtime.config(core + "/", lock_name, engine_wheel, snapshot_name,
                                                 runtime_downloads(served))
    site.files[MARKER] = (json.dumps(site.runtime_config, indent=2) + "\n").encode()
    return site


DEV_ONLY = ("js/livereload.js",)  # theme files for `build.py serve` only, never in a production build


def copy_theme(site: Site) -> Site:
    """The theme's scripts; one stylesheet (the palette's custom properties, the text faces, site.css,
    then each figure's own CSS), the print stylesheet, the favicon and the text faces' files."""
    paths, live_reload = site.config.options.paths, site.config.options.live_reload
    theme = paths.theme
    for sub, dest, pattern in (("js", "assets/js", "*"), ("runtime", "assets/runtime", "*.js"),
                               ("figures", "assets/figures", "*.js")):
        for p in sorted((theme / sub).glob(pattern)):
            if p.is_file() and (live_reload or f"{sub}/{p.name}" not in DEV_ONLY):
                site.copies[f"{dest}/{p.name}"] = p
    sheets = [theme / "css" / "site.css", *sorted((theme / "figures").glob("*.css"))]
    light, dark = site.config.palette
    css = palette.css(light, dark).encode()  # the custom properties first, then the series' faces
    css += f"/* builder/text_fonts.py */\n{text_fonts.css()}".encode()
    css += b"".join(f"/* {p.relative_to(theme).as_posix()} */\n".encode() + p.read_bytes() for p in sheets)
    site.files.update({"assets/css/site.css": css, "assets/css/print.css": (theme / "css" / "print.css").read_bytes(),
                       FAVICON: favicon_svg(light)})
    faces = text_fonts.files(paths.node_modules)
    missing = next((src for src in faces.values() if not src.is_file()), None)
    if missing:
        raise BuildError(missing, None, "the series' text faces are missing: run 'npm ci' (it installs the Fontsource packages)")
    site.copies.update(faces)
    return site


def parse_scripts(site: Site) -> Site:
    """Every script of the theme parses as the module the browser loads: a view's syntax error is
    a build error at its line, not a figure that fails only in the reader's browser."""
    options = site.config.options
    scripts = [p for rel, p in sorted(site.copies.items()) if rel.startswith("assets/") and rel.endswith(".js")]
    check_scripts(scripts, options.paths.node_modules, options.cache)
    return site


def add_directive_files(site: Site) -> Site:
    """What the directives the pages use need beyond the theme (the exercises' code editor)."""
    used = {use.name for ch in site.chapters for use in ch.source.directives}
    for name in used:
        site.files.update(REGISTRY[name].site_files(site.config.options.paths))
    return site


def address_assets(site: Site) -> Site:
    """Every file of the theme (scripts, views, the workers, styles, fonts, the favicon) moves into
    one folder named by the digest of them all. GitHub Pages lets every file be cached for ten
    minutes, so a page of a new build must never meet a script of the old one: only the pages (and
    sw.js) keep stable addresses. One folder rather than a hash per file, because the modules
    import each other by relative names, which then need no rewriting."""
    theme = {rel: data for rel, data in site.files.items() if rel.startswith(ASSETS + "/")}
    copied = {rel: src for rel, src in site.copies.items() if rel.startswith(ASSETS + "/")}
    parts = [part for rel, data in sorted(theme.items()) for part in (rel.encode(), data)]
    parts.append(_digest_files(copied, site.config.options.cache).encode())
    site.assets = f"{ASSETS}/{digest(*parts)[:12]}"

    def moved(rel: str) -> str:
        return site.assets + rel[len(ASSETS):]

    site.files = {moved(rel) if rel in theme else rel: data for rel, data in site.files.items()}
    site.copies = {moved(rel) if rel in copied else rel: src for rel, src in site.copies.items()}
    return site


def address_drawings(site: Site) -> Site:
    """Each figure's drawing in the palette's colours, at an address named by its content, as
    address_assets names the theme's: the chapter's <img> points there."""
    chapters = []
    for ch in site.chapters:
        html, figures = ch.html, []
        for fig in ch.figures:
            svg = fallbacks.in_colours(fig.name, fig.svg, *site.config.palette)
            address = f"{fig.svg_path.removesuffix('.svg')}.{hashlib.sha256(svg).hexdigest()[:12]}.svg"
            html = html.replace(f'src="{fig.svg_path}"', f'src="{address}"', 1)
            site.files[address] = svg
            figures.append(replace(fig, svg_path=address))
        chapters.append(replace(ch, html=html, figures=figures))
    site.chapters = chapters
    return site


def render_pages(site: Site) -> Site:
    """Each chapter's page and the files its figures' workers fetch; the contents, the search
    page and, when a work is cited, the bibliography; .nojekyll, so that GitHub Pages serves every file as it is."""
    chapters = site.chapters
    site.build_id = _build_id(site)
    for i, ch in enumerate(chapters):
        site.files[ch.url] = _page(site, "chapter.html", chapter=ch, prev=chapters[i - 1] if i > 0 else None,
                                   next=chapters[i + 1] if i + 1 < len(chapters) else None)
        for fig in ch.figures:
            site.files.update(fig.files)
    first = next((ch for ch in chapters if not ch.entry.label), chapters[0])  # where to start: a primer stands apart
    opening = contents.opening_figure(first)
    site.files["index.html"] = _page(site, "index.html", first=first, opening=opening,
                                     opening_scripts=contents.scripts(opening))
    site.files["search.html"] = _page(site, "search.html")
    if site.works:
        site.files["bibliography.html"] = _page(site, "bibliography.html", works=site.works.sorted(site.cited_in),
                                                cited_in=site.cited_in)
    site.files[".nojekyll"] = b""
    return site


def _build_id(site: Site) -> str:
    """A digest of what a page runs with: the runtime's config and files, the theme's scripts and styles.
    A page fetched in place (assets/js/nav.js) must have been built with the same."""
    parts = [json.dumps(site.runtime_config, sort_keys=True).encode()]
    for rel, data in sorted(site.files.items()):
        parts += [rel.encode(), data]
    # Copied files by name alone: the theme's and Pyodide's folders are named by their content's digest.
    parts += [rel.encode() for rel in sorted(site.copies)]
    return digest(*parts)[:16]


def render_print_edition(site: Site) -> Site:
    """print.html: every chapter, static, on one page; links between the pages become links within it."""
    pages = {ch.url: f"{print_edition.chapter_anchor(ch.entry.number)}-" for ch in site.chapters}
    pages["bibliography.html"] = "bibliography-"
    bodies = [(ch, print_edition.static_chapter(ch.html, ch.entry.number, pages)) for ch in site.chapters]
    works = site.works.sorted(site.cited_in) if site.works else []
    site.files[print_edition.PAGE] = _page(site, "print.html", print_chapters=bodies, works=works, cited_in=site.cited_in)
    return site


def subset_math_font(site: Site) -> Site:
    """The math font, cut down to the characters of the formulas, when a page has one."""
    pages = [ch.html for ch in site.chapters]
    if any(ch.math.any for ch in site.chapters):
        chars = characters(pages)
        site.files[MATH_FONT] = site.config.options.cache.get("math font", chars, lambda: math_font(chars))
    return site


def check_links(site: Site) -> Site:
    """Every link of a chapter (its reference list too) lands on a file of the site (or on the print
    edition, which finish_site makes), and every anchor on an id of its page."""
    links.check_links(site.chapters, set(site.files) | set(site.copies) | {print_edition.PAGE})
    return site


def index_search(site: Site) -> Site:
    """Pagefind's index of the chapters, which the search page reads (under `serve`, made after the
    answer, at a lower priority than the next save's build)."""
    options = site.config.options
    pages = {ch.url: site.files[ch.url] for ch in site.chapters}
    site.files.update(search_index(pages, options.paths.node_modules, background=options.live_reload))
    return site


def print_pdf(site: Site) -> Site:
    """The print edition as a PDF, printed by Chromium, when asked for; without Chromium the build
    says so and the pages link no PDF."""
    config = site.config
    if config.pdf:
        site.files[config.pdf] = print_edition.print_pdf(site.files, print_edition.CHROMIUM)
    elif config.options.pdf:
        site.notes.append(print_edition.WITHOUT)
    return site


def write_offline_manifest(site: Site) -> Site:
    """sw.js, which precaches every file of this build by its hash but the PDF (a download, not a
    page: saving the site for offline reading does not fetch it); not for `serve`, whose pages
    change on every save and would be shown stale from a cache."""
    options = site.config.options
    if not options.live_reload:
        files = {rel: data for rel, data in site.files.items() if rel != site.config.pdf}
        site.files[offline.SW] = offline.service_worker(options.paths.theme, files, site.copies, site.config.site.offline)
    return site


def gather(paths: Paths, runtime: Runtime, cache: BuildCache | None = None, live_reload: bool = False,
           pdf: bool = False) -> Site:
    """Every step but the swap, in order: the whole site in memory, nothing written yet."""
    return finish_site(gather_pages(paths, runtime, cache, live_reload, pdf))


def gather_pages(paths: Paths, runtime: Runtime, cache: BuildCache | None = None, live_reload: bool = False,
                 pdf: bool = False) -> Site:
    """The steps up to every page and its checks: all a reader of one page needs. The figures are
    computed before the Markdown is rendered, which embeds their data and values."""
    config = read_config(Options(paths, runtime, cache or BuildCache(), live_reload, pdf))
    book = read_chapters(config)
    book = check_prose(book)
    book = give_prose(book)
    book = compute_figures(book)
    book = render_markdown(book)
    site = cite_works(book)
    site = package_runtime(site)
    site = copy_theme(site)
    site = parse_scripts(site)
    site = add_directive_files(site)
    site = subset_math_font(site)
    site = address_assets(site)
    site = address_drawings(site)
    site = render_pages(site)
    return check_links(site)


def finish_site(site: Site) -> Site:
    """What the whole series makes beyond its pages: the print edition (and its PDF), the search
    index, and the offline manifest, which lists every other file."""
    site = render_print_edition(site)
    site = index_search(site)
    site = print_pdf(site)
    return write_offline_manifest(site)


def unused_facts(chapters: list[Chapter], cache: FigureCache, given: Given = NOTHING) -> list[str]:
    """Facts the site's figure models compute that no inline expression quotes: candidates to delete."""
    seen: dict[str, set[str]] = {}
    used = set()
    for ch in chapters:
        for use in ch.source.directives:
            if use.name == "figure":  # every figure on a page, quoted or not
                seen.setdefault(use.argument, set()).update(cache.lookup(use.params, given)["facts"])
        for use in ch.source.expressions:
            name, keys = use.expression.name, use.expression.keys
            seen.setdefault(name, set()).update(cache.lookup(use.expression.params, given)["facts"])
            if len(keys) > 1 and keys[0] == "facts":
                used.add((name, keys[1]))
    return [f"{display_path(model_file(name))}: warning: fact '{key}' is quoted by no chapter"
            for name, keys in sorted(seen.items()) for key in sorted(keys) if (name, key) not in used]


def check_out(out: Path, paths: Paths) -> None:
    """Refuse an output folder whose replacement would delete sources or someone else's files."""
    _check_out(out.resolve(), paths.root.resolve(), [p.resolve() for p in (paths.content, paths.theme, paths.engine)])


def _check_out(out: Path, root: Path, sources: list[Path]) -> None:
    for p in [root, *sources]:
        if out == p or out in p.parents:
            raise BuildError(out, None, f"refusing to build into {out}: replacing it would delete {p}")
    for p in sources:
        if p in out.parents:
            raise BuildError(out, None, f"refusing to build into {out}: it lies inside the sources in {p}")
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).is_file())):
        raise BuildError(out, None, f"refusing to replace {out}: it is not empty and not a previous build "
                                    f"(no {MARKER}); choose another --out or remove it yourself")


def write(site: Site, out: Path, paths: Paths | None = None) -> None:
    """The swap: under the output's lock, write a temporary sibling folder, then swap it in whole."""
    out = out.resolve()
    if paths is not None:  # before the lock file: a refused folder gets nothing beside it either
        check_out(out, paths)
    out.parent.mkdir(parents=True, exist_ok=True)
    with swap.locked(out):
        swap.remove_leftovers(out)
        tmp = swap.temp_name(out, "tmp")
        try:
            for rel, data in sorted(site.files.items()):
                dest = tmp / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(data)
            for rel, src in sorted(site.copies.items()):
                dest = tmp / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dest)
            old = swap.swap_in(tmp, out)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def load_runtime(paths: Paths, pyodide_dist: Path | None) -> Runtime:
    return from_distribution(pyodide_dist) if pyodide_dist else from_npm(paths.node_modules)


def _stored(cache: BuildCache | None, store: FigureStore | None) -> BuildCache:
    """The build's cache, its figures also read from and kept in `store` (the command line's, on disk);
    a cache shared with other builds (serve's, a test session's) is left as it was."""
    cache = cache or BuildCache()
    if store is None:
        return cache
    stored = copy.copy(cache)
    stored.figures = cache.figures.with_store(store)
    return stored


def build(paths: Paths, out: Path, pyodide_dist: Path | None = None, cache: BuildCache | None = None,
          live_reload: bool = False, pdf: bool = False, store: FigureStore | None = None) -> Site:
    check_out(out, paths)  # before the build's seconds of work, and again at the swap (write)
    site = gather(paths, load_runtime(paths, pyodide_dist), _stored(cache, store), live_reload, pdf)
    write(site, out, paths)
    return site


def check(paths: Paths, pyodide_dist: Path | None = None, store: FigureStore | None = None) -> Site:
    """Everything a build validates, without writing the output; also lists facts no chapter quotes."""
    cache = _stored(None, store)
    site = gather(paths, load_runtime(paths, pyodide_dist), cache)
    site.warnings += unused_facts(site.chapters, cache.figures, site.given)
    return site
