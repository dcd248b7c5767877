package io.crater.account;

import io.crater.identity.CurrentUser;
import io.crater.identity.TokenService;
import io.crater.platform.ApiException;
import io.crater.platform.OnContext;
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

    @Inject
    AccountService accounts;

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
            TokenService.TokenUser user = CurrentUser.of(id);
            Uni<Boolean> isMember = user == null
                    ? Uni.createFrom().item(false)
                    : Panache.withSession(() -> accounts.isMember(slug.trim(), user.id()));
            return OnContext.run(() -> isMember.map(member -> {
                if (!member) {
                    throw ApiException.forbidden(
                            "NotAMember", "you are not a member of account '" + slug.trim() + "' (" + HEADER + ")");
                }
                return null;
            }));
        });
    }
}
