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

    @Inject
    AccessTokens accessTokens;

    private static SecurityIdentity identity(TokenService.TokenUser user) {
        return QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(user.username()))
                .addRole(user.role())
                .addAttribute(CurrentUser.ATTRIBUTE, user)
                .build();
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(
            TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        String token = request.getToken().getToken();
        if (token.startsWith(AccessTokens.PREFIX)) {
            return accessTokens
                    .authenticate(token)
                    .onItem()
                    .ifNull()
                    .failWith(() -> new AuthenticationFailedException("invalid, expired or revoked access token"))
                    .map(TokenIdentityProvider::identity);
        }
        try {
            return Uni.createFrom().item(identity(tokens.verify(token)));
        } catch (TokenService.InvalidTokenException e) {
            return Uni.createFrom().failure(new AuthenticationFailedException("invalid or expired token"));
        }
    }
}
