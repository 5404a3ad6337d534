"""A misbehaving HTTP/2 server for Courier's fault matrix (Tests/CourierTests/FaultMatrix).

Built on the third-party `h2` protocol library (installed into the httpbin virtualenv by
scripts/lib/prerequisites.sh), over TLS with ALPN "h2", which is how Courier reaches HTTP/2 (it
never uses cleartext h2c). Started by scripts/test.sh with the certificate of the TLS nginx.

Two listeners:
  --port         default settings; the routes below.
  --serial-port  advertises SETTINGS_MAX_CONCURRENT_STREAMS=1 and refuses (RST_STREAM
                 REFUSED_STREAM) every stream opened while another is open; /slow answers after a
                 few milliseconds, /stats tells how many streams were refused, and, since the
                 previous /stats (then counted anew), the most /slow requests it held at once and
                 how many connections it accepted.

Routes of --port (query items in brackets):
  /ok                   200 "ok".
  /early[status, case]  answers a request at once, before reading its body (the body's flow-control
                        window is never opened), then resets the stream with NO_ERROR (RFC 9113
                        section 8.1). The response: `status`, "x-early: yes", a Location (/sink)
                        on a 3xx, "WWW-Authenticate: Bearer" on a 401, "Retry-After: 7" on a 413
                        or 429, and the body "early STATUS". With http1=stall the HTTP/1.1
                        side (below) never answers.
  /sink                 reads an upload whole: 200 "stored N bytes".
  /goaway[case]         the first request of a case gets GOAWAY with a last-stream-id below its
                        stream, then the connection closes; later ones get 200 "attempt N".
  /refuse[case, times]  the first `times` (default 6) requests of a case are refused
                        (RST_STREAM REFUSED_STREAM); later ones get 200 "attempt N".
  /push                 sends a PUSH_PROMISE (whether or not the client allowed pushes), then 200.
  /continuation-flood   a HEADERS frame without END_HEADERS, then CONTINUATION frames without end.
  /header-bomb          a header block of 16 KiB that decodes to 16 MB (one indexed HPACK entry
                        referenced 4,000 times).
  /upload-auth          an upload: answered 401 early (then RST_STREAM NO_ERROR) unless it carries
                        "Authorization: Bearer fresh-token", then read whole: 200 "stored N bytes".
  /echo-headers         200 with the request's headers as a JSON list of [name, value] pairs.
After /continuation-flood and /header-bomb the connection goes silent (reads, never answers)
but stays open, as a broken server's would: a client must not send another request on it.

--port also speaks HTTP/1.1 (ALPN "http/1.1"), as the servers that answer uploads early do:
/early and /upload-auth answer the same way, at once, before reading the body, which they then
read and discard until the client closes (a lingering close); /sink and /upload-auth with the
fresh token read a Content-Length body. --serial-port speaks only h2: an HTTP/1.1 request there
fails (the h2 connection rejects it).
"""

import argparse
import asyncio
import json
import ssl
import struct
from urllib.parse import parse_qs, urlsplit

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import h2.settings

STATE = {"refused": 0, "goaway": {}, "refuse": {}, "slow_open": 0, "slow_most": 0, "connections": 0}


def early_answer(status):
    """The response of /early: status, headers (without content-length), body."""
    headers = [("content-type", "text/plain"), ("x-early", "yes")]
    if 300 <= status < 400:
        headers.append(("location", "/sink"))
    if status == 401:
        headers.append(("www-authenticate", "Bearer"))
    if status in (413, 429):
        headers.append(("retry-after", "7"))
    return status, headers, f"early {status}"


async def serve_http1(reader, writer):
    """One HTTP/1.1 request (the connection closes after it)."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, target, _ = lines[0].split(" ", 2)
        fields = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                fields[name.strip().lower()] = value.strip()
        split = urlsplit(target)
        query = {k: v[0] for k, v in parse_qs(split.query).items()}
        path = split.path

        def send(status, headers, body):
            body = body.encode()
            lines = [f"HTTP/1.1 {status} Status", f"content-length: {len(body)}", "connection: close"]
            lines += [f"{name}: {value}" for name, value in headers]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)

        stale = path == "/upload-auth" and fields.get("authorization") != "Bearer fresh-token"
        if path == "/early" and query.get("http1") == "stall":
            # Reads the body and never answers.
            while await asyncio.wait_for(reader.read(65536), 30):
                pass
        elif path == "/early" or stale:
            status, headers, body = early_answer(int(query.get("status", "401")) if path == "/early" else 401)
            send(status, headers, body if path == "/early" else "token expired")
            await writer.drain()
            # A lingering close: the rest of the body is read and dropped until the client closes
            # (closing at once would reset the connection and could destroy the response).
            while await asyncio.wait_for(reader.read(65536), 30):
                pass
        elif path in ("/sink", "/upload-auth") and "content-length" in fields:
            body = await reader.readexactly(int(fields["content-length"]))
            send(200, [], f"stored {len(body)} bytes")
        else:
            send(404, [], "no such route over HTTP/1.1")
        await writer.drain()
    except (ConnectionError, ssl.SSLError, OSError, ValueError, asyncio.IncompleteReadError,
            asyncio.LimitOverrunError, asyncio.TimeoutError):
        pass
    finally:
        writer.close()


class LyingSettings(h2.settings.Settings):
    """Advertises the stream limit it was given but lets the h2 state machine accept any number of
    streams, so that the server itself refuses the excess (as servers do) instead of h2 failing the
    whole connection."""

    @property
    def max_concurrent_streams(self):
        return 2**31 - 1


def frame(kind, flags, stream_id, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream_id) + payload


def literal_header(name, value, indexed=False):
    """An HPACK literal with a new name: without indexing (0x00), or with incremental indexing (0x40)."""

    def string(data):
        assert len(data) < 127
        return bytes([len(data)]) + data

    def long_string(data):
        # 7-bit prefix integer for lengths >= 127.
        out = bytearray([0x7F])
        rest = len(data) - 127
        while rest >= 128:
            out.append((rest % 128) | 0x80)
            rest //= 128
        out.append(rest)
        return bytes(out) + data

    encoded_value = string(value) if len(value) < 127 else long_string(value)
    return bytes([0x40 if indexed else 0x00]) + string(name) + encoded_value


class Connection:
    def __init__(self, reader, writer, serial):
        self.reader, self.writer, self.serial = reader, writer, serial
        config = h2.config.H2Configuration(client_side=False, header_encoding="utf-8", validate_inbound_headers=False)
        self.conn = h2.connection.H2Connection(config=config)
        if serial:
            self.conn.local_settings = LyingSettings(client=False, initial_values={
                h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: 1,
            })
        self.open_streams = set()
        self.requests = {}
        self.uploads = {}
        self.silent = False
        self.closed = False

    def flush(self):
        data = self.conn.data_to_send()
        if data:
            self.writer.write(data)

    async def run(self):
        self.conn.initiate_connection()
        self.flush()
        try:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    break
                if self.silent:
                    continue
                try:
                    events = self.conn.receive_data(data)
                except h2.exceptions.StreamClosedError:
                    # Frames for a stream this server reset (the rest of an upload it answered
                    # early): h2 has queued RST_STREAM(STREAM_CLOSED); the connection goes on.
                    events = []
                for event in events:
                    await self.handle(event)
                self.flush()
                await self.writer.drain()
        except (ConnectionError, ssl.SSLError, OSError):
            pass
        except h2.exceptions.ProtocolError as error:
            print(f"h2 protocol error from the client: {error!r}", flush=True)
        finally:
            self.closed = True
            self.writer.close()

    async def handle(self, event):
        if isinstance(event, h2.events.RequestReceived):
            sid = event.stream_id
            if self.serial and self.open_streams:
                STATE["refused"] += 1
                self.conn.reset_stream(sid, h2.errors.ErrorCodes.REFUSED_STREAM)
                return
            self.open_streams.add(sid)
            headers = [(n, v) for n, v in event.headers]
            self.requests[sid] = headers
            await self.route(sid, headers, event.stream_ended is not None)
        elif isinstance(event, h2.events.DataReceived):
            # Flow control is given back for every stream but the uploads answered early.
            if self.path(event.stream_id) not in ("/early", "/upload-auth") or event.stream_id in self.uploads:
                self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            if event.stream_id in self.uploads:
                self.uploads[event.stream_id] += len(event.data)
        elif isinstance(event, h2.events.StreamEnded):
            if event.stream_id in self.uploads:
                self.respond(event.stream_id, 200, f"stored {self.uploads.pop(event.stream_id)} bytes")
        elif isinstance(event, h2.events.StreamReset):
            self.open_streams.discard(event.stream_id)

    def path(self, sid):
        return dict(self.requests.get(sid, [])).get(":path", "").split("?")[0]

    def respond(self, sid, status, body, headers=()):
        body = body.encode() if isinstance(body, str) else body
        self.conn.send_headers(sid, [(":status", str(status)), ("content-length", str(len(body)))] + list(headers))
        self.conn.send_data(sid, body, end_stream=True)
        self.open_streams.discard(sid)

    async def answer_later(self, sid):
        STATE["slow_open"] += 1
        STATE["slow_most"] = max(STATE["slow_most"], STATE["slow_open"])
        try:
            await asyncio.sleep(0.003)
            self.respond(sid, 200, "ok")
            self.flush()
        except (h2.exceptions.ProtocolError, ConnectionError):
            pass
        finally:
            STATE["slow_open"] -= 1

    async def flood(self, sid):
        """CONTINUATION frames until the client goes away (or 200,000 of them)."""
        chunk = b"".join(literal_header(b"x-flood-%d" % (i % 10), b"v" * 40) for i in range(8))
        try:
            for _ in range(200_000):
                if self.closed or self.writer.is_closing() or self.reader.at_eof():
                    break
                self.writer.write(frame(0x9, 0, sid, chunk))
                await self.writer.drain()
                await asyncio.sleep(0)
        except (ConnectionError, OSError):
            pass

    async def route(self, sid, headers, ended):
        fields = dict(headers)
        target = urlsplit(fields.get(":path", "/"))
        query = {k: v[0] for k, v in parse_qs(target.query).items()}
        path = target.path
        if path == "/ok":
            self.respond(sid, 200, "ok")
        elif path == "/slow":
            asyncio.get_running_loop().create_task(self.answer_later(sid))
        elif path == "/stats":
            self.respond(sid, 200, json.dumps(
                {"refused": STATE["refused"], "slow_most": STATE["slow_most"], "connections": STATE["connections"]}))
            STATE["slow_most"] = STATE["slow_open"]
            STATE["connections"] = 0
        elif path == "/early":
            status, answer_headers, body = early_answer(int(query.get("status", "401")))
            self.respond(sid, status, body, answer_headers)
            if not ended:
                self.conn.reset_stream(sid, h2.errors.ErrorCodes.NO_ERROR)
        elif path == "/sink":
            self.uploads[sid] = 0
            if ended:
                self.respond(sid, 200, f"stored {self.uploads.pop(sid)} bytes")
        elif path == "/upload-auth":
            # Takes the upload only with the fresh token; answers 401 early to any other.
            if fields.get("authorization") == "Bearer fresh-token":
                self.uploads[sid] = 0
                if ended:
                    self.respond(sid, 200, f"stored {self.uploads.pop(sid)} bytes")
            else:
                self.respond(sid, 401, "token expired", [("www-authenticate", "Bearer")])
                if not ended:
                    self.conn.reset_stream(sid, h2.errors.ErrorCodes.NO_ERROR)
        elif path == "/refuse":
            case = query.get("case", "")
            attempts = STATE["refuse"].get(case, 0) + 1
            STATE["refuse"][case] = attempts
            if attempts <= int(query.get("times", "6")):
                self.conn.reset_stream(sid, h2.errors.ErrorCodes.REFUSED_STREAM)
                self.open_streams.discard(sid)
            else:
                self.respond(sid, 200, f"attempt {attempts}")
        elif path == "/goaway":
            case = query.get("case", "")
            attempts = STATE["goaway"].get(case, 0) + 1
            STATE["goaway"][case] = attempts
            if attempts == 1:
                # Not processed: the last stream id names an earlier stream than this one.
                self.writer.write(self.conn.data_to_send())
                goaway = struct.pack(">II", max(0, sid - 2), 0)
                self.writer.write(frame(0x7, 0, 0, goaway))
                await self.writer.drain()
                self.silent = True
                if query.get("close", "1") == "1":
                    self.writer.close()
            else:
                self.respond(sid, 200, f"attempt {attempts}")
        elif path == "/push":
            if self.conn.remote_settings.enable_push:
                promised = self.conn.get_next_available_stream_id()
                self.conn.push_stream(sid, promised, [
                    (":method", "GET"), (":path", "/ok"), (":authority", fields.get(":authority", "")),
                    (":scheme", "https")])
            else:
                # Pushes are off: a PUSH_PROMISE is a connection error the client must act on.
                self.flush()
                block = self.conn.encoder.encode([
                    (":method", "GET"), (":path", "/ok"), (":authority", fields.get(":authority", "")),
                    (":scheme", "https")])
                self.writer.write(frame(0x5, 0x4, sid, struct.pack(">I", 2) + block))
            self.respond(sid, 200, "pushed")
        elif path == "/continuation-flood":
            self.flush()
            self.silent = True
            self.writer.write(frame(0x1, 0, sid, self.conn.encoder.encode([(":status", "200")])))
            asyncio.get_running_loop().create_task(self.flood(sid))
        elif path == "/header-bomb":
            self.flush()
            self.silent = True
            block = bytearray(self.conn.encoder.encode([(":status", "200")]))
            block += literal_header(b"x-bomb", b"b" * 4000, indexed=True)
            block += bytes([0x80 | 62]) * 4000
            self.writer.write(frame(0x1, 0x4 | 0x1, sid, bytes(block)))
        elif path == "/echo-headers":
            pairs = [[n, v] for n, v in headers if not n.startswith(":")]
            self.respond(sid, 200, json.dumps(pairs), [("content-type", "application/json")])
        else:
            self.respond(sid, 404, "no such route")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--serial-port", type=int, required=True)
    args = parser.parse_args()

    def tls(protocols):
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
        context.set_alpn_protocols(protocols)
        return context

    def serve(serial):
        async def accept(reader, writer):
            if writer.get_extra_info("ssl_object").selected_alpn_protocol() == "http/1.1":
                await serve_http1(reader, writer)
            else:
                if serial:
                    STATE["connections"] += 1
                await Connection(reader, writer, serial).run()
        return accept

    servers = [
        await asyncio.start_server(serve(False), "127.0.0.1", args.port, ssl=tls(["h2", "http/1.1"])),
        await asyncio.start_server(serve(True), "127.0.0.1", args.serial_port, ssl=tls(["h2"])),
    ]
    await asyncio.gather(*(server.serve_forever() for server in servers))


if __name__ == "__main__":
    asyncio.run(main())
