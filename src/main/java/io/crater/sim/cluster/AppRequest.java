package io.crater.sim.cluster;

import java.util.List;
import java.util.Map;

/**
 * A request the simulated cluster's built-in app received, as the app inside the pod would see it after Crater's
 * proxy and the port-forward: tests read these ({@link Simulator#appRequests}) to check what reaches an app, for
 * instance that Crater's own cookies and {@code Authorization} never do.
 *
 * @param uri the path and query as requested
 * @param headers every header by its lower-case name, in the order received
 */
public record AppRequest(String method, String uri, Map<String, List<String>> headers) {

    /** The first value of a header (any case), or null when the request had none. */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase());
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
