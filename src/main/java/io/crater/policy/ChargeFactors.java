package io.crater.policy;

/**
 * The share of the price a job pays, in thousandths: backfill jobs pay {@code backfill}; low and high priority
 * jobs pay {@code low} and {@code high} of what a normal one pays (Slurm's usage factor per QOS). The two multiply:
 * a low-priority backfill job at 500 and 500 pays 250 thousandths. A normal job that is not backfill pays the
 * price.
 *
 * @param backfill what a backfill job pays of its priority's price, 0 (free) to {@link #MAX}
 * @param low what a low-priority job pays, 0 to {@link #MAX}
 * @param high what a high-priority job pays, 0 to {@link #MAX}
 */
public record ChargeFactors(int backfill, int low, int high) {

    /** The largest factor: ten times the price. */
    public static final int MAX = 10_000;

    /** The price as it is, for every job. */
    public static final ChargeFactors NONE = new ChargeFactors(1000, 1000, 1000);

    /** The priorities jobs are submitted with, as their numbers. */
    public static final int LOW = 0;

    public static final int NORMAL = 1;
    public static final int HIGH = 2;

    public ChargeFactors {
        check("backfill", backfill);
        check("low priority", low);
        check("high priority", high);
    }

    /**
     * What a job pays, in thousandths of the price (rounded down to a thousandth).
     *
     * @param backfillJob whether the job runs as backfill
     * @param priority {@link #LOW}, {@link #NORMAL} or {@link #HIGH}
     * @throws IllegalArgumentException for another priority
     */
    public int perMille(boolean backfillJob, int priority) {
        int byPriority = switch (priority) {
            case LOW -> low;
            case NORMAL -> 1000;
            case HIGH -> high;
            default -> throw new IllegalArgumentException("no priority " + priority + " (0 low, 1 normal, 2 high)");
        };
        return backfillJob ? (int) ((long) backfill * byPriority / 1000) : byPriority;
    }

    private static void check(String what, int factor) {
        if (factor < 0 || factor > MAX) {
            throw new IllegalArgumentException(
                    "the " + what + " factor must be between 0 and " + MAX + " per mille (was " + factor + ")");
        }
    }
}
