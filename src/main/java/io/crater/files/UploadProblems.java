package io.crater.files;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.OnContext;
import io.crater.platform.Problem;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * The upload route's answers, in the same problem+json as the rest of the API (the REST layer's mappers do not see
 * a Vert.x route). A refused upload closes the connection, so a body still on its way is not read.
 */
@ApplicationScoped
class UploadProblems {

    private static final Logger LOG = Logger.getLogger(UploadProblems.class);

    @Inject
    ObjectMapper json;

    @Inject
    AuditTrail audit;

    void created(RoutingContext rc, FileViews.Entry entry) {
        try {
            rc.response()
                    .setStatusCode(201)
                    .putHeader("Content-Type", "application/json")
                    .end(json.writeValueAsString(entry));
        } catch (JsonProcessingException e) {
            fail(rc, e);
        }
    }

    static ApiException tooLong(long declared) {
        return new ApiException(
                413,
                "UploadLongerThanDeclared",
                "Content too large",
                "the body is longer than the " + declared + " bytes declared in Content-Length; nothing was kept",
                null,
                null,
                null);
    }

    void fail(RoutingContext rc, Throwable t) {
        send(rc, problem(rc, t), "Bearer realm=\"crater\"", true);
    }

    /**
     * WebDAV's answer to a refusal: the same problem body, a Basic challenge on 401, and the connection closed only
     * when a request body may still be on its way.
     */
    void failDav(RoutingContext rc, Throwable t) {
        ApiException api = problem(rc, t);
        if ("FileQuotaExceeded".equals(api.code())) {
            // RFC 4918 9.7.1: a PUT (or COPY, MKCOL) over the quota is 507 Insufficient Storage.
            api = new ApiException(
                    507, api.code(), "Insufficient storage", api.getMessage(), api.reasons(), null, null);
        }
        // HTTP/1.1 cannot skip the rest of a body but by closing; HTTP/2 ends just this stream, the others go on.
        boolean close = !rc.request().isEnded() && rc.request().version() != io.vertx.core.http.HttpVersion.HTTP_2;
        send(rc, api, "Basic realm=\"crater\", charset=\"UTF-8\"", close);
    }

    private ApiException problem(RoutingContext rc, Throwable t) {
        Throwable e = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        ApiException api = e instanceof ApiException a ? a : null;
        if (e instanceof UnauthorizedException || e instanceof AuthenticationFailedException) {
            api = ApiException.unauthorized("Unauthenticated", "sign in first: no valid access token was presented");
        }
        if (api == null) {
            String incident = UUID.randomUUID().toString();
            LOG.errorf(
                    e,
                    "%s %s failed (incident %s)",
                    rc.request().method(),
                    rc.request().path(),
                    incident);
            api = new ApiException(
                    500,
                    "InternalError",
                    "Internal server error",
                    "the request failed; incident " + incident,
                    null,
                    null,
                    null);
        }
        denied(rc, api);
        return api;
    }

    private void denied(RoutingContext rc, ApiException api) {
        if (api.status() == 403) {
            String method = rc.request().method().name();
            String path = rc.request().path();
            String address = rc.request().remoteAddress() == null
                    ? null
                    : rc.request().remoteAddress().hostAddress();
            OnContext.run(() -> audit.denied(null, method, path, api.code(), address))
                    .subscribe()
                    .with(x -> {}, x -> LOG.warn("recording a denied upload failed", x));
        }
    }

    private void send(RoutingContext rc, ApiException api, String challenge, boolean close) {
        if (rc.response().ended() || rc.response().closed()) {
            return;
        }
        Problem p = new Problem(
                Problem.typeFor(api.code()),
                api.title(),
                api.status(),
                api.getMessage(),
                rc.request().path(),
                api.code(),
                api.reasons(),
                api.errors() == null ? List.of() : api.errors());
        try {
            var response = rc.response().setStatusCode(api.status()).putHeader("Content-Type", Problem.MEDIA_TYPE);
            if (close) {
                response.putHeader("Connection", "close");
            }
            if (api.status() == 401) {
                response.putHeader("WWW-Authenticate", challenge);
            }
            response.end(json.writeValueAsString(p)).onComplete(x -> {
                if (close) {
                    rc.request().connection().close();
                }
            });
        } catch (JsonProcessingException e) {
            rc.response().setStatusCode(500).end();
        }
    }
}
