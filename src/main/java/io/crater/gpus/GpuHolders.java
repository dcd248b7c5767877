package io.crater.gpus;

import io.crater.account.AccountService;
import io.crater.cluster.ClusterCache;
import io.crater.identity.Caller;
import io.crater.identity.MeResource;
import io.crater.identity.UserAccounts;
import io.crater.identity.UserService;
import io.crater.job.JobNames;
import io.crater.job.JobQueries;
import io.fabric8.kubernetes.api.model.Pod;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who holds the held cards, as the caller may see it. A pod is a Crater job's when its name carries a public id
 * ({@code c-<id>-…}) and the cluster cache holds it with that job's labels (account and owner ids). The caller sees
 * the job when it is their own, of an account they administer, or when they are a platform admin; names come from
 * the account and identity features, the job's display name from the job feature (kept, as it never changes).
 */
@ApplicationScoped
class GpuHolders {

    private static final int NAMES_KEPT = 10_000;

    @Inject
    ClusterCache cache;

    @Inject
    AccountService accounts;

    @Inject
    UserService users;

    @Inject
    UserAccounts memberships;

    @Inject
    JobQueries jobs;

    private final Map<String, String> jobNames = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > NAMES_KEPT;
        }
    });

    /** A held pod that is a Crater job's. */
    record PodJob(String namespace, String pod, String publicId, long accountId, long userId) {}

    /** The holders of the held cards' pods, by {@code namespace/pod}. */
    Uni<Map<String, GpuViews.Holder>> of(List<CardReading> cards, Caller caller) {
        Map<String, GpuViews.Holder> out = new HashMap<>();
        Map<String, PodJob> jobsByPod = podJobs(cards, caller, out);
        if (jobsByPod.isEmpty()) {
            return Uni.createFrom().item(out);
        }
        Set<Long> accountIds =
                jobsByPod.values().stream().map(PodJob::accountId).collect(Collectors.toSet());
        return Panache.withSession(() -> accounts.slugs(accountIds)
                .flatMap(slugs -> administered(caller).flatMap(adminOf -> {
                    Map<String, PodJob> shown = new LinkedHashMap<>();
                    jobsByPod.forEach((key, j) -> {
                        if (visible(j, slugs.get(j.accountId()), caller, adminOf)) {
                            shown.put(key, j);
                        } else {
                            out.put(key, GpuViews.Holder.hidden());
                        }
                    });
                    Set<Long> owners =
                            shown.values().stream().map(PodJob::userId).collect(Collectors.toSet());
                    return users.usernames(owners)
                            .flatMap(names -> names(shown.values(), caller).map(jobNamesNow -> {
                                shown.forEach((key, j) -> out.put(
                                        key,
                                        new GpuViews.Holder(
                                                j.publicId(),
                                                jobNamesNow.get(j.publicId()),
                                                slugs.get(j.accountId()),
                                                names.get(j.userId()),
                                                null,
                                                null,
                                                false)));
                                return out;
                            }));
                })));
    }

    /**
     * The Crater jobs of the held cards' pods, by {@code namespace/pod}; the holders of the other pods go into
     * {@code out} at once (their pod for a platform admin, hidden for anyone else).
     */
    private Map<String, PodJob> podJobs(List<CardReading> cards, Caller caller, Map<String, GpuViews.Holder> out) {
        Map<String, PodJob> jobsByPod = new LinkedHashMap<>();
        for (CardReading c : cards) {
            if (!c.held()) {
                continue;
            }
            String key = c.namespace() + "/" + c.pod();
            Optional<PodJob> job = podJob(c.namespace(), c.pod());
            if (job.isPresent()) {
                jobsByPod.put(key, job.get());
            } else {
                out.put(
                        key,
                        caller.platformAdmin()
                                ? new GpuViews.Holder(null, null, null, null, c.namespace(), c.pod(), false)
                                : GpuViews.Holder.hidden());
            }
        }
        return jobsByPod;
    }

    /** Own job, an account the caller administers, or a platform admin. */
    static boolean visible(PodJob job, String accountSlug, Caller caller, Set<String> administered) {
        return caller.platformAdmin()
                || job.userId() == caller.userId()
                || (accountSlug != null && administered.contains(accountSlug));
    }

    /** The slugs of the accounts the caller administers (none needed for a platform admin). */
    private Uni<Set<String>> administered(Caller caller) {
        if (caller.platformAdmin()) {
            return Uni.createFrom().item(Set.of());
        }
        return memberships
                .of(caller.userId())
                .map(list -> list.stream()
                        .filter(m -> "admin".equals(m.role()))
                        .map(MeResource.Membership::slug)
                        .collect(Collectors.toSet()));
    }

    /** The display names of these jobs, read once per job (a job that cannot be read keeps no name). */
    private Uni<Map<String, String>> names(java.util.Collection<PodJob> shown, Caller caller) {
        Set<String> missing = new LinkedHashSet<>();
        shown.forEach(j -> {
            if (!jobNames.containsKey(j.publicId())) {
                missing.add(j.publicId());
            }
        });
        Uni<Void> loaded = Uni.createFrom().voidItem();
        for (String id : missing) {
            loaded = loaded.flatMap(v -> jobs.detail(id, caller)
                    .map(d -> {
                        jobNames.put(id, d.job().name());
                        return d;
                    })
                    .onFailure()
                    .recoverWithNull()
                    .replaceWithVoid());
        }
        return loaded.map(v -> {
            Map<String, String> now = new HashMap<>();
            shown.forEach(j -> now.put(j.publicId(), jobNames.get(j.publicId())));
            return now;
        });
    }

    /** The Crater job of a pod, from the public id in its name and the labels the cluster cache holds. */
    Optional<PodJob> podJob(String namespace, String pod) {
        String id = publicIdOf(pod);
        if (id == null) {
            return Optional.empty();
        }
        for (Pod p : cache.podsOfJob(id)) {
            if (pod.equals(p.getMetadata().getName())
                    && namespace != null
                    && namespace.equals(p.getMetadata().getNamespace())) {
                Map<String, String> labels = p.getMetadata().getLabels();
                Long account = number(labels.get(JobNames.ACCOUNT_ID));
                Long user = number(labels.get(JobNames.USER_ID));
                if (account != null && user != null) {
                    return Optional.of(new PodJob(namespace, pod, id, account, user));
                }
            }
        }
        return Optional.empty();
    }

    /** {@code j7k3f9} of {@code c-j7k3f9-main-0}; null when the name carries no public id. */
    static String publicIdOf(String pod) {
        if (pod == null || !pod.startsWith(JobNames.PREFIX)) {
            return null;
        }
        int end = pod.indexOf('-', JobNames.PREFIX.length());
        String id = pod.substring(JobNames.PREFIX.length(), end < 0 ? pod.length() : end);
        return JobNames.isPublicId(id) ? id : null;
    }

    private static Long number(String s) {
        try {
            return s == null ? null : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
