package io.crater.platform;

import io.crater.policy.Reason;
import java.time.Duration;
import java.util.List;

/**
 * A request Crater refuses, carried to the client as problem+json. Services throw (or fail a Uni with) it;
 * {@link ProblemMappers} renders it.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final String title;
    private final List<Reason> reasons;
    private final List<Problem.FieldError> errors;
    private final Duration retryAfter;

    public ApiException(
            int status,
            String code,
            String title,
            String detail,
            List<Reason> reasons,
            List<Problem.FieldError> errors,
            Duration retryAfter) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.title = title;
        this.reasons = reasons == null ? List.of() : reasons;
        this.errors = errors == null ? List.of() : errors;
        this.retryAfter = retryAfter;
    }

    public static ApiException badRequest(String code, String detail, List<Problem.FieldError> errors) {
        return new ApiException(400, code, "Bad request", detail, null, errors, null);
    }

    public static ApiException unauthorized(String code, String detail) {
        return new ApiException(401, code, "Unauthorized", detail, null, null, null);
    }

    public static ApiException forbidden(String code, String detail) {
        return new ApiException(403, code, "Forbidden", detail, null, null, null);
    }

    public static ApiException notFound(String detail) {
        return new ApiException(404, "NotFound", "Not found", detail, null, null, null);
    }

    public static ApiException conflict(String code, String detail) {
        return new ApiException(409, code, "Conflict", detail, null, null, null);
    }

    public static ApiException tooManyRequests(String code, String detail, Duration retryAfter) {
        return new ApiException(429, code, "Too many requests", detail, null, null, retryAfter);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String title() {
        return title;
    }

    public List<Reason> reasons() {
        return reasons;
    }

    public List<Problem.FieldError> errors() {
        return errors;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
