package io.crater.account;

import io.crater.platform.ApiException;
import io.crater.platform.OnContext;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The current account travels in {@code X-Crater-Account}; on every signed-in call naming one, membership is
 * checked (platform admins may act in any account). A caller who is not a member gets 403 and nothing runs.
 */
public class AccountHeaderFilter {

    public static final String HEADER = "X-Crater-Account";

    @Inject
    CurrentIdentityAssociation identity;

    @ServerRequestFilter
    public Uni<Void> check(ContainerRequestContext ctx) {
        String slug = ctx.getHeaderString(HEADER);
        if (slug == null || slug.isBlank() || !ctx.getUriInfo().getPath().startsWith("/api/")) {
            return Uni.createFrom().voidItem();
        }
        return identity.getDeferredIdentity().onFailure().recoverWithNull().flatMap(id -> {
            if (id == null || id.isAnonymous() || id.hasRole("admin")) {
                return Uni.createFrom().voidItem();
            }
            return OnContext.run(() -> Panache.withSession(() -> Sql.count(
                            "SELECT count(*) FROM account_members m JOIN accounts a ON a.id = m.account_id"
                                    + " JOIN users u ON u.id = m.user_id WHERE a.slug = ?1 AND lower(u.username) = lower(?2)",
                            slug.trim(),
                            id.getPrincipal().getName()))
                    .map(n -> {
                        if (n == 0) {
                            throw ApiException.forbidden(
                                    "NotAMember",
                                    "you are not a member of account '" + slug.trim() + "' (" + HEADER + ")");
                        }
                        return null;
                    }));
        });
    }
}
