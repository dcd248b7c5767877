package io.crater.policy;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Quota arithmetic of a file space: bytes and files, each with an explicit limit ({@link #UNLIMITED} for none).
 * A write is refused before it lands when the space's usage with it would exceed either limit; the reason carries
 * the numbers.
 */
public final class FileQuota {

    public static final long UNLIMITED = -1;

    private FileQuota() {}

    /** A space's limits. */
    public record Limit(long bytes, long files) {}

    /** What a space holds now. */
    public record Usage(long bytes, long files) {
        public Usage plus(long moreBytes, long moreFiles) {
            return new Usage(Math.max(0, bytes + moreBytes), Math.max(0, files + moreFiles));
        }
    }

    /** The reason a write of {@code addBytes} in {@code addFiles} new entries is refused, or null when it fits. */
    public static Reason check(Usage usage, Limit limit, long addBytes, long addFiles) {
        boolean bytesOver = limit.bytes() != UNLIMITED && usage.bytes() + addBytes > limit.bytes() && addBytes > 0;
        boolean filesOver = limit.files() != UNLIMITED && usage.files() + addFiles > limit.files() && addFiles > 0;
        if (!bytesOver && !filesOver) {
            return null;
        }
        Map<String, Long> numbers = new LinkedHashMap<>();
        numbers.put("usedBytes", usage.bytes());
        numbers.put("addBytes", addBytes);
        numbers.put("limitBytes", limit.bytes());
        numbers.put("usedFiles", usage.files());
        numbers.put("addFiles", addFiles);
        numbers.put("limitFiles", limit.files());
        String message = bytesOver
                ? "the space holds " + usage.bytes() + " bytes; " + addBytes + " more would exceed its quota of "
                        + limit.bytes() + " bytes"
                : "the space holds " + usage.files() + " files; " + addFiles + " more would exceed its quota of "
                        + limit.files() + " files";
        return ReasonCode.FileQuotaExceeded.reason(message, numbers);
    }
}
