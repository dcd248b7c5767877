package io.crater.policy;

/**
 * Checks a user-given amount of one resource (a quota line, a member limit, a grant, a job's request) and turns it
 * into milli-units, or says in words what is wrong with it: the one place where the API's rules for amounts live.
 *
 * <p>Memory must carry a size suffix ({@code 512Mi}, {@code 64Gi}, {@code 1T}): a bare number would be bytes, which
 * nobody means, so it is refused (only {@code 0} may stand alone). Every kind has an upper limit, and an amount above
 * it is "too large" with the limit, also when it would not even fit a 64-bit integer.
 */
public final class Amounts {

    /** What an amount measures, which decides its unit rule and its limit. */
    public enum Kind {
        CPU,
        MEMORY,
        ACCELERATOR;

        /** The kind of a quota resource key: {@code cpu}, {@code memory}, or an accelerator model. */
        public static Kind of(String resource) {
            return switch (resource) {
                case "cpu" -> CPU;
                case "memory" -> MEMORY;
                default -> ACCELERATOR;
            };
        }
    }

    /** Largest quota or limit amount: one million cores. */
    public static final long MAX_CPU_MILLI = 1_000_000L * 1000;
    /** Largest quota or limit amount of memory: 8Pi (2^53 bytes). */
    public static final long MAX_MEMORY_MILLI = (1L << 53) * 1000;
    /** Largest quota or limit amount of an accelerator model: one hundred thousand devices. */
    public static final long MAX_ACCELERATOR_MILLI = 100_000L * 1000;

    static final String MEMORY_UNIT = "memory needs a unit (examples: 512Mi, 64Gi, 1Ti)";

    private Amounts() {}

    /** The milli-units of a valid amount, or why it is not one (never both). */
    public record Checked(long milli, String problem) {
        public boolean ok() {
            return problem == null;
        }
    }

    /** The quota and limit bound of a kind. */
    public static long maxMilli(Kind kind) {
        return switch (kind) {
            case CPU -> MAX_CPU_MILLI;
            case MEMORY -> MAX_MEMORY_MILLI;
            case ACCELERATOR -> MAX_ACCELERATOR_MILLI;
        };
    }

    /** Checks a quota or limit amount: non-negative, within {@link #maxMilli(Kind)}. */
    public static Checked check(Kind kind, String text) {
        return check(kind, text, 0, maxMilli(kind));
    }

    /** Checks an amount between {@code minMilli} and {@code maxMilli} (inclusive). */
    public static Checked check(Kind kind, String text, long minMilli, long maxMilli) {
        if (text == null || text.isBlank()) {
            return problem("required");
        }
        String q = text.trim();
        long milli;
        try {
            milli = Quantities.toMilli(q);
        } catch (Quantities.TooLarge e) {
            return problem(q.startsWith("-") ? "must not be negative" : tooLarge(kind, maxMilli));
        } catch (IllegalArgumentException e) {
            return problem(
                    kind == Kind.MEMORY
                            ? "not a quantity (examples: 512Mi, 64Gi)"
                            : "not a quantity (examples: 8, 500m)");
        }
        if (milli < 0) {
            return problem("must not be negative");
        }
        if (kind == Kind.MEMORY && milli != 0 && !Quantities.hasSizeSuffix(q)) {
            return problem(MEMORY_UNIT);
        }
        if (milli > maxMilli) {
            return problem(tooLarge(kind, maxMilli));
        }
        if (milli < minMilli) {
            return problem("too small: at least " + format(kind, minMilli));
        }
        return new Checked(milli, null);
    }

    private static String tooLarge(Kind kind, long maxMilli) {
        String unit = kind == Kind.CPU ? " cores" : kind == Kind.ACCELERATOR ? " devices" : "";
        return "too large: at most " + format(kind, maxMilli) + unit;
    }

    /** An amount as the user would write it: memory with a binary suffix, cores and devices as plain numbers. */
    public static String format(Kind kind, long milli) {
        if (kind == Kind.MEMORY) {
            return Quantities.format(milli);
        }
        return milli % 1000 == 0 ? Long.toString(milli / 1000) : milli + "m";
    }

    private static Checked problem(String why) {
        return new Checked(0, why);
    }
}
