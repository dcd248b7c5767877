package io.crater.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code crater dataset download} / {@code crater model download} and {@code crater download …}: datasets and models
 * downloaded from a hub into a space, each run as a job ({@code /api/v1/assets/downloads}, docs/assets.md).
 */
final class DownloadCommands {

    private DownloadCommands() {}

    static final String PATH = "/api/v1/assets/downloads";

    @Command(
            name = "download",
            description = "Downloads from a model hub: their progress, pausing, resuming and retrying.",
            subcommands = {ListDownloads.class, Get.class, Pause.class, Resume.class, Retry.class})
    static final class Downloads {}

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.id"), "id"),
                Output.Column.path(msg.get("col.kind"), "kind"),
                Output.Column.path(msg.get("col.name"), "name"),
                Output.Column.path(msg.get("col.state"), "state"),
                Output.Column.of(msg.get("col.progress"), DownloadCommands::progress),
                Output.Column.path(msg.get("col.repository"), "repository"),
                Output.Column.wide(msg.get("col.commit"), o -> Values.text(o, "sha")),
                Output.Column.wide(msg.get("col.place"), AssetCommands::place),
                Output.Column.wide(msg.get("col.job"), o -> Values.text(o, "job")));
    }

    /** {@code 1.2 GiB of 4.0 GiB (30%), 3 of 9 files}. */
    static String progress(Object o) {
        long done = Values.at(o, "bytesDone") instanceof Number n ? n.longValue() : 0;
        long total = Values.at(o, "bytesTotal") instanceof Number n ? n.longValue() : 0;
        return Values.bytes(done) + " / " + Values.bytes(total) + " (" + Values.text(o, "percent") + "%), "
                + Values.text(o, "filesDone") + "/" + Values.text(o, "files");
    }

    @Command(
            name = "download",
            description = {
                "Download a repository from Hugging Face or ModelScope into one of your spaces and catalogue it when it is"
                        + " verified.",
                "The revision is resolved to a commit first; the same repository, commit and files downloaded already"
                        + " (one you can see) is answered with that download instead."
            })
    static final class Start extends Verb {
        @Parameters(paramLabel = "REPO", description = "The repository: OWNER/NAME (meta-llama/Llama-3-8B).")
        String repo;

        @Option(
                names = "--hub",
                paramLabel = "HUB",
                description = "huggingface (default) or modelscope.",
                defaultValue = "huggingface")
        String hub;

        @Option(
                names = "--revision",
                paramLabel = "REV",
                description = "A branch, tag or commit (default main; ModelScope: a branch or tag, default master).")
        String revision;

        @Option(names = "--include", paramLabel = "PATTERN", description = "Only files matching (repeat or a,b).")
        List<String> include;

        @Option(names = "--exclude", paramLabel = "PATTERN", description = "Not files matching (repeat or a,b).")
        List<String> exclude;

        @Option(
                names = "--credential",
                paramLabel = "NAME",
                description = "Your credential of the hub's kind (huggingface or modelscope), for gated or private"
                        + " repositories.")
        String credential;

        @Option(names = "--name", paramLabel = "NAME", description = "The entry's name (default: from REPO).")
        String name;

        @Option(
                names = "--path",
                paramLabel = "SPACE:/PATH",
                description = "The folder to download into (default user:/<kind>s/<name>); new or empty.")
        String where;

        @Option(
                names = "--visibility",
                paramLabel = "VISIBILITY",
                description = "private (default), account or public.")
        String visibility;

        @Option(names = "--with-account", paramLabel = "SLUG", description = "Share the entry with this account.")
        String withAccount;

        @Override
        protected int execute() {
            String kind = AssetCommands.kind(this);
            String entry = name != null ? name : defaultName(repo);
            FileAddress at = FileCommands.address(this, where != null ? where : "user:/" + kind + "s/" + entry);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("kind", kind);
            body.put("hub", hub);
            body.put("repository", repo);
            Catalogue.given(body, "revision", revision);
            Catalogue.given(body, "include", Catalogue.words(include));
            Catalogue.given(body, "exclude", Catalogue.words(exclude));
            Catalogue.given(body, "credential", credential);
            body.put("name", entry);
            body.put("space", at.space());
            body.put("path", at.path());
            AssetEdits.visibility(this, body, visibility, withAccount);
            Object d = api().post(PATH, body);
            if (!output().human()) {
                output().one(d, columns(msg()), o -> Values.text(o, "id"));
                return Exit.OK;
            }
            boolean again = Boolean.TRUE.equals(Values.at(d, "deduplicated"));
            out().println(msg().get(
                            again ? "download.existing" : "download.started",
                            Values.text(d, "repository"),
                            Values.text(d, "sha"),
                            Values.text(d, "id"),
                            AssetCommands.place(d),
                            Values.text(d, "job"),
                            Values.text(d, "state")));
            return Exit.OK;
        }
    }

    /** An entry name from a repository id: its last part, in lowercase, other characters as {@code -}. */
    static String defaultName(String repo) {
        String last = repo.substring(repo.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        String n = last.replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return n.length() > 63 ? n.substring(0, 63).replaceAll("-+$", "") : n;
    }

    @Command(name = "list", aliases = "ls", description = "The downloads you see, newest first, with their progress.")
    static final class ListDownloads extends Verb {
        @Option(names = "--mine", description = "Only your own.")
        boolean mine;

        @Override
        protected int execute() {
            List<String> ids = new ArrayList<>();
            output().list(
                            Catalogue.remembering(pages(PATH, Catalogue.query("mine", mine), 0), ids),
                            columns(msg()),
                            o -> Values.text(o, "id"));
            return Exit.OK;
        }
    }

    @Command(name = "get", description = "One download: its commit, progress, state, reason and warnings.")
    static final class Get extends Verb {
        @Parameters(paramLabel = "ID", description = "The download's id (dl_…).")
        String id;

        @Override
        protected int execute() {
            Object d = api().get(PATH + "/" + Api.seg(id));
            if (!output().human()) {
                output().object(d);
                return Exit.OK;
            }
            Messages m = msg();
            List<String[]> rows = new ArrayList<>();
            rows.add(Catalogue.row(m, "asset.label.id", Values.at(d, "id")));
            rows.add(Catalogue.row(m, "asset.label.name", Values.at(d, "name")));
            rows.add(Catalogue.row(m, "download.label.repository", Values.at(d, "repository")));
            rows.add(Catalogue.row(
                    m, "download.label.commit", Values.text(d, "sha") + " (" + Values.text(d, "revision") + ")"));
            rows.add(Catalogue.row(m, "asset.label.place", AssetCommands.place(d)));
            rows.add(Catalogue.row(m, "download.label.state", Values.at(d, "state")));
            rows.add(Catalogue.row(m, "download.label.progress", progress(d)));
            rows.add(Catalogue.row(m, "download.label.reason", Values.at(d, "message")));
            rows.add(Catalogue.row(m, "download.label.warnings", Values.at(d, "warnings")));
            rows.add(Catalogue.row(m, "download.label.job", Values.at(d, "job")));
            rows.add(Catalogue.row(m, "download.label.entry", Values.at(d, "asset")));
            JobDescribe.labelled(out(), rows);
            return Exit.OK;
        }
    }

    /** Posts an action on a download and says its state. */
    abstract static class Action extends Verb {
        @Parameters(paramLabel = "ID", description = "The download's id (dl_…).")
        String id;

        abstract String action();

        Object body() {
            return Map.of();
        }

        @Override
        protected int execute() {
            Object d = api().post(PATH + "/" + Api.seg(id) + "/" + action(), body());
            if (output().human()) {
                out().println(msg().get("download.now", Values.text(d, "id"), Values.text(d, "state"), progress(d)));
            } else {
                output().one(d, columns(msg()), o -> Values.text(o, "id"));
            }
            return Exit.OK;
        }
    }

    @Command(name = "pause", description = "Stop a running download's job; its files stay for a resume.")
    static final class Pause extends Action {
        @Override
        String action() {
            return "pause";
        }
    }

    @Command(name = "resume", description = "Continue a paused download with a new job.")
    static final class Resume extends Action {
        @Override
        String action() {
            return "resume";
        }
    }

    @Command(name = "retry", description = "Start a failed download again, into the same folder.")
    static final class Retry extends Action {
        @Option(
                names = "--endpoint",
                paramLabel = "URL",
                description = "Another address of the hub to fetch from (one of those the platform lists).")
        String endpoint;

        @Override
        String action() {
            return "retry";
        }

        @Override
        Object body() {
            return endpoint == null ? Map.of() : Map.of("endpoint", endpoint);
        }
    }
}
