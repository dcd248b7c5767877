package io.crater.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The checks on a job's mounts of datasets and models, before anything is looked up: each entry names exactly one
 * dataset or one model (a name, {@code owner/name} or an id) and an absolute, normalised mount path that is not
 * Crater's own ({@code /crater/...}, {@code /dev/shm}) or the system's ({@code /proc}, {@code /sys}, {@code /dev}),
 * and no path is mounted twice or inside another entry's path.
 */
public final class DataMounts {

    /** The most entries one job may mount. */
    public static final int MAX = 16;

    /** The longest mount path. */
    public static final int MAX_PATH = 1024;

    /** Mount paths no entry may take, nor anything below them. */
    public static final List<String> RESERVED = List.of("/crater", "/dev", "/proc", "/sys");

    /** A reference: a name, {@code owner/name}, or an id ({@code ds_…}, {@code md_…}). */
    private static final Pattern REFERENCE =
            Pattern.compile("^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,63}/)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$"
                    + "|^(?:ds|md)_[a-z0-9]{6,16}$");

    private DataMounts() {}

    /** One entry as submitted: {@code dataset} or {@code model} (one of them), and the path in the container. */
    public record Wanted(String dataset, String model, String path) {}

    /** What is wrong, under the field the API names ({@code mounts[2].path}). */
    public record Refusal(String field, String message) {}

    /** Whether a string is a reference as entries are named. */
    public static boolean reference(String ref) {
        return ref != null && REFERENCE.matcher(ref).matches();
    }

    /** Every refusal of the list, in order; empty when it may be looked up. */
    public static List<Refusal> check(List<Wanted> mounts) {
        List<Refusal> out = new ArrayList<>();
        if (mounts == null || mounts.isEmpty()) {
            return out;
        }
        if (mounts.size() > MAX) {
            out.add(new Refusal(
                    "mounts", "at most " + MAX + " datasets and models (this job has " + mounts.size() + ")"));
            return out;
        }
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < mounts.size(); i++) {
            String field = "mounts[" + i + "]";
            Wanted w = mounts.get(i);
            if (w == null) {
                out.add(new Refusal(field, "an entry {\"dataset\": name, \"path\": \"/data\"}"));
                taken.add(null);
                continue;
            }
            referenceProblem(field, w, out);
            String problem = pathProblem(w.path());
            if (problem == null) {
                problem = overlap(w.path(), taken);
            }
            if (problem != null) {
                out.add(new Refusal(field + ".path", problem));
            }
            taken.add(problem == null ? w.path() : null);
        }
        return out;
    }

    private static void referenceProblem(String field, Wanted w, List<Refusal> out) {
        boolean dataset = w.dataset() != null && !w.dataset().isBlank();
        boolean model = w.model() != null && !w.model().isBlank();
        if (dataset == model) {
            out.add(new Refusal(field, dataset ? "name a dataset or a model, not both" : "name a dataset or a model"));
            return;
        }
        String ref = dataset ? w.dataset() : w.model();
        if (!reference(ref)) {
            out.add(new Refusal(
                    field + (dataset ? ".dataset" : ".model"),
                    "a name (lowercase letters, digits and -), owner/name, or an id"));
        }
    }

    /** What is wrong with a mount path on its own, or null. */
    static String pathProblem(String path) {
        if (path == null || path.isEmpty()) {
            return "required: where the entry appears in the container, such as /data/imagenet";
        }
        if (!path.startsWith("/")) {
            return "an absolute path";
        }
        if (path.length() > MAX_PATH) {
            return "at most " + MAX_PATH + " characters";
        }
        if (path.equals("/")) {
            return "not the container's root";
        }
        for (String segment : path.substring(1).split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return "a normalised path: no empty, . or .. parts, no trailing /";
            }
            if (segment.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == '\\' || c == ':')) {
                return "no control characters, backslashes or colons";
            }
        }
        for (String reserved : RESERVED) {
            if (within(path, reserved)) {
                return reserved + " is Crater's or the system's: choose a path outside it";
            }
        }
        return null;
    }

    private static String overlap(String path, List<String> taken) {
        for (int j = 0; j < taken.size(); j++) {
            String other = taken.get(j);
            if (other == null) {
                continue;
            }
            if (other.equals(path)) {
                return "mounted twice: mounts[" + j + "] has this path already";
            }
            if (within(path, other) || within(other, path)) {
                return "overlaps mounts[" + j + "].path (" + other + "): one would hide the other";
            }
        }
        return null;
    }

    private static boolean within(String path, String dir) {
        return path.equals(dir) || path.startsWith(dir + "/");
    }
}
