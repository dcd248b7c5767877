package io.crater.platform;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Values read through a loader and kept per key until the database says the rows behind them changed: {@link
 * CacheInvalidations} calls {@link #invalidate()} when a trigger on one of {@link #tables()} notifies {@code
 * crater_cache} (so a write from any replica, a migration or psql reaches every replica), {@link #pause()} when the
 * listening connection is lost and {@link #resume()} when it listens again.
 *
 * <ul>
 *   <li>A value is stored only while notifications are known to arrive (after {@link #resume()}, before {@link
 *       #pause()}); otherwise every read goes to the loader.
 *   <li>Every invalidation moves a generation; a load stores its value only if the generation is still the one it
 *       started under, so a read that began before a change never leaves its older value behind.
 *   <li>Concurrent misses of one key share one load; a miss after an invalidation never joins a load begun before
 *       it. Each caller resumes on its own Vert.x context (a database session belongs to the context that opened it).
 *   <li>At most {@code capacity} values are held; a store beyond it forgets them all first.
 *   <li>Where {@code bypass} says so (a transaction is open: its own writes are not committed yet, and a rollback
 *       notifies nothing) the loader is called and nothing is read from or written to memory.
 * </ul>
 *
 * Loaders give non-null values (an absent row as {@code Optional.empty()}); a null is passed through, never stored.
 */
public final class NotifiedCache<K, V> {

    private final String name;
    private final Set<String> tables;
    private final int capacity;
    private final Function<K, Uni<V>> loader;
    private final BooleanSupplier bypass;
    private final Map<K, V> values = new ConcurrentHashMap<>();
    private final Map<K, Uni<V>> loading = new ConcurrentHashMap<>();
    private final AtomicLong generation = new AtomicLong();
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong loads = new AtomicLong();
    private volatile boolean listening;

    public NotifiedCache(
            String name, Set<String> tables, int capacity, Function<K, Uni<V>> loader, BooleanSupplier bypass) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a cache holds at least one value");
        }
        this.name = name;
        this.tables = Set.copyOf(tables);
        this.capacity = capacity;
        this.loader = loader;
        this.bypass = bypass;
    }

    public String name() {
        return name;
    }

    /** The tables whose changes invalidate this cache. */
    public Set<String> tables() {
        return tables;
    }

    /** The value for {@code key}: from memory, or from the loader (shared with concurrent misses, then stored). */
    public Uni<V> get(K key) {
        return Uni.createFrom().deferred(() -> {
            if (bypass.getAsBoolean()) {
                loads.incrementAndGet();
                return loader.apply(key);
            }
            V known = values.get(key);
            if (known != null) {
                hits.incrementAndGet();
                return Uni.createFrom().item(known);
            }
            if (!listening) {
                loads.incrementAndGet();
                return loader.apply(key);
            }
            long started = generation.get();
            Uni<V> shared = loading.computeIfAbsent(key, k -> load(k, started));
            return onCallersContext(shared);
        });
    }

    /** One load of {@code key}, begun under generation {@code started}: memoized, so its waiters share it. */
    private Uni<V> load(K key, long started) {
        AtomicReference<Uni<V>> self = new AtomicReference<>();
        Uni<V> shared = Uni.createFrom()
                .deferred(() -> {
                    loads.incrementAndGet();
                    return loader.apply(key);
                })
                .invoke(v -> store(key, v, started))
                .onTermination()
                .invoke(() -> loading.remove(key, self.get()))
                .memoize()
                .indefinitely();
        self.set(shared);
        return shared;
    }

    private void store(K key, V value, long started) {
        if (value == null || !listening || generation.get() != started) {
            return;
        }
        if (values.size() >= capacity && !values.containsKey(key)) {
            values.clear();
        }
        values.put(key, value);
        // An invalidation between the check above and the put moved the generation before clearing: undo the put.
        if (generation.get() != started) {
            values.remove(key, value);
        }
    }

    /** The rows behind the cache changed: forget every value, and let no load begun before now store its own. */
    public void invalidate() {
        generation.incrementAndGet();
        loading.clear();
        values.clear();
    }

    /** Notifications may be missed from now on: forget everything and store nothing until {@link #resume()}. */
    public void pause() {
        listening = false;
        invalidate();
    }

    /** Notifications arrive again (any sent meanwhile are lost): forget everything, then store again. */
    public void resume() {
        invalidate();
        listening = true;
    }

    /** How many values are held now. */
    public int size() {
        return values.size();
    }

    /** Reads answered from memory so far. */
    public long hits() {
        return hits.get();
    }

    /** Loads begun so far (each a read of the database). */
    public long loads() {
        return loads.get();
    }

    /** Hands a shared load's outcome to the caller on the Vert.x context it asked from, if it asked from one. */
    private static <V> Uni<V> onCallersContext(Uni<V> shared) {
        Context caller = Vertx.currentContext();
        if (caller == null) {
            return shared;
        }
        return shared.emitOn(task -> {
            if (Vertx.currentContext() == caller) {
                task.run();
            } else {
                caller.runOnContext(v -> task.run());
            }
        });
    }
}
