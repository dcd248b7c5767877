package io.crater.cli;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongConsumer;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One {@code PUT} of a file over HTTP/1.1 with {@code Expect: 100-continue}, written here because neither JDK client
 * does it whole: HttpURLConnection drops the headers and body of a refusal that comes instead of the 100, and
 * java.net.http's client (JDK 17) waits for ever on one. The server refuses an upload (quota, read-only, exists)
 * before it takes a byte and then closes the connection, so without the 100 a refusal's words would be lost. The
 * body is the file read from the disk in 64 KiB pieces with its size in {@code Content-Length}; a server that sends
 * no 100 within two seconds gets the body anyway.
 */
final class HttpUpload {

    /** The final answer: status, content type, headers (lower-case names) and body. */
    record Answer(int status, Map<String, List<String>> headers, byte[] body) {
        String contentType() {
            List<String> v = headers.get("content-type");
            return v == null || v.isEmpty() ? "" : v.get(0);
        }
    }

    private static final int CONNECT_MILLIS = 10_000;
    private static final int CONTINUE_MILLIS = 2_000;
    private static final int ANSWER_MILLIS = 120_000;

    private HttpUpload() {}

    static Answer put(URI uri, Map<String, String> headers, Path file, LongConsumer sent) throws IOException {
        long size = Files.size(file);
        try (Socket s = connect(uri)) {
            OutputStream out = s.getOutputStream();
            out.write(head(uri, headers, size).getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = new BufferedInputStream(s.getInputStream());
            Head first;
            s.setSoTimeout(CONTINUE_MILLIS);
            try {
                first = readHead(in);
            } catch (SocketTimeoutException e) {
                first = null;
            }
            s.setSoTimeout(ANSWER_MILLIS);
            if (first != null && first.status() != 100) {
                return new Answer(first.status(), first.headers(), readBody(in, first.headers()));
            }
            send(file, out, sent);
            Head last = readHead(in);
            while (last.status() / 100 == 1) {
                last = readHead(in);
            }
            return new Answer(last.status(), last.headers(), readBody(in, last.headers()));
        }
    }

    private static Socket connect(URI uri) throws IOException {
        boolean tls = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress(uri.getHost(), port), CONNECT_MILLIS);
        if (!tls) {
            return plain;
        }
        SSLSocket s = (SSLSocket)
                ((SSLSocketFactory) SSLSocketFactory.getDefault()).createSocket(plain, uri.getHost(), port, true);
        SSLParameters p = s.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        s.setSSLParameters(p);
        s.startHandshake();
        return s;
    }

    private static String head(URI uri, Map<String, String> headers, long size) {
        StringBuilder b = new StringBuilder("PUT ")
                .append(uri.getRawPath())
                .append(uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())
                .append(" HTTP/1.1\r\nHost: ")
                .append(uri.getHost())
                .append(uri.getPort() > 0 ? ":" + uri.getPort() : "")
                .append("\r\n");
        headers.forEach((k, v) -> b.append(k).append(": ").append(v).append("\r\n"));
        return b.append("Content-Length: ")
                .append(size)
                .append("\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
                .toString();
    }

    private static void send(Path file, OutputStream out, LongConsumer sent) throws IOException {
        try (InputStream f = Files.newInputStream(file)) {
            byte[] buffer = new byte[64 * 1024];
            long total = 0;
            for (int n = f.read(buffer); n >= 0; n = f.read(buffer)) {
                out.write(buffer, 0, n);
                total += n;
                sent.accept(total);
            }
            out.flush();
        }
    }

    private record Head(int status, Map<String, List<String>> headers) {}

    private static Head readHead(InputStream in) throws IOException {
        String status = line(in);
        String[] parts = status.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/") || !parts[1].matches("\\d{3}")) {
            throw new IOException("not an HTTP answer: " + status);
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String l = line(in); !l.isEmpty(); l = line(in)) {
            int colon = l.indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(
                                l.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                                k -> new java.util.ArrayList<>())
                        .add(l.substring(colon + 1).strip());
            }
        }
        return new Head(Integer.parseInt(parts[1]), headers);
    }

    private static byte[] readBody(InputStream in, Map<String, List<String>> headers) throws IOException {
        List<String> te = headers.get("transfer-encoding");
        if (te != null && te.stream().anyMatch(v -> v.toLowerCase(Locale.ROOT).contains("chunked"))) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            for (int n = chunkSize(line(in)); n > 0; n = chunkSize(line(in))) {
                body.write(in.readNBytes(n));
                line(in);
            }
            for (String l = line(in); !l.isEmpty(); l = line(in)) {
                // trailers, not used
            }
            return body.toByteArray();
        }
        List<String> length = headers.get("content-length");
        return length == null ? in.readAllBytes() : in.readNBytes(Integer.parseInt(length.get(0)));
    }

    private static int chunkSize(String line) throws IOException {
        int semi = line.indexOf(';');
        try {
            return Integer.parseInt((semi < 0 ? line : line.substring(0, semi)).strip(), 16);
        } catch (NumberFormatException e) {
            throw new IOException("bad chunk size: " + line);
        }
    }

    /** One line without its CRLF; the end of the stream in the middle of an answer is an error. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the server closed the connection mid-answer");
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
