/// Starts libFuzzer's driver with a target's test function. SwiftPM links an executable's
/// entry point as `<Target>_main`; each target defines that and calls here, so libFuzzer's
/// own `main` is not needed (its driver is linked from the same runtime library).
public enum FuzzDriver {
    public typealias TestOne = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    public static func run(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ test: TestOne) -> CInt {
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments, test)
    }
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ test: FuzzDriver.TestOne) -> CInt
