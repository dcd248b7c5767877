package io.crater.images;

import io.crater.cluster.AcceleratorCatalogue;
import io.crater.identity.CurrentUser;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.policy.ImageReferences;
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

/** The image catalogue: container images described for the job form and validated against their registries. */
@Path("/api/v1/images")
@Tag(name = "images")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ImageResource {

    @Inject
    CurrentUser current;

    @Inject
    ImageService images;

    @Inject
    AcceleratorCatalogue catalogue;

    @GET
    @Operation(summary = "The images the caller sees, newest first, filtered (by what fits a job) and paged")
    public Uni<ImageViews.ImagePage> list(
            @QueryParam("q") String q,
            @QueryParam("kind") String kind,
            @QueryParam("vendor") String vendor,
            @QueryParam("accelerator") String accelerator,
            @QueryParam("visibility") String visibility,
            @QueryParam("mine") boolean mine,
            @QueryParam("cursor") String cursor,
            @QueryParam("limit") Integer limit) {
        // Set.of(...).contains(null) throws: each check runs only for a given value.
        check(
                kind,
                kind == null || ImageReferences.KINDS.contains(kind),
                "kind",
                String.join(", ", ImageReferences.KINDS));
        check(vendor, vendor == null || ImageReferences.vendor(vendor) != null, "vendor", "a vendor such as nvidia");
        check(
                visibility,
                visibility == null || ImageChecks.VISIBILITIES.contains(visibility),
                "visibility",
                "private, account or public");
        check(q, q == null || q.length() <= 200, "q", "at most 200 characters");
        String fitting = vendor == null ? null : ImageReferences.vendor(vendor);
        if (accelerator != null && !accelerator.isBlank()) {
            fitting = catalogue
                    .model(accelerator.trim())
                    .map(m -> ImageReferences.vendor(m.vendor()))
                    .orElseThrow(() -> bad("accelerator", "no accelerator model '" + accelerator + "'"));
        }
        String byVendor = fitting;
        return current.caller()
                .flatMap(c -> images.list(
                        c,
                        new ImageQueries.Filter(
                                blank(q) ? null : q.trim(), kind, byVendor, visibility, mine ? c.userId() : null),
                        cursor,
                        limit));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One image with the last validation of each tag")
    public Uni<ImageViews.Image> get(@PathParam("id") String id) {
        return current.caller().flatMap(c -> images.get(id, c));
    }

    @POST
    @Operation(summary = "Register an image (a registry and repository with tags)")
    public Uni<Response> create(ImageViews.CreateImage req) {
        return current.caller()
                .flatMap(c -> images.create(req, c))
                .map(v -> Response.status(201).entity(v).build());
    }

    @PUT
    @Path("/{id}")
    @Operation(summary = "Change an image (its owner or a platform admin)")
    public Uni<ImageViews.Image> update(@PathParam("id") String id, ImageViews.UpdateImage req) {
        return current.caller().flatMap(c -> images.update(id, req, c));
    }

    @POST
    @Path("/{id}/validate")
    @Operation(
            summary = "Ask the registry about each tag (with the caller's registry credential) and record the answers")
    public Uni<ImageViews.Image> validate(@PathParam("id") String id) {
        return current.caller().flatMap(c -> images.validate(id, c));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete an image from the catalogue (never from its registry)")
    public Uni<Response> delete(@PathParam("id") String id) {
        return current.caller()
                .flatMap(c -> images.delete(id, c))
                .map(v -> Response.noContent().build());
    }

    private static void check(String value, boolean ok, String field, String message) {
        if (value != null && !ok) {
            throw bad(field, message);
        }
    }

    private static ApiException bad(String field, String message) {
        return ApiException.badRequest(
                "InvalidRequest", field + ": " + message, List.of(new Problem.FieldError(field, message)));
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
