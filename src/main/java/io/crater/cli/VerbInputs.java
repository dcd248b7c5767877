package io.crater.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What several verbs read from their command line: the account acted in, times, files. */
final class VerbInputs {

    private static final Pattern SPAN = Pattern.compile("(\\d+)([smhdw])");

    private VerbInputs() {}

    /** The account a verb acts in: {@code -a SLUG}, else CRATER_ACCOUNT or the context's, else my default. */
    static String account(Verb v) {
        String a = v.api().account();
        if (a != null) {
            return a;
        }
        String def = Values.text(v.api().get("/api/v1/me"), "defaultAccount");
        if (def == null) {
            throw new CliException(Exit.USAGE, v.msg().get("input.noAccount"));
        }
        return def;
    }

    /** My username, from {@code /api/v1/me}. */
    static String me(Verb v) {
        return Values.text(v.api().get("/api/v1/me"), "username");
    }

    /**
     * A time: an ISO instant ({@code 2026-12-06T00:00:00Z}), a date ({@code 2026-12-06}, midnight UTC), or a span
     * from now ({@code 48h}, {@code 3d}, {@code 1w}; {@code ago} makes it past: {@code 24h ago}).
     */
    static Instant time(String text, Instant now, String option, Messages msg) {
        String s = text.strip();
        boolean ago = s.endsWith(" ago") || s.startsWith("-");
        String span = s.replace(" ago", "").replaceFirst("^-", "").strip();
        Matcher m = SPAN.matcher(span);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d = switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
            };
            return (ago ? now.minus(d) : now.plus(d)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        }
        try {
            return Instant.parse(s);
        } catch (java.time.format.DateTimeParseException e) {
            try {
                return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
            } catch (java.time.format.DateTimeParseException e2) {
                throw new CliException(Exit.USAGE, msg.get("input.badTime", option, text));
            }
        }
    }

    /** A file's text; {@code -} reads standard input. */
    static String file(Verb v, String name) {
        if (name.equals("-")) {
            return v.readAll();
        }
        try {
            return Files.readString(Path.of(name), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new CliException(Exit.NOT_FOUND, v.msg().get("input.noFile", name));
        } catch (IOException e) {
            throw new CliException(Exit.ERROR, v.msg().get("input.unreadable", name, e.getMessage()));
        }
    }

    /** A YAML (or JSON) document that must be a mapping. */
    static Map<String, Object> yamlMap(Verb v, String name, String text) {
        Object doc;
        try {
            doc = new org.yaml.snakeyaml.Yaml().load(text);
        } catch (RuntimeException e) {
            throw new CliException(Exit.USAGE, v.msg().get("input.badYaml", name, e.getMessage()));
        }
        if (!(doc instanceof Map<?, ?>)) {
            throw new CliException(Exit.USAGE, v.msg().get("input.notMapping", name));
        }
        return Values.map(doc);
    }

    /** The text of a template, account or model in the terminal's language: its i18n entry, else the field. */
    static String localised(Messages msg, Object o, String field) {
        if (msg.chinese()) {
            String zh = Values.text(Values.map(Values.at(o, "i18n")).get("zh-CN"), field);
            if (zh != null && !zh.isBlank()) {
                return zh;
            }
        }
        return Values.text(o, field);
    }
}
