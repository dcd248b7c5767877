package io.crater.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The checks on an image catalogue entry before anything is looked up, and what a reference names. A reference is a
 * registry and a repository ({@code ghcr.io/org/trainer}, {@code registry.example.org:5000/vision/base}) without a tag
 * or digest (those are the entry's {@code tags}); one without a registry host is Docker Hub's, as Docker reads it
 * ({@code pytorch/pytorch} → {@code docker.io/pytorch/pytorch}, {@code ubuntu} → {@code docker.io/library/ubuntu}).
 * Names follow the OCI distribution specification's grammar.
 */
public final class ImageReferences {

    /** Docker Hub's name in references, and the host its registry API answers on. */
    public static final String DOCKER_HUB = "docker.io";

    public static final String DOCKER_HUB_API = "registry-1.docker.io";

    /** The job kinds an image can be offered for (the job API's {@code kind}). */
    public static final List<String> KINDS = List.of("jupyter", "webide", "custom", "pytorch", "inference");

    /** CPU architectures as OCI image indexes name them. */
    public static final List<String> ARCHITECTURES =
            List.of("amd64", "arm64", "ppc64le", "s390x", "riscv64", "386", "arm", "loong64", "mips64le");

    public static final int MAX_TAGS = 50;

    public static final int MAX_REFERENCE = 255;

    private static final Pattern COMPONENT = Pattern.compile("^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$");
    private static final Pattern HOST = Pattern.compile(
            "^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\\.(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?))*"
                    + "(?::[0-9]{1,5})?$|^\\[[0-9A-Fa-f:.]+\\](?::[0-9]{1,5})?$");
    private static final Pattern TAG = Pattern.compile("^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$");
    private static final Pattern VENDOR = Pattern.compile("^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$");
    private static final Pattern CUDA = Pattern.compile("^[0-9]{1,2}\\.[0-9]{1,2}(?:\\.[0-9]{1,3})?$");

    private ImageReferences() {}

    /** A reference read: the registry host as written, the repository, and the host its API answers on. */
    public record Reference(String registry, String repository) {

        /** The canonical form stored and shown: {@code registry/repository}. */
        public String canonical() {
            return registry + "/" + repository;
        }

        /** The host (and port) whose {@code /v2/} API serves it: Docker Hub's API is not on docker.io. */
        public String apiHost() {
            return DOCKER_HUB.equals(registry) ? DOCKER_HUB_API : registry;
        }

        /** Whether the registry is on this machine's loopback, which registries and Docker reach over plain HTTP. */
        public boolean loopback() {
            String host = registry.replaceFirst(":[0-9]+$", "");
            return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]");
        }
    }

    /** What is wrong, under the field the API names ({@code reference}, {@code tags}). */
    public record Refusal(String field, String message) {}

    /** The reference read, or a refusal's message: exactly one of them is set. */
    public record Parsed(Reference reference, String refusal) {}

    /** Reads a reference as Docker does (a first part with a dot, a colon or {@code localhost} is the registry). */
    public static Parsed parse(String text) {
        if (text == null || text.isBlank()) {
            return refused("required: a registry and repository such as ghcr.io/org/image");
        }
        String ref = text.trim();
        if (ref.length() > MAX_REFERENCE) {
            return refused("at most " + MAX_REFERENCE + " characters");
        }
        if (ref.contains("@")) {
            return refused("without a digest: the digest is what validation resolves");
        }
        int slash = ref.indexOf('/');
        String first = slash < 0 ? "" : ref.substring(0, slash);
        boolean hasRegistry = slash > 0 && (first.contains(".") || first.contains(":") || first.equals("localhost"));
        String registry = hasRegistry ? first.toLowerCase(Locale.ROOT) : DOCKER_HUB;
        String repository = hasRegistry ? ref.substring(slash + 1) : ref;
        if (hasRegistry && !HOST.matcher(first).matches()) {
            return refused("'" + first + "' is not a registry host[:port]");
        }
        if (repository.contains(":")) {
            return refused("without a tag: list tags under tags");
        }
        for (String part : repository.split("/", -1)) {
            if (!COMPONENT.matcher(part).matches()) {
                return refused("'" + part + "' is not a repository part: lowercase letters and digits,"
                        + " separated by one . or _, two _ or dashes");
            }
        }
        if (DOCKER_HUB.equals(registry) && !repository.contains("/")) {
            repository = "library/" + repository;
        }
        return new Parsed(new Reference(registry, repository), null);
    }

    private static Parsed refused(String message) {
        return new Parsed(null, message);
    }

    /** Whether a tag is one as the distribution specification allows. */
    public static boolean tag(String tag) {
        return tag != null && TAG.matcher(tag).matches();
    }

    /** Tags checked: at least one, each as the specification allows, kept in the order given without duplicates. */
    public static List<String> tags(List<String> given, List<Refusal> out) {
        if (given == null || given.isEmpty()) {
            out.add(new Refusal("tags", "at least one tag, such as latest"));
            return List.of();
        }
        List<String> kept = new ArrayList<>();
        for (String t : given) {
            String v = t == null ? null : t.trim();
            if (!tag(v)) {
                out.add(new Refusal(
                        "tags",
                        "'" + t + "' is not a tag: up to 128 letters, digits, _, . or -,"
                                + " not starting with . or -"));
                return List.of();
            }
            if (!kept.contains(v)) {
                kept.add(v);
            }
        }
        if (kept.size() > MAX_TAGS) {
            out.add(new Refusal("tags", "at most " + MAX_TAGS + " tags"));
        }
        return kept;
    }

    /** Values of a closed list (kinds, architectures), sorted and without duplicates; null is the empty list. */
    public static List<String> oneOf(List<String> given, List<String> allowed, String field, List<Refusal> out) {
        TreeSet<String> kept = new TreeSet<>();
        for (String v : given == null ? List.<String>of() : given) {
            String s = v == null ? "" : v.trim().toLowerCase(Locale.ROOT);
            if (!allowed.contains(s)) {
                out.add(new Refusal(field, "'" + v + "' is not one of " + String.join(", ", allowed)));
                return List.of();
            }
            kept.add(s);
        }
        return new ArrayList<>(kept);
    }

    /** Accelerator vendors as the accelerator catalogue names them, compared in lowercase ({@code nvidia}). */
    public static List<String> vendors(List<String> given, List<Refusal> out) {
        TreeSet<String> kept = new TreeSet<>();
        for (String v : given == null ? List.<String>of() : given) {
            String s = vendor(v);
            if (s == null) {
                out.add(new Refusal("vendors", "'" + v + "' is not a vendor: 1 to 32 letters, digits or inner -"));
                return List.of();
            }
            kept.add(s);
        }
        if (kept.size() > 10) {
            out.add(new Refusal("vendors", "at most 10 vendors"));
        }
        return new ArrayList<>(kept);
    }

    /** A vendor's name as images list it (lowercase, spaces as -), or null when it cannot be one. */
    public static String vendor(String name) {
        if (name == null) {
            return null;
        }
        String s = name.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", "-");
        return VENDOR.matcher(s).matches() ? s : null;
    }

    /** A CUDA version ({@code 12.4}, {@code 11.8.0}), or empty for an image without CUDA; null is a refusal. */
    public static String cuda(String given, List<Refusal> out) {
        String v = given == null ? "" : given.trim();
        if (!v.isEmpty() && !CUDA.matcher(v).matches()) {
            out.add(new Refusal("cudaVersion", "a version such as 12.4, or empty for none"));
        }
        return v;
    }

    /**
     * Whether an image fits a job: its kinds include the job's kind (an image listing none fits every kind), and,
     * when the job asks for an accelerator, its vendors include that accelerator's (an image listing none is not
     * built for any vendor's accelerators, and fits jobs without one only). A null kind or vendor asks nothing.
     */
    public static boolean fits(List<String> kinds, List<String> vendors, String kind, String vendor) {
        boolean kindFits = kind == null || kinds.isEmpty() || kinds.contains(kind);
        boolean vendorFits = vendor == null || vendors.contains(vendor);
        return kindFits && vendorFits;
    }
}
