package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The columns the real API server prints for the built-in kinds an admin lists (after {@code Name}), as
 * {@code kubectl get} shows them: pods {@code READY STATUS RESTARTS AGE} (with {@code -o wide} {@code IP NODE}), nodes
 * {@code STATUS ROLES AGE VERSION}, namespaces, services, events, config maps, secrets and service accounts.
 */
final class BuiltInColumns {

    private BuiltInColumns() {}

    private static final Map<String, List<Tables.Column>> COLUMNS = Map.of(
            "/pods", pods(),
            "/nodes", nodes(),
            "/namespaces",
                    List.of(col("Status", (o) -> o.path("status").path("phase").asText()), Tables.age()),
            "/services", services(),
            "/events", events(),
            "/configmaps", List.of(col("Data", BuiltInColumns::dataCount), Tables.age()),
            "/secrets",
                    List.of(
                            col("Type", o -> o.path("type").asText()),
                            col("Data", BuiltInColumns::dataCount),
                            Tables.age()),
            "/serviceaccounts", List.of(Tables.age()),
            "apiextensions.k8s.io/customresourcedefinitions",
                    List.of(col(
                            "Created At",
                            o -> o.path("metadata").path("creationTimestamp").asText())));

    /** The columns after {@code Name} of a built-in kind, or null when the kind has no printer of its own. */
    static List<Tables.Column> of(String key) {
        return COLUMNS.get(key);
    }

    private interface Read {
        Object of(JsonNode object);
    }

    private static Tables.Column col(String name, Read read) {
        return new Tables.Column(name, "string", 0, (o, now) -> read.of(o));
    }

    private static Tables.Column wide(String name, Read read) {
        return new Tables.Column(name, "string", 1, (o, now) -> read.of(o));
    }

    private static Object dataCount(JsonNode o) {
        return (long) (o.path("data").size() + o.path("binaryData").size());
    }

    private static List<Tables.Column> pods() {
        return List.of(
                col("Ready", o -> {
                    long ready = 0;
                    for (JsonNode c : o.path("status").path("containerStatuses")) {
                        ready += c.path("ready").asBoolean() ? 1 : 0;
                    }
                    return ready + "/" + o.path("spec").path("containers").size();
                }),
                col("Status", BuiltInColumns::podStatus),
                new Tables.Column("Restarts", "string", 0, (o, now) -> {
                    long restarts = 0;
                    for (JsonNode c : o.path("status").path("containerStatuses")) {
                        restarts += c.path("restartCount").asLong();
                    }
                    return Long.toString(restarts);
                }),
                Tables.age(),
                wide("IP", o -> orNone(o.path("status").path("podIP").asText())),
                wide("Node", o -> orNone(o.path("spec").path("nodeName").asText())),
                wide(
                        "Nominated Node",
                        o -> orNone(o.path("status").path("nominatedNodeName").asText())),
                wide("Readiness Gates", o -> "<none>"));
    }

    /** The pod's status as kubectl prints it: a container's waiting or terminated reason over the phase. */
    static String podStatus(JsonNode pod) {
        JsonNode status = pod.path("status");
        String reason = status.path("reason").asText(status.path("phase").asText("Unknown"));
        boolean running = false;
        JsonNode containers = status.path("containerStatuses");
        for (int i = containers.size() - 1; i >= 0; i--) {
            JsonNode state = containers.get(i).path("state");
            if (!state.path("waiting").path("reason").asText().isEmpty()) {
                reason = state.path("waiting").path("reason").asText();
            } else if (!state.path("terminated").path("reason").asText().isEmpty()) {
                reason = state.path("terminated").path("reason").asText();
            } else if (state.has("terminated")) {
                JsonNode t = state.path("terminated");
                reason = t.path("signal").asInt() != 0
                        ? "Signal:" + t.path("signal").asInt()
                        : "ExitCode:" + t.path("exitCode").asInt();
            } else if (containers.get(i).path("ready").asBoolean() && state.has("running")) {
                running = true;
            }
        }
        if (reason.equals("Completed") && running) {
            reason = "Running";
        }
        if (pod.path("metadata").has("deletionTimestamp")) {
            reason = "Terminating";
        }
        return reason;
    }

    private static List<Tables.Column> nodes() {
        return List.of(
                col("Status", o -> {
                    String ready = "Unknown";
                    for (JsonNode c : o.path("status").path("conditions")) {
                        if (c.path("type").asText().equals("Ready")) {
                            ready = c.path("status").asText();
                        }
                    }
                    String s = ready.equals("True") ? "Ready" : "NotReady";
                    return o.path("spec").path("unschedulable").asBoolean() ? s + ",SchedulingDisabled" : s;
                }),
                col("Roles", o -> {
                    List<String> roles = new ArrayList<>();
                    o.path("metadata").path("labels").fieldNames().forEachRemaining(k -> {
                        if (k.startsWith("node-role.kubernetes.io/")) {
                            roles.add(k.substring("node-role.kubernetes.io/".length()));
                        }
                    });
                    return roles.isEmpty() ? "<none>" : String.join(",", roles);
                }),
                Tables.age(),
                col(
                        "Version",
                        o -> o.path("status")
                                .path("nodeInfo")
                                .path("kubeletVersion")
                                .asText()),
                wide("Internal-IP", o -> address(o, "InternalIP")),
                wide("External-IP", o -> address(o, "ExternalIP")),
                wide("OS-Image", o -> nodeInfo(o, "osImage")),
                wide("Kernel-Version", o -> nodeInfo(o, "kernelVersion")),
                wide("Container-Runtime", o -> nodeInfo(o, "containerRuntimeVersion")));
    }

    private static String address(JsonNode node, String type) {
        for (JsonNode a : node.path("status").path("addresses")) {
            if (a.path("type").asText().equals(type)) {
                return a.path("address").asText();
            }
        }
        return "<none>";
    }

    private static String nodeInfo(JsonNode node, String field) {
        return orNone(node.path("status").path("nodeInfo").path(field).asText());
    }

    private static List<Tables.Column> services() {
        return List.of(
                col("Type", o -> o.path("spec").path("type").asText("ClusterIP")),
                col("Cluster-IP", o -> orNone(o.path("spec").path("clusterIP").asText())),
                col("External-IP", o -> {
                    List<String> ips = new ArrayList<>();
                    o.path("spec").path("externalIPs").forEach(ip -> ips.add(ip.asText()));
                    o.path("status")
                            .path("loadBalancer")
                            .path("ingress")
                            .forEach(i -> ips.add(
                                    i.path("ip").asText(i.path("hostname").asText())));
                    if (ips.isEmpty()) {
                        return o.path("spec").path("type").asText().equals("LoadBalancer") ? "<pending>" : "<none>";
                    }
                    return String.join(",", ips);
                }),
                col("Port(s)", o -> {
                    List<String> ports = new ArrayList<>();
                    for (JsonNode p : o.path("spec").path("ports")) {
                        String node = p.path("nodePort").asInt() == 0
                                ? ""
                                : ":" + p.path("nodePort").asInt();
                        ports.add(p.path("port").asInt() + node + "/"
                                + p.path("protocol").asText("TCP"));
                    }
                    return ports.isEmpty() ? "<none>" : String.join(",", ports);
                }),
                Tables.age(),
                wide("Selector", o -> {
                    List<String> terms = new ArrayList<>();
                    o.path("spec")
                            .path("selector")
                            .fields()
                            .forEachRemaining(f ->
                                    terms.add(f.getKey() + "=" + f.getValue().asText()));
                    return terms.isEmpty() ? "<none>" : String.join(",", terms);
                }));
    }

    private static List<Tables.Column> events() {
        return List.of(
                new Tables.Column("Last Seen", "string", 0, (o, now) -> Tables.since(lastSeen(o), now)),
                col("Type", o -> o.path("type").asText()),
                col("Reason", o -> o.path("reason").asText()),
                col("Object", o -> {
                    JsonNode io = o.path("involvedObject");
                    return io.path("kind").asText().toLowerCase() + "/"
                            + io.path("name").asText();
                }),
                wide(
                        "Subobject",
                        o -> o.path("involvedObject").path("fieldPath").asText()),
                wide(
                        "Source",
                        o -> o.path("source")
                                .path("component")
                                .asText(o.path("reportingComponent").asText())),
                col("Message", o -> o.path("message").asText()),
                new Tables.Column(
                        "First Seen",
                        "string",
                        1,
                        (o, now) -> Tables.since(o.path("firstTimestamp").asText(lastSeen(o)), now)),
                wide("Count", o -> Long.toString(Math.max(1, o.path("count").asLong()))),
                wide("Name", o -> o.path("metadata").path("name").asText()));
    }

    private static String lastSeen(JsonNode event) {
        for (String f : List.of("lastTimestamp", "eventTime", "firstTimestamp")) {
            String t = event.path(f).asText("");
            if (!t.isEmpty()) {
                return t.length() > 20 && t.contains(".") ? t.substring(0, t.indexOf('.')) + "Z" : t;
            }
        }
        return event.path("metadata").path("creationTimestamp").asText("");
    }

    private static String orNone(String value) {
        return value == null || value.isEmpty() ? "<none>" : value;
    }
}
