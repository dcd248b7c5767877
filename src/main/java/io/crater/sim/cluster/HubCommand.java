package io.crater.sim.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A {@code huggingface-cli download} command line as the client reads it, and its include/exclude rule (Python's
 * {@code fnmatch}: {@code *} crosses {@code /}; a pattern ending in {@code /} is a folder's contents).
 */
record HubCommand(
        String repo, String repoType, String revision, List<String> include, List<String> exclude, String localDir) {

    /** The command in {@code words} (after any shell wrapper), or null when there is none or it is incomplete. */
    static HubCommand parse(List<String> words) {
        int at = -1;
        for (int i = 0; i + 1 < words.size(); i++) {
            if (words.get(i).equals("huggingface-cli") && words.get(i + 1).equals("download")) {
                at = i + 2;
                break;
            }
        }
        if (at < 0 || at >= words.size()) {
            return null;
        }
        String repo = words.get(at);
        String type = "model";
        String revision = "main";
        String dir = null;
        List<String> include = new ArrayList<>();
        List<String> exclude = new ArrayList<>();
        for (int i = at + 1; i < words.size(); i++) {
            String w = words.get(i);
            switch (w) {
                case "--repo-type" -> type = i + 1 < words.size() ? words.get(++i) : type;
                case "--revision" -> revision = i + 1 < words.size() ? words.get(++i) : revision;
                case "--local-dir" -> dir = i + 1 < words.size() ? words.get(++i) : null;
                case "--include", "--exclude" -> {
                    List<String> into = w.equals("--include") ? include : exclude;
                    while (i + 1 < words.size() && !words.get(i + 1).startsWith("--")) {
                        into.add(words.get(++i));
                    }
                }
                default -> {
                    // other options change nothing the simulation plays
                }
            }
        }
        return dir == null || !dir.startsWith("/") ? null : new HubCommand(repo, type, revision, include, exclude, dir);
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
