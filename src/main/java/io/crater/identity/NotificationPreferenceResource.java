package io.crater.identity;

import io.crater.notify.NotificationPreferences;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The signed-in user's notification preferences: which kinds reach them on which channel (docs/notifications.md). */
@Path("/api/v1/me/notification-preferences")
@Tag(name = "me")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class NotificationPreferenceResource {

    @Inject
    CurrentUser current;

    @Inject
    NotificationPreferences preferences;

    @GET
    @Operation(summary = "One's notification preferences: every kind on every channel, and the waiting threshold")
    public Uni<NotificationPreferences.Preferences> get() {
        return current.caller().flatMap(c -> preferences.get(c.userId()));
    }

    @PUT
    @Operation(summary = "Turn kinds on or off per channel and set the waiting threshold (minutes)")
    public Uni<NotificationPreferences.Preferences> put(NotificationPreferences.Update update) {
        return current.caller().flatMap(c -> preferences.put(c.userId(), update));
    }
}
