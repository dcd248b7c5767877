package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.Amounts.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AmountsTest {

    @ParameterizedTest(name = "{0} {1} = {2} milli")
    @CsvSource({
        "CPU, 8, 8000",
        "CPU, 500m, 500",
        "CPU, 1.5, 1500",
        "MEMORY, 64Gi, 68719476736000",
        "MEMORY, 512Mi, 536870912000",
        "MEMORY, 1G, 1000000000000",
        "MEMORY, 0, 0",
        "MEMORY, 8Pi, 9007199254740992000",
        "ACCELERATOR, 4, 4000",
        "ACCELERATOR, 100000, 100000000"
    })
    void acceptsAmountsWithinTheirLimits(Kind kind, String text, long milli) {
        Amounts.Checked c = Amounts.check(kind, text);
        assertThat(c.problem()).isNull();
        assertThat(c.milli()).isEqualTo(milli);
    }

    @ParameterizedTest(name = "{0} ''{1}'': {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "MEMORY | 64 | memory needs a unit (examples: 512Mi, 64Gi, 1Ti)",
                "MEMORY | 1e9 | memory needs a unit (examples: 512Mi, 64Gi, 1Ti)",
                "MEMORY | 99999Ti | too large: at most 8Pi",
                "MEMORY | 9Pi | too large: at most 8Pi",
                "MEMORY | lots | not a quantity (examples: 512Mi, 64Gi)",
                "MEMORY | -1Gi | must not be negative",
                "MEMORY | '' | required",
                "CPU | 2000000 | too large: at most 1000000 cores",
                "CPU | 1e30 | too large: at most 1000000 cores",
                "CPU | 1e999999 | too large: at most 1000000 cores",
                "CPU | -1 | must not be negative",
                "CPU | 8 cores | not a quantity (examples: 8, 500m)",
                "ACCELERATOR | 100001 | too large: at most 100000 devices",
                "ACCELERATOR | -2 | must not be negative"
            })
    void saysWhatIsWrongWithTheNumbers(Kind kind, String text, String problem) {
        Amounts.Checked c = Amounts.check(kind, text);
        assertThat(c.ok()).isFalse();
        assertThat(c.problem()).isEqualTo(problem);
    }

    @ParameterizedTest(name = "{0} between {1} and {2}: ''{3}'' → {4}")
    @CsvSource(
            delimiter = '|',
            value = {
                "MEMORY | 1048576000000 | 17592186044416000 | 512Mi | too small: at least 1000Mi",
                "MEMORY | 1048576000000 | 17592186044416000 | 17Ti | too large: at most 16Ti",
                "CPU | 1 | 1024000 | 1025 | too large: at most 1024 cores",
                "CPU | 1 | 1024000 | 0 | too small: at least 1m"
            })
    void honoursTheBoundsOfAField(Kind kind, long min, long max, String text, String problem) {
        assertThat(Amounts.check(kind, text, min, max).problem()).isEqualTo(problem);
    }

    @ParameterizedTest
    @CsvSource({"cpu, CPU", "memory, MEMORY", "nvidia-a100-80gb, ACCELERATOR"})
    void knowsTheKindOfAResourceKey(String resource, Kind kind) {
        assertThat(Kind.of(resource)).isEqualTo(kind);
    }
}
