package io.crater.interactive;

import io.crater.job.PodAccess;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.TtyExecErrorChannelable;
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

    /**
     * Starts {@code command} (blocking until the API server answered). Its stdin is {@link ExecWatch#getInput()},
     * its exit reaches {@code listener.onExit}.
     */
    public ExecWatch start(
            PodAccess.Target target,
            List<String> command,
            boolean tty,
            OutputStream out,
            OutputStream err,
            ExecListener listener) {
        var io = client.pods()
                .inNamespace(target.namespace())
                .withName(target.pod())
                .inContainer(target.container())
                .redirectingInput()
                .writingOutput(out);
        TtyExecErrorChannelable withErr = tty ? io : io.writingError(err);
        var listenable = tty ? withErr.withTTY() : withErr;
        return listenable.usingListener(listener).exec(command.toArray(String[]::new));
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
