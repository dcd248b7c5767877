package io.crater.policy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Image builds (docs/assets.md, "Builds"): the checks of what a build is given (a base image with pip and apt
 * packages, or a Dockerfile, and the image it pushes), the Dockerfile generated from packages, the builder's command
 * line and the registry login it reads. Pure: nothing here runs a shell or reads a file; a package name that is not
 * one as pip or apt read it is refused, so nothing a user writes reaches a shell as syntax.
 */
public final class ImageBuilds {

    /** The builders Crater runs: BuildKit rootless (the default) or Kaniko. */
    public enum Builder {
        BUILDKIT,
        KANIKO
    }

    public static final int MAX_PACKAGES = 100;
    public static final int MAX_DOCKERFILE = 64 * 1024;

    /** Where the builder finds the Dockerfile and its (empty) context, and the registry login. */
    public static final String DOCKERFILE_DIR = "/crater/build/dockerfile";

    public static final String CONTEXT_DIR = "/crater/build/context";
    public static final String DOCKER_CONFIG_DIR = "/crater/build/docker";

    /**
     * A pip requirement as pip reads one on its command line (PEP 508 without URLs and markers): a project name,
     * optional extras, optional version clauses joined by commas. No spaces, quotes, semicolons or shell characters.
     */
    private static final Pattern PIP = Pattern.compile("^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?"
            + "(?:\\[[A-Za-z0-9][A-Za-z0-9._-]{0,40}(?:,[A-Za-z0-9][A-Za-z0-9._-]{0,40}){0,15}\\])?"
            + "(?:(?:===|==|>=|<=|~=|!=|>|<)[A-Za-z0-9][A-Za-z0-9.*+!_-]{0,60}"
            + "(?:,(?:===|==|>=|<=|~=|!=|>|<)[A-Za-z0-9][A-Za-z0-9.*+!_-]{0,60}){0,5})?$");
    /** A Debian package name (Debian policy 5.6.1) with an optional {@code =version} (5.6.12). */
    private static final Pattern APT =
            Pattern.compile("^[a-z0-9][a-z0-9+.-]{1,99}(?:=[A-Za-z0-9][A-Za-z0-9.+~:-]{0,99})?$");
    /** A base image: registry, repository, and a tag or digest; none of a shell's or a Dockerfile's characters. */
    private static final Pattern BASE = Pattern.compile(
            "^[a-z0-9][a-z0-9._/:-]{0,254}(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$");

    private static final Pattern FROM = Pattern.compile("(?im)^\\s*FROM\\s+\\S+");

    private ImageBuilds() {}

    /** What is wrong with one field ({@code base}, {@code pip[2]}, {@code dockerfile}, ...). */
    public record Refusal(String field, String message) {}

    /** An image to push, read: the reference (registry and repository) and the tag. */
    public record Destination(ImageReferences.Reference reference, String tag) {

        /** {@code registry/repository:tag}, as the builder pushes it. */
        public String text() {
            return reference.canonical() + ":" + tag;
        }
    }

    /** The image a build pushes, or null with the refusal added to {@code out} under {@code destination}. */
    public static Destination destination(String text, List<Refusal> out) {
        if (text == null || text.isBlank()) {
            out.add(new Refusal("destination", "required: registry/repository:tag"));
            return null;
        }
        String t = text.trim();
        int slash = t.lastIndexOf('/');
        int colon = t.lastIndexOf(':');
        if (colon <= slash) {
            out.add(new Refusal("destination", "name the tag: registry/repository:tag"));
            return null;
        }
        String tag = t.substring(colon + 1);
        ImageReferences.Parsed p = ImageReferences.parse(t.substring(0, colon));
        if (p.refusal() != null) {
            out.add(new Refusal("destination", p.refusal()));
            return null;
        }
        if (!ImageReferences.tag(tag)) {
            out.add(new Refusal("destination", "'" + tag + "' is not a tag"));
            return null;
        }
        return new Destination(p.reference(), tag);
    }

    /** The checks of a build from packages: the base image and every package name. */
    public static List<Refusal> checkPackages(String base, List<String> pip, List<String> apt) {
        List<Refusal> out = new ArrayList<>();
        if (base == null || base.isBlank()) {
            out.add(new Refusal("base", "required: the image to start from, e.g. pytorch/pytorch:2.3.0"));
        } else if (!BASE.matcher(base).matches()) {
            out.add(new Refusal("base", "not an image reference: registry/repository:tag or @sha256:digest"));
        }
        names(pip, PIP, "pip", "a pip requirement such as transformers==4.44.0 (no spaces, URLs or markers)", out);
        names(apt, APT, "apt", "a Debian package name such as git or curl=7.88.1-10 (lowercase)", out);
        if ((pip == null || pip.isEmpty()) && (apt == null || apt.isEmpty())) {
            out.add(new Refusal("pip", "name at least one pip or apt package (or give a Dockerfile)"));
        }
        return out;
    }

    private static void names(List<String> given, Pattern p, String field, String what, List<Refusal> out) {
        if (given == null) {
            return;
        }
        if (given.size() > MAX_PACKAGES) {
            out.add(new Refusal(field, "at most " + MAX_PACKAGES + " packages"));
            return;
        }
        for (int i = 0; i < given.size(); i++) {
            String n = given.get(i);
            if (n == null || !p.matcher(n).matches()) {
                out.add(new Refusal(field + "[" + i + "]", what));
            }
        }
    }

    /** The checks of a Dockerfile given as text. */
    public static List<Refusal> checkDockerfile(String text) {
        List<Refusal> out = new ArrayList<>();
        if (text == null || text.isBlank()) {
            out.add(new Refusal("dockerfile", "required"));
        } else if (text.getBytes(StandardCharsets.UTF_8).length > MAX_DOCKERFILE) {
            out.add(new Refusal("dockerfile", "at most " + MAX_DOCKERFILE + " bytes"));
        } else if (text.indexOf('\0') >= 0) {
            out.add(new Refusal("dockerfile", "text without NUL characters"));
        } else if (!FROM.matcher(text).find()) {
            out.add(new Refusal("dockerfile", "a Dockerfile starts from an image: a FROM line is missing"));
        }
        return out;
    }

    /**
     * The Dockerfile of a build from packages (checked by {@link #checkPackages}): the base, the apt packages in one
     * layer that leaves no package lists behind, then the pip packages in exec form (no shell reads the version
     * clauses, whose {@code <} and {@code >} a shell would take as redirections), pinned versions as given.
     */
    public static String dockerfile(String base, List<String> pip, List<String> apt) {
        StringBuilder d = new StringBuilder("# syntax=docker/dockerfile:1\n# Generated by Crater from packages.\n");
        d.append("FROM ").append(base).append('\n');
        if (apt != null && !apt.isEmpty()) {
            d.append("RUN apt-get update \\\n && DEBIAN_FRONTEND=noninteractive apt-get install -y")
                    .append(" --no-install-recommends ")
                    .append(String.join(" ", apt))
                    .append(" \\\n && rm -rf /var/lib/apt/lists/*\n");
        }
        if (pip != null && !pip.isEmpty()) {
            d.append("RUN [\"pip\", \"install\", \"--no-cache-dir\"");
            pip.forEach(p -> d.append(", \"").append(p).append('"'));
            d.append("]\n");
        }
        return d.toString();
    }

    /**
     * The builder's command line: BuildKit's {@code buildctl-daemonless.sh} with the Dockerfile frontend, or Kaniko's
     * executor; both push to {@code destination}, over plain HTTP when {@code plainHttp} (a loopback or listed
     * registry).
     */
    public static List<String> command(Builder builder, String destination, boolean plainHttp) {
        if (builder == Builder.KANIKO) {
            List<String> c = new ArrayList<>(List.of(
                    "/kaniko/executor",
                    "--dockerfile=" + DOCKERFILE_DIR + "/Dockerfile",
                    "--context=dir://" + CONTEXT_DIR,
                    "--destination=" + destination));
            if (plainHttp) {
                c.add("--insecure");
            }
            return List.copyOf(c);
        }
        return List.of(
                "buildctl-daemonless.sh",
                "build",
                "--frontend",
                "dockerfile.v0",
                "--local",
                "context=" + CONTEXT_DIR,
                "--local",
                "dockerfile=" + DOCKERFILE_DIR,
                "--output",
                "type=image,name=" + destination + ",push=true" + (plainHttp ? ",registry.insecure=true" : ""));
    }

    /** A registry login in Docker's {@code config.json} format, as both builders read it. */
    public static String dockerConfig(String host, String username, String secret) {
        String key = ImageReferences.DOCKER_HUB.equals(host) ? "https://index.docker.io/v1/" : host;
        String auth = Base64.getEncoder().encodeToString((username + ":" + secret).getBytes(StandardCharsets.UTF_8));
        return "{\"auths\":{\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\":{\"auth\":\"" + auth + "\"}}}";
    }
}
