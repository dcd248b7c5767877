package io.crater.policy;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Objects;

/**
 * The periods a budget is counted over: calendar months, weeks (Monday to Monday) or a custom number of days from
 * the day the budget was set, in the platform's time zone.
 *
 * <p>A period starts at local midnight, so one that spans a daylight-saving change is an hour shorter or longer than
 * its count of days; where a zone skips midnight, the period starts at the first instant of its day.
 */
public final class BudgetPeriod {

    private BudgetPeriod() {}

    /** How long a budget's period is. */
    public enum Kind {
        MONTH,
        WEEK,
        CUSTOM;

        /** The kind of a configured or requested key: {@code month}, {@code week} or {@code custom} (in any case). */
        public static Kind of(String key) {
            if (key != null) {
                switch (key.trim().toLowerCase(Locale.ROOT)) {
                    case "month":
                        return MONTH;
                    case "week":
                        return WEEK;
                    case "custom":
                        return CUSTOM;
                    default:
                        break;
                }
            }
            throw new IllegalArgumentException("a budget period is one of: month, week, custom (was '" + key + "')");
        }

        /** The key of the kind as the API and configuration spell it: {@code month}, {@code week} or {@code custom}. */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The longest custom period, in days. */
    public static final int MAX_DAYS = 366;

    /**
     * How long a budget's periods are: a month or a week ({@code days} 0), or {@code days} local days (1 to
     * {@link #MAX_DAYS}) for a custom period, one after another from the day the budget was set.
     */
    public record Length(Kind kind, int days) {
        public Length {
            if (kind == null) {
                throw new IllegalArgumentException("a budget period has a kind");
            }
            if (kind == Kind.CUSTOM ? days < 1 || days > MAX_DAYS : days != 0) {
                throw new IllegalArgumentException(
                        kind == Kind.CUSTOM
                                ? "a custom budget period is 1 to " + MAX_DAYS + " days (was " + days + ")"
                                : "only a custom budget period has a number of days");
            }
        }
    }

    /**
     * The period a budget set at {@code t} starts: the month or week containing {@code t}, or for a custom period
     * its {@code days} from local midnight of {@code t}'s day.
     */
    public static Span starting(Length length, Instant t, ZoneId zone) {
        if (length.kind() != Kind.CUSTOM) {
            return containing(length.kind(), t, zone);
        }
        LocalDate first = t.atZone(zone).toLocalDate();
        return new Span(
                first.atStartOfDay(zone).toInstant(),
                first.plusDays(length.days()).atStartOfDay(zone).toInstant());
    }

    /** The period that follows {@code span}: it starts where {@code span} ends and is as long as its kind says. */
    public static Span next(Length length, Span span, ZoneId zone) {
        if (length.kind() != Kind.CUSTOM) {
            return next(length.kind(), span, zone);
        }
        LocalDate first = span.end().atZone(zone).toLocalDate();
        return new Span(
                span.end(), first.plusDays(length.days()).atStartOfDay(zone).toInstant());
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
        if (kind == Kind.CUSTOM) {
            throw new IllegalArgumentException("a custom period is known from its length and start, not from a time");
        }
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
