import DemoServer
import ExampleServices
import Foundation

// Starts the embedded demo server, runs the Travel scenario against it, exits 0 on success.
let status = await DemoServer.runExample("TravelExample") { baseURL in
    await TravelScenario.run(baseURL: baseURL).succeeded
}
exit(status)
