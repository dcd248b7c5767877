package io.crater.interactive;

import com.fasterxml.jackson.databind.JsonNode;
import io.crater.identity.Caller;
import io.crater.job.PodAccess;
import io.crater.platform.Json;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.quarkus.security.Authenticated;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.OnBinaryMessage;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.buffer.Buffer;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The console's terminal: a WebSocket bridged to a login shell in the job's container through {@code pods/exec}
 * with a TTY. Binary frames carry keystrokes in and output out; text frames carry control messages as JSON:
 * from the browser {@code {"type":"resize","cols":120,"rows":40}}, from Crater {@code {"type":"exit","code":0}}
 * or {@code {"type":"error","message":"..."}} just before it closes. Closing either side ends the other.
 * {@link TerminalUpgrade} checks origin, token and pod before the upgrade.
 */
@WebSocket(path = "/api/v1/jobs/{id}/terminal", endpointId = TerminalSocket.ID)
@Authenticated
public class TerminalSocket {

    static final String ID = "crater-terminal";
    private static final Logger LOG = Logger.getLogger(TerminalSocket.class);

    /** One open terminal: its exec and its record. */
    private record Session(ExecWatch watch, SessionLog.Open log) {}

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    @Inject
    PodExec exec;

    @Inject
    SessionLog sessionLog;

    @OnOpen
    void open(WebSocketConnection connection) {
        PodAccess.Target target = connection.userData().get(TerminalUpgrade.TARGET);
        Caller caller = connection.userData().get(TerminalUpgrade.CALLER);
        SessionLog.Open log;
        try {
            log = io.quarkus.vertx.VertxContextSupport.subscribeAndAwait(
                    () -> sessionLog.start("terminal", caller.userId(), target, caller.clientAddress()));
        } catch (Throwable e) {
            LOG.warnf("terminal for %s not recorded, so not opened: %s", target.job(), e.getMessage());
            connection.closeAndAwait(new CloseReason(1011, "the session could not be recorded"));
            return;
        }
        OutputStream out = new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                log.out.addAndGet(len);
                connection
                        .sendBinary(Buffer.buffer().appendBytes(b, off, len))
                        .subscribe()
                        .with(v -> {}, e -> LOG.debugf("terminal output dropped: %s", e.getMessage()));
            }
        };
        var closed = new java.util.concurrent.CompletableFuture<Void>();
        try {
            ExecWatch watch = exec.start(target, PodExec.SHELL, true, out, null, new ExecListener() {
                @Override
                public void onFailure(Throwable t, Response failureResponse) {
                    LOG.debugf("terminal exec failed: %s", t.getMessage());
                    closed.complete(null);
                }

                @Override
                public void onClose(int code, String reason) {
                    closed.complete(null);
                }
            });
            sessions.put(connection.id(), new Session(watch, log));
            PodExec.exit(watch, closed)
                    .thenAccept(code -> finish(
                            connection, "{\"type\":\"exit\",\"code\":" + (code < 0 ? "null" : code.toString()) + "}"));
        } catch (RuntimeException e) {
            sessionLog.end(log);
            connection.sendTextAndAwait(
                    "{\"type\":\"error\",\"message\":" + Json.write(String.valueOf(e.getMessage())) + "}");
            connection.closeAndAwait(new CloseReason(1011, "the shell could not be started"));
        }
    }

    @OnBinaryMessage
    void input(WebSocketConnection connection, Buffer data) throws IOException {
        Session s = sessions.get(connection.id());
        if (s != null) {
            s.log().in.addAndGet(data.length());
            s.watch().getInput().write(data.getBytes());
            s.watch().getInput().flush();
        }
    }

    @OnTextMessage
    void control(WebSocketConnection connection, String message) {
        Session s = sessions.get(connection.id());
        JsonNode m;
        try {
            m = Json.read(message, JsonNode.class);
        } catch (RuntimeException e) {
            return; // not a control message: ignored, as a terminal ignores what it cannot parse
        }
        if (s != null && "resize".equals(m.path("type").asText())) {
            int cols = m.path("cols").asInt(0);
            int rows = m.path("rows").asInt(0);
            if (cols > 0 && cols <= 1000 && rows > 0 && rows <= 1000) {
                s.watch().resize(cols, rows);
            }
        }
    }

    @OnClose
    void close(WebSocketConnection connection) {
        Session s = sessions.remove(connection.id());
        if (s != null) {
            s.watch().close();
            sessionLog.end(s.log());
        }
    }

    /** The shell ended: tell the browser why and close (off the thread that reported it, which may be an event loop). */
    private void finish(WebSocketConnection connection, String last) {
        Session s = sessions.remove(connection.id());
        io.smallrye.mutiny.infrastructure.Infrastructure.getDefaultWorkerPool().execute(() -> {
            if (s != null) {
                sessionLog.end(s.log());
            }
            try {
                if (connection.isOpen() && last != null) {
                    connection.sendTextAndAwait(last);
                }
                if (connection.isOpen()) {
                    connection.closeAndAwait();
                }
            } catch (Throwable e) {
                LOG.debugf("closing terminal %s: %s", connection.id(), e.getMessage());
            }
        });
    }
}
