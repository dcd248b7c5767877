package io.crater;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A job's terminal ({@code /api/v1/jobs/{id}/terminal}) opened through one replica with the JDK's WebSocket
 * client, as the console's opens it: what the shell printed, and when the connection ended.
 */
public final class JobTerminal implements WebSocket.Listener {

    private final StringBuilder out = new StringBuilder();
    /** Completes when the connection closes or fails (a killed replica resets it). */
    public final CompletableFuture<Void> ended = new CompletableFuture<>();

    private WebSocket ws;

    private JobTerminal() {}

    public static JobTerminal open(String baseUrl, String token, String job) throws Exception {
        JobTerminal t = new JobTerminal();
        t.ws = HttpClient.newHttpClient()
                .newWebSocketBuilder()
                .header("Authorization", "Bearer " + token)
                .header("Origin", baseUrl)
                .connectTimeout(Duration.ofSeconds(10))
                .buildAsync(URI.create(baseUrl.replaceFirst("^http", "ws") + "/api/v1/jobs/" + job + "/terminal"), t)
                .get(20, TimeUnit.SECONDS);
        return t;
    }

    /** Sends keystrokes. */
    public void type(String keys) throws Exception {
        ws.sendBinary(ByteBuffer.wrap(keys.getBytes(StandardCharsets.UTF_8)), true)
                .get(10, TimeUnit.SECONDS);
    }

    /** Waits until the shell has printed {@code text}; false if it did not within {@code within}. */
    public boolean shows(String text, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (text().contains(text)) {
                return true;
            }
            Thread.sleep(20);
        }
        return text().contains(text);
    }

    public synchronized String text() {
        return out.toString();
    }

    public void close() {
        ws.abort();
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        synchronized (this) {
            out.append(StandardCharsets.UTF_8.decode(data));
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        ended.complete(null);
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        ended.complete(null);
    }
}
