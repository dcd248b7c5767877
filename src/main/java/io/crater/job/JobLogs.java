package io.crater.job;

import io.crater.cluster.ClusterConfig;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A job's logs: from its pod while it exists (as text, or followed line by line), else from the archive written when the
 * job ended, so "why did it fail" still answers after the pods are gone. Only the job's owner, the admins of
 * its account and platform admins read them.
 */
@ApplicationScoped
public class JobLogs {

    static final int ARCHIVED_LINES = 2000;

    @Inject
    io.crater.account.AccountService accounts;

    @Inject
    KubernetesClient client;

    @Inject
    ClusterConfig cluster;

    @Inject
    Vertx vertx;

    @Inject
    JobKubeEvents events;

    /** A job as far as reading its logs goes: whose it is, its account and its kind. */
    record Readable(long userId, long accountId, String kind) {
        static Readable of(Object[] r) {
            return new Readable(Sql.longOf(r[0]), Sql.longOf(r[1]), (String) r[2]);
        }

        /** This job if the caller may read its logs (owner, account admin or platform admin), else null. */
        Readable by(Caller caller, boolean accountAdmin) {
            return userId == caller.userId() || accountAdmin || caller.platformAdmin() ? this : null;
        }
    }

    /** Who may read a job's logs, and which pod to read. */
    Uni<String> readablePod(String publicId, String pod, Caller caller) {
        if (!JobNames.isPublicId(publicId)) {
            return Uni.createFrom().failure(ApiException.notFound("no job " + publicId));
        }
        return Panache.withSession(() -> Sql.row(
                                "SELECT j.user_id, j.account_id, j.kind FROM jobs j WHERE j.public_id = ?1", publicId)
                        .flatMap(r -> {
                            Readable job =
                                    Readable.of(r.orElseThrow(() -> ApiException.notFound("no job " + publicId)));
                            return accounts.memberIds(job.accountId(), true)
                                    .map(admins -> job.by(caller, admins.contains(caller.userId())));
                        }))
                .map(job -> {
                    if (job == null) {
                        throw ApiException.forbidden(
                                "NotJobOwner", "only the job's owner or an admin of its account may read its logs");
                    }
                    String main =
                            JobNames.volcanoName(publicId) + ("pytorch".equals(job.kind()) ? "-master-0" : "-main-0");
                    if (pod != null && !pod.isBlank() && !pod.startsWith(JobNames.volcanoName(publicId) + "-")) {
                        throw ApiException.badRequest("InvalidPod", "not a pod of this job", null);
                    }
                    return pod == null || pod.isBlank() ? main : pod;
                });
    }

    /** The last lines of the pod's log, or of the archive when the pod is gone. */
    public Uni<String> text(String publicId, String pod, Integer tailLines, Caller caller) {
        int tail = tailLines == null ? 1000 : Math.max(1, Math.min(tailLines, 100_000));
        return readablePod(publicId, pod, caller)
                .flatMap(name -> vertx.executeBlocking(Uni.createFrom().item(() -> live(name, tail)))
                        .flatMap(live -> live.isPresent()
                                ? Uni.createFrom().item(live.get())
                                : archived(publicId, name).map(text -> lastLines(text, tail))));
    }

    /** The last {@code n} lines of a text (each with its line end), as the live log's {@code tailLines} gives them. */
    static String lastLines(String text, int n) {
        int end = text.endsWith("\n") ? text.length() - 1 : text.length();
        int from = end;
        for (int seen = 0; seen < n; seen++) {
            int nl = text.lastIndexOf('\n', from - 1);
            if (nl < 0) {
                return text;
            }
            from = nl;
        }
        return text.substring(from + 1);
    }

    private Optional<String> live(String pod, int tail) {
        try {
            return Optional.ofNullable(logTail(pod, null, tail));
        } catch (KubernetesClientException e) {
            return Optional.empty(); // no such pod (404) or no log yet
        }
    }

    /**
     * The last lines of a container's log, by one GET of the pod's {@code log} subresource. fabric8's {@code getLog}
     * first waits for the pod to be ready or ended with an informer (a list and a watch of the pod) on every call,
     * which is three requests where one does.
     */
    private String logTail(String pod, String container, int lines) {
        String path = "/api/v1/namespaces/" + cluster.namespace() + "/pods/" + pod + "/log?tailLines=" + lines
                + (container == null ? "" : "&container=" + container);
        return client.raw(path);
    }

    private Uni<String> archived(String publicId, String pod) {
        return Panache.withSession(() -> Sql.strings(
                        "SELECT a.log_tail, a.container FROM job_archives a JOIN jobs j ON j.id = a.job_id"
                                + " WHERE j.public_id = ?1 AND a.pod = ?2 ORDER BY a.container",
                        publicId,
                        pod))
                .map(rows -> {
                    if (rows.isEmpty()) {
                        throw ApiException.notFound("no log for " + pod
                                + ": the pod does not exist (yet, or any more) and nothing was archived");
                    }
                    StringBuilder sb = new StringBuilder();
                    rows.forEach(sb::append);
                    return sb.toString();
                });
    }

    /** The pod to follow, if the caller may read the job's logs and the pod exists (blocking: call off the event loop). */
    public String runningPod(String publicId, String pod, Caller caller) throws Throwable {
        String name = VertxContextSupport.subscribeAndAwait(() -> readablePod(publicId, pod, caller));
        if (client.pods().inNamespace(cluster.namespace()).withName(name).get() == null) {
            throw ApiException.notFound("no running pod " + name + " to follow; read the archived log instead");
        }
        return name;
    }

    /**
     * The pod's log as it is written, line by line, until the container ends or the client goes away. The
     * client's log watch writes into a line splitter from its own I/O thread; no thread waits per follower.
     */
    public Multi<String> follow(String pod) {
        return Multi.createFrom().emitter(emitter -> {
            LineSplitter lines = new LineSplitter(emitter::emit);
            LogWatch watch =
                    client.pods().inNamespace(cluster.namespace()).withName(pod).watchLog(lines);
            watch.onClose().whenComplete((v, e) -> {
                lines.flush();
                emitter.complete();
            });
            emitter.onTermination(watch::close);
        });
    }

    /** A job that finished: its row's id and its public id. */
    record Finished(long jobId, String publicId) {
        /** From a row of {@code id, public_id}. */
        static Finished of(Object[] r) {
            return new Finished(Sql.longOf(r[0]), (String) r[1]);
        }
    }

    /** Archives each container's end and log tail for every pod of a finished job (blocking; call off the event loop). */
    void archive(String publicId) throws Throwable {
        Long jobId = VertxContextSupport.subscribeAndAwait(
                () -> Panache.withSession(() -> Sql.count("SELECT max(id) FROM jobs WHERE public_id = ?1", publicId)));
        archive(List.of(new Finished(jobId, publicId)));
    }

    /**
     * Archives each container's end and log tail for every pod of the finished jobs, and their events: one pod list
     * for them all, a log GET per container, then one transaction writing every row (blocking; call off the event
     * loop).
     */
    void archive(List<Finished> jobs) throws Throwable {
        if (jobs.isEmpty()) {
            return;
        }
        Map<String, Long> ids = new HashMap<>();
        jobs.forEach(j -> ids.put(j.publicId(), j.jobId()));
        List<Pod> pods = client.pods()
                .inNamespace(cluster.namespace())
                .withLabelIn(JobNames.JOB_ID, ids.keySet().toArray(String[]::new))
                .list()
                .getItems();
        pods.sort(Comparator.comparing(p -> p.getMetadata().getName()));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Pod pod : pods) {
            Long jobId = ids.get(pod.getMetadata().getLabels().get(JobNames.JOB_ID));
            if (jobId == null) {
                continue;
            }
            List<ContainerStatus> statuses =
                    pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
                            ? List.of()
                            : pod.getStatus().getContainerStatuses();
            for (ContainerStatus cs : statuses) {
                rows.add(archived(jobId, pod.getMetadata().getName(), cs, rows.size()));
            }
        }
        List<Map<String, Object>> events = this.events.archived(jobs);
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> (rows.isEmpty()
                        ? Uni.createFrom().item(0)
                        : Sql.update(
                                "INSERT INTO job_archives (job_id, pod, container, exit_code, reason, message, log_tail)"
                                        + " SELECT a.job_id, a.pod, a.container, a.exit_code, a.reason, a.message, a.log_tail"
                                        + " FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb)) AS a(job_id bigint,"
                                        + " pod text, container text, exit_code int, reason text, message text,"
                                        + " log_tail text, ord int) ORDER BY a.ord"
                                        + " ON CONFLICT (job_id, pod, container) DO UPDATE SET exit_code = EXCLUDED.exit_code,"
                                        + " reason = EXCLUDED.reason, message = EXCLUDED.message, log_tail = EXCLUDED.log_tail,"
                                        + " archived_at = now()",
                                Json.write(rows)))
                .flatMap(n -> JobKubeEvents.archive(events))));
    }

    /** A container's end and the last lines of its log, as a row of the archive. */
    private Map<String, Object> archived(long jobId, String pod, ContainerStatus cs, int ord) {
        String log;
        try {
            log = logTail(pod, cs.getName(), ARCHIVED_LINES);
        } catch (KubernetesClientException e) {
            log = "";
        }
        var terminated = cs.getState() == null ? null : cs.getState().getTerminated();
        Map<String, Object> row = new HashMap<>();
        row.put("job_id", jobId);
        row.put("pod", pod);
        row.put("container", cs.getName());
        row.put("exit_code", terminated == null ? -1 : terminated.getExitCode());
        row.put("reason", terminated == null || terminated.getReason() == null ? "" : terminated.getReason());
        row.put("message", terminated == null || terminated.getMessage() == null ? "" : terminated.getMessage());
        // PostgreSQL's text holds no NUL character; a log may.
        row.put("log_tail", log == null ? "" : log.replace("\0", ""));
        row.put("ord", ord);
        return row;
    }

    /** Splits written bytes into lines. */
    static final class LineSplitter extends OutputStream {
        private final Consumer<String> sink;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        LineSplitter(Consumer<String> sink) {
            this.sink = sink;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                sink.accept(line.toString(StandardCharsets.UTF_8));
                line.reset();
            } else {
                line.write(b);
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
        }

        @Override
        public synchronized void flush() {
            if (line.size() > 0) {
                sink.accept(line.toString(StandardCharsets.UTF_8));
                line.reset();
            }
        }
    }
}
