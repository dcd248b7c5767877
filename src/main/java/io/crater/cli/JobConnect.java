package io.crater.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Reaching into a running job: OpenSSH through Crater's SSH gateway ({@code job ssh}, {@code job port-forward},
 * with the login {@code GET /api/v1/jobs/{id}/connect} gives) and the job's web app ({@code job open}).
 */
final class JobConnect {

    /** OpenSSH options that take a value (ssh(1)): what follows them is their value, not the command. */
    static final String VALUED = "BbcDEeFIiJLlmOoPpQRSWw";

    private JobConnect() {}

    /** The ssh options given after {@code --} (before the destination) and the remote command (after it). */
    record SshArgs(List<String> options, List<String> command) {

        /** Splits as ssh itself does: options (with their values) up to the first word that is not one. */
        static SshArgs split(List<String> args) {
            int i = 0;
            while (i < args.size() && args.get(i).startsWith("-") && args.get(i).length() > 1) {
                String a = args.get(i);
                if (a.equals("--")) {
                    return new SshArgs(List.copyOf(args.subList(0, i)), List.copyOf(args.subList(i + 1, args.size())));
                }
                boolean needsValue = a.length() == 2 && VALUED.indexOf(a.charAt(1)) >= 0;
                i += needsValue ? 2 : 1;
            }
            int end = Math.min(i, args.size());
            return new SshArgs(List.copyOf(args.subList(0, end)), List.copyOf(args.subList(end, args.size())));
        }
    }

    /** {@code ssh -p PORT [options] LOGIN@HOST [command]}. */
    static List<String> sshCommand(String ssh, Map<String, Object> connect, String login, SshArgs extra) {
        List<String> argv = new ArrayList<>(List.of(ssh, "-p", Values.text(connect, "sshPort")));
        argv.addAll(extra.options());
        argv.add(login + "@" + Values.text(connect, "sshHost"));
        argv.addAll(extra.command());
        return argv;
    }

    /** {@code ssh -N -o ExitOnForwardFailure=yes -L LOCAL:127.0.0.1:REMOTE -p PORT [options] LOGIN@HOST}. */
    static List<String> forwardCommand(
            String ssh, Map<String, Object> connect, String login, int[] ports, SshArgs extra) {
        List<String> argv = new ArrayList<>(List.of(
                ssh,
                "-N",
                "-o",
                "ExitOnForwardFailure=yes",
                "-L",
                ports[0] + ":127.0.0.1:" + ports[1],
                "-p",
                Values.text(connect, "sshPort")));
        argv.addAll(extra.options());
        argv.add(login + "@" + Values.text(connect, "sshHost"));
        return argv;
    }

    /** {@code 8080:80} or {@code 6006} (both sides the same), each 1–65535. */
    static int[] ports(String spec, Messages msg) {
        String[] parts = spec.split(":", -1);
        if (parts.length > 2 || !parts[0].matches("\\d{1,5}") || !parts[parts.length - 1].matches("\\d{1,5}")) {
            throw new CliException(Exit.USAGE, msg.get("connect.badPorts", spec));
        }
        int local = Integer.parseInt(parts[0]);
        int remote = Integer.parseInt(parts[parts.length - 1]);
        if (local < 1 || local > 65535 || remote < 1 || remote > 65535) {
            throw new CliException(Exit.USAGE, msg.get("connect.badPorts", spec));
        }
        return new int[] {local, remote};
    }

    /** The connect answer, and the login of the pod asked for, once it is sure the caller can get through. */
    static String login(Verb v, String job, String pod, Map<String, Object> connect) {
        if (!Boolean.TRUE.equals(connect.get("sshEnabled"))) {
            throw new CliException(Exit.ERROR, v.msg().get("connect.sshOff"));
        }
        List<Object> pods = Values.list(connect.get("pods"));
        String state = Values.str(connect.get("state"));
        if (!"Running".equals(state) || pods.isEmpty()) {
            throw new CliException(Exit.ERROR, v.msg().get("connect.notRunning", job, state));
        }
        if (!Boolean.TRUE.equals(connect.get("reachable"))) {
            throw new CliException(Exit.DENIED, v.msg().get("connect.notOwner", job));
        }
        if (pod == null) {
            return Values.text(pods.get(0), "login");
        }
        return pods.stream()
                .filter(p -> pod.equals(Values.text(p, "pod")))
                .map(p -> Values.text(p, "login"))
                .findFirst()
                .orElseThrow(() -> new CliException(
                        Exit.NOT_FOUND,
                        v.msg()
                                .get(
                                        "connect.noPod",
                                        pod,
                                        String.join(
                                                ", ",
                                                pods.stream()
                                                        .map(p -> Values.text(p, "pod"))
                                                        .toList()))));
    }

    static String sshProgram(Verb v) {
        String s = v.term().env("CRATER_SSH");
        return s == null ? "ssh" : s;
    }

    /**
     * Runs a program and answers its exit status: attached to this process's own terminal when the command runs
     * on it, else with its streams copied to and from the command's (a test's, a program embedding the client).
     */
    static int run(Verb v, List<String> argv) {
        ProcessBuilder pb = new ProcessBuilder(argv);
        boolean own = v.term().in() == System.in;
        if (own) {
            pb.inheritIO();
        }
        try {
            Process p = pb.start();
            if (!own) {
                Thread out = pump(p.getInputStream(), v.out(), false);
                Thread err = pump(p.getErrorStream(), v.err(), false);
                pump(v.term().in(), p.getOutputStream(), true);
                int code = p.waitFor();
                out.join();
                err.join();
                return code;
            }
            return p.waitFor();
        } catch (IOException e) {
            throw new CliException(Exit.ERROR, v.msg().get("connect.cannotRun", argv.get(0), e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(Exit.ERROR, "interrupted");
        }
    }

    private static Thread pump(InputStream from, OutputStream to, boolean daemon) {
        Thread t = new Thread(() -> {
            try (from) {
                from.transferTo(to);
                to.flush();
                if (!(to instanceof java.io.PrintStream)) {
                    to.close();
                }
            } catch (IOException e) {
                // The other side went away: nothing more to copy.
            }
        });
        t.setDaemon(daemon);
        t.start();
        return t;
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "ssh",
            description = {
                "Open a shell or run a command in a running job with OpenSSH.",
                "Through Crater's SSH gateway, with a key you registered; only the job's owner gets in. After --: ssh"
                        + " options, then the command. Exits with ssh's status. The program is 'ssh' on the PATH, or"
                        + " CRATER_SSH."
            })
    static final class Ssh extends Verb {

        @Parameters(index = "0", paramLabel = "JOB", description = "The job's id.")
        String job;

        @Parameters(
                index = "1..*",
                paramLabel = "SSH-ARGS",
                description = "After --: ssh options (-i KEY, -o ...), then a command to run instead of a shell.")
        List<String> rest = List.of();

        @Option(
                names = "--pod",
                paramLabel = "TASK-INDEX",
                description = "The pod (worker-1, ...): default the job's first running pod.")
        String pod;

        @Option(names = "--print", description = "Print the ssh command line instead of running it.")
        boolean print;

        @Override
        protected int execute() {
            Map<String, Object> connect = Values.map(api().get(JobCommands.path(job) + "/connect"));
            String login = login(this, job, pod, connect);
            List<String> argv = sshCommand(sshProgram(this), connect, login, SshArgs.split(rest));
            if (print) {
                out().println(String.join(" ", argv));
                return Exit.OK;
            }
            return run(this, argv);
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "port-forward",
            description = {
                "Forward a local port to a port inside a running job.",
                "ssh -N -L through the gateway's direct-tcpip, which reaches 127.0.0.1 in the pod, until interrupted."
                        + " After --: ssh options."
            })
    static final class PortForward extends Verb {

        @Parameters(index = "0", paramLabel = "JOB", description = "The job's id.")
        String job;

        @Parameters(index = "1", paramLabel = "LOCAL:REMOTE", description = "e.g. 6006:6006, or 6006 for both.")
        String ports;

        @Parameters(index = "2..*", paramLabel = "SSH-ARGS", description = "After --: ssh options (-i KEY, ...).")
        List<String> rest = List.of();

        @Option(
                names = "--pod",
                paramLabel = "TASK-INDEX",
                description = "The pod (worker-1, ...): default the job's first running pod.")
        String pod;

        @Option(names = "--print", description = "Print the ssh command line instead of running it.")
        boolean print;

        @Override
        protected int execute() {
            int[] p = ports(ports, msg());
            Map<String, Object> connect = Values.map(api().get(JobCommands.path(job) + "/connect"));
            String login = login(this, job, pod, connect);
            SshArgs extra = SshArgs.split(rest);
            if (!extra.command().isEmpty()) {
                throw new CliException(Exit.USAGE, msg().get("connect.noCommand", String.join(" ", extra.command())));
            }
            List<String> argv = forwardCommand(sshProgram(this), connect, login, p, extra);
            if (print) {
                out().println(String.join(" ", argv));
                return Exit.OK;
            }
            err().println(msg().get("connect.forwarding", p[0], job, p[1]));
            return run(this, argv);
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "open",
            description = {
                "Open a running job's web app in a browser.",
                "JupyterLab, VS Code, or --port N, on the job's own origin: prints a one-time URL, and opens it in a"
                        + " browser when run on a terminal (not with --print)."
            })
    static final class Open extends Verb {

        @Parameters(paramLabel = "JOB", description = "The job's id.")
        String job;

        @Option(names = "--port", paramLabel = "N", description = "Another port of the job's to open.")
        Integer port;

        @Option(names = "--print", description = "Only print the URL.")
        boolean print;

        @Override
        protected int execute() {
            String path = JobCommands.path(job) + "/open" + Api.query(port == null ? Map.of() : Map.of("port", port));
            Object opened = api().post(path, null);
            String url = Values.text(opened, "url");
            if (!output().human()) {
                output().object(opened);
                return Exit.OK;
            }
            out().println(url);
            if (term().interactive() && !print) {
                browse(url);
            }
            return Exit.OK;
        }

        private void browse(String url) {
            String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
            List<String> argv = os.contains("mac") ? List.of("open", url) : List.of("xdg-open", url);
            try {
                new ProcessBuilder(argv)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
            } catch (IOException e) {
                err().println(msg().get("open.noBrowser", argv.get(0)));
            }
        }
    }
}
