"""Counts public declarations per module from symbol graphs (see scripts/api-surface.sh)."""
import glob
import json
import os
import sys


def declarations(graphs: str, module: str) -> dict[str, str]:
    """Precise identifier → `kind path` for every public declaration of `module`."""
    found: dict[str, str] = {}
    for path in glob.glob(os.path.join(graphs, module + "*.symbols.json")):
        name = os.path.basename(path).split(".symbols.json")[0]
        if name.split("@")[0] != module:
            continue
        for symbol in json.load(open(path))["symbols"]:
            kind = symbol["kind"]["identifier"]
            precise = symbol["identifier"]["precise"]
            if symbol["accessLevel"] not in ("public", "open") or kind == "swift.extension":
                continue
            if "::SYNTHESIZED::" in precise:
                continue
            found[precise] = kind.removeprefix("swift.") + " " + ".".join(symbol["pathComponents"])
    return found


def main() -> None:
    graphs, *args = sys.argv[1:]
    listing = "--list" in args
    modules = [a for a in args if not a.startswith("--")]
    print(f"{'module':<20} {'declarations':>12} {'without enum cases':>19}")
    totals = [0, 0]
    for module in modules:
        found = declarations(graphs, module)
        cases = sum(1 for v in found.values() if v.startswith("enum.case "))
        print(f"{module:<20} {len(found):>12} {len(found) - cases:>19}")
        if module != "CourierTestServer":
            totals[0] += len(found)
            totals[1] += len(found) - cases
        if listing:
            for line in sorted(found.values(), key=lambda v: v.split(" ", 1)[1]):
                print("    " + line)
    print(f"{'Courier+CourierTesting':<20} {totals[0]:>12} {totals[1]:>19}")


main()
