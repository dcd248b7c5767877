package io.crater.cli;

/** Output made comparable with a golden file: times and given words replaced by fixed ones. */
final class CliText {

    private CliText() {}

    /** ISO instants become {@code <TIME>}; each {@code names[i]} becomes {@code names[i+1]}. */
    static String normalise(String text, String... names) {
        String s = text.replaceAll("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z", "<TIME>");
        for (int i = 0; i + 1 < names.length; i += 2) {
            s = s.replace(names[i], names[i + 1]);
        }
        return s;
    }

    /** Pretty JSON with its times and numeric ids ({@code "id" : 17}) replaced. */
    static String json(String text, String... names) {
        return normalise(text, names).replaceAll("\"id\" : \\d+", "\"id\" : 0");
    }

    /** The lines of a table under a heading (up to the next blank line) replaced by one word. */
    static String withoutTableAfter(String text, String heading) {
        return text.replaceAll("(?s)(" + java.util.regex.Pattern.quote(heading) + "\n).*?\n\n", "$1<TABLE>\n\n");
    }
}
