package io.crater.platform;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Plain-text HTTP speaks HTTP/1.1 only: the server declines an {@code h2c} upgrade. A client that offers it (the
 * JDK's HttpClient does on every {@code http://} request) and whose request is refused before its body is read
 * (a bad path, a missing permission, a full quota) otherwise gets a {@code GOAWAY} instead of the problem answer.
 * HTTP/2 over TLS (ALPN) is unchanged.
 */
@ApplicationScoped
public class PlainHttp implements HttpServerOptionsCustomizer {

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        options.setHttp2ClearTextEnabled(false);
    }
}
