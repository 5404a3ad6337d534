# A TLS + HTTP/2 nginx on 127.0.0.1 for the TLS tests: a private CA, a server certificate for
# 127.0.0.1/localhost, a client certificate, and routes that report the protocol, the connection
# serial number and the client-certificate verdict. Sourced by scripts/test.sh.

ensure_tls_tools() {
    local missing=()
    command -v openssl >/dev/null 2>&1 || missing+=(openssl)
    command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
    if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
}

# start_tls_server DIR → exports COURIER_TLS_URL, COURIER_TLS_CA, COURIER_TLS_PIN,
# COURIER_TLS_CLIENT_CERT, COURIER_TLS_CLIENT_KEY and COURIER_TLS_H2_STREAMS (the server's HTTP/2
# concurrent-stream limit); sets TLS_NGINX_PID_FILE.
TLS_H2_STREAMS=50
start_tls_server() {
    local dir; dir="$(cd "$1" && pwd)"
    mkdir -p "$dir/logs"
    (
        cd "$dir"
        openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Courier Test CA" \
            -keyout ca.key -out ca.pem >/dev/null 2>&1
        openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout server.key -out server.csr >/dev/null 2>&1
        printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > server.ext
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
            -extfile server.ext -out server.pem >/dev/null 2>&1
        openssl req -newkey rsa:2048 -nodes -subj "/CN=courier-client" -keyout client.key -out client.csr >/dev/null 2>&1
        openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -out client.pem >/dev/null 2>&1
    )
    head -c 262144 /dev/zero > "$dir/bytes.bin"
    truncate -s 256M "$dir/big.bin"   # sparse: 256 MiB of zeros without the disk space
    local port; port="$(free_port)"
    # Started as root, nginx's workers would run as nobody and could not read the files of a
    # checkout under a private directory (mktemp -d is 0700): they keep root's identity instead.
    local user_line=""
    if [ "$(id -u)" = 0 ]; then user_line="user root;"; fi
    cat > "$dir/nginx.conf" <<CONF
$user_line
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $dir/tmp_body;
    proxy_temp_path $dir/tmp_proxy;
    fastcgi_temp_path $dir/tmp_fastcgi;
    uwsgi_temp_path $dir/tmp_uwsgi;
    scgi_temp_path $dir/tmp_scgi;
    server {
        listen 127.0.0.1:$port ssl http2;
        ssl_certificate $dir/server.pem;
        ssl_certificate_key $dir/server.key;
        ssl_client_certificate $dir/ca.pem;
        ssl_verify_client optional;
        keepalive_requests 100000;
        http2_max_concurrent_streams $TLS_H2_STREAMS;
        location = /info {
            default_type application/json;
            return 200 '{"protocol":"\$server_protocol","connection":"\$connection","client":"\$ssl_client_verify"}';
        }
        # Some request headers as nginx read them (the first of a repeated one).
        location = /request-headers {
            default_type application/json;
            return 200 '{"accept":"\$http_accept","accept_encoding":"\$http_accept_encoding","user_agent":"\$http_user_agent","x_first":"\$http_x_first","x_second":"\$http_x_second"}';
        }
        # 256 KiB that take a while to stream, tagged with the connection that carried them.
        location = /bytes {
            alias $dir/bytes.bin;
            default_type application/octet-stream;
            add_header X-Connection \$connection;
        }
        # 256 MiB over HTTP/2, for a reader that falls behind.
        location = /big {
            alias $dir/big.bin;
            default_type application/octet-stream;
        }
        # Redirects to the URL in ?to= (for https -> http downgrade tests).
        location = /redirect-302 { return 302 \$arg_to; }
        location = /redirect-307 { return 307 \$arg_to; }
    }
}
CONF
    /usr/sbin/nginx -c "$dir/nginx.conf" -p "$dir" 2>>"$dir/logs/error.log"
    TLS_NGINX_PID_FILE="$dir/nginx.pid"
    export COURIER_TLS_URL="https://127.0.0.1:$port"
    export COURIER_TLS_CA="$dir/ca.pem"
    export COURIER_TLS_CLIENT_CERT="$dir/client.pem"
    export COURIER_TLS_CLIENT_KEY="$dir/client.key"
    export COURIER_TLS_H2_STREAMS="$TLS_H2_STREAMS"
    COURIER_TLS_PIN="$(openssl x509 -in "$dir/server.pem" -pubkey -noout | openssl pkey -pubin -outform der \
        | openssl dgst -sha256 -binary | openssl enc -base64)"
    export COURIER_TLS_PIN
}

stop_tls_server() {
    if [ -n "${TLS_NGINX_PID_FILE:-}" ] && [ -f "$TLS_NGINX_PID_FILE" ]; then
        kill "$(cat "$TLS_NGINX_PID_FILE")" 2>/dev/null || true
    fi
}
