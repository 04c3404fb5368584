"""The build as named steps, each a function from what the step before made to what the next needs:

    read_config -> read_chapters -> compute_figures -> render_markdown -> write_pages
    -> index_search -> print_pdf -> write_offline_manifest -> write (the swap)

gather() runs every step but the last, so nothing touches the output folder until the whole site
is in memory; write() puts it in a temporary sibling folder that is swapped in whole
(builder/swap.py), so a failed build leaves the old site and readers never find the output folder
missing or half written. The chapter steps go chapter by chapter (read_chapter, compute_chapter,
render_chapter), which is also how tests look at one page (gather_chapter).
"""
from __future__ import annotations

import difflib
import hashlib
import html
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from engine.figures import FIGURES

from . import offline, palette, print_edition, swap
from .favicon import PATH as FAVICON, favicon_svg
from .directives import REGISTRY
from .directives.base import Page
from .errors import BuildError, clip, describe, display_path, read_source
from .expressions import ExpressionError, evaluate
from .figures import FigureCache, RenderedFigure, check_parts, embed_json, model_file, render_figure
from .links import check_links
from . import lockfile
from .bundle import editor_bundle
from .markdown_render import render
from .math import MathFound
from .math_font import PATH as MATH_FONT, characters, math_font
from .pages import environment
from .references import Bibliography, citing_chapters, uncited_warnings
from .references import load as load_bibliography
from .runtime import Runtime, from_distribution, from_npm
from .search import search_index
from .site_config import ChapterEntry, SiteConfig, load_site_config
from .source import ScannedSource, prose, scan
from .views import check_scripts
from .wheel import build_wheel


ROOT = Path(__file__).resolve().parents[1]
MARKER = "runtime.json"  # every build writes it; a folder without it is not ours to replace


@dataclass
class Paths:
    root: Path  # the repository
    content: Path
    theme: Path
    engine: Path
    node_modules: Path

    @classmethod
    def at(cls, root: Path, content: Path | None = None) -> "Paths":
        return cls(root, content or root / "content", root / "theme", root / "engine", root / "node_modules")


@dataclass
class Chapter:
    entry: ChapterEntry
    slug: str
    title: str
    html: str
    figures: list[RenderedFigure]
    source: ScannedSource  # the line-aware scan: directives and expressions with their lines
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
        return any(REGISTRY[use.name].needs_python(use) for use in self.source.directives)

    @property
    def scripts(self) -> list[str]:
        """The script elements its directives need, each once, in the registry's order."""
        used = {use.name for use in self.source.directives}
        return list(dict.fromkeys(s for name, d in REGISTRY.items() if name in used for s in d.scripts))


@dataclass
class Site:
    """Everything the write phase needs: file bytes by dist-relative path, and files to copy."""
    files: dict[str, bytes] = field(default_factory=dict)
    copies: dict[str, Path] = field(default_factory=dict)
    chapters: list[Chapter] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # `path:line: warning: ...`, for stderr
    notes: list[str] = field(default_factory=list)  # how this build differs from the usual, for stdout
    config: "Config | None" = None  # what the steps after write_pages read


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
                close = difflib.get_close_matches(key, list(known), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                raise BuildError(path, use.line, f"unknown citation key '{key}': not in "
                                                 f"{display_path(bibliography.path)}{hint}")
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
    """A chapter's blocks computed (kept on each use, as `use.computed`) and every inline
    expression's value: the figures' data and drawings, the quizzes' choices, the graded exercises."""
    source: Source
    values: dict  # (line, column) -> the expression's value
    math: MathFound  # the kinds of formula its blocks' options typeset


def read_chapter(entry: ChapterEntry) -> Source:
    """Scan the chapter and parse each directive at its line, then the rules across its page."""
    path = entry.path
    scanned = scan(path, read_source(path), tuple(REGISTRY))
    for use in scanned.directives:
        REGISTRY[use.name].parse(use, path)
    for name, directive in REGISTRY.items():
        directive.check_page([use for use in scanned.directives if use.name == name], path)
    return Source(entry, scanned)


def compute_chapter(source: Source, cache: FigureCache) -> Computed:
    entry, scanned = source.entry, source.scanned
    path = entry.path
    values = {}
    for use in scanned.expressions:
        try:
            values[(use.line, use.start)] = evaluate(use.expression, cache.lookup)
        except ExpressionError as err:
            raise BuildError(path, use.line, str(err)) from None
        except Exception as err:  # the figure's own code failed: both places, the traceback on request
            raise _code_error(path, use.line, f"figure '{use.expression.name}'", err) from err
    page = Page(path, entry.number, path.stem, cache)
    for use in scanned.directives:
        try:
            use.computed = REGISTRY[use.name].compute(use, page)
        except BuildError:
            raise
        except Exception as err:  # its model, text or fallback failed
            raise _code_error(path, use.line, f"{use.name} '{use.argument}'", err) from err
    return Computed(source, values, page.math)


def render_chapter(computed: Computed, bibliography: Bibliography | None = None) -> Chapter:
    """The prose through Python-Markdown, each directive's block put in where it stood."""
    entry, scanned = computed.source.entry, computed.source.scanned
    path = entry.path
    references = _check_citations(path, scanned, bibliography)
    numbers = {ref.key: i for i, ref in enumerate(references, 1)}
    text, marks = prose(scanned, computed.values)
    blocks = [(use, REGISTRY[use.name]) for use in scanned.directives]
    math = computed.math
    html, toc = render(path, text, marks, blocks, scanned, math, numbers, bibliography)
    figures = [use.computed for use in scanned.directives if use.name == "figure"]
    return Chapter(entry, path.stem, _title(path, toc), html, figures, scanned, references, math)


def gather_chapter(entry: ChapterEntry, cache: FigureCache, bibliography: Bibliography | None = None) -> Chapter:
    """One chapter through the three chapter steps (tests and tools that look at one page)."""
    return render_chapter(compute_chapter(read_chapter(entry), cache), bibliography)


DEV_ONLY = ("js/livereload.js",)  # theme files for `build.py serve` only, never in a production build


def _assets(theme: Path, live_reload: bool = False) -> tuple[dict[str, Path], dict[str, bytes]]:
    """Theme files to copy, and the stylesheet: site.css then each figure's own CSS, in one file."""
    copies = {}
    for sub, dest, pattern in (("js", "assets/js", "*"), ("runtime", "assets/runtime", "*.js"),
                                 ("figures", "assets/figures", "*.js")):
        for p in sorted((theme / sub).glob(pattern)):
            if p.is_file() and (live_reload or f"{sub}/{p.name}" not in DEV_ONLY):
                copies[f"{dest}/{p.name}"] = p
    sheets = [theme / "css" / "site.css", *sorted((theme / "figures").glob("*.css"))]
    colours = palette.load(theme / "palette.toml")
    css = palette.css(colours, palette.load_dark(theme / "palette.toml")).encode()  # the custom properties first
    css += b"".join(f"/* {p.relative_to(theme).as_posix()} */\n".encode() + p.read_bytes() for p in sheets)
    return copies, {"assets/css/site.css": css, "assets/css/print.css": (theme / "css" / "print.css").read_bytes(),
                    FAVICON: favicon_svg(colours)}


@dataclass(frozen=True)
class Options:
    """How to build, as the command line, `serve` or a test asks."""
    paths: Paths
    runtime: Runtime
    cache: FigureCache
    live_reload: bool = False  # `serve`: pages reload on change, no service worker
    pdf: bool = False  # print the print edition as a PDF (seconds of Chromium: the command line's build)


@dataclass(frozen=True)
class Config:
    """The options and the series' own settings (site.toml, references.bib): every step reads it."""
    options: Options
    site: SiteConfig
    bibliography: Bibliography | None
    pdf: str | None  # the print edition's PDF, when this build prints one (asked for, and Chromium found)


@dataclass
class Book:
    """The chapters as far as the steps have taken them: Source, then Computed, then Chapter."""
    config: Config
    chapters: list


def read_config(options: Options) -> Config:
    paths = options.paths
    for name in FIGURES:
        check_parts(name, paths.theme)
    site = load_site_config(paths.content)
    pdf = print_edition.pdf_name(site.title) if options.pdf and print_edition.chromium() else None
    return Config(options, site, load_bibliography(paths.content), pdf)


def read_chapters(config: Config) -> Book:
    return Book(config, [read_chapter(entry) for entry in config.site.chapters])


def compute_figures(book: Book) -> Book:
    return Book(book.config, [compute_chapter(source, book.config.options.cache) for source in book.chapters])


def render_markdown(book: Book) -> Book:
    return Book(book.config, [render_chapter(computed, book.config.bibliography) for computed in book.chapters])


def _runtime_files(config: Config, site: Site) -> dict:
    """Pyodide's core and the engine's wheel into `site`; the runtime config pages embed."""
    wheel_name, wheel = build_wheel(config.options.paths.engine)
    # The engine beside Pyodide's packages (a folder named by its hash, so no cache keeps an old
    # one), registered in the shipped lock by pyodide-build's tooling: the worker loads it by name.
    # Without that tool the lock ships untouched and the worker loads the wheel by its URL.
    wheel_rel = f"{hashlib.sha256(wheel).hexdigest()[:12]}/{wheel_name}"
    site.files[f"pyodide/{wheel_rel}"] = wheel
    copies = dict(config.options.runtime.files)
    engine_wheel = None
    if lockfile.available():
        site.files["pyodide/pyodide-lock.json"] = lockfile.add_wheel(copies.pop("pyodide/pyodide-lock.json"),
                                                                     wheel_rel, wheel)
    else:
        engine_wheel = wheel_rel
        site.notes.append(lockfile.WITHOUT)
    site.copies.update(copies)
    return config.options.runtime.config(engine_wheel)


def write_pages(book: Book) -> Site:
    """Every file of the site into memory: the runtime, the theme, the pages (print.html too)."""
    config, chapters = book.config, book.chapters
    paths, live_reload, bibliography = config.options.paths, config.options.live_reload, config.bibliography
    site = Site(chapters=chapters, config=config)
    runtime_config = _runtime_files(config, site)
    copies, files = _assets(paths.theme, live_reload)
    check_scripts([p for rel, p in sorted(copies.items()) if rel.endswith(".js")], paths.node_modules)
    site.copies.update(copies)
    site.files.update(files)
    if any(use.name == "exercise" for ch in chapters for use in ch.source.directives):
        site.files["assets/js/editor.js"] = editor_bundle(paths.root, paths.node_modules)
    env = environment(paths.theme)
    cited_in = citing_chapters(chapters)
    site.warnings += uncited_warnings(bibliography, cited_in)
    if not cited_in:
        bibliography = None  # nothing cited: no bibliography page, and no link to one
    common = {"site": config.site, "chapters": chapters, "live_reload": live_reload,
              "runtime_config": embed_json(runtime_config), "bibliography": bibliography, "pdf": config.pdf,
              "build": hashlib.sha256(repr((sorted(site.files), runtime_config, sorted(files.items()), [p.read_bytes() for _, p in sorted(copies.items())])).encode()).hexdigest()[:16]}
    try:
        for ch in chapters:  # the reference list is part of the chapter, for the link check too
            ch.html += env.get_template("_references.html").render(chapter=ch)
        for i, ch in enumerate(chapters):
            prev_ch = chapters[i - 1] if i > 0 else None
            next_ch = chapters[i + 1] if i + 1 < len(chapters) else None
            site.files[ch.url] = env.get_template("chapter.html").render(
                chapter=ch, prev=prev_ch, next=next_ch, **common).encode()
            for fig in ch.figures:
                site.files[fig.svg_path] = fig.svg
        site.files["index.html"] = env.get_template("index.html").render(**common).encode()
        site.files["search.html"] = env.get_template("search.html").render(**common).encode()
        if bibliography:
            site.files["bibliography.html"] = env.get_template("bibliography.html").render(
                works=bibliography.sorted(cited_in), cited_in=cited_in, **common).encode()
        site.files[print_edition.PAGE] = _print_page(env, common, cited_in)
    except jinja2.TemplateError as err:
        raise BuildError(getattr(err, "filename", None) or paths.theme / "templates",
                         getattr(err, "lineno", None), f"template error: {err.message}") from None
    if any(ch.math.any for ch in chapters):
        site.files[MATH_FONT] = math_font(characters([ch.html for ch in chapters]))
    site.files[".nojekyll"] = b""
    site.files[MARKER] = (json.dumps(runtime_config, indent=2) + "\n").encode()
    return site


def _print_page(env: jinja2.Environment, common: dict, cited_in: dict) -> bytes:
    """print.html: every chapter, static, on one page; links between the pages become links within it."""
    chapters = common["chapters"]
    pages = {ch.url: f"{print_edition.chapter_anchor(ch.entry.number)}-" for ch in chapters}
    pages["bibliography.html"] = "bibliography-"
    bodies = [(ch, print_edition.static_chapter(ch.html, ch.entry.number, pages)) for ch in chapters]
    works = common["bibliography"].sorted(cited_in) if common["bibliography"] else []
    return env.get_template("print.html").render(print_chapters=bodies, works=works, cited_in=cited_in,
                                                  **common).encode()


def index_search(site: Site) -> Site:
    """Pagefind's index of the chapters; then every link between the pages is checked."""
    chapters = site.chapters
    site.files.update(search_index({ch.url: site.files[ch.url] for ch in chapters}, site.config.options.paths.node_modules))
    check_links(chapters, set(site.files) | set(site.copies))
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
        site.files[offline.SW] = offline.service_worker(options.paths.theme, files, site.copies)
    return site


def gather(paths: Paths, runtime: Runtime, cache: FigureCache | None = None, live_reload: bool = False,
           pdf: bool = False) -> Site:
    """Every step but the swap, in order: the whole site in memory, nothing written yet. The
    figures are computed before the Markdown is rendered, which embeds their data and values."""
    config = read_config(Options(paths, runtime, cache or FigureCache(), live_reload, pdf))
    book = read_chapters(config)
    book = compute_figures(book)
    book = render_markdown(book)
    site = write_pages(book)
    site = index_search(site)
    site = print_pdf(site)
    return write_offline_manifest(site)


def unused_facts(chapters: list[Chapter], cache: FigureCache) -> list[str]:
    """Facts the site's figure models compute that no inline expression quotes: candidates to delete."""
    seen: dict[str, set[str]] = {}
    used = set()
    for ch in chapters:
        for use in ch.source.directives:
            if use.name == "figure":  # every figure on a page, quoted or not
                seen.setdefault(use.argument, set()).update(cache.lookup(use.params)["facts"])
        for use in ch.source.expressions:
            name, keys = use.expression.name, use.expression.keys
            seen.setdefault(name, set()).update(cache.lookup(use.expression.params)["facts"])
            if len(keys) > 1 and keys[0] == "facts":
                used.add((name, keys[1]))
    return [f"{display_path(model_file(name))}: warning: fact '{key}' is quoted by no chapter"
            for name, keys in sorted(seen.items()) for key in sorted(keys) if (name, key) not in used]


def _check_out(out: Path, root: Path, sources: list[Path]) -> None:
    """Refuse an output folder whose replacement would delete sources or someone else's files."""
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
        _check_out(out, paths.root.resolve(), [p.resolve() for p in (paths.content, paths.theme, paths.engine)])
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


def build(paths: Paths, out: Path, pyodide_dist: Path | None = None, cache: FigureCache | None = None,
          live_reload: bool = False, pdf: bool = False) -> Site:
    site = gather(paths, load_runtime(paths, pyodide_dist), cache, live_reload, pdf)
    write(site, out, paths)
    return site


def check(paths: Paths, pyodide_dist: Path | None = None) -> Site:
    """Everything a build validates, without writing the output; also lists facts no chapter quotes."""
    cache = FigureCache()
    site = gather(paths, load_runtime(paths, pyodide_dist), cache)
    site.warnings += unused_facts(site.chapters, cache)
    return site
