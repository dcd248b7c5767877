package io.crater.sim.cluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the simulated shell of a pod's container knows of it, read from the pod as Crater (or anyone) built it:
 * the user from {@code securityContext.runAsUser}/{@code runAsGroup} with the names in {@code CRATER_USER} and
 * {@code CRATER_ACCOUNT}, the container's environment, its volume mounts, the accelerators it holds and the node's
 * labels describing them. {@link #of} builds it; the rest is plain data, so tests can build one by hand.
 *
 * @param user the user's name; null when the UID has none (as a UID missing from {@code /etc/passwd})
 * @param group the group's name; null when it has none
 * @param home {@code $HOME}: the container's {@code HOME}, else Crater's {@code CRATER_USER_SPACE}, else
 *     {@code /root} for root and {@code /} for anyone else
 * @param workingDir where a shell starts: the container's {@code workingDir}, else the home directory
 * @param cards the accelerators the container holds, read when asked (utilisation and memory change)
 */
record ShellPod(
        String hostname,
        String user,
        long uid,
        long gid,
        String group,
        String home,
        String workingDir,
        Map<String, String> env,
        List<SimFiles.Mount> mounts,
        Node node,
        Supplier<List<Card>> cards) {

    /** Environment variable naming the user (Crater's pod templates set it). */
    static final String USER_ENV = "CRATER_USER";
    /** Environment variable naming the account whose GID the pod runs with. */
    static final String ACCOUNT_ENV = "CRATER_ACCOUNT";
    /** Environment variable with the user's space: the home directory when the container sets no HOME. */
    static final String USER_SPACE_ENV = "CRATER_USER_SPACE";

    static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    /**
     * One accelerator of the container: its resource name ({@code nvidia.com/gpu}), display name, memory in MiB (total
     * 0: unknown) and utilisation in percent.
     */
    record Card(String resource, String name, long memoryTotalMiB, long memoryUsedMiB, int utilisation) {}

    /** Where a pod's volumes live on the host, and what the GPU exporter reads of its accelerators. */
    interface Host {
        /** The host directory backing a PersistentVolumeClaim, or null when none does. */
        Path claim(String claimName);

        /** The pod's own scratch folder: its container's file system and volumes other than claims. */
        Path scratch(String namespace, String pod);

        /** The exporter's latest reading of the pod's accelerators. */
        GpuExporter.Reading reading(Pod pod);

        /** A key of a Secret in the pod's namespace, or null. */
        String secret(String namespace, String name, String key);
    }

    /** The facts of {@code container} (null: the first) of {@code pod}, running on {@code node} (null: unknown). */
    static ShellPod of(Pod pod, String container, Node node, Host host) {
        Container c = pod.getSpec().getContainers().stream()
                .filter(x -> container == null || x.getName().equals(container))
                .findFirst()
                .orElseThrow();
        PodSecurityContext ps = pod.getSpec().getSecurityContext();
        SecurityContext cs = c.getSecurityContext();
        long uid = firstOf(cs == null ? null : cs.getRunAsUser(), ps == null ? null : ps.getRunAsUser());
        long gid = firstOf(cs == null ? null : cs.getRunAsGroup(), ps == null ? null : ps.getRunAsGroup());
        String hostname = Objects.requireNonNullElse(
                pod.getSpec().getHostname(), pod.getMetadata().getName());
        Map<String, String> env = env(pod, c, hostname, host::secret);
        String home = env.get("HOME") != null
                ? env.get("HOME")
                : env.get(USER_SPACE_ENV) != null ? env.get(USER_SPACE_ENV) : uid == 0 ? "/root" : "/";
        env.putIfAbsent("HOME", home);
        String user = uid == 0 ? "root" : env.get(USER_ENV);
        String group = gid == 0 ? "root" : env.get(ACCOUNT_ENV);
        String workingDir = c.getWorkingDir() == null || c.getWorkingDir().isBlank() ? home : c.getWorkingDir();
        Path scratch =
                host.scratch(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
        List<SimFiles.Mount> mounts = mounts(pod, c, scratch, host, home, workingDir);
        List<Card> shape = cards(c, node);
        Supplier<List<Card>> cards = () -> {
            GpuExporter.Reading r = host.reading(pod);
            return shape.stream()
                    .map(k -> new Card(
                            k.resource(),
                            k.name(),
                            k.memoryTotalMiB(),
                            Math.round(k.memoryTotalMiB() * r.memory() / 100),
                            (int) Math.round(r.utilisation())))
                    .toList();
        };
        return new ShellPod(hostname, user, uid, gid, group, home, workingDir, env, mounts, node, cards);
    }

    private static long firstOf(Long a, Long b) {
        return a != null ? a : b != null ? b : 0;
    }

    /** The container's environment as its process would see it, with what Kubernetes and the image add. */
    private static Map<String, String> env(Pod pod, Container c, String hostname, SecretLookup secrets) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", PATH);
        env.put("HOSTNAME", hostname);
        for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
            String value = e.getValue();
            if (e.getValueFrom() != null && e.getValueFrom().getFieldRef() != null) {
                value = switch (e.getValueFrom().getFieldRef().getFieldPath()) {
                    case "metadata.name" -> pod.getMetadata().getName();
                    case "metadata.namespace" -> pod.getMetadata().getNamespace();
                    case "spec.nodeName" -> pod.getSpec().getNodeName();
                    case "status.podIP" ->
                        pod.getStatus() == null ? null : pod.getStatus().getPodIP();
                    case "status.hostIP" ->
                        pod.getStatus() == null ? null : pod.getStatus().getHostIP();
                    default -> null;
                };
            } else if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                var ref = e.getValueFrom().getSecretKeyRef();
                value = secrets.apply(pod.getMetadata().getNamespace(), ref.getName(), ref.getKey());
            }
            env.put(e.getName(), value == null ? "" : value);
        }
        return env;
    }

    private interface SecretLookup {
        String apply(String namespace, String name, String key);
    }

    /** The container's mounts on the host, with the container's own file system at {@code /}. */
    private static List<SimFiles.Mount> mounts(
            Pod pod, Container c, Path scratch, Host host, String home, String workingDir) {
        Map<String, Volume> volumes = new LinkedHashMap<>();
        for (Volume v : pod.getSpec().getVolumes() == null
                ? List.<Volume>of()
                : pod.getSpec().getVolumes()) {
            volumes.put(v.getName(), v);
        }
        Path rootfs = scratch.resolve("rootfs");
        List<SimFiles.Mount> out = new ArrayList<>();
        out.add(new SimFiles.Mount("/", rootfs, false));
        for (VolumeMount m : c.getVolumeMounts() == null ? List.<VolumeMount>of() : c.getVolumeMounts()) {
            Volume v = volumes.get(m.getName());
            String path = normalise(m.getMountPath());
            String subPath = m.getSubPath() == null ? "" : m.getSubPath();
            if (v == null || path.equals("/") || !safe(subPath)) {
                continue; // the kubelet would not start such a container
            }
            boolean readOnly = Boolean.TRUE.equals(m.getReadOnly());
            Path base = null;
            if (v.getPersistentVolumeClaim() != null) {
                base = host.claim(v.getPersistentVolumeClaim().getClaimName());
                readOnly |= Boolean.TRUE.equals(v.getPersistentVolumeClaim().getReadOnly());
            }
            base = base != null ? base : scratch.resolve("volumes").resolve(v.getName());
            Path dir = subPath.isEmpty() ? base : base.resolve(subPath);
            if (directory(dir) && inside(dir, base)) {
                out.add(new SimFiles.Mount(path, dir, readOnly));
                directory(rootfs.resolve(path.substring(1)));
            }
        }
        directory(rootfs.resolve("tmp"));
        for (String p : List.of(home, workingDir)) {
            if (out.stream().noneMatch(m -> !m.path().equals("/") && (p + "/").startsWith(m.path() + "/"))) {
                directory(rootfs.resolve(normalise(p).substring(1)));
            }
        }
        return out;
    }

    private static String normalise(String path) {
        StringBuilder sb = new StringBuilder();
        for (String n : path.split("/")) {
            if (!n.isEmpty() && !n.equals(".")) {
                sb.append('/').append(n);
            }
        }
        return sb.isEmpty() ? "/" : sb.toString();
    }

    /** A subPath as Kubernetes accepts it: relative, without {@code ..}. */
    private static boolean safe(String subPath) {
        return !subPath.startsWith("/") && List.of(subPath.split("/")).stream().noneMatch(".."::equals);
    }

    private static boolean directory(Path dir) {
        try {
            Files.createDirectories(dir);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean inside(Path dir, Path base) {
        try {
            return dir.toRealPath().startsWith(base.toRealPath());
        } catch (IOException e) {
            return false;
        }
    }

    /** The container's accelerators (its limits, else requests, of the accelerator resources) as the node names them. */
    private static List<Card> cards(Container c, Node node) {
        Map<String, Quantity> held = new LinkedHashMap<>();
        if (c.getResources() != null && c.getResources().getRequests() != null) {
            held.putAll(c.getResources().getRequests());
        }
        if (c.getResources() != null && c.getResources().getLimits() != null) {
            held.putAll(c.getResources().getLimits());
        }
        Map<String, String> labels = node == null || node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        List<Card> out = new ArrayList<>();
        held.forEach((resource, q) -> {
            String name = SmiTables.cardName(resource, labels);
            if (name == null) {
                return;
            }
            long memory = SmiTables.memoryMiB(resource, labels);
            int count = (int) (io.crater.kube.KubeQuantities.toMilli(q) / 1000);
            for (int i = 0; i < count; i++) {
                out.add(new Card(resource, name, memory, 0, 0));
            }
        });
        return List.copyOf(out);
    }
}
