import DemoServer
import ExampleServices
import Foundation

// Starts the embedded demo server, runs the Music home scenario against it, exits 0 on success.
let status = await DemoServer.runExample("MusicHomeExample") { baseURL in
    await MusicHomeScenario.run(baseURL: baseURL).succeeded
}
exit(status)
