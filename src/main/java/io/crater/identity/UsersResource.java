package io.crater.identity;

import io.crater.platform.Page;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** User administration (platform admins). */
@Path("/api/v1/users")
@Tag(name = "users")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class UsersResource {

    /** A generated password, shown once. */
    public record Password(String password) {}

    @Inject
    CurrentUser current;

    @Inject
    UserService users;

    @Inject
    UserImport imports;

    @GET
    @Operation(summary = "Users, searchable by name or e-mail, keyset-paginated")
    public Uni<Page<UserView>> list(
            @QueryParam("q") String q, @QueryParam("cursor") String cursor, @QueryParam("limit") Integer limit) {
        return current.caller().flatMap(c -> users.list(q, cursor, limit, c));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a user with a personal account; a generated password is returned once")
    @APIResponse(
            responseCode = "201",
            description = "The user and, when generated, their password (shown once)",
            content =
                    @Content(
                            mediaType = "application/json",
                            schema = @Schema(implementation = UserService.Created.class)))
    public Uni<Response> create(UserService.CreateUser req) {
        return current.caller()
                .flatMap(c -> users.create(req, c))
                .map(u -> Response.status(201).entity(u).build());
    }

    @POST
    @Path("/import")
    @Consumes({"text/csv", MediaType.TEXT_PLAIN})
    @Operation(
            summary =
                    "Create users from CSV (username,displayName,email,password,account,accountRole); reports each line")
    public Uni<UserImport.Report> importCsv(String csv) {
        return current.caller().flatMap(c -> imports.importCsv(csv, c));
    }

    @GET
    @Path("/{username}")
    @Operation(summary = "One user")
    public Uni<UserView> get(@PathParam("username") String username) {
        return current.caller().flatMap(c -> users.find(username, c));
    }

    @PATCH
    @Path("/{username}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change a user's name, e-mail or role, or disable/enable them")
    public Uni<UserView> update(@PathParam("username") String username, UserService.UpdateUser req) {
        return current.caller().flatMap(c -> users.update(username, req, c));
    }

    @POST
    @Path("/{username}/password-reset")
    @Operation(summary = "Give a user a new generated password (returned once); their sessions end")
    public Uni<Password> reset(@PathParam("username") String username) {
        return current.caller().flatMap(c -> users.resetPassword(username, c)).map(Password::new);
    }
}
