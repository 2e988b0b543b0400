import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// NotulaContract against `dbus/*.xml`: the names the service, `notula`, the bench and the tests
/// share are the contract's, no more and no fewer.
@Suite("NotulaContract names what dbus/*.xml declares, and nothing else")
struct ContractNamesTests {
    /// `interface X`, `X method M`, `X signal S`, `X property P`, `error E`: every name of the XML files.
    /// Errors are documented in comments, so they are read from the whole text.
    static func namesInXML() throws -> Set<String> {
        let folder = packageRoot.appendingPathComponent("dbus")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".xml") }
        var names: Set<String> = []
        for file in files {
            let xml = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in xml.matches(of: #/org\.notula\.Notula1\.Error\.\w+/#) { names.insert("error \(match.output)") }
            for match in xml.matches(of: #/<interface name="([^"]+)">/#) {
                let interface = String(match.output.1)
                names.insert("interface \(interface)")
                for member in try members(of: interface, in: xml) {
                    // "method Process(out o memo)", "property Elapsed d read(…)": the kind, then the name.
                    let words = member.split(whereSeparator: { $0 == " " || $0 == "(" })
                    names.insert("\(interface) \(words[0]) \(words[1])")
                }
            }
        }
        return names
    }

    static func namesInContract() -> Set<String> {
        var names = Set(NotulaErrorName.allCases.map { "error \($0.rawValue)" })
        for interface in NotulaBus.interfaces {
            names.formUnion(contractNames(of: interface))
        }
        return names
    }

    private static func contractNames<Interface: NotulaInterface>(of _: Interface.Type) -> [String] {
        let name = Interface.name.rawValue
        return ["interface \(name)"] + Interface.Method.allCases.map { "\(name) method \($0.rawValue)" }
            + Interface.Signal.allCases.map { "\(name) signal \($0.rawValue)" }
            + Interface.Property.allCases.map { "\(name) property \($0.rawValue)" }
    }

    @Test func everyNameOfTheXMLIsInTheContractAndNothingElse() throws {
        let xml = try Self.namesInXML()
        let contract = Self.namesInContract()
        #expect(xml.subtracting(contract).isEmpty, "in dbus/*.xml, not in NotulaContract: \(xml.subtracting(contract).sorted())")
        #expect(contract.subtracting(xml).isEmpty, "in NotulaContract, not in dbus/*.xml: \(contract.subtracting(xml).sorted())")
    }

    @Test func theBusNameAndEveryPathAreTheOnesTheXMLDocuments() throws {
        let folder = packageRoot.appendingPathComponent("dbus")
        let text = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".xml") }
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined()
        #expect(text.contains("on the session bus name \(NotulaBus.name)."))
        let documented = Set(text.matches(of: #/(/org/notula/Notula1(/[A-Za-z]+)*)/#).map { String($0.output.1) })
        let paths = [
            NotulaBus.rootPath, NotulaBus.recorderPath, NotulaBus.modelsPath, NotulaBus.libraryPath, NotulaBus.memosPath,
            NotulaBus.focusedWindowPath, NotulaBus.focusReportPath,
        ]
        #expect(Set(paths.map(\.rawValue)) == documented)
    }
}
