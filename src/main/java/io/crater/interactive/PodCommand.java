package io.crater.interactive;

import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.Signal;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.jboss.logging.Logger;

/**
 * An SSH shell or exec channel run in the job's container through {@code pods/exec}. With a PTY (the client asked
 * for one: {@code ssh host}, {@code ssh -t}) it runs with a TTY, stderr merged and window changes passed on;
 * without one ({@code ssh host cmd}, VS Code Remote-SSH's piped script) stdout and stderr stay apart. The
 * command's exit status is the channel's. A refused entry (a stopped job, someone else's job) prints why on
 * stderr and exits 1.
 */
final class PodCommand implements Command {

    private static final Logger LOG = Logger.getLogger(PodCommand.class);

    private final SshEntries entries;
    private final PodExec exec;
    private final ExecutorService pumps;
    /** Null for a login shell. */
    private final String command;

    private InputStream in;
    private OutputStream out;
    private OutputStream err;
    private ExitCallback exit;
    private volatile ExecWatch watch;
    private volatile String failure;
    private final AtomicBoolean done = new AtomicBoolean();

    PodCommand(SshEntries entries, PodExec exec, ExecutorService pumps, String command) {
        this.entries = entries;
        this.exec = exec;
        this.pumps = pumps;
        this.command = command;
    }

    @Override
    public void setInputStream(InputStream in) {
        this.in = in;
    }

    @Override
    public void setOutputStream(OutputStream out) {
        this.out = out;
    }

    @Override
    public void setErrorStream(OutputStream err) {
        this.err = err;
    }

    @Override
    public void setExitCallback(ExitCallback callback) {
        this.exit = callback;
    }

    @Override
    public void start(ChannelSession channel, Environment env) throws IOException {
        SshEntries.Entry entry = entries.of(channel.getSession());
        boolean tty = env.getEnv().containsKey(Environment.ENV_COLUMNS);
        if (entry == null || entry.refusal() != null) {
            String why = entry == null ? "no job was named" : entry.refusal();
            err.write(("crater: " + why + (tty ? "\r\n" : "\n")).getBytes(StandardCharsets.UTF_8));
            err.flush();
            finish(1, null);
            return;
        }
        SessionLog.Open log = entry.log();
        OutputStream counted = new Counting(out, log);
        List<String> argv = command == null ? PodExec.SHELL : List.of("/bin/sh", "-c", command);
        var closed = new java.util.concurrent.CompletableFuture<Void>();
        try {
            watch = exec.start(entry.target(), argv, tty, counted, new Counting(err, log), new ExecListener() {
                @Override
                public void onFailure(Throwable t, Response failureResponse) {
                    failure = t.getMessage();
                    closed.complete(null);
                }

                @Override
                public void onClose(int code, String reason) {
                    closed.complete(null);
                }
            });
            // A connection that ended without a status is 255, as ssh reports a lost one.
            PodExec.exit(watch, closed)
                    .thenAccept(code -> finish(
                            code < 0 ? 255 : code,
                            code < 0 && failure != null ? "crater: the pod's exec failed: " + failure : null));
        } catch (RuntimeException e) {
            finish(255, "crater: could not start the command in the pod: " + e.getMessage());
            return;
        }
        if (tty) {
            env.addSignalListener((ch, signal) -> resize(env), Signal.WINCH);
            resize(env);
        }
        pumps.execute(() -> pumpStdin(log));
    }

    private void resize(Environment env) {
        try {
            int cols = Integer.parseInt(env.getEnv().getOrDefault(Environment.ENV_COLUMNS, "80"));
            int rows = Integer.parseInt(env.getEnv().getOrDefault(Environment.ENV_LINES, "24"));
            ExecWatch w = watch;
            if (w != null && cols > 0 && rows > 0) {
                w.resize(cols, rows);
            }
        } catch (NumberFormatException e) {
            // A client that sends no usable size keeps the last one.
        }
    }

    /** Copies the client's stdin into the pod until either side ends. */
    private void pumpStdin(SessionLog.Open log) {
        byte[] buf = new byte[8192];
        try {
            int n;
            while (!done.get() && (n = in.read(buf)) >= 0) {
                log.in.addAndGet(n);
                ExecWatch w = watch;
                w.getInput().write(buf, 0, n);
                w.getInput().flush();
            }
            ExecWatch w = watch;
            if (w != null && !done.get()) {
                w.getInput().close(); // the client closed stdin (EOF): pass it on where the API can
            }
        } catch (IOException e) {
            LOG.debugf("ssh stdin ended: %s", e.getMessage());
        }
    }

    private void finish(int code, String message) {
        if (!done.compareAndSet(false, true)) {
            return;
        }
        try {
            if (message != null) {
                err.write((message + "\n").getBytes(StandardCharsets.UTF_8));
            }
            out.flush();
            err.flush();
        } catch (IOException e) {
            LOG.debugf("ssh channel closed before the end: %s", e.getMessage());
        }
        exit.onExit(code);
    }

    @Override
    public void destroy(ChannelSession channel) {
        done.set(true);
        ExecWatch w = watch;
        if (w != null) {
            w.close();
        }
    }

    /** Counts what goes from the pod to the client. */
    private static final class Counting extends OutputStream {
        private final OutputStream target;
        private final SessionLog.Open log;

        Counting(OutputStream target, SessionLog.Open log) {
            this.target = target;
            this.log = log;
        }

        @Override
        public void write(int b) throws IOException {
            target.write(b);
            target.flush();
            log.out.incrementAndGet();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            target.write(b, off, len);
            target.flush();
            log.out.addAndGet(len);
        }
    }
}
