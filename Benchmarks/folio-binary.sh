# Sourced by the benchmarks, from the repository's root: sets `folio` to the binary to time,
# FOLIO=path when given, else a release build made now (`folio_binary static`: with the Swift
# runtime linked in, so process start-up drops from ~16 to ~9 ms).
folio_binary() {
    folio="${FOLIO:-}"
    [ -n "$folio" ] && return
    local flags=(-c release --product folio)
    [ "${1:-}" = static ] && flags+=(--static-swift-stdlib --scratch-path .build-static)
    swift build "${flags[@]}" >/dev/null
    folio="$(swift build "${flags[@]}" --show-bin-path)/folio"
}
