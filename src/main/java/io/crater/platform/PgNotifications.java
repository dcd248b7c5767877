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
 * callbacks run, because notifications sent while the connection was down are lost; the {@code onLost} callbacks run
 * as soon as the connection is found lost, and a channel's {@code subscribed} callbacks each time LISTEN on it takes
 * effect (from then on, until the next loss, nothing sent on it is missed).
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
    private final List<Runnable> lost = new CopyOnWriteArrayList<>();
    private final Map<String, List<Runnable>> subscribed = new ConcurrentHashMap<>();
    private PgSubscriber subscriber;
    private volatile boolean connectedOnce;

    /** Calls {@code handler} (on a Vert.x event loop: keep it short) with each payload sent on {@code channel}. */
    public void listen(String channel, Consumer<String> handler) {
        listen(channel, handler, null);
    }

    /**
     * {@link #listen(String, Consumer)}, and calls {@code onSubscribed} (if not null) each time LISTEN on the channel
     * has taken effect: at the first connection and after every reconnect.
     */
    public synchronized void listen(String channel, Consumer<String> handler, Runnable onSubscribed) {
        if (onSubscribed != null) {
            subscribed
                    .computeIfAbsent(channel, c -> new CopyOnWriteArrayList<>())
                    .add(onSubscribed);
        }
        List<Consumer<String>> list = handlers.get(channel);
        if (list == null) {
            list = new CopyOnWriteArrayList<>();
            handlers.put(channel, list);
            boolean first = handlers.size() == 1;
            var ch = subscriber().channel(channel);
            ch.handler(payload -> dispatch(channel, payload));
            ch.subscribeHandler(v -> {
                if (first) {
                    // LISTEN succeeded again after a lost connection: what was sent meanwhile is lost.
                    if (connectedOnce) {
                        reconnected.forEach(PgNotifications::safely);
                    }
                    connectedOnce = true;
                }
                subscribed.getOrDefault(channel, List.of()).forEach(PgNotifications::safely);
            });
        }
        list.add(handler);
    }

    /** Runs when the listening connection is found lost (before reconnecting): notifications may be missed now. */
    public void onLost(Runnable callback) {
        lost.add(callback);
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
            // The subscriber asks its reconnect policy when the connection drops (retries 0) and after each failed
            // attempt; its close handler runs only when it gives up, which this policy never does.
            subscriber = PgSubscriber.subscriber(vertx, options).reconnectPolicy(retries -> {
                if (retries == 0) {
                    LOG.warn("notifications: listening connection lost; reconnecting");
                    lost.forEach(PgNotifications::safely);
                }
                return 1000L;
            });
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
            LOG.warn("notifications: a callback failed", e);
        }
    }
}
