package io.crater.identity;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Turns a verified access token into the request's identity: username, platform role, user id. */
@ApplicationScoped
public class TokenIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    @Inject
    TokenService tokens;

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(
            TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        try {
            TokenService.TokenUser user = tokens.verify(request.getToken().getToken());
            return Uni.createFrom()
                    .item(QuarkusSecurityIdentity.builder()
                            .setPrincipal(new QuarkusPrincipal(user.username()))
                            .addRole(user.role())
                            .addAttribute(CurrentUser.ATTRIBUTE, user)
                            .build());
        } catch (TokenService.InvalidTokenException e) {
            return Uni.createFrom().failure(new AuthenticationFailedException("invalid or expired token"));
        }
    }
}
