package io.crater.sim.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A hub client's download command line as the client reads it: {@code huggingface-cli download REPO --repo-type T
 * --revision R [--include P..] [--exclude P..] --local-dir DIR}, or ModelScope's {@code modelscope download --model|
 * --dataset REPO --revision R [--include P..] [--exclude P..] --local_dir DIR [--endpoint URL]}; and its include/exclude
 * rule (Python's {@code fnmatch}: {@code *} crosses {@code /}; a pattern ending in {@code /} is a folder's contents;
 * ModelScope's client also excludes a file whose name an exclude pattern, read as a regular expression, finds).
 */
record HubCommand(
        String hub,
        String repo,
        String repoType,
        String revision,
        List<String> include,
        List<String> exclude,
        String localDir,
        String endpoint) {

    /** The command in {@code words} (after any shell wrapper), or null when there is none or it is incomplete. */
    static HubCommand parse(List<String> words) {
        for (int i = 0; i + 1 < words.size(); i++) {
            if (words.get(i + 1).equals("download")) {
                if (words.get(i).equals("huggingface-cli")) {
                    return options("huggingface", words, i + 2);
                }
                if (words.get(i).equals("modelscope")) {
                    return options("modelscope", words, i + 2);
                }
            }
        }
        return null;
    }

    private static HubCommand options(String hub, List<String> words, int at) {
        boolean ms = hub.equals("modelscope");
        String repo = null;
        String type = "model";
        String revision = ms ? "master" : "main";
        String dir = null;
        String endpoint = null;
        List<String> include = new ArrayList<>();
        List<String> exclude = new ArrayList<>();
        for (int i = at; i < words.size(); i++) {
            String w = words.get(i);
            String next = i + 1 < words.size() ? words.get(i + 1) : null;
            switch (w) {
                case "--repo-type" -> type = next == null ? type : words.get(++i);
                case "--revision" -> revision = next == null ? revision : words.get(++i);
                case "--local-dir", "--local_dir" -> dir = next == null ? null : words.get(++i);
                case "--endpoint" -> endpoint = next == null ? null : words.get(++i);
                case "--model", "--dataset" -> {
                    type = w.substring(2);
                    repo = next == null ? repo : words.get(++i);
                }
                case "--include", "--exclude" -> {
                    List<String> into = w.equals("--include") ? include : exclude;
                    while (i + 1 < words.size() && !words.get(i + 1).startsWith("--")) {
                        into.add(words.get(++i));
                    }
                }
                default -> {
                    if (repo == null && !w.startsWith("--")) {
                        repo = w;
                    }
                    // other options change nothing the simulation plays
                }
            }
        }
        return repo == null || dir == null || !dir.startsWith("/")
                ? null
                : new HubCommand(hub, repo, type, revision, include, exclude, dir, endpoint);
    }

    boolean takes(String path) {
        if (hub.equals("modelscope") && exclude.stream().anyMatch(p -> regexFinds(p, path))) {
            return false;
        }
        return selected(path, include, exclude);
    }

    private static boolean regexFinds(String pattern, String path) {
        String p = pattern.endsWith("/") ? pattern + "*" : pattern;
        try {
            return Pattern.compile(p)
                    .matcher(path.substring(path.lastIndexOf('/') + 1))
                    .find();
        } catch (java.util.regex.PatternSyntaxException e) {
            return false;
        }
    }

    static boolean selected(String path, List<String> include, List<String> exclude) {
        if (!include.isEmpty() && include.stream().noneMatch(p -> matches(path, p))) {
            return false;
        }
        return exclude.stream().noneMatch(p -> matches(path, p));
    }

    private static boolean matches(String name, String pattern) {
        String p = pattern.endsWith("/") ? pattern + "*" : pattern;
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            int close = c == '[' ? p.indexOf(']', i + 2) : -1;
            if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else if (close > 0) {
                String set = p.substring(i + 1, close).replace("\\", "\\\\");
                re.append('[')
                        .append(set.startsWith("!") ? "^" + set.substring(1) : set)
                        .append(']');
                i = close;
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL).matcher(name).matches();
    }
}
