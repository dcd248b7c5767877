package io.crater.interactive;

import io.crater.identity.CurrentUser;
import io.crater.job.PodAccess;
import io.crater.platform.ApiException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Opens a job's web app: checks that the caller is its owner (or a platform admin asking {@code asAdmin}, audited)
 * and that the app answers its readiness path, then mints a one-time ticket and answers the URL on the job's app
 * origin that exchanges it for a cookie there. The console navigates to that URL.
 */
@Path("/api/v1/jobs/{id}/open")
@Tag(name = "jobs")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class AppOpenResource {

    /** Where to send the browser, good once until {@code expiresAt}. */
    public record Opened(String url, String origin, Instant expiresAt) {}

    @Inject
    java.time.Clock clock;

    @Inject
    CurrentUser current;

    @Inject
    PodAccess access;

    @Inject
    AppSessions sessions;

    @Inject
    AppProxy proxy;

    @Inject
    AppConfig config;

    @POST
    @Operation(summary = "A one-time URL into the job's app (JupyterLab, VS Code, or ?port=N) on its own origin")
    public Uni<Opened> open(
            @PathParam("id") String id, @QueryParam("port") Integer port, @QueryParam("asAdmin") boolean asAdmin) {
        if (!config.enabled()) {
            return Uni.createFrom()
                    .failure(new ApiException(
                            409, "AppsDisabled", "Conflict", "the app origin is off", null, null, null));
        }
        if (port != null && (port < 1 || port > 65535)) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidPort",
                            "port must be 1-65535",
                            List.of(new io.crater.platform.Problem.FieldError("port", "1-65535"))));
        }
        return current.caller()
                .flatMap(c -> access.resolve(id, null, c, asAdmin).flatMap(target -> {
                    AppProfile profile = port != null
                            ? AppProfile.port(port)
                            : AppProfile.of(target.kind())
                                    .orElseThrow(() -> new ApiException(
                                            409,
                                            "NoApp",
                                            "Conflict",
                                            "a " + target.kind() + " job serves no web app of its own; open one of its"
                                                    + " ports with ?port=N",
                                            null,
                                            null,
                                            null));
                    return proxy.ready(target, profile)
                            .flatMap(ready -> {
                                if (!ready) {
                                    throw new ApiException(
                                            409,
                                            "AppNotReady",
                                            "Conflict",
                                            "the app does not answer " + profile.readiness() + " on port "
                                                    + profile.port() + " yet",
                                            null,
                                            null,
                                            null);
                                }
                                return Panache.withTransaction(
                                        () -> sessions.mint(id, c.userId(), target.asAdmin(), profile.start()));
                            })
                            .map(ticket -> new Opened(
                                    proxy.origin(id) + "/_crater/enter?ticket=" + ticket,
                                    proxy.origin(id),
                                    clock.instant().plus(config.ticketTtl())));
                }));
    }
}
