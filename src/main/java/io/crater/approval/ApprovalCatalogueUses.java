package io.crater.approval;

import io.crater.cluster.CatalogueUses;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Approvals name a model as a quota grant's resource or as the model access is asked for. */
@ApplicationScoped
public class ApprovalCatalogueUses implements CatalogueUses {

    @Override
    public Uni<List<Use>> of(String key) {
        return Sql.count("SELECT count(*) FROM approvals WHERE resource = ?1 OR model = ?1", key)
                .map(n -> List.of(new Use("approvals", n)));
    }
}
