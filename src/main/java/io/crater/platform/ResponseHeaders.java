package io.crater.platform;

import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Sets {@link HeaderPolicy}'s headers on every answer of the main server, just before its headers are written
 * (so the static handler's own {@code Cache-Control} is replaced, and the answer's final type is known). The
 * backend's paths are the ones the console's build never answers: Quinoa's ignored prefixes.
 */
@ApplicationScoped
public class ResponseHeaders {

    @ConfigProperty(name = "quarkus.quinoa.ignored-path-prefixes")
    List<String> backendPrefixes;

    void routes(@Observes Router router) {
        router.route().order(RouteConstants.ROUTE_ORDER_HEADERS).handler(this::decorate);
    }

    private void decorate(RoutingContext rc) {
        String path = rc.request().path();
        boolean secure = "https".equals(rc.request().scheme());
        boolean console = backendPrefixes.stream().noneMatch(p -> path.equals(p) || path.startsWith(p + "/"));
        HttpServerResponse res = rc.response();
        rc.addHeadersEndHandler(v -> HeaderPolicy.headers(path, res.headers().get("Content-Type"), secure, console)
                .forEach(res::putHeader));
        rc.next();
    }
}
