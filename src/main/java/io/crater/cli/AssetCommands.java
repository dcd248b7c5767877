package io.crater.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code crater dataset …} and {@code crater model …}: catalogue entries naming a folder or file of a file space,
 * which jobs mount read-only ({@code /api/v1/assets}, docs/assets.md). The same verbs serve both kinds; which one a
 * verb works on is the family it was called under.
 */
final class AssetCommands {

    private AssetCommands() {}

    static final String PATH = "/api/v1/assets";

    @Command(
            name = "dataset",
            description = "Datasets: folders or files of your spaces registered for jobs to mount read-only by name.",
            subcommands = {
                ListAssets.class,
                Get.class,
                Create.class,
                DownloadCommands.Start.class,
                AssetEdits.Update.class,
                AssetEdits.Share.class,
                AssetEdits.Unshare.class,
                AssetEdits.Refresh.class,
                AssetEdits.Delete.class
            })
    static final class Datasets {}

    @Command(
            name = "model",
            description = "Models (weights): folders or files of your spaces registered for jobs to mount read-only"
                    + " by name.",
            subcommands = {
                ListAssets.class,
                Get.class,
                Create.class,
                DownloadCommands.Start.class,
                AssetEdits.Update.class,
                AssetEdits.Share.class,
                AssetEdits.Unshare.class,
                AssetEdits.Refresh.class,
                AssetEdits.Delete.class
            })
    static final class Models {}

    /** {@code dataset} or {@code model}: the family a verb was called under. */
    static String kind(Verb v) {
        return v.spec.parent() != null && v.spec.parent().userObject() instanceof Models ? "model" : "dataset";
    }

    /** The kind as the messages say it ("dataset", "数据集"). */
    static String noun(Verb v) {
        return v.msg().get("asset.kind." + kind(v));
    }

    /** The id of the entry of this kind a word names (an id, {@code name} or {@code owner/name}). */
    static String id(Verb v, String word) {
        return Catalogue.resolve(
                v,
                word,
                PATH,
                Catalogue.query("kind", kind(v), "q", word.substring(word.indexOf('/') + 1)),
                Catalogue.named(word, "name"),
                noun(v));
    }

    static String path(Verb v, String word) {
        return PATH + "/" + Api.seg(id(v, word));
    }

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.id"), "id"),
                Output.Column.path(msg.get("col.name"), "name"),
                Output.Column.path(msg.get("col.owner"), "owner"),
                Output.Column.of(msg.get("col.size"), o -> size(o)),
                Output.Column.of(msg.get("col.visibility"), AssetCommands::visibility),
                Output.Column.of(msg.get("col.tags"), o -> String.join(",", strings(Values.at(o, "tags")))),
                Output.Column.wide(msg.get("col.place"), AssetCommands::place),
                Output.Column.wide(msg.get("col.files"), o -> Values.text(o, "files")),
                Output.Column.wide(msg.get("col.description"), o -> Values.text(o, "description")));
    }

    static String size(Object o) {
        Object n = Values.at(o, "sizeBytes");
        return n instanceof Number b ? Values.bytes(b.longValue()) : "";
    }

    /** {@code account (vision-lab)} for an account's entry, else the visibility alone. */
    static String visibility(Object o) {
        String v = Values.text(o, "visibility");
        String account = Values.text(o, "account");
        return "account".equals(v) && account != null ? v + " (" + account + ")" : v;
    }

    /** {@code user:alice:/imagenet}: the space and the path as the file API names them. */
    static String place(Object o) {
        return Values.text(o, "space") + ":" + Values.text(o, "path");
    }

    static List<String> strings(Object list) {
        return Values.list(list).stream().map(String::valueOf).toList();
    }

    @Command(
            name = "list",
            aliases = "ls",
            description = "The entries you see, newest first: your own, your accounts' and public ones.")
    static final class ListAssets extends Verb {
        @Option(names = "--mine", description = "Only your own.")
        boolean mine;

        @Option(names = "--tag", paramLabel = "TAG", description = "Only entries with this tag.")
        String tag;

        @Option(
                names = {"-q", "--search"},
                paramLabel = "TEXT",
                description = "Only entries with this text in their name or description.")
        String search;

        @Option(names = "--visibility", paramLabel = "VISIBILITY", description = "private, account or public.")
        String visibility;

        @Option(
                names = "--shared-in",
                paramLabel = "SLUG",
                description = "Only entries shared with this account (one you may read).")
        String sharedIn;

        @Option(names = "--max-items", paramLabel = "N", description = "Stop after N entries (default: all).")
        int maxItems;

        @Override
        protected int execute() {
            Map<String, Object> q = Catalogue.query(
                    "kind", kind(this),
                    "tag", tag,
                    "q", search,
                    "visibility", visibility,
                    "account", sharedIn,
                    "mine", mine);
            List<String> ids = new ArrayList<>();
            output().list(
                            Catalogue.remembering(pages(PATH, q, Math.max(0, maxItems)), ids),
                            columns(msg()),
                            o -> Values.text(o, "id"));
            NameCache.remember(term(), kind(this) + "s", ids);
            return Exit.OK;
        }
    }

    @Command(
            name = "get",
            description = "One entry: where it lies, its size, licence, source, visibility and tags"
                    + " (-o json/yaml: the API's object).")
    static final class Get extends Verb {
        @Parameters(paramLabel = "ASSET", description = "Its id, its name (yours first) or OWNER/NAME.")
        String ref;

        @Override
        protected int execute() {
            Object a = api().get(path(this, ref));
            if (!output().human()) {
                output().object(a);
                return Exit.OK;
            }
            describe(msg(), a);
            return Exit.OK;
        }

        void describe(Messages m, Object a) {
            List<String[]> rows = new ArrayList<>();
            rows.add(Catalogue.row(m, "asset.label.id", Values.at(a, "id")));
            rows.add(Catalogue.row(m, "asset.label.name", Values.at(a, "name")));
            rows.add(Catalogue.row(m, "asset.label.owner", Values.at(a, "owner")));
            rows.add(Catalogue.row(m, "asset.label.place", place(a) + " (" + Values.text(a, "targetType") + ")"));
            rows.add(Catalogue.row(
                    m,
                    "asset.label.size",
                    m.get("asset.sizeOf", size(a), Values.text(a, "files"), Values.text(a, "measuredAt"))));
            rows.add(Catalogue.row(m, "asset.label.visibility", visibility(a)));
            rows.add(Catalogue.row(m, "asset.label.tags", Values.at(a, "tags")));
            rows.add(Catalogue.row(m, "asset.label.licence", Values.at(a, "licence")));
            rows.add(Catalogue.row(m, "asset.label.source", Values.at(a, "source")));
            rows.add(Catalogue.row(m, "asset.label.revision", Values.at(a, "revision")));
            rows.add(Catalogue.row(m, "asset.label.description", Values.at(a, "description")));
            rows.add(Catalogue.row(m, "asset.label.created", Values.at(a, "createdAt")));
            rows.add(Catalogue.row(m, "asset.label.updated", Values.at(a, "updatedAt")));
            JobDescribe.labelled(out(), rows);
        }
    }

    @Command(
            name = "create",
            aliases = "register",
            description = {
                "Register a folder or file of one of your spaces (nothing is copied; jobs mount it read-only).",
                "Visibility private (the default) is yours alone; account shares it with the members of an account;"
                        + " public only for a platform admin or a path of the public space."
            })
    static final class Create extends Verb {
        @Parameters(index = "0", paramLabel = "NAME", description = "1 to 63 lowercase letters, digits or -.")
        String name;

        @Parameters(
                index = "1",
                paramLabel = "SPACE:/PATH",
                description = "Where it lies: user:/imagenet, account:SLUG:/data, public:/models/x.")
        String where;

        @Option(names = "--description", paramLabel = "TEXT", description = "What it holds.")
        String description;

        @Option(names = "--licence", paramLabel = "TEXT", description = "Its licence (CC-BY-4.0, apache-2.0, ...).")
        String licence;

        @Option(names = "--source", paramLabel = "TEXT", description = "Where it came from (free text or a URL).")
        String source;

        @Option(names = "--revision", paramLabel = "TEXT", description = "Which version it is.")
        String revision;

        @Option(names = "--tag", paramLabel = "TAG", description = "A tag (repeat for several).")
        List<String> tags;

        @Option(
                names = "--visibility",
                paramLabel = "VISIBILITY",
                description = "private (default), account or public.")
        String visibility;

        @Option(
                names = "--with-account",
                paramLabel = "SLUG",
                description = "Share it with this account's members (visibility account; default for account: the"
                        + " current account).")
        String withAccount;

        @Override
        protected int execute() {
            FileAddress at = FileCommands.address(this, where);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("kind", kind(this));
            body.put("name", name);
            body.put("space", at.space());
            body.put("path", at.path());
            Catalogue.given(body, "description", description);
            Catalogue.given(body, "licence", licence);
            Catalogue.given(body, "source", source);
            Catalogue.given(body, "revision", revision);
            Catalogue.given(body, "tags", Catalogue.words(tags));
            AssetEdits.visibility(this, body, visibility, withAccount);
            Object made = api().post(PATH, body);
            if (output().human()) {
                out().println(msg().get(
                                "asset.created",
                                noun(this),
                                Values.text(made, "name"),
                                Values.text(made, "id"),
                                size(made),
                                Values.text(made, "files")));
            } else {
                output().one(made, columns(msg()), o -> Values.text(o, "id"));
            }
            return Exit.OK;
        }
    }
}
