package io.crater.policy;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Objects;

/**
 * What holding a resource costs, computed exactly in integer micro-units.
 *
 * <p><b>One cumulative, many windows.</b> The charge of a holding from {@code heldFrom} up to an instant is one
 * exact fraction, floored once: the sum over the prices in force (split at each price change) of price × milli-units
 * × milliseconds × factor, over the unit's denominator. A settlement window is charged the difference of that
 * cumulative at its two ends, so the charges of any partition of a span into windows add up to exactly the
 * cumulative of the whole span: nothing is lost or gained to rounding, however often a job is settled.
 *
 * <p>Instants count to the millisecond (their epoch milliseconds, floored). Time during which no price of the
 * resource is in force is free.
 */
public final class Settlement {

    private static final BigInteger MILLIS_PER_HOUR = BigInteger.valueOf(3_600_000L);
    private static final BigInteger MILLI = BigInteger.valueOf(1000);
    private static final BigInteger PER_MILLE = BigInteger.valueOf(1000);
    private static final BigInteger GIB = BigInteger.ONE.shiftLeft(30);
    private static final BigInteger DENOMINATOR =
            MILLI.multiply(MILLIS_PER_HOUR).multiply(PER_MILLE);
    private static final BigInteger MEMORY_DENOMINATOR = DENOMINATOR.multiply(GIB);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** The resource a file space's bytes are priced as: per GiB-hour, like memory. */
    public static final String STORAGE = "storage";

    private Settlement() {}

    /** Whether a resource's amount is in milli-bytes and its price per GiB-hour: memory and storage. */
    static boolean perGib(String resource) {
        return STORAGE.equals(resource) || Amounts.Kind.of(resource) == Amounts.Kind.MEMORY;
    }

    /**
     * An amount of one resource held by a job.
     *
     * @param resource {@code cpu}, {@code memory} or an accelerator model
     * @param milli the amount in milli-units as {@link Quantities#toMilli(String)} gives it: milli-cores,
     *     milli-bytes or milli-devices
     */
    public record Holding(String resource, long milli) {
        public Holding {
            if (resource == null || resource.isBlank()) {
                throw new IllegalArgumentException("a holding needs a resource");
            }
            if (milli < 0) {
                throw new IllegalArgumentException(
                        "the amount of " + resource + " held must not be negative (was " + milli + ")");
            }
        }
    }

    /**
     * What one micro-unit of numerator is divided by for a resource: 1000 milli-units × 3,600,000 ms × 1000
     * per-mille, and 2^30 more for memory, whose price is per GiB while its amount is in milli-bytes.
     */
    public static BigInteger denominator(String resource) {
        return perGib(resource) ? MEMORY_DENOMINATOR : DENOMINATOR;
    }

    /**
     * The micro-units owed for holding {@code h} from {@code heldFrom} to {@code to}: zero when {@code to} is not
     * after {@code heldFrom}.
     *
     * @param factorPerMille the share of the price charged: 1000 is the full price, 500 half, 0 free
     * @throws IllegalArgumentException when the factor is negative
     * @throws ArithmeticException when the charge does not fit a long
     */
    public static long cumulative(Holding h, Instant heldFrom, Instant to, PriceBook book, int factorPerMille) {
        Objects.requireNonNull(h, "holding");
        Objects.requireNonNull(heldFrom, "heldFrom");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(book, "book");
        checkFactor(factorPerMille);
        if (!to.isAfter(heldFrom) || h.milli() == 0 || factorPerMille == 0) {
            return 0;
        }
        BigInteger priceMillis = BigInteger.ZERO;
        for (PriceBook.Segment s : book.segments(h.resource(), heldFrom, to)) {
            long millis = s.to().toEpochMilli() - s.from().toEpochMilli();
            priceMillis = priceMillis.add(BigInteger.valueOf(s.microsPerHour()).multiply(BigInteger.valueOf(millis)));
        }
        BigInteger numerator =
                priceMillis.multiply(BigInteger.valueOf(h.milli())).multiply(BigInteger.valueOf(factorPerMille));
        BigInteger owed = numerator.divide(denominator(h.resource()));
        if (owed.compareTo(LONG_MAX) > 0) {
            throw new ArithmeticException("the charge for " + h.milli() + " milli-units of " + h.resource() + " from "
                    + heldFrom + " to " + to + " is " + owed + " micro-units, more than a long holds");
        }
        return owed.longValueExact();
    }

    /**
     * The micro-units owed for the settlement window {@code [from, to)} of a holding that began at
     * {@code heldFrom}: the cumulative at {@code to} less the cumulative at {@code from}, each clamped to
     * {@code heldFrom}. A window before the holding began is charged nothing.
     *
     * @throws IllegalArgumentException when {@code to} is before {@code from} or the factor is negative
     * @throws ArithmeticException when the cumulative at {@code to} does not fit a long
     */
    public static long window(
            Holding h, Instant heldFrom, Instant from, Instant to, PriceBook book, int factorPerMille) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("a settlement window ends before it starts: " + from + " to " + to);
        }
        return cumulative(h, heldFrom, to, book, factorPerMille) - cumulative(h, heldFrom, from, book, factorPerMille);
    }

    /**
     * The unit-hours held over {@code [from, to)}: device-hours for an accelerator model, core-hours for
     * {@code cpu}, GiB-hours for {@code memory}; zero when {@code to} is not after {@code from}. For reports only:
     * charges never go through floating point.
     */
    public static double unitHours(Holding h, Instant from, Instant to) {
        Objects.requireNonNull(h, "holding");
        if (!to.isAfter(from)) {
            return 0;
        }
        double millis = (double) (to.toEpochMilli() - from.toEpochMilli());
        double units = h.milli() / 1000.0;
        if (perGib(h.resource())) {
            units /= GIB.doubleValue();
        }
        return units * millis / MILLIS_PER_HOUR.doubleValue();
    }

    static void checkFactor(int factorPerMille) {
        if (factorPerMille < 0) {
            throw new IllegalArgumentException(
                    "the price factor must not be negative (was " + factorPerMille + " per mille)");
        }
    }
}
