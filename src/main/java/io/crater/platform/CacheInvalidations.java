package io.crater.platform;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Keeps every {@link NotifiedCache} true to the database. Triggers on the cached tables send {@code
 * pg_notify('crater_cache', '<table>')} at the commit of any statement that writes them, on whichever replica or
 * client wrote; each notification invalidates the caches built on that table. Until LISTEN on the channel has taken
 * effect, and whenever the listening connection is lost, the caches store nothing (what was sent meanwhile is lost);
 * when it listens again they start empty.
 */
@ApplicationScoped
public class CacheInvalidations {

    /** The channel the tables' triggers notify, with the table's name as the payload. */
    public static final String CHANNEL = "crater_cache";

    private static final Logger LOG = Logger.getLogger(CacheInvalidations.class);

    @Inject
    PgNotifications notifications;

    private final List<NotifiedCache<?, ?>> caches = new CopyOnWriteArrayList<>();
    private boolean listening;

    void onStart(@Observes @Priority(40) StartupEvent event) {
        notifications.listen(CHANNEL, this::changed, this::subscribed);
        notifications.onLost(this::lost);
    }

    /**
     * A new cache of at most {@code capacity} values read by {@code loader}, invalidated by writes to {@code tables}
     * and bypassed inside a transaction (which may see its own uncommitted writes).
     */
    public synchronized <K, V> NotifiedCache<K, V> cache(
            String name, Set<String> tables, int capacity, Function<K, Uni<V>> loader) {
        NotifiedCache<K, V> cache = new NotifiedCache<>(name, tables, capacity, loader, Sql::inTransaction);
        if (listening) {
            cache.resume();
        }
        caches.add(cache);
        return cache;
    }

    private void changed(String table) {
        for (NotifiedCache<?, ?> c : caches) {
            if (c.tables().contains(table)) {
                c.invalidate();
            }
        }
    }

    private synchronized void subscribed() {
        listening = true;
        caches.forEach(NotifiedCache::resume);
        LOG.debugf("caches: listening on %s", CHANNEL);
    }

    private synchronized void lost() {
        listening = false;
        caches.forEach(NotifiedCache::pause);
    }
}
