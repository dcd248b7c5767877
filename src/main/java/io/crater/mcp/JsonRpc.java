package io.crater.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** JSON-RPC 2.0 messages: the standard error codes, answers and errors. */
final class JsonRpc {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;

    private JsonRpc() {}

    static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode m = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0");
        m.set("id", id == null ? NullNode.instance : id);
        m.set("result", result);
        return m;
    }

    static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode m = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0");
        m.set("id", id == null ? NullNode.instance : id);
        m.putObject("error").put("code", code).put("message", message);
        return m;
    }

    static ObjectNode error(JsonNode id, int code, String message, JsonNode data) {
        ObjectNode m = error(id, code, message);
        ((ObjectNode) m.get("error")).set("data", data);
        return m;
    }

    /** A request: an object with {@code jsonrpc: "2.0"}, a method, and an id that is a string or a number. */
    static boolean isRequest(JsonNode m) {
        return isMessage(m) && m.path("method").isTextual() && m.has("id") && validId(m.get("id"));
    }

    /** A notification: a method and no id. */
    static boolean isNotification(JsonNode m) {
        return isMessage(m) && m.path("method").isTextual() && !m.has("id");
    }

    /** A response to something the server asked (it asks nothing, so it is only accepted). */
    static boolean isResponse(JsonNode m) {
        return isMessage(m) && !m.has("method") && m.has("id") && (m.has("result") || m.has("error"));
    }

    private static boolean isMessage(JsonNode m) {
        return m != null && m.isObject() && "2.0".equals(m.path("jsonrpc").asText(null));
    }

    private static boolean validId(JsonNode id) {
        return id.isTextual() || id.isIntegralNumber();
    }

    /** The id of a message to answer an invalid one with, when it has a usable one. */
    static JsonNode idOf(JsonNode m) {
        return m != null && m.isObject() && m.has("id") && validId(m.get("id")) ? m.get("id") : null;
    }
}
