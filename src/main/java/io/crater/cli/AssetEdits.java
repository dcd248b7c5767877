package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The verbs that change a dataset or a model: update, share, unshare, refresh and delete. */
final class AssetEdits {

    private AssetEdits() {}

    /**
     * Puts the visibility a command line asks for: {@code --with-account SLUG} is visibility account in that account;
     * {@code --visibility account} alone takes the current account ({@code -a}, the context's, else one's default).
     */
    static void visibility(Verb v, Map<String, Object> body, String visibility, String withAccount) {
        if (withAccount != null) {
            if (visibility != null && !visibility.equals("account")) {
                throw new CliException(Exit.USAGE, v.msg().get("asset.withAccountIsAccount", visibility));
            }
            body.put("visibility", "account");
            body.put("account", withAccount);
        } else if (visibility != null) {
            body.put("visibility", visibility);
            if (visibility.equals("account")) {
                body.put("account", VerbInputs.account(v));
            }
        }
    }

    /** Prints what a change left, as the list shows it (or the object in the machine forms). */
    static void saved(Verb v, Object saved, String key) {
        if (v.output().human()) {
            v.out()
                    .println(v.msg()
                            .get(
                                    key,
                                    AssetCommands.noun(v),
                                    Values.text(saved, "name"),
                                    AssetCommands.visibility(saved),
                                    AssetCommands.size(saved),
                                    Values.text(saved, "files")));
        } else {
            v.output().one(saved, AssetCommands.columns(v.msg()), o -> Values.text(o, "id"));
        }
    }

    @Command(name = "update", description = "Change an entry you own; what you leave out stays.")
    static final class Update extends Verb {
        @Parameters(paramLabel = "ASSET", description = "Its id, its name (yours first) or OWNER/NAME.")
        String ref;

        @Option(names = "--name", paramLabel = "NAME", description = "A new name.")
        String name;

        @Option(
                names = "--path",
                paramLabel = "SPACE:/PATH",
                description = "Point it at another folder or file (measured again).")
        String where;

        @Option(names = "--description", paramLabel = "TEXT", description = "What it holds.")
        String description;

        @Option(names = "--licence", paramLabel = "TEXT", description = "Its licence.")
        String licence;

        @Option(names = "--source", paramLabel = "TEXT", description = "Where it came from.")
        String source;

        @Option(names = "--revision", paramLabel = "TEXT", description = "Which version it is.")
        String revision;

        @Option(names = "--tags", paramLabel = "TAG,...", split = ",", description = "Replace the tags ('' for none).")
        List<String> tags;

        @Option(names = "--visibility", paramLabel = "VISIBILITY", description = "private, account or public.")
        String visibility;

        @Option(
                names = "--with-account",
                paramLabel = "SLUG",
                description = "Share it with this account's members (visibility account).")
        String withAccount;

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            Catalogue.given(body, "name", name);
            if (where != null) {
                FileAddress at = FileCommands.address(this, where);
                body.put("space", at.space());
                body.put("path", at.path());
            }
            Catalogue.given(body, "description", description);
            Catalogue.given(body, "licence", licence);
            Catalogue.given(body, "source", source);
            Catalogue.given(body, "revision", revision);
            Catalogue.given(body, "tags", tags == null ? null : Catalogue.words(tags));
            visibility(this, body, visibility, withAccount);
            if (body.isEmpty()) {
                throw new CliException(Exit.USAGE, msg().get("catalogue.nothingToChange"));
            }
            saved(this, api().put(AssetCommands.path(this, ref), body), "asset.updated");
            return Exit.OK;
        }
    }

    @Command(
            name = "share",
            description = "Share an entry with the members of an account (default: the current one), or with everyone"
                    + " (--public: a platform admin's, or a path of the public space).")
    static final class Share extends Verb {
        @Parameters(paramLabel = "ASSET", description = "Its id, its name (yours first) or OWNER/NAME.")
        String ref;

        @Option(names = "--with-account", paramLabel = "SLUG", description = "The account whose members see it.")
        String withAccount;

        @Option(names = "--public", description = "Every signed-in user sees it.")
        boolean everyone;

        @Override
        protected int execute() {
            if (everyone && withAccount != null) {
                throw new CliException(Exit.USAGE, msg().get("asset.shareOneWay"));
            }
            String target = AssetCommands.path(this, ref);
            Map<String, Object> body = new LinkedHashMap<>();
            if (everyone) {
                body.put("visibility", "public");
            } else {
                visibility(this, body, "account", withAccount);
            }
            saved(this, api().put(target, body), "asset.shared");
            return Exit.OK;
        }
    }

    @Command(name = "unshare", description = "Make an entry private again: yours alone (jobs that run keep it).")
    static final class Unshare extends Verb {
        @Parameters(paramLabel = "ASSET", description = "Its id, its name (yours first) or OWNER/NAME.")
        String ref;

        @Override
        protected int execute() {
            saved(this, api().put(AssetCommands.path(this, ref), Map.of("visibility", "private")), "asset.shared");
            return Exit.OK;
        }
    }

    @Command(name = "refresh", description = "Measure an entry's size again (files change after it is registered).")
    static final class Refresh extends Verb {
        @Parameters(paramLabel = "ASSET", description = "Its id, its name (yours first) or OWNER/NAME.")
        String ref;

        @Override
        protected int execute() {
            saved(this, api().post(AssetCommands.path(this, ref) + "/refresh", Map.of()), "asset.refreshed");
            return Exit.OK;
        }
    }

    @Command(
            name = "delete",
            aliases = "rm",
            description = "Delete an entry from the catalogue (never its files); refused while a job that has not"
                    + " ended mounts it.")
    static final class Delete extends Verb {
        @Parameters(paramLabel = "ASSET", description = "Its id, its name (yours first) or OWNER/NAME.")
        String ref;

        @Override
        protected int execute() {
            String target = AssetCommands.path(this, ref);
            confirm(msg().get("asset.confirmDelete", AssetCommands.noun(this), ref));
            api().delete(target);
            err().println(msg().get("asset.deleted", AssetCommands.noun(this), ref));
            return Exit.OK;
        }
    }
}
