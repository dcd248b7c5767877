package io.crater.identity;

import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The user a request speaks for, resolved from its token when first asked. */
@ApplicationScoped
public class CurrentUser {

    static final String ATTRIBUTE = "crater.user";

    @Inject
    CurrentIdentityAssociation identity;

    /** The signed-in user, or a 401 when the request carries no valid token. */
    public Uni<TokenService.TokenUser> require() {
        return identity.getDeferredIdentity().map(CurrentUser::userOf);
    }

    static TokenService.TokenUser userOf(SecurityIdentity id) {
        TokenService.TokenUser user = id == null || id.isAnonymous() ? null : id.getAttribute(ATTRIBUTE);
        if (user == null) {
            throw new UnauthorizedException();
        }
        return user;
    }

    public static boolean isAdmin(TokenService.TokenUser user) {
        return "admin".equals(user.role());
    }
}
