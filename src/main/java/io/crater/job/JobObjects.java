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
    ClusterConfig cluster;

    /** The objects the job became, rebuilt from its stored spec by the same pure builder (Secret values withheld). */
    public Uni<JobViews.Manifests> manifests(String publicId, Caller caller) {
        return Panache.withSession(() -> queries.visible(publicId, caller)
                .flatMap(v -> Sql.rows(
                                "SELECT CAST(j.spec AS text), a.slug, a.kind, a.gid, u.slug, u.uid, COALESCE(m.file_access, 'rw')"
                                        + " FROM jobs j JOIN accounts a ON a.id = j.account_id JOIN users u ON u.id = j.user_id"
                                        + " LEFT JOIN account_members m ON m.account_id = j.account_id AND m.user_id = j.user_id WHERE j.id = ?1",
                                v.id())
                        .map(rows -> {
                            Object[] r = rows.get(0);
                            JobViews.SubmitJob spec = Json.read((String) r[0], JobViews.SubmitJob.class);
                            JobSpecs.Checked checked = JobSpecs.check(spec, catalogue.models(), config);
                            JobInputs.Owner owner = new JobInputs.Owner(
                                    Sql.longOf(v.row()[13]),
                                    (String) r[1],
                                    "ro".equals(r[6]),
                                    Sql.longOf(v.row()[12]),
                                    (String) r[4],
                                    ((Number) r[5]).intValue(),
                                    ((Number) r[3]).intValue());
                            String queue = checked.backfill()
                                    ? JobApplier.BACKFILL_QUEUE
                                    : "personal".equals(r[2]) ? "crater-personal" : "crater-" + r[1];
                            return new JobViews.Manifests(yaml(JobManifests.build(
                                    checked.spec().withPublicId(publicId),
                                    owner,
                                    new JobInputs.Placement(
                                            cluster.namespace(),
                                            queue,
                                            config.sharedClaim(),
                                            config.ttlAfterFinished()),
                                    "<withheld>")));
                        })));
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
