package io.crater.job;

import io.crater.cluster.NodeJobDirectory;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.List;

/** The jobs feature's side of {@link NodeJobDirectory}: the jobs with pods on a node, named for its detail page. */
@ApplicationScoped
class NodeJobLookup implements NodeJobDirectory {

    @Inject
    JobQueries queries;

    @Override
    public Uni<List<Named>> named(Collection<String> publicIds) {
        if (publicIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Panache.withSession(() -> Sql.rows(
                                JobQueries.SUMMARY + " WHERE j.public_id IN (SELECT unnest(string_to_array(?1, ',')))",
                                Sql.commaList(publicIds))
                        .flatMap(rows -> queries.named(
                                rows.stream().map(JobSummaryRow::of).toList())))
                .map(rows -> rows.stream()
                        .map(r -> new Named(r.publicId(), r.name(), r.state(), r.owner(), r.account()))
                        .toList());
    }
}
