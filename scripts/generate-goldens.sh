#!/usr/bin/env bash
# Regenerates the generator's committed outputs (Tests/GeneratedAPIs) from the test documents,
# after a change to courier-generate; GoldenTests fails until this has been run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product courier-generate
tool="$(swift build --show-bin-path)/courier-generate"
documents=Tests/CourierGeneratorTests/Documents
"$tool" "$documents/mini.json" --output Tests/GeneratedAPIs/Mini --module-name Mini --format-config .swift-format
"$tool" "$documents/kinds.yaml" --output Tests/GeneratedAPIs/Kinds --module-name Kinds --format-config .swift-format
"$tool" "$documents/marketplace.yaml" --output Tests/GeneratedAPIs/Marketplace --module-name Marketplace \
    --format-config .swift-format
"$tool" Examples/DogsOpenAPI/dogs.yaml --output Examples/GeneratedDogs --module-name Dogs --format-config .swift-format
