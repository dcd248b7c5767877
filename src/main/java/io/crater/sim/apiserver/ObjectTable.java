package io.crater.sim.apiserver;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The stored objects of one resource, sorted by namespace and name, with an index per label so a list with an
 * equality term reads only the objects carrying that label. Used under the store's lock only.
 */
final class ObjectTable {

    final NavigableMap<String, KubeStore.Entry> objects = new TreeMap<>();
    private final Map<String, Map<String, TreeSet<String>>> labels = new HashMap<>();

    /** Stores an object's new version in place of {@code previous} (null when it is new). */
    void put(KubeStore.Entry e, KubeStore.Entry previous) {
        // Most writes are status updates: the same key with the same labels is indexed already.
        boolean indexed = previous != null
                && previous.key().equals(e.key())
                && previous.labels().equals(e.labels());
        if (previous != null && !indexed) {
            unindex(previous);
        }
        objects.put(e.key(), e);
        if (!indexed) {
            index(e);
        }
    }

    /** Removes an object; returns what was stored, or null. */
    KubeStore.Entry remove(String key) {
        KubeStore.Entry previous = objects.remove(key);
        if (previous != null) {
            unindex(previous);
        }
        return previous;
    }

    /** The entries worth testing, in key order: an equality or set term's label index when there is one. */
    Iterable<KubeStore.Entry> candidates(String namespace, Selectors.Selector selector, String after) {
        TreeSet<String> best = null;
        for (Selectors.Term term : selector.terms()) {
            if (term.op() == Selectors.Op.EQUALS || term.op() == Selectors.Op.IN) {
                TreeSet<String> keys = withLabel(term.key(), term.values());
                if (keys == null) {
                    return List.of();
                }
                if (best == null || keys.size() < best.size()) {
                    best = keys;
                }
            }
        }
        String from = namespace == null ? "" : namespace + "/";
        String to = namespace == null ? "\uffff" : namespace + "/\uffff";
        if (after != null && after.compareTo(from) >= 0) {
            from = after + "\u0000";
        }
        if (from.compareTo(to) >= 0) {
            return List.of();
        }
        if (best != null) {
            Collection<String> keys = best.subSet(from, true, to, false);
            List<KubeStore.Entry> out = new ArrayList<>(keys.size());
            for (String k : keys) {
                out.add(objects.get(k));
            }
            return out;
        }
        return objects.subMap(from, true, to, false).values();
    }

    /** The keys of the entries whose label has one of the values; null when none has. */
    private TreeSet<String> withLabel(String label, java.util.Set<String> values) {
        Map<String, TreeSet<String>> byValue = labels.get(label);
        if (byValue == null) {
            return null;
        }
        if (values.size() == 1) {
            return byValue.get(values.iterator().next());
        }
        TreeSet<String> keys = new TreeSet<>();
        for (String v : values) {
            TreeSet<String> one = byValue.get(v);
            if (one != null) {
                keys.addAll(one);
            }
        }
        return keys.isEmpty() ? null : keys;
    }

    private void index(KubeStore.Entry e) {
        e.labels()
                .forEach((k, v) -> labels.computeIfAbsent(k, x -> new HashMap<>())
                        .computeIfAbsent(v, x -> new TreeSet<>())
                        .add(e.key()));
    }

    private void unindex(KubeStore.Entry e) {
        e.labels().forEach((k, v) -> {
            Map<String, TreeSet<String>> byValue = labels.get(k);
            TreeSet<String> keys = byValue == null ? null : byValue.get(v);
            if (keys != null) {
                keys.remove(e.key());
                if (keys.isEmpty()) {
                    byValue.remove(v);
                }
            }
        });
    }
}
