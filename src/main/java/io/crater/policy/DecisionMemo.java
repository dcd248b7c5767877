package io.crater.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Admission decisions that did not admit, kept by everything they were decided from, until the state changes.
 *
 * <p>A decision depends on the account's quota lines, the member's limits and usage, the request, whether the
 * job is interactive or backfill, the nodes, and the pods. Within one round (or one forecast step) only an
 * admission or a release changes the account, member and node parts, and the caller then calls {@link #clear()}.
 * So two waiting jobs of the same account and member asking for the same thing get the same decision: with
 * thousands waiting behind a full cluster, most are decided by a lookup instead of a placement over every node.
 * An admission is never kept: it changes the state it was decided against.
 */
public final class DecisionMemo {

    /**
     * What a decision depends on besides the state the caller clears the memo for. Its hash is computed once: the
     * same key is looked up in every round its job waits.
     */
    public static final class Key {
        private final long account;
        private final String member;
        private final Resources quota;
        private final boolean interactive;
        private final boolean backfill;
        private final List<PodDemand> pods;
        private final int hash;

        public Key(
                long account,
                String member,
                Resources quota,
                boolean interactive,
                boolean backfill,
                List<PodDemand> pods) {
            this.account = account;
            this.member = member;
            this.quota = quota;
            this.interactive = interactive;
            this.backfill = backfill;
            this.pods = List.copyOf(pods);
            this.hash = Objects.hash(account, member, quota, interactive, backfill, this.pods);
        }

        @Override
        public boolean equals(Object o) {
            return o == this
                    || o instanceof Key k
                            && hash == k.hash
                            && account == k.account
                            && interactive == k.interactive
                            && backfill == k.backfill
                            && member.equals(k.member)
                            && quota.equals(k.quota)
                            && pods.equals(k.pods);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private final Map<Key, Admission.Decision> kept = new HashMap<>();
    private long hits;
    private long misses;

    /** The kept decision for {@code key}, else {@code decide}'s, kept unless it admits. */
    public Admission.Decision decide(Key key, Supplier<Admission.Decision> decide) {
        Admission.Decision d = kept.get(key);
        if (d != null) {
            hits++;
            return d;
        }
        misses++;
        d = decide.get();
        if (d.kind() != Admission.Kind.ADMIT) {
            kept.put(key, d);
        }
        return d;
    }

    /** Forgets every decision: the nodes, a quota line or a member's usage changed. */
    public void clear() {
        kept.clear();
    }

    /** Decisions answered from the memo. */
    public long hits() {
        return hits;
    }

    /** Decisions computed. */
    public long misses() {
        return misses;
    }
}
