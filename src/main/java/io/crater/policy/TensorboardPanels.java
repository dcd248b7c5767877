package io.crater.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks on a TensorBoard panel before anything is looked up, and the command line its server runs. A panel has
 * a name and one to {@value #MAX_SOURCES} log folders, each either a folder of a file space ({@code space} and
 * {@code path}) or a job's working directory ({@code job}); each folder shows in TensorBoard under a run-name prefix
 * ({@code name}, by default the folder's last name or the job's id) and is mounted read-only at {@code /logs/<n>}.
 */
public final class TensorboardPanels {

    /** The most log folders one panel shows. */
    public static final int MAX_SOURCES = 8;

    /** The port TensorBoard serves on inside its pod. */
    public static final int PORT = 6006;

    /** Where the n-th folder is mounted. */
    public static final String LOGS = "/logs/";

    private static final Pattern NAME = Pattern.compile("^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$");
    /** A run-name prefix: no {@code ,} or {@code :}, which separate {@code --logdir_spec}'s entries. */
    private static final Pattern PREFIX = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$");

    private static final Pattern JOB = Pattern.compile("^[a-z0-9]{4,32}$");

    private TensorboardPanels() {}

    /** One log folder as asked for: {@code space} and {@code path}, or {@code job}; {@code name} optional. */
    public record Source(String space, String path, String job, String name) {}

    /** What is wrong, under the field the API names ({@code sources[1].path}). */
    public record Refusal(String field, String message) {}

    /** Every refusal of the panel, in order; empty when its sources may be looked up. */
    public static List<Refusal> check(String name, List<Source> sources) {
        List<Refusal> out = new ArrayList<>();
        if (name == null || !NAME.matcher(name).matches()) {
            out.add(new Refusal("name", "1 to 63 lowercase letters, digits or inner '-'"));
        }
        if (sources == null || sources.isEmpty()) {
            out.add(new Refusal("sources", "at least one log folder"));
            return out;
        }
        if (sources.size() > MAX_SOURCES) {
            out.add(new Refusal(
                    "sources", "at most " + MAX_SOURCES + " log folders (this panel has " + sources.size() + ")"));
            return out;
        }
        Set<String> prefixes = new HashSet<>();
        for (int i = 0; i < sources.size(); i++) {
            String field = "sources[" + i + "]";
            Source s = sources.get(i);
            if (s == null || (s.job() == null) == (s.path() == null)) {
                out.add(new Refusal(field, "either {\"space\": …, \"path\": \"/runs\"} or {\"job\": id}"));
                continue;
            }
            if (s.job() != null && (s.space() != null || !JOB.matcher(s.job()).matches())) {
                out.add(new Refusal(field + ".job", "a job's id, without a space"));
                continue;
            }
            if (s.path() != null) {
                FilePaths.Checked p = FilePaths.check(s.path());
                if (!s.path().startsWith("/") || !p.ok()) {
                    out.add(new Refusal(field + ".path", p.ok() ? "an absolute path in the space" : p.refusal()));
                }
            }
            String prefix = prefix(s);
            if (!PREFIX.matcher(prefix).matches()) {
                out.add(new Refusal(
                        field + ".name",
                        (s.name() == null ? "give the folder a name: " : "")
                                + "1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit"));
            } else if (!prefixes.add(prefix)) {
                out.add(new Refusal(field + ".name", "'" + prefix + "' names another folder of this panel already"));
            }
        }
        return out;
    }

    /** The run-name prefix of a folder: its name, else its last path name, else its job's id, else the space. */
    public static String prefix(Source s) {
        if (s.name() != null) {
            return s.name();
        }
        if (s.job() != null) {
            return s.job();
        }
        if (s.path() == null || s.path().equals("/")) {
            return s.space() == null ? "user" : s.space().replace(':', '-');
        }
        return s.path().substring(s.path().lastIndexOf('/') + 1);
    }

    /**
     * Whether a running panel is idle: nobody used it through the proxy for {@code timeout}, counted from its last
     * request, or from when its server started when it has none since (a request before that start is an older
     * server's). A timeout of zero or less never stops a panel; an unknown start never stops one either.
     */
    public static boolean idle(Instant startedAt, Instant lastRequest, Instant now, Duration timeout) {
        if (timeout == null || timeout.isZero() || timeout.isNegative() || startedAt == null) {
            return false;
        }
        Instant since = lastRequest != null && lastRequest.isAfter(startedAt) ? lastRequest : startedAt;
        return !now.isBefore(since.plus(timeout));
    }

    /** TensorBoard's arguments: each prefix with its folder's mount, every address, the port. */
    public static List<String> args(List<String> prefixes) {
        List<String> spec = new ArrayList<>();
        for (int i = 0; i < prefixes.size(); i++) {
            spec.add(prefixes.get(i) + ":" + LOGS + i);
        }
        return List.of("--logdir_spec", String.join(",", spec), "--bind_all", "--port", Integer.toString(PORT));
    }
}
