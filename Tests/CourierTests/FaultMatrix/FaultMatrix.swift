import Courier
import CourierTestServer
import Foundation

/// The fault matrix: every row names a fault and the exact typed error (or result) Courier must
/// report for it. docs/reliability.md lists the rows; FaultMatrixTests runs them.
enum FaultMatrix {
    /// Every row, in the order of docs/reliability.md.
    static var all: [FaultCase] {
        security + heads + errors + timeouts + transport + services + http2
    }
}
