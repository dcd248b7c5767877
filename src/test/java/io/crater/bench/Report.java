package io.crater.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmarks' figures as one table: each benchmark records what it measured ({@link #figure}) into a file
 * ({@code target/bench-figures.tsv}, emptied by {@code make bench} before a run), and {@link #main} prints every
 * figure of the run beside its anchor (what others achieve), its lower limit where one exists, the bar set for it,
 * and whether this run met the bar. Nothing here decides anything about a test: it is a report (docs/benchmarks.md).
 */
public final class Report {

    static final Path FILE = Path.of(System.getProperty("bench.report", "target/bench-figures.tsv"));

    private Report() {}

    /** A bar: the figure at most or at least {@code limit}. */
    record Bar(boolean atMost, double limit) {
        boolean met(double value) {
            return atMost ? value <= limit : value >= limit;
        }

        String text(String unit) {
            return (atMost ? "≤ " : "≥ ") + number(limit) + unit;
        }
    }

    /** A row of the table: the figure's key, what it is, its unit, its anchor, its lower limit's key, its bar. */
    record Row(String key, String what, String unit, String anchor, String lowerKey, Bar bar) {}

    static final List<Row> ROWS = List.of(
            new Row(
                    "trace.baseline.wall",
                    "Kueue baseline trace (15,000 jobs, 30 queues), wall",
                    " s",
                    "Kueue 351 s",
                    "trace.baseline.lower",
                    new Bar(true, 99)),
            new Row(
                    "trace.large-scale.wall",
                    "Kueue large-scale trace (50,000 jobs, 1,000 queues), wall (make bench-large)",
                    " s",
                    "Kueue 1,179 s",
                    "trace.large-scale.lower",
                    new Bar(true, 120)),
            new Row(
                    "trace.baseline.submissions.rate",
                    "submissions accepted under the baseline trace, 32 clients",
                    "/s",
                    "Slurm ~1,000/s",
                    null,
                    new Bar(false, 1000)),
            new Row("trace.baseline.submissions.p99", "their latency, p99", " ms", "—", null, new Bar(true, 100)),
            new Row(
                    "api.submissions.rate",
                    "submissions accepted alone, 16 clients",
                    "/s",
                    "Slurm ~1,000/s",
                    null,
                    new Bar(false, 1000)),
            new Row("api.submissions.p99", "their latency, p99", " ms", "—", null, new Bar(true, 100)),
            new Row(
                    "api.admitted.p99",
                    "submit → admitted with free capacity, p99",
                    " ms",
                    "Crater (Go): a 5 s ticker",
                    null,
                    new Bar(true, 50)),
            new Row("api.list.p99", "job list at 100,000 jobs, 50 clients, p99", " ms", "—", null, new Bar(true, 50)),
            new Row(
                    "footprint.idle.rss",
                    "server RSS idle, embedded default (PostgreSQL apart)",
                    " MiB",
                    "JupyterHub ~500 MB; Crater with -Xmx1g: 508 MB",
                    null,
                    new Bar(true, 286)),
            new Row("footprint.load.rss", "server RSS at the end of the load", " MiB", "—", null, null),
            new Row(
                    "interactive.terminals.silent",
                    "terminals that never showed their first output, of 2,000 (-Dbench.terminals)",
                    "",
                    "OpenSSH: 0",
                    null,
                    new Bar(true, 0)),
            new Row(
                    "interactive.forwards.failed",
                    "concurrent ssh -W transfers silent or short, of 200",
                    "",
                    "OpenSSH: 0",
                    null,
                    new Bar(true, 0)),
            new Row(
                    "client.list.median",
                    "crater job list -o json, median",
                    " ms",
                    "kubectl get pods -A -o json (recorded beside it)",
                    null,
                    new Bar(true, 300)),
            new Row("client.kubectl.median", "kubectl get pods -A -o json, median", " ms", "—", null, null),
            new Row(
                    "gpu.queries.per.job.step",
                    "live GPU metrics: source queries per job and step, 500 followers",
                    "",
                    "polling per viewer: 27.8",
                    null,
                    new Bar(true, 1)),
            new Row("files.api.up.ratio", "1 GiB up through the file API", " × cp", "cp on the same disk", null, null),
            new Row("files.api.down.ratio", "1 GiB down through the file API", " × cp", "cp", null, null),
            new Row("files.dav.up.ratio", "1 GiB up through WebDAV", " × cp", "cp", null, null),
            new Row("files.dav.down.ratio", "1 GiB down through WebDAV", " × cp", "cp", null, null),
            new Row("files.sftp.up.ratio", "1 GiB up through SFTP (scp)", " × cp", "cp", null, null),
            new Row("files.sftp.down.ratio", "1 GiB down through SFTP (scp)", " × cp", "cp", null, null),
            new Row(
                    "files.rss.growth",
                    "server RSS growth during the 1 GiB transfers",
                    " MiB",
                    "flat: not growing with the file",
                    null,
                    null),
            new Row("files.listing.first", "100,000-entry folder over SSE: first entry", " ms", "—", null, null),
            new Row("files.listing.last", "100,000-entry folder over SSE: last entry", " ms", "—", null, null));

    /** Records a figure of this run (appended; the last value of a key wins). */
    public static void figure(String key, double value) {
        try {
            Files.createDirectories(FILE.toAbsolutePath().getParent());
            Files.writeString(
                    FILE,
                    key + "\t" + value + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The figures in a recorded file's lines; a line that is not {@code key<TAB>number} is left out. */
    static Map<String, Double> read(List<String> lines) {
        Map<String, Double> figures = new LinkedHashMap<>();
        for (String line : lines) {
            String[] kv = line.split("\t");
            if (kv.length == 2) {
                try {
                    figures.put(kv[0], Double.parseDouble(kv[1]));
                } catch (NumberFormatException e) {
                    // not a figure
                }
            }
        }
        return figures;
    }

    /** The table of the rows this run measured, as Markdown, with a count of bars met. */
    static List<String> table(Map<String, Double> figures) {
        List<String> out = new ArrayList<>();
        out.add("| figure | this run | anchor | lower limit | bar | met |");
        out.add("|---|---|---|---|---|---|");
        int bars = 0;
        int met = 0;
        for (Row row : ROWS) {
            Double value = figures.get(row.key());
            if (value == null) {
                continue;
            }
            Double lower = row.lowerKey() == null ? null : figures.get(row.lowerKey());
            String now = number(value)
                    + row.unit()
                    + (lower == null ? "" : " = " + String.format(Locale.ROOT, "%.2f", value / lower) + " × the limit");
            String verdict = "—";
            if (row.bar() != null) {
                bars++;
                boolean ok = row.bar().met(value);
                met += ok ? 1 : 0;
                verdict = ok
                        ? "yes"
                        : "no, by " + number(Math.abs(value - row.bar().limit())) + row.unit();
            }
            out.add("| " + row.what() + " | " + now + " | " + row.anchor() + " | "
                    + (lower == null ? "—" : number(lower) + row.unit()) + " | "
                    + (row.bar() == null ? "—" : row.bar().text(row.unit())) + " | " + verdict + " |");
        }
        out.add("bars met: " + met + " of " + bars + " measured in this run");
        return out;
    }

    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) v);
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%,.0f" : "%.2f", v);
    }

    /** Prints the table of the figures recorded in {@code args[0]} (default {@link #FILE}). */
    public static void main(String[] args) throws IOException {
        Path file = args.length > 0 ? Path.of(args[0]) : FILE;
        if (!Files.exists(file)) {
            System.out.println("report: no figures recorded in " + file);
            return;
        }
        table(read(Files.readAllLines(file))).forEach(System.out::println);
    }
}
