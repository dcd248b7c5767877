package io.crater.job;

import io.crater.cluster.CatalogueUses;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Jobs name a model in their requests, whatever their state: history and bills keep naming it. */
@ApplicationScoped
public class JobCatalogueUses implements CatalogueUses {

    @Override
    public Uni<List<Use>> of(String key) {
        return Sql.count("SELECT count(DISTINCT job_id) FROM job_requests WHERE resource = ?1", key)
                .map(n -> List.of(new Use("jobs", n)));
    }
}
