package io.crater.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.job.JobHoldings;
import io.crater.policy.ChargeFactors;
import io.crater.policy.PriceBook;
import io.crater.policy.Settlement;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Settlement runs over one interval, without a database: whatever the run times, and also when the interval's end
 * becomes known only after runs had charged past it, the charges less the refunds are exactly the interval's cost,
 * and the hourly and daily rollups hold the same cost and held time.
 */
class SettlementBatchTest {

    static final Instant T0 = Instant.parse("2026-11-28T21:17:03.123456Z");
    static final ZoneId ZONE = ZoneId.of("Asia/Kolkata"); // +05:30: local midnights fall inside UTC hours

    static final ChargeFactors FACTORS = new ChargeFactors(500, 1000, 1000);

    static PriceBook book() {
        return new PriceBook(List.of(
                new PriceBook.Price("nvidia-a100-80gb", 2_500_000, Instant.EPOCH),
                new PriceBook.Price("nvidia-a100-80gb", 3_100_000, T0.plus(Duration.ofMinutes(97))),
                new PriceBook.Price("memory", 5_000, Instant.EPOCH)));
    }

    static JobHoldings.Interval interval(String resource, long milli, Instant end) {
        return new JobHoldings.Interval(1, 7, "job7", 3, 5, resource, milli, false, 1, T0, end, T0, 0);
    }

    record Outcome(
            JobHoldings.Interval last,
            long posted,
            long hourly,
            long daily,
            BigInteger heldHourly,
            BigInteger heldDaily,
            List<String> kinds) {}

    /** Runs settlement at each time; the end is known from run {@code visibleFrom} on. */
    static Outcome runs(String resource, long milli, Instant end, List<Instant> times, int visibleFrom) {
        JobHoldings.Interval current = interval(resource, milli, null);
        long posted = 0;
        long hourly = 0;
        long daily = 0;
        BigInteger heldH = BigInteger.ZERO;
        BigInteger heldD = BigInteger.ZERO;
        List<String> kinds = new ArrayList<>();
        for (int k = 0; k < times.size(); k++) {
            JobHoldings.Interval seen = k >= visibleFrom
                    ? new JobHoldings.Interval(
                            current.id(),
                            current.job(),
                            current.jobPublicId(),
                            current.account(),
                            current.user(),
                            current.resource(),
                            current.milli(),
                            current.backfill(),
                            current.priority(),
                            current.startedAt(),
                            end,
                            current.chargedUntil(),
                            current.chargedMicros())
                    : current;
            SettlementService.Batch batch = new SettlementService.Batch(book(), times.get(k), k + 1, FACTORS, ZONE);
            JobHoldings.Interval after = batch.settle(seen);
            if (after != null) {
                current = after;
            } else {
                current = seen;
            }
            for (Ledger.Posting p : batch.postings()) {
                posted += p.amount();
                kinds.add(p.kind());
                assertThat(p.txn()).isEqualTo(p.kind() + ":job7:" + (k + 1));
            }
            for (Rollups.Figures v : batch.rollups.hours.values()) {
                heldH = heldH.add(v.heldMilliS);
                hourly += v.costMicros;
            }
            for (Rollups.Figures v : batch.rollups.days.values()) {
                heldD = heldD.add(v.heldMilliS);
                daily += v.costMicros;
            }
        }
        return new Outcome(current, posted, hourly, daily, heldH, heldD, kinds);
    }

    @Test
    void anySequenceOfRunsChargesExactlyTheIntervalsCostAndTheRollupsAgree() {
        Random random = new Random(20261201);
        for (int c = 0; c < 400; c++) {
            String resource = random.nextBoolean() ? "nvidia-a100-80gb" : "memory";
            long milli = resource.equals("memory")
                    ? (1L + random.nextInt(1 << 20)) * (1L << 20) * 1000
                    : 1000L * (1 + random.nextInt(8));
            Instant end = T0.plusMillis(1 + random.nextInt(30 * 3_600_000));
            List<Instant> times = new ArrayList<>();
            Instant t = T0;
            int n = 1 + random.nextInt(12);
            for (int i = 0; i < n; i++) {
                t = t.plusMillis(random.nextInt(6 * 3_600_000));
                times.add(t);
            }
            times.add(end.plusSeconds(1 + random.nextInt(600))); // a run after the end, whenever it became known
            int visibleFrom = random.nextInt(times.size());
            // The end is known at the last run at the latest.
            Outcome o = runs(resource, milli, end, times, visibleFrom);
            long cost = Settlement.cumulative(new Settlement.Holding(resource, milli), T0, end, book(), 1000);
            assertThat(o.last().chargedUntil()).as("case %d", c).isEqualTo(end);
            assertThat(o.last().chargedMicros()).as("case %d", c).isEqualTo(cost);
            assertThat(-o.posted()).as("case %d: the ledger", c).isEqualTo(cost);
            assertThat(o.hourly()).as("case %d: hourly rollup", c).isEqualTo(cost);
            assertThat(o.daily()).as("case %d: daily rollup", c).isEqualTo(cost);
            assertThat(o.heldHourly()).as("case %d: held time", c).isEqualTo(o.heldDaily());
        }
    }

    @Test
    void anEndThatCommittedAfterARunChargedPastItIsRefunded() {
        Instant end = T0.plus(Duration.ofMinutes(30));
        // The first run charges an hour while the end is still unknown; the second sees it ended after 30 min.
        Outcome o = runs(
                "nvidia-a100-80gb", 2000, end, List.of(T0.plus(Duration.ofHours(1)), T0.plus(Duration.ofHours(2))), 1);
        assertThat(o.kinds()).containsExactly("charge", "refund");
        assertThat(-o.posted()).isEqualTo(2_500_000L); // 2 GPUs × 2.50 × 0.5 h
        assertThat(o.last().chargedMicros()).isEqualTo(2_500_000L);
    }

    @Test
    void backfillPaysItsFactorAndARunWithNothingNewPostsNothing() {
        JobHoldings.Interval i = new JobHoldings.Interval(
                1, 7, "job7", 3, 5, "nvidia-a100-80gb", 1000, true, 1, T0, T0.plus(Duration.ofHours(1)), T0, 0);
        SettlementService.Batch batch =
                new SettlementService.Batch(book(), T0.plus(Duration.ofHours(2)), 1, FACTORS, ZONE);
        JobHoldings.Interval charged = batch.settle(i);
        assertThat(charged.chargedMicros()).isEqualTo(1_250_000L);
        SettlementService.Batch again =
                new SettlementService.Batch(book(), T0.plus(Duration.ofHours(3)), 2, FACTORS, ZONE);
        assertThat(again.settle(charged)).isNull();
        assertThat(again.postings()).isEmpty();
    }

    @ParameterizedTest(name = "backfill {0}, priority {1} pays {2} micro-units for an A100-hour at 2.50")
    @CsvSource({"false, 1, 2500000", "false, 0, 1250000", "false, 2, 3750000", "true, 0, 625000", "true, 2, 1875000"})
    void aPrioritysFactorMultipliesThePriceAndTheBackfillFactor(boolean backfill, int priority, long micros) {
        ChargeFactors factors = new ChargeFactors(500, 500, 1500);
        JobHoldings.Interval i = new JobHoldings.Interval(
                1,
                7,
                "job7",
                3,
                5,
                "nvidia-a100-80gb",
                1000,
                backfill,
                priority,
                T0,
                T0.plus(Duration.ofHours(1)),
                T0,
                0);
        SettlementService.Batch batch =
                new SettlementService.Batch(book(), T0.plus(Duration.ofHours(2)), 1, factors, ZONE);
        assertThat(batch.settle(i).chargedMicros()).isEqualTo(micros);
        assertThat(batch.postings())
                .singleElement()
                .satisfies(p -> assertThat(-p.amount()).isEqualTo(micros));
        long hourly = batch.rollups.hours.values().stream()
                .mapToLong(v -> v.costMicros)
                .sum();
        assertThat(hourly).as("the hourly rows carry the same cost").isEqualTo(micros);
    }
}
