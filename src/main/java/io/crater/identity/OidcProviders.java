package io.crater.identity;

import com.nimbusds.jose.jwk.JWKSet;
import io.crater.platform.ApiException;
import io.crater.policy.DirectorySync;
import io.crater.policy.OidcProfile;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The configured OpenID providers and what Crater learns from them: the discovery document
 * ({@code /.well-known/openid-configuration}, cached for an hour) and the signing keys (JWKS, cached, read again
 * when a token names a key id the cached set lacks, at most every 30 s). Every call goes through Vert.x's web client,
 * on the event loop, with timeouts.
 */
@ApplicationScoped
class OidcProviders {

    private static final Logger LOG = Logger.getLogger(OidcProviders.class);
    private static final Duration METADATA_TTL = Duration.ofHours(1);
    private static final Duration KEYS_MIN_INTERVAL = Duration.ofSeconds(30);
    private static final long TIMEOUT_MS = 10_000;

    /** What the discovery document says, the parts Crater uses. */
    record Metadata(
            String issuer,
            String authorizationEndpoint,
            String tokenEndpoint,
            String userinfoEndpoint,
            String jwksUri) {}

    private record Cached<T>(T value, Instant at) {}

    @Inject
    OidcConfig config;

    @Inject
    Vertx vertx;

    @Inject
    Clock clock;

    private volatile WebClient web;
    private final Map<String, Cached<Metadata>> metadata = new ConcurrentHashMap<>();
    private final Map<String, Cached<JWKSet>> keys = new ConcurrentHashMap<>();

    /** Checks the settings at start, so a mistake stops Crater with the key's name rather than every sign-in. */
    void onStart(@Observes StartupEvent event) {
        List<String> problems = problems(config);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("OpenID Connect sign-in is misconfigured: " + String.join("; ", problems));
        }
        config.providers()
                .forEach((name, p) -> LOG.infof(
                        "OpenID Connect sign-in: %s at %s, %d group mapping(s)",
                        name, p.issuer(), p.groups().size()));
    }

    /** What is wrong with the settings, key by key. */
    static List<String> problems(OidcConfig c) {
        List<String> out = new ArrayList<>();
        c.providers().forEach((name, p) -> {
            String key = "crater.oidc.providers." + name;
            if (!name.matches("^[a-z0-9][a-z0-9-]{0,31}$")) {
                out.add(key + ": the name must be 1 to 32 lowercase letters, digits or '-'");
            }
            if (!issuerAllowed(p.issuer())) {
                out.add(key + ".issuer must be an https:// URL (http:// only for localhost or 127.0.0.1)");
            }
            if (p.clientId().isBlank()) {
                out.add(key + ".client-id must not be empty");
            }
            if (!List.of(p.scopes().split("\\s+")).contains("openid")) {
                out.add(key + ".scopes must include openid");
            }
            p.groups().forEach((id, g) -> {
                if (!"member".equals(g.role()) && !"admin".equals(g.role())) {
                    out.add(key + ".groups." + id + ".role must be member or admin");
                }
            });
        });
        return out;
    }

    static boolean issuerAllowed(String issuer) {
        try {
            URI u = URI.create(issuer);
            if ("https".equals(u.getScheme()) && u.getHost() != null) {
                return true;
            }
            return "http".equals(u.getScheme()) && ("127.0.0.1".equals(u.getHost()) || "localhost".equals(u.getHost()));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The provider of this name, or 404. */
    OidcConfig.Provider provider(String name) {
        OidcConfig.Provider p = config.providers().get(name);
        if (p == null) {
            throw ApiException.notFound("no sign-in provider is named '" + name + "'");
        }
        return p;
    }

    Map<String, OidcConfig.Provider> all() {
        return config.providers();
    }

    /** The mark of a provider on the memberships it grants and on its links. */
    static String source(String name) {
        return "oidc:" + name;
    }

    static OidcProfile profile(OidcConfig.Provider p) {
        OidcConfig.Claims c = p.claims();
        return new OidcProfile(c.username(), c.displayName(), c.email(), c.groups());
    }

    static List<DirectorySync.GroupMapping> mappings(OidcConfig.Provider p) {
        List<DirectorySync.GroupMapping> out = new ArrayList<>();
        p.groups().values().forEach(g -> out.add(new DirectorySync.GroupMapping(g.group(), g.account(), g.role())));
        return out;
    }

    /** The provider's discovery document, from the cache when it is fresh. */
    Uni<Metadata> metadata(String name) {
        OidcConfig.Provider p = provider(name);
        Cached<Metadata> c = metadata.get(name);
        if (c != null && c.at().plus(METADATA_TTL).isAfter(clock.instant())) {
            return Uni.createFrom().item(c.value());
        }
        String url = p.issuer().replaceAll("/+$", "") + "/.well-known/openid-configuration";
        return getJson(name, url).map(json -> {
            Metadata m = new Metadata(
                    json.getString("issuer"),
                    json.getString("authorization_endpoint"),
                    json.getString("token_endpoint"),
                    json.getString("userinfo_endpoint"),
                    json.getString("jwks_uri"));
            if (!p.issuer().equals(m.issuer())) {
                throw unavailable(name, "its discovery document names the issuer '" + m.issuer() + "'");
            }
            if (m.authorizationEndpoint() == null || m.tokenEndpoint() == null || m.jwksUri() == null) {
                throw unavailable(name, "its discovery document lacks an authorization, token or JWKS endpoint");
            }
            metadata.put(name, new Cached<>(m, clock.instant()));
            return m;
        });
    }

    /** The provider's signing keys; {@code fresh} reads them again unless they were read in the last 30 s. */
    Uni<JWKSet> keys(String name, Metadata m, boolean fresh) {
        Cached<JWKSet> c = keys.get(name);
        Instant now = clock.instant();
        if (c != null && (!fresh || c.at().plus(KEYS_MIN_INTERVAL).isAfter(now))) {
            return Uni.createFrom().item(c.value());
        }
        return getJson(name, m.jwksUri()).map(json -> {
            try {
                JWKSet set = JWKSet.parse(json.encode());
                keys.put(name, new Cached<>(set, now));
                return set;
            } catch (java.text.ParseException e) {
                throw unavailable(name, "its JWKS cannot be read");
            }
        });
    }

    /** Exchanges the authorization code at the token endpoint (client_secret_basic, or a public client's id). */
    Uni<JsonObject> exchange(String name, Metadata m, String code, String verifier, String redirectUri) {
        OidcConfig.Provider p = provider(name);
        io.vertx.core.MultiMap form = io.vertx.core.MultiMap.caseInsensitiveMultiMap()
                .add("grant_type", "authorization_code")
                .add("code", code)
                .add("redirect_uri", redirectUri)
                .add("code_verifier", verifier);
        var request = client().postAbs(m.tokenEndpoint()).timeout(TIMEOUT_MS).putHeader("Accept", "application/json");
        if (p.clientSecret().isPresent()) {
            request.basicAuthentication(
                    formEncode(p.clientId()), formEncode(p.clientSecret().get()));
        } else {
            form.add("client_id", p.clientId());
        }
        return call(name, () -> request.sendForm(form)).map(r -> {
            JsonObject body = json(r);
            if (r.statusCode() / 100 != 2 || body == null || body.getString("id_token") == null) {
                String error =
                        body == null ? "HTTP " + r.statusCode() : body.getString("error", "HTTP " + r.statusCode());
                String why = body == null ? null : body.getString("error_description");
                throw ApiException.unauthorized(
                        "ProviderRefused",
                        "the provider refused the sign-in: " + error + (why == null ? "" : " (" + why + ")"));
            }
            return body;
        });
    }

    /** The userinfo answer for this access token, or an empty object when the provider has no userinfo endpoint. */
    Uni<JsonObject> userinfo(String name, Metadata m, String accessToken) {
        if (m.userinfoEndpoint() == null || accessToken == null) {
            return Uni.createFrom().item(new JsonObject());
        }
        return call(
                        name,
                        () -> client().getAbs(m.userinfoEndpoint())
                                .timeout(TIMEOUT_MS)
                                .putHeader("Accept", "application/json")
                                .bearerTokenAuthentication(accessToken)
                                .send())
                .map(r -> {
                    JsonObject body = json(r);
                    if (r.statusCode() != 200 || body == null) {
                        throw unavailable(name, "its userinfo endpoint answered HTTP " + r.statusCode());
                    }
                    return body;
                });
    }

    private Uni<JsonObject> getJson(String name, String url) {
        return call(
                        name,
                        () -> client().getAbs(url)
                                .timeout(TIMEOUT_MS)
                                .putHeader("Accept", "application/json")
                                .send())
                .map(r -> {
                    JsonObject body = json(r);
                    if (r.statusCode() != 200 || body == null) {
                        throw unavailable(name, url + " answered HTTP " + r.statusCode());
                    }
                    return body;
                });
    }

    private Uni<HttpResponse<Buffer>> call(String name, Supplier<io.vertx.core.Future<HttpResponse<Buffer>>> send) {
        return Uni.createFrom()
                .completionStage(() -> send.get().toCompletionStage())
                .onFailure(e -> !(e instanceof ApiException))
                .transform(e -> {
                    LOG.warnf("OpenID provider %s: %s", name, e.getMessage());
                    return unavailable(
                            name, "it cannot be reached (" + e.getClass().getSimpleName() + ")");
                });
    }

    private static JsonObject json(HttpResponse<Buffer> r) {
        try {
            return r.body() == null ? null : r.bodyAsJsonObject();
        } catch (RuntimeException e) {
            return null;
        }
    }

    static ApiException unavailable(String name, String why) {
        return new ApiException(
                503,
                "ProviderUnavailable",
                "Service unavailable",
                "the sign-in provider '" + name + "' cannot be used: " + why
                        + "; try again later (password sign-in still works)",
                null,
                null,
                null);
    }

    /** RFC 6749 2.3.1: the client id and secret are form-encoded before they go into Basic authentication. */
    static String formEncode(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }

    private WebClient client() {
        WebClient c = web;
        if (c == null) {
            synchronized (this) {
                if (web == null) {
                    web = WebClient.create(
                            vertx,
                            new WebClientOptions()
                                    .setConnectTimeout(5000)
                                    .setIdleTimeout(15)
                                    .setFollowRedirects(false)
                                    .setUserAgent("crater"));
                }
                c = web;
            }
        }
        return c;
    }
}
