package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantitiesTest {

    @ParameterizedTest(name = "{0} = {1} milli")
    @CsvSource({
        "500m, 500",
        "2, 2000",
        "0.5, 500",
        "1.5, 1500",
        "16Gi, 17179869184000",
        "1Ki, 1024000",
        "1k, 1000000",
        "1M, 1000000000",
        "1e3, 1000000",
        "100n, 1",
        "0, 0",
        "8, 8000"
    })
    void parsesKubernetesQuantities(String quantity, long milli) {
        assertThat(Quantities.toMilli(quantity)).isEqualTo(milli);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "1.2.3", "5Xi", "Gi", "--1"})
    void refusesWhatIsNotAQuantity(String bad) {
        assertThatThrownBy(() -> Quantities.toMilli(bad)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource({"500, 500m", "4000, 4", "17179869184000, 16Gi", "1536000, 1536", "1073741824000, 1Gi"})
    void formatsBackExactly(long milli, String quantity) {
        assertThat(Quantities.format(milli)).isEqualTo(quantity);
        assertThat(Quantities.toMilli(Quantities.format(milli))).isEqualTo(milli);
    }
}
