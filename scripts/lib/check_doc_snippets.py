"""Type-checks every ```swift block of the guides against the built Courier modules, exactly as shown.

Usage: check_doc_snippets.py BIN_PATH FILE.md [FILE.md ...]

Each guide is one compilation unit in script mode (top-level statements and `await` allowed), its
blocks joined in order, so a later block may use what an earlier one declared. Nothing is added
to what the guide shows: no imports, no hidden declarations. Every unit must start with its
imports (`import Courier`, `import Foundation`, FoundationNetworking on Linux where it uses
`URLRequest`), or the check fails naming the guide and the line. A guide can add:
- `<!-- snippet-define: NAME [NEEDS...] -->` before a block: the block (shown in the guide, for
  example the models and routers the examples use) becomes the prelude NAME, and is checked as a
  unit of its own, after the preludes NEEDS it builds on;
- `<!-- snippet-prelude: NAME [NAME...] -->`: the blocks defined as NAME (in the same guide) are
  put in front of every following unit; the guide says in prose where those declarations are;
- `<!-- snippet-unit -->` before a block: that block starts a new unit (for a second version of a
  type the guide already showed); `<!-- snippet-unit: NAME... -->` (or `none`) gives that unit
  its own preludes;
- `<!-- snippet-declarations -->` before a block: the block lists signatures without bodies
  (requirements, overloads) after its imports; it is checked as the body of a protocol (default
  values and access modifiers dropped), in a unit of its own.
Blocks in any other language (```sh, ```text, a peer's code as ```moya) are not compiled.
Exit status 1 and the compiler's messages, mapped back to the guide's lines, when any unit fails.
"""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def leading_imports(body: list[str]) -> int:
    """How many lines at the start of `body` are imports, blank lines or `#if canImport` guards."""
    count = 0
    for line in body:
        stripped = line.strip()
        if stripped and not re.match(r"(import\s|#if canImport|#endif)", stripped):
            break
        count += 1
    return count


def declarations_unit(body: list[str]) -> list[str]:
    """Signatures without bodies, made checkable as the requirements of a protocol; the block's
    imports stay in front of it."""
    imports = leading_imports(body)
    lines = body[:imports] + ["protocol DocumentedSignatures { associatedtype Payload: Decodable"]
    for line in body[imports:]:
        line = re.sub(r"\b(public|open|override) ", "", line)
        line = line.replace("class var ", "static var ")
        line = re.sub(r"\s*=\s*[^,()]+(?:\([^()]*\))?(?=[,)])", "", line)  # default values
        lines.append("    " + line)
    return lines + ["}"]


def units(path: pathlib.Path):
    """Returns ([(prelude_names, [(first_line_number, block_text)])] per compilation unit,
    {prelude name: [(first_line_number, block_text)]})."""
    lines = path.read_text().split("\n")
    default_prelude: list[str] = []
    result: list[tuple[list[str], list]] = []
    defined: dict[str, list] = {}
    current: list = []
    current_prelude: list[str] | None = None
    declarations = False
    define: str | None = None
    needs: list[str] = []

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
        definition = re.match(r"\s*<!--\s*snippet-define:\s*([\w\s-]+?)\s*-->", line)
        if definition:
            define, *needs = definition.group(1).split()
        fence = re.match(r"^(\s*)```swift\s*$", line)
        if fence:
            indent = len(fence.group(1))
            start = index + 1  # 1-based line number of the fence
            body = []
            index += 1
            while index < len(lines) and not re.match(r"^\s*```\s*$", lines[index]):
                body.append(lines[index][indent:])
                index += 1
            if declarations or define:
                saved = current_prelude
                close()
                current_prelude = needs if define else saved
                text = declarations_unit(body) if declarations else body
                current = [(start + 1, "\n".join(text))]
                if define:
                    defined.setdefault(define, []).append((start + 1, "\n".join(body)))
                close()
                declarations, define = False, None
            else:
                current.append((start + 1, "\n".join(body)))
        index += 1
    close()
    return result, defined


def missing_imports(path: pathlib.Path, blocks: list) -> str | None:
    """A message when the unit's code, as the guide shows it, does not start with an import."""
    first_line, text = blocks[0]
    for offset, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        if re.match(r"import\s+\w+", line.strip()):
            return None
        return (f"{path}:{first_line + offset}: this code must start with its imports "
                "(`import Courier`, `import Foundation`, FoundationNetworking for `URLRequest` on "
                "Linux): a reader who copies it gets nothing else")
    return f"{path}:{first_line}: an empty swift block"


def compiler_flags(bin_path: pathlib.Path) -> list[str]:
    return [
        "-I", str(bin_path / "Modules"),
        "-Xcc", f"-fmodule-map-file={bin_path / 'CCurlShim.build' / 'module.modulemap'}",
        "-Xcc", "-I", "-Xcc", str(ROOT / "Sources" / "CCurlShim" / "include"),
        "-Xcc", f"-fmodule-map-file={ROOT / 'Sources' / 'CCurl' / 'module.modulemap'}",
        # CourierTestServer's C module (its SHA-256), which SwiftPM hands its clients the same way.
        "-Xcc", f"-fmodule-map-file={bin_path / 'CSHA256.build' / 'module.modulemap'}",
        "-Xcc", "-I", "-Xcc", str(ROOT / "Sources" / "CSHA256" / "include"),
        "-I/usr/include/x86_64-linux-gnu",
        "-swift-version", "6",
    ]


def check(path: pathlib.Path, bin_path: pathlib.Path, workdir: pathlib.Path) -> tuple[int, list[str]]:
    failures = []
    all_units, defined = units(path)
    for number, (prelude, blocks) in enumerate(all_units):
        problem = missing_imports(path, blocks)
        if problem:
            failures.append(problem)
            continue
        source, origin = [], []  # origin[i]: the guide line of generated line i+1
        parts = []
        for name in prelude:
            if name not in defined:
                failures.append(f"{path}: prelude {name} is not defined (<!-- snippet-define: {name} -->)")
                continue
            parts += defined[name]
        for first_line, text in parts + blocks:
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
    return sum(len(blocks) for _, blocks in all_units), failures


def main() -> int:
    bin_path = pathlib.Path(sys.argv[1])
    failures, checked = [], 0
    with tempfile.TemporaryDirectory() as workdir:
        for name in sys.argv[2:]:
            path = pathlib.Path(name)
            count, problems = check(path, bin_path, pathlib.Path(workdir))
            checked += count
            failures += problems
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"doc snippets: {checked} swift blocks checked, {len(failures)} units failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
