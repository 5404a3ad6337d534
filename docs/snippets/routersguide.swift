import Courier
import Foundation

// What docs/routers.md takes for granted.
protocol SeedAPIRouter: Router {}
let port = 8080
let token = "a-token"
let userId = "42"
let pngData = Data([0x89, 0x50, 0x4E, 0x47])
let reportURL = URL(fileURLWithPath: "/tmp/report.pdf")
