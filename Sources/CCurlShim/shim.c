#include "CCurlShim.h"

CURLcode courier_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode courier_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode courier_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode courier_easy_setopt_data_cb(CURL *handle, CURLoption option, courier_data_cb value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode courier_easy_setopt_xferinfo_cb(CURL *handle, courier_xferinfo_cb value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
CURLcode courier_easy_setopt_seek_cb(CURL *handle, courier_seek_cb value) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, value);
}

CURLcode courier_easy_getinfo_long(CURL *handle, CURLINFO info, long *out) {
    return curl_easy_getinfo(handle, info, out);
}
CURLcode courier_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *out) {
    return curl_easy_getinfo(handle, info, out);
}
CURLcode courier_easy_getinfo_string(CURL *handle, CURLINFO info, char **out) {
    return curl_easy_getinfo(handle, info, out);
}
CURLcode courier_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **out) {
    return curl_easy_getinfo(handle, info, out);
}

CURLMcode courier_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLSHcode courier_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}
CURLSHcode courier_share_setopt_lock_cb(CURLSH *share, courier_lock_cb value) {
    return curl_share_setopt(share, CURLSHOPT_LOCKFUNC, value);
}
CURLSHcode courier_share_setopt_unlock_cb(CURLSH *share, courier_unlock_cb value) {
    return curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, value);
}
CURLSHcode courier_share_setopt_pointer(CURLSH *share, CURLSHoption option, void *value) {
    return curl_share_setopt(share, option, value);
}

CURL *courier_msg_easy(const CURLMsg *msg) { return msg->easy_handle; }
CURLcode courier_msg_result(const CURLMsg *msg) { return msg->data.result; }
int courier_msg_is_done(const CURLMsg *msg) { return msg->msg == CURLMSG_DONE; }

const curl_version_info_data *courier_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}

/* libcurl 7.88 with no push function tells servers that pushes are off, and a server that pushes
   anyway gets GOAWAY(PROTOCOL_ERROR) while the transfer waits for its timeout. With this function
   pushes are allowed in SETTINGS and each one is refused (RST_STREAM), so the response completes. */
static int courier_deny_push(CURL *parent, CURL *easy, size_t num_headers,
                             struct curl_pushheaders *headers, void *userp) {
    (void)parent; (void)easy; (void)num_headers; (void)headers; (void)userp;
    return CURL_PUSH_DENY;
}

CURLMcode courier_multi_deny_pushes(CURLM *multi) {
    return curl_multi_setopt(multi, CURLMOPT_PUSHFUNCTION, courier_deny_push);
}

curl_socket_t courier_easy_active_socket(CURL *handle) {
    curl_socket_t socket = CURL_SOCKET_BAD;
    if (curl_easy_getinfo(handle, CURLINFO_ACTIVESOCKET, &socket) != CURLE_OK) return CURL_SOCKET_BAD;
    return socket;
}
