package io.crater.job;

import io.crater.audit.AuditService;
import io.crater.cluster.ClusterCache;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.fabric8.kubernetes.api.model.Pod;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Who may reach into a running job's pod (terminal, SSH, app proxy), and which pod. Only the job's owner gets
 * through; a platform admin only by asking explicitly ("open as admin"), which is audited. Account admins may stop
 * a member's job but not act inside it: a shell in someone's pod acts with their files and credentials.
 */
@ApplicationScoped
public class PodAccess {

    /** {@code <task>-<index>}, as in the pod names Volcano gives ({@code <job>-<task>-<index>}). */
    private static final Pattern TASK_INDEX = Pattern.compile("^[a-z0-9]([a-z0-9-]{0,40}[a-z0-9])?-[0-9]{1,4}$");

    /**
     * A pod a caller may reach.
     *
     * @param pod the pod's name, {@code <volcano job>-<task>-<index>}
     * @param taskIndex {@code <task>-<index>}
     * @param asAdmin reached by a platform admin who is not the owner
     */
    public record Target(
            String job,
            String kind,
            String account,
            long ownerId,
            String namespace,
            String pod,
            String taskIndex,
            String container,
            boolean asAdmin) {}

    @Inject
    JobQueries queries;

    @Inject
    ClusterCache cache;

    @Inject
    AuditService audit;

    @Inject
    FeatureService features;

    /**
     * The pod of {@code job} named by {@code taskIndex} (the first running pod when null), if the caller may reach
     * it: 404 for a job or pod that does not exist or is not visible, 403 {@code NotJobOwner} for anyone but the
     * owner (and a platform admin asking {@code asAdmin}), 409 {@code JobNotRunning} / {@code PodNotRunning}.
     */
    public Uni<Target> resolve(String job, String taskIndex, Caller caller, boolean asAdmin) {
        return resolve(job, taskIndex, caller, asAdmin, true, false);
    }

    /**
     * {@link #resolve} for a shell in the pod (SSH, the web terminal): also 403 {@code FeatureDisabled} when the job's
     * account has {@code ssh} turned off.
     */
    public Uni<Target> resolveShell(String job, String taskIndex, Caller caller, boolean asAdmin) {
        return resolve(job, taskIndex, caller, asAdmin, true, true);
    }

    /**
     * {@link #resolve} for a request of an app session: opening it as admin was audited when its ticket was minted,
     * so the session's requests are not audited one by one.
     */
    public Uni<Target> resolveAppSession(String job, Caller caller, boolean asAdmin) {
        return resolve(job, null, caller, asAdmin, false, false);
    }

    private Uni<Target> resolve(
            String job, String taskIndex, Caller caller, boolean asAdmin, boolean audited, boolean shell) {
        if (taskIndex != null && !TASK_INDEX.matcher(taskIndex).matches()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidPod", "name the pod as <task>-<index>, e.g. main-0, not " + taskIndex, List.of()));
        }
        return Panache.withSession(() -> queries.visible(job, caller)
                .call(v -> shell
                        ? features.requireShell(v.row().accountId(), v.row().account())
                        : Uni.createFrom().voidItem())
                .flatMap(v -> {
                    boolean admin = !v.owner() && v.platformAdmin() && asAdmin;
                    if (!v.owner() && !admin) {
                        throw ApiException.forbidden(
                                "NotJobOwner",
                                v.platformAdmin()
                                        ? "only the job's owner may open it; a platform admin may open it as admin, which is audited"
                                        : "only the job's owner may open a terminal, an app or an SSH session in it");
                    }
                    if (!v.state().equals("Running")) {
                        throw new ApiException(
                                409,
                                "JobNotRunning",
                                "Conflict",
                                "the job is " + v.state() + "; only a running job can be reached",
                                null,
                                null,
                                null);
                    }
                    Target target = pick(v, taskIndex, admin);
                    if (!admin || !audited) {
                        return Uni.createFrom().item(target);
                    }
                    return Panache.withTransaction(() -> audit.record(
                                    caller.actor(target.account()),
                                    "job.open-as-admin",
                                    "job",
                                    job,
                                    null,
                                    Map.of("pod", target.pod())))
                            .replaceWith(target);
                }));
    }

    /** A job's pods as whoever may see the job sees them, and whether the caller may reach into them. */
    public record Reach(String job, String state, boolean owner, List<String> running) {}

    /** What {@link #resolve} would allow, without requiring the job to run: for the console's connect panel. */
    public Uni<Reach> reach(String job, Caller caller) {
        return Panache.withSession(() -> queries.visible(job, caller).map(v -> {
            String prefix = JobNames.volcanoName(job) + "-";
            List<String> running = cache.podsOfJob(job).stream()
                    .filter(PodAccess::running)
                    .map(p -> p.getMetadata().getName())
                    .filter(n -> n.startsWith(prefix))
                    .map(n -> n.substring(prefix.length()))
                    .sorted()
                    .toList();
            return new Reach(job, v.state(), v.owner(), running);
        }));
    }

    private Target pick(JobQueries.Visible v, String taskIndex, boolean admin) {
        String job = v.row().publicId();
        String prefix = JobNames.volcanoName(job) + "-";
        List<Pod> pods = cache.podsOfJob(job).stream()
                .filter(p -> p.getMetadata().getName().startsWith(prefix))
                .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .toList();
        Pod pod;
        if (taskIndex == null) {
            pod = pods.stream().filter(PodAccess::running).findFirst().orElse(null);
            if (pod == null) {
                throw new ApiException(
                        409, "PodNotRunning", "Conflict", "none of the job's pods is running yet", null, null, null);
            }
        } else {
            pod = pods.stream()
                    .filter(p -> p.getMetadata().getName().equals(prefix + taskIndex))
                    .findFirst()
                    .orElseThrow(() -> ApiException.notFound("the job has no pod " + taskIndex + "; it has "
                            + String.join(
                                    ", ",
                                    pods.stream()
                                            .map(p -> p.getMetadata().getName().substring(prefix.length()))
                                            .toList())));
            if (!running(pod)) {
                throw new ApiException(
                        409,
                        "PodNotRunning",
                        "Conflict",
                        "pod " + taskIndex + " is "
                                + (pod.getStatus() == null
                                        ? "Pending"
                                        : pod.getStatus().getPhase()),
                        null,
                        null,
                        null);
            }
        }
        return new Target(
                job,
                v.row().kind(),
                v.row().account(),
                v.row().userId(),
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(),
                pod.getMetadata().getName().substring(prefix.length()),
                "main",
                admin);
    }

    private static boolean running(Pod p) {
        return p.getStatus() != null && "Running".equals(p.getStatus().getPhase());
    }
}
