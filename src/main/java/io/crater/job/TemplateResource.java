package io.crater.job;

import io.crater.identity.CurrentUser;
import io.crater.job.TemplateViews.Items;
import io.crater.job.TemplateViews.SaveTemplate;
import io.crater.job.TemplateViews.Template;
import io.crater.job.TemplateViews.TemplateSummary;
import io.crater.job.TemplateViews.TemplateVersion;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Job templates: list, read (any version), save, new versions, delete, render. */
@Path("/api/v1/templates")
@Tag(name = "templates")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class TemplateResource {

    @Inject
    CurrentUser current;

    @Inject
    TemplateService templates;

    @GET
    @Operation(summary = "Templates the caller may use: built-in, public, shared with one of their accounts, their own")
    public Uni<Items<TemplateSummary>> list(@QueryParam("kind") String kind) {
        return current.caller().flatMap(c -> templates.list(c, kind)).map(Items::new);
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "A template with its parameters and spec, at a version (the latest by default)")
    public Uni<Template> get(@PathParam("id") String id, @QueryParam("version") Integer version) {
        return current.caller().flatMap(c -> templates.get(id, version, c));
    }

    @GET
    @Path("/{id}/versions")
    @Operation(summary = "The versions of a template, newest first")
    public Uni<Items<TemplateVersion>> versions(@PathParam("id") String id) {
        return current.caller().flatMap(c -> templates.versions(id, c)).map(Items::new);
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Save a template: private, shared with an account, or public")
    public Uni<Response> create(SaveTemplate req) {
        return current.caller()
                .flatMap(c -> templates.create(req, c))
                .map(t -> Response.status(201).entity(t).build());
    }

    @PUT
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Save a new version of one's template (its author or a platform admin)")
    public Uni<Template> update(@PathParam("id") String id, SaveTemplate req) {
        return current.caller().flatMap(c -> templates.update(id, req, c));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete one's template; jobs made from it keep their link")
    public Uni<Response> delete(@PathParam("id") String id) {
        return current.caller()
                .flatMap(c -> templates.delete(id, c))
                .map(v -> Response.noContent().build());
    }

    @POST
    @Path("/{id}/render")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "The job spec a template gives with these parameter values, also as YAML")
    public Uni<TemplateViews.Rendered> render(@PathParam("id") String id, TemplateViews.RenderRequest req) {
        return current.caller().flatMap(c -> templates.render(id, req, c));
    }
}
