package io.crater.approval;

import io.crater.job.ModelAccess;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Access to restricted models as approvals grant it. */
@ApplicationScoped
public class ModelAccessGrants implements ModelAccess {

    @Override
    public Uni<Boolean> granted(long accountId, String model) {
        return Sql.count(
                        "SELECT count(*) FROM approvals WHERE kind = 'model-access' AND state = 'approved'"
                                + " AND account_id = ?1 AND model = ?2",
                        accountId,
                        model)
                .map(n -> n > 0);
    }
}
