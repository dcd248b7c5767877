package io.crater.files;

import io.crater.platform.ApiException;
import io.crater.policy.FilePaths;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.jboss.resteasy.reactive.PathPart;

/**
 * Reading spaces: folders as pages or as a stream, files as downloads (one range at a time) or inline previews,
 * folders as zips written while they are read. Blocking (worker threads).
 */
@ApplicationScoped
class FileReads {

    /** Types a preview may show inline on Crater's origin; anything else (HTML, SVG, scripts) is only downloaded. */
    static final Set<String> INLINE = Set.of("image/png", "image/jpeg", "image/gif", "image/webp", "text/plain");

    FileViews.Listing list(FileSpaces.Opened space, FilePaths.Checked path, String cursor, int limit) {
        SpaceFs.Resolved r = folder(space, path);
        return FileEntries.page(space.name(), r, cursor, limit);
    }

    /** The folder's entries as the disk gives them, read while the client takes them. */
    Multi<FileViews.Entry> stream(FileSpaces.Opened space, FilePaths.Checked path) {
        SpaceFs.Resolved r = folder(space, path);
        String base = r.isRoot() ? "/" : r.display() + "/";
        return Multi.createFrom()
                .resource(
                        () -> open(r.path()),
                        (DirectoryStream<Path> dir) -> Multi.createFrom().iterable(dir))
                .withFinalizer(dir -> {
                    try {
                        dir.close();
                    } catch (java.io.IOException ignored) {
                        // the stream is over either way
                    }
                })
                .filter(p -> !p.getFileName().toString().startsWith(FileEntries.UPLOAD_PREFIX))
                .map(p -> {
                    var a = SpaceFs.attributes(p);
                    String name = p.getFileName().toString();
                    return a == null ? null : FileEntries.entry(name, base + name, a);
                })
                .filter(e -> e != null)
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private static DirectoryStream<Path> open(Path dir) {
        try {
            return Files.newDirectoryStream(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static SpaceFs.Resolved folder(FileSpaces.Opened space, FilePaths.Checked path) {
        SpaceFs.Resolved r = FileOps.existing(space, path);
        if (!r.folder()) {
            throw ApiException.conflict("NotAFolder", r.display() + " is not a folder");
        }
        return r;
    }

    /** A file (whole, or the one range asked for) or, with {@code zip}, a folder as a zip. */
    Response download(FileSpaces.Opened space, FilePaths.Checked path, String range, boolean zip, boolean inline) {
        SpaceFs.Resolved r = FileOps.existing(space, path);
        if (r.link()) {
            throw new ApiException(
                    400,
                    "LinkNotFollowed",
                    "Bad request",
                    r.display() + " is a link, which is not followed",
                    null,
                    null,
                    null);
        }
        if (r.folder()) {
            if (!zip) {
                throw ApiException.conflict("NotAFile", r.display() + " is a folder: ask for it with format=zip");
            }
            String name = (r.isRoot() ? space.space().kind().name().toLowerCase(Locale.ROOT) : r.name()) + ".zip";
            StreamingOutput body = out -> Zips.write(r.path(), out);
            return Response.ok(body, "application/zip")
                    .header("Content-Disposition", Ranges.disposition(name))
                    .build();
        }
        return file(r, range, inline);
    }

    private static Response file(SpaceFs.Resolved r, String rangeHeader, boolean inline) {
        long size = r.attributes().size();
        Ranges.Range range = Ranges.of(rangeHeader, size);
        if (!range.satisfiable()) {
            throw new ApiException(
                    416,
                    "RangeNotSatisfiable",
                    "Range not satisfiable",
                    "the file has " + size + " bytes; the range asked for lies outside it",
                    null,
                    null,
                    null);
        }
        String type = type(r.path());
        boolean show = inline && INLINE.contains(type);
        Response.ResponseBuilder b = Response.status(range.whole() ? 200 : 206)
                .entity(new PathPart(r.path(), range.first(), range.length()))
                .type(show ? type : "application/octet-stream")
                .header("Accept-Ranges", "bytes")
                .header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self'")
                .header("Content-Disposition", show ? "inline" : Ranges.disposition(r.name()));
        if (!range.whole()) {
            b.header("Content-Range", "bytes " + range.first() + "-" + range.last() + "/" + size);
        }
        return b.build();
    }

    /** A file's media type by its name; text files are served as plain text, whatever they hold. */
    static String type(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        int dot = n.lastIndexOf('.');
        String ext = dot < 0 ? "" : n.substring(dot + 1);
        return switch (ext) {
            case "png" -> "image/png";
            case "jpg", "jpeg" -> "image/jpeg";
            case "gif" -> "image/gif";
            case "webp" -> "image/webp";
            case "txt",
                    "md",
                    "log",
                    "csv",
                    "json",
                    "yaml",
                    "yml",
                    "py",
                    "sh",
                    "toml",
                    "ini",
                    "cfg",
                    "java",
                    "ts",
                    "js",
                    "c",
                    "h",
                    "cpp",
                    "rs",
                    "go",
                    "r",
                    "ipynb",
                    "sql",
                    "xml",
                    "html",
                    "svg" -> "text/plain";
            default -> "application/octet-stream";
        };
    }
}
