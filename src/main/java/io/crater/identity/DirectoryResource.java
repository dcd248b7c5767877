package io.crater.identity;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The directory users sign in with (platform admins): its settings as far as they are not secret, and its sync. */
@Path("/api/v1/directory")
@Tag(name = "users")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class DirectoryResource {

    /** The directory as the admin page shows it; no password, no bind DN. */
    @Schema(name = "DirectoryStatus")
    public record Status(
            boolean enabled,

            @Schema(description = "the mark on linked users and on memberships the directory grants")
            String provider,

            String url,
            @Schema(enumeration = {"search", "direct"}) String mode,
            boolean startTls,

            @Schema(description = "seconds between periodic syncs on the leader; 0: off")
            long syncIntervalSeconds,

            int groupMappings,
            @Schema(nullable = true) DirectorySyncs.Result lastSync) {}

    @Inject
    CurrentUser current;

    @Inject
    LdapDirectory directory;

    @Inject
    DirectorySyncs syncs;

    @Inject
    DirectorySyncService sync;

    @GET
    @Operation(summary = "The directory and its last sync (platform admins)")
    public Uni<Status> status() {
        return current.caller().flatMap(c -> {
            UserService.requireAdmin(c);
            LdapConfig cfg = directory.config();
            return Panache.withSession(() -> syncs.last(directory.source()))
                    .map(last -> new Status(
                            cfg.enabled(),
                            directory.source(),
                            cfg.enabled() ? cfg.url().orElse(null) : null,
                            cfg.userDnPattern().isPresent() ? "direct" : "search",
                            cfg.startTls(),
                            cfg.enabled() ? cfg.syncInterval().toSeconds() : 0,
                            cfg.groups().size(),
                            last.orElse(null)));
        });
    }

    @POST
    @Path("/sync")
    @Operation(summary = "Sync linked users with the directory now and answer with the result (platform admins)")
    public Uni<DirectorySyncs.Result> syncNow() {
        return current.caller().flatMap(c -> sync.syncNow(c));
    }
}
