package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.PriceBook.Price;
import io.crater.policy.Settlement.Holding;
import java.math.BigInteger;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** However a holding's time is cut into settlement windows and however its prices change, nothing is lost or won. */
class SettlementProperties {

    static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
    /** Thirty days in nanoseconds: the spans and price changes of these properties fall within it. */
    static final long SPAN_NANOS = 30L * 86_400 * 1_000_000_000;

    @Provide
    Arbitrary<Holding> holdings() {
        // Up to a petabyte, a million cores or 100000 devices: charges over thirty days stay well within a long.
        Arbitrary<Holding> memory =
                Arbitraries.longs().between(0, (1L << 50) * 1000).map(m -> new Holding("memory", m));
        Arbitrary<Holding> cpu = Arbitraries.longs().between(0, 1_000_000_000L).map(m -> new Holding("cpu", m));
        Arbitrary<Holding> device = Arbitraries.longs().between(0, 100_000_000L).map(m -> new Holding("A100-80GB", m));
        return Arbitraries.oneOf(memory, cpu, device);
    }

    @Provide
    Arbitrary<PriceBook> books() {
        Arbitrary<Price> price = Combinators.combine(
                        Arbitraries.of("memory", "cpu", "A100-80GB"),
                        Arbitraries.longs().between(0, 10_000_000L),
                        instants())
                .as(Price::new);
        // A resource has one price per instant: of two drawn for the same instant, the first stays.
        return price.list().ofMaxSize(12).map(prices -> {
            Map<String, Price> unique = new LinkedHashMap<>();
            prices.forEach(p -> unique.putIfAbsent(p.resource() + "@" + p.effectiveFrom(), p));
            return new PriceBook(List.copyOf(unique.values()));
        });
    }

    @Provide
    Arbitrary<Instant> instants() {
        return offsets().map(T0::plusNanos);
    }

    /** Cut points of a span, as nanoseconds after {@link #T0}: the property sorts them and drops repeats. */
    @Provide
    Arbitrary<List<Long>> cuts() {
        return offsets().list().ofMinSize(2).ofMaxSize(20);
    }

    /** Nanosecond offsets, so cuts also fall inside a millisecond; a few fall exactly on whole hours. */
    static Arbitrary<Long> offsets() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.longs().between(-SPAN_NANOS / 10, SPAN_NANOS)),
                Tuple.of(1, Arbitraries.longs().between(-24, 24 * 30).map(h -> h * 3_600_000_000_000L)));
    }

    static List<Instant> sorted(List<Long> offsets) {
        return new TreeSet<>(offsets).stream().map(T0::plusNanos).toList();
    }

    @Property(tries = 500)
    void theWindowsOfAPartitionAddUpToTheWholeSpanExactly(
            @ForAll("holdings") Holding h,
            @ForAll("books") PriceBook book,
            @ForAll("instants") Instant heldFrom,
            @ForAll("cuts") List<Long> offsets,
            @ForAll @IntRange(min = 0, max = 2000) int factor) {
        List<Instant> cuts = sorted(offsets);
        long sum = 0;
        for (int i = 1; i < cuts.size(); i++) {
            long charge = Settlement.window(h, heldFrom, cuts.get(i - 1), cuts.get(i), book, factor);
            assertThat(charge).isNotNegative();
            sum += charge;
        }
        Instant first = cuts.get(0);
        Instant last = cuts.get(cuts.size() - 1);
        long whole = Settlement.cumulative(h, heldFrom, last, book, factor)
                - Settlement.cumulative(h, heldFrom, first, book, factor);
        assertThat(sum).isEqualTo(whole);
        if (!first.isAfter(heldFrom)) {
            assertThat(sum).isEqualTo(Settlement.cumulative(h, heldFrom, last, book, factor));
        }
    }

    @Property(tries = 500)
    void theCumulativeNeverFallsAsTimeGoesOn(
            @ForAll("holdings") Holding h,
            @ForAll("books") PriceBook book,
            @ForAll("instants") Instant heldFrom,
            @ForAll("instants") Instant a,
            @ForAll("instants") Instant b,
            @ForAll @IntRange(min = 0, max = 2000) int factor) {
        Instant earlier = a.isBefore(b) ? a : b;
        Instant later = a.isBefore(b) ? b : a;
        assertThat(Settlement.cumulative(h, heldFrom, earlier, book, factor))
                .isNotNegative()
                .isLessThanOrEqualTo(Settlement.cumulative(h, heldFrom, later, book, factor));
    }

    @Property(tries = 500)
    void underOneConstantPriceTheChargeIsOneFlooredFraction(
            @ForAll("holdings") Holding h,
            @ForAll @LongRange(min = 0, max = 10_000_000L) long micros,
            @ForAll("instants") Instant heldFrom,
            @ForAll @LongRange(min = 0, max = 30L * 86_400_000) long millis,
            @ForAll @IntRange(min = 0, max = 2000) int factor) {
        Instant from = Instant.ofEpochMilli(heldFrom.toEpochMilli());
        PriceBook book = new PriceBook(List.of(new Price(h.resource(), micros, from.minusSeconds(3600))));
        BigInteger denominator = BigInteger.valueOf(1000L * 3_600_000 * 1000)
                .multiply(h.resource().equals("memory") ? BigInteger.ONE.shiftLeft(30) : BigInteger.ONE);
        long expected = BigInteger.valueOf(micros)
                .multiply(BigInteger.valueOf(h.milli()))
                .multiply(BigInteger.valueOf(millis))
                .multiply(BigInteger.valueOf(factor))
                .divide(denominator)
                .longValueExact();
        assertThat(Settlement.cumulative(h, from, from.plusMillis(millis), book, factor))
                .isEqualTo(expected);
    }

    @Property(tries = 300)
    void aFactorOfZeroChargesNothing(
            @ForAll("holdings") Holding h,
            @ForAll("books") PriceBook book,
            @ForAll("instants") Instant heldFrom,
            @ForAll("cuts") List<Long> offsets) {
        List<Instant> cuts = sorted(offsets);
        for (int i = 1; i < cuts.size(); i++) {
            assertThat(Settlement.window(h, heldFrom, cuts.get(i - 1), cuts.get(i), book, 0))
                    .isZero();
        }
        assertThat(Settlement.cumulative(h, heldFrom, cuts.get(cuts.size() - 1), book, 0))
                .isZero();
    }

    @Property(tries = 300)
    void aHigherFactorNeverChargesLess(
            @ForAll("holdings") Holding h,
            @ForAll("books") PriceBook book,
            @ForAll("instants") Instant heldFrom,
            @ForAll("instants") Instant to,
            @ForAll @IntRange(min = 0, max = 1000) int low,
            @ForAll @IntRange(min = 0, max = 1000) int more) {
        assertThat(Settlement.cumulative(h, heldFrom, to, book, low))
                .isLessThanOrEqualTo(Settlement.cumulative(h, heldFrom, to, book, low + more));
    }

    @Property(tries = 300)
    void theSegmentsOfASpanTileItWherePricesAreInForce(
            @ForAll("books") PriceBook book, @ForAll("instants") Instant a, @ForAll("instants") Instant b) {
        Instant from = a.isBefore(b) ? a : b;
        Instant to = a.isBefore(b) ? b : a;
        for (String resource : Set.of("memory", "cpu", "A100-80GB")) {
            List<PriceBook.Segment> segments = book.segments(resource, from, to);
            Instant previous = null;
            for (PriceBook.Segment s : segments) {
                assertThat(s.from()).isBefore(s.to());
                assertThat(book.at(resource, s.from())).hasValue(s.microsPerHour());
                if (previous != null) {
                    assertThat(s.from()).isEqualTo(previous);
                }
                previous = s.to();
            }
            if (!segments.isEmpty()) {
                assertThat(segments.get(segments.size() - 1).to()).isEqualTo(to);
                Instant start = segments.get(0).from();
                assertThat(start.equals(from)
                                || book.at(resource, start.minusNanos(1)).isEmpty())
                        .as("the first segment starts at the span's start or at the resource's first price")
                        .isTrue();
            }
        }
    }
}
