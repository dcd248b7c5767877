package io.crater.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** A folder written as a zip while it is read: one file at a time, never the whole archive in memory. Links are left out. */
final class Zips {

    private Zips() {}

    static void write(Path folder, OutputStream out) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.setLevel(java.util.zip.Deflater.BEST_SPEED);
            Files.walkFileTree(folder, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    if (!dir.equals(folder)) {
                        zip.putNextEntry(new ZipEntry(folder.relativize(dir) + "/"));
                        zip.closeEntry();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    if (!attrs.isRegularFile() || file.getFileName().toString().startsWith(FileEntries.UPLOAD_PREFIX)) {
                        return FileVisitResult.CONTINUE;
                    }
                    ZipEntry e = new ZipEntry(folder.relativize(file).toString());
                    e.setLastModifiedTime(attrs.lastModifiedTime());
                    zip.putNextEntry(e);
                    try (InputStream in = Files.newInputStream(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                        in.transferTo(zip);
                    }
                    zip.closeEntry();
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        }
    }
}
