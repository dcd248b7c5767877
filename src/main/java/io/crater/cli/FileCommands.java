package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code crater files …}: the file spaces (docs/storage.md) through the file API. */
@Command(
        mixinStandardHelpOptions = true,
        name = "files",
        description = {
            "Files in your spaces: list, download, upload, make folders, move, copy, delete to the trash, restore.",
            "A file's address is SPACE:/PATH, the path always from the space's root: user:/data/a.txt (your own"
                    + " space), account:vision:/shared (account vision's), account:/shared (the account commands act"
                    + " in), public:/datasets. SPACE: alone is the root; a PATH ending in / is a folder to put"
                    + " things into under their own names."
        },
        subcommands = {
            FileCommands.Spaces.class,
            FileCommands.Ls.class,
            FileTransfers.Get.class,
            FileTransfers.Put.class,
            FileCommands.Mkdir.class,
            FileCommands.Mv.class,
            FileCommands.Cp.class,
            FileCommands.Rm.class,
            FileCommands.TrashList.class,
            FileCommands.Restore.class
        })
final class FileCommands {

    static final String ADDRESS = "SPACE:/PATH";

    /** An address from the command line, {@code account:/…} made the current account's. */
    static FileAddress address(Verb v, String text) {
        FileAddress a = FileAddress.parse(text);
        return a.needsAccount() ? a.in(VerbInputs.account(v)) : a;
    }

    /** A space's name as the API knows it: {@code account} alone is the current account's. */
    static String space(Verb v, String name) {
        return name.equals("account") ? "account:" + VerbInputs.account(v) : name;
    }

    /** One entry's details; a 404 is the API's own error. */
    static Object stat(Verb v, FileAddress a) {
        return v.api().get(a.url(), Map.of("stat", true));
    }

    /** One entry's details, or null when nothing is there. */
    static Object statIfThere(Verb v, FileAddress a) {
        try {
            return stat(v, a);
        } catch (Problems.ApiError e) {
            if (e.status() == 404) {
                return null;
            }
            throw e;
        }
    }

    static String size(Object entry) {
        return "file".equals(Values.text(entry, "type")) && Values.at(entry, "size") instanceof Number n
                ? Values.bytes(n.longValue())
                : "-";
    }

    static String bytesAt(Object o, String field) {
        return Values.at(o, field) instanceof Number n ? Values.bytes(n.longValue()) : "";
    }

    static String limit(Messages msg, Object value, boolean bytes) {
        if (!(value instanceof Number n)) {
            return "";
        }
        if (n.longValue() < 0) {
            return msg.get("files.noLimit");
        }
        return bytes ? Values.bytes(n.longValue()) : n.toString();
    }

    static List<Output.Column> entryColumns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.name"), "name"),
                Output.Column.path(msg.get("col.type"), "type"),
                Output.Column.of(msg.get("col.size"), FileCommands::size),
                Output.Column.path(msg.get("col.modified"), "modified"),
                Output.Column.wide(msg.get("col.bytes"), o -> Values.text(o, "size")),
                Output.Column.wide(msg.get("col.path"), o -> Values.text(o, "path")));
    }

    @Command(name = "spaces", description = "The spaces you may see, with your access, their usage and quota.")
    static final class Spaces extends Verb {
        @Override
        protected int execute() {
            Messages m = msg();
            List<Output.Column> cols = List.of(
                    Output.Column.path(m.get("col.space"), "name"),
                    Output.Column.path(m.get("col.access"), "access"),
                    Output.Column.of(m.get("col.used"), o -> bytesAt(o, "usedBytes")),
                    Output.Column.of(m.get("col.quota"), o -> limit(m, Values.at(o, "maxBytes"), true)),
                    Output.Column.path(m.get("col.entries"), "usedFiles"),
                    Output.Column.of(m.get("col.entryQuota"), o -> limit(m, Values.at(o, "maxFiles"), false)),
                    Output.Column.wide(m.get("col.kind"), o -> Values.text(o, "kind")));
            List<Object> spaces = Values.items(api().get("/api/v1/spaces"));
            output().list(List.of(spaces).iterator(), cols, o -> Values.text(o, "name"));
            return Exit.OK;
        }
    }

    @Command(
            name = "ls",
            aliases = "list",
            description = "A folder's entries (folders first, then by name), every page; a file shows itself.")
    static final class Ls extends Verb {
        @Parameters(paramLabel = ADDRESS, description = "The folder (or file), e.g. user:/data.")
        String where;

        @Override
        protected int execute() {
            FileAddress a = address(this, where);
            Object entry = stat(this, a);
            if (!"folder".equals(Values.text(entry, "type"))) {
                output().list(List.of(List.of(entry)).iterator(), entryColumns(msg()), o -> Values.text(o, "name"));
                return Exit.OK;
            }
            output().list(pages(a.url(), Map.of(), 0), entryColumns(msg()), o -> Values.text(o, "name"));
            return Exit.OK;
        }
    }

    @Command(name = "mkdir", description = "Make a folder (its parent must exist, or give -p).")
    static final class Mkdir extends Verb {
        @Parameters(paramLabel = ADDRESS, description = "The new folder, e.g. user:/data/run1.")
        String where;

        @Option(
                names = {"-p", "--parents"},
                description = "Make the folders on the way too; one that is there already is fine.")
        boolean parents;

        @Override
        protected int execute() {
            FileAddress a = address(this, where);
            if (parents) {
                makeFolders(this, a);
            } else {
                api().post(a.url(), Map.of("action", "mkdir"));
            }
            out().println(msg().get("files.made", a));
            return Exit.OK;
        }
    }

    /** Makes a folder and those above it, taking one that exists already (409 AlreadyExists) as made. */
    static void makeFolders(Verb v, FileAddress folder) {
        for (int i = 1; i <= folder.segments().size(); i++) {
            makeFolder(v, new FileAddress(folder.space(), folder.segments().subList(0, i), false));
        }
    }

    /** Makes one folder; one that is there already is fine, anything else there is the API's 409. */
    static void makeFolder(Verb v, FileAddress folder) {
        try {
            v.api().post(folder.url(), Map.of("action", "mkdir"));
        } catch (Problems.ApiError e) {
            boolean folderThere = e.status() == 409 && "folder".equals(Values.text(statIfThere(v, folder), "type"));
            if (!folderThere) {
                throw e;
            }
        }
    }

    /** {@code files mv} and {@code files cp}: the same request with another action. */
    abstract static class Transfer extends Verb {
        @Parameters(index = "0", paramLabel = "FROM", description = "What to move or copy, SPACE:/PATH.")
        String from;

        @Parameters(
                index = "1",
                paramLabel = "TO",
                description = "Where it goes, SPACE:/PATH (another space too); ending in / puts it inside that folder.")
        String to;

        @Option(names = "--overwrite", description = "Replace a file at the destination (never a folder).")
        boolean overwrite;

        abstract String action();

        @Override
        protected int execute() {
            FileAddress source = address(this, from);
            FileAddress dest = address(this, to);
            if (source.root()) {
                throw new CliException(Exit.USAGE, msg().get("files.notRoot", source));
            }
            FileAddress target = dest.target(source.name());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("action", action());
            body.put("to", target.path());
            body.put("toSpace", target.space());
            body.put("overwrite", overwrite);
            Object entry = api().post(source.url(), body);
            FileAddress landed = FileAddress.of(target.space(), Values.text(entry, "path"));
            if (output().human()) {
                out().println(msg().get(action().equals("move") ? "files.moved" : "files.copied", source, landed));
            } else {
                output().object(entry);
            }
            return Exit.OK;
        }
    }

    @Command(name = "mv", aliases = "move", description = "Rename or move an entry, also into another space.")
    static final class Mv extends Transfer {
        @Override
        String action() {
            return "move";
        }
    }

    @Command(name = "cp", aliases = "copy", description = "Copy a file or a folder, also into another space.")
    static final class Cp extends Transfer {
        @Override
        String action() {
            return "copy";
        }
    }

    @Command(
            name = "rm",
            aliases = "delete",
            description = "Move an entry to its space's trash; it can be restored until the trash is swept.")
    static final class Rm extends Verb {
        @Parameters(paramLabel = ADDRESS, description = "What to delete.")
        String where;

        @Option(
                names = {"-r", "--recursive"},
                description = "A folder with everything in it (without, only an empty folder).")
        boolean recursive;

        @Override
        protected int execute() {
            FileAddress a = address(this, where);
            if (a.root()) {
                throw new CliException(Exit.USAGE, msg().get("files.notRoot", a));
            }
            Object trashed = api().delete(a.url() + Api.query(Map.of("recursive", recursive)));
            if (output().human()) {
                out().println(msg().get(
                                "files.trashed",
                                a,
                                Values.text(trashed, "id"),
                                Values.text(trashed, "expiresAt"),
                                a.space()));
            } else {
                output().object(trashed);
            }
            return Exit.OK;
        }
    }

    @Command(name = "trash", description = "What was deleted in a space, newest first, and until when it can return.")
    static final class TrashList extends Verb {
        @Parameters(paramLabel = "SPACE", description = "user, public, account:SLUG, or account (the current one).")
        String space;

        @Override
        protected int execute() {
            Messages m = msg();
            List<Output.Column> cols = List.of(
                    Output.Column.path(m.get("col.id"), "id"),
                    Output.Column.path(m.get("col.path"), "path"),
                    Output.Column.path(m.get("col.type"), "type"),
                    Output.Column.of(m.get("col.size"), o -> bytesAt(o, "bytes")),
                    Output.Column.of(m.get("col.deleted"), o -> Values.age(Values.at(o, "deletedAt"), now())),
                    Output.Column.path(m.get("col.restorable"), "expiresAt"),
                    Output.Column.wide(m.get("col.entries"), o -> Values.text(o, "files")));
            String name = space(this, space.endsWith(":") ? space.substring(0, space.length() - 1) : space);
            List<Object> items = Values.items(api().get("/api/v1/trash/" + Api.seg(name)));
            output().list(List.of(items).iterator(), cols, o -> Values.text(o, "id"));
            return Exit.OK;
        }
    }

    @Command(name = "restore", description = "Put a deleted entry back where it was (never over something there now).")
    static final class Restore extends Verb {
        @Parameters(index = "0", paramLabel = "SPACE", description = "The space whose trash holds it.")
        String space;

        @Parameters(index = "1", paramLabel = "ID", description = "The trash entry's id (crater files trash SPACE).")
        long id;

        @Override
        protected int execute() {
            String name = space(this, space.endsWith(":") ? space.substring(0, space.length() - 1) : space);
            Object entry = api().post("/api/v1/trash/" + Api.seg(name) + "/" + id + "/restore", null);
            if (output().human()) {
                out().println(msg().get("files.restored", name + ":" + Values.text(entry, "path")));
            } else {
                output().object(entry);
            }
            return Exit.OK;
        }
    }
}
