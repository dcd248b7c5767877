package io.crater.sim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * What the simulated TensorBoard of a pod reads: the folders its {@code --logdir_spec} names ({@code name:/logs/0,…}),
 * each found through the container's volume mounts on the host folder behind its claim, and the runs in them as
 * TensorBoard names them: a folder holding an event file ({@code *tfevents*}) is a run, named by the entry's name and
 * the folder's path below the entry's folder ({@code exp1/run_a}; the entry's name alone for its folder itself).
 */
final class SimTensorboard {

    /** How deep below a log folder runs are looked for. */
    static final int MAX_DEPTH = 8;

    private static final String SPEC_FLAG = "--logdir_spec";

    /** One entry of the spec: its name and the host folder behind its path (null when nothing is mounted there). */
    record LogDir(String name, String path, Path host) {}

    private SimTensorboard() {}

    /** The log folders a pod's TensorBoard was started with, resolved through its mounts and {@code claims}. */
    static List<LogDir> logDirs(JsonNode pod, Function<String, Path> claims) {
        Map<String, String> claimOfVolume = new HashMap<>();
        for (JsonNode v : pod.path("spec").path("volumes")) {
            JsonNode pvc = v.path("persistentVolumeClaim");
            if (!pvc.isMissingNode()) {
                claimOfVolume.put(v.path("name").asText(), pvc.path("claimName").asText());
            }
        }
        List<LogDir> out = new ArrayList<>();
        for (JsonNode c : pod.path("spec").path("containers")) {
            String spec = spec(c);
            if (spec == null) {
                continue;
            }
            for (String entry : spec.split(",")) {
                int colon = entry.indexOf(':');
                String name = colon < 0 ? "" : entry.substring(0, colon);
                String path = colon < 0 ? entry : entry.substring(colon + 1);
                out.add(new LogDir(name, path, host(c, path, claimOfVolume, claims)));
            }
        }
        return out;
    }

    private static String spec(JsonNode container) {
        List<String> words = new ArrayList<>();
        for (String field : List.of("command", "args")) {
            container.path(field).forEach(w -> words.add(w.asText()));
        }
        for (int i = 0; i < words.size(); i++) {
            if (words.get(i).equals(SPEC_FLAG) && i + 1 < words.size()) {
                return words.get(i + 1);
            }
            if (words.get(i).startsWith(SPEC_FLAG + "=")) {
                return words.get(i).substring(SPEC_FLAG.length() + 1);
            }
        }
        return null;
    }

    /** The host folder behind a mount at exactly {@code path} of a claim, or null. */
    private static Path host(
            JsonNode container, String path, Map<String, String> claimOfVolume, Function<String, Path> claims) {
        for (JsonNode m : container.path("volumeMounts")) {
            if (!m.path("mountPath").asText().equals(path)) {
                continue;
            }
            String claim = claimOfVolume.get(m.path("name").asText());
            Path base = claim == null ? null : claims.apply(claim);
            String sub = m.path("subPath").asText("");
            if (base == null || sub.startsWith("/") || List.of(sub.split("/")).contains("..")) {
                return null;
            }
            Path dir = sub.isEmpty() ? base : base.resolve(sub).normalize();
            return dir.startsWith(base) && Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) ? dir : null;
        }
        return null;
    }

    /** The runs in the log folders, sorted, as TensorBoard's {@code /data/runs} lists them. */
    static List<String> runs(List<LogDir> dirs) {
        TreeSet<String> runs = new TreeSet<>();
        for (LogDir d : dirs) {
            if (d.host() == null) {
                continue;
            }
            try (Stream<Path> all = Files.walk(d.host(), MAX_DEPTH)) {
                all.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                                && p.getFileName().toString().contains("tfevents"))
                        .map(p -> d.host().relativize(p.getParent()).toString())
                        .forEach(rel -> runs.add(rel.isEmpty() ? d.name() : d.name() + "/" + rel));
            } catch (IOException | RuntimeException e) {
                // A folder that cannot be read shows no runs, as TensorBoard skips what it cannot read.
            }
        }
        return List.copyOf(runs);
    }
}
