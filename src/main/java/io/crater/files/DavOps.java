package io.crater.files;

import io.crater.identity.Caller;
import io.crater.identity.TokenAuthMechanism;
import io.crater.platform.ApiException;
import io.crater.policy.FilePaths;
import io.crater.policy.FileQuota;
import io.vertx.core.MultiMap;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * WebDAV's methods (RFC 4918, class 1) on the file API's resolver, access rules, quota, trash and audit trail: each
 * takes a checked target and answers a {@link DavReply}, or refuses with an {@link ApiException} before anything
 * changes. Blocking (worker threads).
 */
@ApplicationScoped
class DavOps {

    @Inject
    FileSpaces spaces;

    @Inject
    FileOps ops;

    @Inject
    Trash trash;

    @Inject
    FileUploads uploads;

    @Inject
    SpaceUsage usage;

    /**
     * A {@code /dav/{space}/{path}} as it came in.
     *
     * @param rawSpace the space's segment as the client wrote it (hrefs repeat it)
     * @param space the space's API name, decoded
     */
    record Target(String rawSpace, String space, FilePaths.Checked path) {
        String href(List<String> segments, boolean folder) {
            StringBuilder b =
                    new StringBuilder(TokenAuthMechanism.DAV).append(rawSpace).append('/');
            for (int i = 0; i < segments.size(); i++) {
                b.append(URLEncoder.encode(segments.get(i), StandardCharsets.UTF_8)
                        .replace("+", "%20"));
                if (i < segments.size() - 1 || folder) {
                    b.append('/');
                }
            }
            return b.toString();
        }
    }

    /** Parses a raw (still percent-encoded) request path under {@code /dav/}; a refused path is a 400. */
    static Target target(String rawPath) {
        String rest = rawPath.substring(TokenAuthMechanism.DAV.length());
        int slash = rest.indexOf('/');
        String rawSpace = slash < 0 ? rest : rest.substring(0, slash);
        FilePaths.Checked space = FilesResource.checked(rawSpace);
        if (space.segments().size() != 1) {
            throw ApiException.notFound("no file space at " + rawPath);
        }
        return new Target(
                rawSpace, space.segments().get(0), FilesResource.checked(slash < 0 ? "" : rest.substring(slash)));
    }

    /**
     * The target a {@code Destination} header names: on this server (its authority, when given, is the request's
     * {@code Host}), under {@code /dav/}, through the same path rules.
     */
    static Target destination(String header, String host) {
        if (header == null || header.isBlank()) {
            throw ApiException.badRequest("InvalidDestination", "MOVE and COPY need a Destination header", null);
        }
        URI u;
        try {
            u = new URI(header.trim());
        } catch (URISyntaxException e) {
            throw ApiException.badRequest("InvalidDestination", "the Destination is not a URI", null);
        }
        if (u.getRawAuthority() != null && (host == null || !u.getRawAuthority().equalsIgnoreCase(host))) {
            throw ApiException.badRequest(
                    "InvalidDestination", "the Destination must be on this server (" + host + ")", null);
        }
        String path = u.getRawPath();
        if (path == null || !path.startsWith(TokenAuthMechanism.DAV) || u.getRawQuery() != null) {
            throw ApiException.badRequest(
                    "InvalidDestination", "the Destination must be a path under " + TokenAuthMechanism.DAV, null);
        }
        return target(path);
    }

    DavReply propfind(Caller caller, Target t, MultiMap headers, byte[] body) {
        FileSpaces.Opened s = spaces.forReading(caller, t.space());
        SpaceFs.Resolved r = visible(s, t);
        String depth = headers.get("Depth");
        if (depth == null || depth.equalsIgnoreCase("infinity")) {
            return DavReply.xml(403, DavXml.precondition("propfind-finite-depth"));
        }
        if (!depth.equals("0") && !depth.equals("1")) {
            throw ApiException.badRequest("InvalidDepth", "Depth must be 0 or 1", null);
        }
        DavXml.Find find = DavXml.find(body);
        long[] quota = r.folder() ? quota(s) : null;
        String name = r.isRoot() ? s.name() : r.name();
        List<DavXml.Resource> out = new ArrayList<>();
        out.add(DavXml.answer(t.href(r.segments(), r.folder()), DavXml.live(name, r.attributes(), quota), find));
        if (depth.equals("1") && r.folder()) {
            try (DirectoryStream<Path> dir = Files.newDirectoryStream(r.path())) {
                for (Path p : dir) {
                    String child = p.getFileName().toString();
                    BasicFileAttributes a = SpaceFs.attributes(p);
                    if (a == null || a.isSymbolicLink() || child.startsWith(FileEntries.UPLOAD_PREFIX)) {
                        continue;
                    }
                    List<String> segments = new ArrayList<>(r.segments());
                    segments.add(child);
                    out.add(DavXml.answer(
                            t.href(segments, a.isDirectory()),
                            DavXml.live(child, a, a.isDirectory() ? quota : null),
                            find));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return DavReply.xml(207, DavXml.multistatus(out));
    }

    /** The space's RFC 4331 figures: bytes used, and bytes left (the volume's free space when unlimited). */
    private long[] quota(FileSpaces.Opened s) {
        FileQuota.Usage used = usage.of(s);
        long limit = spaces.limit(s).bytes();
        long left;
        try {
            left = limit == FileQuota.UNLIMITED
                    ? Files.getFileStore(s.root()).getUsableSpace()
                    : Math.max(0, limit - used.bytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new long[] {used.bytes(), left};
    }

    /** GET and HEAD of a file: whole or one range. A folder has no content here (PROPFIND lists it). */
    DavReply get(Caller caller, Target t, MultiMap headers) {
        FileSpaces.Opened s = spaces.forReading(caller, t.space());
        SpaceFs.Resolved r = visible(s, t);
        if (r.folder()) {
            return DavReply.status(405, Map.of("Allow", DavRoute.ALLOW_FOLDER));
        }
        long size = r.attributes().size();
        Ranges.Range range = Ranges.of(headers.get("Range"), size);
        if (!range.satisfiable()) {
            return DavReply.status(416, Map.of("Content-Range", "bytes */" + size));
        }
        Map<String, String> h = new java.util.LinkedHashMap<>();
        h.put("Content-Type", FileReads.type(r.path()));
        h.put("ETag", DavXml.etag(r.attributes()));
        h.put("Last-Modified", DavXml.httpDate(r.attributes()));
        h.put("Accept-Ranges", "bytes");
        h.put("X-Content-Type-Options", "nosniff");
        h.put("Content-Security-Policy", "sandbox; default-src 'none'");
        if (!range.whole()) {
            h.put("Content-Range", "bytes " + range.first() + "-" + range.last() + "/" + size);
        }
        return DavReply.file(range.whole() ? 200 : 206, h, r.path(), range.first(), range.length());
    }

    /** PUT's checks before a byte is read: a file (never a folder) whose folder exists, within the quota. */
    FileUploads.Upload put(Caller caller, Target t, MultiMap headers) {
        FileSpaces.Opened s = spaces.forWriting(caller, t.space());
        SpaceFs.Resolved r = inFolder(s, t.path());
        if (r.isRoot() || r.folder()) {
            throw new ApiException(
                    405, "NotAFile", "Method not allowed", r.display() + " is a folder", null, null, null);
        }
        if (r.link()) {
            throw ApiException.conflict("LinkNotFollowed", r.display() + " is a link, which is not replaced");
        }
        if ("*".equals(headers.get("If-None-Match")) && r.exists()) {
            throw precondition(r.display() + " exists and If-None-Match: * forbids replacing it");
        }
        long declared = FileUploads.declared(headers.get("Content-Length"));
        return uploads.start(caller, s, r, declared);
    }

    DavReply mkcol(Caller caller, Target t, byte[] body) {
        FileSpaces.Opened s = spaces.forWriting(caller, t.space());
        if (body.length > 0) {
            throw new ApiException(
                    415, "UnsupportedMediaType", "Unsupported media type", "MKCOL takes no body", null, null, null);
        }
        SpaceFs.Resolved r = inFolder(s, t.path());
        if (r.exists()) {
            throw new ApiException(
                    405, "AlreadyExists", "Method not allowed", r.display() + " already exists", null, null, null);
        }
        ops.mkdir(caller, s, t.path());
        return DavReply.status(201, Map.of());
    }

    /** DELETE: into the space's trash, a folder with everything in it. */
    DavReply delete(Caller caller, Target t, MultiMap headers) {
        FileSpaces.Opened s = spaces.forWriting(caller, t.space());
        visible(s, t);
        String depth = headers.get("Depth");
        if (depth != null && !depth.equalsIgnoreCase("infinity")) {
            throw ApiException.badRequest("InvalidDepth", "DELETE takes Depth: infinity or none", null);
        }
        trash.delete(caller, s, t.path(), true);
        return DavReply.status(204, Map.of());
    }

    DavReply proppatch(Caller caller, Target t, byte[] body) {
        FileSpaces.Opened s = spaces.forWriting(caller, t.space());
        SpaceFs.Resolved r = visible(s, t);
        if (body.length == 0) {
            throw ApiException.badRequest("InvalidXml", "a PROPPATCH needs a DAV:propertyupdate body", null);
        }
        return DavReply.xml(207, DavXml.refused(t.href(r.segments(), r.folder()), DavXml.patched(body)));
    }

    /** MOVE and COPY: checked on both sides before anything moves; a replaced destination goes to the trash. */
    DavReply transfer(Caller caller, Target t, MultiMap headers, String host, boolean copy) {
        FileSpaces.Opened from = spaces.forWriting(caller, t.space());
        SpaceFs.Resolved src = visible(from, t);
        Target d = destination(headers.get("Destination"), host);
        boolean overwrite = overwrite(headers.get("Overwrite"));
        boolean shallow = depth(headers.get("Depth"), copy);
        if (src.isRoot()) {
            throw ApiException.badRequest("InvalidPath", "the space's root cannot be moved or copied", null);
        }
        FileSpaces.Opened to = d.space().equals(t.space()) ? from : spaces.forWriting(caller, d.space());
        SpaceFs.Resolved dst = inFolder(to, d.path());
        if (to.key().equals(from.key()) && overlap(src.segments(), dst.segments())) {
            throw new ApiException(
                    403,
                    "SameResource",
                    "Forbidden",
                    "the source and the destination are the same entry or lie inside each other",
                    null,
                    null,
                    null);
        }
        boolean existed = dst.exists();
        if (existed && !overwrite) {
            throw precondition(dst.display() + " exists and Overwrite: F forbids replacing it");
        }
        if (copy || to != from) {
            FileQuota.Usage moved = shallow ? new FileQuota.Usage(0, 1) : SpaceUsage.entry(src);
            ops.fits(to, moved.bytes(), moved.files());
        }
        if (existed) {
            trash.delete(caller, to, d.path(), true);
        }
        if (shallow && src.folder()) {
            ops.mkdir(caller, to, d.path());
        } else {
            ops.transfer(
                    caller,
                    from,
                    t.path(),
                    new FileViews.Change(copy ? "copy" : "move", d.path().display(), d.space(), false));
        }
        return DavReply.status(existed ? 204 : 201, Map.of());
    }

    private static boolean overwrite(String header) {
        if (header == null || header.equals("T")) {
            return true;
        }
        if (header.equals("F")) {
            return false;
        }
        throw ApiException.badRequest("InvalidOverwrite", "Overwrite must be T or F", null);
    }

    /** Whether a COPY is of the folder alone (Depth: 0); MOVE takes only infinity. */
    private static boolean depth(String header, boolean copy) {
        if (header == null || header.equalsIgnoreCase("infinity")) {
            return false;
        }
        if (copy && header.equals("0")) {
            return true;
        }
        throw ApiException.badRequest(
                "InvalidDepth", copy ? "COPY takes Depth: 0 or infinity" : "MOVE takes Depth: infinity", null);
    }

    private static boolean overlap(List<String> a, List<String> b) {
        int n = Math.min(a.size(), b.size());
        return a.subList(0, n).equals(b.subList(0, n));
    }

    /** An existing entry that WebDAV shows: links are neither listed nor served, so they are not found either. */
    private static SpaceFs.Resolved visible(FileSpaces.Opened s, Target t) {
        SpaceFs.Resolved r = FileOps.existing(s, t.path());
        if (r.link()) {
            throw ApiException.notFound(r.display() + " is a link, which WebDAV does not serve");
        }
        return r;
    }

    /** A path whose folder must exist: a missing one is 409 Conflict (RFC 4918 9.3.1, 9.7.1, 9.8.5). */
    private static SpaceFs.Resolved inFolder(FileSpaces.Opened s, FilePaths.Checked path) {
        SpaceFs.Resolved r;
        try {
            r = FileOps.resolve(s, path, "path");
        } catch (ApiException e) {
            throw e.status() == 404 ? missingFolder(path) : e;
        }
        if (r.segments().size() > 1 && !Files.isDirectory(r.path().getParent(), SpaceFs.NOFOLLOW)) {
            throw missingFolder(path);
        }
        return r;
    }

    private static ApiException missingFolder(FilePaths.Checked path) {
        return ApiException.conflict("FolderMissing", "the folder that would hold " + path.display() + " is missing");
    }

    private static ApiException precondition(String detail) {
        return new ApiException(412, "PreconditionFailed", "Precondition failed", detail, null, null, null);
    }
}
