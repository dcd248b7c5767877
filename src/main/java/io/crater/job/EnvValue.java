package io.crater.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Map;

/**
 * A value of a job's environment as written in its spec: plain text ({@code "HF_HOME": "/data/hf"}) or a
 * reference to one of the submitter's credentials ({@code "HF_TOKEN": {"credential": "hf"}}), whose value the job
 * receives through a Secret and that nothing else shows. Anything else reads as {@link #invalid()}, which the
 * job checks refuse by field.
 */
public record EnvValue(String value, String credential) {

    /** Plain text. */
    public static EnvValue plain(String value) {
        return new EnvValue(value, null);
    }

    /** A reference to the credential of this name. */
    public static EnvValue reference(String credential) {
        return new EnvValue(null, credential);
    }

    /** Reads a string, a number or a boolean as plain text and {@code {"credential": name}} as a reference. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static EnvValue of(Object json) {
        if (json instanceof String s) {
            return plain(s);
        }
        if (json instanceof Number || json instanceof Boolean) {
            return plain(json.toString());
        }
        if (json instanceof Map<?, ?> m && m.size() == 1 && m.get("credential") instanceof String c) {
            return reference(c);
        }
        return new EnvValue(null, null);
    }

    /** Neither text nor a reference: what the spec held is not an environment value. */
    public boolean invalid() {
        return value == null && credential == null;
    }

    @JsonValue
    Object json() {
        return credential != null ? Map.of("credential", credential) : value;
    }
}
