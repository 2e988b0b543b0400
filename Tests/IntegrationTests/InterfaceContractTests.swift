import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

struct MissingInterface: Error { let name: String }

/// The members of one interface in introspection XML, comments and layout aside, each as a line
/// such as `method Process(out o memo)` or `property Elapsed d read [EmitsChangedSignal=false]`.
func members(of interface: String, in xml: String) throws -> [String] {
    var text = xml
    while let start = text.range(of: "<!--"), let end = text.range(of: "-->", range: start.upperBound..<text.endIndex) {
        text.removeSubrange(start.lowerBound..<end.upperBound)
    }
    guard let open = text.range(of: "<interface name=\"\(interface)\">"),
        let close = text.range(of: "</interface>", range: open.upperBound..<text.endIndex)
    else { throw MissingInterface(name: interface) }
    let body = text[open.upperBound..<close.lowerBound]
    let tags = try Regex(#"<(/?)(\w+)([^>]*?)(/?)>"#)
    func attribute(_ name: String, _ attributes: Substring) -> String {
        guard let match = attributes.firstMatch(of: try! Regex("\(name)=\"([^\"]*)\"")) else { return "" }
        return String(match.output[1].substring ?? "")
    }
    var lines: [String] = []
    var current: (kind: String, name: String, parts: [String])?
    for match in body.matches(of: tags) {
        let closing = match.output[1].substring == "/"
        let tag = String(match.output[2].substring ?? "")
        let attributes = match.output[3].substring ?? ""
        let selfClosing = match.output[4].substring == "/"
        switch tag {
        case "method", "signal", "property":
            if closing {
                if let current { lines.append("\(current.kind) \(current.name)(\(current.parts.joined(separator: ", ")))") }
                current = nil
            } else {
                var name = attribute("name", attributes)
                if tag == "property" { name += " \(attribute("type", attributes)) \(attribute("access", attributes))" }
                current = (tag, name, [])
                if selfClosing { lines.append("\(tag) \(name)()"); current = nil }
            }
        case "arg":
            let given = attribute("direction", attributes)
            let direction = given.isEmpty && current?.kind == "method" ? "in" : given
            current?.parts.append("\(direction) \(attribute("type", attributes)) \(attribute("name", attributes))")
        case "annotation":
            current?.parts.append("[\(attribute("name", attributes))=\(attribute("value", attributes))]")
        default:
            continue
        }
    }
    return lines.sorted()
}

@Suite("The service's interfaces match their contracts in dbus/", .serialized)
struct InterfaceContractTests {
    /// What a binding generator reads must parse: a `--` in a comment (a command-line option named there) is not XML.
    @Test func everyContractIsWellFormedXML() throws {
        let folder = packageRoot.appendingPathComponent("dbus")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".xml") }
            .map { folder.appendingPathComponent($0).path }
        #expect(files.count == 6)
        let parsed = try run(
            "/usr/bin/python3", ["-c", "import sys, xml.dom.minidom\nfor f in sys.argv[1:]: xml.dom.minidom.parse(f)"] + files)
        #expect(parsed.status == 0, "\(parsed.errorOutput)")
    }

    @Test func introspectionEqualsTheXMLFile() async throws {
        let service = try await ServiceUnderTest.start()
        let xml = try await service.call(NotulaBus.recorderPath, "org.freedesktop.DBus.Introspectable", "Introspect").argument(
            0, as: String.self)
        let contract = try String(
            contentsOf: packageRoot.appendingPathComponent("dbus/\(NotulaBus.recorderInterface).xml"), encoding: .utf8)
        let live = try members(of: NotulaBus.recorderInterface.rawValue, in: xml)
        #expect(live == (try members(of: NotulaBus.recorderInterface.rawValue, in: contract)))
        #expect(live.count == 31)
        #expect(live.contains("property Elapsed d read([org.freedesktop.DBus.Property.EmitsChangedSignal=false])"))
        #expect(live.contains("property Vocabulary as readwrite([org.freedesktop.DBus.Property.EmitsChangedSignal=invalidates])"))
    }

    @Test func theModelsObjectEqualsItsXMLFile() async throws {
        let service = try await ServiceUnderTest.start()
        let xml = try await service.call(NotulaBus.modelsPath, "org.freedesktop.DBus.Introspectable", "Introspect").argument(
            0, as: String.self)
        let contract = try String(contentsOf: packageRoot.appendingPathComponent("dbus/\(NotulaBus.modelsInterface).xml"), encoding: .utf8)
        let live = try members(of: NotulaBus.modelsInterface.rawValue, in: xml)
        #expect(live == (try members(of: NotulaBus.modelsInterface.rawValue, in: contract)))
        #expect(live.count == 19)
    }

    @Test func theLibraryAndMemoObjectsEqualTheirXMLFiles() async throws {
        let service = try await ServiceUnderTest.start()
        let memo = try await service.recordMemo()
        for (path, interface, count) in [(NotulaBus.libraryPath, NotulaBus.libraryInterface, 5), (memo, NotulaBus.memoInterface, 20)] {
            let xml = try await service.call(path, "org.freedesktop.DBus.Introspectable", "Introspect").argument(0, as: String.self)
            let contract = try String(contentsOf: packageRoot.appendingPathComponent("dbus/\(interface).xml"), encoding: .utf8)
            let live = try members(of: interface.rawValue, in: xml)
            #expect(live == (try members(of: interface.rawValue, in: contract)))
            #expect(live.count == count)
        }
        let memoXML = try await service.call(memo, "org.freedesktop.DBus.Introspectable", "Introspect").argument(0, as: String.self)
        #expect(try members(of: NotulaBus.memoInterface.rawValue, in: memoXML).contains("property UtteranceModels a(dds) read()"))
    }

    @Test func busctlShowsTheInterface() async throws {
        let service = try await ServiceUnderTest.start()
        let result = try run(
            "busctl", ["--user", "introspect", NotulaBus.name.rawValue, NotulaBus.recorderPath.rawValue], environment: service.environment)
        #expect(result.status == 0, "\(result.errorOutput)")
        let recorder = NotulaBus.Recorder.self
        let members =
            recorder.Method.allCases.map(\.rawValue.rawValue) + recorder.Signal.allCases.map(\.rawValue.rawValue)
            + recorder.Property.allCases.map(\.rawValue)
        for member in members.map({ "." + $0 }) {
            #expect(result.output.contains(member), "busctl does not show \(member)")
        }
        #expect(result.output.contains("\"idle\""))
    }

    @Test func busctlTreeFindsTheRecorder() async throws {
        let service = try await ServiceUnderTest.start()
        let result = try run("busctl", ["--user", "tree", "--list", NotulaBus.name.rawValue], environment: service.environment)
        #expect(result.output.contains(NotulaBus.recorderPath.rawValue), "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains(NotulaBus.modelsPath.rawValue), "\(result.output)\(result.errorOutput)")
    }
}
