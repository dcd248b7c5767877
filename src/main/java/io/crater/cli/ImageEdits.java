package io.crater.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The verbs that change an image of the catalogue or check it: update, share, unshare, check and delete. */
final class ImageEdits {

    private ImageEdits() {}

    /** What an image is built for and who sees it, as a command line gave it (null: not given). */
    record Described(
            String description,
            String cuda,
            List<String> architectures,
            List<String> vendors,
            List<String> kinds,
            String visibility) {}

    /** Puts the fields given; visibility account is the current account's ({@code -a}, else the context's). */
    static void describedBy(Verb v, Map<String, Object> body, Described d) {
        Catalogue.given(body, "description", d.description());
        Catalogue.given(body, "cudaVersion", d.cuda());
        Catalogue.given(body, "architectures", Catalogue.words(d.architectures()));
        Catalogue.given(body, "vendors", Catalogue.words(d.vendors()));
        Catalogue.given(body, "kinds", Catalogue.words(d.kinds()));
        if (d.visibility() != null) {
            body.put("visibility", d.visibility());
            if (d.visibility().equals("account")) {
                body.put("account", VerbInputs.account(v));
            }
        }
    }

    static Map<String, Object> shares(List<String> users, List<String> accounts) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("users", users == null ? List.of() : users);
        s.put("accounts", accounts == null ? List.of() : accounts);
        return s;
    }

    static void saved(Verb v, Object saved, String key) {
        if (v.output().human()) {
            v.out()
                    .println(v.msg()
                            .get(
                                    key,
                                    Values.text(saved, "reference"),
                                    AssetCommands.visibility(saved),
                                    names(Values.at(saved, "sharedWith.users")),
                                    names(Values.at(saved, "sharedWith.accounts"))));
        } else {
            v.output().one(saved, ImageCommands.columns(v.msg()), o -> Values.text(o, "id"));
        }
    }

    /** {@code bob, carol}, or {@code -} for none. */
    static String names(Object list) {
        List<String> names = AssetCommands.strings(list);
        return names.isEmpty() ? "-" : String.join(", ", names);
    }

    @Command(name = "update", description = "Change an image you own; what you leave out stays, a list given replaces.")
    static final class Update extends Verb {
        @Parameters(paramLabel = "IMAGE", description = "Its id or its reference.")
        String ref;

        @Option(names = "--reference", paramLabel = "REFERENCE", description = "Another registry and repository.")
        String reference;

        @Option(names = "--tags", split = ",", paramLabel = "TAG,...", description = "Replace the tags.")
        List<String> tags;

        @Option(names = "--description", paramLabel = "TEXT", description = "What is in it.")
        String description;

        @Option(names = "--cuda", paramLabel = "VERSION", description = "The CUDA version ('' for none).")
        String cuda;

        @Option(names = "--arch", split = ",", paramLabel = "ARCH", description = "Replace the architectures.")
        List<String> architectures;

        @Option(names = "--vendor", split = ",", paramLabel = "VENDOR", description = "Replace the vendors.")
        List<String> vendors;

        @Option(names = "--kind", split = ",", paramLabel = "KIND", description = "Replace the job kinds.")
        List<String> kinds;

        @Option(names = "--visibility", paramLabel = "VISIBILITY", description = "private, account or public.")
        String visibility;

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            Catalogue.given(body, "reference", reference);
            Catalogue.given(body, "tags", Catalogue.words(tags));
            describedBy(this, body, new Described(description, cuda, architectures, vendors, kinds, visibility));
            if (body.isEmpty()) {
                throw new CliException(Exit.USAGE, msg().get("catalogue.nothingToChange"));
            }
            saved(this, api().put(ImageCommands.path(this, ref), body), "image.updated");
            return Exit.OK;
        }
    }

    /** Adds or takes away users and accounts of an image's share lists. */
    abstract static class Sharing extends Verb {
        @Parameters(paramLabel = "IMAGE", description = "Its id or its reference.")
        String ref;

        @Option(names = "--user", split = ",", paramLabel = "USER", description = "A user (by username).")
        List<String> users;

        @Option(names = "--with-account", split = ",", paramLabel = "SLUG", description = "An account (every member).")
        List<String> accounts;

        abstract boolean adding();

        @Override
        protected int execute() {
            if (users == null && accounts == null) {
                throw new CliException(Exit.USAGE, msg().get("image.shareWhom"));
            }
            String target = ImageCommands.path(this, ref);
            Object now = api().get(target);
            if (!Boolean.TRUE.equals(Values.at(now, "mayEdit"))) {
                throw new CliException(Exit.DENIED, msg().get("image.notYours", Values.text(now, "reference")));
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put(
                    "sharedWith",
                    shares(
                            changed(Values.at(now, "sharedWith.users"), users),
                            changed(Values.at(now, "sharedWith.accounts"), accounts)));
            saved(this, api().put(target, body), "image.shared");
            return Exit.OK;
        }

        private List<String> changed(Object current, List<String> given) {
            List<String> names = new ArrayList<>(AssetCommands.strings(current));
            for (String name : Catalogue.words(given == null ? List.of() : given)) {
                if (adding() && !names.contains(name)) {
                    names.add(name);
                } else if (!adding()) {
                    names.remove(name);
                }
            }
            return names;
        }
    }

    @Command(name = "share", description = "Share an image you own with users or accounts, whatever its visibility.")
    static final class Share extends Sharing {
        @Override
        boolean adding() {
            return true;
        }
    }

    @Command(name = "unshare", description = "Take users or accounts off an image's share lists.")
    static final class Unshare extends Sharing {
        @Override
        boolean adding() {
            return false;
        }
    }

    @Command(
            name = "check",
            aliases = "validate",
            description = {
                "Ask the registry about each tag, with your registry credential for its host if you stored one.",
                "Each tag is ok, not-found, unauthorized or unreachable; the exit code is 1 when one is not ok."
            })
    static final class Check extends Verb {
        @Parameters(paramLabel = "IMAGE", description = "Its id or its reference.")
        String ref;

        @Override
        protected int execute() {
            Object image = api().post(ImageCommands.path(this, ref) + "/validate", Map.of());
            List<Object> checks = Values.list(Values.at(image, "checks"));
            if (output().human()) {
                output().list(
                                List.of(checks).iterator(),
                                ImageCommands.checkColumns(msg()),
                                o -> Values.text(o, "tag"));
            } else {
                output().object(image);
            }
            long ok = checks.stream()
                    .filter(c -> "ok".equals(Values.text(c, "result")))
                    .count();
            err().println(msg().get("image.checked", Values.text(image, "reference"), ok, checks.size()));
            return ok == checks.size() ? Exit.OK : Exit.ERROR;
        }
    }

    @Command(
            name = "delete",
            aliases = "rm",
            description = "Delete an image from the catalogue (never from its registry).")
    static final class Delete extends Verb {
        @Parameters(paramLabel = "IMAGE", description = "Its id or its reference.")
        String ref;

        @Override
        protected int execute() {
            String target = ImageCommands.path(this, ref);
            confirm(msg().get("image.confirmDelete", ref));
            api().delete(target);
            err().println(msg().get("image.deleted", ref));
            return Exit.OK;
        }
    }
}
