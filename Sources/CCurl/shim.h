#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed helper per
// kind of argument.

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_write_function(CURL *handle, curl_write_callback function) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
}

static inline CURLcode ccurl_setopt_header_function(CURL *handle, curl_write_callback function) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, function);
}

static inline CURLcode ccurl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback function) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}
