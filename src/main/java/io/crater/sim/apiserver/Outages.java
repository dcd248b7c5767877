package io.crater.sim.apiserver;

import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Requests the simulated API server fails on purpose, so a test can play an API server that refuses some calls for a
 * while (an overloaded or restarting control plane): a rule names the HTTP methods, the resource (its plural, e.g.
 * {@code leases}) and a part of the client's {@code User-Agent} (Crater's server sends {@code crater-server}); a
 * matching request is answered 503 {@code ServiceUnavailable}, as a real API server answers when it cannot serve,
 * and changes nothing. No rule is set unless a test adds one.
 */
public final class Outages {

    /** Failed requests: methods (e.g. PUT, PATCH), a resource's plural, and a part of the user agent. */
    public record Rule(Set<String> methods, String resource, String agent) {
        boolean matches(String method, String resource, String agent) {
            return methods.contains(method)
                    && this.resource.equals(resource)
                    && agent != null
                    && agent.contains(this.agent);
        }
    }

    private final List<Rule> rules = new CopyOnWriteArrayList<>();

    /** From now on, requests the rule names fail. */
    public void fail(Rule rule) {
        rules.add(rule);
    }

    /** Every request is served again. */
    public void end() {
        rules.clear();
    }

    /** Throws the 503 for a request a rule names. */
    void check(HttpServerRequest req, ApiResource resource) {
        if (rules.isEmpty()) {
            return;
        }
        for (Rule r : rules) {
            if (r.matches(req.method().name(), resource.plural(), req.getHeader("User-Agent"))) {
                throw new ApiError(503, "ServiceUnavailable", "the server is currently unable to handle the request");
            }
        }
    }
}
