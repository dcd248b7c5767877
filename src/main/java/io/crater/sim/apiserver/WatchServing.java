package io.crater.sim.apiserver;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * Watches of the API server over chunked HTTP or WebSocket, one event per line or message, ended after
 * {@code timeoutSeconds} when asked and cancelled when the client goes.
 */
final class WatchServing {

    private final Vertx vertx;
    private final KubeStore store;

    WatchServing(Vertx vertx, KubeStore store) {
        this.vertx = vertx;
        this.store = store;
    }

    /** A watch of a resource, over WebSocket when the request upgrades, else over chunked HTTP. */
    void serve(
            HttpServerRequest req,
            ApiResource resource,
            String version,
            String namespace,
            Selectors.Selector labels,
            Selectors.Selector fields) {
        String from = req.getParam("resourceVersion");
        boolean bookmarks = "true".equals(req.getParam("allowWatchBookmarks"));
        long timeout = parseTimeout(req.getParam("timeoutSeconds"));
        if ("websocket".equalsIgnoreCase(req.getHeader("Upgrade"))) {
            req.toWebSocket().onSuccess(ws -> {
                Watches.Watch w =
                        store.watch(resource, version, namespace, labels, fields, from, bookmarks, new Watches.Sink() {
                            @Override
                            public void send(String event) {
                                if (!ws.isClosed()) {
                                    ws.writeTextMessage(event);
                                }
                            }

                            @Override
                            public void close() {
                                if (!ws.isClosed()) {
                                    ws.close();
                                }
                            }
                        });
                ws.closeHandler(v -> w.cancel());
                timeout(timeout, w);
            });
            return;
        }
        HttpServerResponse response = req.response().setChunked(true).putHeader("Content-Type", "application/json");
        Watches.Watch w =
                store.watch(resource, version, namespace, labels, fields, from, bookmarks, new Watches.Sink() {
                    @Override
                    public void send(String event) {
                        if (!response.ended() && !response.closed()) {
                            response.write(event + "\n");
                        }
                    }

                    @Override
                    public void close() {
                        if (!response.ended() && !response.closed()) {
                            response.end();
                        }
                    }
                });
        if (!response.headWritten()) {
            response.write("");
        }
        response.closeHandler(v -> w.cancel());
        timeout(timeout, w);
        if (response.ended()) {
            w.cancel();
        }
    }

    private void timeout(long seconds, Watches.Watch w) {
        if (seconds > 0) {
            vertx.setTimer(seconds * 1000, id -> {
                w.cancel();
                w.sink.close();
            });
        }
    }

    private static long parseTimeout(String v) {
        try {
            return v == null ? 0 : Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ApiError(400, "BadRequest", "timeoutSeconds must be an integer");
        }
    }
}
