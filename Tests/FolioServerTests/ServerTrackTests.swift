import FolioLibrary
import FolioScore
import FolioServer
import FolioTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// Sound through the API: audio files served with byte ranges (the bytes of the file, as
/// ffmpeg made it), tracks linked, looped and unlinked under the list's version (428 without
/// one, 409 when stale), a file that is not audio and a path that leaves the library refused,
/// each setlist piece's queued track and tempo, and the metronome's WAV sample kept, served
/// and refused when it is no WAV.
final class ServerTrackTests: ServerTestCase, @unchecked Sendable {
    private func tone(_ relative: String, _ arguments: [String] = [], seconds: Double = 3) throws {
        try TestEnvironment.recording(at: fixture.path(relative), seconds: seconds, arguments)
    }

    private struct AudioList: Decodable { let audio: [AudioFile] }
    private struct Pieces: Decodable { let pieces: [PieceSound] }

    func testTracksThroughTheAPI() async throws {
        try tone("Nahrávky/Ukolébavka – Колыбельная.flac")
        try tone("Nahrávky/Ensayo – リハーサル.m4a")
        try tone("klik.wav", ["-ar", "22050"], seconds: 0.1)
        try Data("<html>not audio</html>".utf8).write(to: URL(fileURLWithPath: fixture.path("Nahrávky/nic.ogg")))
        let app = Application(router: try fixture.server().router())
        try await app.test(.router) { client in
            let csrf = try await ServerFixture.csrf(client)
            let audio = try ServerFixture.decode(AudioList.self, try await client.execute(uri: "/api/audio", method: .get)).audio
            XCTAssertEqual(audio.map(\.path), ["Nahrávky/Ensayo – リハーサル.m4a", "Nahrávky/Ukolébavka – Колыбельная.flac", "klik.wav"])
            XCTAssertEqual(audio.map(\.kind), [.m4a, .flac, .wav])
            let flac = audio[1]

            // The bytes, whole and by range.
            let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path(flac.path)))
            let whole = try await client.execute(uri: "/api/audio/\(flac.id)", method: .get)
            XCTAssertEqual(whole.status, .ok)
            XCTAssertEqual(whole.headers[.contentType], "audio/flac")
            XCTAssertEqual(whole.headers[.acceptRanges], "bytes")
            XCTAssertEqual(Data(buffer: whole.body), bytes)
            let part = try await client.execute(uri: "/api/audio/\(flac.id)", method: .get, headers: [.range: "bytes=1000-2999"])
            XCTAssertEqual(part.status, .partialContent)
            XCTAssertEqual(part.headers[.contentRange], "bytes 1000-2999/\(bytes.count)")
            XCTAssertEqual(Data(buffer: part.body), bytes[1000...2999])
            let tail = try await client.execute(uri: "/api/audio/\(flac.id)", method: .get, headers: [.range: "bytes=-100"])
            XCTAssertEqual(Data(buffer: tail.body), bytes.suffix(100))
            let past = try await client.execute(uri: "/api/audio/\(flac.id)", method: .get, headers: [.range: "bytes=\(bytes.count)-"])
            XCTAssertEqual(past.status, .rangeNotSatisfiable)
            let reply1 = try await client.execute(uri: "/api/audio/999", method: .get)
            XCTAssertEqual(reply1.status, .notFound)

            let id = try await ServerFixture.scoreID(client, query: "cuna")
            let listed = try await client.execute(uri: "/api/scores/\(id)/tracks", method: .get)
            XCTAssertEqual(try ServerFixture.decode(TrackService.Tracks.self, listed).tracks, [])
            var version = try XCTUnwrap(listed.headers[.eTag])
            func send(_ method: HTTPRequest.Method, _ uri: String, _ body: String?, version: String?) async throws -> TestResponse {
                var headers = csrf
                headers[.contentType] = "application/json"
                if let version { headers[.ifMatch] = version }
                return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
            }

            // Linked by id and by path; refused without a version, with a stale one, for no audio, outside the library.
            let link = #"{"audio": \#(flac.id), "title": "Wiegenlied – 子守歌", "loopStart": 1, "loopEnd": 2.5}"#
            let reply2 = try await send(.post, "/api/scores/\(id)/tracks", link, version: nil)
            XCTAssertEqual(reply2.status, .preconditionRequired)
            let created = try await send(.post, "/api/scores/\(id)/tracks", link, version: version)
            XCTAssertEqual(created.status, .created)
            let reply3 = try await send(.post, "/api/scores/\(id)/tracks", #"{"file": "Nahrávky/Ensayo – リハーサル.m4a"}"#,
                                          version: version)
            XCTAssertEqual(reply3.status, .conflict, "a stale version went through")
            version = try XCTUnwrap(created.headers[.eTag])
            for (body, status, message) in [(#"{"file": "Nahrávky/nic.ogg"}"#, HTTPResponse.Status.badRequest, "not audio by its content"),
                                            (#"{"file": "../../../etc/passwd"}"#, .badRequest, "outside the library"),
                                            (#"{"file": "Nahrávky/chybí.mp3"}"#, .notFound, "no audio file"),
                                            (#"{"audio": 1, "file": "klik.wav"}"#, .badRequest, "one of them"),
                                            (#"{"file": "klik.wav", "loopStart": 5, "loopEnd": 1}"#, .badRequest, "before it starts"),
                                            (#"{"file": "klik.wav", "bookmark": "Trio"}"#, .notFound, "no bookmark titled Trio")] {
                let refused = try await send(.post, "/api/scores/\(id)/tracks", body, version: version)
                XCTAssertEqual(refused.status, status, body)
                XCTAssertTrue(String(buffer: refused.body).contains(message), "\(body): \(String(buffer: refused.body))")
            }
            let second = try await send(.post, "/api/scores/\(id)/tracks", #"{"file": "Nahrávky/Ensayo – リハーサル.m4a", "offset": 0.5}"#,
                                        version: version)
            XCTAssertEqual(second.status, .created)
            version = try XCTUnwrap(second.headers[.eTag])
            var tracks = try ServerFixture.decode(TrackService.Tracks.self, second).tracks
            XCTAssertEqual(tracks.map(\.file), ["Nahrávky/Ukolébavka – Колыбельная.flac", "Nahrávky/Ensayo – リハーサル.m4a"])
            XCTAssertEqual(tracks[0].title, "Wiegenlied – 子守歌")
            XCTAssertEqual(tracks[1].kind, .m4a)

            // The loop: B moved, A cleared (null), the offset kept (left out).
            let changed = try await send(.patch, "/api/scores/\(id)/tracks/\(tracks[0].id)", #"{"loopStart": null, "loopEnd": 2.75}"#,
                                         version: version)
            XCTAssertEqual(changed.status, .ok)
            version = try XCTUnwrap(changed.headers[.eTag])
            tracks = try ServerFixture.decode(TrackService.Tracks.self, changed).tracks
            XCTAssertNil(tracks[0].loopStart)
            XCTAssertEqual(tracks[0].loopEnd, 2.75)
            XCTAssertEqual(tracks[1].offset, 0.5)
            let negative = try await send(.patch, "/api/scores/\(id)/tracks/\(tracks[1].id)", #"{"offset": -1}"#, version: version)
            XCTAssertEqual(negative.status, .badRequest)
            XCTAssertTrue(String(buffer: negative.body).contains("valid: 0 to 86400 seconds"))
            let reply4 = try await send(.patch, "/api/scores/\(id)/tracks/999", #"{"offset": 1}"#, version: version)
            XCTAssertEqual(reply4.status, .notFound)
            // The catalog agrees.
            XCTAssertEqual(try fixture.server().service.catalog.tracks(of: "Brahms-Cancion_de_Cuna.pdf").first?.loopEnd, 2.75)

            // A setlist piece opens with its track, tempo and time signature.
            let setlist = try await send(.post, "/api/setlists", #"{"name": "Večer – 夜"}"#, version: nil)
            let entry = try await send(.post, "/api/setlists/Ve%C4%8Der%20%E2%80%93%20%E5%A4%9C/entries", #"{"kind": "score", "score": \#(id)}"#,
                                       version: setlist.headers[.eTag])
            XCTAssertEqual(entry.status, .ok)
            let sound = try ServerFixture.decode(Pieces.self, try await client.execute(uri: "/api/setlists/Ve%C4%8Der%20%E2%80%93%20%E5%A4%9C/sound", method: .get))
            XCTAssertEqual(sound.pieces.map { $0.track?.id }, [tracks[0].id])
            XCTAssertEqual(sound.pieces.first?.score, id)

            // Unlinked: gone from the list, the file stays.
            let removed = try await send(.delete, "/api/scores/\(id)/tracks/\(tracks[0].id)", nil, version: version)
            XCTAssertEqual(removed.status, .ok)
            XCTAssertEqual(try ServerFixture.decode(TrackService.Tracks.self, removed).tracks.map(\.id), [tracks[1].id])
            XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.path(flac.path)))

            // The metronome's sample: none, then the library's WAV, then an upload; no WAV refused.
            let reply5 = try await client.execute(uri: "/api/metronome/sample", method: .get)
            XCTAssertEqual(reply5.status, .notFound)
            let fromLibrary = try await client.execute(uri: "/api/metronome/sample?file=klik.wav", method: .put, headers: csrf)
            XCTAssertEqual(fromLibrary.status, .ok, String(buffer: fromLibrary.body))
            let kept = try await client.execute(uri: "/api/metronome/sample", method: .get)
            XCTAssertEqual(kept.headers[.contentType], "audio/wav")
            XCTAssertEqual(Data(buffer: kept.body), try Data(contentsOf: URL(fileURLWithPath: fixture.path("klik.wav"))))
            let notWAV = try await client.execute(uri: "/api/metronome/sample", method: .put, headers: csrf,
                                                  body: ByteBuffer(data: try Data(contentsOf: URL(fileURLWithPath: fixture.path(flac.path)))))
            XCTAssertEqual(notWAV.status, .badRequest)
            XCTAssertTrue(String(buffer: notWAV.body).contains("not a WAV file"), String(buffer: notWAV.body))
            let outside = try await client.execute(uri: "/api/metronome/sample?file=../../etc/passwd", method: .put, headers: csrf)
            XCTAssertEqual(outside.status, .notFound)
            let reply6 = try await client.execute(uri: "/api/metronome/sample", method: .get)
            XCTAssertEqual(Data(buffer: reply6.body),
                           try Data(contentsOf: URL(fileURLWithPath: fixture.path("klik.wav"))), "a refused sample replaced the kept one")
            let reply7 = try await client.execute(uri: "/api/metronome/sample", method: .delete, headers: csrf)
            XCTAssertEqual(reply7.status, .noContent)
            let reply8 = try await client.execute(uri: "/api/metronome/sample", method: .get)
            XCTAssertEqual(reply8.status, .notFound)
        }
    }
}
