// libwayland-client, and the wlr data-control protocol (version 1) that Debian 12's wayland-protocols does not ship:
// its interface tables and requests, written from the published definition (wlr-protocols,
// unstable/wlr-data-control-unstable-v1.xml). Requests marshal through the variadic wl_proxy_marshal_flags,
// which Swift cannot call: each is a static inline function here.
#ifndef NOTULA_CWAYLAND_H
#define NOTULA_CWAYLAND_H
#include <wayland-client.h>

static const struct wl_interface cwayland_data_control_source_interface;
static const struct wl_interface cwayland_data_control_offer_interface;
static const struct wl_interface cwayland_data_control_device_interface;

static const struct wl_interface *cwayland_new_source_types[] = {&cwayland_data_control_source_interface};
static const struct wl_interface *cwayland_new_device_types[] = {&cwayland_data_control_device_interface, &wl_seat_interface};
static const struct wl_interface *cwayland_offer_types[] = {&cwayland_data_control_offer_interface};
static const struct wl_interface *cwayland_no_types[] = {NULL, NULL};

static const struct wl_message cwayland_manager_requests[] = {
    {"create_data_source", "n", cwayland_new_source_types},
    {"get_data_device", "no", cwayland_new_device_types},
    {"destroy", "", cwayland_no_types},
};
static const struct wl_interface cwayland_data_control_manager_interface = {
    "zwlr_data_control_manager_v1", 1, 3, cwayland_manager_requests, 0, NULL};

static const struct wl_message cwayland_device_requests[] = {
    {"set_selection", "?o", cwayland_new_source_types},
    {"destroy", "", cwayland_no_types},
};
static const struct wl_message cwayland_device_events[] = {
    {"data_offer", "n", cwayland_offer_types},
    {"selection", "?o", cwayland_offer_types},
    {"finished", "", cwayland_no_types},
};
static const struct wl_interface cwayland_data_control_device_interface = {
    "zwlr_data_control_device_v1", 1, 2, cwayland_device_requests, 3, cwayland_device_events};

static const struct wl_message cwayland_source_requests[] = {
    {"offer", "s", cwayland_no_types},
    {"destroy", "", cwayland_no_types},
};
static const struct wl_message cwayland_source_events[] = {
    {"send", "sh", cwayland_no_types},
    {"cancelled", "", cwayland_no_types},
};
static const struct wl_interface cwayland_data_control_source_interface = {
    "zwlr_data_control_source_v1", 1, 2, cwayland_source_requests, 2, cwayland_source_events};

static const struct wl_message cwayland_offer_requests[] = {
    {"receive", "sh", cwayland_no_types},
    {"destroy", "", cwayland_no_types},
};
static const struct wl_message cwayland_offer_events[] = {
    {"offer", "s", cwayland_no_types},
};
static const struct wl_interface cwayland_data_control_offer_interface = {
    "zwlr_data_control_offer_v1", 1, 2, cwayland_offer_requests, 1, cwayland_offer_events};

// The event numbers (opcodes) the dispatchers switch on.
enum {
    CWAYLAND_DEVICE_DATA_OFFER = 0, CWAYLAND_DEVICE_SELECTION = 1, CWAYLAND_DEVICE_FINISHED = 2,
    CWAYLAND_SOURCE_SEND = 0, CWAYLAND_SOURCE_CANCELLED = 1,
    CWAYLAND_OFFER_OFFER = 0,
};

static inline const struct wl_interface *cwayland_manager_interface(void) { return &cwayland_data_control_manager_interface; }
static inline const struct wl_interface *cwayland_seat_interface(void) { return &wl_seat_interface; }

static inline struct wl_proxy *cwayland_manager_create_source(struct wl_proxy *manager) {
    return wl_proxy_marshal_flags(manager, 0, &cwayland_data_control_source_interface, wl_proxy_get_version(manager), 0, NULL);
}

static inline struct wl_proxy *cwayland_manager_get_device(struct wl_proxy *manager, struct wl_seat *seat) {
    return wl_proxy_marshal_flags(
        manager, 1, &cwayland_data_control_device_interface, wl_proxy_get_version(manager), 0, NULL, seat);
}

static inline void cwayland_device_set_selection(struct wl_proxy *device, struct wl_proxy *source) {
    wl_proxy_marshal_flags(device, 0, NULL, wl_proxy_get_version(device), 0, source);
}

static inline void cwayland_device_destroy(struct wl_proxy *device) {
    wl_proxy_marshal_flags(device, 1, NULL, wl_proxy_get_version(device), WL_MARSHAL_FLAG_DESTROY);
}

static inline void cwayland_source_offer(struct wl_proxy *source, const char *mime_type) {
    wl_proxy_marshal_flags(source, 0, NULL, wl_proxy_get_version(source), 0, mime_type);
}

static inline void cwayland_source_destroy(struct wl_proxy *source) {
    wl_proxy_marshal_flags(source, 1, NULL, wl_proxy_get_version(source), WL_MARSHAL_FLAG_DESTROY);
}

static inline void cwayland_offer_receive(struct wl_proxy *offer, const char *mime_type, int32_t fd) {
    wl_proxy_marshal_flags(offer, 0, NULL, wl_proxy_get_version(offer), 0, mime_type, fd);
}

static inline void cwayland_offer_destroy(struct wl_proxy *offer) {
    wl_proxy_marshal_flags(offer, 1, NULL, wl_proxy_get_version(offer), WL_MARSHAL_FLAG_DESTROY);
}

#endif
