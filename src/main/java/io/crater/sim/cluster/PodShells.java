package io.crater.sim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.crater.sim.apiserver.ObjectLookup;
import io.crater.sim.apiserver.PodExec;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.Map;

/**
 * The shells {@code pods/exec} reaches, and where they find what they show: the host directories backing
 * PersistentVolumeClaims (in the embedded default the shared claim is {@code $CRATER_HOME/spaces}), a scratch folder
 * per pod for its container's own file system and other volumes (deleted with the pod), the GPU exporter's readings
 * and the Secrets of the pod's namespace.
 */
final class PodShells implements ShellPod.Host, PodExec {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .build();

    private final ObjectLookup objects;
    private volatile Map<String, Path> claims = Map.of();
    private volatile GpuExporter exporter;
    private volatile Clock clock = Clock.systemUTC();
    private Path scratchRoot;

    PodShells(ObjectLookup objects) {
        this.objects = objects;
    }

    /** What the simulator adds once it runs: the claims' host directories, its GPU exporter and clock. */
    void configure(Map<String, Path> claims, GpuExporter exporter, Clock clock) {
        this.claims = Map.copyOf(claims);
        this.exporter = exporter;
        this.clock = clock;
    }

    /** A shell in {@code container} (null: the first) of a pod as stored. */
    @Override
    public SimShell shell(JsonNode pod, String container) {
        Pod p = JSON.convertValue(pod, Pod.class);
        String nodeName = p.getSpec().getNodeName();
        // A node that is gone: the shell knows no accelerator labels.
        JsonNode stored = nodeName == null ? null : objects.core("nodes", null, nodeName);
        Node node = stored == null ? null : JSON.convertValue(stored, Node.class);
        return new SimShell(ShellPod.of(p, container, node, this), clock);
    }

    @Override
    public Path claim(String claimName) {
        return claims.get(claimName);
    }

    @Override
    public synchronized Path scratch(String namespace, String pod) {
        if (scratchRoot == null) {
            try {
                scratchRoot = Files.createTempDirectory("crater-sim-pods-");
            } catch (IOException e) {
                throw new IllegalStateException("the simulated pods' scratch folder cannot be created", e);
            }
        }
        return scratchRoot.resolve(namespace).resolve(pod);
    }

    @Override
    public GpuExporter.Reading reading(Pod pod) {
        GpuExporter e = exporter;
        return e == null ? new GpuExporter.Reading(0, 0) : e.reading(pod, clock.instant());
    }

    @Override
    public String secret(String namespace, String name, String key) {
        JsonNode stored = objects.core("secrets", namespace, name);
        if (stored == null) {
            return null;
        }
        try {
            JsonNode value = stored.path("data").path(key);
            return value.isTextual()
                    ? new String(Base64.getDecoder().decode(value.asText()), StandardCharsets.UTF_8)
                    : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Deletes a deleted pod's scratch folder. */
    synchronized void forget(String namespace, String pod) {
        if (scratchRoot != null) {
            SimFiles.deleteTree(scratchRoot.resolve(namespace).resolve(pod));
        }
    }

    /** Deletes every pod's scratch folder (the simulated cluster stops). */
    synchronized void close() {
        if (scratchRoot != null) {
            SimFiles.deleteTree(scratchRoot);
            scratchRoot = null;
        }
    }
}
