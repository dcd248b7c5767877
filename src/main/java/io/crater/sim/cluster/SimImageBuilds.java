package io.crater.sim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The builder of image build pods (label {@code crater.io/kind=imagebuild}), played without running one: it reads
 * the builder's command line (BuildKit's {@code --output type=image,name=…,push=true} or Kaniko's {@code
 * --destination}), the Dockerfile from the ConfigMap or Secret mounted where the command line says, and the registry
 * login from the {@code config.json} of the Secret mounted at {@code $DOCKER_CONFIG}; writes build-like log lines;
 * and pushes a real OCI image (a config and a layer holding the Dockerfile) to the destination registry through the
 * distribution API ({@link OciPush}). Never a host process, never a container engine. Runs on a thread of its own
 * so the kubelet's tick is never held by a registry.
 */
final class SimImageBuilds {

    /** The kind label's value of build pods. */
    static final String KIND = "imagebuild";
    /** How long a build runs at least when its Job gives no run time. */
    static final Duration DEFAULT_DURATION = Duration.ofSeconds(2);

    /** How a build ended: the exit code and, on a failure, why. */
    record Result(int exitCode, String message) {}

    /** What the pod asks to build, read from its command line and volumes. */
    record Plan(String destination, boolean insecure, String dockerfileDir, String dockerConfigDir) {}

    private final KubernetesClient client;
    private final PodLogs logs;
    private final Clock clock;
    private final Map<String, CompletableFuture<Result>> builds = new ConcurrentHashMap<>();
    private final ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "crater-sim-build");
        t.setDaemon(true);
        return t;
    });

    SimImageBuilds(KubernetesClient client, PodLogs logs, Clock clock) {
        this.client = client;
        this.logs = logs;
        this.clock = clock;
    }

    static boolean isBuild(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels != null && KIND.equals(labels.get(SimLabels.KIND));
    }

    /** The build's result once it has ended, starting it the first time; null while it runs. */
    Result result(String key, Pod pod) {
        CompletableFuture<Result> f =
                builds.computeIfAbsent(key, k -> CompletableFuture.supplyAsync(() -> build(pod), pool));
        return f.isDone() ? f.join() : null;
    }

    /** Forgets a deleted pod's build. */
    void forget(String podKey) {
        builds.remove(podKey);
    }

    void stop() {
        pool.shutdownNow();
    }

    /** Reads a builder's command line; null when it pushes nothing Crater's manifests would ask for. */
    static Plan plan(List<String> command, Map<String, String> env) {
        String destination = null;
        boolean insecure = false;
        String dockerfileDir = null;
        for (int i = 0; i < command.size(); i++) {
            String a = command.get(i);
            if (a.equals("--output") && i + 1 < command.size()) {
                for (String part : command.get(i + 1).split(",")) {
                    if (part.startsWith("name=")) {
                        destination = part.substring(5);
                    }
                    insecure |= part.equals("registry.insecure=true");
                }
            } else if (a.equals("--local")
                    && i + 1 < command.size()
                    && command.get(i + 1).startsWith("dockerfile=")) {
                dockerfileDir = command.get(i + 1).substring("dockerfile=".length());
            } else if (a.startsWith("--destination=")) {
                destination = a.substring("--destination=".length());
            } else if (a.startsWith("--dockerfile=")) {
                String f = a.substring("--dockerfile=".length());
                dockerfileDir = f.contains("/") ? f.substring(0, f.lastIndexOf('/')) : "/";
            }
            insecure |= a.equals("--insecure");
        }
        if (destination == null || dockerfileDir == null) {
            return null;
        }
        return new Plan(destination, insecure, dockerfileDir, env.getOrDefault("DOCKER_CONFIG", "/root/.docker"));
    }

    private Result build(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        try {
            Container c = pod.getSpec().getContainers().get(0);
            List<String> command = new ArrayList<>();
            if (c.getCommand() != null) {
                command.addAll(c.getCommand());
            }
            if (c.getArgs() != null) {
                command.addAll(c.getArgs());
            }
            Map<String, String> env = new java.util.HashMap<>();
            for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
                if (e.getValue() != null) {
                    env.put(e.getName(), e.getValue());
                }
            }
            Plan plan = plan(command, env);
            if (plan == null) {
                return fail(ns, name, "error: the command line names no image to push and no Dockerfile");
            }
            String dockerfile = file(pod, c, plan.dockerfileDir(), "Dockerfile");
            if (dockerfile == null) {
                return fail(ns, name, "error: failed to read dockerfile: open Dockerfile: no such file or directory");
            }
            String config = file(pod, c, plan.dockerConfigDir(), "config.json");
            return run(ns, name, plan, dockerfile, config);
        } catch (RuntimeException e) {
            return fail(ns, name, "error: " + e.getMessage());
        }
    }

    private Result run(String ns, String name, Plan plan, String dockerfile, String config) {
        int slash = plan.destination().indexOf('/');
        int colon = plan.destination().lastIndexOf(':');
        if (slash < 0 || colon < slash) {
            return fail(ns, name, "error: invalid reference format: " + plan.destination());
        }
        String registry = plan.destination().substring(0, slash);
        String repository = plan.destination().substring(slash + 1, colon);
        String tag = plan.destination().substring(colon + 1);
        List<String> steps = dockerfile
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .toList();
        log(ns, name, "#1 [internal] load build definition from Dockerfile");
        log(ns, name, "#1 transferring dockerfile: " + dockerfile.length() + "B done");
        int n = 2;
        for (String step : steps) {
            log(ns, name, "#" + n + " [" + (n - 1) + "/" + steps.size() + "] " + step);
            log(ns, name, "#" + n + " DONE 0.1s (simulated: nothing ran)");
            n++;
        }
        log(ns, name, "#" + n + " exporting to image");
        log(ns, name, "#" + n + " pushing layers");
        try {
            boolean plain = plan.insecure() || registry.startsWith("localhost") || registry.startsWith("127.");
            OciPush.Pushed p = new OciPush(registry, plain, repository, basic(config, registry)).push(tag, dockerfile);
            log(ns, name, "#" + n + " pushing manifest for " + plan.destination() + "@" + p.digest() + " done");
            log(ns, name, "#" + n + " DONE");
            return new Result(0, null);
        } catch (OciPush.Refused e) {
            return fail(ns, name, "error: failed to push " + plan.destination() + ": " + e.getMessage());
        } catch (java.io.IOException e) {
            return fail(ns, name, "error: failed to push " + plan.destination() + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail(ns, name, "error: the build was interrupted");
        }
    }

    /** The base64 {@code user:password} of {@code config.json} for the registry, or null. */
    static String basic(String config, String registry) {
        if (config == null) {
            return null;
        }
        try {
            JsonNode auths = Serialization.jsonMapper().readTree(config).path("auths");
            JsonNode entry = auths.path(registry);
            if (entry.isMissingNode() && registry.equals("docker.io")) {
                entry = auths.path("https://index.docker.io/v1/");
            }
            String auth = entry.path("auth").asText("");
            return auth.isEmpty() ? null : auth;
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** A file of a ConfigMap or Secret volume the container mounts at {@code dir}; null when there is none. */
    private String file(Pod pod, Container c, String dir, String key) {
        String ns = pod.getMetadata().getNamespace();
        for (VolumeMount m : c.getVolumeMounts() == null ? List.<VolumeMount>of() : c.getVolumeMounts()) {
            if (!m.getMountPath().equals(dir)) {
                continue;
            }
            for (Volume v : pod.getSpec().getVolumes() == null
                    ? List.<Volume>of()
                    : pod.getSpec().getVolumes()) {
                if (!v.getName().equals(m.getName())) {
                    continue;
                }
                if (v.getConfigMap() != null) {
                    ConfigMap cm = client.configMaps()
                            .inNamespace(ns)
                            .withName(v.getConfigMap().getName())
                            .get();
                    return cm == null || cm.getData() == null
                            ? null
                            : cm.getData().get(key);
                }
                if (v.getSecret() != null) {
                    Secret s = client.secrets()
                            .inNamespace(ns)
                            .withName(v.getSecret().getSecretName())
                            .get();
                    String data = s == null || s.getData() == null
                            ? null
                            : s.getData().get(key);
                    return data == null ? null : new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8);
                }
            }
        }
        return null;
    }

    private Result fail(String ns, String name, String message) {
        log(ns, name, message);
        return new Result(1, message);
    }

    private void log(String ns, String name, String line) {
        logs.append(ns, name, clock.instant(), line);
    }
}
