/// Guesses a MIME type from a file name extension.
enum MIMEType {
    /// The fallback for unknown extensions.
    static let octetStream = "application/octet-stream"

    private static let byExtension: [String: String] = [
        "7z": "application/x-7z-compressed", "aac": "audio/aac", "avi": "video/x-msvideo",
        "bmp": "image/bmp", "bz2": "application/x-bzip2", "css": "text/css", "csv": "text/csv",
        "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "epub": "application/epub+zip", "flac": "audio/flac", "gif": "image/gif", "gz": "application/gzip",
        "heic": "image/heic", "htm": "text/html", "html": "text/html", "ico": "image/vnd.microsoft.icon",
        "ics": "text/calendar", "jpeg": "image/jpeg", "jpg": "image/jpeg", "js": "text/javascript",
        "json": "application/json", "m4a": "audio/mp4", "md": "text/markdown", "mjs": "text/javascript",
        "mov": "video/quicktime", "mp3": "audio/mpeg", "mp4": "video/mp4", "mpeg": "video/mpeg",
        "oga": "audio/ogg", "ogg": "audio/ogg", "ogv": "video/ogg", "otf": "font/otf", "pdf": "application/pdf",
        "png": "image/png", "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "rtf": "application/rtf", "svg": "image/svg+xml", "tar": "application/x-tar", "tif": "image/tiff",
        "tiff": "image/tiff", "ttf": "font/ttf", "txt": "text/plain", "wasm": "application/wasm",
        "wav": "audio/wav", "weba": "audio/webm", "webm": "video/webm", "webp": "image/webp",
        "woff": "font/woff", "woff2": "font/woff2", "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "xml": "application/xml", "yaml": "application/yaml", "yml": "application/yaml", "zip": "application/zip"
    ]

    /// The MIME type for `pathExtension` (any case), or `application/octet-stream`.
    static func forExtension(_ pathExtension: String) -> String {
        byExtension[pathExtension.lowercased()] ?? octetStream
    }

    /// The type for a file name, from the extension of its last path component (`"a/me.PNG"` →
    /// `image/png`). Read scalar by scalar: Foundation's `NSString.pathExtension` traps on some
    /// names (a CR LF before slashes, found by the Multipart fuzz target).
    static func forFilename(_ filename: String) -> String {
        var scalars = Array(filename.unicodeScalars)[...]
        while scalars.last == "/" { scalars.removeLast() }
        let name = scalars.split(separator: "/", omittingEmptySubsequences: false).last ?? []
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return octetStream }
        var pathExtension = String.UnicodeScalarView()
        pathExtension.append(contentsOf: name[(dot + 1)...])
        return forExtension(String(pathExtension))
    }
}
