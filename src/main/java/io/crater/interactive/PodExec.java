package io.crater.interactive;

import io.crater.job.PodAccess;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.OutputStream;
import java.util.List;

/**
 * A process in a job's container through the Kubernetes {@code pods/exec} API, the only way Crater runs anything
 * in a pod: the API server checks it and the kubelet runs it, in a real cluster and in the simulated one alike.
 * Output is delivered to the given streams as it arrives; with a TTY stderr is merged into stdout, as a terminal's
 * is, and without one they stay apart (VS Code Remote-SSH pipes a script into a shell without a TTY).
 */
@ApplicationScoped
public class PodExec {

    /** The login shell a terminal opens: bash, which docs/interactive.md lists among what an image needs. */
    public static final List<String> SHELL = List.of("bash", "-l");

    @Inject
    KubernetesClient client;

    @Inject
    io.vertx.core.Vertx vertx;

    /** Where streams' output is written (an SSH channel's stream may block): daemon threads, made as needed. */
    private final java.util.concurrent.ExecutorService output =
            java.util.concurrent.Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "crater-exec-output");
                t.setDaemon(true);
                return t;
            });

    /**
     * Starts {@code command} (blocking until the API server answered). Its stdin is {@link ExecWatch#getInput()},
     * its exit reaches {@code listener.onExit}; output is written to {@code out} and {@code err} (with a TTY, or
     * {@code err} null, both to {@code out}). Asks for {@code v5.channel.k8s.io}, and for {@code v4.channel.k8s.io}
     * when the API server refuses it.
     */
    public ExecWatch start(
            PodAccess.Target target,
            List<String> command,
            boolean tty,
            OutputStream out,
            OutputStream err,
            ExecListener listener) {
        java.net.URI uri = uri(client.getConfiguration().getMasterUrl(), target, command, tty);
        try {
            return open(uri, ExecStream.V5, out, tty ? null : err, listener);
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            if (!(e.getCause() instanceof io.fabric8.kubernetes.client.http.WebSocketHandshakeException)) {
                throw e;
            }
            return open(uri, ExecStream.V4, out, tty ? null : err, listener);
        }
    }

    private ExecStream open(
            java.net.URI uri, String protocol, OutputStream out, OutputStream err, ExecListener listener) {
        ExecStream stream = new ExecStream(out, err, listener, output, protocol.equals(ExecStream.V5));
        // Asked from a task on the client's event loop: the connection is then served by that loop, which reads no
        // frame before the stream's handlers are installed (see PodTunnels).
        vertx.getOrCreateContext()
                .runOnContext(v -> client.getHttpClient()
                        .newWebSocketBuilder()
                        .subprotocol(protocol)
                        .uri(uri)
                        .connectTimeout(30, java.util.concurrent.TimeUnit.SECONDS)
                        .buildAsync(stream)
                        .whenComplete((ws, e) -> {
                            if (e != null) {
                                stream.opened.completeExceptionally(e);
                            }
                        }));
        try {
            stream.opened.get(40, java.util.concurrent.TimeUnit.SECONDS);
            return stream;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stream.close();
            throw new io.fabric8.kubernetes.client.KubernetesClientException("interrupted while starting the exec");
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            stream.close();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            throw new io.fabric8.kubernetes.client.KubernetesClientException(refusal(cause), cause);
        }
    }

    private static String refusal(Throwable cause) {
        if (cause instanceof io.fabric8.kubernetes.client.http.WebSocketHandshakeException h
                && h.getResponse() != null) {
            return "the API server refused the exec (HTTP " + h.getResponse().code() + ")";
        }
        return "the exec could not be started: " + cause.getMessage();
    }

    /** The exec request's address: the command's words, the container, and which streams are wanted. */
    static java.net.URI uri(String masterUrl, PodAccess.Target target, List<String> command, boolean tty) {
        StringBuilder q = new StringBuilder();
        for (String word : command) {
            q.append("command=").append(enc(word)).append('&');
        }
        q.append("container=").append(enc(target.container()));
        q.append("&stdin=true&stdout=true&stderr=").append(!tty).append("&tty=").append(tty);
        String base = masterUrl.endsWith("/") ? masterUrl : masterUrl + "/";
        return java.net.URI.create(
                base + "api/v1/namespaces/" + enc(target.namespace()) + "/pods/" + enc(target.pod()) + "/exec?" + q);
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8)
                .replace("+", "%20");
    }

    /**
     * The exit status of an exec, -1 when the connection ended without one. The status normally arrives before the
     * connection closes; a status that is not there 2 s after the close never comes.
     */
    public static java.util.concurrent.CompletableFuture<Integer> exit(
            ExecWatch watch, java.util.concurrent.CompletableFuture<Void> closed) {
        var out = new java.util.concurrent.CompletableFuture<Integer>();
        watch.exitCode().whenComplete((code, e) -> out.complete(code == null ? -1 : code));
        closed.thenRun(
                () -> java.util.concurrent.CompletableFuture.delayedExecutor(2, java.util.concurrent.TimeUnit.SECONDS)
                        .execute(() -> out.complete(-1)));
        return out;
    }
}
