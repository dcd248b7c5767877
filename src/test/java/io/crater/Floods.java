package io.crater;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A WebSocket that sends a burst and closes, and a reader slower than it: for checking that every frame sent before a
 * close arrives, whatever lies between (a port-forward, the app proxy).
 */
public final class Floods {

    public static final int FRAMES = 2000;
    public static final int FRAME_BYTES = 16 * 1024;

    private Floods() {}

    /** The bytes a flood sends. */
    public static long total() {
        return (long) FRAMES * FRAME_BYTES;
    }

    /** Sends {@link #FRAMES} binary frames as fast as the socket takes them, then closes it. */
    public static void send(ServerWebSocket ws) {
        send(ws, FRAMES);
    }

    private static void send(ServerWebSocket ws, int left) {
        int n = left;
        while (n > 0 && !ws.writeQueueFull()) {
            ws.writeBinaryMessage(Buffer.buffer(new byte[FRAME_BYTES]));
            n--;
        }
        if (n == 0) {
            ws.close();
            return;
        }
        int rest = n;
        ws.drainHandler(v -> send(ws, rest));
    }

    /**
     * Connects, reads nothing for a second (the sender has long finished by then), then reads to the close: the bytes
     * received before it.
     */
    public static long readSlowly(Vertx vertx, WebSocketConnectOptions options) throws Exception {
        AtomicLong received = new AtomicLong();
        CompletableFuture<Long> ended = new CompletableFuture<>();
        var ws = vertx.createWebSocketClient()
                .connect(options)
                // Handlers in place as the socket opens, before its first frame.
                .onSuccess(w -> {
                    w.pause();
                    w.binaryMessageHandler(b -> received.addAndGet(b.length()));
                    w.endHandler(v -> ended.complete(received.get())); // in order, after the frames before the close
                })
                .toCompletionStage()
                .toCompletableFuture()
                .get(20, TimeUnit.SECONDS);
        Thread.sleep(1000);
        ws.resume();
        return ended.get(30, TimeUnit.SECONDS);
    }
}
