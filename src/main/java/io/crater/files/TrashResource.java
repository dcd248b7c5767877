package io.crater.files;

import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Each space's trash: what was deleted, restorable until the sweep removes it (docs/storage.md). */
@Path("/api/v1/trash")
@Tag(name = "files")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class TrashResource {

    @Inject
    SecurityIdentity identity;

    @Inject
    CurrentUser current;

    @Inject
    FileSpaces spaces;

    @Inject
    Trash trash;

    private Caller caller() {
        return new Caller(current.userOf(identity), current.clientAddress());
    }

    @GET
    @Blocking
    @Path("/{space}")
    @Operation(summary = "What was deleted in a space and can still be restored, newest first")
    public List<FileViews.TrashEntry> trash(@PathParam("space") String space) {
        return trash.list(spaces.forReading(caller(), space));
    }

    @POST
    @Blocking
    @Path("/{space}/{id}/restore")
    @Operation(summary = "Put a trashed entry back where it was (refused when something is there now)")
    public FileViews.Entry restore(@PathParam("space") String space, @PathParam("id") long id) {
        Caller caller = caller();
        return trash.restore(caller, spaces.forWriting(caller, space), id);
    }
}
