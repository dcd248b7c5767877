package io.crater.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The three shells' wrappers around the completion core (resources under io/crater/cli/completion). */
final class CompletionShells {

    private CompletionShells() {}

    static String bash(String core) {
        return resource("crater.bash").replace("@CORE@\n", core);
    }

    static String zsh(String core) {
        return resource("crater.zsh").replace("@CORE@\n", core);
    }

    /** fish cannot run the core itself: it keeps it in a variable, quoted for fish, and hands it to sh. */
    static String fish(String core) {
        return resource("crater.fish").replace("@CORE@", fishQuote(core));
    }

    /** A fish single-quoted string: only backslash and the single quote are escaped there. */
    static String fishQuote(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    static String resource(String name) {
        try (InputStream in = CompletionShells.class.getResourceAsStream("completion/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource io/crater/cli/completion/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
