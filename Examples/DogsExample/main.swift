import DemoServer
import ExampleServices
import Foundation

// Compiled in Swift 5 language mode (see Package.swift) to show the APIs work there too.
// Starts the embedded demo server, runs the Dogs scenario against it, exits 0 on success.
let status = await DemoServer.runExample("DogsExample") { baseURL in
    await DogsScenario.run(baseURL: baseURL).succeeded
}
exit(status)
