package io.crater.sim.apiserver;

import io.crater.kube.KubeClients;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * What Crater's own client asks of the API server, as RBAC sees it: one line {@code verb group resource[/sub] scope}
 * per distinct use, appended to the file named by the system property {@value #PROPERTY} (the build sets it for the
 * tests; unset, nothing is recorded). Only requests carrying {@link KubeClients#SERVER_AGENT} count: the tests' own
 * clients and the simulated controllers send fabric8's agent. The chart's Role and ClusterRole are checked against
 * the file (ChartRbacIT). A use is written once per file and JVM; lines from several JVMs may repeat.
 */
final class ClientUses {

    static final String PROPERTY = "crater.kube.record-uses";

    private static final Logger LOG = Logger.getLogger(ClientUses.class);
    /** The uses already written, per file: every API server of a JVM writes to the same one. */
    private static final Map<Path, Set<String>> SEEN = new ConcurrentHashMap<>();

    /** Where to append (null: nothing is recorded). */
    private final Path file;

    ClientUses(Path file) {
        this.file = file;
    }

    /** The recorder the build asks for with {@value #PROPERTY}; records nothing when it is unset. */
    static ClientUses fromSystemProperty() {
        String name = System.getProperty(PROPERTY);
        return new ClientUses(
                name == null || name.isBlank() ? null : Path.of(name).toAbsolutePath());
    }

    /**
     * Records the request's use of {@code resource} ({@code subresource} may be null) in {@code namespace} (null:
     * cluster-scoped, or a namespaced resource across all namespaces).
     */
    void record(
            HttpServerRequest req,
            ApiResource resource,
            String namespace,
            String name,
            String subresource,
            boolean watch) {
        if (file == null || !isCrater(req)) {
            return;
        }
        String what = resource.group().isEmpty() ? "core" : resource.group();
        String plural = subresource == null ? resource.plural() : resource.plural() + "/" + subresource;
        String scope =
                !resource.namespaced() ? "cluster" : namespace == null ? "all-namespaces" : "namespace:" + namespace;
        Set<String> seen = SEEN.computeIfAbsent(file, f -> ConcurrentHashMap.newKeySet());
        for (String verb : verbs(req, name, subresource, watch)) {
            String line = verb + " " + what + " " + plural + " " + scope;
            if (seen.add(line)) {
                append(line);
            }
        }
    }

    private static boolean isCrater(HttpServerRequest req) {
        String agent = req.getHeader("User-Agent");
        return agent != null && agent.startsWith(KubeClients.SERVER_AGENT);
    }

    /**
     * The RBAC verbs the request needs. A WebSocket upgrade of {@code exec}, {@code attach} or {@code portforward} is a
     * GET that the API server also authorises as {@code create} (Kubernetes 1.31+), so it needs both.
     */
    static Set<String> verbs(HttpServerRequest req, String name, String subresource, boolean watch) {
        HttpMethod m = req.method();
        boolean streamed =
                subresource != null && Set.of("exec", "attach", "portforward").contains(subresource);
        if (m == HttpMethod.GET) {
            if (streamed) {
                return Set.of("get", "create");
            }
            String w = req.getParam("watch");
            boolean watching = watch || "true".equals(w) || "1".equals(w);
            return Set.of(name != null ? "get" : watching ? "watch" : "list");
        }
        if (m == HttpMethod.POST) {
            return Set.of("create");
        }
        if (m == HttpMethod.PUT) {
            return Set.of("update");
        }
        if (m == HttpMethod.PATCH) {
            return Set.of("patch");
        }
        if (m == HttpMethod.DELETE) {
            return Set.of(name != null ? "delete" : "deletecollection");
        }
        return Set.of(m.name().toLowerCase());
    }

    private void append(String line) {
        synchronized (SEEN) {
            appendLocked(line);
        }
    }

    private void appendLocked(String line) {
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            Files.writeString(
                    file,
                    line + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            LOG.warnf("cannot record the client's use %s in %s: %s", line, file, e.getMessage());
        }
    }
}
