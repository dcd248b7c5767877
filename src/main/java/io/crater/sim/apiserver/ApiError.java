package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A failed request, answered as a Kubernetes {@code Status}. */
final class ApiError extends RuntimeException {

    final int code;
    final String reason;

    ApiError(int code, String reason, String message) {
        super(message);
        this.code = code;
        this.reason = reason;
    }

    /** A Kubernetes {@code Status} document. */
    static String status(int code, String reason, String message) {
        ObjectNode s = JsonNodeFactory.instance.objectNode();
        s.put("kind", "Status").put("apiVersion", "v1");
        s.putObject("metadata");
        s.put("status", code < 400 ? "Success" : "Failure")
                .put("message", message)
                .put("reason", reason)
                .put("code", code);
        return s.toString();
    }
}
