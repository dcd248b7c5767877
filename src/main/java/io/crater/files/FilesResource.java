package io.crater.files;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.policy.FilePaths;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Encoded;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseHeader;

/**
 * The file API (docs/storage.md): {@code /api/v1/files/{space}/{path}} where the space is {@code user} (the caller's
 * own), {@code account:<slug>} or {@code public}. Uploads ({@code PUT}) are a streaming route of their own
 * ({@link FileUploads}).
 */
@Path("/api/v1/files")
@Tag(name = "files")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class FilesResource {

    static final String FILES = "/{space}{path: (/.*)?}";

    @Inject
    SecurityIdentity identity;

    @Inject
    CurrentUser current;

    @Inject
    FileSpaces spaces;

    @Inject
    FileReads reads;

    @Inject
    FileOps ops;

    @Inject
    Trash trash;

    @Inject
    ObjectMapper json;

    private Caller caller() {
        return new Caller(current.userOf(identity), current.clientAddress());
    }

    @GET
    @Blocking
    @Path(FILES)
    @Produces({MediaType.APPLICATION_JSON, MediaType.APPLICATION_OCTET_STREAM, "application/zip", MediaType.WILDCARD})
    @Operation(
            summary = "A folder's entries (paged: folders first, then by name), a file's content (one Range),"
                    + " a folder as a zip (format=zip), or an entry's details (stat=true)")
    @APIResponse(
            responseCode = "200",
            description = "A folder's page of entries (JSON), a file's content, a folder as a zip, or with stat=true"
                    + " one entry",
            content = {
                @Content(
                        mediaType = "application/json",
                        schema = @Schema(oneOf = {FileViews.Listing.class, FileViews.Entry.class})),
                @Content(
                        mediaType = "application/octet-stream",
                        schema = @Schema(type = SchemaType.STRING, format = "binary")),
                @Content(mediaType = "application/zip", schema = @Schema(type = SchemaType.STRING, format = "binary"))
            })
    public Response get(
            @PathParam("space") String space,
            @Encoded @PathParam("path") String path,
            @QueryParam("stat") boolean stat,
            @QueryParam("format") String format,
            @QueryParam("inline") boolean inline,
            @QueryParam("cursor") String cursor,
            @QueryParam("limit") Integer limit,
            @HeaderParam("Range") String range) {
        FileSpaces.Opened s = spaces.forReading(caller(), space);
        FilePaths.Checked p = checked(path);
        if (format != null && !format.equals("zip")) {
            throw ApiException.badRequest(
                    "InvalidRequest", "format may only be zip", List.of(new Problem.FieldError("format", "only zip")));
        }
        SpaceFs.Resolved r = FileOps.existing(s, p);
        if (stat) {
            return Response.ok(FileEntries.of(r))
                    .type(MediaType.APPLICATION_JSON)
                    .build();
        }
        if (r.folder() && format == null) {
            return Response.ok(reads.list(s, p, cursor, limit(limit)))
                    .type(MediaType.APPLICATION_JSON)
                    .build();
        }
        return reads.download(s, p, range, format != null, inline);
    }

    @GET
    @Blocking
    @Path(FILES)
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    public Multi<OutboundSseEvent> stream(
            @PathParam("space") String space, @Encoded @PathParam("path") String path, @Context Sse sse) {
        FileSpaces.Opened s = spaces.forReading(caller(), space);
        long[] count = {0};
        Multi<OutboundSseEvent> entries = reads.stream(s, checked(path)).map(e -> {
            count[0]++;
            return event(sse, "entry", e);
        });
        return Multi.createBy()
                .concatenating()
                .streams(
                        entries,
                        Multi.createFrom()
                                .deferred(() -> Multi.createFrom()
                                        .item(event(sse, "end", java.util.Map.of("count", count[0])))));
    }

    private OutboundSseEvent event(Sse sse, String name, Object data) {
        try {
            return sse.newEventBuilder()
                    .name(name)
                    .mediaType(MediaType.APPLICATION_JSON_TYPE)
                    .data(String.class, json.writeValueAsString(data))
                    .build();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @POST
    @Blocking
    @Path(FILES)
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(
            summary =
                    "Make a folder (action mkdir), or move or copy an entry (action move|copy, to, toSpace, overwrite)")
    public Response change(
            @PathParam("space") String space, @Encoded @PathParam("path") String path, FileViews.Change change) {
        Caller caller = caller();
        FileSpaces.Opened s = spaces.forWriting(caller, space);
        FilePaths.Checked p = checked(path);
        String action = change == null ? null : change.action();
        if ("mkdir".equals(action)) {
            return Response.status(201).entity(ops.mkdir(caller, s, p)).build();
        }
        if (!"move".equals(action) && !"copy".equals(action)) {
            throw ApiException.badRequest(
                    "InvalidRequest",
                    "action must be mkdir, move or copy",
                    List.of(new Problem.FieldError("action", "one of mkdir, move, copy")));
        }
        if (change.to() == null || change.to().isBlank()) {
            throw ApiException.badRequest(
                    "InvalidRequest",
                    "name the destination path",
                    List.of(new Problem.FieldError("to", "the destination path is required")));
        }
        return Response.status("copy".equals(action) ? 201 : 200)
                .entity(ops.transfer(caller, s, p, change))
                .build();
    }

    @DELETE
    @Blocking
    @Path(FILES)
    @Operation(summary = "Move an entry to its space's trash (a non-empty folder only with recursive=true)")
    public FileViews.TrashEntry delete(
            @PathParam("space") String space,
            @Encoded @PathParam("path") String path,
            @QueryParam("recursive") boolean recursive) {
        Caller caller = caller();
        return trash.delete(caller, spaces.forWriting(caller, space), checked(path), recursive);
    }

    static FilePaths.Checked checked(String raw) {
        FilePaths.Checked p = FilePaths.fromUrl(raw);
        if (!p.ok()) {
            throw ApiException.badRequest(
                    "InvalidPath", p.refusal(), List.of(new Problem.FieldError("path", p.refusal())));
        }
        return p;
    }

    static int limit(Integer limit) {
        if (limit == null) {
            return 200;
        }
        if (limit < 1 || limit > 1000) {
            throw ApiException.badRequest(
                    "InvalidRequest",
                    "limit must be between 1 and 1000",
                    List.of(new Problem.FieldError("limit", "between 1 and 1000")));
        }
        return limit;
    }
}
