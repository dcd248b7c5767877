package io.crater.platform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Renders every error of the HTTP API as RFC 9457 problem+json. A 500 is logged and never leaks a stack trace. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @Inject
    ObjectMapper json;

    private volatile byte[] index;

    @Inject
    AuditTrail audit;

    @Inject
    CurrentIdentityAssociation identity;

    @ServerExceptionMapper
    public Uni<Response> api(ApiException e, UriInfo uri, HttpServerRequest request) {
        Response.ResponseBuilder r = respond(e.status(), e.code(), e.title(), e.getMessage(), uri, e);
        if (e.retryAfter() != null) {
            r.header("Retry-After", Math.max(1, (e.retryAfter().toMillis() + 999) / 1000));
        }
        if (e.status() == 401) {
            r.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"crater\"");
        }
        Response response = r.build();
        return e.status() == 403
                ? recordDenied(e.code(), request).replaceWith(response)
                : Uni.createFrom().item(response);
    }

    @ServerExceptionMapper
    public Response malformedJson(JsonProcessingException e, UriInfo uri) {
        String detail = "the request body is not valid JSON for this endpoint: " + e.getOriginalMessage();
        return respond(400, "MalformedJson", "Bad request", detail, uri, null).build();
    }

    @ServerExceptionMapper({UnauthorizedException.class, AuthenticationFailedException.class})
    public Response unauthenticated(RuntimeException e, UriInfo uri) {
        return respond(
                        401,
                        "Unauthenticated",
                        "Unauthorized",
                        "sign in first: no valid access token was presented",
                        uri,
                        null)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"crater\"")
                .build();
    }

    @ServerExceptionMapper
    public Uni<Response> forbidden(ForbiddenException e, UriInfo uri, HttpServerRequest request) {
        Response response = respond(403, "Forbidden", "Forbidden", "you may not do this", uri, null)
                .build();
        return recordDenied("Forbidden", request).replaceWith(response);
    }

    /** Every refused call leaves a row in the denied-attempts log; failing to write it never hides the 403. */
    private Uni<Void> recordDenied(String code, HttpServerRequest request) {
        String address =
                request.remoteAddress() == null ? null : request.remoteAddress().hostAddress();
        String method = request.method().name();
        String path = request.path();
        return identity.getDeferredIdentity()
                .map(id -> id == null || id.isAnonymous()
                        ? null
                        : id.getPrincipal().getName())
                .onFailure()
                .recoverWithItem((String) null)
                .flatMap(actor -> OnContext.run(() -> audit.denied(actor, method, path, code, address)))
                .onFailure()
                .invoke(t -> LOG.warn("recording a denied attempt failed", t))
                .onFailure()
                .recoverWithNull();
    }

    /**
     * Maps the REST layer's own refusals except 404: an unmatched request is handed on, to the console's
     * single-page routes or to {@link ApiNotFoundRoute} under {@code /api}.
     */
    /**
     * Nothing serves the path. Under {@code /api} and {@code /q} that is a 404 problem; every other path belongs
     * to the console, whose single-page app routes it in the browser, so it gets the app's index page.
     */
    @ServerExceptionMapper
    public Response notFound(NotFoundException e, UriInfo uri) {
        String path = uri.getPath();
        byte[] index = consoleIndex();
        if (path.startsWith("/api/") || path.equals("/api") || path.startsWith("/q/") || index == null) {
            return respond(404, "NotFound", "Not found", "no API resource at " + path, uri, null)
                    .build();
        }
        return Response.ok(index, MediaType.TEXT_HTML_TYPE)
                .header("Cache-Control", "no-cache")
                .build();
    }

    private byte[] consoleIndex() {
        byte[] cached = index;
        if (cached == null) {
            try (InputStream in = Thread.currentThread()
                    .getContextClassLoader()
                    .getResourceAsStream("META-INF/resources/index.html")) {
                cached = in == null ? new byte[0] : in.readAllBytes();
            } catch (IOException ex) {
                cached = new byte[0];
            }
            index = cached;
        }
        return cached.length == 0 ? null : cached;
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, UriInfo uri) {
        int status = e.getResponse().getStatus();
        if (e.getCause() instanceof JsonProcessingException jpe) {
            return malformedJson(jpe, uri);
        }
        String code = switch (status) {
            case 400 -> "BadRequest";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 406 -> "NotAcceptable";
            case 415 -> "UnsupportedMediaType";
            default -> status >= 500 ? "InternalError" : "RequestRefused";
        };
        String detail = status == 404 ? "no API resource at " + uri.getPath() : e.getMessage();
        if (status >= 500) {
            return unexpected(e, uri);
        }
        Response.ResponseBuilder r = respond(
                status,
                code,
                Response.Status.fromStatusCode(status) == null
                        ? "Error"
                        : Response.Status.fromStatusCode(status).getReasonPhrase(),
                detail,
                uri,
                null);
        e.getResponse().getHeaders().forEach((k, v) -> {
            if (k.equalsIgnoreCase("Allow")) {
                r.header(k, v.get(0));
            }
        });
        return r.build();
    }

    @ServerExceptionMapper(priority = 10_000)
    public Response unexpected(Throwable e, UriInfo uri) {
        if (DatabaseOutage.is(e)) {
            LOG.warnf("the database is unreachable on %s (%s): answered 503", uri.getPath(), e.getMessage());
            return respond(
                            503,
                            "DatabaseUnavailable",
                            "Service unavailable",
                            "Crater cannot reach its database right now; nothing was changed. Try again in a few seconds.",
                            uri,
                            null)
                    .header("Retry-After", 2)
                    .build();
        }
        String incident = UUID.randomUUID().toString();
        LOG.errorf(e, "unexpected error on %s (incident %s)", uri.getPath(), incident);
        return respond(
                        500,
                        "InternalError",
                        "Internal server error",
                        "something went wrong on Crater's side; incident " + incident,
                        uri,
                        null)
                .build();
    }

    private Response.ResponseBuilder respond(
            int status, String code, String title, String detail, UriInfo uri, ApiException api) {
        Problem p = new Problem(
                Problem.typeFor(code),
                title,
                status,
                detail,
                uri == null ? null : uri.getPath(),
                code,
                api == null ? List.of() : api.reasons(),
                api == null ? List.of() : api.errors());
        try {
            return Response.status(status).type(Problem.MEDIA_TYPE).entity(json.writeValueAsString(p));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
