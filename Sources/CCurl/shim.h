#include <curl/curl.h>

// Notula loads libcurl with dlopen at its first download, so that a service that never downloads does not
// carry libcurl and its TLS libraries in memory. curl_easy_setopt and curl_easy_getinfo are variadic, which
// Swift cannot call: one typed helper per kind of argument, each given the function dlsym found.

typedef CURLcode (*ccurl_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*ccurl_getinfo_function)(CURL *, CURLINFO, ...);

static inline CURLcode ccurl_setopt_long(void *setopt, CURL *handle, CURLoption option, long value) {
    return ((ccurl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode ccurl_setopt_string(void *setopt, CURL *handle, CURLoption option, const char *value) {
    return ((ccurl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(void *setopt, CURL *handle, CURLoption option, void *value) {
    return ((ccurl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode ccurl_setopt_write_function(void *setopt, CURL *handle, curl_write_callback function) {
    return ((ccurl_setopt_function)setopt)(handle, CURLOPT_WRITEFUNCTION, function);
}

static inline CURLcode ccurl_setopt_header_function(void *setopt, CURL *handle, curl_write_callback function) {
    return ((ccurl_setopt_function)setopt)(handle, CURLOPT_HEADERFUNCTION, function);
}

static inline CURLcode ccurl_setopt_xferinfo_function(void *setopt, CURL *handle, curl_xferinfo_callback function) {
    return ((ccurl_setopt_function)setopt)(handle, CURLOPT_XFERINFOFUNCTION, function);
}

static inline CURLcode ccurl_getinfo_long(void *getinfo, CURL *handle, CURLINFO info, long *value) {
    return ((ccurl_getinfo_function)getinfo)(handle, info, value);
}

static inline CURLcode ccurl_getinfo_off_t(void *getinfo, CURL *handle, CURLINFO info, curl_off_t *value) {
    return ((ccurl_getinfo_function)getinfo)(handle, info, value);
}

static inline CURLcode ccurl_getinfo_string(void *getinfo, CURL *handle, CURLINFO info, const char **value) {
    return ((ccurl_getinfo_function)getinfo)(handle, info, value);
}
