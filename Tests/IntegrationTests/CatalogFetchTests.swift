import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// The catalog is fetched by notulad run again for the purpose, which exits once it is read: libcurl and its TLS
/// libraries, 8 MB that would stay mapped, never enter the service.
@Suite("The catalog is fetched in a process of its own")
struct CatalogFetchTests {
    @Test func aFirstStartAndARefreshFetchTheCatalogWithoutMappingLibcurl() async throws {
        let bench = try Workbench()
        let shop = try ModelShop([ModelShop.Offer(archive: try bench.randomFile(megabytes: 1))])
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress])

        try await service.models(.refresh)

        #expect(try await service.modelsProperty(.supportedLocales) == .array(element: "s", [.string("ko-KR")]))
        #expect(try shop.server.requests.map(\.path).contains("/vosk/models/model-list.json"))
        let curl = service.mappedFiles.filter { $0.contains("libcurl") || $0.contains("libssl") }
        #expect(curl.isEmpty, "\(curl)")
    }

    @Test func aCatalogTheServerRefusesIsAnErrorNamingItsAnswer() async throws {
        let server = try TestHTTPServer(routes: ["/model-list.json": .status(404)])
        let address = server.url(for: "/model-list.json")
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": address])

        let refusal = await #expect(throws: BusError.self) { try await service.models(.refresh) }

        #expect(refusal?.name.rawValue == "org.notula.Notula1.Error.Failed")
        #expect(
            refusal?.message
                == "Cannot fetch the model catalog from \(address): The server answered 404 (Not Found) for \(address).")
    }
}
