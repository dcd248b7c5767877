package io.crater.interactive;

import com.fasterxml.jackson.databind.JsonNode;
import io.crater.platform.Json;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.http.WebSocket;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * One {@code pods/exec} stream, spoken by Crater over the Kubernetes client's WebSocket (the channel protocol of
 * {@code v5.channel.k8s.io}, or {@code v4.channel.k8s.io} with an API server that has no v5): the first byte of
 * each binary message names its stream (0 stdin, 1 stdout, 2 stderr, 3 the final {@code Status}, 4 resize; in v5,
 * 255 closes a stream). {@link PodExec} opens it from a task on the client's own event loop, so its handlers are in
 * place before the API server's first frames (a shell's prompt) are read.
 *
 * <p>What arrives is written to the given streams in order on a serial executor of its own (an SSH channel's stream
 * blocks while the client's window is full: never on the event loop), and the next message is asked for only once the
 * last is written, so a slow reader slows the pod's output instead of filling memory.
 */
final class ExecStream implements ExecWatch, WebSocket.Listener {

    private static final Logger LOG = Logger.getLogger(ExecStream.class);
    static final String V5 = "v5.channel.k8s.io";
    static final String V4 = "v4.channel.k8s.io";
    static final byte STDIN = 0;
    static final byte STDOUT = 1;
    static final byte STDERR = 2;
    static final byte ERROR = 3;
    static final byte RESIZE = 4;
    static final byte CLOSE = (byte) 255;

    private final OutputStream out;
    private final OutputStream err;
    private final ExecListener listener;
    private final Serial serial;
    private final boolean v5;
    final CompletableFuture<WebSocket> opened = new CompletableFuture<>();
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile WebSocket ws;

    ExecStream(OutputStream out, OutputStream err, ExecListener listener, Executor pool, boolean v5) {
        this.out = out;
        this.err = err == null ? out : err;
        this.listener = listener;
        this.serial = new Serial(pool);
        this.v5 = v5;
    }

    @Override
    public void onOpen(WebSocket webSocket) {
        ws = webSocket;
        listener.onOpen();
        opened.complete(webSocket);
    }

    @Override
    public void onMessage(WebSocket webSocket, ByteBuffer bytes) {
        if (!bytes.hasRemaining()) {
            webSocket.request();
            return;
        }
        byte channel = bytes.get();
        byte[] data = new byte[bytes.remaining()];
        bytes.get(data);
        serial.execute(() -> {
            try {
                deliver(channel, data);
            } finally {
                webSocket.request();
            }
        });
    }

    @Override
    public void onMessage(WebSocket webSocket, String text) {
        webSocket.request(); // the channel protocols are binary; a text message carries nothing of them
    }

    @Override
    public void onClose(WebSocket webSocket, int code, String reason) {
        serial.execute(() -> {
            closed.set(true);
            listener.onClose(code, reason);
        });
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        opened.completeExceptionally(error);
        serial.execute(() -> {
            if (closed.compareAndSet(false, true)) {
                listener.onFailure(error, null);
            }
        });
    }

    private void deliver(byte channel, byte[] data) {
        try {
            switch (channel) {
                case STDOUT -> {
                    out.write(data);
                    out.flush();
                }
                case STDERR -> {
                    err.write(data);
                    err.flush();
                }
                case ERROR -> {
                    int code = exitCode(new String(data, StandardCharsets.UTF_8));
                    exit.complete(code);
                    listener.onExit(code, null);
                }
                default -> {
                    // stdin, resize and close are the client's channels; nothing else is defined
                }
            }
        } catch (IOException e) {
            LOG.debugf("exec output dropped: the reader has gone (%s)", e.getMessage());
            close();
        }
    }

    /**
     * The exit status a final {@code Status} message gives: 0 for {@code Success}, the {@code ExitCode} cause of a
     * {@code NonZeroExitCode} failure, -1 for any other failure (the command could not be run).
     */
    static int exitCode(String status) {
        JsonNode s;
        try {
            s = Json.read(status, JsonNode.class);
        } catch (RuntimeException e) {
            return -1;
        }
        if ("Success".equals(s.path("status").asText())) {
            return 0;
        }
        if ("NonZeroExitCode".equals(s.path("reason").asText())) {
            for (JsonNode cause : s.path("details").path("causes")) {
                if ("ExitCode".equals(cause.path("reason").asText())) {
                    try {
                        return Integer.parseInt(cause.path("message").asText());
                    } catch (NumberFormatException e) {
                        return -1;
                    }
                }
            }
        }
        return -1;
    }

    private void send(byte channel, byte[] data, int off, int len) {
        WebSocket w = ws;
        if (w == null || closed.get()) {
            return;
        }
        ByteBuffer frame = ByteBuffer.allocate(len + 1);
        frame.put(channel).put(data, off, len).flip();
        w.send(frame);
    }

    private final OutputStream input = new OutputStream() {
        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            send(STDIN, b, off, len);
        }

        /** Ends the command's stdin where the protocol can (v5); with v4 stdin stays open until the end. */
        @Override
        public void close() {
            if (v5) {
                send(CLOSE, new byte[] {STDIN}, 0, 1);
            }
        }
    };

    @Override
    public OutputStream getInput() {
        return input;
    }

    /** Output goes to the streams given when it was opened. */
    @Override
    public InputStream getOutput() {
        return null;
    }

    @Override
    public InputStream getError() {
        return null;
    }

    @Override
    public InputStream getErrorChannel() {
        return null;
    }

    @Override
    public void resize(int cols, int rows) {
        byte[] size = ("{\"Width\":" + cols + ",\"Height\":" + rows + "}").getBytes(StandardCharsets.UTF_8);
        send(RESIZE, size, 0, size.length);
    }

    @Override
    public CompletableFuture<Integer> exitCode() {
        return exit;
    }

    @Override
    public void close() {
        WebSocket w = ws;
        if (w != null && closed.compareAndSet(false, true)) {
            w.sendClose(1000, "closed by Crater");
        }
    }

    /** Runs tasks one after another, in order, on a shared pool: one stream's output never overtakes itself. */
    static final class Serial implements Executor {
        private final Executor pool;
        private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        private boolean running;

        Serial(Executor pool) {
            this.pool = pool;
        }

        @Override
        public void execute(Runnable task) {
            synchronized (tasks) {
                tasks.add(task);
                if (running) {
                    return;
                }
                running = true;
            }
            pool.execute(this::drain);
        }

        private void drain() {
            while (true) {
                Runnable next;
                synchronized (tasks) {
                    next = tasks.poll();
                    if (next == null) {
                        running = false;
                        return;
                    }
                }
                try {
                    next.run();
                } catch (RuntimeException e) {
                    LOG.warn("an exec stream's task failed", e);
                }
            }
        }
    }
}
