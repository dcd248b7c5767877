package io.crater.admission;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RoundPacingTest {

    static final long NEVER = Long.MIN_VALUE / 2;

    @ParameterizedTest(name = "now {0}, last round {1}..{2} ({3} ms): wait {4} ms")
    @CsvSource({
        // no round yet: at once
        "1000, " + NEVER + ", " + NEVER + ", 0, 0",
        // a quiet spell after a short round: at once
        "10000, 1000, 1005, 5, 0",
        // a wake-up 20 ms after a short round started: that round's start + 50 ms
        "1020, 1000, 1005, 5, 30",
        // exactly 50 ms after: at once
        "1050, 1000, 1005, 5, 0",
        // a 400 ms round that just ended: as long again
        "1400, 1000, 1400, 400, 400",
        // 100 ms after that long round: the rest of it
        "1500, 1000, 1400, 400, 300",
        // long ago: at once
        "5000, 1000, 1400, 400, 0",
    })
    void aWakeUpAfterQuietRunsAtOnceAndABurstSharesRounds(long now, long start, long end, long took, long wait) {
        assertThat(AdmissionService.delayMillis(now, start, end, took)).isEqualTo(wait);
    }
}
