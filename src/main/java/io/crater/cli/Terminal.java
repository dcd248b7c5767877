package io.crater.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * Where a command reads and writes: its streams, its environment, and whether a person is at a terminal (which
 * decides colours, prompts and progress). Tests build one over buffers; {@link #system()} is the real one.
 */
public record Terminal(
        PrintStream out, PrintStream err, InputStream in, Map<String, String> env, boolean interactive, int width) {

    /** The process's own streams and environment. */
    public static Terminal system() {
        boolean tty = System.console() != null;
        int width = 0;
        String columns = System.getenv("COLUMNS");
        if (columns != null && columns.matches("\\d{1,4}")) {
            width = Integer.parseInt(columns);
        }
        return new Terminal(
                new PrintStream(System.out, true, StandardCharsets.UTF_8),
                new PrintStream(System.err, true, StandardCharsets.UTF_8),
                System.in,
                System.getenv(),
                tty,
                width);
    }

    /** An environment variable, or null. */
    public String env(String name) {
        String v = env.get(name);
        return v == null || v.isEmpty() ? null : v;
    }

    /** Colours only for a person at a terminal, and never when NO_COLOR is set (https://no-color.org). */
    public boolean colours(boolean noColorFlag) {
        return interactive && !noColorFlag && env("NO_COLOR") == null && !"dumb".equals(env("TERM"));
    }

    /** The language of messages: CRATER_LANG, else LC_ALL, LC_MESSAGES, LANG; zh-CN for any Chinese locale. */
    public Locale locale() {
        for (String name : new String[] {"CRATER_LANG", "LC_ALL", "LC_MESSAGES", "LANG"}) {
            String v = env(name);
            if (v != null) {
                return v.toLowerCase(Locale.ROOT).startsWith("zh") ? Locale.SIMPLIFIED_CHINESE : Locale.ENGLISH;
            }
        }
        return Locale.ENGLISH;
    }
}
