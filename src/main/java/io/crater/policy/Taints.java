package io.crater.policy;

import java.util.List;
import java.util.Objects;

/**
 * Node taints and pod tolerations as Kubernetes matches them: a {@code NoSchedule} or {@code NoExecute} taint keeps
 * every pod off the node but those tolerating it ({@code PreferNoSchedule} only steers the scheduler). An account's
 * exclusive nodes carry the taint {@value #EXCLUSIVE}{@code =<account id>:NoSchedule}; every job of that account
 * tolerates it ({@link #exclusiveTo}), so those nodes are capacity for that account only (docs/nodes.md).
 */
public final class Taints {

    /** The key of the taint that makes a node exclusive to one account; its value is the account's id. */
    public static final String EXCLUSIVE = "crater.io/exclusive";

    private Taints() {}

    /**
     * A node's taint.
     *
     * @param value empty when the taint has none
     * @param effect {@code NoSchedule}, {@code PreferNoSchedule} or {@code NoExecute}
     */
    public record Taint(String key, String value, String effect) {
        public Taint {
            value = Objects.requireNonNullElse(value, "");
        }

        /** Whether it keeps pods that do not tolerate it off the node. */
        public boolean repels() {
            return "NoSchedule".equals(effect) || "NoExecute".equals(effect);
        }

        /** {@code key=value:effect}, as {@code kubectl taint} writes it ({@code key:effect} without a value). */
        public String describe() {
            return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
        }

        /** Whether this is an account's exclusive taint. */
        public boolean exclusive() {
            return EXCLUSIVE.equals(key);
        }
    }

    /**
     * A pod's toleration.
     *
     * @param key empty with {@code Exists}: every taint
     * @param operator {@code Equal} or {@code Exists}
     * @param effect empty: every effect
     */
    public record Toleration(String key, String operator, String value, String effect) {
        public Toleration {
            key = Objects.requireNonNullElse(key, "");
            operator = operator == null || operator.isEmpty() ? "Equal" : operator;
            value = Objects.requireNonNullElse(value, "");
            effect = Objects.requireNonNullElse(effect, "");
        }

        /** Kubernetes' match: the key (or an empty key with Exists), the effect (or none), and the value. */
        public boolean tolerates(Taint taint) {
            boolean exists = operator.equals("Exists");
            boolean keyMatches = key.isEmpty() ? exists : key.equals(taint.key());
            boolean effectMatches = effect.isEmpty() || effect.equals(taint.effect());
            return keyMatches && effectMatches && (exists || value.equals(taint.value()));
        }
    }

    /** The toleration every job of the account carries: it may use the nodes exclusive to that account. */
    public static Toleration exclusiveTo(long account) {
        return new Toleration(EXCLUSIVE, "Equal", Long.toString(account), "NoSchedule");
    }

    /** The taint that makes a node exclusive to the account. */
    public static Taint exclusive(long account) {
        return new Taint(EXCLUSIVE, Long.toString(account), "NoSchedule");
    }

    /** The first of the node's repelling taints none of the tolerations tolerates; null when the pod may go there. */
    public static Taint untolerated(List<Taint> taints, List<Toleration> tolerations) {
        for (Taint t : taints) {
            if (t.repels() && tolerations.stream().noneMatch(o -> o.tolerates(t))) {
                return t;
            }
        }
        return null;
    }
}
