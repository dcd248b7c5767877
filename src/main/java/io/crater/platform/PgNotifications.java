package io.crater.platform;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.pubsub.PgSubscriber;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * PostgreSQL LISTEN/NOTIFY for every replica: one dedicated connection that listens on the channels features
 * register, reconnecting when it drops. A notification is sent inside a transaction and delivered at its
 * commit, so listeners never see a change that was rolled back. After a reconnect the {@code onReconnect}
 * callbacks run, because notifications sent while the connection was down are lost.
 */
@ApplicationScoped
public class PgNotifications {

    private static final Logger LOG = Logger.getLogger(PgNotifications.class);

    @Inject
    Vertx vertx;

    @ConfigProperty(name = "quarkus.datasource.reactive.url")
    String databaseUrl;

    @ConfigProperty(name = "quarkus.datasource.username")
    String databaseUser;

    @ConfigProperty(name = "quarkus.datasource.password", defaultValue = "")
    String databasePassword;

    private final Map<String, List<Consumer<String>>> handlers = new ConcurrentHashMap<>();
    private final List<Runnable> reconnected = new CopyOnWriteArrayList<>();
    private PgSubscriber subscriber;
    private volatile boolean connectedOnce;

    /** Calls {@code handler} (on a Vert.x event loop: keep it short) with each payload sent on {@code channel}. */
    public synchronized void listen(String channel, Consumer<String> handler) {
        List<Consumer<String>> list = handlers.get(channel);
        if (list == null) {
            list = new CopyOnWriteArrayList<>();
            handlers.put(channel, list);
            var ch = subscriber().channel(channel);
            ch.handler(payload -> dispatch(channel, payload));
            if (handlers.size() == 1) {
                // LISTEN succeeded again after a lost connection: what was sent meanwhile is lost.
                ch.subscribeHandler(v -> {
                    if (connectedOnce) {
                        reconnected.forEach(PgNotifications::safely);
                    }
                    connectedOnce = true;
                });
            }
        }
        list.add(handler);
    }

    /** Runs after the listening connection was lost and made again (catch up on what may have been missed). */
    public void onReconnect(Runnable callback) {
        reconnected.add(callback);
    }

    private synchronized PgSubscriber subscriber() {
        if (subscriber == null) {
            PgConnectOptions options = PgConnectOptions.fromUri(databaseUrl.replaceFirst("^vertx-reactive:", ""))
                    .setUser(databaseUser)
                    .setPassword(databasePassword);
            subscriber = PgSubscriber.subscriber(vertx, options).reconnectPolicy(retries -> 1000L);
            subscriber.closeHandler(v -> LOG.warn("notifications: listening connection lost; reconnecting"));
        }
        return subscriber;
    }

    /** Connects after the features registered their channels (their start-up observers run earlier). */
    void onStart(@Observes @Priority(200) StartupEvent event) {
        subscriber().connect().onComplete(ar -> {
            if (ar.failed()) {
                LOG.warn("notifications: cannot listen yet; retrying", ar.cause());
                vertx.setTimer(1000, t -> onStart(event));
            }
        });
    }

    void onStop(@Observes ShutdownEvent event) {
        if (subscriber != null) {
            subscriber.close();
        }
    }

    private void dispatch(String channel, String payload) {
        for (Consumer<String> h : handlers.getOrDefault(channel, List.of())) {
            try {
                h.accept(payload);
            } catch (RuntimeException e) {
                LOG.warnf(e, "notifications: a handler of %s failed", channel);
            }
        }
    }

    private static void safely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.warn("notifications: a reconnect callback failed", e);
        }
    }
}
