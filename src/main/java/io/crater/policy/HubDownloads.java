package io.crater.policy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Downloads from a model hub (docs/assets.md, downloads), the parts that need nothing looked up: the request's
 * checks, the key that finds the same download again, which of a revision's files a download takes (the hub
 * client's own include/exclude rule), progress, the checksums' verdict, the downloader's command line and the
 * per-user limits.
 */
public final class HubDownloads {

    /** Hugging Face's repository id rule: an optional namespace and a name of word characters, {@code -} and {@code .}. */
    private static final Pattern PART = Pattern.compile("^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?$");

    private static final Pattern SHA = Pattern.compile("^[0-9a-f]{40}$");
    public static final List<String> HUBS = List.of("huggingface", "modelscope");
    public static final int MAX_PATTERNS = 50;

    private HubDownloads() {}

    /** A field and what is wrong with it. */
    public record Violation(String field, String message) {}

    /** One file of a revision: its path in the repository, its size and, for an LFS file, its SHA-256. */
    public record HubFile(String path, long size, String sha256) {}

    /** What the user asked for. */
    public record Wanted(
            String kind, String hub, String repository, String revision, List<String> include, List<String> exclude) {}

    /** The request's faults, field by field; empty when it is well formed. */
    public static List<Violation> check(Wanted w) {
        List<Violation> out = new ArrayList<>();
        if (!"dataset".equals(w.kind()) && !"model".equals(w.kind())) {
            out.add(new Violation("kind", "dataset or model"));
        }
        if (w.hub() != null && !HUBS.contains(w.hub())) {
            out.add(new Violation("hub", "one of " + String.join(", ", HUBS)));
        }
        boolean modelscope = "modelscope".equals(w.hub());
        String repoProblem =
                modelscope ? ModelScopeRules.repositoryProblem(w.repository()) : repositoryProblem(w.repository());
        if (repoProblem != null) {
            out.add(new Violation("repository", repoProblem));
        }
        String rev = w.revision();
        if (rev != null
                && (rev.isEmpty()
                        || rev.length() > 200
                        || !rev.chars().allMatch(c -> c > 0x20 && c < 0x7f)
                        || rev.contains(".."))) {
            out.add(new Violation("revision", "a branch, tag or commit: 1 to 200 visible characters, no .."));
        } else if (modelscope && ModelScopeRules.revisionProblem(rev) != null) {
            out.add(new Violation("revision", ModelScopeRules.revisionProblem(rev)));
        }
        patterns(w.include(), "include", out);
        patterns(w.exclude(), "exclude", out);
        return out;
    }

    /** What is wrong with a repository id ({@code owner/name} or {@code name}), or null. */
    public static String repositoryProblem(String repo) {
        String why = "owner/name: letters, digits, ., _ or -, each part 1 to 96, no -- or .., not ending .git";
        if (repo == null || repo.isEmpty() || repo.contains("--") || repo.contains("..") || repo.endsWith(".git")) {
            return why;
        }
        String[] parts = repo.split("/", -1);
        if (parts.length > 2) {
            return why;
        }
        for (String p : parts) {
            if (!PART.matcher(p).matches()) {
                return why;
            }
        }
        return null;
    }

    private static void patterns(List<String> given, String field, List<Violation> out) {
        if (given == null) {
            return;
        }
        if (given.size() > MAX_PATTERNS) {
            out.add(new Violation(field, "at most " + MAX_PATTERNS + " patterns"));
            return;
        }
        for (String p : given) {
            if (p == null || p.isEmpty() || p.length() > 200 || !p.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                out.add(new Violation(field, "patterns are 1 to 200 visible characters without spaces"));
                return;
            }
        }
    }

    /** The revision a request without one asks for: the hub's default branch. */
    public static String defaultRevision(String hub) {
        return "modelscope".equals(hub) ? ModelScopeRules.DEFAULT_REVISION : "main";
    }

    /** Whether a revision is a full commit SHA already. */
    public static boolean isSha(String revision) {
        return revision != null && SHA.matcher(revision).matches();
    }

    /** Patterns as compared: without duplicates, sorted (their order changes nothing). */
    public static List<String> canonical(List<String> patterns) {
        return patterns == null ? List.of() : List.copyOf(new TreeSet<>(patterns));
    }

    /**
     * The key two downloads of the same thing share: hub, repository (as the hub compares ids, without case), the
     * resolved commit, and the include and exclude patterns as compared.
     */
    public static String key(
            String hub, String kind, String repository, String sha, List<String> include, List<String> exclude) {
        return hub + "\n" + kind + "\n" + repository.toLowerCase(java.util.Locale.ROOT) + "\n" + sha + "\ni:"
                + String.join(" ", canonical(include)) + "\ne:" + String.join(" ", canonical(exclude));
    }

    /**
     * The files a download takes, as huggingface_hub's {@code filter_repo_objects} decides: every file when there is
     * no include pattern, else those matching one; then without those matching an exclude pattern. A pattern ending in
     * {@code /} means everything under that folder.
     */
    public static List<HubFile> select(List<HubFile> files, List<String> include, List<String> exclude) {
        return select("huggingface", files, include, exclude);
    }

    /** The files a download from {@code hub} takes, as that hub's client decides (ModelScope: {@link ModelScopeRules}). */
    public static List<HubFile> select(String hub, List<HubFile> files, List<String> include, List<String> exclude) {
        List<HubFile> out = new ArrayList<>();
        for (HubFile f : files) {
            if (selected(hub, f.path(), include, exclude)) {
                out.add(f);
            }
        }
        return out;
    }

    public static boolean selected(String path, List<String> include, List<String> exclude) {
        return selected("huggingface", path, include, exclude);
    }

    public static boolean selected(String hub, String path, List<String> include, List<String> exclude) {
        if ("modelscope".equals(hub)
                && exclude != null
                && exclude.stream().anyMatch(p -> ModelScopeRules.excludedByName(path, p))) {
            return false;
        }
        if (include != null && !include.isEmpty() && include.stream().noneMatch(p -> fnmatch(path, folder(p)))) {
            return false;
        }
        return exclude == null || exclude.stream().noneMatch(p -> fnmatch(path, folder(p)));
    }

    private static String folder(String pattern) {
        return pattern.endsWith("/") ? pattern + "*" : pattern;
    }

    /** Python's {@code fnmatch.fnmatchcase}: {@code *} any characters ({@code /} included), {@code ?} one, {@code [..]} a set. */
    public static boolean fnmatch(String name, String pattern) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else if (c == '[') {
                int j = pattern.indexOf(']', i + 2);
                if (j < 0) {
                    re.append("\\[");
                    continue;
                }
                String set = pattern.substring(i + 1, j).replace("\\", "\\\\");
                re.append('[')
                        .append(set.startsWith("!") ? "^" + set.substring(1) : set)
                        .append(']');
                i = j;
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL).matcher(name).matches();
    }

    /**
     * How far a download is: the bytes of each expected file present (never more than its size), and the files
     * complete.
     */
    public record Progress(long bytesDone, long bytesTotal, int filesDone, int filesTotal) {
        /** Whole percent done, rounded down; 100 only when every byte is there. */
        public int percent() {
            return bytesTotal == 0 ? (filesDone == filesTotal ? 100 : 0) : (int) (bytesDone * 100 / bytesTotal);
        }
    }

    /** Progress from the sizes present at the expected paths. */
    public static Progress progress(List<HubFile> expected, Map<String, Long> present) {
        long done = 0;
        long total = 0;
        int complete = 0;
        for (HubFile f : expected) {
            total += f.size();
            long have = Math.max(0, Math.min(f.size(), present.getOrDefault(f.path(), -1L)));
            done += have;
            if (present.containsKey(f.path()) && present.get(f.path()) == f.size()) {
                complete++;
            }
        }
        return new Progress(done, total, complete, expected.size());
    }

    /** A file that is not as the hub lists it, and why. */
    public record Fault(String path, String message, boolean wrongBytes) {}

    /**
     * What is wrong with the files at the end: a file missing or of another size, an LFS file whose SHA-256 is not the
     * hub's ({@code wrongBytes}). {@code sizes} and {@code sha256} are what was measured ({@code sha256} for LFS files).
     */
    public static List<Fault> verify(List<HubFile> expected, Map<String, Long> sizes, Map<String, String> sha256) {
        List<Fault> out = new ArrayList<>();
        for (HubFile f : expected) {
            Long size = sizes.get(f.path());
            if (size == null) {
                out.add(new Fault(f.path(), f.path() + " is missing", false));
            } else if (size != f.size()) {
                out.add(new Fault(f.path(), f.path() + " has " + size + " bytes, the hub lists " + f.size(), true));
            } else if (f.sha256() != null && !f.sha256().equalsIgnoreCase(sha256.get(f.path()))) {
                out.add(new Fault(
                        f.path(), f.path() + " does not have the SHA-256 the hub lists (" + f.sha256() + ")", true));
            }
        }
        return out;
    }

    /**
     * The downloader's arguments: {@code huggingface-cli download REPO --repo-type TYPE --revision SHA [--include P..]
     * [--exclude P..] --local-dir DIR}, the client's own command line (the token and endpoint come from its
     * environment, {@code HF_TOKEN} and {@code HF_ENDPOINT}).
     */
    public static List<String> command(
            String kind, String repository, String sha, List<String> include, List<String> exclude, String dir) {
        List<String> args = new ArrayList<>(
                List.of("huggingface-cli", "download", repository, "--repo-type", kind, "--revision", sha));
        if (include != null && !include.isEmpty()) {
            args.add("--include");
            args.addAll(include);
        }
        if (exclude != null && !exclude.isEmpty()) {
            args.add("--exclude");
            args.addAll(exclude);
        }
        args.add("--local-dir");
        args.add(dir);
        return args;
    }

    /**
     * The downloader's arguments for {@code hub}: Hugging Face's {@link #command} with the commit, or ModelScope's
     * {@code modelscope download} with the branch or tag asked for (its client takes no commit) and {@code --endpoint}.
     */
    public static List<String> command(
            String hub,
            String kind,
            String repository,
            String revision,
            List<String> include,
            List<String> exclude,
            String dir,
            String endpoint) {
        return "modelscope".equals(hub)
                ? ModelScopeRules.command(kind, repository, revision, include, exclude, dir, endpoint)
                : command(kind, repository, revision, include, exclude, dir);
    }

    /** The per-user limits: downloads running at once, and started within a rolling window. */
    public record Limits(int maxConcurrent, int maxPerWindow, Duration window) {}

    /**
     * Why the user may not start another download now ({@link ReasonCode#DownloadLimitReached} with the numbers), or
     * empty. {@code active}: their downloads queued or running; {@code recent}: those they started within the window.
     */
    public static Optional<Reason> limit(Limits limits, int active, int recent) {
        Map<String, Long> numbers = Map.of(
                "active", (long) active,
                "maxConcurrent", (long) limits.maxConcurrent(),
                "started", (long) recent,
                "maxPerWindow", (long) limits.maxPerWindow(),
                "windowSeconds", limits.window().toSeconds());
        if (active >= limits.maxConcurrent()) {
            return Optional.of(ReasonCode.DownloadLimitReached.reason(
                    "you have " + active + " downloads running, the most at once is " + limits.maxConcurrent(),
                    numbers,
                    Map.of("limit", "concurrent")));
        }
        if (recent >= limits.maxPerWindow()) {
            return Optional.of(ReasonCode.DownloadLimitReached.reason(
                    "you started " + recent + " downloads within the last "
                            + limits.window().toSeconds() + " s, the most is " + limits.maxPerWindow(),
                    numbers,
                    Map.of("limit", "window")));
        }
        return Optional.empty();
    }
}
