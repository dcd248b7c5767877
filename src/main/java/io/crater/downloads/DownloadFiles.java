package io.crater.downloads;

import io.crater.policy.HubDownloads;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a download's target folder holds, read the way the file API reads a space: never following a link, never
 * leaving the folder. Blocking.
 */
final class DownloadFiles {

    /** Where huggingface-cli keeps a file while it is being written, under the target folder. */
    static final String PARTIAL = ".cache/huggingface/download";

    /** Where ModelScope's client writes a file (at its path under this folder) before moving it into place. */
    static final String MODELSCOPE_PARTIAL = "._____temp";

    private DownloadFiles() {}

    /**
     * The bytes present for each expected file: the file itself, else the client's partial file of it (Hugging Face's
     * {@code <name>.<etag>.incomplete} under {@value #PARTIAL}, ModelScope's {@code <path>} under {@value
     * #MODELSCOPE_PARTIAL}). Files absent are left out.
     */
    static Map<String, Long> present(Path dir, List<HubDownloads.HubFile> expected) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (dir == null || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        for (HubDownloads.HubFile f : expected) {
            Long size = size(dir, f.path());
            if (size == null) {
                size = partial(dir, f.path());
            }
            if (size == null) {
                size = size(dir, MODELSCOPE_PARTIAL + "/" + f.path());
            }
            if (size != null) {
                out.put(f.path(), size);
            }
        }
        return out;
    }

    /** The size of each expected file that is complete at its place (partial files not counted). */
    static Map<String, Long> sizes(Path dir, List<HubDownloads.HubFile> expected) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (HubDownloads.HubFile f : expected) {
            Long size = dir == null ? null : size(dir, f.path());
            if (size != null) {
                out.put(f.path(), size);
            }
        }
        return out;
    }

    /** The SHA-256 of each file the hub lists one for (Hugging Face: its LFS files) of the expected size, in hex. */
    static Map<String, String> sha256(Path dir, List<HubDownloads.HubFile> expected, Map<String, Long> sizes) {
        Map<String, String> out = new LinkedHashMap<>();
        for (HubDownloads.HubFile f : expected) {
            if (f.sha256() == null || !Long.valueOf(f.size()).equals(sizes.get(f.path()))) {
                continue;
            }
            Path p = inside(dir, f.path());
            if (p == null) {
                continue;
            }
            try (InputStream in = Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS)) {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                byte[] buf = new byte[1 << 16];
                for (int n; (n = in.read(buf)) > 0; ) {
                    md.update(buf, 0, n);
                }
                out.put(f.path(), HexFormat.of().formatHex(md.digest()));
            } catch (IOException | NoSuchAlgorithmException e) {
                // unreadable: counted as a mismatch by the verdict
            }
        }
        return out;
    }

    /** Deletes these files of the folder (never through a link). */
    static void remove(Path dir, List<String> relative) {
        for (String r : relative) {
            Path p = dir == null ? null : inside(dir, r);
            try {
                if (p != null && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.delete(p);
                }
            } catch (IOException e) {
                // left in place: the next verification finds it again
            }
        }
    }

    private static Long size(Path dir, String relative) {
        Path p = inside(dir, relative);
        if (p == null) {
            return null;
        }
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isRegularFile() ? a.size() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static Long partial(Path dir, String relative) {
        int slash = relative.lastIndexOf('/');
        String folder = PARTIAL + (slash < 0 ? "" : "/" + relative.substring(0, slash));
        String prefix = relative.substring(slash + 1) + ".";
        Path at = inside(dir, folder);
        if (at == null || !Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (Stream<Path> entries = Files.list(at)) {
            return entries.filter(p -> p.getFileName().toString().startsWith(prefix)
                            && p.getFileName().toString().endsWith(".incomplete"))
                    .map(p -> size(at, p.getFileName().toString()))
                    .filter(java.util.Objects::nonNull)
                    .max(Long::compare)
                    .orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** The path of {@code relative} under {@code dir} when no folder on the way is a link; else null. */
    private static Path inside(Path dir, String relative) {
        Path p = dir;
        String[] parts = relative.split("/");
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].isEmpty() || parts[i].equals(".") || parts[i].equals("..")) {
                return null;
            }
            p = p.resolve(parts[i]);
            if (i < parts.length - 1 && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
        }
        return p;
    }
}
