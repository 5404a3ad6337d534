import CourierGenerator
import Foundation

// GenerateBenchmarks [--seconds S] [document]: times courier-generate on a document (default: the
// 108-operation Tests/CourierGeneratorTests/Documents/marketplace.yaml), two ways:
//   - in process, parse to unformatted Swift, repeated for S seconds;
//   - once, the whole command: generate, write the files into a temporary directory and run
//     swift-format over them with the repository's .swift-format (what `courier-generate` does).
// Prints one line each, for Benchmarks/run.sh (workload `generate`) and the report:
//   GENERATE <document> <operations> <iterations> <seconds> <files> <bytes>
var seconds = 1.0
var path = "Tests/CourierGeneratorTests/Documents/marketplace.yaml"
var arguments = Array(CommandLine.arguments.dropFirst())
while let argument = arguments.first {
    arguments.removeFirst()
    if argument == "--seconds", let value = arguments.first.flatMap(Double.init) {
        seconds = value
        arguments.removeFirst()
    } else {
        path = argument
    }
}
guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("GenerateBenchmarks: cannot read \(path)\n".utf8))
    exit(1)
}
let name = URL(fileURLWithPath: path).lastPathComponent
do {
    var files = try Generator.generate(document: data, sourceName: name, moduleName: "Bench")  // warm-up
    let operations = files.filter { $0.path.hasPrefix("Routers/") }.reduce(0) {
        $0 + $1.contents.components(separatedBy: "\n    case ").count - 1
    }
    var iterations = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed = 0.0
    while elapsed < seconds || iterations < 3 {
        files = try Generator.generate(document: data, sourceName: name, moduleName: "Bench")
        iterations += 1
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    let bytes = files.reduce(0) { $0 + $1.contents.utf8.count }
    print(
        ["GENERATE", name, "\(operations)", "\(iterations)", "\(elapsed)", "\(files.count)", "\(bytes)"]
            .joined(separator: "\t"))

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("generate-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let whole = DispatchTime.now().uptimeNanoseconds
    let written = try Generator.generate(document: data, sourceName: name, moduleName: "Bench")
    try OutputWriter.write(written, to: directory)
    if try OutputWriter.format(directory, configuration: URL(fileURLWithPath: ".swift-format")) {
        let total = Double(DispatchTime.now().uptimeNanoseconds - whole) / 1e9
        let fields = [name + " written and formatted", "\(operations)", "1", "\(total)", "\(files.count)", "\(bytes)"]
        print((["GENERATE"] + fields).joined(separator: "\t"))
    }
} catch {
    FileHandle.standardError.write(Data("GenerateBenchmarks: \(error)\n".utf8))
    exit(1)
}
