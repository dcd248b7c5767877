package io.crater.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The small shell a simulated container answers {@code pods/exec} with. It is never a host shell or process:
 * any signed-in user may reach it. It knows {@code echo}, {@code pwd}, {@code cd}, {@code ls}, {@code mkdir},
 * {@code touch}, {@code cat}, {@code rm}, {@code env}, {@code hostname}, {@code whoami}, {@code stty size},
 * {@code true}, {@code false} and {@code exit [n]}, over an in-memory scratch area per pod under
 * {@code /workspace}; {@code >} and {@code >>} write a command's output to a file there.
 */
final class SimShell {

    /** What a command line printed and its exit status; {@code exit} set when the line was {@code exit}. */
    record Result(String stdout, String stderr, int status, boolean exit) {}

    /** One pod's scratch area: absolute paths to file contents; directories map to null. */
    static final class Scratch {
        final Map<String, String> files = new TreeMap<>();

        Scratch() {
            files.put("/workspace", null);
        }
    }

    private static final Map<String, Scratch> SCRATCH = new ConcurrentHashMap<>();

    private final String pod;
    private final Scratch scratch;
    private String cwd = "/workspace";
    private int rows = 24;
    private int cols = 80;

    SimShell(String namespace, String pod) {
        this.pod = pod;
        this.scratch = SCRATCH.computeIfAbsent(namespace + "/" + pod, k -> new Scratch());
    }

    /** Forgets a pod's scratch area (the pod is gone). */
    static void forget(String namespace, String pod) {
        SCRATCH.remove(namespace + "/" + pod);
    }

    void resize(int cols, int rows) {
        this.cols = cols;
        this.rows = rows;
    }

    String prompt() {
        return "crater@" + pod + ":" + cwd + "$ ";
    }

    /** Runs a command given as its words (as {@code exec} receives it); a shell's {@code -c} runs its line. */
    Result runArgv(List<String> argv) {
        if (argv.size() >= 3 && isShell(argv.get(0)) && argv.get(1).equals("-c")) {
            return run(argv.get(2));
        }
        return argv.isEmpty() ? new Result("", "", 0, false) : command(argv);
    }

    static boolean isShell(String program) {
        return List.of("sh", "bash", "/bin/sh", "/bin/bash", "/usr/bin/bash", "zsh", "/bin/zsh")
                .contains(program);
    }

    /** Runs one command line: commands separated by {@code ;} run in turn until one is {@code exit}. */
    Result run(String line) {
        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        Result r = new Result("", "", 0, false);
        for (String part : commands(line)) {
            r = runOne(part);
            out.append(r.stdout());
            err.append(r.stderr());
            if (r.exit()) {
                break;
            }
        }
        return new Result(out.toString(), err.toString(), r.status(), r.exit());
    }

    /** A line split at the semicolons outside quotes. */
    static List<String> commands(String line) {
        List<String> out = new ArrayList<>();
        char quote = 0;
        int from = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\\') {
                i++;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == ';') {
                out.add(line.substring(from, i));
                from = i + 1;
            }
        }
        out.add(line.substring(from));
        return out;
    }

    /** Runs one command, with {@code > file}, {@code >> file} or {@code >&2} applied to its output. */
    private Result runOne(String line) {
        List<String> words = words(line);
        if (words.contains(">&2")) {
            words = new ArrayList<>(words);
            words.remove(">&2");
            Result r = words.isEmpty() ? new Result("", "", 0, false) : command(words);
            return new Result("", r.stderr() + r.stdout(), r.status(), r.exit());
        }
        if (words.isEmpty()) {
            return new Result("", "", 0, false);
        }
        String target = null;
        boolean append = false;
        for (int i = 0; i < words.size() - 1; i++) {
            if (words.get(i).equals(">") || words.get(i).equals(">>")) {
                append = words.get(i).equals(">>");
                target = words.get(i + 1);
                words = new ArrayList<>(words.subList(0, i));
                break;
            }
        }
        Result r = command(words);
        if (target != null && !r.exit()) {
            String path = resolve(target);
            if (!isDir(parent(path))) {
                return new Result("", "sh: " + target + ": No such file or directory\n", 1, false);
            }
            if (isDir(path)) {
                return new Result("", "sh: " + target + ": Is a directory\n", 1, false);
            }
            String before = append && scratch.files.get(path) != null ? scratch.files.get(path) : "";
            scratch.files.put(path, before + r.stdout());
            return new Result("", r.stderr(), r.status(), false);
        }
        return r;
    }

    private Result command(List<String> w) {
        String cmd = w.get(0);
        List<String> args = w.subList(1, w.size());
        switch (cmd) {
            case "echo":
                return ok(String.join(" ", args) + "\n");
            case "pwd":
                return ok(cwd + "\n");
            case "hostname":
                return ok(pod + "\n");
            case "whoami":
                return ok("crater\n");
            case "true":
                return ok("");
            case "false":
                return new Result("", "", 1, false);
            case "env":
                return ok("HOME=/workspace\nHOSTNAME=" + pod + "\nPWD=" + cwd + "\n");
            case "stty":
                return args.equals(List.of("size")) ? ok(rows + " " + cols + "\n") : ok("");
            case "exit":
                try {
                    return new Result("", "", args.isEmpty() ? 0 : Integer.parseInt(args.get(0)) & 0xff, true);
                } catch (NumberFormatException e) {
                    return new Result("", "sh: exit: " + args.get(0) + ": numeric argument required\n", 2, true);
                }
            case "cd": {
                String path = resolve(args.isEmpty() ? "/workspace" : args.get(0));
                if (!isDir(path)) {
                    return fail("sh: cd: " + (args.isEmpty() ? "" : args.get(0)) + ": No such file or directory");
                }
                cwd = path;
                return ok("");
            }
            case "ls": {
                String path = resolve(args.isEmpty() ? "." : args.get(args.size() - 1));
                if (scratch.files.containsKey(path) && !isDir(path)) {
                    return ok(name(path) + "\n");
                }
                if (!isDir(path)) {
                    return new Result(
                            "",
                            "ls: cannot access '" + args.get(args.size() - 1) + "': No such file or directory\n",
                            2,
                            false);
                }
                StringBuilder out = new StringBuilder();
                String prefix = path.equals("/") ? "/" : path + "/";
                for (String p : scratch.files.keySet()) {
                    if (p.startsWith(prefix) && p.indexOf('/', prefix.length()) < 0 && p.length() > prefix.length()) {
                        out.append(name(p)).append(isDir(p) ? "/" : "").append('\n');
                    }
                }
                return ok(out.toString());
            }
            case "mkdir":
            case "touch":
                for (String a : args) {
                    String path = resolve(a);
                    if (!isDir(parent(path))) {
                        return fail(cmd + ": cannot create '" + a + "': No such file or directory");
                    }
                    if (!scratch.files.containsKey(path)) {
                        scratch.files.put(path, cmd.equals("mkdir") ? null : "");
                    }
                }
                return ok("");
            case "cat": {
                StringBuilder out = new StringBuilder();
                for (String a : args) {
                    String path = resolve(a);
                    if (isDir(path)) {
                        return new Result(out.toString(), "cat: " + a + ": Is a directory\n", 1, false);
                    }
                    String content = scratch.files.get(path);
                    if (content == null) {
                        return new Result(out.toString(), "cat: " + a + ": No such file or directory\n", 1, false);
                    }
                    out.append(content);
                }
                return ok(out.toString());
            }
            case "rm":
                for (String a : args) {
                    String path = resolve(a);
                    if (!scratch.files.containsKey(path) || isDir(path)) {
                        return fail("rm: cannot remove '" + a + "': No such file or directory");
                    }
                    scratch.files.remove(path);
                }
                return ok("");
            default:
                return new Result("", "sh: " + cmd + ": command not found\n", 127, false);
        }
    }

    private static Result ok(String out) {
        return new Result(out, "", 0, false);
    }

    private static Result fail(String message) {
        return new Result("", message + "\n", 1, false);
    }

    private boolean isDir(String path) {
        return path.equals("/") || scratch.files.containsKey(path) && scratch.files.get(path) == null;
    }

    /** An absolute, normalised path; nothing outside the scratch area's tree exists. */
    String resolve(String path) {
        String abs = path.startsWith("/") ? path : cwd + "/" + path;
        List<String> parts = new ArrayList<>();
        for (String p : abs.split("/")) {
            if (p.isEmpty() || p.equals(".")) {
                continue;
            }
            if (p.equals("..")) {
                if (!parts.isEmpty()) {
                    parts.remove(parts.size() - 1);
                }
            } else {
                parts.add(p);
            }
        }
        return "/" + String.join("/", parts);
    }

    private static String parent(String path) {
        int i = path.lastIndexOf('/');
        return i <= 0 ? "/" : path.substring(0, i);
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Splits a line into words: whitespace separates, single and double quotes group, {@code \} escapes. */
    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
                    cur.append(line.charAt(++i));
                } else {
                    cur.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                cur = cur == null ? new StringBuilder() : cur;
            } else if (c == '\\' && i + 1 < line.length()) {
                cur = cur == null ? new StringBuilder() : cur;
                cur.append(line.charAt(++i));
            } else if (Character.isWhitespace(c)) {
                if (cur != null) {
                    out.add(cur.toString());
                    cur = null;
                }
            } else {
                cur = cur == null ? new StringBuilder() : cur;
                cur.append(c);
            }
        }
        if (cur != null) {
            out.add(cur.toString());
        }
        return out;
    }
}
