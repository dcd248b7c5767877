package io.crater.gpus;

import io.smallrye.mutiny.Uni;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A GET of a text body with the JDK's asynchronous client; anything but a 200 fails with the status and the body's start. */
final class HttpText {

    private final HttpClient http;
    private final Duration timeout;

    HttpText(Duration timeout) {
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .build();
    }

    Uni<String> get(URI uri, String accept) {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Accept", accept)
                .GET()
                .build();
        return Uni.createFrom()
                .completionStage(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofString()))
                .map(r -> {
                    String body = r.body() == null ? "" : r.body();
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException(uri.getHost() + ":" + uri.getPort() + " answered "
                                + r.statusCode() + ": " + body.substring(0, Math.min(200, body.length())));
                    }
                    return body;
                });
    }
}
