package io.crater.policy;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules a path inside a file space must follow, before anything touches the disk: decoded once from the URL,
 * normalised to NFC, split on {@code /} (empty segments dropped), and refused when a segment is {@code .} or
 * {@code ..}, holds a NUL, a backslash or another control character, or is longer than 255 bytes in UTF-8. What
 * passes is a list of plain names, each of which names one entry of its parent; the file side then resolves them
 * inside the space without following links.
 */
public final class FilePaths {

    /** The longest name a Linux file system takes, in bytes. */
    public static final int MAX_NAME_BYTES = 255;

    /** The longest whole path accepted, in bytes (PATH_MAX). */
    public static final int MAX_PATH_BYTES = 4096;

    private FilePaths() {}

    /**
     * A checked path: its segments (empty for the space's root) or, when refused, why.
     *
     * @param segments the names from the root down, in NFC
     * @param refusal null when the path is acceptable
     */
    public record Checked(List<String> segments, String refusal) {
        public boolean ok() {
            return refusal == null;
        }

        /** The path as Crater shows it: {@code /a/b}, {@code /} for the root. */
        public String display() {
            return "/" + String.join("/", segments);
        }
    }

    /** Checks a path as it came in the URL (still percent-encoded): decoded exactly once. */
    public static Checked fromUrl(String encoded) {
        String decoded = decode(encoded == null ? "" : encoded);
        return decoded == null ? refused("the path is not valid percent-encoded UTF-8") : check(decoded);
    }

    /** Checks a path that is already text (a JSON body's destination). */
    public static Checked check(String path) {
        if (path == null) {
            return new Checked(List.of(), null);
        }
        String nfc = Normalizer.normalize(path, Normalizer.Form.NFC);
        if (nfc.getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
            return refused("the path is longer than " + MAX_PATH_BYTES + " bytes");
        }
        List<String> segments = new ArrayList<>();
        for (String s : nfc.split("/", -1)) {
            if (s.isEmpty()) {
                continue;
            }
            String why = refusalOfName(s);
            if (why != null) {
                return refused(why);
            }
            segments.add(s);
        }
        return new Checked(List.copyOf(segments), null);
    }

    /** Why a single name (of a new file, folder or rename) is refused, or null when it is acceptable. */
    public static String refusalOfName(String name) {
        if (name.isEmpty()) {
            return "a name may not be empty";
        }
        if (name.equals(".") || name.equals("..")) {
            return "a name may not be '.' or '..'";
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            return "a name may be at most " + MAX_NAME_BYTES + " bytes long";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '\\') {
                return "a name may not contain a backslash";
            }
            if (c == '/') {
                return "a name may not contain '/'";
            }
            if (Character.isISOControl(c)) {
                return "a name may not contain control characters";
            }
            if (Character.isSurrogate(c)) {
                if (!validPair(name, i)) {
                    return "a name must be valid Unicode";
                }
                i++;
            }
        }
        return null;
    }

    private static boolean validPair(String s, int i) {
        return Character.isHighSurrogate(s.charAt(i))
                && i + 1 < s.length()
                && Character.isLowSurrogate(s.charAt(i + 1));
    }

    private static Checked refused(String why) {
        return new Checked(List.of(), why);
    }

    /** Percent-decoding as UTF-8, once; {@code +} stays a plus (it is a path, not a form). Null when malformed. */
    static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        byte[] out = new byte[s.length() * 3];
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out[n++] = (byte) (hi * 16 + lo);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                System.arraycopy(b, 0, out, n, b.length);
                n += b.length;
            }
        }
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        try {
            return decoder.decode(java.nio.ByteBuffer.wrap(out, 0, n)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }
}
