import CourierGenerator
import Foundation

let usage = """
    usage: courier-generate <document> --output <dir> [--module-name <name>] [--format-config <.swift-format>] [--no-format]
      <document>       an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one, JSON or YAML (with the
                       files its $refs name)
      --output         where the Swift files go (generated files from an earlier run are replaced)
      --module-name    the prefix of the module-wide names (default: API)
      --format-config  the swift-format configuration (default: the .swift-format swift-format finds)
      --no-format      write the files without running swift-format
    """

/// Why the command stops: the message for standard error and the exit status (2: usage, 1: the rest).
struct Stop: Error {
    let message: String
    var status: Int32 = 1
}

/// The command; everything it allocates is released before the process exits.
func run(_ arguments: [String]) throws(Stop) -> String {
    var arguments = arguments
    var document: String?
    var output: String?
    var moduleName = "API"
    var formatConfig: String?
    var shouldFormat = true
    while !arguments.isEmpty {
        let argument = arguments.removeFirst()
        switch argument {
        case "--output", "-o", "--module-name", "--format-config":
            guard !arguments.isEmpty else { throw Stop(message: "\(argument) needs a value\n\(usage)", status: 2) }
            let value = arguments.removeFirst()
            if argument == "--module-name" {
                moduleName = value
            } else if argument == "--format-config" {
                formatConfig = value
            } else {
                output = value
            }
        case "--no-format": shouldFormat = false
        case "--help", "-h": return usage
        default:
            if argument.hasPrefix("-") || document != nil {
                throw Stop(message: "unexpected argument \(argument)\n\(usage)", status: 2)
            }
            document = argument
        }
    }
    guard let document, let output else {
        throw Stop(message: "a document and --output are required\n\(usage)", status: 2)
    }
    let documentURL = URL(fileURLWithPath: document)
    guard let data = FileManager.default.contents(atPath: documentURL.path) else {
        throw Stop(message: "cannot read \(document)")
    }
    do {
        let files = try Generator.generate(
            document: data, sourceName: documentURL.lastPathComponent, moduleName: moduleName,
            location: documentURL)
        let directory = URL(fileURLWithPath: output)
        try OutputWriter.write(files, to: directory)
        if shouldFormat,
            try !OutputWriter.format(directory, configuration: formatConfig.map(URL.init(fileURLWithPath:)))
        {
            FileHandle.standardError.write(
                Data("courier-generate: swift-format not found; files left unformatted\n".utf8))
        }
        return "courier-generate: wrote \(files.count) files to \(output)"
    } catch let error as GeneratorError {
        // Another file is named as the document is: from where the command was run.
        let directory = (document as NSString).deletingLastPathComponent
        let file = error.file.map { $0.hasPrefix("/") || directory.isEmpty ? $0 : directory + "/" + $0 } ?? document
        throw Stop(message: "\(file)#\(error.pointer.dropFirst()): \(error.message)")
    } catch {
        throw Stop(message: "\(error)")
    }
}

func main() -> Int32 {
    do {
        print(try run(Array(CommandLine.arguments.dropFirst())))
        return 0
    } catch {
        FileHandle.standardError.write(Data("courier-generate: \(error.message)\n".utf8))
        return error.status
    }
}

exit(main())
