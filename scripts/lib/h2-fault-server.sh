# The misbehaving HTTP/2 server of the fault matrix (scripts/lib/h2_fault_server.py, on the
# third-party `h2` package of the httpbin virtualenv), over TLS with the certificate of the TLS
# nginx. Sourced by scripts/test.sh, after start_tls_server.

# start_h2_fault_server TLS_DIR → exports COURIER_H2_FAULT_URL and COURIER_H2_FAULT_SERIAL_URL
# (the listener allowing one stream per connection); sets H2_FAULT_PID.
start_h2_fault_server() {
    local dir="$1"
    local port serial_port
    port="$(free_port)"
    serial_port="$(free_port)"
    "$HTTPBIN_VENV/bin/python" scripts/lib/h2_fault_server.py --cert "$dir/server.pem" --key "$dir/server.key" \
        --port "$port" --serial-port "$serial_port" >".build/h2-fault-server.log" 2>&1 &
    H2_FAULT_PID=$!
    export COURIER_H2_FAULT_URL="https://127.0.0.1:$port"
    export COURIER_H2_FAULT_SERIAL_URL="https://127.0.0.1:$serial_port"
    # Ready when both listeners complete a TLS handshake that selects h2 (up to ~20 s).
    python3 - "$dir/ca.pem" "$port" "$serial_port" <<'PY' && return 0
import socket, ssl, sys, time
context = ssl.create_default_context(cafile=sys.argv[1])
context.set_alpn_protocols(["h2"])
for _ in range(100):
    try:
        for port in sys.argv[2:]:
            with socket.create_connection(("127.0.0.1", int(port)), timeout=1) as raw:
                with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                    assert tls.selected_alpn_protocol() == "h2"
        sys.exit(0)
    except (OSError, AssertionError):
        time.sleep(0.2)
sys.exit(1)
PY
    cat .build/h2-fault-server.log >&2
    return 1
}

stop_h2_fault_server() {
    if [ -n "${H2_FAULT_PID:-}" ]; then
        kill "$H2_FAULT_PID" 2>/dev/null || true
        wait "$H2_FAULT_PID" 2>/dev/null || true
    fi
}
