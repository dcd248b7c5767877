package io.crater.chart;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.crater.K8sTools;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Crater's chart (charts/crater) driven through the real helm of {@code make k8s-tools}, and its output read back
 * with fabric8's models <em>strictly</em>: fabric8 keeps unknown fields in every model's {@code additionalProperties};
 * this reader turns that off, so a misspelt or misplaced field is refused instead of silently dropped by the API
 * server. The Prometheus Operator's kinds (ServiceMonitor, PrometheusRule) are read the same way, with fabric8's
 * models of them ({@code openshift-model-monitoring}, generated from the operator's CRDs).
 */
final class HelmChart {

    /** The outcome of one helm call. */
    record Run(int exit, String out, String err) {}

    static final Path DIR = Path.of(System.getProperty("crater.chart.dir", "charts/crater"));

    private static final KubernetesSerialization STRICT = new KubernetesSerialization(strictMapper(), true);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private HelmChart() {}

    private static ObjectMapper strictMapper() {
        ObjectMapper mapper = new ObjectMapper();
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        mapper.setAnnotationIntrospector(new JacksonAnnotationIntrospector() {
            @Override
            public Boolean hasAnySetter(Annotated a) {
                return Boolean.FALSE;
            }
        });
        return mapper;
    }

    static Run helm(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(K8sTools.helm().toString());
        command.addAll(args);
        try {
            Process p = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            var out = p.getInputStream().readAllBytes();
            var err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("helm did not finish: " + command);
            }
            return new Run(
                    p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run helm", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code helm template} of the chart in {@code namespace} with the values file and extra flags; fails on error. */
    static String template(String namespace, Path values, String... flags) {
        return template(DIR, namespace, values, flags);
    }

    /** {@code helm template} of the chart in {@code chart} (a changed copy, say). */
    static String template(Path chart, String namespace, Path values, String... flags) {
        Run run = helm(templateArgs(chart, namespace, values, flags));
        if (run.exit() != 0) {
            throw new AssertionError("helm template failed for " + values + ":\n" + run.err());
        }
        return run.out();
    }

    static List<String> templateArgs(String namespace, Path values, String... flags) {
        return templateArgs(DIR, namespace, values, flags);
    }

    static List<String> templateArgs(Path chart, String namespace, Path values, String... flags) {
        List<String> args = new ArrayList<>(List.of(
                "template", "crater", chart.toString(), "--namespace", namespace, "--values", values.toString()));
        args.addAll(List.of(flags));
        return args;
    }

    /** Every object of a rendered stream, each read strictly into fabric8's model of its kind. */
    static List<HasMetadata> objects(String rendered) {
        List<HasMetadata> objects = new ArrayList<>();
        for (String doc : rendered.split("(?m)^---\\s*$")) {
            if (doc.lines().allMatch(l -> l.isBlank() || l.trim().startsWith("#"))) {
                continue;
            }
            objects.add(strict(doc));
        }
        return objects;
    }

    /** One object read strictly; throws when a field is not in the kind's model. */
    static HasMetadata strict(String yaml) {
        Map<?, ?> tree;
        try {
            tree = YAML.readValue(yaml, Map.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("not YAML: " + e.getMessage(), e);
        }
        String apiVersion = String.valueOf(tree.get("apiVersion"));
        Object o = STRICT.unmarshal(yaml);
        if (!(o instanceof HasMetadata h) || o instanceof GenericKubernetesResource) {
            throw new IllegalArgumentException("no model of " + apiVersion + " " + tree.get("kind"));
        }
        return h;
    }
}
