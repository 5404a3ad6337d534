// Declarations docs/testing.md takes for granted.
import CourierTesting
import CourierTestServer
import DemoServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct User: Codable, Sendable, Equatable {
    var name: String
}

struct Item: Codable, Sendable, Equatable {
    var id: Int
}
