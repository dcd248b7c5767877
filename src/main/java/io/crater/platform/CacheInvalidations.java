package io.crater.platform;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Keeps every {@link NotifiedCache} true to the database. Triggers on the cached tables send {@code
 * pg_notify('crater_cache', '<table>')} at the commit of any statement that writes them, on whichever replica or
 * client wrote; each notification invalidates the caches built on that table. Until LISTEN on the channel has taken
 * effect, and whenever the listening connection is lost, the caches store nothing (what was sent meanwhile is lost);
 * when it listens again they start empty.
 *
 * <p>A statement this replica runs through {@link Sql} that writes a cached table also invalidates its caches at once,
 * so that the replica's next request reads what it has just written without waiting for the notification (which
 * still comes at the commit and invalidates again).
 */
@ApplicationScoped
public class CacheInvalidations {

    /** The channel the tables' triggers notify, with the table's name as the payload. */
    public static final String CHANNEL = "crater_cache";

    private static final Logger LOG = Logger.getLogger(CacheInvalidations.class);

    @Inject
    PgNotifications notifications;

    /** The instance of the running application, which {@link Sql} tells of its writes. */
    private static volatile CacheInvalidations running;

    private final List<NotifiedCache<?, ?>> caches = new CopyOnWriteArrayList<>();
    private boolean listening;
    /** Finds the cached tables a statement writes; null while there is no cache. */
    private volatile Pattern writes;

    void onStart(@Observes @Priority(40) StartupEvent event) {
        notifications.listen(CHANNEL, this::changed, this::subscribed);
        notifications.onLost(this::lost);
        running = this;
    }

    /** Called by {@link Sql} after each statement it ran on this replica: one that wrote cached tables invalidates. */
    static void ran(String sql) {
        CacheInvalidations self = running;
        if (self == null || sql.startsWith("SELECT")) {
            return;
        }
        Pattern p = self.writes;
        if (p != null) {
            Set<String> tables = self.writtenBy.get(sql);
            if (tables == null) {
                // Statements are mostly the code's constants: each is matched once, not on every run.
                if (self.writtenBy.size() > 10_000) {
                    self.writtenBy.clear();
                }
                tables = written(p, sql);
                self.writtenBy.put(sql, tables);
            }
            tables.forEach(self::changed);
        }
    }

    /** The cached tables each statement run so far writes (most write none). */
    private final java.util.Map<String, Set<String>> writtenBy = new java.util.concurrent.ConcurrentHashMap<>();

    /** The tables of {@code pattern} ({@link #writing}) that the statement inserts into, updates or deletes from. */
    static Set<String> written(Pattern pattern, String sql) {
        Set<String> out = new TreeSet<>();
        Matcher m = pattern.matcher(sql);
        while (m.find()) {
            out.add(m.group(1).toLowerCase(java.util.Locale.ROOT));
        }
        return out;
    }

    /** A pattern finding the statements that write one of {@code tables}, the table's name as its group 1. */
    static Pattern writing(Set<String> tables) {
        return Pattern.compile("(?i)\\b(?:UPDATE|INSERT\\s+INTO|DELETE\\s+FROM)\\s+(?:ONLY\\s+)?("
                + String.join("|", new TreeSet<>(tables)) + ")\\b");
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
        Set<String> all = new TreeSet<>();
        caches.forEach(c -> all.addAll(c.tables()));
        writes = writing(all);
        writtenBy.clear();
        return cache;
    }

    /** The caches made so far, with their counts of what they answered from memory and what they read. */
    public List<NotifiedCache<?, ?>> caches() {
        return List.copyOf(caches);
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
