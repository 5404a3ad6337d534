import CCurl
import CCurlShim
import Foundation

/// Streamed request bodies: libcurl pulls them through the read callback, so a file or a stream
/// of chunks is sent with flat memory.
extension CurlTransfer {
    /// Configures the upload of a body read while sending.
    func configureUpload(_ easy: UnsafeMutableRawPointer, source: UploadSource, method: String) -> CourierError? {
        let flow = self.flow ?? TransferFlow()
        self.flow = flow
        switch source {
        case .segments(let segments):
            flow.upload = .segments(SegmentCursor(segments))
        case .stream(let buffer):
            if let error = buffer.start(resume: { [weak token] in token?.requestResume(.upload) }) { return error }
            flow.upload = .stream(buffer)
        }
        let length = source.length
        flow.uploadLength = length
        flow.uploaded = 0
        // UPLOAD makes libcurl pull the body through the read callback (as a PUT); the method is
        // then named explicitly. An unknown length is sent with chunked encoding on HTTP/1.1.
        set(easy, CURLOPT_UPLOAD, 1)
        if method != "PUT" { set(easy, CURLOPT_CUSTOMREQUEST, method) }
        courier_easy_setopt_off_t(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(length ?? -1))
        let context = Unmanaged.passUnretained(self).toOpaque()
        courier_easy_setopt_data_cb(easy, CURLOPT_READFUNCTION, courierReadCallback)
        set(easy, CURLOPT_READDATA, pointer: context)
        courier_easy_setopt_seek_cb(easy, courierSeekCallback)
        set(easy, CURLOPT_SEEKDATA, pointer: context)
        if let size = token.options.uploadBufferSize { set(easy, CURLOPT_UPLOAD_BUFFERSIZE, size) }
        return nil
    }

    /// Forgets the streamed body of an earlier hop (a 303 turned the request into a GET).
    func dropUpload() {
        guard let flow, let upload = flow.upload else { return }
        if case .stream(let buffer) = upload { buffer.close() }
        flow.upload = nil
        flow.uploadLength = nil
    }

    /// Fills libcurl's buffer from the body; returns a byte count, 0 at the end, or
    /// `CURL_READFUNC_PAUSE` / `CURL_READFUNC_ABORT`.
    func readUpload(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        guard let flow, let upload = flow.upload else { return Int(CURL_READFUNC_ABORT) }
        switch upload {
        case .segments(let cursor):
            let count = cursor.read(into: buffer, capacity: capacity)
            guard count >= 0 else {
                flow.failure = cursor.failure
                return Int(CURL_READFUNC_ABORT)
            }
            return count
        case .stream(let stream):
            switch stream.read(into: buffer, capacity: capacity) {
            case .bytes(let count):
                return count
            case .end:
                return 0
            case .pause:
                notePaused(.upload)
                return Int(CURL_READFUNC_PAUSE)
            case .failed(let error):
                flow.failure = error
                return Int(CURL_READFUNC_ABORT)
            }
        }
    }

    /// Rewinds the body when libcurl must send it again (a reused connection that turned out
    /// dead, authentication); only bodies of segments can.
    func seekUpload(to offset: Int64, origin: Int32) -> Int32 {
        guard origin == SEEK_SET, case .segments(let cursor)? = flow?.upload, cursor.seek(to: offset) else {
            return CURL_SEEKFUNC_CANTSEEK
        }
        return CURL_SEEKFUNC_OK
    }
}

/// libcurl asks for the next piece of the request body.
let courierReadCallback: courier_data_cb = { buffer, size, count, context in
    guard let context, let buffer else { return Int(CURL_READFUNC_ABORT) }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.assertOnLoop()
    return transfer.readUpload(into: UnsafeMutableRawPointer(buffer), capacity: size * count)
}

/// libcurl asks to rewind the request body.
let courierSeekCallback: courier_seek_cb = { context, offset, origin in
    guard let context else { return CURL_SEEKFUNC_FAIL }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.assertOnLoop()
    return transfer.seekUpload(to: Int64(offset), origin: origin)
}
