import Foundation

// An app's models and screens, as the guides' examples take them for granted.
struct SignIn: Decodable, Sendable { let name: String; let token: String }
struct SignUpResult: Decodable, Sendable { let id: Int }
struct Login: Decodable, Sendable { let nickname: String }
struct Banner: Codable, Sendable { let id: Int; let title: String }
struct Song: Decodable, Sendable { let id: Int; let title: String }
struct User: Decodable, Sendable { let id: Int; let name: String }
struct TripPage: Decodable, Sendable { let trips: [String] }

let email = "ada@example.com"
let pw = "secret"

func showHome(_ signIn: SignIn) {}
func offerSignUp(_ message: String) {}
func showAlert(_ message: String) {}
func showRetry() {}
func startOnboarding(_ login: Login) {}
func welcomeBack(_ nickname: String) {}
func showError() {}
func showOfflineBanner() {}
