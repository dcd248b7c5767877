package io.crater.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What differs for ModelScope (docs/assets.md, downloads): its repository ids ({@code owner/name}, both parts), its
 * revisions (a branch or tag: its client's {@code get_valid_revision_detail} accepts no commit id), its client's file
 * rule (an exclude pattern that is a valid regular expression also excludes files whose name it finds, as {@code
 * filter_files_by_patterns} does) and its client's command line.
 */
final class ModelScopeRules {

    /** ModelScope's default branch, as its client names it. */
    static final String DEFAULT_REVISION = "master";

    private ModelScopeRules() {}

    /** ModelScope ids always have an owner: {@code owner/name}. */
    static String repositoryProblem(String repo) {
        String general = HubDownloads.repositoryProblem(repo);
        if (general != null) {
            return general;
        }
        return repo.contains("/") ? null : "owner/name: ModelScope names every repository with its owner";
    }

    /** A full commit id is refused: the client downloads a branch or a tag (the commit is resolved and verified). */
    static String revisionProblem(String revision) {
        return HubDownloads.isSha(revision)
                ? "a branch or tag: ModelScope's client does not download by commit id (the commit is resolved and"
                        + " kept)"
                : null;
    }

    /** The client's exclude rule beyond {@code fnmatch} on the path: a pattern that compiles finds in the file's name. */
    static boolean excludedByName(String path, String pattern) {
        String p = pattern.endsWith("/") ? pattern + "*" : pattern;
        String name = path.substring(path.lastIndexOf('/') + 1);
        try {
            return Pattern.compile(p).matcher(name).find();
        } catch (PatternSyntaxException e) {
            return false;
        }
    }

    /**
     * {@code modelscope download --model|--dataset REPO --revision REV [--include P..] [--exclude P..] --local_dir DIR
     * --endpoint URL}: the client's own command line (the token comes from {@code MODELSCOPE_API_TOKEN}).
     */
    static List<String> command(
            String kind,
            String repository,
            String revision,
            List<String> include,
            List<String> exclude,
            String dir,
            String endpoint) {
        List<String> args = new ArrayList<>(List.of(
                "modelscope",
                "download",
                kind.equals("dataset") ? "--dataset" : "--model",
                repository,
                "--revision",
                revision));
        if (include != null && !include.isEmpty()) {
            args.add("--include");
            args.addAll(include);
        }
        if (exclude != null && !exclude.isEmpty()) {
            args.add("--exclude");
            args.addAll(exclude);
        }
        args.addAll(List.of("--local_dir", dir, "--endpoint", endpoint));
        return args;
    }
}
