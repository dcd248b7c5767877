package io.crater.platform;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** Every {@code /api/**} path no resource serves is a 404 problem, never the console's index page. */
@Path("/api/{path: .*}")
public class ApiFallbackResource {

    @GET
    @Operation(hidden = true)
    public void get(@PathParam("path") String path) {
        throw notFound(path);
    }

    @POST
    @Operation(hidden = true)
    public void post(@PathParam("path") String path) {
        throw notFound(path);
    }

    @PUT
    @Operation(hidden = true)
    public void put(@PathParam("path") String path) {
        throw notFound(path);
    }

    @PATCH
    @Operation(hidden = true)
    public void patch(@PathParam("path") String path) {
        throw notFound(path);
    }

    @DELETE
    @Operation(hidden = true)
    public void delete(@PathParam("path") String path) {
        throw notFound(path);
    }

    private static ApiException notFound(String path) {
        return ApiException.notFound("no API resource at /api/" + path);
    }
}
