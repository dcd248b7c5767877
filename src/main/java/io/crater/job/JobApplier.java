package io.crater.job;

import io.crater.account.AccountService;
import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.ClusterConfig;
import io.crater.credential.CredentialService;
import io.crater.identity.UserService;
import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.crater.volcano.VolcanoJob;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns an admitted job into its Kubernetes objects. Idempotent: names come from the job id, so a retry after
 * a crash meets 409 and moves on. Runs on worker threads, never inside a database transaction.
 */
@ApplicationScoped
public class JobApplier {

    private static final SecureRandom RANDOM = new SecureRandom();
    /** The reclaimable Volcano Queue of backfill jobs. */
    static final String BACKFILL_QUEUE = "crater-backfill";

    @Inject
    KubernetesClient client;

    @Inject
    ClusterConfig cluster;

    @Inject
    JobsConfig config;

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    AccountService accounts;

    @Inject
    UserService users;

    @Inject
    CredentialService credentials;

    @Inject
    io.crater.assets.AssetMounts assetMounts;

    @Inject
    FeatureService features;

    @Inject
    LinkedMounts linked;

    @Inject
    BuildFiles buildFiles;

    /**
     * A job ready to apply: its row, owner, Volcano Queue, the datasets and models its pods mount, its account's
     * bandwidth caps, and the image it builds (null: none).
     */
    record Context(
            JobRow job,
            JobInputs.Owner owner,
            String queue,
            List<JobInputs.DataMount> mounts,
            JobInputs.Bandwidth bandwidth,
            BuildFiles.Build build) {

        /** Where its pods run. */
        JobInputs.Placement placement(String namespace, String queue, JobsConfig config) {
            return new JobInputs.Placement(
                    namespace, queue, config.sharedClaim(), config.ttlAfterFinished(), bandwidth);
        }
    }

    /** Reads the job and its owner (blocking; call from a worker thread). Empty when it should not run. */
    Optional<Context> load(long jobId) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(() ->
                Panache.withSession(() -> Sql.row("SELECT " + JobRow.COLUMNS + " FROM jobs j WHERE j.id = ?1", jobId)
                        .flatMap(r -> {
                            Optional<JobRow> job = r.map(JobRow::of);
                            if (job.isEmpty()
                                    || !job.get().state().equals("Admitted")
                                    || job.get().stopRequested()) {
                                return Uni.createFrom().item(Optional.<Context>empty());
                            }
                            return context(job.get()).map(Optional::of);
                        })));
    }

    /** The job with its owner and its account as the manifests need them, read through their features. */
    Uni<Context> context(JobRow job) {
        if (JobKind.IMAGEBUILD.id().equals(job.kind())) {
            return buildFiles.of(job.publicId()).flatMap(b -> context(job, b.orElse(null)));
        }
        return context(job, null);
    }

    private Uni<Context> context(JobRow job, BuildFiles.Build build) {
        return accounts.jobAccount(job.accountId(), job.userId())
                .flatMap(a -> users.get(job.userId())
                        .flatMap(u -> assetMounts
                                .of(job.id())
                                .map(JobMounts::forPods)
                                .flatMap(mounts -> JobKind.TENSORBOARD.id().equals(job.kind())
                                        ? linked.of(job.id()).map(more -> JobMounts.join(mounts, more))
                                        : Uni.createFrom().item(mounts))
                                .flatMap(mounts -> features.effective(job.accountId())
                                        .map(f -> {
                                            // A personal job runs with the primary group a directory gave its owner,
                                            // when it did.
                                            int gid =
                                                    "personal".equals(a.kind()) && u.gid() != null ? u.gid() : a.gid();
                                            JobInputs.Owner owner = new JobInputs.Owner(
                                                    job.accountId(),
                                                    a.slug(),
                                                    a.readOnly(),
                                                    job.userId(),
                                                    u.slug(),
                                                    u.uid(),
                                                    gid);
                                            String queue = "personal".equals(a.kind())
                                                    ? "crater-personal"
                                                    : "crater-" + a.slug();
                                            return new Context(job, owner, queue, mounts, f.bandwidth(), build);
                                        }))));
    }

    /** Whether the job was asked to stop or has ended (blocking; call from a worker thread). */
    boolean stopRequested(long jobId) throws Throwable {
        List<Object[]> rows = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.rows(
                "SELECT stop_requested OR state IN ('Succeeded', 'Failed', 'Stopped', 'Rejected') FROM jobs WHERE id = ?1",
                jobId)));
        return rows.isEmpty() || Boolean.TRUE.equals(rows.get(0)[0]);
    }

    /** Creates the Volcano Job, then its companions owned by it. */
    void apply(Context ctx) {
        JobViews.SubmitJob submitted = Json.read(ctx.job().specJson(), JobViews.SubmitJob.class);
        JobSpecs.Checked checked = JobSpecs.check(submitted, catalogue.models(), config);
        JobInputs.Spec spec = checked.spec().withPublicId(ctx.job().publicId()).withDataMounts(ctx.mounts());
        JobInputs.Placement placement =
                ctx.placement(cluster.namespace(), checked.backfill() ? BACKFILL_QUEUE : ctx.queue(), config);
        byte[] token = new byte[24];
        RANDOM.nextBytes(token);
        JobManifests.Manifests m = JobManifests.build(
                spec,
                ctx.owner(),
                placement,
                Base64.getUrlEncoder().withoutPadding().encodeToString(token),
                credentialValues(ctx.job().userId(), spec));
        if (ctx.build() != null) {
            m = BuildManifests.with(m, spec, ctx.owner(), placement, ctx.build(), registryLogin(ctx));
        }
        VolcanoJob created;
        try {
            created = client.resources(VolcanoJob.class)
                    .inNamespace(cluster.namespace())
                    .resource(m.volcanoJob())
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            created = client.resources(VolcanoJob.class)
                    .inNamespace(cluster.namespace())
                    .withName(m.volcanoJob().getMetadata().getName())
                    .get();
        }
        for (HasMetadata companion : m.companions()) {
            companion
                    .getMetadata()
                    .setOwnerReferences(List.of(new OwnerReferenceBuilder()
                            .withApiVersion(created.getApiVersion())
                            .withKind(created.getKind())
                            .withName(created.getMetadata().getName())
                            .withUid(created.getMetadata().getUid())
                            .withController(true)
                            .withBlockOwnerDeletion(true)
                            .build()));
            try {
                client.resource(companion).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
            }
        }
    }

    /**
     * The values of the credentials the job references, read as it is applied (a value replaced while the job
     * waited is the new one; a credential deleted meanwhile leaves its key out and Kubernetes refuses to start the
     * container).
     */
    private Map<String, String> credentialValues(long userId, JobInputs.Spec spec) {
        if (spec.credentialEnv().isEmpty()) {
            return Map.of();
        }
        try {
            return VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(
                    () -> credentials.reveal(userId, spec.credentialEnv().values())));
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("reading the job's credentials failed", e);
        }
    }

    /**
     * The build's registry login as Docker's {@code config.json}, read as it is applied; null when it names no
     * credential or the owner has deleted it meanwhile (the push then goes without a login and is refused).
     */
    private String registryLogin(Context ctx) {
        if (ctx.build().credential() == null) {
            return null;
        }
        try {
            return VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> credentials
                    .reveal(ctx.job().userId(), List.of(ctx.build().credential()))
                    .flatMap(values -> credentials
                            .registryUsername(ctx.job().userId(), ctx.build().credential())
                            .map(user -> {
                                String secret = values.get(ctx.build().credential());
                                return secret == null || user.isEmpty()
                                        ? "{\"auths\":{}}"
                                        : io.crater.policy.ImageBuilds.dockerConfig(
                                                ctx.build().registryHost(), user.get(), secret);
                            }))));
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("reading the build's registry login failed", e);
        }
    }

    /** Deletes the job's Volcano Job; its pods and companions follow by owner references. */
    void delete(String publicId) {
        client.resources(VolcanoJob.class)
                .inNamespace(cluster.namespace())
                .withName(JobNames.volcanoName(publicId))
                .delete();
    }
}
