import DemoServer
import ExampleServices
import Foundation

// Starts the embedded demo server, runs the Login with status scenario against it, exits 0 on success.
let status = await DemoServer.runExample("LoginStatusExample") { baseURL in
    await LoginStatusScenario.run(baseURL: baseURL).succeeded
}
exit(status)
