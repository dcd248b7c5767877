package io.crater.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The Model Context Protocol over Streamable HTTP (docs/agents.md): JSON-RPC 2.0 posted to {@code /mcp}, each
 * request answered with one JSON body. The caller is the bearer token's user, resolved as on every API call.
 */
@Path("/mcp")
@Tag(name = "mcp")
public class McpResource {

    static final String SESSION = "Mcp-Session-Id";
    static final String VERSION = "MCP-Protocol-Version";

    /** The version whose sessions take JSON-RPC batches (2025-06-18 dropped them). */
    static final String BATCHING_VERSION = "2025-03-26";

    @Inject
    CurrentUser current;

    @Inject
    McpSessions sessions;

    @Inject
    McpProtocol protocol;

    @Inject
    McpConfig config;

    @Inject
    ObjectMapper json;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "MCP messages (JSON-RPC 2.0): initialize, ping, tools/list, tools/call, notifications")
    public Uni<Response> post(String body, @Context HttpHeaders headers) {
        if (!McpOrigins.allowed(
                headers.getHeaderString("Origin"),
                headers.getHeaderString(HttpHeaders.HOST),
                config.allowedOrigins().orElse(List.of()))) {
            return now(403, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "requests from this Origin are refused"));
        }
        requireBearer(headers);
        String version = headers.getHeaderString(VERSION);
        if (version != null && !McpProtocol.VERSIONS.contains(version)) {
            return now(
                    400,
                    JsonRpc.error(
                            null,
                            JsonRpc.INVALID_REQUEST,
                            "unsupported " + VERSION + " " + version + "; supported: " + McpProtocol.VERSIONS));
        }
        JsonNode message;
        try {
            message = body == null || body.isBlank() ? null : json.readTree(body);
        } catch (JsonProcessingException e) {
            message = null;
        }
        if (message == null || message.isMissingNode()) {
            return now(400, JsonRpc.error(null, JsonRpc.PARSE_ERROR, "the body is not JSON"));
        }
        JsonNode m = message;
        return current.caller().flatMap(c -> handle(m, headers, c));
    }

    @GET
    @Operation(summary = "No server-initiated stream: 405")
    public Response get(@Context HttpHeaders headers) {
        requireBearer(headers);
        throw new NotAllowedException(
                "Crater sends no server-initiated messages: POST requests to /mcp", "POST", new String[] {"DELETE"});
    }

    @DELETE
    @Operation(summary = "End an MCP session (Mcp-Session-Id)")
    public Uni<Response> delete(@Context HttpHeaders headers) {
        requireBearer(headers);
        String id = headers.getHeaderString(SESSION);
        if (id == null || id.isBlank()) {
            throw ApiException.badRequest(
                    "InvalidRequest",
                    "name the session to end in the " + SESSION + " header",
                    List.of(new Problem.FieldError(SESSION, "required")));
        }
        return current.caller().flatMap(c -> sessions.end(id, c.userId())).map(ended -> {
            if (!ended) {
                throw ApiException.notFound("no such MCP session (it ended, expired or is another user's)");
            }
            return Response.noContent().build();
        });
    }

    private Uni<Response> handle(JsonNode m, HttpHeaders headers, Caller caller) {
        if (JsonRpc.isRequest(m) && "initialize".equals(m.get("method").asText())) {
            return initialize(m, caller);
        }
        String id = headers.getHeaderString(SESSION);
        if (id == null || id.isBlank()) {
            return now(
                    400,
                    JsonRpc.error(
                            JsonRpc.idOf(m), JsonRpc.INVALID_REQUEST, SESSION + " is required: call initialize first"));
        }
        return sessions.find(id, caller.userId()).flatMap(s -> {
            if (s == null) {
                return now(
                        404,
                        JsonRpc.error(
                                JsonRpc.idOf(m),
                                JsonRpc.INVALID_REQUEST,
                                "no such session (it ended, expired or is another user's): initialize a new one"));
            }
            String version = headers.getHeaderString(VERSION);
            if (version != null && !version.equals(s.protocolVersion())) {
                return now(
                        400,
                        JsonRpc.error(
                                JsonRpc.idOf(m),
                                JsonRpc.INVALID_REQUEST,
                                VERSION + " " + version + " is not this session's " + s.protocolVersion()));
            }
            if (m.isArray()) {
                return batch((ArrayNode) m, s, caller);
            }
            return one(m, caller)
                    .map(answer -> answer == null
                            ? Response.accepted().build()
                            : Response.status(invalid(answer) ? 400 : 200)
                                    .entity(answer)
                                    .type(MediaType.APPLICATION_JSON)
                                    .build());
        });
    }

    private static boolean invalid(JsonNode answer) {
        return answer.path("error").path("code").asInt() == JsonRpc.INVALID_REQUEST;
    }

    private Uni<Response> initialize(JsonNode m, Caller caller) {
        JsonNode requested = m.path("params").path("protocolVersion");
        if (!requested.isTextual()) {
            return now(
                    200, JsonRpc.error(m.get("id"), JsonRpc.INVALID_PARAMS, "params.protocolVersion must be a string"));
        }
        String version = McpProtocol.negotiate(requested.asText());
        return sessions.issue(caller.userId(), version)
                .map(id -> Response.ok(JsonRpc.result(m.get("id"), protocol.initialized(version)))
                        .type(MediaType.APPLICATION_JSON)
                        .header(SESSION, id)
                        .build());
    }

    /** The answer to one message of a session; null for a notification or a response (202, no body). */
    private Uni<JsonNode> one(JsonNode m, Caller caller) {
        if (JsonRpc.isNotification(m) || JsonRpc.isResponse(m)) {
            return Uni.createFrom().nullItem();
        }
        if (!JsonRpc.isRequest(m)) {
            return Uni.createFrom()
                    .item(JsonRpc.error(
                            JsonRpc.idOf(m),
                            JsonRpc.INVALID_REQUEST,
                            "not a JSON-RPC 2.0 request: jsonrpc \"2.0\", a method and an id (string or number)"));
        }
        return protocol.answer(m, caller).map(a -> (JsonNode) a);
    }

    private Uni<Response> batch(ArrayNode messages, McpSessions.Session s, Caller caller) {
        if (!BATCHING_VERSION.equals(s.protocolVersion()) || messages.isEmpty()) {
            return now(
                    400,
                    JsonRpc.error(
                            null,
                            JsonRpc.INVALID_REQUEST,
                            messages.isEmpty()
                                    ? "an empty batch"
                                    : "protocol version " + s.protocolVersion() + " has no JSON-RPC batches"));
        }
        return Multi.createFrom()
                .iterable(messages)
                .onItem()
                .transformToUniAndConcatenate(m -> JsonRpc.isRequest(m)
                                && "initialize".equals(m.get("method").asText())
                        ? Uni.createFrom().item((JsonNode)
                                JsonRpc.error(m.get("id"), JsonRpc.INVALID_REQUEST, "initialize cannot be batched"))
                        : one(m, caller))
                .collect()
                .asList()
                .map(answers -> {
                    ArrayNode out = json.createArrayNode();
                    answers.forEach(out::add);
                    return out.isEmpty()
                            ? Response.accepted().build()
                            : Response.ok(out).type(MediaType.APPLICATION_JSON).build();
                });
    }

    /** Only a bearer token opens {@code /mcp}: the console's cookies are not accepted here. */
    private static void requireBearer(HttpHeaders headers) {
        String auth = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (auth == null
                || !auth.regionMatches(true, 0, "Bearer ", 0, 7)
                || auth.substring(7).isBlank()) {
            throw ApiException.unauthorized(
                    "Unauthenticated", "send an access token or a personal access token as Authorization: Bearer");
        }
    }

    private static Uni<Response> now(int status, JsonNode body) {
        return Uni.createFrom()
                .item(Response.status(status)
                        .entity(body)
                        .type(MediaType.APPLICATION_JSON)
                        .build());
    }
}
