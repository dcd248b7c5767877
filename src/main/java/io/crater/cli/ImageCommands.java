package io.crater.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code crater image …}: the image catalogue ({@code /api/v1/images}, docs/assets.md): container images described
 * for jobs (tags, CUDA version, architectures, vendors, kinds), shared, and checked against their registry.
 */
@Command(
        name = "image",
        description = "The image catalogue: container images described for jobs, shared, and checked against their"
                + " registry.",
        subcommands = {
            ImageCommands.ListImages.class,
            ImageCommands.Get.class,
            ImageCommands.Add.class,
            ImageEdits.Update.class,
            ImageEdits.Share.class,
            ImageEdits.Unshare.class,
            ImageEdits.Check.class,
            ImageEdits.Delete.class,
            ImageBuildCommands.Build.class,
            ImageBuildCommands.ListBuilds.class
        })
final class ImageCommands {

    static final String PATH = "/api/v1/images";

    /** The id of the image a word names: its id, or its reference ({@code pytorch/pytorch}, Docker Hub's spelt out). */
    static String id(Verb v, String word) {
        return Catalogue.resolve(
                v,
                word,
                PATH,
                Catalogue.query("q", word),
                reference(word),
                v.msg().get("image.noun"));
    }

    static String path(Verb v, String word) {
        return PATH + "/" + Api.seg(id(v, word));
    }

    /** Whether an image is the one a reference names, as the server stores references (Docker Hub's in full). */
    static Predicate<Object> reference(String word) {
        List<String> forms = List.of(word, "docker.io/" + word, "docker.io/library/" + word);
        return o -> forms.contains(Values.text(o, "reference"));
    }

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.id"), "id"),
                Output.Column.path(msg.get("col.reference"), "reference"),
                Output.Column.of(msg.get("col.tags"), o -> joined(o, "tags")),
                Output.Column.path(msg.get("col.cuda"), "cudaVersion"),
                Output.Column.of(msg.get("col.vendors"), o -> joined(o, "vendors")),
                Output.Column.of(msg.get("col.kinds"), o -> joined(o, "kinds")),
                Output.Column.of(msg.get("col.visibility"), AssetCommands::visibility),
                Output.Column.path(msg.get("col.owner"), "owner"),
                Output.Column.of(msg.get("col.checks"), o -> checks(msg, o)),
                Output.Column.wide(msg.get("col.architectures"), o -> joined(o, "architectures")),
                Output.Column.wide(msg.get("col.description"), o -> Values.text(o, "description")));
    }

    static List<Output.Column> checkColumns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.tag"), "tag"),
                Output.Column.path(msg.get("col.result"), "result"),
                Output.Column.path(msg.get("col.digest"), "digest"),
                Output.Column.path(msg.get("col.checked"), "checkedAt"),
                Output.Column.path(msg.get("col.detail"), "detail"));
    }

    static String joined(Object o, String field) {
        return String.join(",", AssetCommands.strings(Values.at(o, field)));
    }

    /** {@code 2/3 ok}: how many of the tags the last check found, or that none was checked. */
    static String checks(Messages msg, Object o) {
        List<Object> checks = Values.list(Values.at(o, "checks"));
        if (checks.isEmpty()) {
            return msg.get("image.unchecked");
        }
        long ok = checks.stream()
                .filter(c -> "ok".equals(Values.text(c, "result")))
                .count();
        return msg.get(
                "image.checkSummary", ok, Values.list(Values.at(o, "tags")).size());
    }

    @Command(
            name = "list",
            aliases = "ls",
            description =
                    "The images you see, newest first: yours, your accounts', those shared with you, public ones.")
    static final class ListImages extends Verb {
        @Option(names = "--mine", description = "Only your own.")
        boolean mine;

        @Option(
                names = {"-q", "--search"},
                paramLabel = "TEXT",
                description = "Only images with this text in their reference, description or tags.")
        String search;

        @Option(
                names = "--kind",
                paramLabel = "KIND",
                description = "Only images fit for this job kind (jupyter, webide, custom, pytorch, inference).")
        String kind;

        @Option(names = "--vendor", paramLabel = "VENDOR", description = "Only images for this accelerator vendor.")
        String vendor;

        @Option(
                names = "--accelerator",
                paramLabel = "MODEL",
                description = "Only images for this accelerator model's vendor (see 'crater cluster accelerators').")
        String accelerator;

        @Option(names = "--visibility", paramLabel = "VISIBILITY", description = "private, account or public.")
        String visibility;

        @Option(names = "--max-items", paramLabel = "N", description = "Stop after N images (default: all).")
        int maxItems;

        @Override
        protected int execute() {
            Map<String, Object> q = Catalogue.query(
                    "q", search,
                    "kind", kind,
                    "vendor", vendor,
                    "accelerator", accelerator,
                    "visibility", visibility,
                    "mine", mine);
            List<String> ids = new ArrayList<>();
            output().list(
                            Catalogue.remembering(pages(PATH, q, Math.max(0, maxItems)), ids),
                            columns(msg()),
                            o -> Values.text(o, "id"));
            NameCache.remember(term(), NameCache.IMAGES, ids);
            return Exit.OK;
        }
    }

    @Command(
            name = "get",
            description = "One image: what it is built for, who sees it, and the last check of each tag"
                    + " (-o json/yaml: the API's object).")
    static final class Get extends Verb {
        @Parameters(paramLabel = "IMAGE", description = "Its id or its reference (ghcr.io/org/trainer).")
        String ref;

        @Override
        protected int execute() {
            Object image = api().get(path(this, ref));
            if (!output().human()) {
                output().object(image);
                return Exit.OK;
            }
            describe(this, image);
            return Exit.OK;
        }
    }

    /** An image for a person: labelled lines, then its checks as a table. */
    static void describe(Verb v, Object i) {
        Messages m = v.msg();
        List<String[]> rows = new ArrayList<>();
        rows.add(Catalogue.row(m, "image.label.id", Values.at(i, "id")));
        rows.add(Catalogue.row(m, "image.label.reference", Values.at(i, "reference")));
        rows.add(Catalogue.row(m, "image.label.owner", Values.at(i, "owner")));
        rows.add(Catalogue.row(m, "image.label.tags", Values.at(i, "tags")));
        rows.add(Catalogue.row(m, "image.label.cuda", Values.at(i, "cudaVersion")));
        rows.add(Catalogue.row(m, "image.label.architectures", Values.at(i, "architectures")));
        rows.add(Catalogue.row(m, "image.label.vendors", Values.at(i, "vendors")));
        rows.add(Catalogue.row(m, "image.label.kinds", Values.at(i, "kinds")));
        rows.add(Catalogue.row(m, "image.label.visibility", AssetCommands.visibility(i)));
        rows.add(Catalogue.row(m, "image.label.sharedUsers", Values.at(i, "sharedWith.users")));
        rows.add(Catalogue.row(m, "image.label.sharedAccounts", Values.at(i, "sharedWith.accounts")));
        rows.add(Catalogue.row(m, "image.label.description", Values.at(i, "description")));
        rows.add(Catalogue.row(m, "image.label.created", Values.at(i, "createdAt")));
        rows.add(Catalogue.row(m, "image.label.updated", Values.at(i, "updatedAt")));
        JobDescribe.labelled(v.out(), rows);
        List<Object> checks = Values.list(Values.at(i, "checks"));
        v.out().println();
        if (checks.isEmpty()) {
            v.out().println(m.get("image.noChecks"));
            return;
        }
        v.output().list(List.of(checks).iterator(), checkColumns(m), o -> Values.text(o, "tag"));
    }

    @Command(
            name = "add",
            description = {
                "Register an image (nothing is pulled or pushed): a registry and repository without tag, and its tags.",
                "Visibility private (the default) is yours alone; account is the current account's members; public"
                        + " is a platform admin's. --user and --with-account share it besides."
            })
    static final class Add extends Verb {
        @Parameters(
                paramLabel = "REFERENCE",
                description = "ghcr.io/org/trainer, registry.example.org:5000/team/env, pytorch/pytorch.")
        String reference;

        @Option(
                names = "--tag",
                required = true,
                split = ",",
                paramLabel = "TAG",
                description = "A tag (repeat, or a,b,c).")
        List<String> tags;

        @Option(names = "--description", paramLabel = "TEXT", description = "What is in it.")
        String description;

        @Option(names = "--cuda", paramLabel = "VERSION", description = "The CUDA version it is built with (12.4).")
        String cuda;

        @Option(
                names = "--arch",
                split = ",",
                paramLabel = "ARCH",
                description = "CPU architectures (amd64, arm64, ...).")
        List<String> architectures;

        @Option(
                names = "--vendor",
                split = ",",
                paramLabel = "VENDOR",
                description = "Accelerator vendors it runs on (nvidia, huawei, amd).")
        List<String> vendors;

        @Option(
                names = "--kind",
                split = ",",
                paramLabel = "KIND",
                description = "Job kinds it is meant for (jupyter, webide, custom, pytorch, inference).")
        List<String> kinds;

        @Option(
                names = "--visibility",
                paramLabel = "VISIBILITY",
                description = "private (default), account or public.")
        String visibility;

        @Option(names = "--user", split = ",", paramLabel = "USER", description = "Share it with a user.")
        List<String> users;

        @Option(
                names = "--with-account",
                split = ",",
                paramLabel = "SLUG",
                description = "Share it with an account's members.")
        List<String> accounts;

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("reference", reference);
            body.put("tags", Catalogue.words(tags));
            ImageEdits.describedBy(
                    this, body, new ImageEdits.Described(description, cuda, architectures, vendors, kinds, visibility));
            if (users != null || accounts != null) {
                body.put("sharedWith", ImageEdits.shares(Catalogue.words(users), Catalogue.words(accounts)));
            }
            Object made = api().post(PATH, body);
            if (output().human()) {
                out().println(msg().get(
                                "image.added",
                                Values.text(made, "reference"),
                                Values.text(made, "id"),
                                joined(made, "tags")));
            } else {
                output().one(made, columns(msg()), o -> Values.text(o, "id"));
            }
            return Exit.OK;
        }
    }
}
