package io.crater.policy;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Objects;

/**
 * The periods a budget is counted over: calendar months or weeks (Monday to Monday) in the platform's time zone.
 *
 * <p>A period starts at local midnight, so one that spans a daylight-saving change is an hour shorter or longer than
 * its count of days; where a zone skips midnight, the period starts at the first instant of its day.
 */
public final class BudgetPeriod {

    private BudgetPeriod() {}

    /** How long a budget's period is. */
    public enum Kind {
        MONTH,
        WEEK;

        /** The kind of a configured or requested key: {@code month} or {@code week} (in any case). */
        public static Kind of(String key) {
            if (key != null) {
                switch (key.trim().toLowerCase(Locale.ROOT)) {
                    case "month":
                        return MONTH;
                    case "week":
                        return WEEK;
                    default:
                        break;
                }
            }
            throw new IllegalArgumentException("a budget period is one of: month, week (was '" + key + "')");
        }

        /** The key of the kind as the API and configuration spell it: {@code month} or {@code week}. */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One period: from {@code start} (inclusive) to {@code end} (exclusive). */
    public record Span(Instant start, Instant end) {
        public Span {
            if (start == null || end == null || !start.isBefore(end)) {
                throw new IllegalArgumentException(
                        "a budget period runs from its start to a later end (was " + start + " to " + end + ")");
            }
        }

        /** True when {@code t} falls in the period. */
        public boolean contains(Instant t) {
            return !t.isBefore(start) && t.isBefore(end);
        }
    }

    /**
     * The period of the given kind that contains {@code t}: for a month, from the first of its month at 00:00 local
     * time to the first of the next; for a week, from Monday 00:00 local time to the next Monday.
     */
    public static Span containing(Kind kind, Instant t, ZoneId zone) {
        Objects.requireNonNull(kind, "kind");
        LocalDate day = t.atZone(zone).toLocalDate();
        LocalDate first = kind == Kind.MONTH
                ? day.withDayOfMonth(1)
                : day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
        LocalDate next = kind == Kind.MONTH ? first.plusMonths(1) : first.plusWeeks(1);
        return new Span(
                first.atStartOfDay(zone).toInstant(), next.atStartOfDay(zone).toInstant());
    }

    /** The period of the given kind that follows {@code span}: it starts where {@code span} ends. */
    public static Span next(Kind kind, Span span, ZoneId zone) {
        return containing(kind, span.end(), zone);
    }
}
