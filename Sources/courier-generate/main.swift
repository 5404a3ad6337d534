import CourierGenerator
import Foundation

/// courier-generate <document> --output <dir> [--module-name <name>] [--format-config <file>] [--no-format]
let usage = """
    usage: courier-generate <document> --output <dir> [--module-name <name>] [--format-config <.swift-format>] [--no-format]
      <document>       an OpenAPI 3.0 or 3.1 document, JSON or YAML
      --output         where the Swift files go (generated files from an earlier run are replaced)
      --module-name    the prefix of the module-wide names (default: API)
      --format-config  the swift-format configuration (default: the .swift-format swift-format finds)
      --no-format      write the files without running swift-format
    """

func fail(_ message: String, code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("courier-generate: \(message)\n".utf8))
    exit(code)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var document: String?
var output: String?
var moduleName = "API"
var formatConfig: String?
var shouldFormat = true
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func value() -> String {
        guard !arguments.isEmpty else { fail("\(argument) needs a value\n\(usage)", code: 2) }
        return arguments.removeFirst()
    }
    switch argument {
    case "--output", "-o": output = value()
    case "--module-name": moduleName = value()
    case "--format-config": formatConfig = value()
    case "--no-format": shouldFormat = false
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        if argument.hasPrefix("-") || document != nil { fail("unexpected argument \(argument)\n\(usage)", code: 2) }
        document = argument
    }
}
guard let document, let output else { fail("a document and --output are required\n\(usage)", code: 2) }
let documentURL = URL(fileURLWithPath: document)
guard let data = FileManager.default.contents(atPath: documentURL.path) else { fail("cannot read \(document)") }
do {
    let files = try Generator.generate(
        document: data, sourceName: documentURL.lastPathComponent, moduleName: moduleName)
    let directory = URL(fileURLWithPath: output)
    try OutputWriter.write(files, to: directory)
    if shouldFormat {
        if try !OutputWriter.format(directory, configuration: formatConfig.map { URL(fileURLWithPath: $0) }) {
            FileHandle.standardError.write(
                Data("courier-generate: swift-format not found; files left unformatted\n".utf8))
        }
    }
    print("courier-generate: wrote \(files.count) files to \(output)")
} catch let error as GeneratorError {
    fail("\(document)#\(error.pointer.dropFirst()): \(error.message)")
} catch {
    fail("\(error)")
}
