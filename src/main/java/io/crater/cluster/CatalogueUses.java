package io.crater.cluster;

import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * A feature that names accelerator models by key in its own rows (jobs, quotas, member limits, approvals, prices).
 * A model something uses cannot be deleted, only retired: deleting it would leave those rows naming nothing. Each
 * feature implements this over its own tables, so the catalogue reads no other feature's SQL.
 */
public interface CatalogueUses {

    /** One use: what names the model ({@code jobs}, {@code quotas}, ...) and how many of them. */
    record Use(String what, long count) {}

    /** What of this feature names {@code key}; empty when nothing does. Runs inside the caller's session. */
    Uni<List<Use>> of(String key);
}
