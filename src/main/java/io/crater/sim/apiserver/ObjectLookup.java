package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Read access to the API server's stored objects of the core group for what plays the cluster while it serves a
 * request (a kubelet reading the node of a pod it starts a shell in, or a Secret), without a round trip through the
 * API.
 */
@FunctionalInterface
public interface ObjectLookup {

    /** The stored object of the core (v1) resource, e.g. {@code nodes} or {@code secrets}, or null when absent. */
    JsonNode core(String resource, String namespace, String name);
}
