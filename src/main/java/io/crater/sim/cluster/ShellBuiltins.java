package io.crater.sim.cluster;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The commands the simulated shell knows, each run on what {@link SimShell.Io} gives it and returning its exit
 * status. The file commands are in {@link FileCommands}. Anything else is {@code command not found} (127): the
 * simulated container runs no programs, so it has no Python, no pip and no editor.
 */
final class ShellBuiltins {

    /** The commands, in the order {@code help} lists them. */
    static final List<String> NAMES = List.of(
            "cat",
            "cd",
            "clear",
            "echo",
            "env",
            "exit",
            "export",
            "false",
            "grep",
            "head",
            "help",
            "hostname",
            "id",
            "ls",
            "mkdir",
            "npu-smi",
            "nvidia-smi",
            "printenv",
            "pwd",
            "rm",
            "stty",
            "tail",
            "touch",
            "true",
            "uname",
            "unset",
            "wc",
            "whoami");

    private ShellBuiltins() {}

    static int run(SimShell sh, String cmd, SimShell.Io io) {
        List<String> a = io.args;
        return switch (cmd) {
            case "echo" -> echo(io);
            case "pwd" -> print(io, sh.cwd);
            case "cd" -> cd(sh, io);
            case "true" -> 0;
            case "false" -> 1;
            case "exit" -> exit(sh, io);
            case "hostname" -> print(io, sh.pod.hostname());
            case "whoami" -> whoami(sh, io);
            case "id" -> id(sh, io);
            case "uname" -> uname(sh, io);
            case "env" -> env(sh, io);
            case "printenv" -> printenv(sh, io);
            case "export" -> export(sh, io);
            case "unset" -> {
                a.forEach(n -> {
                    sh.vars.remove(n);
                    sh.exported.remove(n);
                });
                yield 0;
            }
            case "stty" -> a.equals(List.of("size")) ? print(io, sh.rows + " " + sh.cols) : 0;
            case "clear" -> {
                io.out.append("\033[H\033[2J");
                yield 0;
            }
            case "help" ->
                print(
                        io,
                        "The simulated shell knows: " + String.join(" ", NAMES) + ".\n"
                                + "It runs no programs; see docs/simulator.md for its grammar.");
            case "nvidia-smi" -> nvidiaSmi(sh, io);
            case "npu-smi" -> npuSmi(sh, io);
            case "ls", "cat", "touch", "mkdir", "rm", "head", "tail", "wc", "grep" -> FileCommands.run(sh, cmd, io);
            default -> notFound(sh, cmd, io);
        };
    }

    static int print(SimShell.Io io, String line) {
        io.out.append(line).append('\n');
        return 0;
    }

    static int fail(SimShell.Io io, int status, String line) {
        io.err.append(line).append('\n');
        return status;
    }

    private static int notFound(SimShell sh, String cmd, SimShell.Io io) {
        if (cmd.contains("/")) {
            try {
                SimFiles.Located l = sh.files.locate(sh.cwd, cmd, true);
                if (SimFiles.exists(l)) {
                    return fail(
                            io,
                            126,
                            sh.name() + ": " + cmd + ": cannot execute: the simulated container runs no programs");
                }
            } catch (SimFiles.FsError e) {
                return fail(io, 127, sh.name() + ": " + cmd + ": " + e.getMessage());
            }
            return fail(io, 127, sh.name() + ": " + cmd + ": " + SimFiles.NOT_FOUND);
        }
        return fail(io, 127, sh.name() + ": " + cmd + ": command not found");
    }

    private static int echo(SimShell.Io io) {
        List<String> a = io.args;
        boolean newline = a.isEmpty() || !a.get(0).equals("-n");
        io.out.append(String.join(" ", newline ? a : a.subList(1, a.size())));
        if (newline) {
            io.out.append('\n');
        }
        return 0;
    }

    private static int cd(SimShell sh, SimShell.Io io) {
        String arg = io.args.isEmpty() ? sh.lookup("HOME") : io.args.get(0);
        boolean back = "-".equals(arg);
        if (back) {
            arg = sh.lookup("OLDPWD");
            if (arg == null) {
                return fail(io, 1, sh.name() + ": cd: OLDPWD not set");
            }
        }
        try {
            SimFiles.Located l = sh.files.locate(sh.cwd, arg == null ? "/" : arg, true);
            if (!SimFiles.exists(l)) {
                return fail(io, 1, sh.name() + ": cd: " + arg + ": " + SimFiles.NOT_FOUND);
            }
            if (!SimFiles.isDir(l)) {
                return fail(io, 1, sh.name() + ": cd: " + arg + ": Not a directory");
            }
            sh.setVar("OLDPWD", sh.cwd, true);
            sh.cwd = l.path();
            sh.setVar("PWD", sh.cwd, true);
            return back ? print(io, sh.cwd) : 0;
        } catch (SimFiles.FsError e) {
            return fail(io, 1, sh.name() + ": cd: " + arg + ": " + e.getMessage());
        }
    }

    private static int exit(SimShell sh, SimShell.Io io) {
        sh.exitRequested = true;
        if (io.args.isEmpty()) {
            return sh.status;
        }
        try {
            return Integer.parseInt(io.args.get(0)) & 0xff;
        } catch (NumberFormatException e) {
            return fail(io, 2, sh.name() + ": exit: " + io.args.get(0) + ": numeric argument required");
        }
    }

    private static int whoami(SimShell sh, SimShell.Io io) {
        return sh.pod.user() == null
                ? fail(io, 1, "whoami: cannot find name for user ID " + sh.pod.uid())
                : print(io, sh.pod.user());
    }

    private static int id(SimShell sh, SimShell.Io io) {
        ShellPod p = sh.pod;
        String user = p.uid() + (p.user() == null ? "" : "(" + p.user() + ")");
        String group = p.gid() + (p.group() == null ? "" : "(" + p.group() + ")");
        if (io.args.isEmpty()) {
            return print(io, "uid=" + user + " gid=" + group + " groups=" + group);
        }
        boolean names = io.args.contains("-n") || io.args.contains("-un") || io.args.contains("-gn");
        boolean groupOnly = io.args.stream().anyMatch(x -> x.startsWith("-g"));
        boolean userOnly = io.args.stream().anyMatch(x -> x.startsWith("-u"));
        if (!groupOnly && !userOnly) {
            return fail(io, 1, "id: the simulated id knows -u, -g and -n");
        }
        String name = groupOnly ? p.group() : p.user();
        long number = groupOnly ? p.gid() : p.uid();
        if (names && name == null) {
            return fail(io, 1, "id: cannot find name for " + (groupOnly ? "group" : "user") + " ID " + number);
        }
        return print(io, names ? name : Long.toString(number));
    }

    private static int uname(SimShell sh, SimShell.Io io) {
        var info = sh.pod.node() == null || sh.pod.node().getStatus() == null
                ? null
                : sh.pod.node().getStatus().getNodeInfo();
        String kernel = info == null || info.getKernelVersion() == null ? "unknown" : info.getKernelVersion();
        String arch = info == null || info.getArchitecture() == null ? "amd64" : info.getArchitecture();
        String machine = switch (arch) {
            case "amd64" -> "x86_64";
            case "arm64" -> "aarch64";
            default -> arch;
        };
        StringBuilder sb = new StringBuilder();
        for (String flag : io.args.isEmpty() ? List.of("-s") : io.args) {
            String part = switch (flag) {
                case "-a", "--all" -> "Linux " + sh.pod.hostname() + " " + kernel + " #1 SMP " + machine + " GNU/Linux";
                case "-s" -> "Linux";
                case "-n" -> sh.pod.hostname();
                case "-r" -> kernel;
                case "-m", "-p", "-i" -> machine;
                case "-o" -> "GNU/Linux";
                default -> null;
            };
            if (part == null) {
                return fail(io, 1, "uname: invalid option -- '" + flag.replaceFirst("^-+", "") + "'");
            }
            sb.append(sb.isEmpty() ? "" : " ").append(part);
        }
        return print(io, sb.toString());
    }

    private static int env(SimShell sh, SimShell.Io io) {
        if (!io.args.isEmpty()) {
            return fail(io, 125, "env: the simulated env only prints the environment");
        }
        sh.environment()
                .forEach((k, v) -> io.out.append(k).append('=').append(v).append('\n'));
        return 0;
    }

    private static int printenv(SimShell sh, SimShell.Io io) {
        Map<String, String> env = sh.environment();
        if (io.args.isEmpty()) {
            return env(sh, io);
        }
        int status = 0;
        for (String n : io.args) {
            if (env.containsKey(n)) {
                print(io, env.get(n));
            } else {
                status = 1;
            }
        }
        return status;
    }

    private static int export(SimShell sh, SimShell.Io io) {
        if (io.args.isEmpty() || io.args.equals(List.of("-p"))) {
            sh.environment()
                    .forEach((k, v) -> io.out
                            .append("declare -x ")
                            .append(k)
                            .append("=\"")
                            .append(v.replace("\\", "\\\\").replace("\"", "\\\""))
                            .append("\"\n"));
            return 0;
        }
        int status = 0;
        for (String arg : io.args) {
            int eq = arg.indexOf('=');
            String n = eq < 0 ? arg : arg.substring(0, eq);
            if (!n.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                status = fail(io, 1, sh.name() + ": export: `" + arg + "': not a valid identifier");
                continue;
            }
            String value = eq < 0 ? sh.vars.getOrDefault(n, "") : arg.substring(eq + 1);
            sh.setVar(n, value, true);
        }
        return status;
    }

    private static int nvidiaSmi(SimShell sh, SimShell.Io io) {
        List<ShellPod.Card> cards = sh.pod.cards().get().stream()
                .filter(c -> c.resource().equals(SmiTables.NVIDIA))
                .toList();
        if (cards.isEmpty()) {
            io.out.append(SmiTables.NO_DRIVER);
            return SmiTables.NO_DRIVER_STATUS;
        }
        if (io.args.equals(List.of("-L"))) {
            for (int i = 0; i < cards.size(); i++) {
                String seed = sh.pod.hostname() + "/" + i;
                UUID uuid = UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8));
                print(io, "GPU " + i + ": " + cards.get(i).name() + " (UUID: GPU-" + uuid + ")");
            }
            return 0;
        }
        if (!io.args.isEmpty()) {
            return fail(io, 2, "nvidia-smi: the simulated nvidia-smi knows no options but -L");
        }
        Map<String, String> labels =
                sh.pod.node() == null || sh.pod.node().getMetadata().getLabels() == null
                        ? Map.of()
                        : sh.pod.node().getMetadata().getLabels();
        io.out.append(SmiTables.nvidia(cards, labels, SmiTables.utc(sh.clock.instant())));
        return 0;
    }

    private static int npuSmi(SimShell sh, SimShell.Io io) {
        String table = SmiTables.ascend(sh.pod.cards().get());
        if (table == null) {
            return notFound(sh, "npu-smi", io);
        }
        if (!io.args.equals(List.of("info"))) {
            return fail(io, 2, "npu-smi: the simulated npu-smi knows only 'npu-smi info'");
        }
        io.out.append(table);
        return 0;
    }
}
