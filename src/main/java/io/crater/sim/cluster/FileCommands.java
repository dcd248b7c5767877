package io.crater.sim.cluster;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The simulated shell's file commands over {@link SimFiles}: {@code ls [-1aAl]}, {@code cat}, {@code touch},
 * {@code mkdir [-p]}, {@code rm [-rf]}; the text filters are {@link TextFilters}. Messages are coreutils' words.
 */
final class FileCommands {

    private static final DateTimeFormatter RECENT = DateTimeFormatter.ofPattern("MMM ppd HH:mm", Locale.ROOT);
    private static final DateTimeFormatter OLD = DateTimeFormatter.ofPattern("MMM ppd  yyyy", Locale.ROOT);

    private FileCommands() {}

    static int run(SimShell sh, String cmd, SimShell.Io io) {
        return switch (cmd) {
            case "ls" -> ls(sh, io);
            case "cat" -> cat(sh, io);
            case "touch", "mkdir", "rm" -> change(sh, cmd, io);
            case "head", "tail" -> TextFilters.headTail(sh, cmd, io);
            case "wc" -> TextFilters.wc(sh, io);
            default -> TextFilters.grep(sh, io);
        };
    }

    /** Splits {@code -la}-style flags (until {@code --} or the first operand) from the operands. */
    record Args(String flags, List<String> operands) {
        static Args of(List<String> args) {
            StringBuilder flags = new StringBuilder();
            List<String> operands = new ArrayList<>();
            boolean options = true;
            for (String a : args) {
                if (options && a.equals("--")) {
                    options = false;
                } else if (options && a.startsWith("-") && a.length() > 1) {
                    flags.append(a.substring(1));
                } else {
                    operands.add(a);
                }
            }
            return new Args(flags.toString(), operands);
        }

        String unknown(String known) {
            return flags.chars()
                    .filter(c -> known.indexOf(c) < 0)
                    .mapToObj(c -> String.valueOf((char) c))
                    .findFirst()
                    .orElse(null);
        }
    }

    private static int ls(SimShell sh, SimShell.Io io) {
        Args a = Args.of(io.args);
        if (a.unknown("1aAlh") != null) {
            return ShellBuiltins.fail(io, 2, "ls: invalid option -- '" + a.unknown("1aAlh") + "'");
        }
        boolean all = a.flags().contains("a");
        boolean almost = a.flags().contains("A");
        boolean lng = a.flags().contains("l");
        boolean onePerLine = a.flags().contains("1");
        List<String> operands = a.operands().isEmpty() ? List.of(".") : a.operands();
        int status = 0;
        List<SimFiles.Located> lone = new ArrayList<>();
        List<SimFiles.Located> dirs = new ArrayList<>();
        for (String op : operands) {
            try {
                // As ls: a link given by name is shown itself, except a link to a directory without -l.
                SimFiles.Located l = sh.files.locate(sh.cwd, op, false);
                if (SimFiles.isLink(l) && !lng) {
                    SimFiles.Located target = sh.files.locate(sh.cwd, op, true);
                    l = SimFiles.isDir(target) ? target : l;
                }
                if (!SimFiles.exists(l)) {
                    throw new SimFiles.FsError(SimFiles.NOT_FOUND);
                }
                SimFiles.Located shown = new SimFiles.Located(op, l.host(), l.mount());
                (SimFiles.isDir(l) ? dirs : lone).add(SimFiles.isDir(l) ? l : shown);
            } catch (SimFiles.FsError e) {
                status = ShellBuiltins.fail(io, 2, "ls: cannot access '" + op + "': " + e.getMessage());
            }
        }
        listing(sh, io, lone, lng, onePerLine, false);
        for (int i = 0; i < dirs.size(); i++) {
            if (operands.size() > 1) {
                io.out
                        .append(!lone.isEmpty() || i > 0 ? "\n" : "")
                        .append(dirs.get(i).path())
                        .append(":\n");
            }
            try {
                List<SimFiles.Located> entries = sh.files.list(dirs.get(i), all || almost);
                if (almost && !all) {
                    entries = entries.subList(2, entries.size());
                }
                listing(sh, io, entries, lng, onePerLine, true);
            } catch (SimFiles.FsError e) {
                status = ShellBuiltins.fail(
                        io, 2, "ls: cannot open directory '" + dirs.get(i).path() + "': " + e.getMessage());
            }
        }
        return status;
    }

    private static void listing(
            SimShell sh, SimShell.Io io, List<SimFiles.Located> entries, boolean lng, boolean onePerLine, boolean dir) {
        if (!lng) {
            List<String> names = entries.stream().map(SimFiles.Located::name).toList();
            if (!dir) {
                names = entries.stream().map(SimFiles.Located::path).toList();
            }
            columns(sh, io, names, onePerLine);
            return;
        }
        List<LongLine> rows = new ArrayList<>();
        long blocks = 0;
        for (SimFiles.Located e : entries) {
            try {
                BasicFileAttributes at = SimFiles.attributes(e);
                blocks += at.isDirectory() ? 4 : (at.size() + 4095) / 4096 * 4;
                String name = dir ? e.name() : e.path();
                if (at.isSymbolicLink()) {
                    name += " -> " + SimFiles.readLink(e);
                }
                rows.add(new LongLine(
                        mode(e, at),
                        links(e),
                        owner(sh.pod.user(), sh.pod.uid()),
                        owner(sh.pod.group(), sh.pod.gid()),
                        Long.toString(at.size()),
                        date(at.lastModifiedTime().toInstant(), sh.clock.instant()),
                        name));
            } catch (SimFiles.FsError ignored) {
                // Gone between listing and reading: as ls, leave it out.
            }
        }
        if (dir) {
            io.out.append("total ").append(blocks).append('\n');
        }
        int links = width(rows, LongLine::links);
        int user = width(rows, LongLine::user);
        int group = width(rows, LongLine::group);
        int size = width(rows, LongLine::size);
        for (LongLine r : rows) {
            io.out.append(String.format(
                    "%s %" + links + "s %-" + user + "s %-" + group + "s %" + size + "s %s %s\n",
                    r.mode(),
                    r.links(),
                    r.user(),
                    r.group(),
                    r.size(),
                    r.date(),
                    r.name()));
        }
    }

    /** One line of {@code ls -l}, its columns as printed. */
    private record LongLine(
            String mode, String links, String user, String group, String size, String date, String name) {}

    /** The width of a column: its longest value. */
    private static int width(List<LongLine> rows, java.util.function.Function<LongLine, String> column) {
        return rows.stream().mapToInt(r -> column.apply(r).length()).max().orElse(0);
    }

    /** Names one per line without a terminal or with {@code -1}; in columns, as ls lays them out, on one. */
    private static void columns(SimShell sh, SimShell.Io io, List<String> names, boolean onePerLine) {
        if (!sh.tty || onePerLine || names.isEmpty()) {
            names.forEach(n -> io.out.append(n).append('\n'));
            return;
        }
        int width = names.stream().mapToInt(String::length).max().orElse(0) + 2;
        int perLine = Math.max(1, sh.cols / width);
        int lines = (names.size() + perLine - 1) / perLine;
        for (int r = 0; r < lines; r++) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c * lines + r < names.size(); c++) {
                String n = names.get(c * lines + r);
                line.append(n).append(" ".repeat(width - n.length()));
            }
            io.out.append(line.toString().stripTrailing()).append('\n');
        }
    }

    private static String mode(SimFiles.Located e, BasicFileAttributes at) {
        String type = at.isSymbolicLink() ? "l" : at.isDirectory() ? "d" : "-";
        try {
            return type
                    + PosixFilePermissions.toString(Files.getPosixFilePermissions(e.host(), LinkOption.NOFOLLOW_LINKS));
        } catch (Exception x) {
            return type + (at.isDirectory() ? "rwxr-xr-x" : "rw-r--r--");
        }
    }

    private static String links(SimFiles.Located e) {
        try {
            return String.valueOf(Files.getAttribute(e.host(), "unix:nlink", LinkOption.NOFOLLOW_LINKS));
        } catch (Exception x) {
            return "1";
        }
    }

    private static String owner(String name, long id) {
        return name == null ? Long.toString(id) : name;
    }

    /** {@code Dec  1 12:00} within half a year of now, else {@code Dec  1  2025}, in UTC. */
    static String date(Instant t, Instant now) {
        boolean recent = Duration.between(t, now).abs().compareTo(Duration.ofDays(182)) < 0;
        return (recent ? RECENT : OLD).format(t.atZone(ZoneOffset.UTC));
    }

    private static int cat(SimShell sh, SimShell.Io io) {
        List<String> files = io.args.isEmpty() ? List.of("-") : io.args;
        int status = 0;
        for (String f : files) {
            if (f.equals("-")) {
                io.out.append(io.stdin);
                continue;
            }
            try {
                io.out.append(SimFiles.read(sh.files.locate(sh.cwd, f, true)));
            } catch (SimFiles.FsError e) {
                status = ShellBuiltins.fail(io, 1, "cat: " + f + ": " + e.getMessage());
            }
        }
        return status;
    }

    private static int change(SimShell sh, String cmd, SimShell.Io io) {
        Args a = Args.of(io.args);
        String known = switch (cmd) {
            case "mkdir" -> "p";
            case "rm" -> "rfR";
            default -> "";
        };
        if (a.unknown(known) != null) {
            return ShellBuiltins.fail(io, 1, cmd + ": invalid option -- '" + a.unknown(known) + "'");
        }
        if (a.operands().isEmpty()) {
            return ShellBuiltins.fail(io, 1, cmd + ": missing operand");
        }
        int status = 0;
        for (String op : a.operands()) {
            try {
                SimFiles.Located l = sh.files.locate(sh.cwd, op, !cmd.equals("rm"));
                switch (cmd) {
                    case "touch" -> sh.files.touch(l);
                    case "mkdir" -> mkdir(sh, l, a.flags().contains("p"));
                    default -> rm(sh, l, a.flags());
                }
            } catch (SimFiles.FsError e) {
                String what = switch (cmd) {
                    case "touch" -> "cannot touch";
                    case "mkdir" -> "cannot create directory";
                    default -> "cannot remove";
                };
                status = ShellBuiltins.fail(io, 1, cmd + ": " + what + " '" + op + "': " + e.getMessage());
            }
        }
        return status;
    }

    private static void mkdir(SimShell sh, SimFiles.Located l, boolean parents) throws SimFiles.FsError {
        if (!parents) {
            sh.files.mkdir(l);
            return;
        }
        String path = "";
        for (String n : l.path().substring(1).split("/")) {
            path += "/" + n;
            SimFiles.Located step = sh.files.locate("/", path, true);
            if (!SimFiles.isDir(step)) {
                sh.files.mkdir(step);
            }
        }
    }

    private static void rm(SimShell sh, SimFiles.Located l, String flags) throws SimFiles.FsError {
        boolean recursive = flags.contains("r") || flags.contains("R");
        if (!SimFiles.exists(l)) {
            if (flags.contains("f")) {
                return;
            }
            throw new SimFiles.FsError(SimFiles.NOT_FOUND);
        }
        if (SimFiles.isDir(l) && !recursive) {
            throw new SimFiles.FsError("Is a directory");
        }
        sh.files.remove(l, recursive);
    }
}
