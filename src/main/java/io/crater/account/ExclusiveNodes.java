package io.crater.account;

import io.crater.cluster.ClusterViews;
import io.crater.cluster.NodeAdminService;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * Account-exclusive nodes (docs/nodes.md): a platform admin gives a node to one team account. The node carries that
 * account's taint, which only its jobs tolerate, so admission counts it as capacity for that account alone.
 */
@ApplicationScoped
public class ExclusiveNodes {

    @Inject
    AccountService accounts;

    @Inject
    NodeAdminService nodes;

    /** Which account a node is to be exclusive to. */
    public record ExclusiveRequest(String account) {}

    public Uni<ClusterViews.NodeView> give(String node, ExclusiveRequest req, Caller caller) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only platform administrators administer nodes");
        }
        String slug = req == null || req.account() == null ? "" : req.account().strip();
        if (slug.isEmpty()) {
            throw ApiException.badRequest(
                    "InvalidExclusive",
                    "name the account the node is to be exclusive to",
                    List.of(new Problem.FieldError("account", "required")));
        }
        return Panache.withSession(() -> accounts.bySlug(slug)).flatMap(a -> {
            if (!"team".equals(a.kind())) {
                throw ApiException.badRequest(
                        "InvalidExclusive",
                        "only a team account can have exclusive nodes; '" + slug + "' is personal",
                        List.of(new Problem.FieldError("account", "a team account")));
            }
            if (a.archivedAt() != null) {
                throw ApiException.conflict("AccountArchived", "account '" + slug + "' is archived");
            }
            return nodes.exclusive(node, a.id(), a.slug(), caller);
        });
    }

    public Uni<ClusterViews.NodeView> share(String node, Caller caller) {
        return nodes.shared(node, caller);
    }
}
