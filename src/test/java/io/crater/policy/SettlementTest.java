package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.policy.PriceBook.Price;
import io.crater.policy.Settlement.Holding;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Charges worked out by hand: the price in force, the amount, the time, the factor, and one floor at the end. */
class SettlementTest {

    static final String A100 = "A100-80GB";
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    static Instant at(String hhmm) {
        return Instant.parse("2026-12-01T" + hhmm + ":00Z");
    }

    static PriceBook book(Price... prices) {
        return new PriceBook(List.of(prices));
    }

    static Price price(String resource, long micros, Instant from) {
        return new Price(resource, micros, from);
    }

    @ParameterizedTest(name = "{0} × {1} milli at {2} µ/h for {3} min, factor {4} = {5} µ")
    @CsvSource({
        // 2 A100 at 2.50/device-hour for 90 minutes: 2 × 1.5 h × 2.50 = 7.50.
        "A100-80GB, 2000, 2500000, 90, 1000, 7500000",
        // The same at half price, and free.
        "A100-80GB, 2000, 2500000, 90, 500, 3750000",
        "A100-80GB, 2000, 2500000, 90, 0, 0",
        // 64Gi at 0.01/GiB-hour for one hour: 64 × 0.01 = 0.64.
        "memory, 68719476736000, 10000, 60, 1000, 640000",
        // 512Mi is half a GiB: 0.5 × 2 h × 0.01 = 0.01.
        "memory, 536870912000, 10000, 120, 1000, 10000",
        // A file space's 3 GiB at 0.5/GiB-hour for two hours: 3 × 2 × 0.5 = 3 (storage is priced per GiB too).
        "storage, 3221225472000, 500000, 120, 1000, 3000000",
        // 500m cpu at 0.04/core-hour for three hours: 0.5 × 3 × 0.04 = 0.06.
        "cpu, 500, 40000, 180, 1000, 60000",
        // A thousandth of a micro-unit is floored away.
        "cpu, 1, 1, 60, 1000, 0",
        // 1 core at 1 µ/h for 59 minutes is 0.98 µ: floored to 0; the full hour is 1.
        "cpu, 1000, 1, 59, 1000, 0",
        "cpu, 1000, 1, 60, 1000, 1"
    })
    void aConstantPriceChargesAmountTimesHoursTimesPriceTimesFactor(
            String resource, long milli, long micros, long minutes, int factor, long owed) {
        PriceBook book = book(price(resource, micros, T0.minusSeconds(86400)));
        Instant to = T0.plus(Duration.ofMinutes(minutes));
        assertThat(Settlement.cumulative(new Holding(resource, milli), T0, to, book, factor))
                .isEqualTo(owed);
    }

    @Test
    void aPriceChangeInTheMiddleOfASpanChargesEachPartAtItsOwnPrice() {
        PriceBook book = book(price(A100, 3_000_000, at("12:00")), price(A100, 2_000_000, at("08:00")));
        Holding one = new Holding(A100, 1000);
        // 11:00–12:00 at 2.00, 12:00–13:30 at 3.00: 2.00 + 4.50.
        assertThat(Settlement.cumulative(one, at("11:00"), at("13:30"), book, 1000))
                .isEqualTo(6_500_000);
    }

    @Test
    void timeBeforeTheFirstPriceIsFree() {
        PriceBook book = book(price(A100, 1_000_000, at("12:00")));
        Holding one = new Holding(A100, 1000);
        assertThat(Settlement.cumulative(one, at("10:00"), at("13:00"), book, 1000))
                .isEqualTo(1_000_000);
        assertThat(Settlement.cumulative(one, at("10:00"), at("12:00"), book, 1000))
                .isZero();
        assertThat(Settlement.cumulative(one, at("10:00"), at("13:00"), PriceBook.empty(), 1000))
                .isZero();
        assertThat(Settlement.cumulative(new Holding("cpu", 8000), at("12:00"), at("13:00"), book, 1000))
                .as("a resource without any price is free")
                .isZero();
    }

    @Test
    void aSpanThatEndsAtOrBeforeItsStartCostsNothing() {
        PriceBook book = book(price(A100, 1_000_000, at("00:00")));
        Holding one = new Holding(A100, 1000);
        assertThat(Settlement.cumulative(one, at("12:00"), at("11:00"), book, 1000))
                .isZero();
        assertThat(Settlement.cumulative(one, at("12:00"), at("12:00"), book, 1000))
                .isZero();
        assertThat(Settlement.window(one, at("12:00"), at("10:00"), at("11:30"), book, 1000))
                .as("a window before the holding began")
                .isZero();
    }

    @Test
    void fractionsAreNeverRoundedPerSegmentOrPerWindow() {
        // 1 core at 1 µ/h: each half hour is 0.5 µ. Two prices of 1 µ/h split the hour; so do two windows.
        PriceBook book = book(price("cpu", 1, at("00:00")), price("cpu", 1, at("10:30")));
        Holding core = new Holding("cpu", 1000);
        assertThat(Settlement.cumulative(core, at("10:00"), at("11:00"), book, 1000))
                .isEqualTo(1);
        long first = Settlement.window(core, at("10:00"), at("10:00"), at("10:30"), book, 1000);
        long second = Settlement.window(core, at("10:00"), at("10:30"), at("11:00"), book, 1000);
        assertThat(List.of(first, second)).containsExactly(0L, 1L);
    }

    @Test
    void aWindowIsTheDifferenceOfTheCumulativeAtItsEnds() {
        PriceBook book = book(price(A100, 2_500_000, at("00:00")));
        Holding two = new Holding(A100, 2000);
        // Held from 10:00; the window 09:00–10:30 counts from 10:00 only: 2 × 0.5 h × 2.50.
        assertThat(Settlement.window(two, at("10:00"), at("09:00"), at("10:30"), book, 1000))
                .isEqualTo(2_500_000);
        assertThat(Settlement.window(two, at("10:00"), at("10:30"), at("11:30"), book, 1000))
                .isEqualTo(5_000_000);
        assertThatThrownBy(() -> Settlement.window(two, at("10:00"), at("11:30"), at("10:30"), book, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends before it starts");
    }

    @Test
    void aHundredThousandDevicesForAYearAreComputedWithoutOverflow() {
        Holding fleet = new Holding(A100, 100_000L * 1000);
        Instant yearLater = T0.plus(Duration.ofDays(365));
        // 1e5 devices × 8760 h × 1000.00/h: the numerator (~3e30) is far beyond a long, the result is not.
        PriceBook book = book(price(A100, 1_000_000_000L, T0));
        assertThat(Settlement.cumulative(fleet, T0, yearLater, book, 1000)).isEqualTo(876_000_000_000_000_000L);
        // At 100000.00/h the charge itself (8.76e19) no longer fits a long: said, never wrapped.
        PriceBook dear = book(price(A100, 100_000_000_000L, T0));
        assertThatThrownBy(() -> Settlement.cumulative(fleet, T0, yearLater, dear, 1000))
                .isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("87600000000000000000 micro-units")
                .hasMessageContaining("more than a long holds");
    }

    @Test
    void aNegativeFactorOrAmountIsRefused() {
        PriceBook book = book(price(A100, 1, T0));
        assertThatThrownBy(() -> Settlement.cumulative(new Holding(A100, 1000), T0, T0, book, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the price factor must not be negative (was -1 per mille)");
        assertThatThrownBy(() -> new Holding(A100, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> new Holding(" ", 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unitHoursAreDeviceCoreAndGibHours() {
        Instant to = T0.plus(Duration.ofMinutes(90));
        assertThat(Settlement.unitHours(new Holding(A100, 2000), T0, to)).isEqualTo(3.0);
        assertThat(Settlement.unitHours(new Holding("cpu", 500), T0, to)).isEqualTo(0.75);
        assertThat(Settlement.unitHours(new Holding("memory", 68_719_476_736_000L), T0, to))
                .isEqualTo(96.0);
        assertThat(Settlement.unitHours(new Holding(Settlement.STORAGE, 3_221_225_472_000L), T0, to))
                .isEqualTo(4.5);
        assertThat(Settlement.unitHours(new Holding(A100, 2000), to, T0)).isZero();
    }

    @Test
    void theBookAnswersThePriceInForceAtAnInstant() {
        PriceBook book = book(
                price(A100, 3_000_000, at("12:00")),
                price("cpu", 40_000, at("09:00")),
                price(A100, 2_000_000, at("08:00")));
        assertThat(book.at(A100, at("07:59"))).isEmpty();
        assertThat(book.at(A100, at("08:00"))).isEqualTo(OptionalLong.of(2_000_000));
        assertThat(book.at(A100, at("11:59"))).isEqualTo(OptionalLong.of(2_000_000));
        assertThat(book.at(A100, at("12:00"))).isEqualTo(OptionalLong.of(3_000_000));
        assertThat(book.at("memory", at("12:00"))).isEmpty();
        assertThat(book.prices())
                .containsExactly(
                        price(A100, 2_000_000, at("08:00")),
                        price(A100, 3_000_000, at("12:00")),
                        price("cpu", 40_000, at("09:00")));
        assertThat(book.current(at("08:30"))).containsExactly(price(A100, 2_000_000, at("08:00")));
        assertThat(book.current(at("12:00")))
                .containsExactly(price(A100, 3_000_000, at("12:00")), price("cpu", 40_000, at("09:00")));
    }

    @Test
    void theBookRefusesTwoPricesOfOneResourceFromTheSameInstant() {
        assertThatThrownBy(() -> book(price(A100, 1, T0), price("cpu", 1, T0), price(A100, 2, T0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two prices of A100-80GB take effect at 2026-12-01T10:00:00Z: 1 and 2");
    }

    @Test
    void aPriceNeedsAResourceAnInstantAndNoNegativeAmount() {
        assertThatThrownBy(() -> price(null, 1, T0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> price("  ", 1, T0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> price("cpu", 1, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the price of cpu needs the instant it takes effect");
        assertThatThrownBy(() -> price("cpu", -1, T0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the price of cpu must not be negative (was -1)");
        assertThat(price("cpu", 0, T0).microsPerHour()).isZero();
    }
}
