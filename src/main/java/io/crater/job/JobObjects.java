package io.crater.job;

import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.ClusterConfig;
import io.crater.identity.Caller;
import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** What a job became in Kubernetes, rebuilt from its stored spec by the same pure builder, for people to read. */
@ApplicationScoped
public class JobObjects {

    @Inject
    JobQueries queries;

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    JobsConfig config;

    @Inject
    JobApplier applier;

    @Inject
    ClusterConfig cluster;

    /** The objects the job became, rebuilt from its stored spec by the same pure builder (Secret values withheld). */
    public Uni<JobViews.Manifests> manifests(String publicId, Caller caller) {
        return Panache.withSession(() -> queries.visible(publicId, caller)
                .flatMap(v -> Sql.row("SELECT " + JobRow.COLUMNS + " FROM jobs j WHERE j.id = ?1", v.id()))
                .flatMap(r -> applier.context(JobRow.of(r.orElseThrow())))
                .map(ctx -> {
                    JobViews.SubmitJob spec = Json.read(ctx.job().specJson(), JobViews.SubmitJob.class);
                    JobSpecs.Checked checked = JobSpecs.check(spec, catalogue.models(), config);
                    String queue = checked.backfill() ? JobApplier.BACKFILL_QUEUE : ctx.queue();
                    JobInputs.Spec s = checked.spec().withPublicId(publicId).withDataMounts(ctx.mounts());
                    JobInputs.Placement placement = ctx.placement(cluster.namespace(), queue, config);
                    JobManifests.Manifests m = JobManifests.build(s, ctx.owner(), placement, "<withheld>");
                    if (ctx.build() != null) {
                        // The registry login is withheld like every Secret's value.
                        m = BuildManifests.with(m, s, ctx.owner(), placement, ctx.build(), null);
                    }
                    return new JobViews.Manifests(yaml(m));
                }));
    }

    /**
     * The objects a dry run of a submission into the account would create, as YAML (the job's id and Secret made up;
     * no UID or GID yet).
     */
    String dryRun(
            JobSpecs.Checked checked,
            long accountId,
            String slug,
            String accountKind,
            FeatureService.EffectiveFeatures features,
            Caller caller,
            java.util.List<io.crater.assets.AssetMounts.Resolved> mounts) {
        JobInputs.Spec spec = checked.spec().withPublicId("jdryrun0").withDataMounts(JobMounts.forDryRun(mounts));
        JobInputs.Owner owner = new JobInputs.Owner(
                accountId, slug, false, caller.userId(), caller.user().username(), 0, 0);
        String queue = checked.backfill()
                ? JobApplier.BACKFILL_QUEUE
                : "personal".equals(accountKind) ? "crater-personal" : "crater-" + slug;
        JobInputs.Placement placement = new JobInputs.Placement(
                cluster.namespace(), queue, config.sharedClaim(), config.ttlAfterFinished(), features.bandwidth());
        return yaml(JobManifests.build(spec, owner, placement, "<generated at start>"));
    }

    /** The objects as YAML documents, the Volcano Job first. */
    static String yaml(JobManifests.Manifests m) {
        StringBuilder yaml = new StringBuilder(Serialization.asYaml(m.volcanoJob()));
        for (HasMetadata o : m.companions()) {
            yaml.append(Serialization.asYaml(o));
        }
        return yaml.toString();
    }
}
