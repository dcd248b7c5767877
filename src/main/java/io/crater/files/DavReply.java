package io.crater.files;

import java.nio.file.Path;
import java.util.Map;

/**
 * A WebDAV answer: a status with headers, and an XML body or a part of a file (sent from the disk).
 *
 * @param file the file whose bytes {@code offset} to {@code offset + length} are the body, else null
 */
record DavReply(int status, Map<String, String> headers, String xml, Path file, long offset, long length) {

    static DavReply status(int status, Map<String, String> headers) {
        return new DavReply(status, headers, null, null, 0, 0);
    }

    static DavReply xml(int status, String body) {
        return new DavReply(status, Map.of(), body, null, 0, 0);
    }

    static DavReply file(int status, Map<String, String> headers, Path file, long offset, long length) {
        return new DavReply(status, headers, null, file, offset, length);
    }
}
