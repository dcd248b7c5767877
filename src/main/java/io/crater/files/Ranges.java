package io.crater.files;

/** The single byte range of an HTTP {@code Range} header (RFC 9110), read against a file's size. */
final class Ranges {

    private Ranges() {}

    /**
     * What to send: the whole file ({@code whole}), one range, or nothing satisfiable (416).
     *
     * @param first the first byte sent
     * @param length how many bytes are sent
     */
    record Range(boolean whole, boolean satisfiable, long first, long length) {
        long last() {
            return first + length - 1;
        }
    }

    /** Reads a {@code Range} header; one that is absent, malformed or asks for several ranges serves the whole file. */
    static Range of(String header, long size) {
        Range whole = new Range(true, true, 0, size);
        if (header == null || !header.startsWith("bytes=") || header.indexOf(',') >= 0) {
            return whole;
        }
        String spec = header.substring(6).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return whole;
        }
        try {
            String a = spec.substring(0, dash).trim();
            String b = spec.substring(dash + 1).trim();
            if (a.isEmpty()) {
                long suffix = Long.parseLong(b);
                if (suffix <= 0) {
                    return new Range(false, false, 0, 0);
                }
                long n = Math.min(suffix, size);
                return n == 0 ? new Range(false, false, 0, 0) : new Range(false, true, size - n, n);
            }
            long first = Long.parseLong(a);
            long last = b.isEmpty() ? size - 1 : Math.min(Long.parseLong(b), size - 1);
            if (first < 0 || (!b.isEmpty() && Long.parseLong(b) < first)) {
                return whole;
            }
            if (first >= size) {
                return new Range(false, false, 0, 0);
            }
            return new Range(false, true, first, last - first + 1);
        } catch (NumberFormatException e) {
            return whole;
        }
    }

    /** A {@code Content-Disposition} naming the file, ASCII fallback plus its UTF-8 name (RFC 6266). */
    static String disposition(String name) {
        String ascii = name.replaceAll("[^A-Za-z0-9._ -]", "_");
        return "attachment; filename=\"" + ascii + "\"; filename*=UTF-8''"
                + java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8)
                        .replace("+", "%20");
    }
}
