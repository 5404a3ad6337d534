import DemoServer
import ExampleServices
import Foundation

// Starts the embedded demo server, follows its order-tracking event stream to the end
// (reconnecting once with Last-Event-ID), exits 0 on success.
let status = await DemoServer.runExample("OrderTrackingExample") { baseURL in
    await OrderTrackingScenario.run(baseURL: baseURL).succeeded
}
exit(status)
