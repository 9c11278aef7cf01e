// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Folio",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "FolioPDF", targets: ["FolioPDF"]),
        .library(name: "FolioScore", targets: ["FolioScore"]),
        .library(name: "FolioLibrary", targets: ["FolioLibrary"]),
        .library(name: "FolioServer", targets: ["FolioServer"]),
        .executable(name: "folio", targets: ["folio"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        // HTTPS: TLS through swift-nio-ssl (already built for Hummingbird's tests), and the local
        // certificate authority's certificates made with swift-certificates.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // A catalog several servers share (issue 73): PostgreSQL, through PostgresNIO.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // `swift package generate-documentation`: the code documentation as HTML (README, "Documentation").
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // The failure vocabulary every layer shares, below the engine.
        .target(name: "FolioFailure"),
        .target(
            name: "FolioPDF",
            dependencies: [
                "FolioFailure", "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "FolioScore",
            dependencies: [
                "FolioPDF", .product(name: "SwiftCSV", package: "SwiftCSV"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "FolioLibrary",
            dependencies: [
                "FolioScore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "FolioServer",
            dependencies: [
                "FolioScore", "FolioLibrary",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Assets")],
            // A member of the engine is seen only where the file imports FolioPDF itself.
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        .executableTarget(
            name: "folio",
            dependencies: [
                "FolioPDF",
                "FolioScore",
                "FolioLibrary",
                "FolioServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // What the test targets share: where the shared corpus is, and skipping without it.
        .target(name: "FolioTestSupport", dependencies: ["FolioLibrary"], path: "Tests/Support"),
        .testTarget(
            name: "FolioServerTests",
            dependencies: [
                "FolioServer", "FolioLibrary", "FolioScore", "FolioPDF", "FolioTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "FolioScoreTests",
            dependencies: ["FolioScore", "FolioPDF", "FolioTestSupport"]
        ),
        .testTarget(
            name: "FolioLibraryTests",
            dependencies: ["FolioLibrary", "FolioScore", "FolioPDF", "FolioTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The tests that drive the `folio` binary, as a user runs it.
        .testTarget(
            name: "FolioCLITests",
            dependencies: ["folio", "FolioTestSupport"]
        ),
        .testTarget(
            name: "FolioPDFTests",
            dependencies: [
                "FolioPDF", "FolioTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
