// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Courier",
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierTestServer", targets: ["CourierTestServer"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        .executable(name: "courier-generate", targets: ["courier-generate"]),
        .plugin(name: "CourierGeneratePlugin", targets: ["CourierGeneratePlugin"])
    ],
    targets: [
        // libcurl, found through pkg-config (`libcurl`), installed by apt on Debian.
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Exactly typed, non-variadic forwarders for libcurl's variadic calls, and the memory
        // functions Courier gives libcurl (curl_memory.c).
        .target(name: "CCurlShim", dependencies: ["CCurl"], path: "Sources/CCurlShim"),
        // A pthread-based lock ThreadSanitizer can see (Synchronization.Mutex it cannot, on Linux).
        .target(name: "CourierSync", path: "Sources/CourierSync"),
        .target(name: "Courier", dependencies: ["CCurl", "CCurlShim", "CourierSync"], path: "Sources/Courier"),
        // In-process loopback HTTP/1.1 server with fault injection, for tests and the demo.
        .target(name: "CourierTestServer", dependencies: ["CourierSync", "CSHA256"], path: "Sources/CourierTestServer"),
        // SHA-256's compression function in C, fast in the unoptimised, sanitized test builds.
        .target(name: "CSHA256", path: "Sources/CSHA256"),
        // Stubbed sessions for users' tests: canned responses through the real pipeline.
        .target(name: "CourierTesting", dependencies: ["Courier", "CourierSync"], path: "Sources/CourierTesting"),
        // courier-generate (docs/generator.md): OpenAPI 3.0/3.1 or Swagger 2.0, JSON or YAML, to routers, models and
        // services. Only the generator reads YAML (libyaml, `yaml-0.1`); Courier does not depend on it.
        .systemLibrary(
            name: "CYaml",
            path: "Sources/CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(name: "CourierGenerator", dependencies: ["CYaml"], path: "Sources/CourierGenerator"),
        .executableTarget(
            name: "courier-generate", dependencies: ["CourierGenerator"], path: "Sources/courier-generate"),
        .plugin(
            name: "CourierGeneratePlugin",
            capability: .command(
                intent: .custom(
                    verb: "courier-generate", description: "Generates routers, models and services from OpenAPI"),
                permissions: [.writeToPackageDirectory(reason: "Writes the generated Swift files")]
            ),
            dependencies: ["courier-generate"],
            path: "Plugins/CourierGeneratePlugin"
        ),
        // Minimal command-line programs proving completions fire without a run loop.
        .executableTarget(name: "SyncMain", dependencies: ["Courier", "CourierTestServer"], path: "Examples/SyncMain"),
        .executableTarget(
            name: "AsyncMain", dependencies: ["Courier", "CourierTestServer"], path: "Examples/AsyncMain"),
        // Benchmarks (run with `bash Benchmarks/run.sh`, see docs/performance.md): Courier and
        // URLSession workloads, the raw libcurl C baseline, and their shared fixtures.
        .target(name: "BenchmarkFixtures", path: "Benchmarks/BenchmarkFixtures"),
        .executableTarget(
            name: "CourierBenchmarks", dependencies: ["Courier", "CourierSync", "BenchmarkFixtures", "EngineModelLoop"],
            path: "Benchmarks/CourierBenchmarks"),
        // The decoder micro-benchmark (Foundation's JSONDecoder vs CourierJSONDecoder), with an
        // allocation counter that replaces malloc in its process only.
        .target(name: "MallocCounter", path: "Benchmarks/MallocCounter"),
        .executableTarget(
            name: "DecodeBenchmarks", dependencies: ["Courier", "BenchmarkFixtures", "MallocCounter"],
            path: "Benchmarks/DecodeBenchmarks"),
        // Allocations and instructions per request, counted: the budgets scripts/test.sh holds
        // (docs/performance.md), over one shared workload.
        .target(name: "BudgetWorkload", dependencies: ["Courier"], path: "Benchmarks/BudgetWorkload"),
        .executableTarget(
            name: "AllocationBudget", dependencies: ["BudgetWorkload", "MallocCounter"],
            path: "Benchmarks/AllocationBudget"),
        .executableTarget(
            name: "InstructionBudget", dependencies: ["BudgetWorkload"], path: "Benchmarks/InstructionBudget"),
        // courier-generate's time for the 108-operation test document (workload `generate`).
        .executableTarget(
            name: "GenerateBenchmarks", dependencies: ["CourierGenerator"], path: "Benchmarks/GenerateBenchmarks"),
        // The engine model's loop (raw libcurl driven as Courier's engine drives it), shared by the C
        // baseline's engine model and CourierBenchmarks' async engine model.
        .target(name: "EngineModelLoop", dependencies: ["CCurl"], path: "Benchmarks/EngineModelLoop"),
        .executableTarget(
            name: "RawCurlBaseline", dependencies: ["CCurl", "EngineModelLoop"], path: "Benchmarks/RawCurlBaseline"),
        // The soak (docs/reliability.md): a long mix of successes, faults and cancellations,
        // checking that descriptors, threads and memory come back to their baseline.
        .executableTarget(
            name: "CourierSoak", dependencies: ["Courier", "CourierSync", "CourierTestServer", "HeapUsage"],
            path: "Soak/CourierSoak"),
        .target(name: "HeapUsage", path: "Soak/HeapUsage"),
        .testTarget(
            name: "CourierTests",
            dependencies: ["Courier", "CourierSync", "CourierTestServer", "CourierTesting", "SyncMain", "AsyncMain"],
            path: "Tests/CourierTests"
        ),
        .testTarget(
            name: "CourierTestServerTests",
            dependencies: ["CourierTestServer"],
            path: "Tests/CourierTestServerTests"
        ),
        // Services (docs/services.md): the demo API server, the example services, one executable
        // per scenario (run them all with scripts/demo.sh), and their tests. DogsExample and
        // ServiceSwift5Tests build in Swift 5 mode to prove services compile there too.
        .target(name: "DemoServer", dependencies: ["CourierTestServer", "CourierSync"], path: "Examples/DemoServer"),
        .target(name: "ExampleServices", dependencies: ["Courier"], path: "Examples/ExampleServices"),
        .executableTarget(
            name: "AuthExample", dependencies: ["DemoServer", "ExampleServices"], path: "Examples/AuthExample"),
        .executableTarget(
            name: "MusicHomeExample", dependencies: ["DemoServer", "ExampleServices"], path: "Examples/MusicHomeExample"
        ),
        .executableTarget(
            name: "TravelExample", dependencies: ["DemoServer", "ExampleServices"], path: "Examples/TravelExample"),
        .executableTarget(
            name: "LoginStatusExample", dependencies: ["DemoServer", "ExampleServices"],
            path: "Examples/LoginStatusExample"),
        .executableTarget(
            name: "OrderTrackingExample", dependencies: ["DemoServer", "ExampleServices"],
            path: "Examples/OrderTrackingExample"),
        .executableTarget(
            name: "DogsExample", dependencies: ["DemoServer", "ExampleServices"], path: "Examples/DogsExample",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The Dogs API again, generated by courier-generate from Examples/DogsOpenAPI/dogs.yaml (docs/generator.md).
        .target(name: "GeneratedDogs", dependencies: ["Courier"], path: "Examples/GeneratedDogs"),
        .executableTarget(
            name: "GeneratedDogsExample", dependencies: ["DemoServer", "GeneratedDogs"],
            path: "Examples/GeneratedDogsExample"),
        .testTarget(
            name: "ServiceTests",
            dependencies: [
                "Courier", "CourierSync", "CourierTestServer", "CourierTesting", "DemoServer", "ExampleServices"
            ],
            path: "Tests/ServiceTests",
            // Record-and-replay fixtures, read from the source tree (docs/testing.md).
            exclude: ["Fixtures"]
        ),
        // The generator's golden outputs (Tests/CourierGeneratorTests/Documents → Tests/GeneratedAPIs), compiled
        // here in Swift 6 mode; CourierGeneratorTests regenerates and compares them, and sends them through the
        // test server.
        .target(name: "GeneratedMini", dependencies: ["Courier"], path: "Tests/GeneratedAPIs/Mini"),
        .target(name: "GeneratedKinds", dependencies: ["Courier"], path: "Tests/GeneratedAPIs/Kinds"),
        .target(name: "GeneratedMarketplace", dependencies: ["Courier"], path: "Tests/GeneratedAPIs/Marketplace"),
        .testTarget(
            name: "CourierGeneratorTests",
            dependencies: [
                "CourierGenerator", "courier-generate", "Courier", "CourierTestServer", "GeneratedMini",
                "GeneratedKinds", "GeneratedMarketplace"
            ],
            path: "Tests/CourierGeneratorTests",
            exclude: ["Documents"]
        ),
        .testTarget(
            name: "ServiceSwift5Tests",
            dependencies: ["Courier", "CourierTestServer"],
            path: "Tests/ServiceSwift5Tests",
            swiftSettings: [.swiftLanguageMode(.v5)]
        )
    ],
    swiftLanguageModes: [.v6]
)
