import CPulse
import Glibc

/// Follows the other clients' streams on the capture's context, so that a call pauses the
/// recording. Cork requests never reach a record stream and pipewire-pulse sends none, so the
/// context's subscription (sink-input and source-output events) and introspection (each stream's
/// `media.role`) are what work on PulseAudio and PipeWire alike. These are the module's libpulse
/// calls besides `PulseSession`'s; all run with the main loop's lock held.
enum CallWatch {
    /// Subscribes to stream events and notes the streams already there, without announcing them:
    /// a recording started during a call is the user's choice, not something to pause.
    static func start(on context: OpaquePointer, _ userdata: UnsafeMutableRawPointer) {
        pa_context_set_subscribe_callback(context, streamEvent, userdata)
        let mask = PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT.rawValue
        release(pa_context_subscribe(context, pa_subscription_mask_t(mask), nil, nil))
        release(pa_context_get_sink_input_info_list(context, playbackFound, userdata))
        release(pa_context_get_source_output_info_list(context, captureFound, userdata))
    }
}

private func release(_ operation: OpaquePointer?) {
    if let operation { pa_operation_unref(operation) }
}

private func isCall(_ properties: OpaquePointer?) -> Bool {
    guard let properties, let role = pa_proplist_gets(properties, PA_PROP_MEDIA_ROLE) else { return false }
    return strcmp(role, "phone") == 0
}

private let streamEvent: pa_context_subscribe_cb_t = { context, event, index, userdata in
    let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
    let kind: CallStreams.Stream.Kind = facility == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue ? .playback : .capture
    if event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue {
        captureSink(userdata).callStream(CallStreams.Stream(kind: kind, index: index), isCall: false, announce: true)
    } else if kind == .playback {
        // New or changed (its properties may be set after it appeared): read its role.
        release(pa_context_get_sink_input_info(context, index, playbackChanged, userdata))
    } else {
        release(pa_context_get_source_output_info(context, index, captureChanged, userdata))
    }
}

// A stream gone before its information arrived comes with nil: its removal event follows.
private let playbackFound: pa_sink_input_info_cb_t = { _, info, _, userdata in
    guard let info else { return }
    captureSink(userdata).callStream(
        .init(kind: .playback, index: info.pointee.index), isCall: isCall(info.pointee.proplist), announce: false)
}

private let playbackChanged: pa_sink_input_info_cb_t = { _, info, _, userdata in
    guard let info else { return }
    captureSink(userdata).callStream(
        .init(kind: .playback, index: info.pointee.index), isCall: isCall(info.pointee.proplist), announce: true)
}

private let captureFound: pa_source_output_info_cb_t = { _, info, _, userdata in
    guard let info else { return }
    captureSink(userdata).callStream(
        .init(kind: .capture, index: info.pointee.index), isCall: isCall(info.pointee.proplist), announce: false)
}

private let captureChanged: pa_source_output_info_cb_t = { _, info, _, userdata in
    guard let info else { return }
    captureSink(userdata).callStream(
        .init(kind: .capture, index: info.pointee.index), isCall: isCall(info.pointee.proplist), announce: true)
}
