package io.crater.sim.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * dcgm-exporter's default counters ({@code src/test/resources/dcgm/default-counters.csv}, kept with its source and
 * commit) and a reader of the metric families of a Prometheus text exposition.
 */
public final class DcgmCounters {

    /** A counter of the list, or a family of an exposition: its type and help. */
    public record Family(String type, String help) {}

    private DcgmCounters() {}

    /** The counters of the default list by DCGM field name (commented-out lines are not in it). */
    public static Map<String, Family> defaults() {
        return read(false);
    }

    /**
     * The counters the list names but leaves commented out ({@code # DCGM_FI_DEV_ECC_DBE_VOL_TOTAL, counter, ...}): an
     * operator turns them on by uncommenting the line in the exporter's counters file.
     */
    public static Map<String, Family> optional() {
        return read(true);
    }

    private static Map<String, Family> read(boolean commented) {
        Map<String, Family> out = new LinkedHashMap<>();
        try (InputStream in = DcgmCounters.class.getResourceAsStream("/dcgm/default-counters.csv");
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                boolean off = line.startsWith("#");
                String text = off ? line.substring(1).strip() : line;
                if (line.isBlank() || off != commented || !text.startsWith("DCGM_") || text.split(",").length < 3) {
                    continue;
                }
                String[] p = text.split(",", 3);
                out.put(p[0].trim(), new Family(p[1].trim(), p[2].trim()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static final Pattern META = Pattern.compile("# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)");

    /** The families of an exposition by name, from its HELP and TYPE lines. */
    public static Map<String, Family> families(String exposition) {
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, String> helps = new LinkedHashMap<>();
        for (String line : exposition.split("\n")) {
            Matcher m = META.matcher(line);
            if (m.matches()) {
                (m.group(1).equals("TYPE") ? types : helps).put(m.group(2), m.group(3));
            }
        }
        Map<String, Family> out = new LinkedHashMap<>();
        types.forEach((name, type) -> out.put(name, new Family(type, helps.get(name))));
        return out;
    }
}
