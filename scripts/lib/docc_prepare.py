"""Prepares DocC inputs for scripts/docs.sh and checks what DocC itself does not.

Usage: docc_prepare.py CATALOG STAGED_CATALOG SYMBOL_GRAPH_DIR MODULE [GUIDE.md ...]

- Copies CATALOG to STAGED_CATALOG and turns each guide in docs/ into an article there, so the
  Markdown guides stay the one source of truth: links between guides (`[x](routers.md)`) become
  `<doc:guide-routers>` links (the catalog links them the same way), and links to files outside
  docs/ become plain text.
- Fails (exit 1) when a public symbol of MODULE has no doc comment, or when a top-level public
  type is not listed in a `## Topics` group of the catalog (every symbol is organised by hand).
"""
import json
import pathlib
import re
import shutil
import sys


# Articles are staged as guide-<name>.md and linked as <doc:guide-<name>>, so a guide never
# shares a name with a symbol (docs/session.md and the Session class).
ARTICLE_PREFIX = "guide-"


def stage(catalog: pathlib.Path, staged: pathlib.Path, guides: list[pathlib.Path]) -> None:
    if staged.exists():
        shutil.rmtree(staged)
    shutil.copytree(catalog, staged)
    articles = staged / "Articles"
    articles.mkdir(exist_ok=True)
    names = {g.stem for g in guides}
    for guide in guides:
        text = guide.read_text()

        def relink(match: re.Match) -> str:
            label, target = match.group(1), match.group(2)
            if re.match(r"^[a-z]+://", target):
                return match.group(0)
            stem, _, anchor = target.partition("#")
            name = pathlib.Path(stem).stem
            if stem.endswith(".md") and name in names and "/" not in stem:
                return f"<doc:{ARTICLE_PREFIX}{name}>"
            return label  # a repository file: keep the words, drop the link

        text = re.sub(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)", relink, text)
        (articles / f"{ARTICLE_PREFIX}{guide.name}").write_text(text)


def documentation_problems(graph_dir: pathlib.Path, module: str, catalog: pathlib.Path) -> list[str]:
    symbols = []
    for path in sorted(graph_dir.glob(f"{module}*.symbols.json")):
        if not (path.name == f"{module}.symbols.json" or path.name.startswith(f"{module}@")):
            continue
        graph = json.loads(path.read_text())
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            symbols.append((path.name, symbol))
    problems = []
    for file, symbol in symbols:
        path = ".".join(symbol["pathComponents"])
        if path.startswith("_"):
            continue
        # Members inherited from the standard library or Foundation carry their own docs.
        if "docComment" not in symbol and not symbol.get("identifier", {}).get("precise", "").startswith("s:SQ"):
            location = symbol.get("location", {}).get("uri", "?")
            if "/Sources/" in location:
                problems.append(f"undocumented public symbol {path} ({location.split('/Sources/')[-1]})")
    top_level = {
        ".".join(s["pathComponents"])
        for f, s in symbols
        if f == f"{module}.symbols.json" and len(s["pathComponents"]) == 1
    }
    topics = ""
    for page in catalog.rglob("*.md"):
        topics += page.read_text()
    listed = set(re.findall(r"``([A-Za-z0-9_]+)(?:[/`(])", topics))
    for name in sorted(top_level - listed):
        problems.append(f"public symbol {name} is not listed in any Topics group of {catalog.name}")
    return problems


def main() -> int:
    catalog, staged, graph_dir, module = (pathlib.Path(a) for a in sys.argv[1:5])
    guides = [pathlib.Path(g) for g in sys.argv[5:]]
    stage(catalog, staged, guides)
    problems = documentation_problems(graph_dir, str(module), catalog)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
