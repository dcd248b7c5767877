package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * Reads a request body by its {@code Content-Type}, as the API server negotiates it: JSON, YAML and Kubernetes'
 * protobuf ({@link Protobuf}) for objects; for a patch, its patch type. CBOR (which the real server serves only behind
 * a feature gate) and anything else is 415 {@code UnsupportedMediaType} with the media types accepted, the answer on
 * which a client that tried CBOR falls back to JSON.
 */
final class RequestBodies {

    /** The media types an object may be sent in. */
    static final List<String> OBJECT_TYPES = List.of("application/json", "application/yaml", Protobuf.MEDIA_TYPE);

    /** The patch types served: JSON patch, JSON merge patch, strategic merge patch and server-side apply. */
    static final List<String> PATCH_TYPES = List.of(
            "application/json-patch+json",
            "application/merge-patch+json",
            "application/strategic-merge-patch+json",
            "application/apply-patch+yaml");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private RequestBodies() {}

    /** The media type of a {@code Content-Type} header, lower case, without parameters ("" when there is none). */
    static String mediaType(String contentType) {
        return contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
    }

    /** An object sent to be created or to replace one. */
    static ObjectNode object(String contentType, byte[] body) {
        String type = mediaType(contentType);
        JsonNode tree = switch (type) {
            case "", "application/json", "*/*" -> parse(JSON, body, "JSON");
            case "application/yaml" -> parse(YAML, body, "YAML");
            case Protobuf.MEDIA_TYPE -> {
                need(body);
                yield Protobuf.decode(body);
            }
            default -> throw unsupported(OBJECT_TYPES);
        };
        if (!(tree instanceof ObjectNode o)) {
            throw new ApiError(400, "BadRequest", "the request body is not an object");
        }
        return o;
    }

    /** A patch of one of {@link #PATCH_TYPES}; 415 for any other. */
    static JsonNode patch(String contentType, byte[] body) {
        String type = mediaType(contentType);
        if (!PATCH_TYPES.contains(type)) {
            throw unsupported(PATCH_TYPES);
        }
        return parse(type.endsWith("+yaml") ? YAML : JSON, body, type.endsWith("+yaml") ? "YAML" : "JSON");
    }

    /** Options sent with a delete (JSON, or nothing). */
    static JsonNode options(String contentType, byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        return mediaType(contentType).equals(Protobuf.MEDIA_TYPE) ? Protobuf.decode(body) : parse(JSON, body, "JSON");
    }

    private static JsonNode parse(ObjectMapper mapper, byte[] body, String format) {
        need(body);
        try {
            JsonNode tree = mapper.readTree(body);
            if (tree == null || tree.isMissingNode()) {
                throw new ApiError(400, "BadRequest", "the request needs a body");
            }
            return tree;
        } catch (IOException e) {
            throw new ApiError(400, "BadRequest", "the request body is not " + format + ": " + e.getMessage());
        }
    }

    private static void need(byte[] body) {
        if (body == null || body.length == 0) {
            throw new ApiError(400, "BadRequest", "the request needs a body");
        }
    }

    private static ApiError unsupported(List<String> accepted) {
        return new ApiError(
                415,
                "UnsupportedMediaType",
                "the body of the request was in an unknown format - accepted media types include: "
                        + String.join(", ", accepted));
    }
}
