package io.crater.sim.cluster;

import io.crater.sim.apiserver.ExecShell;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The shell a simulated container answers {@code pods/exec} with. It is never a host shell or process: any
 * signed-in user may reach it. It reads lines by {@link ShellSyntax} (a documented subset of a POSIX shell:
 * {@code ;}, {@code &&}, {@code ||}, pipes, redirections, {@code $VAR} and {@code ~}, quoting) and runs the
 * built-in commands of {@link ShellBuiltins} as the pod's user, over the files of its mounts ({@link SimFiles}).
 */
final class SimShell implements ExecShell {

    /** What one command read and wrote. */
    static final class Io {
        final List<String> args;
        final String stdin;
        final StringBuilder out = new StringBuilder();
        final StringBuilder err = new StringBuilder();
        int status;

        Io(List<String> args, String stdin) {
            this.args = args;
            this.stdin = stdin;
        }
    }

    /** Where a command's fd 1 or 2 goes. */
    private record Target(int kind, SimFiles.Located file) {
        static final Target OUT = new Target(1, null);
        static final Target ERR = new Target(2, null);
        static final Target NULL = new Target(0, null);
    }

    final ShellPod pod;
    final SimFiles files;
    final Clock clock;
    final Map<String, String> vars = new LinkedHashMap<>();
    final Set<String> exported = new LinkedHashSet<>();
    String cwd;
    int status;
    int rows = 24;
    int cols = 80;
    boolean tty;
    boolean exitRequested;
    private String name = "sh";

    SimShell(ShellPod pod, Clock clock) {
        this.pod = pod;
        this.clock = clock;
        this.files = new SimFiles(pod.mounts(), pod.uid() == 0, pod.home());
        pod.env().forEach((k, v) -> {
            vars.put(k, v);
            exported.add(k);
        });
        this.cwd = pod.workingDir();
        try {
            if (!SimFiles.isDir(files.locate("/", cwd, true))) {
                cwd = "/";
            }
        } catch (SimFiles.FsError e) {
            cwd = "/";
        }
        setVar("PWD", cwd, true);
    }

    @Override
    public void tty(boolean tty) {
        this.tty = tty;
    }

    @Override
    public void resize(int cols, int rows) {
        this.cols = cols;
        this.rows = rows;
    }

    String name() {
        return name;
    }

    /** {@code user@host:dir$ }, the home directory shown as {@code ~}, {@code #} for root. */
    @Override
    public String prompt() {
        String home = pod.home();
        String dir = cwd.equals(home)
                ? "~"
                : !home.equals("/") && cwd.startsWith(home + "/") ? "~" + cwd.substring(home.length()) : cwd;
        String user = pod.user() == null ? "I have no name!" : pod.user();
        return user + "@" + pod.hostname() + ":" + dir + (pod.uid() == 0 ? "# " : "$ ");
    }

    /**
     * Runs a command given as its words (as {@code exec} receives it): a shell's {@code -c} (also {@code -lc},
     * {@code -l -c}) runs its line; anything else runs as one command without the shell reading it.
     */
    @Override
    public Result runArgv(List<String> argv) {
        if (argv.isEmpty()) {
            return new Result("", "", 0, false);
        }
        if (isShell(argv.get(0))) {
            name = argv.get(0).substring(argv.get(0).lastIndexOf('/') + 1);
            for (int i = 1; i < argv.size() - 1; i++) {
                if (argv.get(i).equals("-c") || argv.get(i).equals("-lc")) {
                    return run(argv.get(i + 1));
                }
            }
        }
        Io io = new Io(argv.subList(1, argv.size()), "");
        status = ShellBuiltins.run(this, argv.get(0), io);
        return new Result(io.out.toString(), io.err.toString(), status, exitRequested);
    }

    /** Names this shell as the program it was started as ({@code bash}, {@code sh}). */
    @Override
    public void startedAs(String program) {
        if (isShell(program)) {
            name = program.substring(program.lastIndexOf('/') + 1);
        }
    }

    @Override
    public boolean isShell(String program) {
        return List.of("sh", "bash", "/bin/sh", "/bin/bash", "/usr/bin/bash", "zsh", "/bin/zsh")
                .contains(program);
    }

    /** Runs one command line. */
    @Override
    public Result run(String line) {
        ShellSyntax.Script script;
        try {
            script = ShellSyntax.parse(line);
        } catch (ShellSyntax.SyntaxError e) {
            status = 2;
            return new Result("", name + ": " + e.getMessage() + "\n", 2, false);
        }
        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        for (ShellSyntax.Step step : script.steps()) {
            if (step.join() == ShellSyntax.Join.AND && status != 0
                    || step.join() == ShellSyntax.Join.OR && status == 0) {
                continue;
            }
            status = pipeline(step.pipeline(), out, err);
            if (exitRequested) {
                break;
            }
        }
        return new Result(out.toString(), err.toString(), status, exitRequested);
    }

    /** Runs the commands of a pipeline in turn, each one's output the next one's input; the last one's status. */
    private int pipeline(ShellSyntax.Pipeline p, StringBuilder out, StringBuilder err) {
        String input = "";
        int last = 0;
        List<ShellSyntax.Command> commands = p.commands();
        for (int i = 0; i < commands.size(); i++) {
            boolean alone = commands.size() == 1;
            Io io = command(commands.get(i), input);
            if (!alone) {
                exitRequested = false; // each part of a pipeline runs in a subshell
            }
            last = io.status;
            err.append(io.err);
            if (i == commands.size() - 1) {
                out.append(io.out);
            } else {
                input = io.out.toString();
            }
        }
        return last;
    }

    /** Expands and runs one command with its assignments and redirections. */
    private Io command(ShellSyntax.Command c, String stdin) {
        UnaryOperator<String> lookup = this::lookup;
        Map<String, String> assigned = new LinkedHashMap<>();
        int w = 0;
        for (; w < c.words().size() && ShellSyntax.assignment(c.words().get(w)) != null; w++) {
            ShellSyntax.Word word = c.words().get(w);
            assigned.put(ShellSyntax.assignment(word), ShellSyntax.assignedValue(word, lookup, pod.home()));
        }
        List<String> argv = new ArrayList<>();
        for (ShellSyntax.Word word : c.words().subList(w, c.words().size())) {
            argv.addAll(ShellSyntax.expand(word, lookup, pod.home()));
        }
        Io io = new Io(argv.isEmpty() ? List.of() : argv.subList(1, argv.size()), stdin);
        Target[] fds = {null, Target.OUT, Target.ERR};
        String input = redirect(c.redirects(), fds, stdin, io);
        if (input == null) {
            return io;
        }
        Io run = new Io(io.args, input);
        if (argv.isEmpty()) {
            assigned.forEach((k, v) -> setVar(k, v, false));
            io.status = 0;
        } else {
            io.status = runAssigning(assigned, argv.get(0), run);
        }
        route(run.out.toString(), fds[1], io);
        route(run.err.toString(), fds[2], io);
        return io;
    }

    /**
     * Points the command's fds where its redirections say and returns what it reads; null, with the error written
     * to {@code io} and status 1, when a file cannot be opened.
     */
    private String redirect(List<ShellSyntax.Redirect> redirects, Target[] fds, String stdin, Io io) {
        String input = stdin;
        for (ShellSyntax.Redirect r : redirects) {
            String target = String.join(" ", ShellSyntax.expand(r.target(), this::lookup, pod.home()));
            try {
                if (r.op().equals(">&")) {
                    fds[r.fd()] = fds[Integer.parseInt(target)];
                } else if (r.op().equals("<")) {
                    input = target.equals("/dev/null") ? "" : SimFiles.read(files.locate(cwd, target, true));
                } else if (target.equals("/dev/null")) {
                    fds[r.fd()] = Target.NULL;
                } else {
                    SimFiles.Located l = files.locate(cwd, target, true);
                    files.write(l, "", r.op().equals(">>"));
                    fds[r.fd()] = new Target(3, l);
                }
            } catch (SimFiles.FsError e) {
                io.err
                        .append(name)
                        .append(": ")
                        .append(target)
                        .append(": ")
                        .append(e.getMessage())
                        .append('\n');
                io.status = 1;
                return null;
            }
        }
        return input;
    }

    /** Runs a built-in with the command's {@code NAME=value} words in its environment only; returns its status. */
    private int runAssigning(Map<String, String> assigned, String program, Io run) {
        Map<String, String> saved = new LinkedHashMap<>();
        Set<String> savedExported = new LinkedHashSet<>(exported);
        assigned.forEach((k, v) -> {
            saved.put(k, vars.get(k));
            setVar(k, v, true);
        });
        int status = ShellBuiltins.run(this, program, run);
        saved.forEach((k, v) -> {
            if (v == null) {
                this.vars.remove(k);
            } else {
                this.vars.put(k, v);
            }
        });
        assigned.keySet().stream().filter(k -> !savedExported.contains(k)).forEach(exported::remove);
        return status;
    }

    private void route(String text, Target t, Io io) {
        if (text.isEmpty() || t.kind() == 0) {
            return;
        }
        if (t.kind() == 1) {
            io.out.append(text);
        } else if (t.kind() == 2) {
            io.err.append(text);
        } else {
            try {
                files.write(t.file(), text, true);
            } catch (SimFiles.FsError e) {
                io.err
                        .append(name)
                        .append(": ")
                        .append(t.file().path())
                        .append(": ")
                        .append(e.getMessage());
                io.err.append('\n');
            }
        }
    }

    /** A variable's value: {@code $?}, {@code $0} (the shell's name), positional ones (empty), or a variable. */
    String lookup(String var) {
        if (var.equals("?")) {
            return Integer.toString(status);
        }
        if (var.equals("0")) {
            return name;
        }
        if (Character.isDigit(var.charAt(0))) {
            return "";
        }
        return vars.get(var);
    }

    void setVar(String var, String value, boolean export) {
        vars.put(var, value);
        if (export) {
            exported.add(var);
        }
    }

    /** The environment a command sees: the exported variables. */
    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        for (String k : exported) {
            if (vars.containsKey(k)) {
                env.put(k, vars.get(k));
            }
        }
        return env;
    }
}
