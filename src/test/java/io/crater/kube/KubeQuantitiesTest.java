package io.crater.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.policy.EffectiveRequest;
import io.crater.policy.Quantities;
import io.crater.policy.Resources;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Kubernetes helpers read quantities with fabric8's parser; policy has its own. Both must give the same
 * milli-units, or the simulated cluster and admission would disagree about what a pod asks for.
 */
class KubeQuantitiesTest {

    @ParameterizedTest
    @CsvSource({
        "500m, 500",
        "2, 2000",
        "1.5, 1500",
        ".5, 500",
        "16Gi, 17179869184000",
        "1Ti, 1099511627776000",
        "100M, 100000000000",
        "2k, 2000000",
        "1e3, 1000000",
        "1n, 1",
        "0.0001, 1",
        "0, 0"
    })
    void readsQuantitiesAsPolicyDoes(String quantity, long milli) {
        assertThat(KubeQuantities.toMilli(quantity)).isEqualTo(milli);
        assertThat(Quantities.toMilli(quantity)).isEqualTo(milli);
    }

    @ParameterizedTest
    @CsvSource({"500, 500m", "4000, 4", "17179869184000, 16Gi", "1536000, 1536", "0, 0"})
    void formatsAsPolicyDoes(long milli, String text) {
        assertThat(KubeQuantities.format(milli)).isEqualTo(text);
        assertThat(Quantities.format(milli)).isEqualTo(text);
    }

    @Property(tries = 300)
    void formatAndReadAgreeWithPolicy(@ForAll @LongRange(min = 0, max = 1L << 52) long milli) {
        assertThat(KubeQuantities.format(milli)).isEqualTo(Quantities.format(milli));
        assertThat(KubeQuantities.toMilli(KubeQuantities.format(milli))).isEqualTo(milli);
    }

    @ParameterizedTest
    @CsvSource({"abc", "1Qi", "''"})
    void refusesWhatIsNotAQuantity(String quantity) {
        assertThatThrownBy(() -> KubeQuantities.toMilli(quantity)).isInstanceOf(IllegalArgumentException.class);
    }

    @Provide
    Arbitrary<List<Map<String, Long>>> containers() {
        Arbitrary<Map<String, Long>> one = Arbitraries.maps(
                        Arbitraries.of("cpu", "memory", "nvidia.com/gpu"),
                        Arbitraries.longs().between(0, 64).map(v -> v * 250))
                .ofMaxSize(3);
        return one.list().ofMaxSize(4);
    }

    @Property(tries = 300)
    void podRequestsFollowTheEffectiveRequestRule(
            @ForAll("containers") List<Map<String, Long>> apps,
            @ForAll("containers") List<Map<String, Long>> inits,
            @ForAll("containers") List<Map<String, Long>> overhead) {
        Map<String, Long> over = overhead.isEmpty() ? Map.of() : overhead.get(0);
        PodSpec spec = new PodSpecBuilder()
                .withContainers(containers(apps))
                .withInitContainers(containers(inits))
                .withOverhead(quantities(over))
                .build();
        Resources expected = EffectiveRequest.of(
                apps.stream().map(Resources::new).toList(),
                inits.stream().map(Resources::new).toList(),
                new Resources(over));
        assertThat(PodRequests.of(spec)).isEqualTo(expected.amounts());
    }

    private static List<Container> containers(List<Map<String, Long>> requests) {
        List<Container> out = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            out.add(new ContainerBuilder()
                    .withName("c" + i)
                    .withNewResources()
                    .withRequests(quantities(requests.get(i)))
                    .endResources()
                    .build());
        }
        return out;
    }

    private static Map<String, Quantity> quantities(Map<String, Long> milli) {
        Map<String, Quantity> out = new TreeMap<>();
        milli.forEach((k, v) -> out.put(k, new Quantity(v + "m")));
        return out;
    }
}
