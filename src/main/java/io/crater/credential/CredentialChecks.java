package io.crater.credential;

import io.crater.platform.Problem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** The checks of what a user stores: names, kinds, the registry's fields, the value's size. */
final class CredentialChecks {

    static final Pattern NAME = Pattern.compile("^[a-z0-9-]{1,40}$");
    static final Set<String> KINDS = Set.of("huggingface", "modelscope", "wandb", "registry", "generic");
    static final int MAX_VALUE_BYTES = 16 * 1024;
    static final int MAX_DESCRIPTION = 500;
    private static final Pattern HOST = Pattern.compile("^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})(:[0-9]{1,5})?$");
    private static final int MAX_USERNAME = 200;

    private CredentialChecks() {}

    static boolean validName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /** The field errors of a new credential; empty when it may be stored. */
    static List<Problem.FieldError> create(CredentialViews.CreateCredential req) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (!validName(req.name())) {
            errors.add(new Problem.FieldError("name", "1 to 40 lowercase letters, digits or -"));
        }
        if (req.kind() == null || !KINDS.contains(req.kind())) {
            errors.add(new Problem.FieldError("kind", "one of huggingface, modelscope, wandb, registry, generic"));
        } else if (req.kind().equals("registry")) {
            registry(req.host(), req.username(), true, errors);
        } else {
            if (req.host() != null) {
                errors.add(new Problem.FieldError("host", "only registry credentials have a host"));
            }
            if (req.username() != null) {
                errors.add(new Problem.FieldError("username", "only registry credentials have a username"));
            }
        }
        description(req.description(), errors);
        value(req.value(), errors);
        return errors;
    }

    /** The field errors of a replacement of a credential of {@code kind}. */
    static List<Problem.FieldError> replace(String kind, CredentialViews.ReplaceCredential req) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if ("registry".equals(kind)) {
            registry(req.host(), req.username(), false, errors);
        } else {
            if (req.host() != null) {
                errors.add(new Problem.FieldError("host", "only registry credentials have a host"));
            }
            if (req.username() != null) {
                errors.add(new Problem.FieldError("username", "only registry credentials have a username"));
            }
        }
        description(req.description(), errors);
        value(req.value(), errors);
        return errors;
    }

    private static void registry(String host, String username, boolean required, List<Problem.FieldError> errors) {
        if (host == null ? required : !HOST.matcher(host).matches()) {
            errors.add(new Problem.FieldError("host", "the registry's host name, with a port if any (ghcr.io)"));
        }
        if (username == null
                ? required
                : username.isBlank()
                        || username.length() > MAX_USERNAME
                        || username.chars().anyMatch(Character::isWhitespace)) {
            errors.add(new Problem.FieldError(
                    "username", "the registry's user name: 1 to " + MAX_USERNAME + " characters without spaces"));
        }
    }

    private static void description(String description, List<Problem.FieldError> errors) {
        if (description != null && description.length() > MAX_DESCRIPTION) {
            errors.add(new Problem.FieldError(
                    "description",
                    "at most " + MAX_DESCRIPTION + " characters (this one has " + description.length() + ")"));
        }
    }

    private static void value(String value, List<Problem.FieldError> errors) {
        if (value == null || value.isEmpty()) {
            errors.add(new Problem.FieldError("value", "required"));
            return;
        }
        int bytes = value.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_VALUE_BYTES) {
            errors.add(new Problem.FieldError(
                    "value", "at most " + MAX_VALUE_BYTES + " bytes (this one has " + bytes + ")"));
        }
    }
}
