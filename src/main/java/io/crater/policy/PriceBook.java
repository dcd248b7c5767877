package io.crater.policy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The prices of resources over time: each price holds from its {@code effectiveFrom} until the next price of the
 * same resource, and a resource is free wherever no price of it is in force yet.
 *
 * <p>A price is in integer micro-units of the configured currency per unit-hour: per core-hour for {@code cpu}, per
 * GiB-hour (2^30 bytes) for {@code memory}, per device-hour for an accelerator model. The book is immutable.
 */
public final class PriceBook {

    private static final PriceBook EMPTY = new PriceBook(List.of());

    /**
     * The price of one unit-hour of a resource from {@code effectiveFrom} on.
     *
     * @param resource {@code cpu}, {@code memory} or an accelerator model
     * @param microsPerHour micro-units per core-hour, GiB-hour or device-hour; zero makes the resource free
     * @param effectiveFrom the first instant the price is in force
     */
    public record Price(String resource, long microsPerHour, Instant effectiveFrom) {
        public Price {
            if (resource == null || resource.isBlank()) {
                throw new IllegalArgumentException("a price needs a resource");
            }
            if (effectiveFrom == null) {
                throw new IllegalArgumentException("the price of " + resource + " needs the instant it takes effect");
            }
            if (microsPerHour < 0) {
                throw new IllegalArgumentException(
                        "the price of " + resource + " must not be negative (was " + microsPerHour + ")");
            }
        }
    }

    /**
     * One stretch of time over which one price of a resource is in force without change.
     *
     * @param microsPerHour the price in force
     * @param from the stretch's first instant
     * @param to the instant it ends (exclusive)
     */
    public record Segment(long microsPerHour, Instant from, Instant to) {}

    /** Per resource, its prices by the instant they take effect. */
    private final Map<String, TreeMap<Instant, Price>> byResource;

    /**
     * A book of the given prices, in any order.
     *
     * @throws IllegalArgumentException when two prices of one resource take effect at the same instant
     */
    public PriceBook(List<Price> prices) {
        if (prices == null) {
            throw new IllegalArgumentException("a price book needs a list of prices (it may be empty)");
        }
        TreeMap<String, TreeMap<Instant, Price>> book = new TreeMap<>();
        for (Price p : prices) {
            if (p == null) {
                throw new IllegalArgumentException("a price book holds no null price");
            }
            Price before =
                    book.computeIfAbsent(p.resource(), r -> new TreeMap<>()).putIfAbsent(p.effectiveFrom(), p);
            if (before != null) {
                throw new IllegalArgumentException("two prices of " + p.resource() + " take effect at "
                        + p.effectiveFrom() + ": " + before.microsPerHour() + " and " + p.microsPerHour());
            }
        }
        this.byResource = Collections.unmodifiableMap(book);
    }

    /** The book without any price: everything is free. */
    public static PriceBook empty() {
        return EMPTY;
    }

    /** The price of a resource in force at {@code t} (the latest that took effect at or before it), if any is. */
    public OptionalLong at(String resource, Instant t) {
        TreeMap<Instant, Price> history = byResource.get(resource);
        if (history == null) {
            return OptionalLong.empty();
        }
        Map.Entry<Instant, Price> e = history.floorEntry(t);
        return e == null ? OptionalLong.empty() : OptionalLong.of(e.getValue().microsPerHour());
    }

    /** Every price of the book, by resource and then by the instant it takes effect. */
    public List<Price> prices() {
        List<Price> all = new ArrayList<>();
        byResource.values().forEach(history -> all.addAll(history.values()));
        return List.copyOf(all);
    }

    /** The price in force at {@code now} of each resource that has one, by resource. */
    public List<Price> current(Instant now) {
        List<Price> current = new ArrayList<>();
        for (TreeMap<Instant, Price> history : byResource.values()) {
            Map.Entry<Instant, Price> e = history.floorEntry(now);
            if (e != null) {
                current.add(e.getValue());
            }
        }
        return List.copyOf(current);
    }

    /**
     * The stretches of {@code [from, to)} over which a price of the resource is in force, in order, each cut at the
     * span's ends and at every price change. Time before the resource's first price is left out: it is free.
     */
    public List<Segment> segments(String resource, Instant from, Instant to) {
        TreeMap<Instant, Price> history = byResource.get(resource);
        if (history == null || !from.isBefore(to)) {
            return List.of();
        }
        // The price in force at `from` (if any), then each change before `to`.
        Instant first = history.floorKey(from);
        Map<Instant, Price> relevant = history.subMap(first == null ? from : first, true, to, false);
        List<Segment> segments = new ArrayList<>();
        Price running = null;
        for (Price p : relevant.values()) {
            if (running != null) {
                add(segments, running, from, p.effectiveFrom());
            }
            running = p;
        }
        if (running != null) {
            add(segments, running, from, to);
        }
        return List.copyOf(segments);
    }

    private static void add(List<Segment> segments, Price p, Instant from, Instant end) {
        Instant start = p.effectiveFrom().isAfter(from) ? p.effectiveFrom() : from;
        if (start.isBefore(end)) {
            segments.add(new Segment(p.microsPerHour(), start, end));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PriceBook other && byResource.equals(other.byResource);
    }

    @Override
    public int hashCode() {
        return Objects.hash(byResource);
    }

    @Override
    public String toString() {
        return "PriceBook" + prices();
    }
}
