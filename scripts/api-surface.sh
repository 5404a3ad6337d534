#!/usr/bin/env bash
# Counts the public declarations of Courier's library products, with and without enum cases.
#
#   bash scripts/api-surface.sh            # a table: module, declarations, without enum cases
#   bash scripts/api-surface.sh --list     # and every declaration, one per line
#
# It reads the symbol graphs `swift package dump-symbol-graph` writes (public and open symbols
# only), counting each declaration once: types, cases, properties, methods, initializers,
# subscripts, operators, typealiases and associated types, in the module and in its extensions
# of other modules' types. Extension blocks and members the compiler synthesizes (Equatable's
# `!=`, a protocol's default implementations seen through a conforming type) are not counted.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh
ensure_system_packages >/dev/null
swift package dump-symbol-graph --minimum-access-level public >.build/symbol-graph.log 2>&1 \
    || { cat .build/symbol-graph.log; exit 1; }
graphs="$(sed -n 's/^Files written to //p' .build/symbol-graph.log | tail -1)"
python3 scripts/lib/api_surface.py "$graphs" Courier CourierTesting CourierTestServer "$@"
