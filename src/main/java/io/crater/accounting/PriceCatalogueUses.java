package io.crater.accounting;

import io.crater.cluster.CatalogueUses;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** The price book names a model in its prices (a price is never removed: settled usage keeps it). */
@ApplicationScoped
public class PriceCatalogueUses implements CatalogueUses {

    @Override
    public Uni<List<Use>> of(String key) {
        return Sql.count("SELECT count(*) FROM prices WHERE resource = ?1", key)
                .map(n -> List.of(new Use("prices", n)));
    }
}
