// swift-tools-version: 6.0
// libFuzzer targets for every parser Folio has. Built and run by Fuzz/run.sh with
// -sanitize=fuzzer,address; each target is one test function handed to libFuzzer's driver.
import PackageDescription

let targets = ["FuzzPDF", "FuzzSave", "FuzzFilters", "FuzzXMP", "FuzzCSV", "FuzzOpenIn", "FuzzSetlist", "FuzzForScore",
               "FuzzFont", "FuzzImage", "FuzzText", "FuzzIntake", "FuzzAudio", "FuzzParts"]

let package = Package(
    name: "FolioFuzz",
    products: targets.map { .executable(name: $0, targets: [$0]) },
    dependencies: [.package(name: "Folio", path: "..")],
    targets: [.target(name: "FuzzSupport")] + targets.map { name in
        .executableTarget(
            name: name,
            dependencies: ["FuzzSupport", .product(name: "FolioPDF", package: "Folio"), .product(name: "FolioScore", package: "Folio")],
            path: "Sources/\(name)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    },
    swiftLanguageModes: [.v6]
)
