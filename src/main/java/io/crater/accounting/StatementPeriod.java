package io.crater.accounting;

import io.crater.policy.BudgetPeriod;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The span a statement covers: a calendar month ({@code 2026-11}) or an ISO week from Monday ({@code 2026-W48}), in
 * local days of the platform's time zone.
 *
 * @param kind a month or a week
 * @param first its first local day
 * @param end the local day after its last
 */
record StatementPeriod(BudgetPeriod.Kind kind, LocalDate first, LocalDate end) {

    /** How many months back a month without its statements is still closed (a new install closes last year's). */
    static final int LOOKBACK_MONTHS = 13;
    /** How many weeks back a week is still closed. */
    static final int LOOKBACK_WEEKS = 14;

    private static final Pattern WEEK = Pattern.compile("(\\d{4})-W(\\d{2})");

    static StatementPeriod month(YearMonth m) {
        return new StatementPeriod(
                BudgetPeriod.Kind.MONTH, m.atDay(1), m.plusMonths(1).atDay(1));
    }

    /** The ISO week that contains {@code day}. */
    static StatementPeriod week(LocalDate day) {
        LocalDate monday = day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
        return new StatementPeriod(BudgetPeriod.Kind.WEEK, monday, monday.plusWeeks(1));
    }

    /** {@code 2026-11} or {@code 2026-W48}; empty for anything else (a week 53 only where the year has one). */
    static Optional<StatementPeriod> parse(String text) {
        String t = text == null ? "" : text.trim();
        Matcher w = WEEK.matcher(t);
        if (w.matches()) {
            int year = Integer.parseInt(w.group(1));
            int week = Integer.parseInt(w.group(2));
            LocalDate mid = LocalDate.of(year, 7, 1);
            if (week < 1 || week > mid.range(IsoFields.WEEK_OF_WEEK_BASED_YEAR).getMaximum()) {
                return Optional.empty();
            }
            return Optional.of(week(mid.with(IsoFields.WEEK_OF_WEEK_BASED_YEAR, week)));
        }
        try {
            return Optional.of(month(YearMonth.parse(t)));
        } catch (java.time.format.DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** How the API and the statements table name it. */
    String name() {
        if (kind == BudgetPeriod.Kind.MONTH) {
            return YearMonth.from(first).toString();
        }
        return String.format(
                "%04d-W%02d", first.get(IsoFields.WEEK_BASED_YEAR), first.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
    }

    Instant start(ZoneId zone) {
        return first.atStartOfDay(zone).toInstant();
    }

    Instant endsAt(ZoneId zone) {
        return end.atStartOfDay(zone).toInstant();
    }

    /**
     * The periods of {@code kind} before the one {@code now} is in that are over by {@code delay}, oldest first, at
     * most {@link #LOOKBACK_MONTHS} months or {@link #LOOKBACK_WEEKS} weeks back.
     */
    static List<StatementPeriod> closable(BudgetPeriod.Kind kind, Instant now, ZoneId zone, Duration delay) {
        LocalDate today = now.atZone(zone).toLocalDate();
        List<StatementPeriod> out = new ArrayList<>();
        if (kind == BudgetPeriod.Kind.MONTH) {
            YearMonth current = YearMonth.from(today);
            for (int back = LOOKBACK_MONTHS; back >= 1; back--) {
                out.add(month(current.minusMonths(back)));
            }
        } else {
            LocalDate monday = week(today).first();
            for (int back = LOOKBACK_WEEKS; back >= 1; back--) {
                out.add(week(monday.minusWeeks(back)));
            }
        }
        out.removeIf(p -> now.isBefore(p.endsAt(zone).plus(delay)));
        return out;
    }
}
