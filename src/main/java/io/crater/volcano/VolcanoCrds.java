package io.crater.volcano;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CustomResourceDefinitions of the Volcano kinds Crater uses, built in code with the names, scope,
 * short names, status subresource, printer columns and the fields of Volcano's own CRDs (volcano-sh/volcano,
 * config/crd/volcano/bases). Field schemas list what Crater reads and writes and preserve the rest, so a
 * real Volcano object round-trips unchanged.
 */
public final class VolcanoCrds {

    private VolcanoCrds() {}

    public static List<CustomResourceDefinition> all() {
        return List.of(jobs(), queues(), podGroups());
    }

    private static JSONSchemaProps jobSpec() {
        // A job's spec and tasks are closed, as in Volcano's CRD: a field it does not declare is unknown (refused by
        // kubectl's strict field validation); the fields Crater does not use are kept as they come.
        JSONSchemaProps task = closed(Map.of(
                "name", string(),
                "replicas", integer(),
                "minAvailable", integer(),
                "maxRetry", integer(),
                "policies", array(policy()),
                "template", preserved(),
                "dependsOn", preserved(),
                "partitionPolicy", preserved(),
                "topologyPolicy", string()));
        Map<String, JSONSchemaProps> specFields = new LinkedHashMap<>(Map.of(
                "schedulerName", string(),
                "minAvailable", integer(),
                "queue", string(),
                "maxRetry", integer(),
                "ttlSecondsAfterFinished", integer(),
                "priorityClassName", string(),
                "policies", array(policy()),
                "plugins",
                        new JSONSchemaPropsBuilder()
                                .withType("object")
                                .withNewAdditionalProperties()
                                .withSchema(array(string()))
                                .endAdditionalProperties()
                                .build(),
                "tasks", array(task),
                "volumes", array(preserved())));
        specFields.putAll(Map.of("minSuccess", integer(), "networkTopology", preserved(), "runningEstimate", string()));
        return closed(specFields);
    }

    public static CustomResourceDefinition jobs() {
        JSONSchemaProps spec = jobSpec();
        Map<String, JSONSchemaProps> statusFields = new LinkedHashMap<>();
        statusFields.put(
                "state",
                object(Map.of(
                        "phase", string(),
                        "reason", string(),
                        "message", string(),
                        "lastTransitionTime", string())));
        for (String counter : List.of(
                "minAvailable",
                "pending",
                "running",
                "succeeded",
                "failed",
                "terminating",
                "unknown",
                "version",
                "retryCount")) {
            statusFields.put(counter, integer());
        }
        statusFields.put("taskStatusCount", preserved());
        return crd(
                "batch.volcano.sh",
                "v1alpha1",
                "Job",
                "jobs",
                "job",
                "Namespaced",
                List.of("vcjob", "vj"),
                spec,
                object(statusFields),
                true,
                List.of(
                        column("STATUS", ".status.state.phase", "string", 0),
                        column("minAvailable", ".status.minAvailable", "integer", 0),
                        column("RUNNINGS", ".status.running", "integer", 0),
                        column("AGE", ".metadata.creationTimestamp", "date", 0),
                        column("QUEUE", ".spec.queue", "string", 1)));
    }

    public static CustomResourceDefinition queues() {
        JSONSchemaProps spec = object(Map.of(
                "weight", integer(),
                "reclaimable", bool(),
                "capability", quantities(),
                "deserved", quantities(),
                "guarantee", object(Map.of("resource", quantities())),
                "priority", integer(),
                "parent", string()));
        JSONSchemaProps status = object(Map.of(
                "state", string(),
                "pending", integer(),
                "running", integer(),
                "inqueue", integer(),
                "completed", integer(),
                "unknown", integer(),
                "allocated", quantities()));
        return crd(
                "scheduling.volcano.sh",
                "v1beta1",
                "Queue",
                "queues",
                "queue",
                "Cluster",
                List.of("q", "queue-v1beta1"),
                spec,
                status,
                true,
                List.of(column("PARENT", ".spec.parent", "string", 0)));
    }

    public static CustomResourceDefinition podGroups() {
        JSONSchemaProps spec = object(Map.of(
                "minMember", integer(),
                "minTaskMember", preserved(),
                "queue", string(),
                "priorityClassName", string(),
                "minResources", quantities()));
        JSONSchemaProps status = object(Map.of(
                "phase", string(),
                "conditions", array(preserved()),
                "running", integer(),
                "succeeded", integer(),
                "failed", integer()));
        // Volcano's PodGroup CRD declares no status subresource: its status is written with the object.
        return crd(
                "scheduling.volcano.sh",
                "v1beta1",
                "PodGroup",
                "podgroups",
                "podgroup",
                "Namespaced",
                List.of("pg", "podgroup-v1beta1"),
                spec,
                status,
                false,
                List.of(
                        column("STATUS", ".status.phase", "string", 0),
                        column("minMember", ".spec.minMember", "integer", 0),
                        column("RUNNINGS", ".status.running", "integer", 0),
                        column("AGE", ".metadata.creationTimestamp", "date", 0),
                        column("QUEUE", ".spec.queue", "string", 1)));
    }

    private static CustomResourceDefinition crd(
            String group,
            String version,
            String kind,
            String plural,
            String singular,
            String scope,
            List<String> shortNames,
            JSONSchemaProps spec,
            JSONSchemaProps status,
            boolean statusSubresource,
            List<CustomResourceColumnDefinition> columns) {
        JSONSchemaProps root = new JSONSchemaPropsBuilder()
                .withType("object")
                .addToProperties("apiVersion", string())
                .addToProperties("kind", string())
                .addToProperties(
                        "metadata",
                        new JSONSchemaPropsBuilder().withType("object").build())
                .addToProperties("spec", spec)
                .addToProperties("status", status)
                .build();
        var builder = new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName(plural + "." + group)
                .endMetadata()
                .withNewSpec()
                .withGroup(group)
                .withScope(scope)
                .withNewNames()
                .withKind(kind)
                .withListKind(kind + "List")
                .withPlural(plural)
                .withSingular(singular)
                .withShortNames(shortNames)
                .endNames()
                .addNewVersion()
                .withName(version)
                .withServed(true)
                .withStorage(true)
                .withAdditionalPrinterColumns(columns)
                .withNewSchema()
                .withOpenAPIV3Schema(root)
                .endSchema();
        if (statusSubresource) {
            builder = builder.withNewSubresources().withNewStatus().endStatus().endSubresources();
        }
        return builder.endVersion().endSpec().build();
    }

    /** A printer column as Volcano's CRDs declare them, which {@code kubectl get} shows. */
    private static CustomResourceColumnDefinition column(String name, String jsonPath, String type, int priority) {
        return new CustomResourceColumnDefinitionBuilder()
                .withName(name)
                .withJsonPath(jsonPath)
                .withType(type)
                .withPriority(priority == 0 ? null : priority)
                .build();
    }

    private static JSONSchemaProps closed(Map<String, JSONSchemaProps> properties) {
        return new JSONSchemaPropsBuilder()
                .withType("object")
                .withProperties(new LinkedHashMap<>(properties))
                .build();
    }

    private static JSONSchemaProps object(Map<String, JSONSchemaProps> properties) {
        return new JSONSchemaPropsBuilder()
                .withType("object")
                .withProperties(new LinkedHashMap<>(properties))
                .withXKubernetesPreserveUnknownFields(true)
                .build();
    }

    private static JSONSchemaProps preserved() {
        return new JSONSchemaPropsBuilder()
                .withType("object")
                .withXKubernetesPreserveUnknownFields(true)
                .build();
    }

    private static JSONSchemaProps quantities() {
        return new JSONSchemaPropsBuilder()
                .withType("object")
                .withNewAdditionalProperties()
                .withSchema(new JSONSchemaPropsBuilder()
                        .withXKubernetesIntOrString(true)
                        .build())
                .endAdditionalProperties()
                .build();
    }

    private static JSONSchemaProps array(JSONSchemaProps items) {
        return new JSONSchemaPropsBuilder()
                .withType("array")
                .withNewItems()
                .withSchema(items)
                .endItems()
                .build();
    }

    private static JSONSchemaProps policy() {
        return object(Map.of(
                "event", string(),
                "events", array(string()),
                "action", string(),
                "exitCode", integer(),
                "timeout", string()));
    }

    private static JSONSchemaProps string() {
        return new JSONSchemaPropsBuilder().withType("string").build();
    }

    private static JSONSchemaProps integer() {
        return new JSONSchemaPropsBuilder()
                .withType("integer")
                .withFormat("int32")
                .build();
    }

    private static JSONSchemaProps bool() {
        return new JSONSchemaPropsBuilder().withType("boolean").build();
    }
}
