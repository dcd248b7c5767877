package io.crater.identity;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

/**
 * Reads Crater's access token from {@code Authorization: Bearer …}, else from the console's HttpOnly cookie. Under
 * {@code /dav/} (WebDAV, docs/storage.md) the cookie is never read, so no web page can drive it, and a personal
 * access token may also come as the password of {@code Authorization: Basic}, which is what mounting clients send.
 */
@ApplicationScoped
public class TokenAuthMechanism implements HttpAuthenticationMechanism {

    /** Where WebDAV is served. */
    public static final String DAV = "/dav/";

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String header = context.request().getHeader("Authorization");
        if (context.request().path().startsWith(DAV)) {
            return dav(header, identityProviderManager);
        }
        String token = null;
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            token = header.substring(7).trim();
        } else {
            Cookie cookie = context.request().getCookie(AuthResource.ACCESS_COOKIE);
            if (cookie != null && !cookie.getValue().isEmpty()) {
                token = cookie.getValue();
            }
        }
        if (token == null || token.isEmpty()) {
            return Uni.createFrom().nullItem();
        }
        return identityProviderManager.authenticate(
                new TokenAuthenticationRequest(new TokenCredential(token, "bearer")));
    }

    /**
     * WebDAV's credentials: a bearer token, or Basic with a personal access token as the password and either no
     * username or the token's user's.
     */
    private static Uni<SecurityIdentity> dav(String header, IdentityProviderManager identityProviderManager) {
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String token = header.substring(7).trim();
            return token.isEmpty()
                    ? Uni.createFrom().nullItem()
                    : identityProviderManager.authenticate(
                            new TokenAuthenticationRequest(new TokenCredential(token, "bearer")));
        }
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Uni.createFrom().nullItem();
        }
        String pair;
        try {
            pair = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().failure(new AuthenticationFailedException("malformed Basic credentials"));
        }
        int colon = pair.indexOf(':');
        String username = colon < 0 ? "" : pair.substring(0, colon);
        String password = colon < 0 ? pair : pair.substring(colon + 1);
        if (!password.startsWith(AccessTokens.PREFIX)) {
            return Uni.createFrom()
                    .failure(new AuthenticationFailedException("the password must be a personal access token"));
        }
        return identityProviderManager
                .authenticate(new TokenAuthenticationRequest(new TokenCredential(password, "bearer")))
                .onItem()
                .transform(id -> {
                    if (!username.isEmpty()
                            && !username.equals(id.getPrincipal().getName())) {
                        throw new AuthenticationFailedException("the username is not the token's user");
                    }
                    return id;
                });
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        String scheme = context.request().path().startsWith(DAV) ? "Basic" : "Bearer";
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", scheme + " realm=\"crater\""));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(TokenAuthenticationRequest.class);
    }
}
