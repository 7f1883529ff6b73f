"""README's map of the code ("How it works") names every module, and the imports keep to it.

The oracle is the source itself: every ``import`` statement of every module of the
package, read with :mod:`ast` (at the top or inside a function alike), resolved to the
module it loads.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "satsweeper"
README = (ROOT / "README.md").read_text()

def modules() -> dict[str, Path]:
    """Dotted name -> file, for every module of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def anchors(text: str) -> set[str]:
    """GitHub's anchors for the headings of a Markdown text (fenced code skipped): lower case,
    punctuation dropped, spaces to hyphens, a repeated heading's anchor suffixed -1, -2, ..."""
    found, fenced = set(), False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            slug = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
            repeat = 0
            while (slug if not repeat else f"{slug}-{repeat}") in found:
                repeat += 1
            found.add(slug if not repeat else f"{slug}-{repeat}")
    return found


def broken_links(page: Path) -> tuple[int, list[str]]:
    """(relative links read, those that miss) of a Markdown file: a link misses when the file
    it names, relative to the page, does not exist, or its #anchor is no heading of that file."""
    read, broken = 0, []
    for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
        if re.match(r"[a-z]+:", target):  # http:, mailto: are not ours to check
            continue
        read += 1
        path, _, anchor = target.partition("#")
        file = (page.parent / path) if path else page
        if not file.exists() or (anchor and (file.suffix != ".md" or anchor not in anchors(file.read_text()))):
            broken.append(target)
    return read, broken


MODULES = modules()


def imports(name: str) -> set[str]:
    """The package's modules that ``name`` imports, anywhere in its file."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    loaded = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [f"{base}.{alias.name}" for alias in node.names]  # a submodule, or a name in base
        else:
            continue
        for target in targets:
            while target not in MODULES and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in MODULES and target != name:
                loaded.add(target)
    return loaded


def rows() -> list[tuple[list[str], str, str]]:
    """The map's rows in order: (the modules or packages it names, what it owns, its imports)."""
    start = README.index("\n## How it works\n")
    table = README[README.index("| module | owns | imports |", start):]
    found = []
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        first, owns, uses = (cell.strip() for cell in line.strip("|").split(" | "))
        found.append((re.findall(r"`([^`]+)`", first), owns, uses))
    return found


ROWS = rows()


def row_of(module: str) -> int:
    """The index of the row that names ``module`` (itself, or its package)."""
    parts = module.split(".")[1:]  # [] for the package's own __init__.py
    for index, (names, _, _) in enumerate(ROWS):
        for named in names:
            if named.endswith("/"):
                if parts[:1] == [named[:-1]]:
                    return index
            elif parts == ([] if named == "__init__.py" else [named.removesuffix(".py")]):
                return index
    raise AssertionError(f"README's map names no row for {module}")


def short(module: str) -> str:
    """How the imports column names a module: its package for a package's module."""
    return module.split(".")[1]


class TestMap:
    def test_names_real_modules(self):
        """Every name in the map's first column is a module or a package of satsweeper."""
        for names, _, _ in ROWS:
            for named in names:
                path = PACKAGE / named
                assert path.is_dir() if named.endswith("/") else path.is_file(), named

    def test_every_module_has_a_row(self):
        """Every module has one row, and a package's row names each of its modules."""
        for module, path in MODULES.items():
            index = row_of(module)
            names, owns, _ = ROWS[index]
            if path.parent != PACKAGE and path.name != "__init__.py":
                assert f"`{path.name}`" in owns, f"the {names[0]} row does not name {path.name}"

    def test_layers(self):
        """A module imports only from its own row or rows above (errors.py from anywhere)."""
        wrong = []
        for module in MODULES:
            here = row_of(module)
            for target in imports(module):
                if target == "satsweeper.errors":
                    continue
                if row_of(target) > here:
                    wrong.append(f"{module} imports {target}, below it in the map")
        assert not wrong, "\n".join(wrong)

    def test_imports_column(self):
        """A row's imports column is exactly what its modules import from other rows (errors.py aside)."""
        for index, (names, _, uses) in enumerate(ROWS):
            if uses.startswith("any row above"):
                continue
            actual = {short(target) for module in MODULES if row_of(module) == index
                      for target in imports(module)
                      if target != "satsweeper.errors" and row_of(target) != index}
            listed = {name.strip() for name in uses.split(",") if name.strip()}
            assert listed == actual, f"{names}: the map says {sorted(listed)}, the code imports {sorted(actual)}"

    def test_strategies_never_see_the_game(self):
        """A strategy sees only the player's board: no module of strategies/ imports game.py,
        not even through another module (the game holds the mines)."""
        def reach(start: str) -> set[str]:
            seen, todo = set(), [start]
            while todo:
                for target in imports(todo.pop()):
                    if target in MODULES and target not in seen:
                        seen.add(target)
                        todo.append(target)
            return seen
        players = [module for module in MODULES if module.startswith("satsweeper.strategies")]
        assert len(players) >= 8
        wrong = [module for module in players if "satsweeper.game" in reach(module)]
        assert not wrong, f"these reach satsweeper.game: {wrong}"
        assert "satsweeper.game" in reach("satsweeper.difficulty")  # the walk follows imports at all

    def test_web_does_not_import_the_cli(self):
        """The server is a second face of the library, not a user of the command line:
        no module of web/ imports one of cli/ (cli/serve.py imports web/ to start it)."""
        wrong = [f"{module} imports {target}" for module in MODULES if module.startswith("satsweeper.web")
                 for target in imports(module) if target.startswith("satsweeper.cli")]
        assert not wrong, "\n".join(wrong)
        assert "satsweeper.web.server" in imports("satsweeper.cli.serve")  # the test sees imports at all


class TestDocs:
    def test_every_document_is_linked(self):
        """Every file and folder of docs/ is linked from README.md, or named in a document
        README.md links (best-bench.txt names its JSON): none is found only by listing
        docs/ (benchmarks.txt and line-automaton.txt were; best-expert-10000.json was named,
        unlinked, in best-bench.txt)."""
        docs = ROOT / "docs"
        linked = set(re.findall(r"\]\((docs/[^)#\s]+)(?:#[^)\s]*)?\)", README))  # a section's link too
        assert linked, "the test reads no link at all"
        named = "\n".join((ROOT / path).read_text(errors="replace") for path in linked
                          if (ROOT / path).is_file() and path.endswith((".txt", ".md")))
        lost = [entry.name for entry in sorted(docs.iterdir())
                if not any(link == f"docs/{entry.name}" or link.startswith(f"docs/{entry.name}/")
                           for link in linked)
                and entry.name not in named]
        assert not lost, f"not linked from README.md: {lost}"

    def test_every_relative_link_resolves(self):
        """Every relative link of README.md and of the Markdown pages of docs/ names a file that
        exists and, with a #anchor, a heading of it: the run-by-run records moved out of README
        (docs/measured.md, strength.md, optimal-search.md) stay one click from its tables."""
        pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
        results = {page.relative_to(ROOT): broken_links(page) for page in pages}
        assert results[Path("README.md")][0] > 40, "the test reads too few of README's links"
        assert results[Path("docs/measured.md")][0] > 10, "the test reads too few of measured.md's links"
        broken = [f"{page}: {target}" for page, (_, missed) in results.items() for target in missed]
        assert not broken, "\n".join(broken)

    def test_a_missing_file_or_heading_is_a_broken_link(self, tmp_path):
        """The check itself finds what it must: a missing file, a missing heading, here or there."""
        (tmp_path / "docs").mkdir()
        (tmp_path / "docs" / "a.md").write_text("# The `a` page\n\n## Same\n\n## Same\n")
        page = tmp_path / "README.md"
        page.write_text("# Top\n\n```\n# not a heading\n```\n[1](docs/a.md) [2](docs/a.md#the-a-page) "
                        "[3](docs/a.md#same-1) [4](#top) [5](http://x.org/y) [6](docs/b.md) "
                        "[7](docs/a.md#nowhere) [8](#not-a-heading) [9](docs/a.md#same-2)\n")
        assert broken_links(page) == (8, ["docs/b.md", "docs/a.md#nowhere", "#not-a-heading", "docs/a.md#same-2"])
