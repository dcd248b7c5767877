package io.crater.account;

import io.crater.cluster.CatalogueUses;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Accounts name a model in their quotas and in member limits. */
@ApplicationScoped
public class AccountCatalogueUses implements CatalogueUses {

    @Override
    public Uni<List<Use>> of(String key) {
        return Sql.count("SELECT count(*) FROM quotas WHERE resource = ?1", key)
                .flatMap(quotas -> Sql.count("SELECT count(*) FROM member_limit_resources WHERE resource = ?1", key)
                        .map(limits -> List.of(new Use("quotas", quotas), new Use("member limits", limits))));
    }
}
