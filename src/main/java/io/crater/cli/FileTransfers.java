package io.crater.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code crater files get} and {@code put}: bytes between this machine and a space, streamed both ways. */
final class FileTransfers {

    private FileTransfers() {}

    @Command(
            name = "get",
            aliases = "download",
            description = {
                "Download a file, or a folder as a zip (--zip), streamed to disk; - writes it to standard output.",
                "The download goes to a hidden file beside LOCAL and takes its name only once complete: a broken one"
                        + " leaves nothing (and is not resumed)."
            })
    static final class Get extends Verb {
        @Parameters(index = "0", paramLabel = FileCommands.ADDRESS, description = "The file or folder.")
        String from;

        @Parameters(
                index = "1",
                arity = "0..1",
                paramLabel = "LOCAL",
                description = "Where to write: a file, an existing folder (the entry's name inside it), - for standard"
                        + " output; default the entry's name here.")
        String local;

        @Option(names = "--zip", description = "A folder as one zip (links left out).")
        boolean zip;

        @Option(names = "--overwrite", description = "Replace LOCAL if it exists.")
        boolean overwrite;

        @Override
        protected int execute() {
            FileAddress a = FileCommands.address(this, from);
            Object entry = FileCommands.stat(this, a);
            boolean folder = "folder".equals(Values.text(entry, "type"));
            if (folder != zip) {
                throw new CliException(
                        Exit.USAGE, msg().get(folder ? "files.folderNeedsZip" : "files.zipIsForFolders", a));
            }
            Map<String, Object> query = zip ? Map.of("format", "zip") : Map.of();
            String name = (a.root() ? a.space().replace(':', '-') : a.name()) + (zip ? ".zip" : "");
            if ("-".equals(local)) {
                try (InputStream in = api().stream(a.url(), query, "*/*")) {
                    in.transferTo(out());
                    out().flush();
                } catch (IOException e) {
                    throw new CliException(Exit.ERROR, msg().get("files.broken", a, e.getMessage()));
                }
                return Exit.OK;
            }
            Path dest = local == null ? Path.of(name) : Path.of(local);
            if (Files.isDirectory(dest)) {
                dest = dest.resolve(name);
            }
            if (Files.exists(dest, LinkOption.NOFOLLOW_LINKS) && !overwrite) {
                throw new CliException(Exit.ERROR, msg().get("files.localExists", dest));
            }
            long size = zip ? -1 : ((Number) Values.at(entry, "size")).longValue();
            long got = save(a, query, dest, new Progress(term(), a.toString(), size));
            out().println(msg().get("files.downloaded", a, dest, Values.bytes(got)));
            return Exit.OK;
        }

        private long save(FileAddress a, Map<String, Object> query, Path dest, Progress progress) {
            Path part = dest.toAbsolutePath().resolveSibling("." + dest.getFileName() + ".crater-part");
            try (InputStream in = api().stream(a.url(), query, "*/*");
                    OutputStream o = Files.newOutputStream(part)) {
                byte[] buffer = new byte[64 * 1024];
                long total = 0;
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    o.write(buffer, 0, n);
                    total += n;
                    progress.update(total);
                }
                o.close();
                Files.move(part, dest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return total;
            } catch (IOException e) {
                throw new CliException(Exit.ERROR, msg().get("files.broken", a, e.getMessage()));
            } finally {
                progress.done();
                try {
                    Files.deleteIfExists(part);
                } catch (IOException e) {
                    err().println(msg().get("files.partLeft", part));
                }
            }
        }
    }

    @Command(
            name = "put",
            aliases = "upload",
            description = {
                "Upload a file, streamed from disk with its size declared (the quota is checked before a byte goes);"
                        + " a folder with -r: its folders are made and each file uploaded and reported.",
                "TO ending in / (or a space's root) puts it inside under its own name; otherwise TO is its new name"
                        + " (for -r: the folder that receives LOCAL's contents)."
            })
    static final class Put extends Verb {
        @Parameters(index = "0", paramLabel = "LOCAL", description = "The local file, or folder with -r.")
        String local;

        @Parameters(index = "1", paramLabel = "TO", description = "Where it goes, SPACE:/PATH.")
        String to;

        @Option(names = "--overwrite", description = "Replace files that are there (never a folder).")
        boolean overwrite;

        @Option(
                names = {"-r", "--recursive"},
                description = "Upload a folder and everything in it (links are skipped).")
        boolean recursive;

        @Override
        protected int execute() {
            Path src = Path.of(local);
            FileAddress dest = FileCommands.address(this, to);
            String name = src.toAbsolutePath().normalize().getFileName() == null
                    ? "upload"
                    : src.toAbsolutePath().normalize().getFileName().toString();
            if (Files.isDirectory(src, LinkOption.NOFOLLOW_LINKS)) {
                if (!recursive) {
                    throw new CliException(Exit.USAGE, msg().get("files.folderNeedsR", src));
                }
                return tree(src, dest.target(name));
            }
            if (!Files.isRegularFile(src)) {
                throw new CliException(Exit.NOT_FOUND, msg().get("input.noFile", src));
            }
            FileAddress target = dest.target(name);
            Object entry = upload(src, target);
            if (output().human()) {
                out().println(msg().get("files.uploaded", target, FileCommands.size(entry)));
            } else {
                output().object(entry);
            }
            return Exit.OK;
        }

        private Object upload(Path file, FileAddress target) {
            long size;
            try {
                size = Files.size(file);
            } catch (IOException e) {
                throw new CliException(Exit.ERROR, msg().get("input.unreadable", file, e.getMessage()));
            }
            Progress progress = new Progress(term(), target.toString(), size);
            try {
                return api().upload(target.url(), Map.of("overwrite", overwrite), file, progress::update);
            } finally {
                progress.done();
            }
        }

        /** A folder: its tree made under {@code root}, then each file; a failure is reported and the rest go on. */
        private int tree(Path src, FileAddress root) {
            List<Path> all;
            try (Stream<Path> walk = Files.walk(src)) {
                all = walk.sorted().toList();
            } catch (IOException e) {
                throw new CliException(Exit.ERROR, msg().get("input.unreadable", src, e.getMessage()));
            }
            FileCommands.makeFolders(this, root);
            int uploaded = 0;
            int failed = 0;
            int skipped = 0;
            for (Path p : all.subList(1, all.size())) {
                FileAddress at = root;
                for (Path part : src.relativize(p)) {
                    at = at.child(part.toString());
                }
                try {
                    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                        FileCommands.makeFolder(this, at);
                    } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                        Object entry = upload(p, at);
                        out().println(msg().get("files.uploaded", at, FileCommands.size(entry)));
                        uploaded++;
                    } else {
                        out().println(msg().get("files.skipped", p));
                        skipped++;
                    }
                } catch (CliException e) {
                    out().println(msg().get("files.failed", at, e.getMessage()));
                    failed++;
                }
            }
            err().println(msg().get("files.summary", uploaded, failed, skipped));
            return failed > 0 ? Exit.ERROR : Exit.OK;
        }
    }

    /** A progress line on standard error for a person at a terminal, redrawn at most five times a second. */
    static final class Progress {
        private final Terminal term;
        private final String label;
        private final long total;
        private long shownAt;
        private boolean shown;

        Progress(Terminal term, String label, long total) {
            this.term = term;
            this.label = label;
            this.total = total;
        }

        void update(long done) {
            long now = System.nanoTime();
            if (!term.interactive() || (shown && now - shownAt < 200_000_000L)) {
                return;
            }
            shownAt = now;
            shown = true;
            String amount = total > 0
                    ? (done * 100 / total) + "%  " + Values.bytes(done) + " / " + Values.bytes(total)
                    : Values.bytes(done);
            term.err().print("\r\u001b[K" + label + "  " + amount);
            term.err().flush();
        }

        void done() {
            if (shown) {
                term.err().print("\r\u001b[K");
                term.err().flush();
            }
        }
    }
}
