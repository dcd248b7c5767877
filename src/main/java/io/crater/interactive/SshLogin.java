package io.crater.interactive;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The SSH user name {@code <user>+<job>[+<task>-<index>]}: who logs in, into which job, and which of its pods
 * (the first running one when none is named).
 */
public record SshLogin(String user, String job, String taskIndex) {

    private static final Pattern FORM = Pattern.compile(
            "^([A-Za-z0-9._@-]{1,64})\\+(j[a-z0-9]{5,12})(?:\\+([a-z0-9]([a-z0-9-]{0,40}[a-z0-9])?-[0-9]{1,4}))?$");

    /** The login, or empty when the name is not of that form. */
    public static Optional<SshLogin> parse(String name) {
        if (name == null) {
            return Optional.empty();
        }
        var m = FORM.matcher(name);
        return m.matches() ? Optional.of(new SshLogin(m.group(1), m.group(2), m.group(3))) : Optional.empty();
    }
}
