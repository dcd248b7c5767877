package io.crater.sim.apiserver;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * {@code pods/{name}/log} of the API server, from what the containers wrote ({@link PodLogSource}): with
 * {@code follow=true} streamed chunk by chunk while the container runs and ended when it stops.
 */
final class PodLogServing {

    private final Vertx vertx;
    private final KubeStore store;
    private final PodLogSource logs;

    PodLogServing(Vertx vertx, KubeStore store, PodLogSource logs) {
        this.vertx = vertx;
        this.store = store;
        this.logs = logs;
    }

    /** {@code GET pods/{name}/log}: the lines so far ({@code tailLines}, {@code timestamps}), then more with {@code follow}. */
    void serve(HttpServerRequest req, String namespace, String pod) {
        store.get(store.resource("", "v1", "pods"), namespace, pod);
        boolean follow = "true".equals(req.getParam("follow"));
        boolean timestamps = "true".equals(req.getParam("timestamps"));
        int tail;
        try {
            tail = req.getParam("tailLines") == null ? -1 : Integer.parseInt(req.getParam("tailLines"));
        } catch (NumberFormatException e) {
            throw new ApiError(400, "BadRequest", "tailLines must be an integer");
        }
        var response = req.response().setChunked(true).putHeader("Content-Type", "text/plain");
        var context = vertx.getOrCreateContext();
        PodLogSource.Follower follower = !follow
                ? null
                : new PodLogSource.Follower() {
                    @Override
                    public void line(PodLogSource.Line line) {
                        context.runOnContext(v -> {
                            if (!response.ended() && !response.closed()) {
                                response.write(format(line, timestamps));
                            }
                        });
                    }

                    @Override
                    public void end() {
                        context.runOnContext(v -> {
                            if (!response.ended() && !response.closed()) {
                                response.end();
                            }
                        });
                    }
                };
        List<PodLogSource.Line> lines =
                logs.read(namespace, pod, tail, follower, unsubscribe -> response.closeHandler(v -> unsubscribe.run()));
        StringBuilder first = new StringBuilder();
        lines.forEach(l -> first.append(format(l, timestamps)));
        if (!first.isEmpty()) {
            response.write(first.toString());
        }
        if (!follow) {
            response.end();
        }
    }

    private static String format(PodLogSource.Line line, boolean timestamps) {
        return timestamps
                ? DateTimeFormatter.ISO_INSTANT.format(line.time()) + " " + line.text() + "\n"
                : line.text() + "\n";
    }
}
