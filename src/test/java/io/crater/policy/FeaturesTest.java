package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What an account's members may use, and which bandwidth caps are accepted and in force. */
class FeaturesTest {

    static final List<String> KNOWN = List.of("jupyter", "webide", "custom", "ssh", "high-priority");

    static Map<String, Boolean> map(Object... kv) {
        Map<String, Boolean> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], (Boolean) kv[i + 1]);
        }
        return m;
    }

    @Test
    void everythingIsOnWithoutSettings() {
        assertThat(Features.effective(KNOWN, Map.of(), Set.of()))
                .containsExactlyEntriesOf(
                        map("jupyter", true, "webide", true, "custom", true, "ssh", true, "high-priority", true));
        assertThat(Features.effective(KNOWN, null, Set.of()))
                .containsOnlyKeys(KNOWN)
                .doesNotContainValue(false);
    }

    @Test
    void theAccountsOwnValueWinsOverThePlatformsDefault() {
        // The platform turns ssh and high priority off (personal accounts); the account turns ssh back on and
        // webide off; what it does not name keeps the default.
        Map<String, Boolean> effective =
                Features.effective(KNOWN, map("ssh", true, "webide", false), Set.of("ssh", "high-priority"));
        assertThat(effective)
                .containsExactlyEntriesOf(
                        map("jupyter", true, "webide", false, "custom", true, "ssh", true, "high-priority", false));
    }

    @Test
    void aRefusalNamesTheFeatureAndTheAccount() {
        Map<String, Boolean> effective = Features.effective(KNOWN, map("custom", false), Set.of());
        assertThat(Features.refusal(effective, "jupyter", "vision-lab")).isEmpty();
        Reason r = Features.refusal(effective, "custom", "vision-lab").orElseThrow();
        assertThat(r.code()).isEqualTo("FeatureDisabled");
        assertThat(r.args()).containsExactlyInAnyOrderEntriesOf(Map.of("feature", "custom", "account", "vision-lab"));
        assertThat(r.message()).contains("'custom'", "'vision-lab'");
        // A name the list does not hold is not a switch, so nothing refuses it.
        assertThat(Features.refusal(effective, "image-build", "vision-lab")).isEmpty();
    }

    @Test
    void unknownNamesAreReportedSorted() {
        assertThat(Features.unknown(KNOWN, List.of("ssh", "zeta", "image-build")))
                .containsExactly("image-build", "zeta");
        assertThat(Features.unknown(KNOWN, List.of("ssh", "jupyter"))).isEmpty();
    }

    @ParameterizedTest(name = "{0} is a cap")
    @CsvSource({"100M", "1G", "1k", "1P", "500Mi", "1.5G", "2000", "none", "' 10M '"})
    void goodCaps(String value) {
        assertThat(Features.bandwidthProblem(value)).isEmpty();
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @CsvSource({
        "100Mbps, a rate in bits per second",
        "fast, a rate in bits per second",
        "-1M, a rate in bits per second",
        "100m, a rate in bits per second",
        "1e6, a rate in bits per second",
        "999, between 1k and 1P",
        "0, between 1k and 1P",
        "2P, between 1k and 1P",
        "1Pi, between 1k and 1P"
    })
    void badCaps(String value, String problem) {
        assertThat(Features.bandwidthProblem(value))
                .hasValueSatisfying(p -> assertThat(p).startsWith(problem));
    }

    @Test
    void theAccountsCapWinsAndNoneMeansNoCap() {
        assertThat(Features.bandwidth(null, "none")).isNull();
        assertThat(Features.bandwidth(null, "1G")).isEqualTo("1G");
        assertThat(Features.bandwidth("", "1G")).isEqualTo("1G");
        assertThat(Features.bandwidth("100M", "1G")).isEqualTo("100M");
        assertThat(Features.bandwidth("100M", "none")).isEqualTo("100M");
        assertThat(Features.bandwidth("none", "1G")).isNull();
    }
}
