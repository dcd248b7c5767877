package io.crater.cluster;

import io.crater.policy.NodeEdits;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A node's taints edited: removals and additions matched by key and effect, as {@code kubectl taint} does. */
final class NodeTaints {

    private NodeTaints() {}

    /** The taints after the edit: those removed gone, those added replacing any of the same key and effect. */
    static List<Taint> edited(List<Taint> current, List<NodeEdits.TaintSpec> add, List<NodeEdits.TaintSpec> remove) {
        List<Taint> out = new ArrayList<>();
        for (Taint t : current) {
            boolean dropped = remove.stream().anyMatch(r -> same(t, r.key(), r.effect()))
                    || add.stream().anyMatch(a -> same(t, a.key(), a.effect()));
            if (!dropped) {
                out.add(t);
            }
        }
        for (NodeEdits.TaintSpec a : add) {
            String value = a.value() == null || a.value().isEmpty() ? null : a.value();
            out.add(new Taint(a.effect(), a.key(), null, value));
        }
        return out;
    }

    static List<ClusterViews.NodeTaint> views(List<Taint> taints) {
        return taints == null
                ? List.of()
                : taints.stream()
                        .map(t -> new ClusterViews.NodeTaint(
                                t.getKey(), Objects.requireNonNullElse(t.getValue(), ""), t.getEffect()))
                        .toList();
    }

    /** {@code key=value:effect}, comma-separated, for the audit trail. */
    static String describe(List<?> taints) {
        List<String> parts = new ArrayList<>();
        for (Object o : taints) {
            if (o instanceof Taint t) {
                parts.add(t.getKey() + "=" + Objects.requireNonNullElse(t.getValue(), "") + ":" + t.getEffect());
            } else if (o instanceof ClusterViews.NodeTaint t) {
                parts.add(t.key() + "=" + t.value() + ":" + t.effect());
            }
        }
        return String.join(",", parts);
    }

    private static boolean same(Taint t, String key, String effect) {
        return Objects.equals(t.getKey(), key) && Objects.equals(t.getEffect(), effect);
    }
}
