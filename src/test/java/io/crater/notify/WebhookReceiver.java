package io.crater.notify;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real HTTP server on 127.0.0.1 (the JDK's) that takes webhook deliveries, keeps each request's headers and body,
 * and answers the statuses it is told to, then 200.
 */
final class WebhookReceiver implements AutoCloseable {

    /** One request as received. */
    record Received(String path, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Deque<Integer> answers = new ArrayDeque<>();

    WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(
                    new Received(exchange.getRequestURI().getPath(), Map.copyOf(exchange.getRequestHeaders()), body));
            int status;
            synchronized (answers) {
                status = answers.isEmpty() ? 200 : answers.poll();
            }
            byte[] out = (status == 200 ? "ok" : "receiver down").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
    }

    /** The next requests are answered with these statuses, in order; after them, 200. */
    WebhookReceiver answering(Integer... statuses) {
        synchronized (answers) {
            answers.addAll(List.of(statuses));
        }
        return this;
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
