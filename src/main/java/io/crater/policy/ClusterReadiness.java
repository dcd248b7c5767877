package io.crater.policy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * From what Crater observed of a cluster to its readiness report: whether the cluster has what Crater needs (Volcano's
 * CRDs at the versions Crater speaks, the scheduler configuration the README requires, every permission Crater uses,
 * the job namespace, the shared claim and its storage class, Prometheus), each shortfall a named reason with the
 * facts behind it. Pure: observations in, report out.
 *
 * <p>A check is {@code ok}, {@code degraded} (the cluster lacks something Crater needs) or {@code unknown} (Crater
 * could not look, e.g. the scheduler's ConfigMap is not readable to it); the report is {@code degraded} when any
 * check is, else {@code ok}. Nothing here makes Crater unready: a cluster that lacks something still serves what it
 * can, and the report says what is missing.
 */
public final class ClusterReadiness {

    /** The CRDs Crater uses and the version of each it speaks. */
    public static final Map<String, String> VOLCANO_CRDS = Map.of(
            "jobs.batch.volcano.sh", "v1alpha1",
            "queues.scheduling.volcano.sh", "v1beta1",
            "podgroups.scheduling.volcano.sh", "v1beta1");

    /** The scheduler actions Crater needs, and those it must not have (Crater reclaims itself, with reasons). */
    public static final List<String> ACTIONS = List.of("enqueue", "allocate", "backfill");

    public static final List<String> UNWANTED_ACTIONS = List.of("reclaim", "preempt");

    /** The scheduler plugins Crater needs, and the one that must not run beside {@code capacity}. */
    public static final List<String> PLUGINS =
            List.of("priority", "gang", "predicates", "nodeorder", "binpack", "capacity");

    public static final List<String> UNWANTED_PLUGINS = List.of("proportion");

    private ClusterReadiness() {}

    public enum State {
        ok,
        degraded,
        unknown
    }

    /** A shortfall, named by a stable code, with the facts behind it. */
    public record Reason(String code, Map<String, String> args) {
        public Reason {
            args = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(args));
        }

        /** {@code Code(key=value, ...)}, as health data and logs show it. */
        @Override
        public String toString() {
            StringBuilder out = new StringBuilder(code).append('(');
            args.forEach((k, v) -> out.append(out.charAt(out.length() - 1) == '(' ? "" : ", ")
                    .append(k)
                    .append('=')
                    .append(v));
            return out.append(')').toString();
        }
    }

    /** One check: its name, state and reasons (none when ok). */
    public record Check(String name, State state, List<Reason> reasons) {
        public Check {
            reasons = List.copyOf(reasons);
        }
    }

    /** The report: the worst state of its checks, when it was taken, and each check. */
    public record Report(State state, Instant checkedAt, List<Check> checks) {
        public Report {
            checks = List.copyOf(checks);
        }

        /** Every reason of every check, in check order. */
        public List<Reason> reasons() {
            return checks.stream().flatMap(c -> c.reasons().stream()).toList();
        }
    }

    /** The scheduler's configuration: its actions and the plugins of all tiers; {@code unreadable} says why not. */
    public record SchedulerConfig(String source, List<String> actions, List<String> plugins, String unreadable) {
        public SchedulerConfig {
            actions = List.copyOf(actions);
            plugins = List.copyOf(plugins);
        }

        public static SchedulerConfig read(String source, List<String> actions, List<String> plugins) {
            return new SchedulerConfig(source, actions, plugins, null);
        }

        public static SchedulerConfig unreadable(String source, String why) {
            return new SchedulerConfig(source, List.of(), List.of(), why);
        }
    }

    /**
     * A permission Crater needs and what the API server answered when asked (SelfSubjectAccessReview): {@code
     * allowed}, or null with {@code error} when it could not be asked. {@code namespace} is null for cluster scope.
     */
    public record Access(String verb, String group, String resource, String namespace, Boolean allowed, String error) {

        /** {@code create pods/exec in crater-jobs}, {@code list queues.scheduling.volcano.sh (cluster)}. */
        public String describe() {
            String what = group.isEmpty() ? resource : resource.replaceFirst("^([^/]+)", "$1." + group);
            return verb + " " + what + (namespace == null ? " (cluster)" : " in " + namespace);
        }
    }

    /** The shared claim as read in the job namespace: null fields when it does not exist. */
    public record Claim(
            String name,
            boolean exists,
            String phase,
            List<String> accessModes,
            String storageClass,
            Boolean storageClassExists) {
        public Claim {
            accessModes = accessModes == null ? List.of() : List.copyOf(accessModes);
        }
    }

    /** Prometheus: its URL (null: none configured), whether it answered a query, and why not. */
    public record Prometheus(String url, boolean simulated, boolean reachable, String error) {}

    /**
     * What Crater saw. {@code crds}: served versions by CRD name for those that exist (null: they could not be
     * listed, {@code crdsError} says why); {@code namespaceExists} null when it could not be read.
     */
    public record Observations(
            Map<String, List<String>> crds,
            String crdsError,
            SchedulerConfig scheduler,
            List<Access> access,
            String namespace,
            Boolean namespaceExists,
            String namespaceError,
            Claim claim,
            Prometheus prometheus) {}

    /** The report of these observations, taken at {@code at}. */
    public static Report report(Observations o, Instant at) {
        List<Check> checks = List.of(
                crds(o.crds(), o.crdsError()),
                scheduler(o.scheduler()),
                permissions(o.access()),
                namespace(o.namespace(), o.namespaceExists(), o.namespaceError()),
                storage(o.claim()),
                prometheus(o.prometheus()));
        State worst = checks.stream().anyMatch(c -> c.state() == State.degraded) ? State.degraded : State.ok;
        return new Report(worst, at, checks);
    }

    static Check crds(Map<String, List<String>> served, String error) {
        if (served == null) {
            return unknown("volcano-crds", reason("CrdsUnreadable", "error", error));
        }
        List<Reason> reasons = new ArrayList<>();
        new java.util.TreeMap<>(VOLCANO_CRDS).forEach((crd, version) -> {
            List<String> versions = served.get(crd);
            if (versions == null) {
                reasons.add(reason("VolcanoCrdMissing", "crd", crd, "version", version));
            } else if (!versions.contains(version)) {
                reasons.add(reason(
                        "VolcanoCrdVersionNotServed",
                        "crd",
                        crd,
                        "version",
                        version,
                        "served",
                        String.join(",", versions)));
            }
        });
        return check("volcano-crds", reasons);
    }

    static Check scheduler(SchedulerConfig c) {
        if (c.unreadable() != null) {
            return unknown(
                    "volcano-scheduler",
                    reason("SchedulerConfigUnreadable", "source", c.source(), "error", c.unreadable()));
        }
        List<Reason> reasons = new ArrayList<>();
        ACTIONS.stream()
                .filter(a -> !c.actions().contains(a))
                .forEach(a -> reasons.add(
                        reason("SchedulerActionMissing", "action", a, "actions", String.join(",", c.actions()))));
        UNWANTED_ACTIONS.stream()
                .filter(a -> c.actions().contains(a))
                .forEach(a -> reasons.add(reason("SchedulerActionUnwanted", "action", a)));
        PLUGINS.stream()
                .filter(p -> !c.plugins().contains(p))
                .forEach(p -> reasons.add(reason("SchedulerPluginMissing", "plugin", p)));
        UNWANTED_PLUGINS.stream()
                .filter(p -> c.plugins().contains(p))
                .forEach(p -> reasons.add(reason("SchedulerPluginUnwanted", "plugin", p)));
        return check("volcano-scheduler", reasons);
    }

    static Check permissions(List<Access> access) {
        List<Reason> denied = new ArrayList<>();
        List<Reason> unasked = new ArrayList<>();
        for (Access a : access) {
            if (a.allowed() == null) {
                unasked.add(reason("PermissionUnchecked", "permission", a.describe(), "error", a.error()));
            } else if (!a.allowed()) {
                denied.add(reason("PermissionDenied", "permission", a.describe()));
            }
        }
        if (!denied.isEmpty()) {
            denied.addAll(unasked);
            return check("permissions", denied);
        }
        return unasked.isEmpty() ? check("permissions", List.of()) : new Check("permissions", State.unknown, unasked);
    }

    static Check namespace(String namespace, Boolean exists, String error) {
        if (exists == null) {
            return unknown("job-namespace", reason("NamespaceUnreadable", "namespace", namespace, "error", error));
        }
        return check(
                "job-namespace", exists ? List.of() : List.of(reason("JobNamespaceMissing", "namespace", namespace)));
    }

    static Check storage(Claim c) {
        if (!c.exists()) {
            return check("storage", List.of(reason("SharedClaimMissing", "claim", c.name())));
        }
        List<Reason> reasons = new ArrayList<>();
        if (!"Bound".equals(c.phase())) {
            reasons.add(reason("SharedClaimNotBound", "claim", c.name(), "phase", String.valueOf(c.phase())));
        }
        if (!c.accessModes().contains("ReadWriteMany")) {
            reasons.add(reason(
                    "SharedClaimNotReadWriteMany",
                    "claim",
                    c.name(),
                    "accessModes",
                    String.join(",", c.accessModes())));
        }
        if (c.storageClass() != null && !c.storageClass().isEmpty() && Boolean.FALSE.equals(c.storageClassExists())) {
            reasons.add(reason("StorageClassMissing", "storageClass", c.storageClass(), "claim", c.name()));
        }
        return check("storage", reasons);
    }

    static Check prometheus(Prometheus p) {
        if (p.url() == null) {
            return p.simulated()
                    ? check("prometheus", List.of())
                    : check("prometheus", List.of(reason("PrometheusNotConfigured")));
        }
        return check(
                "prometheus",
                p.reachable()
                        ? List.of()
                        : List.of(reason("PrometheusUnreachable", "url", p.url(), "error", p.error())));
    }

    private static Check check(String name, List<Reason> reasons) {
        return new Check(name, reasons.isEmpty() ? State.ok : State.degraded, reasons);
    }

    private static Check unknown(String name, Reason reason) {
        return new Check(name, State.unknown, List.of(reason));
    }

    private static Reason reason(String code, String... keyValues) {
        Map<String, String> args = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            args.put(keyValues[i], keyValues[i + 1] == null ? "" : keyValues[i + 1]);
        }
        return new Reason(code, args);
    }
}
