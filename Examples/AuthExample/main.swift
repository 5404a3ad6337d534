import DemoServer
import ExampleServices
import Foundation

// Starts the embedded demo server, runs the Auth scenario against it, exits 0 on success.
let status = await DemoServer.runExample("AuthExample") { baseURL in
    await AuthScenario.run(baseURL: baseURL).succeeded
}
exit(status)
