"""Type-checks every ```swift block of the guides against the built Courier modules.

Usage: check_doc_snippets.py BIN_PATH FILE.md [FILE.md ...]

Each guide is one compilation unit in script mode (top-level statements and `await` allowed), its
blocks joined in order, so a later block may use what an earlier one declared. A guide can add:
- `<!-- snippet-prelude: NAME -->` before its first block: docs/snippets/NAME.swift is put in
  front (declarations the prose takes for granted, such as a `SignIn` model);
- `<!-- snippet-unit -->` before a block: that block starts a new unit (for a second version of a
  type the guide already showed).
Blocks in any other language (```sh, ```text, a peer's code as ```moya) are not compiled.
Exit status 1 and the compiler's messages, mapped back to the guide's lines, when any unit fails.
"""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def units(path: pathlib.Path):
    """Yields (prelude_name, [(first_line_number, block_text)]) per compilation unit."""
    lines = path.read_text().split("\n")
    prelude, blocks, current = None, [], []
    index = 0
    while index < len(lines):
        line = lines[index]
        marker = re.match(r"\s*<!--\s*snippet-prelude:\s*([\w-]+)\s*-->", line)
        if marker:
            prelude = marker.group(1)
        if re.match(r"\s*<!--\s*snippet-unit\s*-->", line) and current:
            blocks.append(current)
            current = []
        fence = re.match(r"^(\s*)```swift\s*$", line)
        if fence:
            indent = len(fence.group(1))
            start = index + 1
            body = []
            index += 1
            while index < len(lines) and not re.match(r"^\s*```\s*$", lines[index]):
                body.append(lines[index][indent:])
                index += 1
            current.append((start + 1, "\n".join(body)))
        index += 1
    if current:
        blocks.append(current)
    for unit in blocks:
        yield prelude, unit


def compiler_flags(bin_path: pathlib.Path) -> list[str]:
    return [
        "-I", str(bin_path / "Modules"),
        "-Xcc", f"-fmodule-map-file={bin_path / 'CCurlShim.build' / 'module.modulemap'}",
        "-Xcc", "-I", "-Xcc", str(ROOT / "Sources" / "CCurlShim" / "include"),
        "-Xcc", f"-fmodule-map-file={ROOT / 'Sources' / 'CCurl' / 'module.modulemap'}",
        "-I/usr/include/x86_64-linux-gnu",
        "-swift-version", "6",
    ]


def check(path: pathlib.Path, bin_path: pathlib.Path, workdir: pathlib.Path) -> list[str]:
    failures = []
    for number, (prelude, blocks) in enumerate(units(path)):
        source, origin = [], []  # origin[i]: the guide line of generated line i+1, or None
        source.append("import Courier")
        origin.append(None)
        if prelude:
            for line in (ROOT / "docs" / "snippets" / f"{prelude}.swift").read_text().split("\n"):
                source.append(line)
                origin.append(None)
        for first_line, text in blocks:
            for offset, line in enumerate(text.split("\n")):
                source.append(line)
                origin.append(first_line + offset)
        unit = workdir / f"{path.stem}-{number}.swift"
        unit.write_text("\n".join(source) + "\n")
        result = subprocess.run(
            ["swiftc", "-typecheck", str(unit), *compiler_flags(bin_path)],
            capture_output=True, text=True)
        if result.returncode != 0:
            def relocate(match: re.Match) -> str:
                line = int(match.group(1))
                where = origin[line - 1] if 0 < line <= len(origin) else None
                return f"{path}:{where}:" if where else f"{unit}:{line}:"
            messages = re.sub(re.escape(str(unit)) + r":(\d+):", relocate, result.stderr)
            failures.append(f"{path} (unit {number + 1}) does not compile:\n{messages}")
    return failures


def main() -> int:
    bin_path = pathlib.Path(sys.argv[1])
    failures, checked = [], 0
    with tempfile.TemporaryDirectory() as workdir:
        for name in sys.argv[2:]:
            path = pathlib.Path(name)
            checked += sum(len(unit) for _, unit in units(path))
            failures += check(path, bin_path, pathlib.Path(workdir))
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"doc snippets: {checked} swift blocks checked, {len(failures)} units failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
