package io.crater.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart's values: every example passes {@code helm lint --strict} (which validates it against
 * values.schema.json), every bad file (src/test/resources/chart/bad, each over examples/minimal.yaml, its first line
 * naming what helm must say) is refused, the strict reader refuses a misspelt field, and docs/deploy.md's table
 * lists exactly the chart's values.
 */
class ChartValuesTest {

    static final Path BAD = Path.of("src/test/resources/chart/bad");

    static Stream<Path> examples() throws Exception {
        try (var files = Files.list(HelmChart.DIR.resolve("examples"))) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    static Stream<Path> bad() throws Exception {
        try (var files = Files.list(BAD)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    static String namespaceOf(Path example) throws Exception {
        // A release on a storage class lives in the job namespace (docs/deploy.md).
        return Files.readString(example).contains("mode: storageClass") ? "crater-jobs" : "crater";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void everyExamplePassesStrictLint(Path example) throws Exception {
        HelmChart.Run run = HelmChart.helm(List.of(
                "lint",
                "--strict",
                HelmChart.DIR.toString(),
                "--namespace",
                namespaceOf(example),
                "--values",
                example.toString()));
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("0 chart(s) failed").doesNotContain("[WARNING]", "[ERROR]");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bad")
    void everyBadValuesFileIsRefused(Path bad) throws Exception {
        String first = Files.readAllLines(bad).get(0);
        assertThat(first).startsWith("# refused: ");
        String expected = first.substring("# refused: ".length());
        List<String> args = new ArrayList<>(HelmChart.templateArgs(
                "crater", HelmChart.DIR.resolve("examples/minimal.yaml"), "--values", bad.toString()));
        HelmChart.Run template = HelmChart.helm(args);
        assertThat(template.exit()).as("helm template accepted " + bad).isNotZero();
        assertThat(template.err())
                .contains("values don't meet the specifications")
                .contains(expected);
        assertThat(template.out()).isEmpty();
    }

    @Test
    void theMinimalValuesWithoutTheirRequiredPartsAreRefused() {
        // The chart's own defaults leave out what only the admin can know: the image, the database, the key.
        HelmChart.Run run = HelmChart.helm(List.of("template", "crater", HelmChart.DIR.toString()));
        assertThat(run.exit()).isNotZero();
        assertThat(run.err()).contains("/image/repository", "/database/url", "/credentials/key");
    }

    @Test
    void theStrictReaderRefusesAMisspeltField() {
        String good = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: d, namespace: n}
                spec:
                  replicas: 2
                  selector: {matchLabels: {a: b}}
                  template:
                    metadata: {labels: {a: b}}
                    spec:
                      containers:
                        - name: c
                          image: i
                          imagePullPolicy: IfNotPresent
                """;
        assertThat(HelmChart.strict(good)).isInstanceOf(Deployment.class);
        assertThatThrownBy(() -> HelmChart.strict(good.replace("replicas: 2", "replica: 2")))
                .hasMessageContaining("replica");
        assertThatThrownBy(() -> HelmChart.strict(good.replace("imagePullPolicy", "imagePullPolice")))
                .hasMessageContaining("imagePullPolice");
        // A field in the wrong place is as wrong as a misspelt one.
        assertThatThrownBy(() ->
                        HelmChart.strict(good.replace("      containers:", "      replicas: 1\n      containers:")))
                .hasMessageContaining("replicas");
        assertThatThrownBy(() -> HelmChart.strict(good.replace("kind: Deployment", "kind: Deploymint")))
                .isInstanceOf(RuntimeException.class);
    }

    /** The environment the chart gives Crater's pods. */
    static java.util.Map<String, String> environment(String values) {
        return HelmChart.objects(HelmChart.template("crater", HelmChart.DIR.resolve(values))).stream()
                .filter(o -> o instanceof io.fabric8.kubernetes.api.model.ConfigMap m
                        && m.getData() != null
                        && m.getData().containsKey("CRATER_CLUSTER_MODE"))
                .map(o -> ((io.fabric8.kubernetes.api.model.ConfigMap) o).getData())
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theDeclaredCatalogueAndPricesReachCraterAsItReadsThem() {
        var seed = java.util.Optional.ofNullable(
                environment("examples/catalogue-and-prices.yaml").get("CRATER_SEED"));
        assertThat(seed).isPresent();
        var mapper = new ObjectMapper();
        assertThat(io.crater.cluster.CatalogueSeed.models(seed, mapper))
                .extracting(m -> m.key())
                .containsExactly("nvidia-h100-80gb", "nvidia-a30-mig-1g6gb", "hygon-dcu");
        assertThat(io.crater.accounting.PriceSeed.prices(seed, mapper))
                .extracting(p -> p.resource() + "=" + p.micros())
                .containsExactly("nvidia-h100-80gb=3200000", "cpu=20000");
        assertThat(environment("examples/minimal.yaml")).doesNotContainKey("CRATER_SEED");
    }

    @Test
    void thePrometheusOperatorsKindsAreReadAsStrictly() {
        String monitor = """
                apiVersion: monitoring.coreos.com/v1
                kind: ServiceMonitor
                metadata: {name: m, namespace: n}
                spec:
                  selector: {matchLabels: {a: b}}
                  endpoints:
                    - port: http
                      path: /q/metrics
                      interval: 30s
                """;
        assertThat(HelmChart.strict(monitor)).isInstanceOf(ServiceMonitor.class);
        assertThatThrownBy(() -> HelmChart.strict(monitor.replace("interval:", "intervall:")))
                .hasMessageContaining("intervall");
        String rule = """
                apiVersion: monitoring.coreos.com/v1
                kind: PrometheusRule
                metadata: {name: r, namespace: n}
                spec:
                  groups:
                    - name: g
                      rules:
                        - alert: A
                          expr: up == 0
                          for: 5m
                """;
        assertThat(HelmChart.strict(rule)).isInstanceOf(PrometheusRule.class);
        assertThatThrownBy(() -> HelmChart.strict(rule.replace("for: 5m", "during: 5m")))
                .hasMessageContaining("during");
    }

    @Test
    void theDeployGuideListsEveryValue() throws Exception {
        JsonNode values = new ObjectMapper(new YAMLFactory())
                .readTree(HelmChart.DIR.resolve("values.yaml").toFile());
        Set<String> keys = new TreeSet<>();
        leaves("", values, keys);
        String doc = Files.readString(Path.of("docs/deploy.md"));
        Matcher m = Pattern.compile("(?m)^\\| `([A-Za-z0-9_.]+)` \\|").matcher(doc);
        Set<String> documented = new TreeSet<>();
        while (m.find()) {
            documented.add(m.group(1));
        }
        assertThat(documented).as("the values table of docs/deploy.md").isEqualTo(keys);
    }

    private static void leaves(String prefix, JsonNode node, Set<String> out) {
        if (node.isObject() && !node.isEmpty() && !isFreeMap(prefix)) {
            node.fields()
                    .forEachRemaining(
                            e -> leaves(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out));
        } else {
            out.add(prefix);
        }
    }

    /** Maps whose keys are the admin's (labels, annotations, peers), documented as one value. */
    private static boolean isFreeMap(String key) {
        return key.endsWith("labels")
                || key.endsWith("annotations")
                || key.endsWith("Annotations")
                || key.equals("nodeSelector")
                || key.equals("config")
                || key.startsWith("resources.")
                || key.equals("resources")
                || key.endsWith(".resources");
    }
}
