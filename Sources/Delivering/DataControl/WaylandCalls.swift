import CWayland
import Glibc

/// Every call of libwayland-client and of the data-control requests in `CWayland`'s shim: one place to audit. A
/// display and its proxies are used on the one thread of `DataControlConnection` only.
enum WaylandCalls {
    typealias Display = OpaquePointer
    typealias Proxy = OpaquePointer
    /// What libwayland calls with each event of a proxy: the proxy, the event's number and its arguments.
    typealias Dispatcher = @convention(c) (
        UnsafeRawPointer?, UnsafeMutableRawPointer?, UInt32, UnsafePointer<wl_message>?, UnsafeMutablePointer<wl_argument>?
    ) -> Int32

    // MARK: The display

    /// Connects to the compositor's socket at `path` (absolute). The corresponding C function is `wl_display_connect`.
    static func connect(_ path: String) -> Display? { wl_display_connect(path) }

    /// The corresponding C function is `wl_display_disconnect`.
    static func disconnect(_ display: Display) { wl_display_disconnect(display) }

    /// The socket to poll. The corresponding C function is `wl_display_get_fd`.
    static func descriptor(_ display: Display) -> Int32 { wl_display_get_fd(display) }

    /// Calls the dispatchers of the events read; false once the connection has failed. The corresponding C
    /// function is `wl_display_dispatch_pending`.
    static func dispatchPending(_ display: Display) -> Bool { wl_display_dispatch_pending(display) >= 0 }

    /// Readies reading the socket, dispatching what was read before until none is left; false once the connection
    /// has failed. The corresponding C function is `wl_display_prepare_read`.
    static func prepareRead(_ display: Display) -> Bool {
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { return false }
        }
        return true
    }

    /// Reads the events the socket holds (after `prepareRead`); false once the connection has failed. The
    /// corresponding C function is `wl_display_read_events`.
    static func readEvents(_ display: Display) -> Bool { wl_display_read_events(display) == 0 }

    /// Gives up a read readied by `prepareRead`. The corresponding C function is `wl_display_cancel_read`.
    static func cancelRead(_ display: Display) { wl_display_cancel_read(display) }

    /// Sends the requests made: true when all left, false when the socket is full (to be sent once writable).
    /// - Throws: the `errno` of a failed connection. The corresponding C function is `wl_display_flush`.
    static func flush(_ display: Display) throws(ChildProcess.Errno) -> Bool {
        if wl_display_flush(display) >= 0 { return true }
        guard errno == EAGAIN else { throw ChildProcess.Errno(code: errno) }
        return false
    }

    // MARK: The core objects

    /// The corresponding C function is `wl_display_get_registry`.
    static func registry(_ display: Display) -> Proxy? { wl_display_get_registry(display) }

    /// A callback done once the compositor has handled every request before it. The corresponding C function is
    /// `wl_display_sync`.
    static func sync(_ display: Display) -> Proxy? { wl_display_sync(display) }

    /// Binds the data-control manager announced as `name`, at version 1. The corresponding C function is
    /// `wl_registry_bind`.
    static func bindManager(_ registry: Proxy, name: UInt32) -> Proxy? {
        wl_registry_bind(registry, name, cwayland_manager_interface(), 1).map(OpaquePointer.init)
    }

    /// Binds the seat announced as `name`, at version 1. The corresponding C function is `wl_registry_bind`.
    static func bindSeat(_ registry: Proxy, name: UInt32) -> Proxy? {
        wl_registry_bind(registry, name, cwayland_seat_interface(), 1).map(OpaquePointer.init)
    }

    /// Has `dispatcher` called with each event of `proxy`, `context` as its user data. The corresponding C function
    /// is `wl_proxy_add_dispatcher`.
    static func listen(to proxy: Proxy, with dispatcher: Dispatcher, context: UnsafeMutableRawPointer) {
        wl_proxy_add_dispatcher(proxy, dispatcher, nil, context)
    }

    /// The context given to `listen`. The corresponding C function is `wl_proxy_get_user_data`.
    static func context(of proxy: Proxy) -> UnsafeMutableRawPointer? { wl_proxy_get_user_data(proxy) }

    /// Forgets a proxy that has no destroy request (a callback, the registry, the seat). The corresponding C function
    /// is `wl_proxy_destroy`.
    static func forget(_ proxy: Proxy) { wl_proxy_destroy(proxy) }

    // MARK: Data control

    /// The corresponding request is `zwlr_data_control_manager_v1.get_data_device`.
    static func device(_ manager: Proxy, seat: Proxy) -> Proxy? { cwayland_manager_get_device(manager, seat) }

    /// The corresponding request is `zwlr_data_control_manager_v1.create_data_source`.
    static func source(_ manager: Proxy) -> Proxy? { cwayland_manager_create_source(manager) }

    /// The corresponding request is `zwlr_data_control_source_v1.offer`.
    static func offer(_ source: Proxy, type: String) { cwayland_source_offer(source, type) }

    /// Makes `source` the selection, or leaves none. The corresponding request is
    /// `zwlr_data_control_device_v1.set_selection`.
    static func select(_ source: Proxy?, on device: Proxy) { cwayland_device_set_selection(device, source) }

    /// Asks the selection's owner to write `type` into `descriptor` (libwayland sends a copy). The corresponding
    /// request is `zwlr_data_control_offer_v1.receive`.
    static func receive(_ offer: Proxy, type: String, into descriptor: Int32) { cwayland_offer_receive(offer, type, descriptor) }

    /// The corresponding request is `zwlr_data_control_source_v1.destroy`.
    static func destroySource(_ source: Proxy) { cwayland_source_destroy(source) }

    /// The corresponding request is `zwlr_data_control_offer_v1.destroy`.
    static func destroyOffer(_ offer: Proxy) { cwayland_offer_destroy(offer) }

    /// The corresponding request is `zwlr_data_control_device_v1.destroy`.
    static func destroyDevice(_ device: Proxy) { cwayland_device_destroy(device) }

    // MARK: Events' arguments

    /// Argument `index` of an event as a string; nil where it is null.
    static func string(_ arguments: UnsafeMutablePointer<wl_argument>, _ index: Int) -> String? {
        arguments[index].s.map { String(cString: $0) }
    }

    static func number(_ arguments: UnsafeMutablePointer<wl_argument>, _ index: Int) -> UInt32 { arguments[index].u }

    static func descriptor(_ arguments: UnsafeMutablePointer<wl_argument>, _ index: Int) -> Int32 { arguments[index].h }

    static func object(_ arguments: UnsafeMutablePointer<wl_argument>, _ index: Int) -> Proxy? { arguments[index].o }

    /// The event numbers of the data-control interfaces.
    static let deviceDataOffer = UInt32(CWAYLAND_DEVICE_DATA_OFFER)
    static let deviceSelection = UInt32(CWAYLAND_DEVICE_SELECTION)
    static let deviceFinished = UInt32(CWAYLAND_DEVICE_FINISHED)
    static let sourceSend = UInt32(CWAYLAND_SOURCE_SEND)
    static let sourceCancelled = UInt32(CWAYLAND_SOURCE_CANCELLED)
    static let offerOffer = UInt32(CWAYLAND_OFFER_OFFER)
}
