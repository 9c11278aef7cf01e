import FolioLibrary
import FolioScore
import Foundation
import Hummingbird

/// Sound: `/api/audio` (the library's audio files, each served with byte ranges so the
/// browser seeks without downloading it all), `/api/scores/{id}/tracks` (linked, changed,
/// unlinked under the list's version), `/api/setlists/{name}/sound` (the track each piece
/// opens with, its tempo and time signature) and `/api/metronome/sample` (the user's own click).
///
/// ```swift
/// TrackController(tracks: server.tracks, maxBody: 1 << 20).addRoutes(to: router, rights: rights)
/// ```
struct TrackController {
    let tracks: TrackService
    let maxBody: Int

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        router.get("/api/audio") { _, _ -> Response in
            try LibraryServer.json(AudioFiles(audio: try tracks.audioFiles()))
        }
        router.get("/api/audio/:audio") { request, context -> Response in
            guard let id = context.parameters.get("audio", as: Int64.self) else { throw LibraryError(.notFound, "no such audio file") }
            let (path, kind) = try tracks.audio(id)
            return try FileResponse.file(at: path, type: kind.mimeType, request: request, loop: context.channel.eventLoop)
        }
        router.get("/api/scores/:id/tracks") { _, context -> Response in
            let (tag, list) = try tracks.list(score: try LibraryServer.scoreID(context))
            return try LibraryServer.json(list, tag: tag)
        }
        router.on("/api/scores/:id/tracks", method: .post, right: .library("change the library"), in: rights) { request, context -> Response in
            let new = try await LibraryServer.decode(TrackService.NewTrack.self, request, limit: maxBody,
                                                     what: "a track ({\"audio\": 3} or {\"file\": \"Audio/…\"})")
            let (tag, list, _) = try tracks.link(score: try LibraryServer.scoreID(context), expected: LibraryServer.expected(request), new)
            return try LibraryServer.json(list, status: .created, tag: tag)
        }
        router.on("/api/scores/:id/tracks/:track", method: .patch, right: .library("change the library"), in: rights) { request, context -> Response in
            let edit = try await LibraryServer.decode(TrackService.TrackEdit.self, request, limit: maxBody,
                                                      what: "a track change ({\"loopStart\": 12.5, \"loopEnd\": null})")
            let (tag, list) = try tracks.edit(score: try LibraryServer.scoreID(context), track: try Self.trackID(context),
                                              expected: LibraryServer.expected(request), edit)
            return try LibraryServer.json(list, tag: tag)
        }
        router.on("/api/scores/:id/tracks/:track", method: .delete, right: .library("change the library"), in: rights) { request, context -> Response in
            let (tag, list) = try tracks.unlink(score: try LibraryServer.scoreID(context), track: try Self.trackID(context),
                                                expected: LibraryServer.expected(request))
            return try LibraryServer.json(list, tag: tag)
        }
        router.get("/api/setlists/:name/sound") { _, context -> Response in
            try LibraryServer.json(SetlistSound(pieces: try tracks.setlistSound(try SetlistController.setlistName(context))))
        }
        router.get("/api/metronome/sample") { _, _ -> Response in
            guard let bytes = tracks.sample.bytes() else { throw LibraryError(.notFound, "no sample: the metronome clicks") }
            return LibraryServer.bytes(Data(bytes), type: AudioKind.wav.mimeType, cache: "no-cache")
        }
        router.on("/api/metronome/sample", method: .put, right: .library("change the library"), in: rights) { request, _ -> Response in
            let file = request.uri.queryParameters.get("file")
            var request = request
            let body = try await request.collectBody(upTo: WAVFormat.maxSampleBytes)
            let format = try tracks.setSample(bytes: file == nil ? Array(buffer: body) : nil, file: file)
            return try LibraryServer.json(Sample(channels: format.channels, sampleRate: format.sampleRate, seconds: format.seconds))
        }
        router.on("/api/metronome/sample", method: .delete, right: .library("change the library"), in: rights) { _, _ -> Response in
            _ = try tracks.sample.remove()
            return Response(status: .noContent)
        }
    }

    static func trackID(_ context: FolioRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("track", as: Int64.self) else { throw LibraryError(.notFound, "no such track") }
        return id
    }

    struct AudioFiles: Encodable { let audio: [AudioFile] }
    struct SetlistSound: Encodable { let pieces: [PieceSound] }
    struct Sample: Encodable { let channels: Int; let sampleRate: Int; let seconds: Double }
}
