package io.crater.cli;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code crater completion bash|zsh|fish}, and the hidden {@code __names} the scripts refresh names with. */
@Command(
        name = "completion",
        description = {
            "Print the shell completion script for bash, zsh or fish.",
            "bash: source <(crater completion bash) in ~/.bashrc.",
            "zsh: source <(crater completion zsh) after compinit in ~/.zshrc (or save it as _crater in $fpath).",
            "fish: crater completion fish > ~/.config/fish/completions/crater.fish.",
            "Job, template, dataset, model, image and account names come from the lists you ran last, refreshed in"
                    + " the background."
        })
final class CompletionCommands extends Verb {

    /** The shells, for the completion of this very verb. */
    static final class Shells implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Completion.SHELLS.iterator();
        }
    }

    @Parameters(paramLabel = "SHELL", completionCandidates = Shells.class, description = "bash, zsh or fish.")
    String shell;

    @Override
    protected int execute() {
        out().print(Completion.script(CraterCli.full(term()), shell));
        out().flush();
        return Exit.OK;
    }

    /**
     * Lists and remembers the names completion offers: the current account's jobs of mine (newest first), the
     * templates I can use, the datasets, models and images I see (newest first), my accounts. The scripts run it detached when a cache is older than ten minutes.
     */
    @Command(name = "__names", hidden = true)
    static final class Names extends Verb {

        @Parameters(paramLabel = "KIND", description = "jobs, templates, datasets, models, images or accounts.")
        String kind;

        @Override
        protected int execute() {
            List<String> names = switch (kind) {
                case NameCache.JOBS -> jobs();
                case NameCache.TEMPLATES -> ids(api().get("/api/v1/templates"), "id");
                case NameCache.ACCOUNTS -> ids(Values.at(api().get("/api/v1/me"), "accounts"), "slug");
                case NameCache.DATASETS -> assets("dataset");
                case NameCache.MODELS -> assets("model");
                case NameCache.IMAGES -> ids(api().get(ImageCommands.PATH, Map.of("limit", 200)), "id");
                default ->
                    throw new CliException(
                            Exit.USAGE,
                            "unknown kind '" + kind + "': use jobs, templates, datasets, models, images or accounts");
            };
            NameCache.remember(term(), kind, names);
            names.forEach(out()::println);
            return Exit.OK;
        }

        private List<String> jobs() {
            Map<String, Object> query = new LinkedHashMap<>();
            query.put("mine", true);
            query.put("account", api().account());
            query.put("limit", 200);
            return ids(api().get("/api/v1/jobs", query), "id");
        }

        private List<String> assets(String assetKind) {
            return ids(api().get(AssetCommands.PATH, Map.of("kind", assetKind, "limit", 200)), "id");
        }

        private static List<String> ids(Object listOrPage, String field) {
            return Values.items(listOrPage).stream()
                    .map(o -> Values.text(o, field))
                    .filter(s -> s != null && !s.isBlank())
                    .toList();
        }
    }
}
