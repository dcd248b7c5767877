package io.crater.files;

import io.crater.platform.ApiException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/** Reading folders: entries as the API shows them, pages in a stable order, a stream in the order the disk gives. */
final class FileEntries {

    /** Names of uploads still being written (the temporary file beside their target): never listed. */
    static final String UPLOAD_PREFIX = ".crater-upload-";

    /** Folders first, then by name (code point order, the same on every replica). */
    static final Comparator<FileViews.Entry> ORDER = Comparator.comparing(
                    (FileViews.Entry e) -> !e.type().equals("folder"))
            .thenComparing(FileViews.Entry::name);

    private FileEntries() {}

    static FileViews.Entry of(SpaceFs.Resolved r) {
        return entry(r.name(), r.display(), r.attributes());
    }

    static FileViews.Entry entry(String name, String path, BasicFileAttributes a) {
        String type = a.isSymbolicLink() ? "link" : a.isDirectory() ? "folder" : "file";
        return new FileViews.Entry(
                name,
                path,
                type,
                a.isRegularFile() ? a.size() : 0,
                a.lastModifiedTime().toInstant());
    }

    /** Calls {@code each} for every entry of the folder as the disk lists it. */
    static void each(SpaceFs.Resolved folder, Consumer<FileViews.Entry> each) {
        String base = folder.isRoot() ? "/" : folder.display() + "/";
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(folder.path())) {
            for (Path p : dir) {
                String name = p.getFileName().toString();
                if (name.startsWith(UPLOAD_PREFIX)) {
                    continue;
                }
                BasicFileAttributes a = SpaceFs.attributes(p);
                if (a != null) {
                    each.accept(entry(name, base + name, a));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One page after {@code cursor} (the sort key of the last entry of the previous page). */
    static FileViews.Listing page(String space, SpaceFs.Resolved folder, String cursor, int limit) {
        List<FileViews.Entry> all = new ArrayList<>();
        each(folder, all::add);
        all.sort(ORDER);
        int from = 0;
        if (cursor != null && !cursor.isBlank()) {
            if (!cursor.startsWith("0:") && !cursor.startsWith("1:")) {
                throw ApiException.badRequest("InvalidCursor", "the cursor is not one this API returned", null);
            }
            from = all.size();
            for (int i = 0; i < all.size(); i++) {
                if (key(all.get(i)).compareTo(cursor) > 0) {
                    from = i;
                    break;
                }
            }
        }
        int to = Math.min(all.size(), from + limit);
        List<FileViews.Entry> items = List.copyOf(all.subList(from, to));
        String next = to < all.size() ? key(items.get(items.size() - 1)) : null;
        return new FileViews.Listing(space, folder.display(), items, next, all.size());
    }

    /** The sort key as a cursor: {@code 0:} for folders, {@code 1:} for the rest, then the name. */
    static String key(FileViews.Entry e) {
        return (e.type().equals("folder") ? "0:" : "1:") + e.name();
    }
}
