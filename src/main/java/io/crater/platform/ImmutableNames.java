package io.crater.platform;

import io.smallrye.mutiny.Uni;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Names that never change for their id (an account's slug, a user's username: no statement updates either, and ids
 * are never reused), remembered so that a page naming the same accounts and people again asks the database only for
 * the ones it has not seen. At most {@code capacity} are kept; past that, all are forgotten and learnt again.
 */
public final class ImmutableNames {

    private final int capacity;
    private final Map<Long, String> names = new ConcurrentHashMap<>();

    public ImmutableNames(int capacity) {
        this.capacity = capacity;
    }

    /** The names of {@code ids}: the known ones from memory, the others through {@code load} (then remembered). */
    public Uni<Map<Long, String>> of(Collection<Long> ids, Function<List<Long>, Uni<Map<Long, String>>> load) {
        Map<Long, String> out = new HashMap<>();
        List<Long> missing = ids.stream()
                .distinct()
                .filter(id -> {
                    String known = names.get(id);
                    if (known != null) {
                        out.put(id, known);
                    }
                    return known == null;
                })
                .toList();
        if (missing.isEmpty()) {
            return Uni.createFrom().item(out);
        }
        return load.apply(missing).map(loaded -> {
            if (names.size() + loaded.size() > capacity) {
                names.clear();
            }
            names.putAll(loaded);
            out.putAll(loaded);
            return out;
        });
    }
}
