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

    @Inject
    io.quarkus.vertx.http.runtime.CurrentVertxRequest request;

    /** The signed-in user, or a 401 when the request carries no valid token. */
    public Uni<TokenService.TokenUser> require() {
        return identity.getDeferredIdentity().map(this::userOf);
    }

    /** The signed-in user with the client address, or a 401. */
    public Uni<Caller> caller() {
        String address = clientAddress();
        return require().map(u -> new Caller(u, address));
    }

    /** The address the request came from. */
    public String clientAddress() {
        var rc = request.getCurrent();
        return rc == null || rc.request().remoteAddress() == null
                ? "unknown"
                : rc.request().remoteAddress().hostAddress();
    }

    /** The user of an already resolved identity, or a 401. */
    public TokenService.TokenUser userOf(SecurityIdentity id) {
        TokenService.TokenUser user = id == null || id.isAnonymous() ? null : id.getAttribute(ATTRIBUTE);
        if (user == null) {
            throw new UnauthorizedException();
        }
        return user;
    }

    /** The user of a resolved identity, or null when it is anonymous or carries none. */
    public static TokenService.TokenUser of(SecurityIdentity id) {
        return id == null || id.isAnonymous() ? null : id.getAttribute(ATTRIBUTE);
    }

    public static boolean isAdmin(TokenService.TokenUser user) {
        return "admin".equals(user.role());
    }
}
