package io.crater.job;

import io.crater.cluster.ClusterConfig;
import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes events about Crater's objects in the job namespace (the Volcano Job, its PodGroup, pods, Service),
 * held by an informer and indexed by job id, which every object's name carries ({@code c-<id>...}). At a job's
 * end they are copied to {@code job_events}, so the detail still shows them once the cluster has forgotten them.
 */
@ApplicationScoped
public class JobKubeEvents {

    private static final String BY_JOB = "job";

    @Inject
    KubernetesClient client;

    @Inject
    ClusterConfig cluster;

    private SharedIndexInformer<Event> informer;

    void onStart(@Observes @Priority(72) StartupEvent event) {
        informer = client.v1().events().inNamespace(cluster.namespace()).runnableInformer(0);
        informer.addIndexers(Map.of(BY_JOB, e -> {
            String id = jobOf(
                    e.getInvolvedObject() == null ? null : e.getInvolvedObject().getName());
            return id == null ? List.of() : List.of(id);
        }));
        informer.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        if (informer != null) {
            informer.close();
        }
    }

    /** The job id in an object name made by Crater ({@code c-<id>} or {@code c-<id>-...}); null otherwise. */
    static String jobOf(String objectName) {
        if (objectName == null || !objectName.startsWith(JobNames.PREFIX)) {
            return null;
        }
        String rest = objectName.substring(JobNames.PREFIX.length());
        int dash = rest.indexOf('-');
        String id = dash < 0 ? rest : rest.substring(0, dash);
        return JobNames.isPublicId(id) ? id : null;
    }

    /** The job's events as the cluster holds them now, oldest first. */
    List<JobViews.JobEvent> live(String publicId) {
        if (informer == null) {
            return List.of();
        }
        return informer.getIndexer().byIndex(BY_JOB, publicId).stream()
                .map(JobKubeEvents::view)
                .sorted(Comparator.comparing(JobViews.JobEvent::at))
                .toList();
    }

    static JobViews.JobEvent view(Event e) {
        String at = e.getLastTimestamp() != null
                ? e.getLastTimestamp()
                : e.getEventTime() != null ? e.getEventTime().getTime() : e.getFirstTimestamp();
        Instant when;
        try {
            when = at == null ? Instant.EPOCH : Instant.parse(at);
        } catch (RuntimeException ex) {
            when = Instant.EPOCH;
        }
        var o = e.getInvolvedObject();
        return new JobViews.JobEvent(
                when,
                e.getType() == null ? "Normal" : e.getType(),
                e.getReason() == null ? "" : e.getReason(),
                o == null ? "" : o.getKind() + "/" + o.getName(),
                e.getMessage() == null ? "" : e.getMessage(),
                e.getCount() == null ? 1 : e.getCount());
    }

    /**
     * The finished jobs' events as the cluster holds them now, as rows of {@code job_events}: one per job, object,
     * reason and message (the latest, as the table keeps them), oldest first.
     */
    List<Map<String, Object>> archived(List<JobLogs.Finished> jobs) {
        Map<List<Object>, Map<String, Object>> rows = new LinkedHashMap<>();
        for (JobLogs.Finished job : jobs) {
            for (JobViews.JobEvent e : live(job.publicId())) {
                List<Object> key = List.of(job.jobId(), e.object(), e.reason(), e.message());
                Map<String, Object> row = new HashMap<>();
                row.put("job_id", job.jobId());
                row.put("at", e.at().toString());
                row.put("type", e.type());
                row.put("reason", e.reason());
                row.put("object", e.object());
                row.put("message", e.message());
                row.put("count", e.count());
                rows.remove(key);
                rows.put(key, row);
            }
        }
        return new ArrayList<>(rows.values());
    }

    /** Copies events as {@link #archived} gives them to the database, in the caller's transaction: one statement. */
    static Uni<Integer> archive(List<Map<String, Object>> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        for (int i = 0; i < rows.size(); i++) {
            rows.get(i).put("ord", i);
        }
        return Sql.update(
                "INSERT INTO job_events (job_id, at, type, reason, object, message, count)"
                        + " SELECT e.job_id, e.at, e.type, e.reason, e.object, e.message, e.count"
                        + " FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb)) AS e(job_id bigint, at timestamptz,"
                        + " type text, reason text, object text, message text, count int, ord int) ORDER BY e.ord"
                        + " ON CONFLICT (job_id, object, reason, message) DO UPDATE SET at = EXCLUDED.at, count = EXCLUDED.count",
                Json.write(rows));
    }
}
