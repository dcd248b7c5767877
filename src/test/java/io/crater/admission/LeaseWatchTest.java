package io.crater.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LeaseWatchTest {

    static final Instant NOW = Instant.parse("2026-12-02T05:00:00Z");
    static final Duration LEASE = Duration.ofSeconds(15);
    static final Duration DEADLINE = Duration.ofSeconds(10);

    @ParameterizedTest(name = "holder {0}, renewed {1}: {2}")
    @CsvSource(
            nullValues = "null",
            value = {
                "me, 2026-12-02T04:59:59.123456Z, true",
                "me, 2026-12-02T04:59:45.000001Z, true",
                "me, 2026-12-02T04:59:45Z, false",
                "me, 2026-12-02T04:58:00Z, false",
                "other, 2026-12-02T04:59:59Z, false",
                "null, 2026-12-02T04:59:59Z, false",
                "me, null, false",
            })
    void aReadConfirmsOnlyOurOwnRecentRenewal(String holder, String renewTime, boolean confirms) {
        assertThat(LeaseWatch.confirms(holder, renewTime == null ? null : Instant.parse(renewTime), "me", NOW, LEASE))
                .isEqualTo(confirms);
    }

    @ParameterizedTest(name = "confirmed {0} s ago: may lead {1}")
    @CsvSource({"0, true", "2, true", "9, true", "10, false", "60, false"})
    void leaderWorkStopsAtTheRenewDeadline(long secondsAgo, boolean mayLead) {
        assertThat(LeaseWatch.mayLead(NOW.minusSeconds(secondsAgo), NOW, DEADLINE))
                .isEqualTo(mayLead);
    }

    @org.junit.jupiter.api.Test
    void neverConfirmedNeverLeads() {
        assertThat(LeaseWatch.mayLead(null, NOW, DEADLINE)).isFalse();
    }
}
