"""Type-checks every ```swift block of the guides against the built Courier modules.

Usage: check_doc_snippets.py BIN_PATH FILE.md [FILE.md ...]

Each guide is one compilation unit in script mode (top-level statements and `await` allowed), its
blocks joined in order, so a later block may use what an earlier one declared. A guide can add:
- `<!-- snippet-prelude: NAME [NAME...] -->` before its first block: docs/snippets/NAME.swift is
  put in front of every unit (declarations the prose takes for granted, such as a `SignIn` model);
- `<!-- snippet-unit -->` before a block: that block starts a new unit (for a second version of a
  type the guide already showed); `<!-- snippet-unit: NAME... -->` (or `none`) gives that unit
  its own preludes;
- `<!-- snippet-declarations -->` before a block: the block lists signatures without bodies
  (requirements, overloads); it is checked as the body of a protocol (default values and access
  modifiers dropped), in a unit of its own.
Blocks in any other language (```sh, ```text, a peer's code as ```moya) are not compiled.
Exit status 1 and the compiler's messages, mapped back to the guide's lines, when any unit fails.
"""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def declarations_unit(body: list[str]) -> list[str]:
    """Signatures without bodies, made checkable as the requirements of a protocol."""
    lines = ["protocol DocumentedSignatures { associatedtype Payload: Decodable"]
    for line in body:
        line = re.sub(r"\b(public|open|override) ", "", line)
        line = line.replace("class var ", "static var ")
        line = re.sub(r"\s*=\s*[^,()]+(?:\([^()]*\))?(?=[,)])", "", line)  # default values
        lines.append("    " + line)
    return lines + ["}"]


def units(path: pathlib.Path):
    """Yields (prelude_names, [(first_line_number, block_text)]) per compilation unit."""
    lines = path.read_text().split("\n")
    default_prelude: list[str] = []
    result: list[tuple[list[str], list]] = []
    current: list = []
    current_prelude: list[str] | None = None
    declarations = False

    def close():
        nonlocal current, current_prelude
        if current:
            result.append((default_prelude if current_prelude is None else current_prelude, current))
        current, current_prelude = [], None

    index = 0
    while index < len(lines):
        line = lines[index]
        marker = re.match(r"\s*<!--\s*snippet-prelude:\s*([\w\s-]+?)\s*-->", line)
        if marker:
            default_prelude = [n for n in marker.group(1).split() if n != "none"]
        unit = re.match(r"\s*<!--\s*snippet-unit(?::\s*([\w\s-]+?))?\s*-->", line)
        if unit:
            close()
            if unit.group(1):
                current_prelude = [n for n in unit.group(1).split() if n != "none"]
        if re.match(r"\s*<!--\s*snippet-declarations\s*-->", line):
            declarations = True
        fence = re.match(r"^(\s*)```swift\s*$", line)
        if fence:
            indent = len(fence.group(1))
            start = index + 1  # 1-based line number of the fence
            body = []
            index += 1
            while index < len(lines) and not re.match(r"^\s*```\s*$", lines[index]):
                body.append(lines[index][indent:])
                index += 1
            if declarations:
                saved = current_prelude
                close()
                current_prelude = saved
                current = [(start, "\n".join(declarations_unit(body)))]
                close()
                declarations = False
            else:
                current.append((start + 1, "\n".join(body)))
        index += 1
    close()
    yield from result


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
        source.append("import Courier; import Foundation")
        origin.append(None)
        for name in prelude:
            for line in (ROOT / "docs" / "snippets" / f"{name}.swift").read_text().split("\n"):
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
