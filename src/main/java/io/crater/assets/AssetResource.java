package io.crater.assets;

import io.crater.identity.CurrentUser;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Datasets and models: catalogue entries pointing at a folder or file of a file space, mounted read-only into jobs. */
@Path("/api/v1/assets")
@Tag(name = "assets")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AssetResource {

    @Inject
    CurrentUser current;

    @Inject
    AssetService assets;

    @GET
    @Operation(summary = "The datasets and models the caller sees, newest first, filtered and paged")
    public Uni<AssetViews.AssetPage> list(
            @QueryParam("kind") String kind,
            @QueryParam("tag") String tag,
            @QueryParam("q") String q,
            @QueryParam("visibility") String visibility,
            @QueryParam("account") String account,
            @QueryParam("mine") boolean mine,
            @QueryParam("cursor") String cursor,
            @QueryParam("limit") Integer limit) {
        // Set.of(...).contains(null) throws: each check runs only for a given value.
        check(kind, kind == null || AssetChecks.KINDS.contains(kind), "kind", "dataset or model");
        check(tag, tag == null || AssetChecks.TAG.matcher(tag).matches(), "tag", "a tag");
        check(
                visibility,
                visibility == null || AssetChecks.VISIBILITIES.contains(visibility),
                "visibility",
                "private, account or public");
        check(q, q == null || q.length() <= 200, "q", "at most 200 characters");
        return current.caller()
                .flatMap(c -> assets.list(
                        c,
                        blank(account) ? null : account.trim(),
                        new AssetQueries.Filter(
                                kind, tag, blank(q) ? null : q.trim(), visibility, null, mine ? c.userId() : null),
                        cursor,
                        limit));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One dataset or model")
    public Uni<AssetViews.Asset> get(@PathParam("id") String id) {
        return current.caller().flatMap(c -> assets.get(id, c));
    }

    @POST
    @Operation(summary = "Register a folder or file of a file space as a dataset or a model")
    public Uni<Response> create(AssetViews.CreateAsset req) {
        return current.caller()
                .flatMap(c -> assets.create(req, c))
                .map(v -> Response.status(201).entity(v).build());
    }

    @PUT
    @Path("/{id}")
    @Operation(summary = "Change an entry (its owner or a platform admin)")
    public Uni<AssetViews.Asset> update(@PathParam("id") String id, AssetViews.UpdateAsset req) {
        return current.caller().flatMap(c -> assets.update(id, req, c));
    }

    @POST
    @Path("/{id}/refresh")
    @Operation(summary = "Measure an entry's size again")
    public Uni<AssetViews.Asset> refresh(@PathParam("id") String id) {
        return current.caller().flatMap(c -> assets.refresh(id, c));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete an entry (never its files); 409 while a job that has not ended mounts it")
    public Uni<Response> delete(@PathParam("id") String id) {
        return current.caller()
                .flatMap(c -> assets.delete(id, c))
                .map(v -> Response.noContent().build());
    }

    private static void check(String value, boolean ok, String field, String message) {
        if (value != null && !ok) {
            throw ApiException.badRequest(
                    "InvalidRequest", field + ": " + message, List.of(new Problem.FieldError(field, message)));
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
