package io.crater.platform;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.crater.policy.Reason;
import java.util.List;

/**
 * An RFC 9457 problem detail, Crater's only error body: {@code type}, {@code title}, {@code status},
 * {@code detail}, {@code instance}, plus a stable {@code code}, decision {@code reasons} with their numbers and
 * field {@code errors}.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(
        String type,
        String title,
        int status,
        String detail,
        String instance,
        String code,
        List<Reason> reasons,
        List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    /** One invalid field of a request. */
    public record FieldError(String field, String message) {}

    public static String typeFor(String code) {
        return "urn:crater:problem:" + code;
    }
}
