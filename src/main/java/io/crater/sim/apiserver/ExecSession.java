package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One {@code pods/exec} session over the Kubernetes channel protocols {@code v5.channel.k8s.io} (what kubectl 1.30+
 * asks for) and {@code v4.channel.k8s.io} (fabric8): binary frames whose first byte is the channel: 0 stdin, 1 stdout,
 * 2 stderr, 3 the final Status, 4 terminal resize, and in v5 255 to close a stream ({@code [255, 0]}: stdin ended,
 * which ends a shell reading lines as end of input does), answered by {@link ExecShell}.
 * With a TTY it echoes and edits the line as a terminal's line discipline would and merges stderr into stdout;
 * without one, stdout and stderr stay apart. A shell without {@code -c} reads command lines from stdin until
 * {@code exit}; any other command runs once. The exit status ends the session on channel 3.
 */
final class ExecSession {

    /** The subprotocols served, the newest first. */
    static final List<String> PROTOCOLS = List.of("v5.channel.k8s.io", "v4.channel.k8s.io");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ServerWebSocket ws;
    private final ExecShell shell;
    private final boolean tty;
    private final StringBuilder line = new StringBuilder();
    private boolean ended;
    private int lastStatus;

    private ExecSession(ServerWebSocket ws, ExecShell shell, boolean tty) {
        this.ws = ws;
        this.shell = shell;
        this.tty = tty;
    }

    /** Starts a session on an accepted WebSocket. */
    static void start(ServerWebSocket ws, ExecShell shell, List<String> command, boolean tty) {
        ExecSession s = new ExecSession(ws, shell, tty);
        shell.tty(tty);
        if (!command.isEmpty()) {
            shell.startedAs(command.get(0));
        }
        ws.binaryMessageHandler(s::frame);
        ws.textMessageHandler(t -> s.frame(Buffer.buffer(t)));
        // A shell with no script (bash, bash -l, sh -i) reads command lines; anything else runs once.
        boolean interactive = command.isEmpty()
                || s.shell.isShell(command.get(0))
                        && command.stream()
                                .skip(1)
                                .allMatch(a -> a.equals("-l") || a.equals("-i") || a.equals("--login"));
        if (interactive) {
            if (tty) {
                s.out(s.shell.prompt());
            }
            return;
        }
        ExecShell.Result r = s.shell.runArgv(command);
        s.print(r);
        s.end(r.status());
    }

    private void frame(Buffer frame) {
        if (ended || frame.length() == 0) {
            return;
        }
        int channel = frame.getUnsignedByte(0);
        Buffer data = frame.getBuffer(1, frame.length());
        if (channel == 255) {
            if (data.length() > 0 && data.getByte(0) == 0) {
                stdinClosed();
            }
            return;
        }
        if (channel == 4) {
            try {
                JsonNode size = JSON.readTree(data.getBytes());
                shell.resize(size.path("Width").asInt(80), size.path("Height").asInt(24));
            } catch (IOException e) {
                // A malformed resize is ignored, as the kubelet does.
            }
            return;
        }
        if (channel != 0) {
            return;
        }
        String text = data.toString(StandardCharsets.UTF_8);
        for (int i = 0; i < text.length() && !ended; i++) {
            input(text.charAt(i));
        }
    }

    private void input(char c) {
        if (!tty) {
            if (c == '\n') {
                execute();
            } else if (c != '\r') {
                line.append(c);
            }
            return;
        }
        switch (c) {
            case '\r', '\n' -> {
                out("\r\n");
                execute();
            }
            case 0x7f, '\b' -> {
                if (!line.isEmpty()) {
                    line.setLength(line.length() - 1);
                    out("\b \b");
                }
            }
            case 0x03 -> {
                line.setLength(0);
                out("^C\r\n" + shell.prompt());
            }
            case 0x04 -> {
                if (line.isEmpty()) {
                    out("exit\r\n");
                    end(0);
                }
            }
            default -> {
                if (c >= 0x20) {
                    line.append(c);
                    out(String.valueOf(c));
                }
            }
        }
    }

    /** End of input: a pending line runs, then the shell ends with the last status, as {@code sh < file} does. */
    private void stdinClosed() {
        if (!line.isEmpty()) {
            execute();
        }
        if (!ended) {
            end(lastStatus);
        }
    }

    private void execute() {
        ExecShell.Result r = shell.run(line.toString());
        line.setLength(0);
        lastStatus = r.status();
        print(r);
        if (r.exit()) {
            end(r.status());
        } else if (tty) {
            out(shell.prompt());
        }
    }

    private void print(ExecShell.Result r) {
        if (tty) {
            out((r.stdout() + r.stderr()).replace("\n", "\r\n"));
        } else {
            out(r.stdout());
            send(2, r.stderr());
        }
    }

    private void out(String text) {
        send(1, text);
    }

    private void send(int channel, String text) {
        if (text.isEmpty() || ws.isClosed()) {
            return;
        }
        ws.writeBinaryMessage(Buffer.buffer().appendByte((byte) channel).appendString(text));
    }

    private void end(int status) {
        ended = true;
        String json = status == 0
                ? "{\"metadata\":{},\"status\":\"Success\"}"
                : "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"command terminated with non-zero exit code: exit status "
                        + status
                        + "\",\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[{\"reason\":\"ExitCode\","
                        + "\"message\":\"" + status + "\"}]}}";
        if (!ws.isClosed()) {
            ws.writeBinaryMessage(Buffer.buffer().appendByte((byte) 3).appendString(json));
            ws.close();
        }
    }
}
